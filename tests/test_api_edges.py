"""Corners of the Python API: bounds, half-given sizes, long bad input, chains in views."""

from __future__ import annotations

import pickle

import pytest

import hexengine as hx


@pytest.mark.parametrize("actions", [-1, 3, 2**40, 1.0, True, None])
def test_board_after_rejects_actions_outside_the_record(actions: object) -> None:
    """board_after takes 0..len(history) and says so otherwise."""
    game = hx.Game("hex", size=3)
    game.play("a1")
    game.play("b2")
    with pytest.raises(IndexError, match="the record has 2 actions"):
        game.board_after(actions)  # type: ignore[arg-type]


def test_rows_without_cols_is_an_error() -> None:
    """Half a size is ambiguous: give both rows and cols, or size."""
    with pytest.raises(hx.RulesError, match="both rows and cols"):
        hx.Game("hex", rows=3)
    assert hx.Game("hex", rows=3, cols=5).rules.cols == 5


def test_long_bad_cell_names_are_quoted_short() -> None:
    """A huge bad string gives a short message, not a copy of the string."""
    with pytest.raises(hx.IllegalMove) as e:
        hx.Game("hex", size=5).play("x" * 100_000)
    assert len(str(e.value)) < 200 and e.value.rule == "notation"


@pytest.mark.parametrize("variant", ["hex", "rex", "dark", "dark-abrupt"])
def test_views_carry_the_completed_chain_once_public(variant: str) -> None:
    """After a connection every view (and its pickle) knows the chain that ended
    the game and draws it; before the end, and after a resignation, it is empty."""
    game = hx.Game(variant, rows=2, cols=2, swap="off")  # type: ignore[arg-type]
    for move in ["a1", "b1", "a2"]:
        assert game.view(hx.RED).completed_chain() == []
        if not game.is_over:
            game.play(move)
    assert game.is_over and game.end_reason == "connection"
    for view in (game.view(hx.RED), game.view(hx.BLUE), game.spectator_view()):
        assert view.completed_chain() == game.completed_chain() == [(0, 0), (1, 0)]
        assert pickle.loads(pickle.dumps(view)).completed_chain() == view.completed_chain()
        assert "x" in str(view).splitlines()[1]  # the chain's stones drawn in lower case
    resigned = hx.Game(variant, size=3, swap="off")  # type: ignore[arg-type]
    resigned.play("b2")
    resigned.resign(hx.BLUE)
    assert resigned.view(hx.RED).completed_chain() == []


@pytest.mark.parametrize(
    ("board", "error", "message"),
    [
        (hx.Game("hex", size=3), TypeError, r"pass Game\.board, or print the object"),
        ([0, 1, 2], TypeError, r"2-D integer array .* shape \(3,\)"),
        ([[0.0, 1.0]], TypeError, r"got float64 of shape \(1, 2\)"),
        ([[0] * 27], TypeError, r"at most 26 columns"),
        ([[0, 1], [2, 5]], ValueError, r"cell b2 holds 5"),
    ],
)
def test_board_text_names_what_is_wrong_with_its_board(board: object, error: type, message: str) -> None:
    """board_text draws a board array; a game, a flat list, floats, too many
    columns or a cell value other than 0, 1, 2 get an error naming the problem."""
    with pytest.raises(error, match=message):
        hx.board_text(board)  # type: ignore[arg-type]
    assert hx.board_text([[0, 1], [2, 0]]).splitlines()[1] == " 1  . X  1"
