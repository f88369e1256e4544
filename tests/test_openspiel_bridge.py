"""The OpenSpiel bridge: hexengine's games registered with pyspiel (hexengine.openspiel), OpenSpiel's own
algorithms on them, and positions carried between hx.Game and OpenSpiel's hex and dark_hex."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import hexengine as hx

pyspiel = pytest.importorskip("pyspiel")
hexengine_openspiel = pytest.importorskip("hexengine.openspiel")

from open_spiel.python import observation  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

NAMES = {
    "hex": "hexengine_hex",
    "rex": "hexengine_rex",
    "dark": "hexengine_dark",
    "dark-abrupt": "hexengine_dark_abrupt",
}


def load(variant: str, rows: int, cols: int, **params: object) -> pyspiel.Game:
    return pyspiel.load_game(NAMES[variant], {"rows": rows, "cols": cols, **params})


def random_state(game: pyspiel.Game, rng: random.Random, steps: int) -> pyspiel.State:
    """The state after up to ``steps`` random legal actions (fewer if the game ends)."""
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


# The registered games


@pytest.mark.parametrize("variant", list(NAMES))
def test_the_games_are_registered_with_their_types_and_defaults(variant: str) -> None:
    """Each short name loads with hexengine's defaults (11x11; swap 'sides' in Hex and Rex, 'off' in Dark
    Hex) and declares the right game type; the action space is hexengine's (cells, then the swap)."""
    game = pyspiel.load_game(NAMES[variant])
    dark = variant.startswith("dark")
    assert game.get_parameters() == {"rows": 11, "cols": 11, "swap": "off" if dark else "sides"}
    kind = game.get_type()
    assert kind.information == (
        pyspiel.GameType.Information.IMPERFECT_INFORMATION
        if dark
        else pyspiel.GameType.Information.PERFECT_INFORMATION
    )
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert (game.num_players(), game.min_utility(), game.max_utility()) == (2, -1.0, 1.0)
    assert game.num_distinct_actions() == 122
    assert (
        game.observation_tensor_shape() == game.information_state_tensor_shape() == [len(hx.PLANES), 11, 11]
    )


def test_dark_hex_loads_on_tiny_boards_and_refuses_a_swap() -> None:
    game = pyspiel.load_game("hexengine_dark", {"rows": 2, "cols": 2})
    assert game.new_initial_state().legal_actions() == [0, 1, 2, 3]
    assert game.max_game_length() == 7
    for swap in ("sides", "pieces"):
        with pytest.raises(hx.RulesError, match="not available in dark"):
            pyspiel.load_game("hexengine_dark_abrupt", {"rows": 3, "cols": 3, "swap": swap})
    with pytest.raises(hx.RulesError, match="needs a square board"):
        pyspiel.load_game("hexengine_hex", {"rows": 3, "cols": 4, "swap": "pieces"})


@pytest.mark.parametrize("variant", list(NAMES))
def test_states_follow_the_referee_move_by_move(variant: str) -> None:
    """Random games with every swap form: after each action the state's player to move, legal actions,
    terminal flag, returns and action names are the referee's (a Game replaying the same actions), and
    clones are independent."""
    rng = random.Random(variant)
    forms = ["off"] if variant.startswith("dark") else ["off", "sides", "pieces"]
    for swap, (rows, cols) in itertools.product(forms, [(3, 3), (2, 4), (4, 3)]):
        if swap == "pieces" and rows != cols:
            continue
        game = load(variant, rows, cols, swap=swap)
        for _ in range(5):
            state, swapped = game.new_initial_state(), False
            referee = hx.Game(variant, rows=rows, cols=cols, swap=swap)  # type: ignore[arg-type]
            while not state.is_terminal():
                color = referee.to_move
                assert state.current_player() == (int(color) - 1) ^ swapped
                assert state.legal_actions() == referee.legal_actions()
                assert [state.action_to_string(a) for a in state.legal_actions()] == [
                    str(m) for m in referee.legal_moves()
                ]
                assert state.returns() == [0.0, 0.0]
                action = rng.choice(state.legal_actions())
                before = state.clone()
                state.apply_action(action)
                swapped |= referee.apply(action) is hx.MoveResult.SWAPPED and swap == "sides"
                assert before.history() == state.history()[:-1] == before.referee.actions()
            assert referee.is_over and state.history() == referee.actions()
            winner_player = (int(referee.winner) - 1) ^ swapped
            assert state.returns()[winner_player] == 1.0 and sum(state.returns()) == 0.0
            assert state.current_player() == pyspiel.PlayerId.TERMINAL


