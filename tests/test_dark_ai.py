"""The Dark Hex AI: belief sampling and the information-set search.

Sampling: every sampled board is consistent with the view (property over many
random games of both variants and every shape), the sampler is uniform (a
chi-square test against exact enumeration, for each method), the exact
counting table agrees with enumeration, and late, crowded positions on 11x11
and 19x19 are sampled without a stalling rejection loop.

Search: certain wins in one, no peeking (pairs of games that differ only in
stones hidden from the bot give identical decisions, and views carry no hidden
stone), budgets, seeds, tree reuse, levels and errors.
"""

from __future__ import annotations

import itertools
import math
import pickle
import random
from collections import Counter

import numpy as np
import pytest
from _scripts import wins
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import board_connects, examples

import hexengine as hx
from hexengine import _core
from hexengine.bots import LEVELS

DARK = ("dark", "dark-abrupt")
SEEDS = st.integers(0, 2**32 - 1)


def random_dark_game(variant: str, rows: int, cols: int, rng: random.Random, actions: int) -> hx.Game:
    """Random players choosing from their own views, for ``actions`` actions or until the next
    move would end the game (the game is still running when this returns)."""
    game = hx.Game(variant, rows=rows, cols=cols)  # type: ignore[arg-type]
    while len(game.history) < actions:
        move = rng.choice(game.legal_moves())
        trial = game.copy()
        trial.play(move)
        if trial.is_over:
            break
        game.play(move)
    return game


def play(variant: str, size: int, moves: list[str]) -> hx.Game:
    game = hx.Game(variant, size=size)  # type: ignore[arg-type]
    for move in moves:
        game.play(move)
    return game


def assert_consistent(board: np.ndarray, view: hx.View) -> None:
    """What docs/rules.md section 5 lets a board be, seen from ``view``: every stone the viewer sees is
    there, exactly ``hidden_enemy_stones`` further stones, all of the enemy's, stand on cells the
    viewer does not know, and neither colour has a chain (the game is running)."""
    assert view.viewer is not None
    me, them = view.viewer, view.viewer.opponent
    seen = view.board
    known = seen != 0
    assert np.array_equal(board[known], seen[known])
    extra = (board != 0) & ~known
    assert np.all(board[extra] == int(them))
    assert int(extra.sum()) == view.hidden_enemy_stones
    assert not board_connects(board, them)
    assert not board_connects(board, me)


def consistent_boards(view: hx.View) -> set[bytes]:
    """Every consistent board, by brute force over the unknown cells (independent of the engine)."""
    assert view.viewer is not None
    them = int(view.viewer.opponent)
    seen = view.board
    unknown = list(zip(*np.nonzero(seen == 0), strict=True))
    out = set()
    for chosen in itertools.combinations(unknown, view.hidden_enemy_stones):
        board = seen.copy()
        for cell in chosen:
            board[cell] = them
        if not board_connects(board, view.viewer.opponent):
            out.add(board.tobytes())
    return out


def chi_square_limit(df: int, z: float = 3.719) -> float:
    """Upper 1e-4 quantile of the chi-square distribution (Wilson-Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def corridor(size: int, variant: str = "dark") -> hx.Game:
    """A crowded late position: Red has filled the lower rows, Blue the upper rows except one
    column, and neither has found a stone. Red's view leaves few open unknown cells and only
    boards that keep a top-to-bottom path of them open are consistent, so plain rejection
    almost never passes."""
    top = size // 2 + 1
    red = [(r, c) for r in range(top, size) for c in range(size)]
    blue = [(r, c) for r in range(top) for c in range(size) if c != size // 2]
    game = hx.Game(variant, size=size)  # type: ignore[arg-type]
    for i in range(min(len(red), len(blue))):
        game.play(red[i])
        game.play(blue[i])
    return game


# --- sampling: consistency -----------------------------------------------------


@st.composite
def dark_positions(draw: st.DrawFn) -> tuple[hx.Game, int]:
    variant = draw(st.sampled_from(DARK))
    sides = [*range(1, 9)] * 6 + [11, 19]
    rows, cols = draw(st.sampled_from(sides)), draw(st.sampled_from(sides))
    seed = draw(SEEDS)
    rng = random.Random(seed)
    return random_dark_game(variant, rows, cols, rng, rng.randint(0, 2 * rows * cols)), seed


@settings(max_examples=examples(200))
@given(position=dark_positions())
def test_sampled_boards_are_consistent_with_the_view(position: tuple[hx.Game, int]) -> None:
    """For both players of random running games of both variants, on every shape, every board
    drawn by each method is consistent with the player's view, and every sampled game replays
    (the referee accepts each move) into exactly the player's view."""
    game, seed = position
    small = game.rules.rows <= 8 and game.rules.cols <= 8
    for color in (hx.RED, hx.BLUE):
        view = game.view(color)
        for method in ("auto", "rejection", "exact") if small else ("auto",):
            for board in view.sample_boards(12, seed=seed, method=method):
                assert_consistent(board, view)
        for sampled in view.sample_games(3, seed=seed):
            assert sampled.view(color) == view
            assert_consistent(sampled.board, view)


