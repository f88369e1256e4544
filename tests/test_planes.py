"""Observation planes: the layout ``hx.PLANES`` documents, built from a view alone, checked
against the reference visibility model of oracle.py and against the no-peek pairs."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from oracle import examples, expected_board, expected_hidden, expected_history, play_random
from test_properties import SEEDS, end_somehow, relocated, rule_sets

import hexengine as hx

P = {name: k for k, name in enumerate(hx.PLANES)}


def expected_planes(game: hx.Game, viewer: hx.Color | None) -> np.ndarray:
    """The planes of ``viewer``'s view, computed from the referee's full record by the
    oracle's visibility model (not by the engine's views)."""
    rules = game.rules
    me = viewer if viewer is not None else (game.to_move or hx.RED)
    board = expected_board(game, viewer)
    cells = rules.rows * rules.cols
    out = np.zeros((len(hx.PLANES), rules.rows, rules.cols), dtype=np.float32)
    out[P["own"]] = board == me
    out[P["opponent"]] = board == me.opponent
    out[P["empty"]] = board == 0
    out[P["to_move"]] = game.to_move == me
    out[P["red"]] = me == hx.RED
    out[P["swap"]] = "swap" in game.legal_moves()
    for action in expected_history(game, viewer):
        if action.result is hx.MoveResult.HIT and action.color == me and action.cell is not None:
            out[P["hit"]][action.cell] = 1
    taken = sum(a.result is hx.MoveResult.HIT and a.color != me for a in game.history)
    out[P["hits_taken"]] = taken / cells
    out[P["hidden"]] = expected_hidden(game, viewer) / cells
    return out


def test_the_layout_is_nine_named_channels() -> None:
    assert hx.PLANES == (
        "own", "opponent", "empty", "to_move", "red", "swap", "hit", "hits_taken", "hidden",
    )  # fmt: skip
    view = hx.Game("hex", rows=3, cols=5).view(hx.RED)
    assert view.planes().shape == (9, 3, 5) and view.planes().dtype == np.float32


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, bool, np.uint8, np.int8])
def test_planes_come_in_any_numpy_type(dtype: type) -> None:
    game = hx.Game("dark", size=4)
    for move in ["b2", "b2", "c3"]:
        game.play(move)
    view = game.view(hx.RED)
    planes = view.planes(dtype)
    assert planes.dtype == np.dtype(dtype)
    reference = view.planes().astype(bool) if np.dtype(dtype) == bool else view.planes().astype(dtype)
    assert np.array_equal(planes, reference)


@settings(max_examples=examples(400))
@given(rules=rule_sets(big=True), seed=SEEDS, end=st.booleans())
def test_planes_match_the_reference_model_of_each_view(rules: hx.Rules, seed: int, end: bool) -> None:
    """For players and spectators, during the game, after a connection and after a
    resignation or time-out, in every variant and shape."""
    rng = random.Random(seed)
    game = hx.Game(rules)
    play_random(game, rng, max_actions=rng.randint(0, rules.cells + 2))
    if end and not game.is_over:
        end_somehow(game, rng)
    for viewer in (hx.RED, hx.BLUE, None):
        view = game.view(viewer) if viewer is not None else game.spectator_view()
        expected = expected_planes(game, viewer)
        assert np.allclose(view.planes(), expected), (viewer, view.planes() - expected)
        assert np.array_equal(view.planes(bool), expected != 0)


@settings(max_examples=examples(400))
@given(rules=rule_sets(variants=("dark", "dark-abrupt"), max_side=6), seed=SEEDS)
def test_equal_views_give_equal_planes_whatever_is_hidden(rules: hx.Rules, seed: int) -> None:
    """The no-peek pairs: two games differing only in where a stone hidden from the viewer
    stands give that viewer (and spectators) equal views, hence equal planes."""
    rng = random.Random(seed)
    game = hx.Game(rules)
    play_random(game, rng, max_actions=rng.randint(1, rules.cells))
    assume(not game.is_over)
    viewer = rng.choice([hx.RED, hx.BLUE])
    other = relocated(game, viewer, rng)
    assume(other is not None)
    assert not np.array_equal(other.board, game.board)
    for get in (lambda g: g.view(viewer), lambda g: g.spectator_view()):
        assert get(game) == get(other)
        for dtype in (np.float32, bool):
            assert get(game).planes(dtype).tobytes() == get(other).planes(dtype).tobytes()


def test_dark_planes_show_hits_and_counts() -> None:
    game = hx.Game("dark", size=3)
    for move in ["b2", "b2", "a1", "c1", "c1"]:  # Blue hits b2, plays a1; Red c1; Blue hits c1
        game.play(move)
    blue = game.view(hx.BLUE).planes()
    assert blue[P["hit"]].tolist() == [[0, 0, 1], [0, 1, 0], [0, 0, 0]]
    assert blue[P["opponent"]].tolist() == blue[P["hit"]].tolist()
    assert blue[P["own"]][0, 0] == 1 and blue[P["to_move"]].all() and not blue[P["red"]].any()
    assert blue[P["hidden"]][0, 0] == 0 and blue[P["hits_taken"]][0, 0] == 0
    red = game.view(hx.RED).planes()
    assert red[P["hits_taken"]][0, 0] == pytest.approx(2 / 9)
    assert red[P["hidden"]][0, 0] == pytest.approx(1 / 9)
    assert red[P["opponent"]].sum() == 0 and red[P["hit"]].sum() == 0 and not red[P["to_move"]].any()


def test_swap_plane_is_on_only_while_the_swap_is_available() -> None:
    game = hx.Game("hex", size=3)
    assert not game.view(hx.RED).planes()[P["swap"]].any()
    game.play("a1")
    assert game.view(hx.BLUE).planes()[P["swap"]].all() and game.view(hx.RED).planes()[P["swap"]].all()
    game.play("b2")
    assert not game.view(hx.RED).planes()[P["swap"]].any()


def test_a_spectator_sees_planes_from_the_player_to_move() -> None:
    game = hx.Game("hex", size=3)
    game.play("a1")
    spectator = game.spectator_view().planes()
    assert np.array_equal(spectator, game.view(hx.BLUE).planes())
