"""The MCTS bot: tactics, determinism, budgets, statistics, errors."""

from __future__ import annotations

import itertools
import math
import pickle
import random
import threading
from collections.abc import Iterator

import numpy as np
import pytest
from test_evaluator import uniform

import hexengine as hx
from hexengine import _core


def position(variant: str, size: int, moves: list[str], swap: str = "off") -> hx.Game:
    game = hx.Game(variant, size=size, swap=swap)  # type: ignore[arg-type]
    for move in moves:
        game.play(move)
    return game


def mover_wins(game: hx.Game) -> bool:
    """Exhaustive minimax: whether the player to move wins with perfect play (no swap)."""
    mover = game.to_move
    for move in game.legal_moves():
        if move == hx.SWAP:
            continue
        after = game.copy()
        after.play(move)
        if after.is_over:
            if after.winner == mover:
                return True
        elif not mover_wins(after):
            return True
    return False


def winning_moves(game: hx.Game) -> list[hx.Move]:
    out = []
    for move in game.legal_moves():
        after = game.copy()
        after.play(move)
        if (after.is_over and after.winner == game.to_move) or (not after.is_over and not mover_wins(after)):
            out.append(move)
    return out


# --- tactics -----------------------------------------------------------------


@pytest.mark.parametrize("color", [hx.RED, hx.BLUE])
def test_hex_win_in_one_without_search(color: hx.Color) -> None:
    """Either colour with a win in one plays it at once ("win"), whatever the budget."""
    if color == hx.RED:  # Red has a1..a4 down column a except a5
        game = position("hex", 5, ["a1", "b1", "a2", "b2", "a3", "b3", "a4", "c3"])
        expected = {"a5"}
    else:  # Blue has a2..d2 across row 2; e1 and e2 both touch d2 and the last column
        game = position("hex", 5, ["a1", "a2", "b1", "b2", "c1", "c2", "e4", "d2", "e3"])
        expected = {"e1", "e2"}
    assert game.to_move == color
    analysis = hx.MCTSBot(simulations=50).analyse(game.view(color))
    assert analysis.forced == "win"
    assert str(analysis.move) in expected
    assert analysis.value == 1.0


@pytest.mark.parametrize("color", [hx.RED, hx.BLUE])
def test_hex_blocks_a_single_threat(color: hx.Color) -> None:
    """With no win of its own and one opponent threat, the bot blocks it ("block")."""
    if color == hx.BLUE:  # Red threatens a5 down column a
        game = position("hex", 5, ["a1", "c2", "a2", "c3", "a3", "e1", "a4"])
        expected = "a5"
    else:  # Blue threatens e1 across row 1
        game = position("hex", 5, ["e5", "a1", "d5", "b1", "c5", "c1", "b5", "d1"])
        expected = "e1"
    assert game.to_move == color
    analysis = hx.MCTSBot(simulations=50).analyse(game.view(color))
    assert analysis.forced == "block"
    assert str(analysis.move) == expected


@pytest.mark.parametrize("color", [hx.RED, hx.BLUE])
def test_rex_never_completes_its_own_chain_when_it_can_avoid_it(color: hx.Color) -> None:
    """In Rex a move joining your own edges loses; the bot avoids every such move."""
    rng = random.Random(int(color))
    checked = 0
    while checked < 25:
        game = hx.Game("rex", size=4, swap="off")
        empty_cells = rng.choice([4, 5])
        while not game.is_over and len(game.legal_moves()) > empty_cells:
            game.play(rng.choice(game.legal_moves()))
        if game.is_over or game.to_move != color:
            continue
        safe = []
        for move in game.legal_moves():
            after = game.copy()
            after.play(move)
            if not (after.is_over and after.winner != color):
                safe.append(move)
        if not safe or len(safe) == len(game.legal_moves()):
            continue
        move = hx.MCTSBot(simulations=300, seed=checked).choose(game.view(color))
        assert move in safe
        checked += 1


