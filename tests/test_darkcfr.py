"""Exact Dark Hex on tiny boards: tree sizes, equilibria, exploitability of policies, OpenSpiel agreement."""

from __future__ import annotations

import random

import numpy as np
import pytest

import hexengine as hx
from hexengine import _core

# (variant, rows, cols): (histories, Red information sets, Blue information sets). The classic
# figures are also OpenSpiel's dark_hex with obstype=reveal-numturns (checked below when installed).
SIZES = {
    ("dark", 2, 2): (441, 33, 101),
    ("dark", 2, 3): (104229, 3373, 8349),
    ("dark", 3, 2): (196357, 3823, 16019),
    ("dark-abrupt", 2, 2): (471, 97, 49),
    ("dark-abrupt", 2, 3): (149953, 13277, 7627),
    ("dark-abrupt", 3, 2): (245243, 21369, 10039),
}

# Game values of dark-abrupt for Red, bracketed by 20000 CFR+ iterations (exact best responses).
ABRUPT_VALUE = {(2, 2): (0.49997, 0.50008), (2, 3): (0.80632, 0.80652), (3, 2): (-0.086520, -0.086492)}


def uniform(view: hx.View) -> dict[hx.Move, float]:
    moves = view.legal_moves()
    return {m: 1 / len(moves) for m in moves}


def purified(eq: hx.DarkEquilibrium):
    """The pure policy that plays the average strategy's most likely cell."""

    def choose(view: hx.View) -> hx.Move:
        probs = eq.policy(view)
        return max(probs, key=probs.__getitem__)

    return choose


@pytest.mark.parametrize("key", sorted(SIZES))
def test_sizes_counted_and_built_agree(key):
    """The counting dynamic programmes and the built tree agree with each other and with the known sizes."""
    variant, rows, cols = key
    histories, red, blue = SIZES[key]
    size = hx.dark_game_size(variant, rows, cols)
    assert (size.histories, size.infosets, size.feasible) == (histories, (red, blue), True)
    tree = _core.DarkTree(variant, rows, cols)
    assert (tree.histories, tree.infosets) == (histories, (red, blue))
    assert tree.sequences == size.sequences


def test_3x3_is_counted_but_refused():
    """3x3 is counted exactly (1.9e10 histories) and refused by the solver with the reason."""
    size = hx.dark_game_size("dark", 3, 3)
    assert size.histories == 19_119_486_979
    assert size.infosets == (146_996_491, 32_148_940)
    assert not size.feasible
    with pytest.raises(hx.ConfigError, match=r"too large to solve exactly.*histories"):
        hx.dark_equilibrium("dark", 3, 3)
    with pytest.raises(hx.ConfigError, match="at most 16"):
        hx.exploitability(uniform, "dark", 5, 5)


@pytest.mark.parametrize(("rows", "cols", "winner"), [(2, 2, hx.RED), (2, 3, hx.RED), (3, 2, hx.BLUE)])
def test_classic_tiny_boards_are_sure_wins(rows, cols, winner):
    """Classic Dark Hex 2x2 and 2x3 are sure Red wins, 3x2 a sure Blue win: the purified
    average strategy of the winner wins against every strategy (an exact best response)."""
    eq = hx.dark_equilibrium("dark", rows, cols, iterations=200)
    sign = 1 if winner == hx.RED else -1
    assert eq.value * sign > 0.999
    assert eq.pure_bounds == (sign, sign)
    result = hx.exploitability(purified(eq), "dark", rows, cols)
    loser_best = result.best_response[1] if winner == hx.RED else result.best_response[0]
    assert loser_best == -1.0
    assert result.value == sign


@pytest.mark.parametrize(("rows", "cols"), sorted(ABRUPT_VALUE))
def test_abrupt_values(rows, cols):
    """The proven value bounds of a short run contain the game value bracketed by a long run."""
    eq = hx.dark_equilibrium("dark-abrupt", rows, cols, iterations=300)
    low, high = eq.value_bounds
    ref_low, ref_high = ABRUPT_VALUE[(rows, cols)]
    assert low <= ref_high and ref_low <= high
    assert low <= eq.value <= high
    assert high - low < 0.02
    pure_low, pure_high = eq.pure_bounds
    assert pure_low <= ref_high and ref_low <= pure_high


