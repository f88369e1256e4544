"""Integer actions, the fast path for bots and learning code: ``legal_actions``, ``apply``
and ``undo`` agree with the moves of the referee, check everything in C++, and take back
exactly what they did."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from oracle import SHAPES, VARIANTS, check_all_views, examples, play_random
from test_properties import SEEDS, end_somehow, rule_sets

import hexengine as hx


def snapshot(game: hx.Game) -> tuple:
    """Everything a user can read of a game and of each view, to compare after an undo."""
    views = [game.view(hx.RED), game.view(hx.BLUE), game.spectator_view()]
    return (
        game.history, game.board.tobytes(), game.to_move, game.winner, game.end_reason,
        game.legal_actions(), game.legal_moves(), [c.name for c in game.completed_chain()],
        [(v.board.tobytes(), v.hidden_enemy_stones, v.hits_received, v.legal_actions()) for v in views],
        [v.planes(bool).tobytes() for v in views],
    )  # fmt: skip


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("rows", "cols"), SHAPES)
def test_actions_are_indices_and_swap_is_rows_times_cols(variant: str, rows: int, cols: int) -> None:
    rules = hx.Rules(variant, rows, cols, "off")  # type: ignore[arg-type]
    for action in range(rows * cols):
        move = hx.move_of(action, rules)
        assert move == hx.Cell(action // cols, action % cols)
        assert hx.action_of(move, rules) == hx.action_of(move.name, rules) == action
    assert hx.move_of(rows * cols, rules) == "swap" and hx.action_of("swap", rules) == rows * cols


@pytest.mark.parametrize(
    ("value", "error", "words"),
    [
        (-1, hx.IllegalMove, "action -1 is off the 3x4 board: actions are 0-11"),
        (13, hx.IllegalMove, "action 13 is off the 3x4 board"),
        (True, TypeError, "an action is an int"),
        (1.0, TypeError, "an action is an int"),
        ("b2", TypeError, "an action is an int"),
    ],
)
def test_move_of_refuses_what_is_not_an_action(value: object, error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        hx.move_of(value, hx.Rules("hex", 3, 4))  # type: ignore[arg-type]


@settings(max_examples=examples(300))
@given(rules=rule_sets(big=True), seed=SEEDS)
def test_legal_actions_are_the_legal_moves_as_integers(rules: hx.Rules, seed: int) -> None:
    """At every point of a random game, legal_actions() is legal_moves() through action_of, in
    increasing order, the action mask says the same, and so does the mover's view."""
    rng = random.Random(seed)
    game = hx.Game(rules)
    while True:
        actions = game.legal_actions()
        assert actions == sorted(hx.action_of(m, rules) for m in game.legal_moves())
        assert np.flatnonzero(game.action_mask()).tolist() == actions
        if game.is_over:
            assert actions == []
            break
        view = game.view(game.to_move)
        assert view.legal_actions() == actions and view.action_mask().tolist() == game.action_mask().tolist()
        assert game.view(game.to_move.opponent).legal_actions() == []
        game.apply(rng.choice(actions))


@settings(max_examples=examples(300))
@given(rules=rule_sets(), seed=SEEDS)
def test_apply_plays_exactly_what_play_plays(rules: hx.Rules, seed: int) -> None:
    rng = random.Random(seed)
    by_name, by_action = hx.Game(rules), hx.Game(rules)
    while not by_name.is_over:
        action = rng.choice(by_action.legal_actions())
        move = hx.move_of(action, rules)
        assert by_action.apply(action) is by_name.play(move.name if isinstance(move, hx.Cell) else move)
        assert snapshot(by_action) == snapshot(by_name)


@settings(max_examples=examples(300))
@given(rules=rule_sets(big=True), seed=SEEDS)
def test_undo_takes_back_each_action_exactly(rules: hx.Rules, seed: int) -> None:
    """Undo walks a random game back to the start through exactly the positions it passed, in
    every variant: hits (the found stone hidden again, the mover to move again), swaps of both
    forms, and the final connection (the game runs again). Playing on after undos is the same
    as playing those moves on a fresh game, so the chains are rebuilt right."""
    rng = random.Random(seed)
    game = hx.Game(rules)
    seen = [snapshot(game)]
    while not game.is_over:
        actions = game.legal_actions()
        game.apply(rng.choice(actions))
        seen.append(snapshot(game))
    last = game.history
    for k in range(len(last), 0, -1):
        assert game.undo() == last[k - 1]
        assert snapshot(game) == seen[k - 1]
        check_all_views(game)
        if rng.random() < 0.1:
            # Down another path and back up again: the walk a tree search makes.
            branch = game.copy()
            play_random(branch, rng)
            while len(branch.history) > k - 1:
                branch.undo()
            assert snapshot(branch) == seen[k - 1]
    assert game.history == []
    with pytest.raises(hx.IllegalMove, match="there is no action to take back") as info:
        game.undo()
    assert info.value.rule == "nothing-to-undo"
    replayed = hx.Game(rules)
    for action in last:
        replayed.apply(
            hx.action_of(action.cell if action.result is not hx.MoveResult.SWAPPED else "swap", rules)
        )
    assert replayed.winner is not None and replayed.history == last