@pytest.mark.parametrize("variant", ["hex", "rex"])
def test_plays_a_winning_move_whenever_one_exists_late_in_the_game(variant: str) -> None:
    """On random 4x4 positions with at most six empty cells, whenever the
    player to move can force a win (by exhaustive search), the bot's move is
    one of the winning moves, for both colours: wins in one, blocks of a loss
    in one, and the Rex endgames where the opponent is forced to connect."""
    rng = random.Random(7 if variant == "hex" else 8)
    tested = {hx.RED: 0, hx.BLUE: 0}
    while min(tested.values()) < 12:
        game = hx.Game(variant, size=4, swap="off")  # type: ignore[arg-type]
        stop = rng.randint(10, 13)
        while not game.is_over and len(game.history) < stop:
            game.play(rng.choice(game.legal_moves()))
        if game.is_over:
            continue
        wins = winning_moves(game)
        if not wins:
            continue
        color = game.to_move
        assert color is not None
        move = hx.MCTSBot(simulations=3000, seed=len(game.history)).choose(game.view(color))
        assert move in wins, (str(game), move, wins)
        tested[color] += 1


def test_a_proven_lost_position_still_ranks_its_moves() -> None:
    """3x3 Rex is lost for the first player. Once every move is proven lost the
    search goes on as if the opponent could still go wrong, so its visits stay
    spread by value (it used to pour every later simulation into the first
    cell, which then was played: 44% of the visits on a1 here). The swindle is
    off: it would answer this position without search (tests/test_swindle.py)."""
    game = hx.Game("rex", size=3, swap="off")
    a = hx.MCTSBot(simulations=20000, seed=1, swindle=False).analyse(game.view(hx.RED))
    assert (a.proven == -1).all() and a.value == 0.0
    assert a.visits.sum() == a.simulations == 20000
    assert a.visits.max() < 0.35 * a.simulations


# --- determinism, budgets, statistics ----------------------------------------


def test_fixed_seed_and_one_thread_give_identical_searches() -> None:
    """Two fresh bots with the same seed produce the same move and the same statistics."""
    view = position("hex", 9, ["e5", "d6"]).view(hx.RED)
    a = hx.MCTSBot(simulations=3000, seed=42).analyse(view)
    b = hx.MCTSBot(simulations=3000, seed=42).analyse(view)
    assert a.move == b.move and a.pv == b.pv
    assert np.array_equal(a.visits, b.visits)
    assert np.array_equal(np.nan_to_num(a.values), np.nan_to_num(b.values))


@pytest.mark.parametrize("variant", ["hex", "rex"])
def test_amaf_sampling_starts_at_its_visit_count_and_keeps_searches_reproducible(variant: str) -> None:
    """Below ``amaf_sample_visits`` every simulation updates the AMAF counts, so a
    search no node of which reaches it is the search without sampling; once the
    root passes it, the sampled search is another one, and still the same from
    the same seed."""
    view = position(variant, 9, ["e5", "d6"]).view(hx.RED)

    def search(**kwargs: int) -> hx.Analysis:
        return hx.MCTSBot(simulations=4000, seed=7, **kwargs).analyse(view)

    exact = search(amaf_sample_visits=0)
    assert np.array_equal(search().visits, exact.visits)  # the default, 8,192, is never reached
    assert np.array_equal(search(amaf_sample_visits=4001).visits, exact.visits)
    sampled = search(amaf_sample_visits=500)
    assert not np.array_equal(sampled.visits, exact.visits)
    assert np.array_equal(search(amaf_sample_visits=500).visits, sampled.visits)
    assert sampled.visits.sum() == exact.visits.sum() == 4000


def root_visits(variant: str, moves: list[str], **kwargs: object) -> np.ndarray:
    """Visits per cell of a 2,000-simulation search (seed 5) after ``moves`` on 9x9."""
    game = position(variant, 9, moves)
    bot = hx.MCTSBot(simulations=2000, seed=5, **kwargs)  # type: ignore[arg-type]
    return bot.analyse(game.view(game.to_move)).visits


