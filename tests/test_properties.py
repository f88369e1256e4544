"""Properties over many random games, on random shapes, in every variant (hypothesis).

Each test draws a rule set and a seed; the seed drives a random player that,
like a bot, chooses from its own view. The reference code in oracle.py says
what must hold.
"""

from __future__ import annotations

import pickle
import random

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from oracle import (
    VARIANTS,
    board_connects,
    check_all_views,
    check_completed_chain,
    examples,
    found_cells,
    play_random,
    random_move,
)

import hexengine as hx

SEEDS = st.integers(0, 2**32 - 1)


@st.composite
def rule_sets(
    draw: st.DrawFn, variants: tuple[str, ...] = VARIANTS, max_side: int = 8, big: bool = False
) -> hx.Rules:
    """Any variant, any shape up to max_side (with big=True now and then 11 or 19), any swap form
    the shape allows."""
    variant = draw(st.sampled_from(variants))
    sides = [*range(1, max_side + 1)] * 4 + ([11, 19] if big else [])
    rows, cols = draw(st.sampled_from(sides)), draw(st.sampled_from(sides))
    if variant.startswith("dark"):
        swap = "off"
    else:
        swap = draw(st.sampled_from(["off", "sides"] + (["pieces"] if rows == cols else [])))
    return hx.Rules(variant, rows, cols, swap)  # type: ignore[arg-type]


def end_somehow(game: hx.Game, rng: random.Random) -> None:
    """Ends a running game by a resignation (of either colour) or a time-out of the player to move."""
    if rng.random() < 0.5:
        game.resign(rng.choice([hx.RED, hx.BLUE]))
    else:
        game.timeout(game.to_move)


@settings(max_examples=examples(500))
@given(rules=rule_sets(big=True), seed=SEEDS)
def test_every_game_ends_with_exactly_one_winner(rules: hx.Rules, seed: int) -> None:
    """A random game always ends, by a connection, with one winner; before the last move neither
    colour had a chain; after it exactly the mover has one; the completed chain is the mover's and
    minimal; the winner is the mover in Hex and Dark Hex and the mover's opponent in Rex."""

    def after(game: hx.Game) -> None:
        red, blue = board_connects(game.board, hx.RED), board_connects(game.board, hx.BLUE)
        if not game.is_over:
            assert not red and not blue
            assert game.winner is None and game.end_reason is None and game.completed_chain() == []

    game = play_random(hx.Game(rules), random.Random(seed), after=after)
    assert game.is_over and game.end_reason == "connection" and game.to_move is None
    mover = game.history[-1].color
    assert board_connects(game.board, mover) and not board_connects(game.board, mover.opponent)
    assert game.winner is (mover.opponent if rules.is_misere else mover)
    assert game.legal_moves() == []
    check_completed_chain(game)


