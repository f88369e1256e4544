"""Every board shape from 1x1 to 19x19, square or not: cells, names, edges and complete games."""

from __future__ import annotations

import random

import numpy as np
import pytest
from oracle import SHAPES, VARIANTS, board_connects, connects, play_random

import hexengine as hx


def swap_for(variant: str) -> str:
    return "off" if variant.startswith("dark") else "sides"


@pytest.mark.parametrize(("rows", "cols"), SHAPES)
def test_a_new_board_offers_every_cell_with_its_name(rows: int, cols: int) -> None:
    """A rows x cols board has rows*cols cells, all legal at the start, named a1 .. <last letter><rows>."""
    game = hx.Game("hex", rows=rows, cols=cols)
    assert game.board.shape == (rows, cols) and game.board.dtype == np.int8
    moves = game.legal_moves()
    assert len(moves) == rows * cols and moves[0] == (0, 0) and moves[-1] == (rows - 1, cols - 1)
    assert moves[-1].name == f"{chr(ord('a') + cols - 1)}{rows}"
    for cell in moves[:: max(1, len(moves) // 7)]:
        assert hx.Cell.parse(cell.name) == cell and cell.index(cols) == cell.row * cols + cell.col


@pytest.mark.parametrize(("rows", "cols"), SHAPES)
def test_cells_just_off_the_board_are_refused(rows: int, cols: int) -> None:
    """The first row, column and index past the board are IllegalMove 'off-board' naming the size."""
    game = hx.Game("hex", rows=rows, cols=cols)
    off = [(rows, 0), (0, cols), (-1, 0), (0, -1), rows * cols, f"a{rows + 1}"]
    if cols < 26:
        off.append(f"{chr(ord('a') + cols)}1")
    for move in off:
        with pytest.raises(hx.IllegalMove, match=f"off the {rows}x{cols} board") as info:
            game.play(move)  # type: ignore[arg-type]
        assert info.value.rule == "off-board"
    assert game.history == []


@pytest.mark.parametrize("size", [0, 20, -1, 100])
def test_sizes_outside_1_to_19_are_rules_errors(size: int) -> None:
    """Rows and columns run from 1 to 19; anything else is a RulesError that names the size."""
    with pytest.raises(hx.RulesError, match="between 1 and 19"):
        hx.Game("hex", size=size)
    with pytest.raises(hx.RulesError, match="between 1 and 19"):
        hx.Game("dark", rows=5, cols=size)


@pytest.mark.parametrize("size", [2**31, 2**40, -(2**63), 10**100])
def test_sizes_beyond_any_machine_integer_are_rules_errors(size: int) -> None:
    """Huge sizes get the same RulesError as any other bad size, not a TypeError from the bindings."""
    with pytest.raises(hx.RulesError, match=f"between 1 and 19, not {size}"):
        hx.Game("hex", rows=5, cols=size)


@pytest.mark.parametrize("bad", [5.0, "5", True, [5]])
def test_sizes_must_be_integers(bad: object) -> None:
    """Rows and columns are integers; floats, strings, booleans and lists are RulesErrors."""
    with pytest.raises(hx.RulesError, match="must be an integer"):
        hx.Game("hex", rows=bad, cols=5)  # type: ignore[arg-type]


def test_numpy_integers_are_sizes_like_any_other() -> None:
    """Sizes that come out of numpy arrays work and are stored as plain ints."""
    game = hx.Game("dark", rows=np.int64(4), cols=np.uint8(3))  # type: ignore[arg-type]
    assert game.rules == hx.Rules("dark", 4, 3) and type(game.rules.rows) is int


@pytest.mark.parametrize("bad", ["chess", "Hex", "misere", "", "dark_hex", "\ud800", "hex\udfff"])
def test_unknown_variants_are_rules_errors(bad: str) -> None:
    """Only 'hex', 'rex', 'dark' and 'dark-abrupt' exist; the error lists them."""
    with pytest.raises(hx.RulesError, match="expected one of 'hex', 'rex', 'dark', 'dark-abrupt'"):
        hx.Game(bad, size=5)  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("rows", "cols"), SHAPES)
def test_random_games_on_every_shape_end_with_one_winner(variant: str, rows: int, cols: int) -> None:
    """Random games on every shape and variant end by a connection with one winner; the connector's
    edges are joined on the final board and the other colour's are not (the loser's in Rex)."""
    rng = random.Random(f"{variant}{rows}x{cols}")
    for _ in range(3 if rows * cols > 100 else 12):
        game = play_random(hx.Game(variant, rows=rows, cols=cols, swap=swap_for(variant)), rng)  # type: ignore[arg-type]
        assert game.is_over and game.end_reason == "connection" and game.winner in (hx.RED, hx.BLUE)
        connector = game.winner.opponent if variant == "rex" else game.winner
        assert board_connects(game.board, connector) and not board_connects(game.board, connector.opponent)
        chain = game.completed_chain()
        assert chain and connects(chain, connector, rows, cols)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("cols", [1, 2, 7, 19])
def test_one_row_boards_end_with_reds_first_stone(variant: str, cols: int) -> None:
    """On one row every cell touches both red edges: Red's first stone completes Red's chain
    (a win in Hex and Dark Hex, a loss in Rex)."""
    game = hx.Game(variant, rows=1, cols=cols, swap=swap_for(variant))  # type: ignore[arg-type]
    game.play((0, cols - 1))
    assert game.is_over and game.completed_chain() == [(0, cols - 1)]
    assert game.winner is (hx.BLUE if variant == "rex" else hx.RED)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("rows", [2, 7, 19])
def test_one_column_boards_end_with_blues_first_stone(variant: str, rows: int) -> None:
    """On one column every cell touches both blue edges: Blue's first placed stone completes Blue's chain."""
    game = hx.Game(variant, rows=rows, cols=1, swap=swap_for(variant))  # type: ignore[arg-type]
    game.play("a1")
    assert not game.is_over
    if variant == "dark":
        assert game.play("a1") is hx.MoveResult.HIT  # Blue finds Red's stone and moves again
    game.play((rows - 1, 0))
    assert game.is_over and game.completed_chain() == [(rows - 1, 0)]
    assert game.winner is (hx.RED if variant == "rex" else hx.BLUE)


def test_19x19_corners_and_a_long_chain() -> None:
    """The largest board: corners are a1, s1, a19, s19, and a red column of 19 stones wins."""
    game = hx.Game("hex", size=19, swap="off")
    names = [c.name for c in game.legal_moves()]
    assert (names[0], names[18], names[-19], names[-1]) == ("a1", "s1", "a19", "s19")
    for r in range(19):
        game.play((r, 9))
        if r < 18:
            game.play((r, 0) if r % 2 else (r, 18))
    assert game.winner is hx.RED and len(game.completed_chain()) == 19


def test_non_square_boards_keep_rows_and_columns_apart() -> None:
    """On 2x5 Red crosses 2 rows and Blue 5 columns; on 5x2 the other way round."""
    wide = hx.Game("hex", rows=2, cols=5, swap="off")
    for move in ["c1", "a1", "c2"]:
        wide.play(move)
    assert wide.winner is hx.RED and [c.name for c in wide.completed_chain()] == ["c1", "c2"]
    tall = hx.Game("hex", rows=5, cols=2, swap="off")
    for move in ["a1", "a3", "a5", "b3"]:
        tall.play(move)
    assert tall.winner is hx.BLUE and [c.name for c in tall.completed_chain()] == ["a3", "b3"]