def test_exploitability_shrinks_with_iterations():
    """CFR+ drives the average strategy's exploitability towards zero."""
    eq = hx.dark_equilibrium("dark-abrupt", 2, 3, iterations=512)
    checkpoints = [n for n, _ in eq.curve]
    assert checkpoints == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]
    first, last = eq.curve[0][1], eq.curve[-1][1]
    assert last < first / 100
    assert eq.curve[-1][1] == eq.exploitability
    assert eq.nash_conv == pytest.approx(2 * eq.exploitability)


def test_target_stops_early():
    """A target exploitability ends the run at the first checkpoint that reaches it."""
    eq = hx.dark_equilibrium("dark", 2, 2, iterations=10_000, target=1e-3)
    assert eq.exploitability <= 1e-3
    assert eq.iterations < 10_000


@pytest.mark.parametrize(
    ("variant", "rows", "cols"), [("dark", 2, 2), ("dark-abrupt", 2, 2), ("dark-abrupt", 3, 2)]
)
def test_average_strategy_through_python_matches(variant, rows, cols):
    """The average strategy, queried view by view as a Python policy, has the exploitability CFR+ reported."""
    eq = hx.dark_equilibrium(variant, rows, cols, iterations=100)
    result = hx.exploitability(eq.policy, variant, rows, cols)
    assert result.exploitability == pytest.approx(eq.exploitability, abs=1e-9)
    assert result.value == pytest.approx(eq.value, abs=1e-9)
    assert result.queries == sum(eq.infosets)


@pytest.mark.parametrize("variant", ["dark", "dark-abrupt"])
def test_uniform_random_policy(variant):
    """The uniform random policy queried from Python scores what the C++ uniform policy scores."""
    result = hx.exploitability(uniform, variant, 2, 3)
    tree = _core.DarkTree(variant, 2, 3)
    arrays = []
    for color in (1, 2):
        probs = np.zeros(tree.sequences[color - 1])
        for index in range(tree.infosets[color - 1]):
            n = len(tree.infoset_view(color, index).legal_moves())
            first = tree.first_sequence(color, index)
            probs[first : first + n] = 1 / n
        arrays.append(probs)
    value, br_red, br_blue = tree.evaluate(*arrays)
    assert result.best_response == pytest.approx((br_red, br_blue), abs=1e-12)
    assert result.value == pytest.approx(value, abs=1e-12)
    assert 0 < result.exploitability <= 1


def test_policy_sees_only_views_of_the_player_to_move():
    """A policy is asked once per information set, with the mover's view: own stones and found stones only."""
    seen = []

    def spy(view: hx.View) -> hx.Move:
        seen.append(view)
        return view.legal_moves()[-1]

    result = hx.exploitability(spy, "dark-abrupt", 2, 2)
    assert result.queries == len(seen) == 97 + 49
    assert len({repr(v._core.state()) for v in seen}) == len(seen)  # a different view each time
    for view in seen:
        assert view.viewer == view.to_move
        enemy = int((view.board == view.viewer.opponent).sum())
        assert enemy == len(view.hits)


def test_bot_objects_and_mappings_are_accepted():
    """An object with choose(view) is used through it, and a mapping may leave out moves it never plays."""

    class FirstCell:
        def choose(self, view: hx.View) -> hx.Move:
            return view.legal_moves()[0]

    results = [
        hx.exploitability(FirstCell(), "dark", 2, 2),
        hx.exploitability(lambda v: {v.legal_moves()[0]: 1.0}, "dark", 2, 2),
        hx.exploitability(lambda v: v.legal_moves()[0].name, "dark", 2, 2),
    ]
    assert len({(r.exploitability, r.value, r.best_response) for r in results}) == 1
    assert results[0].exploitability > 0.5


