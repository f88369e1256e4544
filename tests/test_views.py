"""Views (what a player or a spectator may know) and the text drawings of games and views."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest
from oracle import SHAPES, check_all_views, play_random

import hexengine as hx
from hexengine import _core
from hexengine.game import _view_from_state

ALL_VIEWERS = (hx.RED, hx.BLUE, None)


def view_of(game: hx.Game, viewer: hx.Color | None) -> hx.View:
    return game.spectator_view() if viewer is None else game.view(viewer)


@pytest.mark.parametrize("variant", ["hex", "rex"])
def test_in_hex_and_rex_everyone_sees_everything(variant: str) -> None:
    """Hex and Rex have no hidden information: both players and spectators see the true board and record."""
    game = hx.Game(variant, size=5, swap="pieces")
    for move in ["b4", "swap", "c3", "e1"]:
        game.play(move)
        for viewer in ALL_VIEWERS:
            view = view_of(game, viewer)
            assert np.array_equal(view.board, game.board) and view.history == game.history
            assert view.hidden_enemy_stones == 0 and view.viewer is viewer


def test_a_dark_hex_player_sees_own_stones_and_found_stones_only() -> None:
    """In Dark Hex a player's board shows its own stones and the enemy stones it found, nothing else."""
    game = hx.Game("dark", size=3)
    for move in ["a1", "c3", "b2", "b3"]:  # Red a1, Blue c3, Red b2, Blue b3
        game.play(move)
    game.play("c3")  # Red hits c3 and moves again
    game.play("c1")
    red, blue = game.view(hx.RED).board, game.view(hx.BLUE).board
    assert red.tolist() == [[1, 0, 1], [0, 1, 0], [0, 0, 2]]
    assert blue.tolist() == [[0, 0, 0], [0, 0, 0], [0, 2, 2]]
    assert not game.spectator_view().board.any()
    check_all_views(game)


def test_a_view_is_a_snapshot_holding_no_game() -> None:
    """A view does not follow the game after it was taken and holds no reference to the referee."""
    game = hx.Game("dark", size=4)
    game.play("a1")
    old = game.view(hx.BLUE)
    game.play("b2")
    game.play("c3")
    assert old.to_move is hx.BLUE and len(old.history) == 1 and old.hidden_enemy_stones == 1
    assert isinstance(old._core, _core.View) and {type(x) for x in (old._core, old._rules)} == {
        _core.View,
        hx.Rules,
    }


def test_view_board_is_a_fresh_array() -> None:
    """Writing into view.board changes neither the view nor the game."""
    game = hx.Game("hex", size=3)
    game.play("b2")
    view = game.view(hx.RED)
    board = view.board
    board[:] = 2
    assert view.board[1, 1] == hx.RED and view.board.sum() == 1 and game.board.sum() == 1


@pytest.mark.parametrize("variant", ["hex", "rex", "dark", "dark-abrupt"])
def test_views_survive_pickling_unchanged(variant: str) -> None:
    """A pickled and unpickled view equals the original: board, record, counts, text and hash."""
    game = play_random(hx.Game(variant, size=5), random.Random(variant), max_actions=9)
    for viewer in ALL_VIEWERS:
        view = view_of(game, viewer)
        again = pickle.loads(pickle.dumps(view))
        assert again == view and hash(again) == hash(view)
        assert np.array_equal(again.board, view.board) and again.history == view.history
        assert (again.hidden_enemy_stones, again.hits_received, again.legal_moves()) == (
            view.hidden_enemy_stones,
            view.hits_received,
            view.legal_moves(),
        )
        assert (str(again), repr(again), again.rules, again.viewer) == (
            str(view),
            repr(view),
            view.rules,
            viewer,
        )


def test_two_games_differing_only_in_hidden_stones_give_identical_views() -> None:
    """Blue's view, its pickled bytes, repr and str are the same whether Red's hidden stone is on a1 or c1:
    nothing in them depends on where the hidden stone is."""
    views = []
    for red in ("a1", "c1"):
        game = hx.Game("dark", size=3)
        game.play(red)
        game.play("b2")
        views.append(game.view(hx.BLUE))
    a, b = views
    assert a == b and pickle.dumps(a) == pickle.dumps(b) and repr(a) == repr(b) and str(a) == str(b)
    assert a.hidden_enemy_stones == 1