def test_the_move_prior_shapes_hex_and_rex_searches() -> None:
    """In Hex and Rex the prior changes the search (it starts new moves near
    the last move, in the patterns it learned to like, above even); Dark Hex
    searches ignore it, and with knowledge off it is off."""
    moves = ["e5", "c3"]
    for variant in ("hex", "rex"):
        assert not np.array_equal(root_visits(variant, moves), root_visits(variant, moves, prior=0))
        without_knowledge = root_visits(variant, moves, knowledge=False)
        assert np.array_equal(without_knowledge, root_visits(variant, moves, knowledge=False, prior=0))
    assert np.array_equal(root_visits("dark", ["e5"]), root_visits("dark", ["e5"], prior=0))
    # A small search follows the prior: its reply to a lone stone is mostly
    # within two steps of it (seeds 1-16: 11 of 16, where without it 2 are).
    game = position("hex", 11, ["f6"])

    def near(prior: float) -> int:
        count = 0
        for seed in range(1, 17):
            reply = hx.MCTSBot(simulations=200, seed=seed, prior=prior).choose(game.view(hx.BLUE))
            assert isinstance(reply, hx.Cell)
            dr, dc = reply.row - 5, reply.col - 5
            count += (abs(dr) + abs(dc) + abs(dr + dc)) // 2 <= 2
        return count

    assert near(30) >= 9 > 5 >= near(0)


# An 11x11 middlegame, Red to move: Red's stones on rows 3-9 leave each cell of
# Red's own edge rows dominated (a Red stone on the row next to it makes it a
# captured pair with its neighbour), a1 and k11 vulnerable, and a5 b5 a6 a7
# captured by Blue (b6 and Blue's edge).
MIDGAME_11 = ["f6", "e7", "g4", "d5", "c8", "h7", "e4", "f8", "d9", "g6", "c4", "e9", "h3", "b6", "i5", "g9"]
EDGE_ROWS = [f"{col}{row}" for col in "abcdefghijk" for row in (1, 11)]


def test_inferior_moves_are_never_searched_in_hex() -> None:
    """With the inferior-cell analysis at the root from its first visit, no
    simulation goes into a dominated, vulnerable or captured cell; without it
    the same search tries some of them."""
    view = position("hex", 11, MIDGAME_11).view(hx.RED)

    def visits(**kwargs: int) -> dict[str, int]:
        analysis = hx.MCTSBot(simulations=30_000, seed=2, exploration=0.5, **kwargs).analyse(view)
        cells = [hx.Cell(name) for name in [*EDGE_ROWS, "a5", "a6"]]
        return {str(cell): int(analysis.visits[cell.row, cell.col]) for cell in cells}

    assert set(visits(inferior_visits=1).values()) == {0}
    assert sum(visits(inferior_visits=0).values()) > 0


def random_positions(rng: random.Random, size: int, fewest: int, most: int) -> Iterator[hx.Game]:
    """Unfinished Hex games of `size` after `fewest` to `most` - 1 random moves, without end."""
    while True:
        game = hx.Game("hex", size=size, swap="off")
        for _ in range(rng.randrange(fewest, most)):
            game.play(rng.choice(game.legal_moves()))
            if game.is_over:
                break
        if not game.is_over:
            yield game


def test_inferior_pruning_keeps_the_winning_moves_of_small_boards() -> None:
    """On won 5x5 positions the bot, pruning from the first visit, plays a
    winning move (the solver's, checked elsewhere against exhaustive search)
    with and without the fill-in of its playouts; Rex is left alone (its
    inferior cells differ)."""
    checked = 0
    for game in random_positions(random.Random(4), 5, 4, 12):
        if checked == 25:
            break
        solved = hx.solve(game, winning_moves=True)
        if not solved.mover_wins:
            continue
        wins = list(solved.winning_moves)
        for fill in (True, False):
            bot = hx.MCTSBot(
                simulations=3000, seed=checked, inferior_visits=1, inferior_fill=fill, solver_nodes=0
            )
            assert bot.choose(game.view(game.to_move)) in wins
        checked += 1
    rex = position("rex", 11, MIDGAME_11).view(hx.RED)
    a = hx.MCTSBot(simulations=3000, seed=1, inferior_visits=1).analyse(rex).visits
    b = hx.MCTSBot(simulations=3000, seed=1, inferior_visits=0).analyse(rex).visits
    assert np.array_equal(a, b)


