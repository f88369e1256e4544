"""The C++ code keeps its layers: every include line under cpp/ names the
folder it reaches into and reaches only as far as its own layer may.

The folders, each using only those below it: core (includes nothing outside
core), solver (core), search (core and solver), dark (core, solver and
search), bot (all of those), bindings (all but tests); tests use all but
bindings. No include circle runs between files of different folders: no chain
of includes leaves a folder and comes back to it. These tests read the sources
only; they need no build.
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from pathlib import Path

import pytest
from graphs import circles

CPP = Path(__file__).resolve().parent.parent / "cpp"

# What the files of each folder may include, folder by folder.
ALLOWED = {
    "core": {"core"},
    "solver": {"core", "solver"},
    "search": {"core", "solver", "search"},
    "dark": {"core", "solver", "search", "dark"},
    "bot": {"core", "solver", "search", "dark", "bot"},
    "bindings": {"core", "solver", "search", "dark", "bot", "bindings"},
    "tests": {"core", "solver", "search", "dark", "bot", "tests"},
}
ORDER = list(ALLOWED)
SOURCES = (".h", ".cpp", ".inc")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def includes(root: Path) -> dict[str, list[tuple[int, str]]]:
    """Every source file under `root` (as a path relative to it) with its quoted includes (line, text)."""
    found = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix in SOURCES:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
            matches = ((n, INCLUDE.match(line)) for n, line in enumerate(lines, 1))
            found[path.relative_to(root).as_posix()] = [(n, m.group(1)) for n, m in matches if m]
    return found


def folder_of(name: str) -> str | None:
    """The layer folder of a path relative to cpp/, or None if it lies in none."""
    head, sep, _ = name.partition("/")
    return head if sep and head in ALLOWED else None


def cycle_through(edges: dict[str, set[str]], component: list[str], first: str, second: str) -> list[str]:
    """A cycle first -> second -> ... -> first inside `component` (breadth first from `second`)."""
    inside = set(component)
    came_from = {second: second}
    queue = [second]
    for node in queue:
        if node == first:
            break
        for child in sorted(edges[node] & inside):
            if child not in came_from:
                came_from[child] = node
                queue.append(child)
    path = [first]
    while path[-1] != second:
        path.append(came_from[path[-1]])
    return [first, *reversed(path)]


def layer_violations(root: Path, allowed: dict[str, set[str]] = ALLOWED) -> list[str]:
    """Every breach of the layering in the C++ tree at `root`, one message each (empty when it keeps
    it); `allowed` says what each folder may include."""
    sources = includes(root)
    problems = []
    # Between folders: for each pair, the first include that leads from one to the other.
    crossings: dict[str, dict[str, str]] = defaultdict(dict)
    for name, lines in sources.items():
        folder = folder_of(name)
        if folder is None:
            problems.append(f"cpp/{name}: lies in no layer folder ({', '.join(ORDER)})")
        for line, text in lines:
            where = f'cpp/{name}:{line}: #include "{text}"'
            target = folder_of(text)
            if target is None:
                base = text.rsplit("/", 1)[-1]
                same_name = [s for s in sources if folder_of(s) and s.rsplit("/", 1)[-1] == base]
                hint = f'; write "{same_name[0]}"' if len(same_name) == 1 else ""
                problems.append(f"{where}: an include must name its folder from cpp/{hint}")
                continue
            if text not in sources:
                problems.append(f"{where}: names no file under cpp/")
                continue
            if folder is not None and target not in allowed[folder]:
                may = ", ".join(f for f in ORDER if f in allowed[folder])
                problems.append(f"{where}: {folder} may include only {may}, not {target}")
            if folder is not None and target != folder:
                crossings[folder].setdefault(target, f'cpp/{name} includes "{text}"')
    edges = {folder: set(crossings[folder]) for folder in ALLOWED}
    for component in circles(edges):
        first = min(component, key=ORDER.index)
        second = min(edges[first] & set(component), key=ORDER.index)
        cycle = cycle_through(edges, component, first, second)
        steps = ", ".join(crossings[a][b] for a, b in itertools.pairwise(cycle))
        problems.append(f"include circle between folders {' -> '.join(cycle)}: {steps}")
    return problems


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """A fake cpp/ tree under `root` with the given files and contents."""
    for name, text in files.items():
        path = root / "cpp" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root / "cpp"


# A small tree that keeps every rule.
CLEAN = {
    "core/state.h": '#pragma once\n#include "core/bitboard.h"\n',
    "core/bitboard.h": "#pragma once\n",
    "solver/solver.h": '#pragma once\n#include "core/state.h"\n',
    "search/mcts.h": '#pragma once\n#include <vector>\n#include "solver/solver.h"\n',
    "search/mcts.cpp": '#include "search/mcts.h"\n#include "core/state.h"\n',
    "search/weights.inc": "constexpr int kWeights[] = {1};\n",
    "search/patterns.cpp": 'namespace w {\n#include "search/weights.inc"\n}\n',
    "dark/dark_search.h": '#pragma once\n#include "search/mcts.h"\n',
    "dark/belief.h": "#pragma once\n",
    "bot/bot.h": '#pragma once\n#include "dark/dark_search.h"\n#include "search/mcts.h"\n',
    "bindings/module.cpp": '#include "bot/bot.h"\n',
    "tests/check.h": "#pragma once\n",
    "tests/bot_tests.cpp": '#include "bot/bot.h"\n#include "tests/check.h"\n',
}


@pytest.mark.skipif(not CPP.is_dir(), reason="cpp/ is not next to the tests")
def test_the_cpp_tree_keeps_its_layers() -> None:
    """No file under cpp/ includes a higher layer, leaves out a folder or closes a circle between folders."""
    sources = includes(CPP)
    assert len(sources) > 40 and any(lines for lines in sources.values())
    problems = layer_violations(CPP)
    assert not problems, "the C++ layering is broken:\n" + "\n".join(problems)


def test_a_tree_that_keeps_the_rules_passes(tmp_path: Path) -> None:
    assert layer_violations(write_tree(tmp_path, CLEAN)) == []


def test_an_include_of_a_higher_layer_is_reported(tmp_path: Path) -> None:
    """The search reaching up into the dark layer, which uses the search: the include breaks the
    order of the layers and closes a circle between the two folders (no file includes itself again)."""
    tree = {**CLEAN, "search/mcts.cpp": '#include "search/mcts.h"\n#include "dark/belief.h"\n'}
    problems = layer_violations(write_tree(tmp_path, tree))
    assert problems == [
        'cpp/search/mcts.cpp:2: #include "dark/belief.h": '
        "search may include only core, solver, search, not dark",
        "include circle between folders search -> dark -> search: "
        'cpp/search/mcts.cpp includes "dark/belief.h", cpp/dark/dark_search.h includes "search/mcts.h"',
    ]


@pytest.mark.parametrize(
    ("name", "folder"),
    [("core/state.h", "bot"), ("solver/solver.h", "search"), ("bindings/module.cpp", "tests")],
)
def test_each_layer_refuses_what_is_above_it(tmp_path: Path, name: str, folder: str) -> None:
    target = {"bot": "bot/bot.h", "search": "search/mcts.h", "tests": "tests/check.h"}[folder]
    tree = {**CLEAN, name: CLEAN[name] + f'#include "{target}"\n'}
    problems = layer_violations(write_tree(tmp_path, tree))
    line = CLEAN[name].count("\n") + 1
    wanted = f'cpp/{name}:{line}: #include "{target}": '
    assert any(p.startswith(wanted) and p.endswith(f"not {folder}") for p in problems), problems


def test_an_include_without_its_folder_is_reported(tmp_path: Path) -> None:
    """Outside core and inside it alike, an include names the folder of its file."""
    tree = {
        **CLEAN,
        "solver/solver.h": '#pragma once\n#include "state.h"\n',
        "core/state.h": '#pragma once\n#include "bitboard.h"\n',
    }
    problems = layer_violations(write_tree(tmp_path, tree))
    rule = "an include must name its folder from cpp/"
    assert problems == [
        f'cpp/core/state.h:2: #include "bitboard.h": {rule}; write "core/bitboard.h"',
        f'cpp/solver/solver.h:2: #include "state.h": {rule}; write "core/state.h"',
    ]


def test_an_include_of_no_file_and_a_file_outside_the_layers_are_reported(tmp_path: Path) -> None:
    tree = {**CLEAN, "search/mcts.cpp": '#include "search/gone.h"\n', "loose.h": "#pragma once\n"}
    problems = layer_violations(write_tree(tmp_path, tree))
    assert problems == [
        "cpp/loose.h: lies in no layer folder (core, solver, search, dark, bot, bindings, tests)",
        'cpp/search/mcts.cpp:1: #include "search/gone.h": names no file under cpp/',
    ]


def test_an_include_circle_between_folders_is_reported(tmp_path: Path) -> None:
    """A circle is refused even where the layers would allow each step (here, if search and dark
    could include each other): the search's mcts.cpp including the Dark Hex search, whose header
    includes the search's mcts.h, as before the bot layer existed. A circle inside one folder is
    left to the compiler."""
    tree = {
        **CLEAN,
        "search/mcts.cpp": '#include "search/mcts.h"\n#include "dark/dark_search.h"\n',
        "core/a.h": '#pragma once\n#include "core/b.h"\n',
        "core/b.h": '#pragma once\n#include "core/a.h"\n',
    }
    allowed = {**ALLOWED, "search": ALLOWED["search"] | {"dark"}}
    problems = layer_violations(write_tree(tmp_path, tree), allowed)
    assert problems == [
        "include circle between folders search -> dark -> search: "
        'cpp/search/mcts.cpp includes "dark/dark_search.h", cpp/dark/dark_search.h includes "search/mcts.h"'
    ]


def test_a_circle_through_several_folders_names_each_step(tmp_path: Path) -> None:
    tree = {**CLEAN, "core/bitboard.h": '#pragma once\n#include "bot/bot.h"\n'}
    problems = layer_violations(write_tree(tmp_path, tree))
    assert problems[-1] == (
        "include circle between folders core -> bot -> search -> core: "
        'cpp/core/bitboard.h includes "bot/bot.h", cpp/bot/bot.h includes "search/mcts.h", '
        'cpp/search/mcts.cpp includes "core/state.h"'
    )
