"""Random playouts: counts, determinism, and agreement with real random games."""

from __future__ import annotations

import random

import pytest

import hexengine as hx


def test_counts_add_up_and_repeat_with_the_seed() -> None:
    """Every playout has exactly one winner, and the same seed gives the same counts."""
    game = hx.Game("hex", size=7)
    game.play("d4")
    first = game.random_playouts(5000, seed=11)
    assert sum(first.values()) == 5000
    assert game.random_playouts(5000, seed=11) == first
    assert game.random_playouts(5000, seed=12) != first


def test_threads_share_the_work() -> None:
    """With several threads the counts still add up to n, and are reproducible."""
    game = hx.Game("rex", size=9)
    counts = game.random_playouts(10_001, seed=5, threads=3)
    assert sum(counts.values()) == 10_001
    assert game.random_playouts(10_001, seed=5, threads=3) == counts


def test_forced_outcomes() -> None:
    """On a one-row board Red's first stone always joins rows 1 and 1: Red wins Hex, loses Rex."""
    assert hx.Game("hex", rows=1, cols=4).random_playouts(100)[hx.RED] == 100
    assert hx.Game("rex", rows=1, cols=4).random_playouts(100)[hx.BLUE] == 100
    assert hx.Game("dark", rows=1, cols=1).random_playouts(100)[hx.RED] == 100


def test_finished_game_counts_for_its_winner() -> None:
    """From a finished game (any end reason) every playout is the actual winner's."""
    game = hx.Game("hex", size=5)
    game.resign(hx.RED)
    assert game.random_playouts(50) == {hx.RED: 0, hx.BLUE: 50}


def test_two_by_two_hex_is_even() -> None:
    """On 2x2 Hex each side gets two cells; three of the six red pairs connect, so Red wins half."""
    counts = hx.Game("hex", size=2).random_playouts(60_000, seed=3)
    assert abs(counts[hx.RED] / 60_000 - 0.5) < 0.01


@pytest.mark.parametrize("bad", [-1, 1.5, "10", None, True, 2**63])
def test_bad_counts_are_rejected(bad: object) -> None:
    """A negative, non-integer or too large number of playouts is a clear error."""
    with pytest.raises(hx.ConfigError, match=r"^n must be"):
        hx.Game("hex", size=3).random_playouts(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [0, 257, 2**40, None, 1.5])
def test_bad_thread_count_is_rejected(bad: object) -> None:
    """Threads must be between 1 and 256; other types and counts past the core's
    int (once pybind11's "incompatible function arguments") are named too."""
    with pytest.raises(hx.ConfigError, match=r"^threads must be"):
        hx.Game("hex", size=3).random_playouts(10, threads=bad)  # type: ignore[arg-type]


def referee_random_game(game: hx.Game, rng: random.Random) -> hx.Color:
    """A random game played move by move through the referee: each side picks
    uniformly among the moves its own knowledge allows (never the swap)."""
    game = game.copy()
    while not game.is_over:
        game.play(rng.choice([m for m in game.legal_moves() if m != hx.SWAP]))
    assert game.winner is not None
    return game.winner


@pytest.mark.parametrize(
    ("variant", "rows", "cols", "opening"),
    [
        ("hex", 3, 3, []),
        ("hex", 3, 4, ["b2"]),
        ("rex", 3, 3, ["a1"]),
        ("rex", 4, 3, []),
        ("dark", 3, 3, ["b2", "b2"]),
        ("dark-abrupt", 3, 3, ["a2", "c1"]),
        ("dark", 2, 4, []),
    ],
)
def test_playouts_match_random_games_through_the_referee(
    variant: str, rows: int, cols: int, opening: list[str]
) -> None:
    """The C++ playouts (board filling in Hex and Rex, the dark rules in Dark
    Hex) give the same win rate as random games played through the referee."""
    game = hx.Game(variant, rows=rows, cols=cols, swap="off")  # type: ignore[arg-type]
    for move in opening:
        game.play(move)
    rng = random.Random(1)
    games = 3000
    referee = sum(referee_random_game(game, rng) == hx.RED for _ in range(games)) / games
    fast = game.random_playouts(100_000, seed=2)[hx.RED] / 100_000
    # Binomial standard error of the referee estimate is at most 0.009.
    assert abs(referee - fast) < 0.04, (referee, fast)