def test_knowledge_proofs_agree_with_the_solver() -> None:
    """With the connections and the inferior-cell analysis at every node, each
    root move the search proves won is a winning move by the exact solver and
    each it proves lost is not; built on the filled-in board, the connections
    prove more of the moves than on the bare board."""
    proven = {True: 0, False: 0}
    for checked, game in enumerate(itertools.islice(random_positions(random.Random(7), 6, 6, 16), 30)):
        wins = {(c.row, c.col) for c in hx.solve(game, winning_moves=True).winning_moves}
        for filled in (True, False):
            knowledge = {"knowledge_visits": 1, "inferior_visits": int(filled)}
            bot = hx.MCTSBot(simulations=2000, seed=checked, solver_nodes=0, **knowledge)
            marks = bot.analyse(game.view(game.to_move)).proven
            for row, col in zip(*np.nonzero(marks), strict=True):
                assert (marks[row, col] == 1) == ((row, col) in wins), (game, row, col)
            proven[filled] += int(np.count_nonzero(marks))
    assert proven[True] > proven[False] > 0


# Blue to move after 27 moves of an 11x11 game against MoHex: Red (MoHex) is
# joined to both its edges, Benzene's connections show it, and ours did only
# once the lists of carriers a pair held more than six full and twelve semi ones.
MOHEX_WIN_11 = "a10 j2 h3 h4 g4 g5 e6 e7 d7 d8 c8 c9 d10 b9 a9 b8 a8 b7 a7 b6 a6 d3 b5 c4 c5 g2 e4".split()


def test_the_trees_connections_see_a_win_of_mohex() -> None:
    """The tree's H-search, run at the root, proves the move it would play lost
    for Blue in that position (so every move: the search plays a proven-lost move
    only when all are), as the solver's connections do at its root: Red wins."""
    game = position("hex", 11, MOHEX_WIN_11)
    bot = hx.MCTSBot(simulations=16, seed=1, knowledge_visits=1, inferior_visits=1, solver_nodes=0)
    found = bot.analyse(game.view(hx.BLUE))
    assert isinstance(found.move, hx.Cell)
    assert found.proven[found.move.row, found.move.col] == -1
    assert hx.solve(game, max_nodes=2).winner == hx.RED


def test_the_progressive_bias_follows_the_prior_in_hex_and_rex() -> None:
    """``prior_bias`` adds the prior's probability of a move over the square
    root of its visits: with a strong bias a short search spends more than
    half its visits on the prior's four favourite cells (highest learned
    weights of the variant's table), and more than without it; Dark Hex
    searches, and searches without the prior, ignore it."""
    rng = random.Random(4)

    def favourites_share(view: hx.View, bias: float) -> float | None:
        weights = np.asarray(_core.cell_patterns(view._core)[3]).ravel()
        favourites = np.argsort(-np.nan_to_num(weights, nan=-np.inf))[:4]
        analysis = hx.MCTSBot(simulations=400, seed=2, prior_bias=bias).analyse(view)
        if analysis.forced is not None:  # e.g. a Rex dead cell, played without search
            return None
        return float(analysis.visits.ravel()[favourites].sum()) / analysis.simulations

    for variant in ("hex", "rex"):
        searched = 0
        while searched < 4:
            game = hx.Game(variant, size=9, swap="off")  # type: ignore[arg-type]
            for _ in range(rng.randrange(2, 12)):
                game.play(rng.choice(game.legal_moves()))
            view = game.view(game.to_move)
            strong = favourites_share(view, 50)
            if strong is None:
                continue
            searched += 1
            assert strong > max(0.5, favourites_share(view, 0) or 0.0)

    moves = ["e5", "c3"]
    for variant in ("hex", "rex"):
        assert not np.array_equal(root_visits(variant, moves), root_visits(variant, moves, prior_bias=2))
        without_prior = root_visits(variant, moves, prior=0)
        assert np.array_equal(without_prior, root_visits(variant, moves, prior=0, prior_bias=2))
    assert np.array_equal(root_visits("dark", ["e5"]), root_visits("dark", ["e5"], prior_bias=2))


@pytest.mark.parametrize(
    ("variant", "default", "other"), [("rex", 3000, 1000), ("hex", 1000, 3000), ("dark", 1000, 3000)]
)
def test_rave_equivalence_defaults_to_the_variants(variant: str, default: int, other: int) -> None:
    """Left unset, the RAVE equivalence is the variant's: the same search as
    giving that value, a different one from giving the other."""
    view = position(variant, 6, ["c3", "d4"]).view(hx.RED)

    def visits(**rave: int) -> np.ndarray:
        return hx.MCTSBot(simulations=4000, seed=3, **rave).analyse(view).visits

    assert np.array_equal(visits(), visits(rave_equivalence=default))
    assert not np.array_equal(visits(), visits(rave_equivalence=other))