@settings(max_examples=examples(500))
@given(
    variant=st.sampled_from(VARIANTS),
    rows=st.integers(1, 11),
    cols=st.integers(1, 11),
    seed=SEEDS,
)
def test_a_full_random_board_has_exactly_one_connected_side(
    variant: str, rows: int, cols: int, seed: int
) -> None:
    """Colour every cell at random (as many red as blue, or one more red): exactly one colour joins its
    edges. Playing those stones in a random order, the engine ends the game on that colour's chain:
    its winner is that colour (Hex, Dark Hex) or its opponent (Rex)."""
    rng = random.Random(seed)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    rng.shuffle(cells)
    red, blue = cells[: (len(cells) + 1) // 2], cells[(len(cells) + 1) // 2 :]
    full = np.zeros((rows, cols), dtype=np.int8)
    for r, c in red:
        full[r, c] = hx.RED
    for r, c in blue:
        full[r, c] = hx.BLUE
    connected = [color for color in (hx.RED, hx.BLUE) if board_connects(full, color)]
    assert len(connected) == 1, f"{connected} on\n{full}"

    game = hx.Game(variant, rows=rows, cols=cols, swap="off")  # type: ignore[arg-type]
    order = [cell for k, r in enumerate(red) for cell in [r, *blue[k : k + 1]]]
    for cell in order:
        assert game.play(cell) is hx.MoveResult.PLACED
        if game.is_over:
            break
    assert game.is_over and game.end_reason == "connection"
    assert game.winner is (connected[0].opponent if variant == "rex" else connected[0])
    assert np.array_equal(game.board, np.where(game.board > 0, full, 0))


@settings(max_examples=examples(300))
@given(rules=rule_sets(variants=("rex",), big=True), seed=SEEDS)
def test_rex_winner_is_the_opponent_of_the_connector(rules: hx.Rules, seed: int) -> None:
    """In Rex the player who completes a chain between their own edges is never the winner."""
    game = play_random(hx.Game(rules), random.Random(seed))
    connector = game.history[-1].color
    assert board_connects(game.board, connector)
    assert game.winner is connector.opponent
    assert all(game.board[c] == connector for c in game.completed_chain())


@settings(max_examples=examples(400))
@given(rules=rule_sets(max_side=8), seed=SEEDS, ending=st.sampled_from(["play", "resign-or-timeout"]))
def test_no_view_ever_shows_what_its_viewer_has_not_found(rules: hx.Rules, seed: int, ending: str) -> None:
    """After every action, each player's view holds exactly its own stones and the enemy stones it hit
    (computed from the referee's record), a spectator's holds none in Dark Hex; counts, records and
    legal moves agree; after a connection every view shows the whole board."""
    rng = random.Random(seed)
    game = hx.Game(rules)
    check_all_views(game)
    stop = rng.randint(0, rules.cells * 2) if ending != "play" else None
    play_random(game, rng, max_actions=stop, after=check_all_views)
    if not game.is_over:
        end_somehow(game, rng)
        check_all_views(game)


@settings(max_examples=examples(300))
@given(rules=rule_sets(variants=("dark", "dark-abrupt"), big=True), seed=SEEDS)
def test_spectators_see_nothing_in_dark_hex_until_a_connection(rules: hx.Rules, seed: int) -> None:
    """A Dark Hex spectator's board is empty while the game runs, and full once a chain is completed."""

    def after(game: hx.Game) -> None:
        board = game.spectator_view().board
        if game.is_over:
            assert np.array_equal(board, game.board) and board.any()
        else:
            assert not board.any()

    play_random(hx.Game(rules), random.Random(seed), after=after)


@settings(max_examples=examples(300))
@given(rules=rule_sets(max_side=8), seed=SEEDS)
def test_after_resignation_or_timeout_views_stay_while_the_replay_shows_every_stone(
    rules: hx.Rules, seed: int
) -> None:
    """A game ended by resignation or time-out reveals nothing new: each view keeps its board, record and
    hidden count; game.replay() and board_after still give the true board after every action."""
    rng = random.Random(seed)
    boards = []
    game = hx.Game(rules)
    play_random(game, rng, max_actions=rng.randint(0, rules.cells), after=lambda g: boards.append(g.board))
    assume(not game.is_over)
    before = {v: (game.view(v) if v else game.spectator_view()) for v in (hx.RED, hx.BLUE, None)}
    end_somehow(game, rng)
    assert game.end_reason in ("resignation", "timeout") and game.completed_chain() == []
    for viewer, old in before.items():
        now = game.view(viewer) if viewer else game.spectator_view()
        assert np.array_equal(now.board, old.board) and now.history == old.history
        assert now.hidden_enemy_stones == old.hidden_enemy_stones
        assert now.is_over and now.winner is game.winner
    replay = list(game.replay())
    assert replay[0][0] is None and not replay[0][1].any()
    assert [a for a, _ in replay[1:]] == game.history
    for (_, board), seen in zip(replay[1:], boards, strict=True):
        assert np.array_equal(board, seen)
    if boards:
        assert np.array_equal(replay[-1][1], game.board)


def relocated(game: hx.Game, viewer: hx.Color, rng: random.Random) -> hx.Game | None:
    """The same game with one of the opponent's never-found stones placed on another cell that stays
    empty to the end, so that every action has the same result; None when there is no such game."""
    history = game.history
    found = found_cells(game, viewer)
    hidden = [
        k
        for k, a in enumerate(history)
        if a.color == viewer.opponent and a.result is hx.MoveResult.PLACED and a.cell not in found
    ]
    empty = [hx.Cell(int(r), int(c)) for r, c in zip(*np.nonzero(game.board == 0), strict=True)]
    if not hidden or not empty:
        return None
    k, target = rng.choice(hidden), rng.choice(empty)
    other = hx.Game(game.rules)
    for j, action in enumerate(history):
        if other.is_over or other.play(target if j == k else action.cell) is not action.result:
            return None
    if other.is_over:
        return None
    if game.end_reason == "resignation":
        other.resign(game.winner.opponent)
    elif game.end_reason == "timeout":
        other.timeout(game.winner.opponent)
    return other


@settings(max_examples=examples(400))
@given(rules=rule_sets(variants=("dark", "dark-abrupt"), max_side=6), seed=SEEDS, end=st.booleans())
def test_views_and_their_pickles_carry_no_hidden_stone(rules: hx.Rules, seed: int, end: bool) -> None:
    """Two games that differ only in where a stone hidden from a viewer stands give that viewer (and
    spectators) equal views with identical pickled bytes, repr and str; unpickled views equal the
    originals. So nothing a view carries depends on a stone its viewer has not found."""
    rng = random.Random(seed)
    game = hx.Game(rules)
    play_random(game, rng, max_actions=rng.randint(1, rules.cells))
    assume(not game.is_over)
    if end:
        end_somehow(game, rng)
    viewer = rng.choice([hx.RED, hx.BLUE])
    other = relocated(game, viewer, rng)
    assume(other is not None)
    assert not np.array_equal(other.board, game.board)
    for get in (lambda g: g.view(viewer), lambda g: g.spectator_view()):
        mine, theirs = get(game), get(other)
        assert mine == theirs
        assert pickle.dumps(mine) == pickle.dumps(theirs)
        assert repr(mine) == repr(theirs) and str(mine) == str(theirs)
        assert pickle.loads(pickle.dumps(mine)) == mine


@settings(max_examples=examples(200))
@given(rules=rule_sets(max_side=6), seed=SEEDS)
def test_copies_play_on_independently(rules: hx.Rules, seed: int) -> None:
    """A copy taken mid-game continues exactly like the original given the same moves, and moves in
    one never show up in the other."""
    rng = random.Random(seed)
    game = hx.Game(rules)
    play_random(game, rng, max_actions=rng.randint(0, rules.cells))
    clone = game.copy()
    assert clone.history == game.history and np.array_equal(clone.board, game.board)
    before = game.history
    while not clone.is_over:
        clone.play(random_move(clone, rng))
    assert game.history == before
    replayed = game.copy()
    for action in clone.history[len(before) :]:
        replayed.play("swap" if action.result is hx.MoveResult.SWAPPED else action.cell)
    assert replayed.history == clone.history and replayed.winner is clone.winner
