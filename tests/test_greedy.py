"""hx.GreedyBot: the shortest-connection baseline.

Its scores agree with a shortest-path search written here from docs/rules.md
(own stones free, cells the player does not know to be occupied cost one, the
enemy stones it sees block) on random positions of every variant; it plays a
best-scoring cell, the same one whatever stones are hidden from it; in Rex it
keeps away from its own connection; it beats a random player in Dark Hex; bad
input is a clear error.
"""

from __future__ import annotations

import heapq
import random

import numpy as np
import pytest
from _scripts import wins
from oracle import neighbours, on_edge

import hexengine as hx

VARIANTS = ("hex", "rex", "dark", "dark-abrupt")


def reference_distance(board: np.ndarray, color: hx.Color) -> int:
    """Fewest non-own cells on a path of ``color`` between its edges; enemy stones block (Dijkstra)."""
    rows, cols = board.shape
    me, far = int(color), 10**6
    best: dict[tuple[int, int], int] = {}
    heap = []
    for r in range(rows):
        for c in range(cols):
            if on_edge(color, (r, c), rows, cols, 0) and board[r, c] in (0, me):
                cost = 0 if board[r, c] == me else 1
                heapq.heappush(heap, (cost, (r, c)))
    while heap:
        d, cell = heapq.heappop(heap)
        if cell in best:
            continue
        best[cell] = d
        if on_edge(color, cell, rows, cols, 1):
            return d
        for n in neighbours(cell, rows, cols):
            if n not in best and board[n] in (0, me):
                heapq.heappush(heap, (d + (0 if board[n] == me else 1), n))
    return far


def random_position(variant: str, rng: random.Random) -> hx.Game:
    """A running game of random moves, each player choosing from its own view."""
    rows, cols = rng.randint(1, 7), rng.randint(1, 7)
    kwargs = {"swap": "off"} if variant in ("hex", "rex") else {}
    game = hx.Game(variant, rows=rows, cols=cols, **kwargs)  # type: ignore[arg-type]
    for _ in range(rng.randint(0, rows * cols)):
        trial = game.copy()
        move = rng.choice(trial.legal_moves())
        trial.play(move)
        if trial.is_over:
            break
        game.play(move)
    return game


@pytest.mark.parametrize("variant", VARIANTS)
def test_distances_agree_with_a_shortest_path_search(variant: str) -> None:
    """On 60 random positions per variant, each legal cell's score is the reference distance of
    the viewer's board with its stone added, and the other cells score -1."""
    rng = random.Random(variant)
    for _ in range(60):
        game = random_position(variant, rng)
        color = game.to_move
        view = game.view(color)
        scores = hx.GreedyBot().distances(view)
        board = view.board
        for r in range(board.shape[0]):
            for c in range(board.shape[1]):
                if board[r, c] != 0:
                    assert scores[r, c] == -1
                    continue
                after = board.copy()
                after[r, c] = int(color)
                assert scores[r, c] == reference_distance(after, color), (view, (r, c))


@pytest.mark.parametrize("variant", VARIANTS)
def test_plays_a_best_cell_whatever_is_hidden(variant: str) -> None:
    """The chosen cell has the best score (fewest in Hex and Dark Hex, most in Rex); in Dark Hex
    two games that differ only in stones hidden from the mover get the same move from the same
    seed."""
    rng = random.Random(f"{variant}-best")
    for i in range(40):
        game = random_position(variant, rng)
        view = game.view(game.to_move)
        scores = hx.GreedyBot().distances(view)
        legal = scores[scores >= 0]
        move = hx.GreedyBot(seed=i).choose(view)
        assert move in view.legal_moves()
        assert scores[move.row, move.col] == (legal.max() if variant == "rex" else legal.min())
        if variant.startswith("dark"):
            for twin in view.sample_games(3, seed=i):
                assert hx.GreedyBot(seed=i).choose(twin.view(game.to_move)) == move


def test_ties_are_broken_by_the_seed() -> None:
    """On the empty board every cell ties: the same seed picks the same cell, seeds differ."""
    view = hx.Game("dark", size=7).view(hx.RED)
    assert hx.GreedyBot(seed=5).choose(view) == hx.GreedyBot(seed=5).choose(view)
    assert len({hx.GreedyBot(seed=s).choose(view) for s in range(20)}) > 5


def test_completes_its_chain_in_hex_and_avoids_it_in_rex() -> None:
    """With a1 and a2 on 3x3, Red completes with a3 in Hex; in Rex it never plays a cell that
    joins its edges while another cell is left."""
    for variant in ("hex", "rex"):
        game = hx.Game(variant, size=3, swap="off")  # type: ignore[arg-type]
        for move in ["a1", "c1", "a2", "c2"]:
            game.play(move)
        move = hx.GreedyBot(seed=0).choose(game.view(hx.RED))
        trial = game.copy()
        trial.play(move)
        if variant == "hex":
            assert move == hx.Cell.parse("a3") and trial.winner == hx.RED
        else:
            assert not trial.is_over


@pytest.mark.parametrize("variant", ["dark", "dark-abrupt"])
def test_beats_a_random_player(variant: str) -> None:
    """20 games on 5x5 against hx.RandomBot, colours alternating: at least 17 won (about 98%
    in 200-game runs)."""
    assert wins(lambda i: hx.GreedyBot(seed=i), lambda i: hx.RandomBot(seed=i), variant, 5, 20) >= 17


def test_errors_and_repr() -> None:
    """Only the view of the player to move in a running game is scored; anything else is a
    clear error."""
    game = hx.Game("dark", size=4)
    bot = hx.GreedyBot(seed=2)
    assert repr(bot) == "GreedyBot(seed=2)"
    with pytest.raises(hx.ConfigError, match="player to move"):
        bot.choose(game.view(hx.BLUE))
    with pytest.raises(hx.ConfigError, match="player to move"):
        bot.choose(game.spectator_view())
    with pytest.raises(TypeError, match="View"):
        bot.choose(game)  # type: ignore[arg-type]
    game.resign(hx.RED)
    with pytest.raises(hx.ConfigError, match="over"):
        bot.choose(game.view(hx.RED))