@pytest.mark.parametrize(
    ("index", "value", "words"),
    [
        (5, b"\x00" * 8, "view board has 8 cells"),
        (5, b"\x03" + b"\x00" * 8, "values must be 0"),
        (8, 7, "end reason"),
        (4, 3, "colour"),
        (9, -1, "hidden stone count"),
        (0, "chess", "unknown variant"),
        (11, [(1, 99, 0)], "off the board"),
        (11, [(1, 0, 5)], "action result"),
    ],
)
def test_tampered_view_states_are_rejected(index: int, value: object, words: str) -> None:
    """Rebuilding a view from doctored data (as unpickling would) raises RulesError naming the problem."""
    game = hx.Game("dark", size=3)
    game.play("b2")
    state = list(game.view(hx.RED)._core.state())
    state[index] = value
    with pytest.raises(hx.RulesError, match=words):
        _view_from_state(tuple(state))


def test_legal_moves_of_a_view_only_on_the_viewers_turn() -> None:
    """A view offers moves only to the player to move; the other player and spectators get none."""
    game = hx.Game("hex", size=3)
    game.play("b2")
    assert game.view(hx.BLUE).legal_moves() == game.legal_moves() and "swap" in game.legal_moves()
    assert game.view(hx.RED).legal_moves() == [] and game.spectator_view().legal_moves() == []


def test_str_of_a_game_draws_the_rhombus_with_coordinates() -> None:
    """str(game): column letters above and below, row numbers on both sides, each row shifted half a
    cell right of the one above, X red, O blue, the completed chain in lower case, then the status."""
    game = hx.Game("hex", rows=2, cols=3, swap="off")
    for move in ["b1", "a2", "b2"]:
        game.play(move)
    assert str(game) == (
        "    a b c\n"
        " 1  . x .  1\n"
        "  2  O x .  2\n"
        "     a b c\n"
        "X Red joins rows 1 and 2 - O Blue joins columns a and c\n"
        "Red wins by connection"
    )


@pytest.mark.parametrize(("rows", "cols"), SHAPES)
def test_text_places_each_cell_between_its_neighbours(rows: int, cols: int) -> None:
    """In the drawing, cell (r, c) sits at text column 4 + r + 2c of line r + 1: its neighbours (r+1, c-1)
    and (r+1, c) sit one column left and right of it on the next line, as on a hex board."""
    game = play_random(hx.Game("hex", rows=rows, cols=cols, swap="off"), random.Random(rows * 31 + cols))
    lines = str(game).splitlines()
    board = game.board
    chain = set(game.completed_chain())
    for r in range(rows):
        line = lines[1 + r]
        assert line.startswith(" " * r + f"{r + 1:>2}  ") and line.endswith(f"  {r + 1}")
        for c in range(cols):
            symbol = ".XO"[board[r, c]]
            assert line[4 + r + 2 * c] == (symbol.lower() if (r, c) in chain else symbol)
    letters = " ".join(chr(ord("a") + c) for c in range(cols))
    assert lines[0] == "    " + letters and lines[rows + 1] == " " * (rows + 3) + letters
    assert lines[-1] == f"{game.winner} wins by connection"


def test_str_of_a_dark_view_shows_only_what_the_viewer_knows() -> None:
    """str(view) draws the viewer's board (hidden stones as empty cells) and says how many are hidden."""
    game = hx.Game("dark", size=3)
    for move in ["a1", "c3"]:
        game.play(move)
    red = str(game.view(hx.RED))
    assert red.splitlines()[1:4] == [" 1  X . .  1", "  2  . . .  2", "   3  . . .  3"]
    assert "Red to move (view of Red)" in red and "hidden stones: 1" in red
    spectator = str(game.spectator_view())
    assert spectator.splitlines()[1:4] == [" 1  . . .  1", "  2  . . .  2", "   3  . . .  3"]
    assert "view of spectator" in spectator