@pytest.mark.parametrize("seed", range(60))
def test_counts_agree_with_brute_force(seed: int) -> None:
    """The engine's enumeration and its exact counting table both give the number of consistent
    boards that a brute force written from the rules finds."""
    rng = random.Random(seed)
    variant = DARK[seed % 2]
    rows, cols = rng.randint(1, 4), rng.randint(1, 4)
    game = random_dark_game(variant, rows, cols, rng, rng.randint(0, 2 * rows * cols))
    for color in (hx.RED, hx.BLUE):
        view = game.view(color)
        expected = len(consistent_boards(view))
        assert view.count_boards() == expected
        assert _core.count_boards_table(view._core) == expected


def test_counts_agree_on_larger_boards() -> None:
    """Enumeration and the exact table agree on 5x5 to 6x6 positions too, where the no-chain
    condition removes many placements."""
    rng = random.Random(99)
    checked = 0
    while checked < 25:
        size = rng.choice([5, 6])
        game = random_dark_game(
            rng.choice(DARK), size, size, rng, rng.randint(size * size // 2, 2 * size * size)
        )
        view = game.view(game.to_move)
        if math.comb(int((view.board == 0).sum()), view.hidden_enemy_stones) > 2_000_000:
            continue
        assert view.count_boards() == _core.count_boards_table(view._core)
        checked += 1


# --- sampling: uniformity ------------------------------------------------------


def uniformity_positions(variant: str) -> list[hx.View]:
    """Views of small random games where between 6 and 120 boards are consistent and the
    no-chain condition rules out some placements (so it is tested too)."""
    rng = random.Random(f"{variant}-uniform")
    found: list[hx.View] = []
    while len(found) < 3:
        rows, cols = rng.choice([(3, 3), (3, 4), (4, 3), (4, 4)])
        game = random_dark_game(variant, rows, cols, rng, rng.randint(4, rows * cols + 4))
        view = game.view(rng.choice([hx.RED, hx.BLUE]))
        boards = view.count_boards()
        placements = math.comb(int((view.board == 0).sum()), view.hidden_enemy_stones)
        if 6 <= boards <= 120 and boards < placements:
            found.append(view)
    return found


@pytest.mark.parametrize("method", ["rejection", "exact", "auto"])
@pytest.mark.parametrize("variant", DARK)
def test_sampler_is_uniform_on_small_boards(variant: str, method: str) -> None:
    """Drawing 200 boards per consistent board, each method only ever returns consistent boards
    and returns them equally often: the chi-square statistic against the uniform distribution
    over the brute-force enumeration stays below its 1e-4 quantile."""
    for view in uniformity_positions(variant):
        valid = consistent_boards(view)
        n = 200 * len(valid)
        boards = view.sample_boards(n, seed=7, method=method)  # type: ignore[arg-type]
        counts = Counter(b.tobytes() for b in boards)
        assert set(counts) <= valid
        expected = n / len(valid)
        chi2 = sum((counts.get(b, 0) - expected) ** 2 / expected for b in valid)
        assert chi2 < chi_square_limit(len(valid) - 1), (str(view), chi2, len(valid))


def test_opponent_hits_are_drawn_uniformly() -> None:
    """The opponent hit one of Red's stones but the record does not say which; sampled games put
    that hit on each of Red's earlier stones equally often, and never on a later one."""
    game = play("dark", 5, ["a1", "e5", "b3", "d4", "c5", "a1", "d1"])
    view = game.view(hx.RED)
    assert view.hits_received == 1
    hits = Counter()
    for sampled in view.sample_games(3000, seed=4):
        (hit,) = [a.cell for a in sampled.history if a.color == hx.BLUE and a.result is hx.MoveResult.HIT]
        hits[str(hit)] += 1
    assert set(hits) == {"a1", "b3", "c5"}
    chi2 = sum((k - 1000) ** 2 / 1000 for k in hits.values())
    assert chi2 < chi_square_limit(2)


# --- sampling: late, crowded positions -------------------------------------------


def test_crowded_11x11_position_is_sampled_exactly() -> None:
    """Late on 11x11 with only one consistent board in about 700 placements, the sampler picks
    the exact table (not rejection) and its boards are consistent."""
    view = corridor(11).view(hx.RED)
    placements = math.comb(int((view.board == 0).sum()), view.hidden_enemy_stones)
    assert _core.count_boards_table(view._core) / placements < 0.002
    assert _core.sampling_method(view._core, 0) == "exact"
    for board in view.sample_boards(300, seed=1):
        assert_consistent(board, view)


def test_crowded_19x19_position_does_not_stall() -> None:
    """On 19x19 with 171 hidden stones among 190 unknown cells, where a random placement is
    consistent with probability about 1e-26 and the exact table is too large, sampling still
    returns at once (the documented Markov chain) with consistent, varied boards."""
    view = corridor(19).view(hx.RED)
    assert _core.sampling_method(view._core, 0) == "mcmc"
    boards = view.sample_boards(200, seed=1)
    for board in boards:
        assert_consistent(board, view)
    assert len({b.tobytes() for b in boards}) > 50


@pytest.mark.parametrize("size", [11, 19])
@pytest.mark.parametrize("variant", DARK)
def test_late_random_games_on_large_boards(size: int, variant: str) -> None:
    """Random games played to the move before the end, on 11x11 and 19x19: boards drawn for the
    player to move are consistent."""
    rng = random.Random(size)
    game = random_dark_game(variant, size, size, rng, 10 * size * size)
    view = game.view(game.to_move)
    for board in view.sample_boards(300, seed=2):
        assert_consistent(board, view)


# --- sampling: errors -------------------------------------------------------------


def test_sampling_errors_are_clear() -> None:
    """Spectators, Hex views, finished boards, bad arguments and counts too large to enumerate
    get a ConfigError naming the problem."""
    dark = play("dark", 5, ["c3", "b2"])
    with pytest.raises(hx.ConfigError, match="spectator"):
        dark.spectator_view().sample_boards(1)
    with pytest.raises(hx.ConfigError, match="only Dark Hex"):
        hx.Game("hex", size=5).view(hx.RED).sample_boards(1)
    over = play("dark", 2, ["a1", "b1", "a2"])
    assert over.is_over
    with pytest.raises(hx.ConfigError, match="connection"):
        over.view(hx.BLUE).sample_boards(1)
    view = dark.view(hx.RED)
    with pytest.raises(hx.ConfigError, match="method"):
        view.sample_boards(1, method="magic")  # type: ignore[arg-type]
    with pytest.raises(hx.ConfigError, match="n must"):
        view.sample_boards(-1)
    with pytest.raises(hx.ConfigError, match="too many"):
        corridor(7).view(hx.RED).count_boards(limit=10)
    assert view.sample_boards(0).shape == (0, 5, 5)


def test_incoherent_views_are_refused() -> None:
    """A view rebuilt from edited data whose board does not match its record is refused with a
    clear error instead of being sampled."""
    view = play("dark", 4, ["a1", "b2"]).view(hx.RED)
    state = list(view._core.state())
    board = bytearray(state[5])
    board[5] = 1  # an extra red stone the record never placed
    state[5] = bytes(board)
    edited = hx.View(_core.View.from_state(tuple(state)))
    with pytest.raises(hx.ConfigError, match="record"):
        edited.sample_boards(1)


# --- search: tactics -------------------------------------------------------------

CERTAIN_WINS = {
    # Red a1, a2 and a3 would join; b3, c3 are found blue stones, so a blue stone on a3 would have
    # ended the game: a3 is empty in every consistent world, though Blue has hidden stones.
    ("dark", hx.RED): (["a1", "b3", "b3", "c1", "c3", "c3", "a2", "b1"], "a3"),
    ("dark-abrupt", hx.RED): (["a1", "b3", "b3", "c3", "c3", "b1", "a2", "c1"], "a3"),
    # Blue a1, b1 and c1 would join; c2, c3 are found red stones.
    ("dark", hx.BLUE): (["c2", "c2", "a1", "c3", "c3", "b1", "a3"], "c1"),
    ("dark-abrupt", hx.BLUE): (["c2", "c2", "c3", "c3", "a3", "a1", "b3", "b1", "a2"], "c1"),
}


@pytest.mark.parametrize(("variant", "color"), list(CERTAIN_WINS))
def test_finds_a_certain_win_in_one(variant: str, color: hx.Color) -> None:
    """When the view proves that a cell completes the bot's chain and holds no hidden stone,
    the bot plays it at once ("win", value 1), whatever the budget."""
    moves, expected = CERTAIN_WINS[variant, color]
    game = play(variant, 3, moves)
    assert game.to_move == color
    view = game.view(color)
    assert view.hidden_enemy_stones > 0  # the win is proved, not just visible
    analysis = hx.MCTSBot(simulations=50).analyse(view)
    assert analysis.forced == "win"
    assert str(analysis.move) == expected and analysis.value == 1.0
    game.play(analysis.move)
    assert game.winner == color


def test_tries_a_possible_win_in_classic_dark_hex() -> None:
    """In classic Dark Hex a hit costs nothing, so a cell that would complete the chain is tried
    at once even if a hidden stone may stand there ("win-try")."""
    game = play("dark", 3, ["a1", "c1", "a2", "c2"])
    analysis = hx.MCTSBot(simulations=50).analyse(game.view(hx.RED))
    assert analysis.forced == "win-try" and str(analysis.move) == "a3"
    assert 0 < analysis.hit_probability[2, 0] < 1


@pytest.mark.parametrize("variant", DARK)
def test_dark_views_are_searched(variant: str) -> None:
    """A Dark Hex view gets a legal move and consistent statistics: visits add up to the
    simulations, values lie in [0, 1] where visited, and the hit chances are zero on known cells
    and add up to the number of hidden stones (every world has exactly that many)."""
    game = random_dark_game(variant, 5, 5, random.Random(3), 9)
    view = game.view(game.to_move)
    assert view.hidden_enemy_stones > 0
    analysis = hx.MCTSBot(simulations=3000, seed=1).analyse(view)
    assert analysis.move in view.legal_moves()
    assert int(analysis.visits.sum()) == analysis.simulations == 3000
    visited = analysis.visits > 0
    assert np.all((analysis.values[visited] >= 0) & (analysis.values[visited] <= 1))
    assert np.all(np.isnan(analysis.values[~visited]))
    r, c = analysis.move
    assert analysis.value == pytest.approx(analysis.values[r, c]) and analysis.pv[0] == analysis.move
    hits = analysis.hit_probability
    assert hits is not None and hits.shape == view.board.shape
    assert np.all(hits[view.board != 0] == 0) and np.all((hits >= 0) & (hits <= 1))
    assert hits.sum() == pytest.approx(view.hidden_enemy_stones)
    assert analysis.swap_value is None


def test_hex_analyses_have_no_hit_chances() -> None:
    """hit_probability is a Dark Hex statistic; Hex and Rex analyses leave it empty."""
    assert hx.MCTSBot(simulations=200).analyse(hx.Game("hex", size=5).view(hx.RED)).hit_probability is None


# --- search: no peeking -----------------------------------------------------------


def twin_games(variant: str, rng: random.Random, count: int) -> list[tuple[hx.Game, hx.Game, hx.Color]]:
    """Pairs of running games whose true boards differ, and differ only in stones hidden from the
    player to move: the second game of a pair replays a record drawn from that player's view."""
    pairs = []
    while len(pairs) < count:
        size = rng.choice([4, 5, 6])
        game = random_dark_game(variant, size, size, rng, rng.randint(3, size * size))
        color = game.to_move
        assert color is not None
        view = game.view(color)
        twins = [g for g in view.sample_games(10, seed=len(pairs)) if not np.array_equal(g.board, game.board)]
        if twins:
            pairs.append((game, twins[0], color))
    return pairs


def assert_same_analysis(a: hx.Analysis, b: hx.Analysis) -> None:
    assert (a.move, a.value, a.pv, a.simulations, a.forced, a.reused) == (
        b.move,
        b.value,
        b.pv,
        b.simulations,
        b.forced,
        b.reused,
    )
    assert np.array_equal(a.visits, b.visits)
    assert np.array_equal(a.values, b.values, equal_nan=True)
    assert np.array_equal(a.hit_probability, b.hit_probability)


@pytest.mark.parametrize("variant", DARK)
def test_hidden_stones_do_not_change_the_bot(variant: str) -> None:
    """Pairs of games whose true boards differ only in stones hidden from the bot's side (30
    random pairs per variant, boards 4x4 to 6x6): with the same seed the bot makes the same
    choice with the same analysis in both, also when it searches again on the tree it kept."""
    for i, (game, twin, color) in enumerate(twin_games(variant, random.Random(variant), 30)):
        hidden = game.board != twin.board
        assert hidden.any() and not (game.view(color).board[hidden]).any()
        first = [hx.MCTSBot(simulations=600, seed=i).analyse(g.view(color)) for g in (game, twin)]
        assert_same_analysis(*first)
        if i % 5 == 0:
            bots = [hx.MCTSBot(simulations=800, seed=6) for _ in range(2)]
            for bot, g in zip(bots, (game, twin), strict=True):
                bot.analyse(g.view(color))
            second = [bot.analyse(g.view(color)) for bot, g in zip(bots, (game, twin), strict=True)]
            assert second[0].forced or second[0].reused > 0
            assert_same_analysis(*second)


GREEDY_MODEL = {k: v for k, v in LEVELS["medium"].items() if k.startswith("greedy_")}


@pytest.mark.parametrize("variant", DARK)
def test_the_greedy_model_does_not_peek(variant: str) -> None:
    """With the greedy model on (replayed worlds, a greedy opponent in the tree, greedy
    playouts: the medium level's settings), pairs of games that differ only in stones hidden
    from the bot still get the same analysis, on a fresh tree and on a kept one."""
    assert set(GREEDY_MODEL) == {"greedy_worlds", "greedy_opponent", "greedy_playouts"}
    for i, (game, twin, color) in enumerate(twin_games(variant, random.Random(f"{variant}-greedy"), 20)):
        bots = [hx.MCTSBot(simulations=600, seed=i, **GREEDY_MODEL) for _ in range(2)]
        first = [bot.analyse(g.view(color)) for bot, g in zip(bots, (game, twin), strict=True)]
        assert_same_analysis(*first)
        if i % 5 == 0:
            bots = [hx.MCTSBot(simulations=800, seed=6, **GREEDY_MODEL) for _ in range(2)]
            for bot, g in zip(bots, (game, twin), strict=True):
                bot.analyse(g.view(color))
            second = [bot.analyse(g.view(color)) for bot, g in zip(bots, (game, twin), strict=True)]
            assert_same_analysis(*second)


@pytest.mark.parametrize("variant", DARK)
def test_greedy_worlds_are_consistent_with_the_view(variant: str) -> None:
    """Worlds replayed by the greedy model hold exactly the view's hidden stones, on cells the
    viewer does not know: the searched share of worlds with a stone on each cell is 0 on known
    cells and sums to the hidden count (random games with hits on both sides, 4x4 to 7x7)."""
    rng = random.Random(f"{variant}-replay")
    checked = 0
    while checked < 30:
        size = rng.choice([4, 5, 6, 7])
        game = random_dark_game(variant, size, size, rng, rng.randint(2, size * size))
        view = game.view(game.to_move)
        if view.hidden_enemy_stones == 0:
            continue
        analysis = hx.MCTSBot(simulations=400, seed=checked, greedy_worlds=1.0).analyse(view)
        if analysis.forced:
            continue
        p = analysis.hit_probability
        assert np.all(p[view.board != 0] == 0)
        assert math.isclose(float(p.sum()), view.hidden_enemy_stones, rel_tol=1e-9)
        checked += 1


def test_greedy_shares_are_checked() -> None:
    """The greedy model's shares are probabilities: anything outside [0, 1] is a clear error."""
    for name in ("greedy_worlds", "greedy_opponent", "greedy_playouts"):
        with pytest.raises(hx.ConfigError, match=name):
            hx.MCTSBot(simulations=10, **{name: 1.5})
        with pytest.raises(hx.ConfigError, match=name):
            hx.MCTSBot(simulations=10, **{name: -0.1})


@pytest.mark.parametrize("variant", DARK)
def test_views_carry_no_hidden_stone(variant: str) -> None:
    """Views of the two games of each pair are equal in every field, in their pickled bytes, in
    their state tuple, repr and str: nothing in a view depends on where hidden stones stand."""
    for game, twin, color in twin_games(variant, random.Random(f"{variant}-fields"), 10):
        a, b = game.view(color), twin.view(color)
        for name in ("viewer", "to_move", "winner", "end_reason", "is_over", "hidden_enemy_stones",
                     "hits_received", "hits", "history", "rules"):  # fmt: skip
            assert getattr(a, name) == getattr(b, name), name
        assert np.array_equal(a.board, b.board)
        assert a.legal_moves() == b.legal_moves()
        assert a._core.state() == b._core.state()
        assert pickle.dumps(a) == pickle.dumps(b)
        assert repr(a) == repr(b) and str(a) == str(b)
        assert a == b and hash(a) == hash(b)
        assert set(a.__slots__) == {"_core", "_rules"}


# --- search: budgets, seeds, reuse, levels, errors --------------------------------


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_dark_simulation_budget_is_exact(threads: int) -> None:
    """The Dark Hex search runs exactly the simulations asked for on any number of threads."""
    view = play("dark-abrupt", 7, ["d4", "c5", "e3"]).view(hx.BLUE)
    analysis = hx.MCTSBot(simulations=4000, threads=threads, seed=3).analyse(view)
    assert analysis.simulations == 4000 == int(analysis.visits.sum())


def test_dark_time_and_node_budgets() -> None:
    """A time budget stops the search after at least that long (no upper bound is asserted);
    the node budget bounds the tree while the simulations go on."""
    view = hx.Game("dark", size=11).view(hx.RED)
    timed = hx.MCTSBot(seconds=0.2, threads=2).analyse(view)
    assert timed.seconds >= 0.2 and timed.simulations > 0
    bounded = hx.MCTSBot(simulations=20_000, max_nodes=5_000, seed=1).analyse(view)
    assert bounded.nodes <= 5_000 and bounded.simulations == 20_000


def test_dark_searches_are_deterministic_and_reuse_their_tree() -> None:
    """Two bots with the same seeds following one game choose alike (tree reuse included), and
    the tree of the previous move is reused unless reuse is off."""
    histories = []
    for _ in range(2):
        game = hx.Game("dark", size=6)
        bots = {hx.RED: hx.MCTSBot(simulations=600, seed=1), hx.BLUE: hx.MCTSBot(simulations=600, seed=2)}
        while len(game.history) < 12 and not game.is_over:
            game.play(bots[game.to_move].choose(game.view(game.to_move)))
        histories.append(game.history)
    assert histories[0] == histories[1]
    for reuse in (True, False):
        game = hx.Game("dark", size=6)
        bot = hx.MCTSBot(simulations=3000, seed=1, reuse_tree=reuse)
        first = bot.analyse(game.view(hx.RED))
        game.play(first.move)
        game.play("a1" if first.move != hx.Cell.parse("a1") else "b1")
        analysis = bot.analyse(game.view(hx.RED))
        assert (analysis.reused > 0) == reuse
        assert int(analysis.visits.sum()) == analysis.simulations + analysis.reused


@pytest.mark.parametrize("variant", DARK)
def test_levels_play_dark_hex(variant: str) -> None:
    """hx.MCTSBot.level works on Dark Hex views: each preset chooses a legal move."""
    game = play(variant, 5, ["c3"])
    view = game.view(hx.BLUE)
    for name in ("easy", "medium"):
        assert hx.MCTSBot.level(name).choose(view) in view.legal_moves()
    assert hx.MCTSBot.level("hard", seconds=0.05, threads=1).choose(view) in view.legal_moves()


def test_dark_views_of_the_wrong_player_or_a_finished_game_are_refused() -> None:
    """The Dark Hex search, like the Hex one, only moves for the player to move in a running game."""
    game = hx.Game("dark", size=5)
    bot = hx.MCTSBot(simulations=10)
    with pytest.raises(hx.ConfigError, match="player to move"):
        bot.choose(game.view(hx.BLUE))
    with pytest.raises(hx.ConfigError, match="player to move"):
        bot.choose(game.spectator_view())
    game.resign(hx.RED)
    with pytest.raises(hx.ConfigError, match="over"):
        bot.choose(game.view(hx.RED))


@pytest.mark.parametrize("variant", DARK)
def test_beats_a_random_player(variant: str) -> None:
    """A short match on 5x5 against a random player, colours alternating, 1,000 simulations a
    move: at least 11 of 12 games (a random player does win an abrupt game now and then by
    luck: in 20-game samples the bot lost 0 or 1, never more)."""
    won = wins(lambda i: hx.MCTSBot(simulations=1000, seed=i), lambda i: hx.RandomBot(seed=i), variant, 5, 12)
    assert won >= 11
