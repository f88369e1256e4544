"""Reference code for the tests, written from docs/rules.md and independent of the engine.

The engine holds the only implementation of the rules; the tests check it
against these small, obviously-right restatements: the six neighbours of a
cell, a flood fill that says whether a colour joins its two edges, the
visibility model of Dark Hex computed from the referee's full record, and a
random player that, like a bot, only looks at its own view.
"""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Callable, Iterable

import numpy as np

import hexengine as hx

VARIANTS = ("hex", "rex", "dark", "dark-abrupt")
SHAPES = ((1, 1), (1, 7), (7, 1), (2, 5), (5, 2), (4, 3), (3, 4), (2, 2), (3, 3), (7, 7), (11, 11), (19, 19))

# Multiplies the number of examples of every property and fuzz test: HEXENGINE_EXAMPLES=20 for a long run.
EXAMPLES = int(os.environ.get("HEXENGINE_EXAMPLES", "1"))


def examples(n: int) -> int:
    """``n`` hypothesis examples, times HEXENGINE_EXAMPLES."""
    return n * EXAMPLES


# (row step, column step) of the six neighbours: docs/rules.md section 1.
STEPS = ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, -1), (1, 0))


def neighbours(cell: tuple[int, int], rows: int, cols: int) -> list[tuple[int, int]]:
    """The cells adjacent to ``cell`` on a rows x cols board."""
    r, c = cell
    return [(r + dr, c + dc) for dr, dc in STEPS if 0 <= r + dr < rows and 0 <= c + dc < cols]


def on_edge(color: hx.Color, cell: tuple[int, int], rows: int, cols: int, which: int) -> bool:
    """Whether ``cell`` lies on ``color``'s first (0) or second (1) edge; corners count for both colours."""
    r, c = cell
    if color == hx.RED:
        return r == (0 if which == 0 else rows - 1)
    return c == (0 if which == 0 else cols - 1)


def connects(stones: Iterable[tuple[int, int]], color: hx.Color, rows: int, cols: int) -> bool:
    """Whether the cells ``stones`` (all of ``color``) hold a chain between ``color``'s two edges."""
    own = {tuple(s) for s in stones}
    todo = [s for s in own if on_edge(color, s, rows, cols, 0)]
    seen = set(todo)
    while todo:
        cell = todo.pop()
        if on_edge(color, cell, rows, cols, 1):
            return True
        for n in neighbours(cell, rows, cols):
            if n in own and n not in seen:
                seen.add(n)
                todo.append(n)
    return False


def stones_of(board: np.ndarray, color: hx.Color) -> list[tuple[int, int]]:
    """Cells of ``board`` holding a stone of ``color``."""
    return [(int(r), int(c)) for r, c in zip(*np.nonzero(board == int(color)), strict=True)]


def board_connects(board: np.ndarray, color: hx.Color) -> bool:
    """Whether ``color`` has a chain between its edges on ``board``."""
    rows, cols = board.shape
    return connects(stones_of(board, color), color, rows, cols)


def found_cells(game: hx.Game, viewer: hx.Color) -> set[tuple[int, int]]:
    """Enemy stones ``viewer`` has found: the cells of its hits in the referee's record."""
    return {a.cell for a in game.history if a.color == viewer and a.result is hx.MoveResult.HIT}


def sees_everything(game: hx.Game) -> bool:
    """Whether every view shows the whole board: Hex and Rex, or Dark Hex ended by a connection."""
    return not game.rules.is_dark or game.end_reason == "connection"


def expected_board(game: hx.Game, viewer: hx.Color | None) -> np.ndarray:
    """The board ``viewer`` (None: a spectator) may see, from the true board and the full record."""
    true = game.board
    if sees_everything(game):
        return true
    out = np.zeros_like(true)
    if viewer is None:
        return out
    out[true == int(viewer)] = int(viewer)
    for r, c in found_cells(game, viewer):
        out[r, c] = true[r, c]
    return out


def expected_hidden(game: hx.Game, viewer: hx.Color | None) -> int:
    """Stones on the board that ``viewer`` cannot see."""
    if sees_everything(game):
        return 0
    true = game.board
    if viewer is None:
        return int(np.count_nonzero(true))
    return int(np.count_nonzero(true == int(viewer.opponent))) - len(found_cells(game, viewer))


def expected_history(game: hx.Game, viewer: hx.Color | None) -> list[hx.Action]:
    """The record as ``viewer`` may know it: cells of the others' actions hidden in Dark Hex."""
    if sees_everything(game):
        return game.history
    return [a if a.color == viewer else hx.Action(a.color, None, a.result) for a in game.history]


