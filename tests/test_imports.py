"""The Python package's modules import each other without a circle, and the format layer
(``hexengine.records``) stays below the table, the command line and the server.

Every import counts, at the top of a module or inside a function (a function's import
is a dependency all the same); only imports under ``if TYPE_CHECKING:`` are left out,
since they never run. Importing a module of a subpackage runs the subpackage's
``__init__`` first, so that counts as a dependency too.
"""

from __future__ import annotations

import ast
from pathlib import Path

from graphs import circles

import hexengine as hx

PACKAGE = Path(hx.__file__).parent


def module_files(root: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` file of the package at ``root``."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _checked_at_runtime(tree: ast.AST) -> list[ast.stmt]:
    """The import statements of ``tree`` outside ``if TYPE_CHECKING:`` blocks."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom) and id(n) not in skipped]


def import_graph(root: Path) -> dict[str, set[str]]:
    """Each module of the package at ``root`` -> the package's modules it imports."""
    files = module_files(root)
    top = root.name
    # Compiled modules have no .py file; they import nothing of the package.
    known = set(files) | {f"{top}._core"}

    def owner(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        is_package = path.name == "__init__.py"
        deps: set[str | None] = set()
        for node in _checked_at_runtime(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                deps.update(owner(a.name) for a in node.names if a.name.split(".")[0] == top)
                continue
            if node.level:
                base = name if is_package else name.rpartition(".")[0]
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                target = f"{base}.{node.module}" if node.module else base
            elif (node.module or "").split(".")[0] == top:
                target = node.module or top
            else:
                continue
            for alias in node.names:
                full = f"{target}.{alias.name}"
                deps.add(full if full in known else owner(target))
        # A subpackage's module runs the subpackage's __init__ first (the top package's
        # own __init__ runs before anything, so it is nobody's dependency).
        for dep in [d for d in deps if d]:
            parts = dep.split(".")
            for k in range(2, len(parts)):
                parent = ".".join(parts[:k])
                if parent in files and not name.startswith(parent + "."):
                    deps.add(parent)
        graph[name] = {d for d in deps if d and d != name and d != top}
    return graph


def describe(part: list[str], graph: dict[str, set[str]]) -> str:
    return "; ".join(f"{m} imports {sorted(graph[m] & set(part))}" for m in part)


def test_the_package_has_no_import_circle() -> None:
    graph = import_graph(PACKAGE)
    assert len(graph) > 30, "the walk found too few modules to mean anything"
    found = circles(graph)
    assert not found, "import circles: " + " | ".join(describe(part, graph) for part in found)


def test_records_import_only_the_game_layer() -> None:
    """Records are a format layer: the table, the command line, the server, matches and HTP
    use them; they use none of those."""
    graph = import_graph(PACKAGE)
    above = ("table", "cli", "server", "htp", "match", "bots", "solver", "darkcfr")
    for name in (m for m in graph if m.startswith("hexengine.records")):
        bad = sorted(d for d in graph[name] if d.split(".")[1] in above)
        assert not bad, f"{name} imports {bad}, a layer above the records"
    users = {m for m, deps in graph.items() if any(d.startswith("hexengine.records") for d in deps)}
    assert {"hexengine.table.settings", "hexengine.table.table"} <= users


def test_the_walk_finds_circles_through_functions_and_subpackages(tmp_path: Path) -> None:
    """The check itself: a circle made by an import inside a function, and one that passes
    through a subpackage's ``__init__``, are both reported; TYPE_CHECKING imports are not."""
    pkg = tmp_path / "toy"
    (pkg / "sub").mkdir(parents=True)
    files = {
        "__init__.py": "from . import a\n",
        "a.py": "from .b import thing\n",
        "b.py": "def thing():\n    from .a import other\n",
        "c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .d import x\n",
        "d.py": "from .c import y\n",
        "sub/__init__.py": "from .inner import z\n",
        "sub/inner.py": "from ..e import w\n",
        "e.py": "from .sub.other import v\n",
        "sub/other.py": "v = 1\n",
    }
    for name, text in files.items():
        (pkg / name).write_text(text, encoding="utf-8")
    graph = import_graph(pkg)
    assert graph["toy.b"] == {"toy.a"}
    assert graph["toy.c"] == set()
    assert circles(graph) == [["toy.a", "toy.b"], ["toy.e", "toy.sub", "toy.sub.inner"]]
