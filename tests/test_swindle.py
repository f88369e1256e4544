"""The swindle: in a position the solver proves lost, the bot plays the move
that sets the opponent the best trap (cpp/search/swindle.h), checked against its
definition written out here from the public pieces (solve, random_playouts)."""

from __future__ import annotations

import random

import pytest

import hexengine as hx

PLAYOUTS = 1000  # kSwindlePlayouts in cpp/search/mcts.cpp
# Simulations that leave the swindle its full playouts per reply: with a
# simulation budget it gets 100 units of work a simulation (a solver node or a
# playout each), half of them for playouts, and these boards have at most 11
# empty cells (110 move-reply pairs of 1,000 playouts).
AMPLE = 5_000


def trap_ranks(game: hx.Game, seed: int) -> dict[hx.Move, tuple[int, float, int, int]]:
    """Each move's rank by the swindle's definition (larger is better): classified
    moves first, then by trap (the opponent's best losing reply's playout value
    minus its best winning reply's), fewer winning replies, the lower cell; a
    move that completes the mover's own chain last."""
    mover, cols = game.to_move, game.rules.cols
    ranks = {}
    for move in game.legal_moves():
        after = game.copy()
        after.play(move)
        cell = move.index(cols)  # type: ignore[union-attr]
        if after.is_over:
            assert after.winner != mover, "the position was not lost"
            ranks[move] = (0, -2.0, 0, -cell)
            continue
        solved = hx.solve(after, winning_moves=True)
        assert solved.winner == after.to_move, "the position was not lost"
        keeps = set(solved.winning_moves)
        best_win = best_loss = -1.0
        for reply in after.legal_moves():
            board = after.copy()
            board.play(reply)
            if board.is_over:
                value = 1.0 if board.winner == after.to_move else 0.0
            else:
                value = board.random_playouts(PLAYOUTS, seed=seed)[after.to_move] / PLAYOUTS
            if reply in keeps:
                best_win = max(best_win, value)
            else:
                best_loss = max(best_loss, value)
        ranks[move] = (2, best_loss - best_win, -len(keeps), -cell)
    return ranks


KNOWLEDGE = ("win", "block", "only-move", "dead-cell")  # answers found before the solver runs


def lost_positions(variant: str, size: int, empties: int, count: int, seed: int) -> list[hx.Game]:
    """Random positions with `empties` empty cells whose player to move is proven
    lost and has more than one move worth searching (no forced answer)."""
    rng = random.Random(seed)
    found: list[hx.Game] = []
    while len(found) < count:
        game = hx.Game(variant, size=size, swap="off")  # type: ignore[arg-type]
        while not game.is_over and size * size - len(game.history) > empties:
            game.play(rng.choice(game.legal_moves()))
        if game.is_over or hx.solve(game).winner in (None, game.to_move):
            continue
        if hx.MCTSBot(simulations=100, swindle=False).analyse(game.view(game.to_move)).forced is None:
            found.append(game)
    return found


@pytest.mark.parametrize(("variant", "size", "empties"), [("rex", 5, 11), ("hex", 5, 10), ("rex", 4, 8)])
def test_the_swindle_plays_the_best_trap_by_its_definition(variant: str, size: int, empties: int) -> None:
    """Over random lost positions of both games, the bot answers without search
    ("swindle", value 0), marks every classified move proven lost, and plays the
    move that ranks first by the definition."""
    for k, game in enumerate(lost_positions(variant, size, empties, 10, seed=size * 100 + empties)):
        a = hx.MCTSBot(simulations=AMPLE, seed=k).analyse(game.view(game.to_move))
        ranks = trap_ranks(game, seed=k)
        assert a.forced == "swindle" and a.value == 0.0 and a.simulations == 0
        assert a.move == max(ranks, key=lambda m: ranks[m]), (str(game), a.move, ranks)
        for move in ranks:
            assert a.proven.flat[move.index(size)] == -1, (str(game), move)  # type: ignore[union-attr]