def check_view(game: hx.Game, viewer: hx.Color | None) -> None:
    """Asserts that ``viewer``'s view holds exactly what docs/rules.md section 5 allows."""
    view = game.view(viewer) if viewer is not None else game.spectator_view()
    who = "spectator" if viewer is None else str(viewer)
    want = expected_board(game, viewer)
    assert view.board.dtype == np.int8 and view.board.shape == game.board.shape
    assert np.array_equal(view.board, want), f"{who} sees\n{view.board}\nbut may see\n{want}"
    assert view.hidden_enemy_stones == expected_hidden(game, viewer), who
    assert view.history == expected_history(game, viewer), who
    assert (view.viewer, view.to_move, view.winner, view.end_reason, view.is_over) == (
        viewer,
        game.to_move,
        game.winner,
        game.end_reason,
        game.is_over,
    )
    received = (
        0
        if viewer is None
        else sum(a.color != viewer and a.result is hx.MoveResult.HIT for a in game.history)
    )
    assert view.hits_received == received, who
    if viewer is not None and viewer == game.to_move:
        assert view.legal_moves() == game.legal_moves()
        cells = [m for m in view.legal_moves() if m != hx.SWAP]
        assert cells == [hx.Cell(int(r), int(c)) for r, c in zip(*np.nonzero(want == 0), strict=True)]
    else:
        assert view.legal_moves() == []


def check_all_views(game: hx.Game) -> None:
    """Asserts the visibility model for both players and a spectator."""
    for viewer in (hx.RED, hx.BLUE, None):
        check_view(game, viewer)


def random_rules(rng: random.Random, max_side: int = 8) -> hx.Rules:
    """A random rule set: any variant, any shape up to ``max_side`` (sometimes larger), any allowed swap."""
    variant = rng.choice(VARIANTS)
    rows, cols = rng.randint(1, max_side), rng.randint(1, max_side)
    if rng.random() < 0.05:
        rows, cols = rng.choice(((11, 11), (19, 19), (11, 7), (1, 19), (19, 1)))
    if variant.startswith("dark"):
        swap = "off"
    else:
        swap = rng.choice(["off", "sides"] + (["pieces"] if rows == cols else []))
    return hx.Rules(variant, rows, cols, swap)


def random_move(game: hx.Game, rng: random.Random, p_swap: float = 0.5) -> hx.Move:
    """A random legal move chosen, as a bot would, from the mover's own view."""
    moves = game.view(game.to_move).legal_moves()
    if hx.SWAP in moves and rng.random() < p_swap:
        return hx.SWAP
    return rng.choice([m for m in moves if m != hx.SWAP])


def play_random(
    game: hx.Game,
    rng: random.Random,
    *,
    max_actions: int | None = None,
    after: Callable[[hx.Game], None] | None = None,
) -> hx.Game:
    """Plays random legal moves until the game ends (or for ``max_actions``), calling ``after`` after each."""
    n = 0
    while not game.is_over and (max_actions is None or n < max_actions):
        game.play(random_move(game, rng))
        n += 1
        if after is not None:
            after(game)
    return game


def chain_owner(game: hx.Game) -> hx.Color:
    """The colour whose chain ended the game: the winner in Hex and Dark Hex, the loser in Rex."""
    assert game.winner is not None
    return game.winner.opponent if game.rules.is_misere else game.winner


def check_completed_chain(game: hx.Game) -> None:
    """Asserts what completed_chain() promises: empty unless the game ended by a connection; else
    the connector's stones, ordered from its first edge to its second, each next to the one before,
    joining the two edges, with no stone that can be removed, and holding the stone played last."""
    chain = game.completed_chain()
    if game.end_reason != "connection":
        assert chain == []
        return
    rows, cols = game.rules.rows, game.rules.cols
    owner = chain_owner(game)
    assert len(set(chain)) == len(chain) > 0
    assert all(game.board[cell] == owner for cell in chain)
    assert on_edge(owner, chain[0], rows, cols, 0) and on_edge(owner, chain[-1], rows, cols, 1)
    assert all(b in neighbours(a, rows, cols) for a, b in itertools.pairwise(chain))
    assert connects(chain, owner, rows, cols)
    for cell in chain:
        assert not connects([c for c in chain if c != cell], owner, rows, cols), f"{cell} is removable"
    last = game.history[-1]
    assert last.color == owner and last.result is hx.MoveResult.PLACED and last.cell in chain
