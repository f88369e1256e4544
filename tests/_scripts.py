"""Helpers shared by tests: loading a script of the source tree, playing a short match."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import hexengine as hx

ROOT = Path(__file__).resolve().parent.parent


def load_script(relative: str) -> ModuleType:
    """The module of a script of the source tree (``bench/...``, ``tools/...``,
    ``examples/...``), loaded by its path; skips the test when the source tree is not
    next to the tests (the package installed without it)."""
    path = ROOT / relative
    if not path.exists():
        pytest.skip(f"{relative} is not next to the tests (installed without the source tree)")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the script runs
    spec.loader.exec_module(module)
    return module


Bot = Callable[[int], Any]  # game index -> a bot with choose(view)


def wins(ours: Bot, theirs: Bot, variant: str, size: int, games: int) -> int:
    """Games won by ``ours(i)`` against ``theirs(i)`` in game i, i from 0, colours
    alternating (ours Red in the even games), each bot choosing from its own view."""
    won = 0
    for i in range(games):
        game = hx.Game(variant, size=size)  # type: ignore[arg-type]
        mine, other = ours(i), theirs(i)
        colour = hx.RED if i % 2 == 0 else hx.BLUE
        while not game.is_over:
            player = mine if game.to_move == colour else other
            game.play(player.choose(game.view(game.to_move)))
        won += game.winner == colour
    return won