def test_the_empty_3x3_rex_board_swindle() -> None:
    """3x3 Rex is lost for the first player: every first move is proven lost,
    and the corner leaves Blue's winning replies looking worst (seed 1)."""
    game = hx.Game("rex", size=3, swap="off")
    a = hx.MCTSBot(simulations=AMPLE, seed=1).analyse(game.view(hx.RED))
    assert repr(a) == "<Analysis a1: forced (swindle), value 0.000>"
    assert (a.proven == -1).all()


def test_no_swindle_when_the_position_is_not_proven_lost() -> None:
    """A proven win is played as "solved"; with the swindle off, or with the
    solver off, a lost position is searched as before."""
    lost = lost_positions("rex", 5, 11, 1, seed=7)[0]
    view = lost.view(lost.to_move)
    for options in ({"swindle": False}, {"solver_nodes": 0}):
        a = hx.MCTSBot(simulations=500, seed=1, **options).analyse(view)
        assert a.forced is None and a.simulations == 500 and a.visits.sum() == 500
    won = lost.copy()
    won.play(hx.MCTSBot(simulations=AMPLE, seed=1).choose(view))
    a = hx.MCTSBot(simulations=AMPLE, seed=1).analyse(won.view(won.to_move))
    assert a.forced in ("solved", *KNOWLEDGE) and a.value == 1.0


def test_the_swindle_is_deterministic_and_honours_a_time_budget() -> None:
    """Same seed, same move; with seconds= the swindle shares the solver's half of
    the budget and still returns a legal move."""
    game = lost_positions("rex", 7, 15, 1, seed=3)[0]
    view = game.view(game.to_move)
    first = hx.MCTSBot(simulations=1000, seed=5).analyse(view)
    assert first.move == hx.MCTSBot(simulations=1000, seed=5).analyse(view).move
    timed = hx.MCTSBot(seconds=0.05, seed=5).analyse(view)
    assert timed.move in view.legal_moves()


def endgames(variant: str, size: int, count: int, seed: int) -> list[hx.Game]:
    """Random Hex or Rex positions with few enough empty cells for the endgame
    solver, the player to move not yet decided by knowledge alone."""
    rng = random.Random(seed)
    found: list[hx.Game] = []
    while len(found) < count:
        game = hx.Game(variant, size=size, swap="off")  # type: ignore[arg-type]
        stop_at = rng.randint(1, 6)
        while not game.is_over and len(game.history) < stop_at:
            game.play(rng.choice(game.legal_moves()))
        if not game.is_over:
            found.append(game)
    return found


@pytest.mark.parametrize("simulations", [1, 60, 400])
def test_a_simulation_budget_bounds_the_endgame_work(simulations: int) -> None:
    """With only simulations set, the solver and the swindle together do at most
    100 units of work a simulation (a solver node or a playout each; df-pn may
    pass a node limit by the few nodes it expands before checking it), in the
    positions that made one 60-simulation move take half a minute: 5x5 Rex
    after e5 c4, and random early endgames of 5x5 Rex and 4x4 Hex."""
    game = hx.Game("rex", size=5, swap="off")
    game.play("e5")
    game.play("c4")
    positions = [game, *endgames("rex", 5, 8, seed=simulations), *endgames("hex", 4, 4, seed=simulations)]
    solved = 0
    for position in positions:
        a = hx.MCTSBot(simulations=simulations, seed=2).analyse(position.view(position.to_move))
        if a.forced in KNOWLEDGE:
            continue  # answered before the solver runs
        solved += 1
        assert a.endgame_nodes > 0, str(position)  # the solver ran
        assert a.endgame_nodes + a.endgame_playouts <= 100 * simulations + 64, (str(position), a)
    assert solved >= len(positions) // 2


def test_the_presets_bound_the_endgame_work() -> None:
    """The easy and medium levels are simulation budgets, so the same bound holds."""
    from hexengine.bots import LEVELS

    game = hx.Game("rex", size=5, swap="off")
    game.play("e5")
    game.play("c4")
    for level in ("easy", "medium"):
        a = hx.MCTSBot(**LEVELS[level]).analyse(game.view(game.to_move))
        assert 0 < a.endgame_nodes + a.endgame_playouts <= 100 * LEVELS[level]["simulations"] + 64