@pytest.mark.parametrize("variant", ["hex", "rex", "dark"])
def test_the_initial_rave_weight_shapes_the_search(variant: str) -> None:
    """Left unset, the initial RAVE weight is 1 in every variant: the same
    search as giving 1, a different one from giving MoHex's 2.12."""
    view = position(variant, 6, ["c3", "d4"]).view(hx.RED)

    def visits(**rave: float) -> np.ndarray:
        return hx.MCTSBot(simulations=4000, seed=3, **rave).analyse(view).visits

    assert np.array_equal(visits(), visits(rave_initial_weight=1))
    assert not np.array_equal(visits(), visits(rave_initial_weight=2.12))


# Rex positions, Red to move, that the endgame solver proves won in more than
# 20,000 nodes and fewer than 200,000: 7x7 with 23 empty cells (about 44,000
# nodes) and 8x8 with 24 (about 61,000), both from MCTSBot self-play.
REX_7X7_SLOW_PROOF = "a1 b1 g7 f7 f6 g5 g4 b2 c1 d1 d7 e7 c7 b7 a3 b3 d2 e2 f1 g1 g2 e1 a5 b4 c3 d3".split()
REX_8X8_SLOW_PROOF = (
    "a1 b1 h8 g8 g7 h6 h5 b2 c1 d1 h7 a2 a3 g5 f7 d8 e7 f6 a4 c8 d7 b3 f5 h3 h2 h4 g4 f4 d2 g6 b8 a8 a7 e8 "
    "f1 g1 g2 e1 f3 b6"
).split()


@pytest.mark.parametrize(
    ("size", "moves", "default"), [(7, REX_7X7_SLOW_PROOF, 200_000), (8, REX_8X8_SLOW_PROOF, 20_000)]
)
def test_small_rex_boards_get_the_larger_solver_budget_by_default(
    size: int, moves: list[str], default: int
) -> None:
    """Left unset, the endgame solver's budget is the rules': 200,000 nodes in
    Rex up to 49 cells, 20,000 beyond (and in Hex). A proof of 44,000 to
    61,000 nodes is played at once with 200,000 and not with 20,000, and the
    default does what its value does. (10,000 simulations allow the solver
    all of it: with a simulation budget it gets at most 100 nodes a simulation.)"""
    view = position("rex", size, moves).view(hx.RED)

    def forced(**nodes: int) -> str | None:
        return hx.MCTSBot(simulations=10_000, seed=1, **nodes).analyse(view).forced

    assert forced(solver_nodes=200_000) == "solved" and forced(solver_nodes=20_000) != "solved"
    assert forced() == forced(solver_nodes=default)


def test_easy_and_medium_keep_the_small_solver_budget() -> None:
    """The presets people play against keep 20,000 solver nodes in 7x7 Rex
    too (a swindle at 200,000 can take half a minute): the 44,000-node proof
    is not played at once; ``solver_nodes`` still overrides a preset."""
    view = position("rex", 7, REX_7X7_SLOW_PROOF).view(hx.RED)
    for name in ("easy", "medium"):
        assert hx.MCTSBot.level(name).analyse(view).forced != "solved"
    assert hx.MCTSBot.level("medium", solver_nodes=200_000).analyse(view).forced == "solved"


def test_same_game_same_seed_same_moves_with_tree_reuse() -> None:
    """Tree reuse keeps searches deterministic: two bots following one game choose alike."""
    games = []
    for _ in range(2):
        game = hx.Game("hex", size=7, swap="off")
        red, blue = hx.MCTSBot(simulations=800, seed=1), hx.MCTSBot(simulations=800, seed=2)
        for _ in range(10):
            bot = red if game.to_move == hx.RED else blue
            game.play(bot.choose(game.view(game.to_move)))
        games.append(game.history)
    assert games[0] == games[1]


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_simulation_budget_is_exact_and_visits_add_up(threads: int) -> None:
    """The search runs exactly the simulations asked for, on any number of
    threads, and the root's visits add up to them."""
    view = position("hex", 7, ["d4"], swap="sides").view(hx.BLUE)
    analysis = hx.MCTSBot(simulations=4000, threads=threads, seed=3).analyse(view)
    assert analysis.simulations == 4000
    assert analysis.reused == 0
    assert int(analysis.visits.sum()) == 4000