def test_bad_policies_and_arguments():
    """Bad policies and arguments get clear errors, never a crash."""

    def own_stone(view: hx.View) -> hx.Move:
        own = [hx.Cell(int(r), int(c)) for r, c in zip(*np.nonzero(view.board == view.viewer), strict=True)]
        return own[0] if own else view.legal_moves()[0]

    with pytest.raises(hx.IllegalMove, match="may not play") as info:
        hx.exploitability(own_stone, "dark", 2, 2)
    assert info.value.rule == "policy"
    with pytest.raises(hx.ConfigError, match="sum to 1"):
        hx.exploitability(lambda v: {m: 0.1 for m in v.legal_moves()}, "dark", 2, 2)
    with pytest.raises(hx.ConfigError, match="not negative"):
        hx.exploitability(lambda v: {v.legal_moves()[0]: 2.0, v.legal_moves()[-1]: -1.0}, "dark", 2, 2)
    with pytest.raises(hx.ConfigError, match="must be a number"):
        hx.exploitability(lambda v: {v.legal_moves()[0]: "all"}, "dark", 2, 2)
    with pytest.raises(hx.ConfigError, match="function of a view"):
        hx.exploitability(42, "dark", 2, 2)
    with pytest.raises(hx.ConfigError, match="'dark' and 'dark-abrupt'"):
        hx.dark_equilibrium("hex", 2, 2)
    with pytest.raises(hx.ConfigError, match="positive integer"):
        hx.dark_equilibrium("dark", 2, 2, iterations=0)
    with pytest.raises(hx.ConfigError, match="at most 2,147,483,647, not 1,099,511,627,776"):
        hx.dark_equilibrium("dark", 2, 2, iterations=2**40)  # was accepted: hours, then past its int count
    for target in ("x", float("nan"), -1.0):  # a string failed inside the loop; the others never stopped it
        with pytest.raises(hx.ConfigError, match="target is an exploitability"):
            hx.dark_equilibrium("dark", 2, 2, iterations=10, target=target)  # type: ignore[arg-type]
    cfr = _core.DarkCfr(_core.DarkTree("dark", 2, 2))
    with pytest.raises(hx.ConfigError, match="not be negative"):
        cfr.run(-1)
    cfr.run(1)
    with pytest.raises(hx.ConfigError, match="at most 2147483647 iterations in all; 1 are done"):
        cfr.run(_core.DARK_CFR_MAX_ITERATIONS)
    assert cfr.iterations == 1
    eq = hx.dark_equilibrium("dark", 2, 2, iterations=10)
    other = hx.Game("dark", rows=2, cols=3)
    with pytest.raises(hx.ConfigError, match="not of 2x2"):
        eq.policy(other.view(hx.RED))
    with pytest.raises(hx.ConfigError, match="player to move"):
        eq.policy(hx.Game("dark", size=2).view(hx.BLUE))


# --- OpenSpiel (the peers extra) ------------------------------------------------------------------


def openspiel_game(variant: str, rows: int, cols: int):
    pyspiel = pytest.importorskip("pyspiel")
    return pyspiel.load_game(
        "dark_hex",
        {
            "num_rows": rows,
            "num_cols": cols,
            "gameversion": "cdh" if variant == "dark" else "adh",
            "obstype": "reveal-numturns",
        },
    )


@pytest.mark.parametrize("variant", ["dark", "dark-abrupt"])
@pytest.mark.parametrize(("rows", "cols"), [(2, 2), (2, 3), (3, 2), (3, 4)])
def test_openspiel_plays_the_same_game(variant, rows, cols):
    """OpenSpiel's dark_hex, with cells numbered row * cols + col, has our legal moves, hits and winners."""
    game = openspiel_game(variant, rows, cols)
    rng = random.Random(5)
    for _ in range(200):
        state, ours = game.new_initial_state(), hx.Game(variant, rows=rows, cols=cols)
        while not state.is_terminal():
            moves = [c.index(cols) for c in ours.legal_moves()]
            assert sorted(state.legal_actions()) == moves
            assert state.current_player() == int(ours.to_move) - 1
            move = rng.choice(moves)
            state.apply_action(move)
            ours.play(move)
        assert ours.is_over and state.returns()[0] == (1 if ours.winner == hx.RED else -1)


def openspiel_infosets(game) -> tuple[int, int, int]:
    sets: list[set[str]] = [set(), set()]
    histories = 0
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        histories += 1
        if state.is_terminal():
            continue
        player = state.current_player()
        sets[player].add(state.information_state_string(player))
        stack.extend(state.child(a) for a in state.legal_actions())
    return histories, len(sets[0]), len(sets[1])


def test_openspiel_classic_information_sets_match():
    """Classic: OpenSpiel's information states (reveal-numturns) partition the 2x2 tree as our views do."""
    assert openspiel_infosets(openspiel_game("dark", 2, 2)) == SIZES[("dark", 2, 2)]


