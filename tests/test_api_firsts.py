"""What a python-chess user tries first: names in legal moves, Cell("a1"),
is_legal, undo, pickling a game and plain reprs."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

import hexengine as hx

VARIANTS = ("hex", "rex", "dark", "dark-abrupt")


def random_game(rng: random.Random, variant: str) -> hx.Game:
    """A random game of ``variant`` on a random board, stopped at a random point,
    sometimes ended by resignation or time-out."""
    rows, cols = rng.randint(1, 6), rng.randint(1, 6)
    forms = (
        ["off"]
        if variant.startswith("dark")
        else ["off", "sides", "pieces"]
        if rows == cols
        else ["off", "sides"]
    )
    swap = rng.choice(forms)
    game = hx.Game(variant, rows=rows, cols=cols, swap=swap)  # type: ignore[arg-type]
    while not game.is_over and rng.random() < 0.93:
        game.play(rng.choice(game.legal_moves()))
    if not game.is_over and rng.random() < 0.3:
        if rng.random() < 0.5:
            game.resign(rng.choice([hx.RED, hx.BLUE]))
        else:
            game.timeout(game.to_move)  # type: ignore[arg-type]
    return game


def test_names_are_in_the_legal_moves() -> None:
    game = hx.Game("hex", size=3)
    game.play("b2")
    moves = game.legal_moves()
    assert "b1" in moves and " B1 " in moves and (0, 1) in moves and hx.Cell("b1") in moves
    assert "b2" not in moves and "d1" not in moves and "not a cell" not in moves and 7 not in moves
    assert "swap" in moves and "SWAP" in moves
    assert moves == [m for m in moves]  # still a plain list for everything else
    view_moves = game.view(hx.BLUE).legal_moves()
    assert "a1" in view_moves and "b2" not in view_moves and "swap" in view_moves


@pytest.mark.parametrize("name", ["a1", "f6", "K11", "s19"])
def test_cell_reads_a_name(name: str) -> None:
    cell = hx.Cell(name)
    assert cell == hx.Cell.parse(name) and cell.name == name.lower()
    assert repr(cell) == f"Cell({name.lower()!r})" and eval(repr(cell), {"Cell": hx.Cell}) == cell
    assert pickle.loads(pickle.dumps(cell)) == cell and copy.deepcopy(cell) == cell


def test_cell_refuses_half_a_cell() -> None:
    with pytest.raises(TypeError, match="name such as 'f6' or a row and a column"):
        hx.Cell(3)  # type: ignore[call-overload]
    with pytest.raises(hx.IllegalMove, match="'zz' is not a cell"):
        hx.Cell("zz")


def test_is_legal_agrees_with_legal_moves_and_never_raises() -> None:
    rng = random.Random(5)
    junk: list[object] = [
        None,
        "",
        "swap!",
        "z99",
        (1,),
        (1, 2, 3),
        ("a", 1),
        1.5,
        -1,
        10**30,
        True,
        object(),
    ]
    for variant in VARIANTS:
        for _ in range(40):
            game = random_game(rng, variant)
            rows, cols = game.rules.rows, game.rules.cols
            legal = set(game.legal_moves())
            for r in range(rows + 1):
                for c in range(cols + 1):
                    cell = hx.Cell(r, c)
                    inside = r < rows and c < cols
                    assert game.is_legal(cell) == (inside and cell in legal)
                    if inside:
                        assert game.is_legal(cell.name) == (cell in legal) == game.is_legal(cell.index(cols))
            assert game.is_legal("swap") == ("swap" in legal)
            assert not any(game.is_legal(x) for x in junk)
            if not game.is_over:
                view = game.view(game.to_move)  # type: ignore[arg-type]
                assert {m for m in view.legal_moves()} == {m for m in legal}
                assert all(view.is_legal(m) for m in legal)


def test_a_pickled_game_round_trips_exactly() -> None:
    """Over random games of every variant, swap form and end, a pickled game
    (and a deep copy) has the same rules, record, true board, result and
    player to move, and goes on the same way."""
    rng = random.Random(11)
    for variant in VARIANTS:
        for _ in range(120):
            game = random_game(rng, variant)
            for twin in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
                assert type(twin) is hx.Game and twin.rules == game.rules
                assert twin.history == game.history and (twin.board == game.board).all()
                assert (twin.winner, twin.end_reason, twin.to_move) == (
                    game.winner,
                    game.end_reason,
                    game.to_move,
                )
                assert twin.completed_chain() == game.completed_chain() and repr(twin) == repr(game)
                if not game.is_over:
                    move = rng.choice(game.legal_moves())
                    assert twin.copy().play(move) == game.copy().play(move)


def test_reprs_count_actions_in_plain_english() -> None:
    game = hx.Game("hex", size=3)
    assert repr(game) == "<Game hex 3x3 swap=sides: Red to move after 0 actions>"
    game.play("a1")
    assert repr(game) == "<Game hex 3x3 swap=sides: Blue to move after 1 action>"
    assert repr(game.view(hx.RED)) == "<View of Red: hex 3x3, Blue to move, 1 action>"
    game.play("b2")
    assert repr(game.spectator_view()).endswith(", 2 actions>")