@pytest.mark.parametrize("variant", ["hex", "rex"])
@pytest.mark.parametrize("threads", [2, 3])
@pytest.mark.parametrize("shadow_visits", [0, 1, 64])
def test_threads_shadow_counts_lose_no_simulation(variant: str, threads: int, shadow_visits: int) -> None:
    """Threads that keep their own copies of well-visited nodes' counts add
    every simulation to the tree: with copies everywhere (1), at the busy
    nodes (64) or nowhere (0), the root's visits add up to the budget, its
    values stay probabilities, and the next move's search inherits a subtree
    whose counts add up too."""
    game = position(variant, 7, ["d4"], swap="off")
    bot = hx.MCTSBot(simulations=6000, threads=threads, seed=3, shadow_visits=shadow_visits, solver_nodes=0)
    analysis = bot.analyse(game.view(game.to_move))
    assert analysis.simulations == 6000
    assert int(analysis.visits.sum()) == 6000
    values = analysis.values[analysis.visits > 0]
    assert np.all((values >= 0) & (values <= 1))
    assert len(analysis.pv) > 1
    game.play(analysis.move)
    game.play(analysis.pv[1])  # the reply the tree knows best
    again = bot.analyse(game.view(game.to_move))
    assert again.reused > 0
    assert int(again.visits.sum()) == again.simulations + again.reused == 6000 + again.reused


def test_time_budget_stops_the_search() -> None:
    """With only a time budget the search returns after at least that long,
    having run some simulations (no upper bound is asserted: tests never time)."""
    view = hx.Game("hex", size=11).view(hx.RED)
    analysis = hx.MCTSBot(seconds=0.2, threads=2).analyse(view)
    assert analysis.seconds >= 0.2
    assert analysis.simulations > 0


def test_node_budget_bounds_the_tree() -> None:
    """Once the node budget is spent the tree stops growing, and the search still completes."""
    view = hx.Game("hex", size=11).view(hx.RED)
    analysis = hx.MCTSBot(simulations=20_000, max_nodes=5_000, seed=1).analyse(view)
    assert analysis.nodes <= 5_000
    assert analysis.simulations == 20_000


def test_analysis_statistics_are_consistent() -> None:
    """Values lie in [0, 1] exactly where moves were visited; the PV starts
    with the move; the value is the chosen move's; every move is legal."""
    game = position("rex", 6, ["c3", "d4", "a1"])
    view = game.view(game.to_move)
    analysis = hx.MCTSBot(simulations=5000, seed=9).analyse(view)
    visited = analysis.visits > 0
    assert np.all((analysis.values[visited] >= 0) & (analysis.values[visited] <= 1))
    assert np.all(np.isnan(analysis.values[~visited]))
    assert analysis.pv[0] == analysis.move
    assert analysis.move in view.legal_moves()
    r, c = analysis.move
    assert analysis.value == pytest.approx(analysis.values[r, c])
    assert analysis.visits[r, c] == analysis.visits.max()
    assert all(np.asarray(game.board)[cell] == 0 for cell in analysis.pv[:1])
    assert analysis.top(3)[0][0] == analysis.move


@pytest.mark.parametrize(
    ("variant", "options"),
    [("hex", {}), ("hex", {"prior_bias": 0.0}), ("rex", {}), ("rex", {"prior": 0.0})],
)
def test_tree_is_reused_between_moves(variant: str, options: dict[str, float]) -> None:
    """The next search starts from the subtree of the position reached, unless
    reuse is off; also in the trees that have no progressive-bias column (no
    prior or ``prior_bias=0``)."""
    for reuse in (True, False):
        game = hx.Game(variant, size=7, swap="off")  # type: ignore[arg-type]
        bot = hx.MCTSBot(simulations=3000, seed=1, reuse_tree=reuse, **options)
        first = bot.analyse(game.view(hx.RED))
        game.play(first.move)
        game.play(first.pv[1])  # the reply the bot expected
        analysis = bot.analyse(game.view(hx.RED))
        assert (analysis.reused > 0) == reuse
        assert int(analysis.visits.sum()) == analysis.simulations + analysis.reused


