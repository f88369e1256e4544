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


def test_integer_action_loop(benchmark) -> None:
    """A whole random 11x11 game through the fast path (legal_actions, apply)."""
    import random

    def game() -> hx.Game:
        rng = random.Random(1)
        g = hx.Game("hex", size=11, swap="off")
        while not g.is_over:
            a = g.legal_actions()
            g.apply(a[rng.randrange(len(a))])
        return g

    assert benchmark(game).is_over


def test_integer_action_loop_with_undo(benchmark) -> None:
    """A whole random 11x11 Dark Hex game, each move tried, taken back and replaced."""
    import random

    def game() -> hx.Game:
        rng = random.Random(1)
        g = hx.Game("dark", size=11)
        while not g.is_over:
            a = g.legal_actions()
            g.apply(a[rng.randrange(len(a))])
            g.undo()
            g.apply(a[rng.randrange(len(a))])
        return g

    assert benchmark(game).is_over


@pytest.mark.parametrize("variant", ["hex", "dark"])
def test_planes(benchmark, variant: str) -> None:
    """View.planes() of an 11x11 midgame view, float32."""
    game = hx.Game(variant, size=11, swap="off")
    for move in MIDGAME:
        game.play(move)
    view = game.view(game.to_move)
    assert benchmark(view.planes).shape == (len(hx.PLANES), 11, 11)


@pytest.mark.parametrize(("threads", "dtype"), [(1, "bool"), (1, "float32"), (2, "bool")])
def test_vector_env_step(benchmark, threads: int, dtype: str) -> None:
    """One step of 1,024 11x11 Hex games with random legal actions drawn in C++."""
    env = hx.VectorEnv("hex", size=11, num_envs=1024, threads=threads, dtype=dtype)
    env.reset(seed=1)

    def step() -> int:
        return len(env.step(env.sample_actions())[0])

    assert benchmark(step) == 1024
