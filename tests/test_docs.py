"""Every example in the package's docstrings and in the README runs and prints what it shows."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import hexengine as hx

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
MODULES = sorted(
    name
    for _, name, _ in pkgutil.walk_packages(hx.__path__, prefix="hexengine.")
    if not name.endswith(("_core", "__main__"))
)
README = Path(__file__).resolve().parent.parent / "README.md"


@pytest.mark.parametrize("name", ["hexengine", *MODULES])
def test_docstring_examples_run(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name and not e.name.startswith("hexengine"):
            pytest.skip(f"{name} needs the optional {e.name} (an extra that is not installed)")
        raise
    result = doctest.testmod(module, extraglobs={"hx": hx}, optionflags=FLAGS, report=True)
    assert result.failed == 0


def test_readme_examples_run() -> None:
    if not README.exists():
        pytest.skip("README.md is not next to the tests (installed without the source tree)")
    result = doctest.testfile(str(README), module_relative=False, globs={"hx": hx}, optionflags=FLAGS)
    assert result.failed == 0
    assert result.attempted > 0, "the README shows no runnable example"


@pytest.mark.parametrize("page", sorted(p.name for p in (README.parent / "docs").glob("*.md")))
def test_examples_in_the_docs_run(page: str) -> None:
    path = README.parent / "docs" / page
    result = doctest.testfile(str(path), module_relative=False, globs={"hx": hx}, optionflags=FLAGS)
    assert result.failed == 0


def test_type_stubs_cover_the_compiled_module() -> None:
    """_core.pyi declares every public function, class and member of the compiled module,
    so type checkers see the whole C++ surface."""
    import re

    from hexengine import _core

    stub = (Path(hx.__file__).parent / "_core.pyi").read_text(encoding="utf-8")
    missing = []
    for name in (n for n in dir(_core) if not n.startswith("_")):
        if not re.search(rf"^(class |def ){name}\b|^{name}:", stub, re.M):
            missing.append(name)
        elif isinstance(obj := getattr(_core, name), type):
            missing += [f"{name}.{m}" for m in dir(obj) if not m.startswith("_") and f" {m}(" not in stub]
    assert not missing, f"not in _core.pyi: {missing}"