def test_after_a_sides_swap_the_players_exchange_colours_and_still_alternate() -> None:
    """At a table the person who swaps takes over Red: player 1 holds Red after the swap, player 0 Blue and
    moves next; the returns follow the colours the players hold."""
    state = load("hex", 3, 3, swap="sides").new_initial_state()
    for action in [4, 9, 0, 1, 3, 7]:  # Red b2; swap; Blue a1; Red b1; Blue a2; Red b3: Red wins b1-b2-b3
        state.apply_action(action)
    assert [item.player for item in state.full_history()] == [0, 1, 0, 1, 0, 1]
    assert (state.color_of(0), state.color_of(1)) == (hx.BLUE, hx.RED)
    assert state.referee.winner is hx.RED and state.returns() == [-1.0, 1.0]


# OpenSpiel's algorithms on the games


@pytest.mark.parametrize(
    ("variant", "rows", "cols", "iterations", "tolerance"),
    [("dark", 2, 2, 200, 1e-3), ("dark-abrupt", 2, 2, 1000, 5e-3), ("dark", 2, 3, 16, 1e-2)],
)
def test_openspiel_cfr_finds_the_game_value_of_dark_equilibrium(
    variant: str, rows: int, cols: int, iterations: int, tolerance: float
) -> None:
    """OpenSpiel's CFR+ (in C++, over cached_tree) on hexengine_dark(-abrupt) reaches the game value that
    hx.dark_equilibrium finds, OpenSpiel's exploitability of its average policy is below ``tolerance``,
    and it sees exactly the information sets hexengine counts (so the information-state strings split
    the tree as the rules do). 2x2 classic: value 1; 2x2 abrupt: 1/2; 2x3 classic: 1."""
    game = pyspiel.load_game(f"cached_tree(game={NAMES[variant]}(rows={rows},cols={cols}))")
    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    exploitability = pyspiel.exploitability(game, average)
    value, blue = pyspiel.expected_returns(game.new_initial_state(), average, -1, True)

    exact = hx.dark_equilibrium(variant, rows, cols, iterations=2000)  # type: ignore[arg-type]
    assert exploitability < tolerance
    assert value == pytest.approx(-blue)
    # |value - game value| <= NashConv = 2 * exploitability, for each side's average strategy.
    assert abs(value - exact.value) <= 2 * (exploitability + exact.exploitability) + 1e-9
    low, high = exact.value_bounds
    assert low - 2 * exploitability <= value <= high + 2 * exploitability
    infosets = hx.dark_game_size(variant, rows, cols).infosets  # type: ignore[arg-type]
    assert len(solver.tabular_average_policy().policy_table()) == sum(infosets)


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "rows", "cols"), [("dark-abrupt", 2, 3), ("dark", 3, 2)])
def test_openspiel_cfr_on_the_larger_tiny_boards(variant: str, rows: int, cols: int) -> None:
    """As above on 2x3 abrupt (value about 0.806) and 3x2 classic (value -1: Blue wins), which take about
    twenty seconds each."""
    game = pyspiel.load_game(f"cached_tree(game={NAMES[variant]}(rows={rows},cols={cols}))")
    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(64):
        solver.evaluate_and_update_policy()
    exploitability = pyspiel.exploitability(game, solver.average_policy())
    value = pyspiel.expected_returns(game.new_initial_state(), solver.average_policy(), -1, True)[0]
    exact = hx.dark_equilibrium(variant, rows, cols, iterations=2000)  # type: ignore[arg-type]
    assert exploitability < 0.02
    assert abs(value - exact.value) <= 2 * (exploitability + exact.exploitability)
    infosets = hx.dark_game_size(variant, rows, cols).infosets  # type: ignore[arg-type]
    assert len(solver.tabular_average_policy().policy_table()) == sum(infosets)