@pytest.mark.parametrize("variant", VARIANTS)
def test_undo_does_not_take_back_a_resignation_or_a_timeout(variant: str) -> None:
    rng = random.Random(7)
    for _ in range(10):
        game = hx.Game(variant, size=4)
        play_random(game, rng, max_actions=5)
        if game.is_over:
            continue
        end_somehow(game, rng)
        before = snapshot(game)
        ending = "resignation" if game.end_reason == "resignation" else "time-out"
        with pytest.raises(hx.IllegalMove, match=f"the game ended by {ending}") as info:
            game.undo()
        assert info.value.rule == "game-over" and snapshot(game) == before


@pytest.mark.parametrize(
    ("variant", "moves", "action", "rule", "words"),
    [
        ("hex", ["b2"], 4, "occupied", "b2 already holds a Red stone"),
        ("hex", ["b2", "a1"], 0, "occupied", "a1 already holds a Blue stone"),
        ("dark", ["b2", "b2"], 4, "found-stone", "b2 holds a Red stone that Blue has already found"),
        ("dark-abrupt", ["b2", "a1"], 4, "own-stone", "b2 already holds your own Red stone"),
        ("hex", [], 9, "swap-timing", "swap is only allowed as Blue's first action"),
        ("hex", ["a1", "swap"], 9, "swap-timing", "swap is only allowed as Blue's first action"),
        ("dark", ["a1"], 9, "swap-off", "there is no swap in Dark Hex"),
        (
            "hex",
            [],
            10,
            "off-board",
            r"action 10 is off the 3x3 board: actions are 0-8 .* and 9 \(the swap\)",
        ),
        ("hex", [], -1, "off-board", "action -1 is off the 3x3 board"),
        ("hex", [], 2**70, "off-board", f"action {2**70} is off every board"),
        ("rex", ["a1", "b1", "a2", "b2", "a3"], 8, "game-over", "cannot play c3: the game is over"),
    ],
)
def test_apply_refuses_illegal_actions_and_changes_nothing(
    variant: str, moves: list[str], action: int, rule: str, words: str
) -> None:
    game = hx.Game(variant, size=3)
    for move in moves:
        game.play(move)
    before = snapshot(game)
    with pytest.raises(hx.IllegalMove, match=words) as info:
        game.apply(action)
    assert info.value.rule == rule
    assert snapshot(game) == before


@pytest.mark.parametrize("bad", [True, False, 1.0, "4", None, [4], np.float32(4)])
def test_apply_takes_integers_only(bad: object) -> None:
    game = hx.Game("hex", size=3)
    with pytest.raises(TypeError, match=r"an action is an int \(row \* cols \+ col, or rows \* cols"):
        game.apply(bad)  # type: ignore[arg-type]
    assert game.history == []


@pytest.mark.parametrize("kind", [np.int8, np.int32, np.int64, np.uint16])
def test_apply_takes_numpy_integers(kind: type) -> None:
    game = hx.Game("hex", size=3)
    assert game.apply(kind(4)) is hx.MoveResult.PLACED and game.board[1, 1] == hx.RED


def test_undo_of_both_swap_forms_restores_the_first_stone() -> None:
    for swap, blue_cell in (("sides", None), ("pieces", "a2")):
        game = hx.Game("hex", size=3, swap=swap)  # type: ignore[arg-type]
        game.play("b1")
        before = snapshot(game)
        assert game.apply(9) is hx.MoveResult.SWAPPED
        if blue_cell:
            assert game.board[1, 0] == hx.BLUE and game.board[0, 1] == 0
        undone = game.undo()
        assert undone.result is hx.MoveResult.SWAPPED and snapshot(game) == before
        assert game.board[0, 1] == hx.RED and game.legal_actions()[-1] == 9


def test_undo_in_dark_hex_hides_the_found_stone_again_and_gives_back_the_turn() -> None:
    for variant, mover_after_hit in (("dark", hx.BLUE), ("dark-abrupt", hx.RED)):
        game = hx.Game(variant, size=3)
        game.play("b2")
        before = snapshot(game)
        assert game.play("b2") is hx.MoveResult.HIT and game.to_move == mover_after_hit
        assert game.view(hx.BLUE).board[1, 1] == hx.RED and game.view(hx.RED).hits_received == 1
        undone = game.undo()
        assert (undone.color, undone.cell, undone.result) == (hx.BLUE, hx.Cell.parse("b2"), hx.MoveResult.HIT)
        assert snapshot(game) == before
        assert game.view(hx.BLUE).board[1, 1] == 0 and game.view(hx.RED).hits_received == 0