@pytest.mark.parametrize("variant", ["hex", "dark"])
def test_a_search_may_have_a_budget_of_its_own_and_keeps_the_tree(variant: str) -> None:
    """analyse(view, simulations=, seconds=) searches within that budget instead of the bot's
    and keeps the tree across the moves (a clock's share of the time per move); the next
    search without one has the bot's budget again. The evaluator search takes one too."""
    game = hx.Game(variant, size=7, swap="off")  # type: ignore[arg-type]
    bot = hx.MCTSBot(simulations=2000, seed=3)
    first = bot.analyse(game.view(hx.RED), simulations=700)
    assert first.simulations == 700
    game.play(first.move)
    game.play(first.pv[1] if variant == "hex" else next(m for m in game.legal_moves() if m != first.move))
    timed = bot.analyse(game.view(hx.RED), seconds=0.05)
    assert timed.simulations > 0 and timed.reused > 0
    again = bot.analyse(game.view(hx.RED))
    assert again.simulations == 2000 and again.reused > 0
    evaluator = hx.MCTSBot(evaluator=uniform, simulations=100)
    assert evaluator.analyse(hx.Game("hex", size=5).view(hx.RED), simulations=30).simulations == 30


@pytest.mark.parametrize(
    ("budget", "problem"),
    [
        ({"simulations": 0}, "needs a budget"),
        ({"seconds": 0.0}, "needs a budget"),
        ({"simulations": -1}, "simulations"),
        ({"simulations": 2.5}, "simulations"),
        ({"simulations": True}, "simulations"),
        ({"seconds": -1.0}, "seconds"),
        ({"seconds": math.nan}, "seconds"),
        ({"seconds": 2e6}, "seconds"),
    ],
)
def test_a_bad_budget_of_one_search_is_a_clear_error(budget: dict, problem: str) -> None:
    bot = hx.MCTSBot(simulations=100)
    with pytest.raises(hx.ConfigError, match=problem):
        bot.analyse(hx.Game("hex", size=5).view(hx.RED), **budget)
    assert bot.analyse(hx.Game("hex", size=5).view(hx.RED)).simulations == 100  # still usable


def bare_view(game: hx.Game) -> hx.View:
    """The view of the player to move with its record dropped: stones the record does not explain."""
    state = list(game.view(game.to_move)._core.state())  # type: ignore[arg-type]
    state[11] = []  # the record
    return hx.View(_core.View.from_state(tuple(state)))


@pytest.mark.parametrize("variant", ["hex", "rex"])
def test_a_tree_is_reused_only_for_the_position_it_was_grown_for(variant: str) -> None:
    """Tree reuse follows the record, so a view whose record does not account for
    its stones (here: none) must not inherit the tree of the previous search. A
    bot fed such views one after another used to search the first position's
    tree and could play an occupied cell. (A Dark Hex search refuses such a
    view: its belief is built from the record.)"""
    rng = random.Random(3)
    bot = hx.MCTSBot(simulations=600, seed=1)
    searched = 0
    while searched < 8:
        game = hx.Game(variant, size=9, swap="off")  # type: ignore[arg-type]
        for _ in range(rng.randint(4, 12)):
            game.play(rng.choice(game.legal_moves()))
        if game.is_over:
            continue
        view = bare_view(game)
        first = bot.analyse(view)
        assert first.reused == 0
        assert first.move in view.legal_moves()
        again = bot.analyse(view)  # the same position: its tree is reused
        assert again.reused > 0 or again.forced
        searched += 1
    dark = hx.Game("dark", size=5)
    dark.play("c3")
    dark.play("b2")
    with pytest.raises(hx.ConfigError, match="board does not match its record"):
        bot.analyse(bare_view(dark))


def test_search_releases_the_gil() -> None:
    """Python threads keep running while a search runs."""
    bot = hx.MCTSBot(seconds=0.3)
    view = hx.Game("hex", size=11).view(hx.RED)
    done = threading.Event()

    def search() -> None:
        bot.analyse(view)
        done.set()

    thread = threading.Thread(target=search)
    thread.start()
    ticks = 0
    while not done.is_set():
        ticks += 1
    thread.join()
    assert ticks > 1000


# --- swap --------------------------------------------------------------------


