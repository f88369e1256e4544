"""pytest-benchmark suite: run with ``python -m pytest bench/test_speed.py --benchmark-only``.

Each benchmark does a fixed amount of work, so its time per round is
comparable between commits on one machine (``--benchmark-compare``). The
side-by-side ratios against OpenSpiel come from ``bench/compare_openspiel.py``.
"""

from __future__ import annotations

import pytest

import hexengine as hx

MIDGAME = ["f6", "e7", "g4", "d5", "c8", "h7", "e4", "f8", "d9", "g6", "c4", "e9", "h3", "b6", "i5", "g9"]


@pytest.mark.parametrize(
    ("variant", "size"), [("hex", 7), ("hex", 11), ("hex", 19), ("rex", 11), ("dark", 11)]
)
def test_random_playouts(benchmark, variant: str, size: int) -> None:
    """10,000 random playouts from the empty board."""
    game = hx.Game(variant, size=size)
    wins = benchmark(game.random_playouts, 10_000, seed=1)
    assert sum(wins.values()) == 10_000


@pytest.mark.parametrize("position", ["empty", "midgame"])
def test_mcts_simulations(benchmark, position: str) -> None:
    """One 20,000-simulation search on 11x11 Hex, one thread."""
    game = hx.Game("hex", size=11, swap="off")
    for move in MIDGAME if position == "midgame" else []:
        game.play(move)
    view = game.view(game.to_move)

    def search() -> hx.Analysis:
        return hx.MCTSBot(simulations=20_000, seed=1).analyse(view)

    analysis = benchmark(search)
    assert analysis.simulations == 20_000


def test_mcts_two_threads(benchmark) -> None:
    """One 40,000-simulation search on 11x11 Hex, two threads."""
    view = hx.Game("hex", size=11, swap="off").view(hx.RED)
    analysis = benchmark(lambda: hx.MCTSBot(simulations=40_000, threads=2, seed=1).analyse(view))
    assert analysis.simulations == 40_000


def test_referee_random_game(benchmark) -> None:
    """A whole random 11x11 game through the Python API (play, legal_moves)."""
    import random

    def game() -> hx.Game:
        rng = random.Random(1)
        g = hx.Game("hex", size=11, swap="off")
        while not g.is_over:
            g.play(rng.choice(g.legal_moves()))
        return g

    assert benchmark(game).is_over