def test_openspiel_abrupt_hides_hits():
    """Abrupt: OpenSpiel does not tell a player their stone was hit (docs/rules.md does), so it has fewer
    information sets; our tree with silent hits has exactly OpenSpiel's."""
    game = openspiel_game("dark-abrupt", 2, 2)
    histories, red, blue = openspiel_infosets(game)
    assert (histories, red, blue) == (471, 59, 35)
    assert (red, blue) != SIZES[("dark-abrupt", 2, 2)][1:]
    assert _core.DarkTree("dark-abrupt", 2, 2, silent_hits=True).infosets == (red, blue)
    # OpenSpiel 2.0.2's adh information states on 2x3 and 3x2, enumerated like openspiel_infosets:
    assert _core.DarkTree("dark-abrupt", 2, 3, silent_hits=True).infosets == (4033, 2725)
    assert _core.DarkTree("dark-abrupt", 3, 2, silent_hits=True).infosets == (5811, 3363)


def openspiel_tabular(game, eq: hx.DarkEquilibrium):
    """Our average strategy as an OpenSpiel TabularPolicy, mapped through views of replayed games."""
    policy_lib = pytest.importorskip("open_spiel.python.policy")
    table = policy_lib.TabularPolicy(game)
    rows, cols, variant = eq.rules.rows, eq.rules.cols, eq.rules.variant
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        ours = hx.Game(variant, rows=rows, cols=cols)
        for action in state.history():
            ours.play(action)
        probs = eq.policy(ours.view(ours.to_move))
        row = table.state_lookup[state.information_state_string()]
        table.action_probability_array[row, :] = 0
        for cell, p in probs.items():
            table.action_probability_array[row, cell.index(cols)] = p
        stack.extend(state.child(a) for a in state.legal_actions())
    return table


def test_openspiel_nash_conv_of_our_strategy():
    """OpenSpiel's own best responses give our average strategy the NashConv we report (classic 2x2)."""
    game = openspiel_game("dark", 2, 2)
    exploitability = pytest.importorskip("open_spiel.python.algorithms.exploitability")
    eq = hx.dark_equilibrium("dark", 2, 2, iterations=20)
    assert exploitability.nash_conv(game, openspiel_tabular(game, eq)) == pytest.approx(
        eq.nash_conv, abs=1e-9
    )
    policy_lib = pytest.importorskip("open_spiel.python.policy")
    uniform_ours = hx.exploitability(uniform, "dark", 2, 2)
    uniform_theirs = exploitability.nash_conv(game, policy_lib.UniformRandomPolicy(game))
    assert uniform_theirs == pytest.approx(uniform_ours.nash_conv, abs=1e-12)


def openspiel_cfr_value(game, iterations: int) -> float:
    pyspiel = pytest.importorskip("pyspiel")
    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    return pyspiel.expected_returns(game.new_initial_state(), solver.average_policy(), -1, True)[0]


@pytest.mark.parametrize("variant", ["dark", "dark-abrupt"])
def test_openspiel_cfr_value_2x2(variant):
    """OpenSpiel's CFR+ finds our 2x2 values: 1 (classic) and 0.5 (abrupt, in both observation models)."""
    game = openspiel_game(variant, 2, 2)
    theirs = openspiel_cfr_value(game, 1000)
    ours = hx.dark_equilibrium(variant, 2, 2, iterations=1000)
    assert abs(theirs - ours.value) < 2e-3


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "rows", "cols"), [("dark", 3, 2), ("dark-abrupt", 2, 3), ("dark-abrupt", 3, 2)]
)
def test_openspiel_cfr_value_small_boards(variant, rows, cols):
    """On 2x3 and 3x2 OpenSpiel's CFR+ value matches ours for classic; for abrupt it matches our tree
    with silent hits (OpenSpiel's observation model) and differs from the docs/rules.md game."""
    game = openspiel_game(variant, rows, cols)
    theirs = openspiel_cfr_value(game, 200)
    if variant == "dark":
        assert abs(theirs - hx.dark_equilibrium(variant, rows, cols, iterations=200).value) < 5e-3
        return
    tree = _core.DarkTree(variant, rows, cols, silent_hits=True)
    cfr = _core.DarkCfr(tree)
    cfr.run(2000)
    _, br_red, br_blue = cfr.evaluate_average()
    assert -br_blue - 5e-3 < theirs < br_red + 5e-3
    ref_low, ref_high = ABRUPT_VALUE[(rows, cols)]
    assert br_red < ref_low or -br_blue > ref_high  # a different game value from hexengine's abrupt rules
