"""The swap (pie) rule in both forms, in Hex and Rex: what it does, when it is legal, and when it is not."""

from __future__ import annotations

import numpy as np
import pytest

import hexengine as hx

SWAPPED = hx.MoveResult.SWAPPED
NOT_DARK = ["hex", "rex"]


@pytest.mark.parametrize("variant", NOT_DARK)
def test_swap_defaults_to_sides_and_can_be_chosen(variant: str) -> None:
    """Hex and Rex default to the 'sides' form; 'pieces' and 'off' can be asked for."""
    assert hx.Game(variant, size=5).rules.swap == "sides"
    assert hx.Game(variant, size=5, swap="pieces").rules.swap == "pieces"
    assert hx.Game(variant, size=5, swap="off").rules.swap == "off"


@pytest.mark.parametrize("variant", NOT_DARK)
@pytest.mark.parametrize(
    ("rows", "cols", "first"), [(5, 5, "b4"), (4, 3, "c1"), (2, 5, "e2"), (11, 11, "k1")]
)
def test_sides_swap_leaves_the_board_and_blue_moves_next(
    variant: str, rows: int, cols: int, first: str
) -> None:
    """'sides': the players exchange colours; the red stone stays where it is and stays red, and
    Blue (now the person who placed it) moves next. Works on any shape."""
    game = hx.Game(variant, rows=rows, cols=cols, swap="sides")
    game.play(first)
    board = game.board
    assert game.play("swap") is SWAPPED
    assert np.array_equal(game.board, board) and game.board[hx.Cell.parse(first)] == hx.RED
    assert game.to_move is hx.BLUE
    assert game.history == [
        hx.Action(hx.RED, hx.Cell.parse(first), hx.MoveResult.PLACED),
        hx.Action(hx.BLUE, hx.Cell.parse(first), SWAPPED),
    ]
    assert "swap" not in game.legal_moves()
    assert game.play("a1" if first != "a1" else "a2") is hx.MoveResult.PLACED
    assert game.to_move is hx.RED


@pytest.mark.parametrize("variant", NOT_DARK)
@pytest.mark.parametrize(
    ("size", "first", "mirrored"),
    [(5, "b4", "d2"), (7, "b5", "e2"), (5, "c3", "c3"), (11, "k1", "a11"), (2, "a1", "a1")],
)
def test_pieces_swap_mirrors_the_stone_into_a_blue_one_and_red_moves(
    variant: str, size: int, first: str, mirrored: str
) -> None:
    """'pieces': the red stone leaves the board, a blue stone goes on the mirrored cell (r, c) -> (c, r),
    and Red moves next (same people, same colours)."""
    game = hx.Game(variant, size=size, swap="pieces")
    game.play(first)
    assert game.play("swap") is SWAPPED
    expected = np.zeros((size, size), dtype=np.int8)
    expected[hx.Cell.parse(mirrored)] = hx.BLUE
    assert np.array_equal(game.board, expected)
    assert game.to_move is hx.RED
    assert game.history[-1] == hx.Action(hx.BLUE, hx.Cell.parse(mirrored), SWAPPED)
    r, c = hx.Cell.parse(first)
    assert hx.Cell.parse(mirrored) == (c, r)
    assert "swap" not in game.legal_moves()


@pytest.mark.parametrize("variant", NOT_DARK)
def test_pieces_swap_stone_joins_blues_chains(variant: str) -> None:
    """After a 'pieces' swap the mirrored stone is a true blue stone: it counts in Blue's chains."""
    game = hx.Game(variant, size=2, swap="pieces")
    game.play("b1")  # (0, 1) -> blue on (1, 0) = a2
    game.play("swap")
    game.play("a1")  # Red
    game.play("b2")  # Blue: a2-b2 joins Blue's edges
    assert game.is_over and game.completed_chain() == [(1, 0), (1, 1)]
    assert game.winner is (hx.BLUE if variant == "hex" else hx.RED)