def test_swaps_a_strong_opening_and_keeps_a_weak_one() -> None:
    """Blue swaps Red's centre opening on 7x7 and answers a corner opening with a move."""
    bot = hx.MCTSBot(simulations=6000, seed=5)
    centre = position("hex", 7, ["d4"], swap="sides")
    assert bot.choose(centre.view(hx.BLUE)) == hx.SWAP
    corner = position("hex", 7, ["a1"], swap="sides")
    assert hx.MCTSBot(simulations=6000, seed=5).choose(corner.view(hx.BLUE)) != hx.SWAP


def test_allow_swap_false_never_swaps() -> None:
    """A bot told not to swap (the easy level) never does."""
    centre = position("hex", 7, ["d4"], swap="pieces")
    analysis = hx.MCTSBot(simulations=3000, allow_swap=False).analyse(centre.view(hx.BLUE))
    assert analysis.move != hx.SWAP and analysis.swap_value is None


def test_swap_move_is_playable() -> None:
    """The bot's swap is a legal move of the game in both forms."""
    for form in ("sides", "pieces"):
        game = position("hex", 5, ["c3"], swap=form)
        bot = hx.MCTSBot(simulations=3000, seed=1)
        move = bot.choose(game.view(hx.BLUE))
        assert move in game.legal_moves()
        game.play(move)


# --- errors ------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"simulations": -1},
        {"seconds": -0.5},
        {"seconds": math.inf},
        {"simulations": 0, "seconds": 0},
        {"threads": 0},
        {"threads": 1000},
        {"max_nodes": 10},
        {"simulations": "many"},
        {"seconds": "1"},
        {"rave_equivalence": 0},
        {"rave_initial_weight": 0},
        {"rave_initial_weight": -1},
        {"rave_initial_weight": math.inf},
        {"rave_initial_weight": 1e9},
        {"solver_nodes": -1},
        {"solver_nodes": 2.5},
        {"expand_threshold": 0},
        {"prior": -1},
        {"prior": math.nan},
        {"prior_bias": -1},
        {"prior_bias": math.nan},
        {"prior_bias": 1e9},
        {"amaf_sample_visits": -1},
        {"amaf_sample_visits": 0.5},
        {"amaf_sample_visits": 2**32},
        {"shadow_visits": -1},
        {"shadow_visits": 2**32},
        {"threads": 2**40},  # past the core's int: was pybind11's "incompatible constructor arguments"
    ],
)
def test_bad_budgets_are_clear_errors(kwargs: dict) -> None:
    """Every bad budget or setting raises ConfigError naming it."""
    with pytest.raises(hx.ConfigError, match=next(iter(kwargs))):
        hx.MCTSBot(**kwargs)


def test_views_of_the_wrong_player_or_a_finished_game_are_refused() -> None:
    """The bot only moves for the player to move, in a game that is not over."""
    game = hx.Game("hex", size=5)
    bot = hx.MCTSBot(simulations=10)
    with pytest.raises(hx.ConfigError, match="player to move"):
        bot.choose(game.view(hx.BLUE))
    with pytest.raises(hx.ConfigError, match="player to move"):
        bot.choose(game.spectator_view())
    game.resign(hx.RED)
    with pytest.raises(hx.ConfigError, match="over"):
        bot.choose(game.view(hx.RED))
    with pytest.raises(TypeError):
        bot.choose(game)  # type: ignore[arg-type]


def test_levels() -> None:
    """The presets exist, can be overridden, and an unknown level is a clear error."""
    game = hx.Game("hex", size=5)
    for name in ("easy", "medium"):
        assert hx.MCTSBot.level(name).choose(game.view(hx.RED)) in game.legal_moves()
    hard = hx.MCTSBot.level("hard", seconds=0.05, threads=1)
    assert hard.choose(game.view(hx.RED)) in game.legal_moves()
    with pytest.raises(hx.ConfigError, match="unknown level"):
        hx.MCTSBot.level("grandmaster")


def test_unpickled_views_can_be_searched() -> None:
    """A view that crossed a process boundary (pickled) is searched like the original."""
    view = position("hex", 7, ["d4", "c5"]).view(hx.RED)
    a = hx.MCTSBot(simulations=500, seed=3).analyse(view)
    b = hx.MCTSBot(simulations=500, seed=3).analyse(pickle.loads(pickle.dumps(view)))
    assert a.move == b.move and np.array_equal(a.visits, b.visits)