def test_information_states_are_what_the_player_can_tell_apart() -> None:
    """On the whole 2x2 trees (classic and abrupt): two histories where the same player is to move give the
    same information-state string exactly when that player's views are equal, and the same observation
    tensor whenever they are."""
    for variant in ("dark", "dark-abrupt"):
        game = load(variant, 2, 2)
        seen: dict[tuple[int, str], hx.View] = {}
        views: dict[tuple[int, hx.View], str] = {}
        stack = [game.new_initial_state()]
        while stack:
            state = stack.pop()
            if state.is_terminal():
                continue
            player = state.current_player()
            key, view = state.information_state_string(player), state.view(player)
            assert seen.setdefault((player, key), view) == view
            assert views.setdefault((player, view), key) == key
            planes = view.planes()
            assert np.array_equal(np.reshape(state.observation_tensor(player), planes.shape), planes)
            stack.extend(state.child(a) for a in state.legal_actions())
        assert len(seen) == sum(hx.dark_game_size(variant, 2, 2).infosets)  # type: ignore[arg-type]


def test_mcts_plays_rex_against_a_random_player() -> None:
    """OpenSpiel's MCTS (random rollouts) plays whole 4x4 Rex games with the sides swap on, from either
    seat, against a random player (who swaps now and then): every action is legal, turns alternate, and
    the game ends with one winner, the referee's, paid to the player who holds its colour. MCTS wins
    most of them."""
    game = load("rex", 4, 4)
    rng = np.random.RandomState(7)
    wins = swaps = 0
    for number in range(8):
        seat = number % 2
        bot = mcts.MCTSBot(game, 2.0, 100, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.current_player() == seat:
                action = bot.step(state)
            else:
                action = 16 if 16 in legal and number in (0, 4) else int(rng.choice(legal))
            assert action in legal
            state.apply_action(action)
        referee = hx.Game.from_openspiel(state)
        history = state.history()
        assert referee.is_over and referee.end_reason == "connection"
        assert [item.player for item in state.full_history()] == [k % 2 for k in range(len(history))]
        swapped = len(history) > 1 and history[1] == 16
        swaps += swapped
        first = hx.BLUE if swapped else hx.RED  # the colour player 0 holds at the end
        assert state.returns() == ([1.0, -1.0] if referee.winner is first else [-1.0, 1.0])
        wins += state.returns()[seat] > 0
    assert swaps >= 2 and wins >= 6


@pytest.mark.parametrize("size", [3, 4])
def test_ismcts_plays_dark_hex_with_the_belief_sampler(size: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """OpenSpiel's IS-MCTS plays whole Dark Hex games against a random player, drawing its worlds with
    hexengine's belief sampler (HexengineState.resample_from_infostate): every world it searches has the
    searcher's own view and information state, the worlds differ in the hidden stones, every action is
    legal and the games end with the referee's winner."""
    original = hexengine_openspiel.HexengineState.resample_from_infostate
    worlds = differ = 0

    def checked(self: pyspiel.State, player: int, sampler: object) -> pyspiel.State:
        nonlocal worlds, differ
        world = original(self, player, sampler)
        assert world.view(player) == self.view(player)
        assert world.information_state_string(player) == self.information_state_string(player)
        worlds += 1
        differ += not np.array_equal(world.referee.board, self.referee.board)
        return world

    monkeypatch.setattr(hexengine_openspiel.HexengineState, "resample_from_infostate", checked)
    game = load("dark", size, size)
    rng = np.random.RandomState(size)
    for seat in (0, 1):
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 1.5, 60, random_state=rng)
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            action = bot.step(state) if state.current_player() == seat else int(rng.choice(legal))
            assert action in legal
            state.apply_action(action)
        referee = hx.Game.from_openspiel(state)
        assert referee.is_over and state.returns()[int(referee.winner) - 1] == 1.0
    assert worlds > 200 and differ > worlds // 4


def test_resampling_uses_only_the_players_view() -> None:
    """Two true games in which Red's view is the same (Blue's hidden stone on a1 or on c3) give the same
    world for the same draw of the sampler, and over many draws the hidden stone goes to each of the
    eight cells Red does not know about."""
    game = load("dark", 3, 3)
    states = []
    for blue in (0, 8):
        state = game.new_initial_state()
        for action in (4, blue):
            state.apply_action(action)
        states.append(state)
    assert states[0].view(0) == states[1].view(0) and states[0].view(1) != states[1].view(1)
    places = []
    for k in range(400):
        draw = (k + 0.5) / 400
        a, b = (s.resample_from_infostate(0, lambda draw=draw: draw) for s in states)
        assert a.history() == b.history() and a.view(0) == states[0].view(0)
        places.append(a.history()[1])
    counts = {cell: places.count(cell) for cell in set(places)}
    assert sorted(counts) == [0, 1, 2, 3, 5, 6, 7, 8]
    assert min(counts.values()) > 20
    hex_state = load("hex", 3, 3).new_initial_state()
    hex_state.apply_action(4)
    assert hex_state.resample_from_infostate(1, lambda: 0.5).history() == [4]


# Observations


def test_observations_are_the_players_own_views() -> None:
    """Observation strings are str(view), tensors the view's planes (shape (len(hx.PLANES), rows, cols)), the
    information-state string the record as the player knows it; for each player of random Dark Hex games
    they are the same in another true game with the same view (drawn by the belief sampler), so a hidden
    stone never shows; spectators see none at all."""
    rng = random.Random(5)
    public = pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    hidden_somewhere = 0
    for variant, (rows, cols) in itertools.product(("dark", "dark-abrupt"), [(3, 4), (4, 4)]):
        game = load(variant, rows, cols)
        spectator = observation.make_observation(game, public)
        for steps in range(1, 12):
            state = random_state(game, rng, steps)
            for player in (0, 1):
                view = state.view(player)
                assert state.observation_string(player) == str(view)
                planes = np.reshape(state.observation_tensor(player), (len(hx.PLANES), rows, cols))
                assert np.array_equal(planes, view.planes())
                assert np.array_equal(
                    np.reshape(state.information_state_tensor(player), planes.shape), planes
                )
                assert state.information_state_string(player) == ", ".join(str(a) for a in view.history)
                if state.is_terminal():
                    continue
                twin = state.resample_from_infostate(player, lambda: rng.random())
                assert twin.observation_string(player) == state.observation_string(player)
                assert twin.observation_tensor(player) == state.observation_tensor(player)
                assert twin.information_state_string(player) == state.information_state_string(player)
                opponent = state.color_of(player).opponent
                hidden = (state.referee.board == opponent) & (view.board != opponent)
                hidden_somewhere += bool(hidden.any())
                assert not planes[hx.PLANES.index("opponent")][hidden].any()
                assert planes[hx.PLANES.index("empty")][hidden].all()
            if not state.is_terminal() and state.referee.board.any():
                spectator.set_from(state, 0)
                assert not spectator.dict["planes"][:2].any()
                assert "view of spectator" in spectator.string_from(state, 0)
    assert hidden_somewhere > 20
    with pytest.raises(ValueError, match="only its own view"):
        observation.make_observation(
            load("dark", 3, 3),
            pyspiel.IIGObservationType(
                perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
            ),
        )


# OpenSpiel's own hex and dark_hex


SPIEL_CASES = [
    ("hex", "off", "hex(num_rows={r},num_cols={c})"),
    ("hex", "pieces", "hex(num_rows={r},num_cols={c},swap=True)"),
    ("rex", "off", "misere(game=hex(num_rows={r},num_cols={c}))"),
    ("dark", "off", "dark_hex(num_rows={r},num_cols={c},gameversion=cdh)"),
    ("dark-abrupt", "off", "dark_hex(num_rows={r},num_cols={c},gameversion=adh)"),
]


@pytest.mark.parametrize(("variant", "swap", "spiel"), SPIEL_CASES)
def test_random_games_agree_with_openspiels_own_games(variant: str, swap: str, spiel: str) -> None:
    """The same random actions in a hexengine_* state and in OpenSpiel's own game, on square and non-square
    boards: at every step the same player to move, legal actions, action names, terminal flag and
    returns; and each side's position read back with from_openspiel is the same game."""
    rng = random.Random(spiel)
    shapes = [(2, 2), (3, 3), (5, 5), (2, 5), (4, 3), (3, 6)]
    for rows, cols in shapes:
        if swap == "pieces" and rows != cols:
            continue
        ours_game = load(variant, rows, cols, swap=swap)
        theirs_game = pyspiel.load_game(spiel.format(r=rows, c=cols))
        for _ in range(20):
            ours, theirs = ours_game.new_initial_state(), theirs_game.new_initial_state()
            while True:
                assert ours.is_terminal() == theirs.is_terminal()
                assert ours.returns() == theirs.returns()
                if ours.is_terminal():
                    break
                assert ours.current_player() == theirs.current_player()
                legal = ours.legal_actions()
                assert legal == theirs.legal_actions()
                player = ours.current_player()
                assert [ours.action_to_string(player, a) for a in legal if a < rows * cols] == [
                    theirs.action_to_string(player, a) for a in legal if a < rows * cols
                ]
                action = rng.choice(legal)
                ours.apply_action(action)
                theirs.apply_action(action)
            replayed = hx.Game.from_openspiel(theirs)
            assert replayed.history == hx.Game.from_openspiel(ours).history == ours.referee.history


# Carrying positions across


@pytest.mark.parametrize(("variant", "swap", "spiel"), SPIEL_CASES)
def test_positions_round_trip_through_openspiels_own_games(variant: str, swap: str, spiel: str) -> None:
    """At random points of random games: hx.Game -> OpenSpiel's game -> hx.Game gives the same record and
    board, and OpenSpiel state -> hx.Game -> OpenSpiel state gives the same history and board text."""
    rng = random.Random(f"round-{spiel}")
    for rows, cols in [(3, 3), (4, 4), (3, 5), (5, 2)]:
        if swap == "pieces" and rows != cols:
            continue
        rules = hx.Rules(variant, rows, cols, swap)  # type: ignore[arg-type]
        spiel_game = pyspiel.load_game(spiel.format(r=rows, c=cols))
        for steps in range(0, rows * cols + 2, 2):
            game = hx.Game(rules)
            for _ in range(steps):
                if not game.is_over:
                    game.apply(rng.choice(game.legal_actions()))
            state = game.to_openspiel()
            assert str(state.get_game()) == str(spiel_game)
            back = hx.Game.from_openspiel(state)
            assert back.rules == rules and back.history == game.history
            assert np.array_equal(back.board, game.board) and back.is_over == game.is_over

            theirs = random_state(spiel_game, rng, steps)
            again = hx.Game.from_openspiel(theirs).to_openspiel()
            assert again.history() == theirs.history() and str(again) == str(theirs)


@pytest.mark.parametrize("variant", list(NAMES))
def test_positions_round_trip_through_the_hexengine_games(variant: str) -> None:
    """Every rule set, the sides swap included, goes to its hexengine_* game and back unchanged."""
    rng = random.Random(variant)
    forms = ["off"] if variant.startswith("dark") else ["off", "sides", "pieces"]
    for swap in forms:
        for steps in range(0, 18, 3):
            game = hx.Game(variant, size=4, swap=swap)  # type: ignore[arg-type]
            for _ in range(steps):
                if not game.is_over:
                    game.apply(rng.choice(game.legal_actions()))
            state = game.to_openspiel("hexengine")
            assert state.get_game().get_type().short_name == NAMES[variant]
            assert state.referee.history == game.history
            assert hx.Game.from_openspiel(state).history == game.history


def test_foreign_games_and_rules_openspiel_lacks_are_clear_errors() -> None:
    with pytest.raises(hx.ConfigError, match="not a Hex position"):
        hx.Game.from_openspiel(pyspiel.load_game("tic_tac_toe").new_initial_state())
    with pytest.raises(hx.ConfigError, match="not a Hex position"):
        hx.Game.from_openspiel(pyspiel.load_game("misere(game=tic_tac_toe())").new_initial_state())
    with pytest.raises(hx.ConfigError, match=r"reads a pyspiel\.State"):
        hx.Game.from_openspiel(hx.Game("hex", size=3))  # type: ignore[arg-type]
    with pytest.raises(hx.RulesError, match="needs a square board"):
        hx.Game.from_openspiel(pyspiel.load_game("hex(num_rows=3,num_cols=4,swap=True)").new_initial_state())
    with pytest.raises(hx.RulesError, match="no 'sides' swap"):
        hx.Game("hex", size=3).to_openspiel()
    with pytest.raises(hx.RulesError, match="1x4 boards wrong"):
        hx.Game("dark", rows=1, cols=4).to_openspiel()
    resigned = hx.Game("hex", size=3, swap="off")
    resigned.resign(hx.RED)
    with pytest.raises(hx.RulesError, match="ended by resignation"):
        resigned.to_openspiel()
    with pytest.raises(hx.ConfigError, match="'openspiel' or 'hexengine'"):
        hx.Game("hex", size=3, swap="off").to_openspiel("pgx")  # type: ignore[arg-type]