@pytest.mark.parametrize("variant", NOT_DARK)
@pytest.mark.parametrize("form", ["sides", "pieces"])
def test_swap_is_legal_only_as_blues_first_action_and_only_once(variant: str, form: str) -> None:
    """Swap is refused before Red's first stone, after Blue has placed, after a swap, and for Red;
    each refusal is an IllegalMove 'swap-timing' and changes nothing."""
    game = hx.Game(variant, size=5, swap=form)  # type: ignore[arg-type]
    _refused(game)  # Red's first action
    game.play("c3")
    assert "swap" in game.legal_moves() and "swap" in game.view(hx.BLUE).legal_moves()
    assert "swap" not in game.view(hx.RED).legal_moves()
    game.play("swap")
    _refused(game)  # right after the swap: Blue ('sides') or Red ('pieces') to move
    game.play("a1")
    _refused(game)
    game.play("a2")
    _refused(game)

    late = hx.Game(variant, size=5, swap=form)  # type: ignore[arg-type]
    late.play("c3")
    late.play("d4")  # Blue places instead of swapping
    _refused(late)  # Red to move
    late.play("a1")
    _refused(late)  # Blue's second action


def _refused(game: hx.Game) -> None:
    history, board, to_move = game.history, game.board, game.to_move
    with pytest.raises(hx.IllegalMove, match="only allowed as Blue's first action") as info:
        game.play("swap")
    assert info.value.rule == "swap-timing" and info.value.cell is None
    assert (game.history, game.to_move) == (history, to_move)
    assert np.array_equal(game.board, board)


@pytest.mark.parametrize("variant", NOT_DARK)
@pytest.mark.parametrize("shape", [(4, 3), (2, 5), (1, 7), (7, 1), (18, 19)])
def test_pieces_swap_needs_a_square_board(variant: str, shape: tuple[int, int]) -> None:
    """'pieces' mirrors across the diagonal, which only exists on a square board: a RulesError elsewhere."""
    rows, cols = shape
    with pytest.raises(hx.RulesError, match="needs a square board"):
        hx.Game(variant, rows=rows, cols=cols, swap="pieces")
    assert hx.Game(variant, rows=rows, cols=cols, swap="sides").rules.swap == "sides"


@pytest.mark.parametrize("variant", NOT_DARK)
def test_swap_off_refuses_swap(variant: str) -> None:
    """With swap='off' the swap is never offered and playing it is an IllegalMove 'swap-off'."""
    game = hx.Game(variant, size=5, swap="off")
    game.play("c3")
    assert "swap" not in game.legal_moves()
    with pytest.raises(hx.IllegalMove, match="swap rule is off") as info:
        game.play("swap")
    assert info.value.rule == "swap-off" and game.to_move is hx.BLUE


@pytest.mark.parametrize("spelling", ["swap", "SWAP", " Swap ", hx.SWAP])
def test_swap_spellings(spelling: str) -> None:
    """'swap' is read case-insensitively and with surrounding spaces."""
    game = hx.Game("hex", size=5)
    game.play("c3")
    assert game.play(spelling) is SWAPPED


def test_unknown_swap_forms_are_rules_errors() -> None:
    """Only 'sides', 'pieces' and 'off' exist; anything else is a RulesError that lists them."""
    for bad in ("Sides", "on", "yes", "swap-pieces"):
        with pytest.raises(hx.RulesError, match="expected one of 'sides', 'pieces', 'off'"):
            hx.Game("hex", size=5, swap=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("form", ["sides", "pieces"])
def test_board_after_replays_the_swap(form: str) -> None:
    """The full record replays a swap: board_after(1) shows the red stone, board_after(2) the swapped one."""
    game = hx.Game("hex", size=5, swap=form)  # type: ignore[arg-type]
    game.play("b4")
    game.play("swap")
    game.play("a1")
    assert game.board_after(1)[3, 1] == hx.RED
    after = game.board_after(2)
    if form == "sides":
        assert after[3, 1] == hx.RED and np.count_nonzero(after) == 1
    else:
        assert after[1, 3] == hx.BLUE and np.count_nonzero(after) == 1
    assert np.array_equal(game.board_after(3), game.board)


@pytest.mark.parametrize("form", ["sides", "pieces"])
def test_swap_is_never_available_once_the_first_stone_won(form: str) -> None:
    """On 1x1 Red's first stone wins at once, so Blue never gets to swap."""
    game = hx.Game("hex", size=1, swap=form)  # type: ignore[arg-type]
    game.play("a1")
    assert game.is_over and "swap" not in game.legal_moves()
    with pytest.raises(hx.IllegalMove) as info:
        game.play("swap")
    assert info.value.rule == "game-over"
