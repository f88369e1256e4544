"""bench/greedy_best_response.py: the exact best response to ``hx.GreedyBot`` in Dark Hex.

Its rules and greedy distances are checked against the core's on random views,
its values against the core's full-tree best response (``hx.exploitability``
with GreedyBot as a policy that spreads its ties evenly) on every board that
tree can hold, and on 3x3 the best response is played in real games against
GreedyBot and must win as often as computed. The core's own implementation
(``_core.greedy_best_response``, the script's default engine) must give the
script's values.
"""

from __future__ import annotations

import math
import random
import re
from types import ModuleType

import numpy as np
import pytest
from _scripts import load_script

import hexengine as hx
from hexengine import _core


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_script("bench/greedy_best_response.py")


def greedy_policy(view: hx.View) -> dict[hx.Move, float]:
    """GreedyBot as a distribution: its tied best cells, each equally likely."""
    scores = hx.GreedyBot().distances(view).ravel()
    legal = np.flatnonzero(scores >= 0)
    cells = legal[scores[legal] == scores[legal].min()]
    return {hx.Cell.from_index(int(c), view.rules.cols): 1 / len(cells) for c in cells}


@pytest.mark.parametrize("rows,cols", [(3, 3), (4, 4), (3, 5)])
def test_greedy_scores_and_wins_match_the_core(bench: ModuleType, rows: int, cols: int) -> None:
    """Along random Dark Hex games, the restated greedy scores equal GreedyBot.distances
    for the player to move, and the restated chain test agrees with the core's winner."""
    board = bench.Board(rows, cols)
    rng = random.Random(rows * 10 + cols)
    checked = 0
    for _ in range(20):
        game = hx.Game(rng.choice(["dark", "dark-abrupt"]), rows=rows, cols=cols)
        while not game.is_over:
            mover = game.to_move
            view = game.view(mover)
            me = 0 if mover == hx.RED else 1
            shown = view.board.ravel()
            own = sum(1 << p for p in np.flatnonzero(shown == me + 1))
            found = sum(1 << p for p in np.flatnonzero(shown == 2 - me))
            assert board.greedy_scores(own, found, me) == hx.GreedyBot().distances(view).ravel().tolist()
            checked += 1
            game.play(rng.choice(view.legal_moves()))
        truth = game.board.ravel()
        for colour in (0, 1):
            stones = sum(1 << p for p in np.flatnonzero(truth == colour + 1))
            assert board.connected(stones, colour) == (game.winner == (hx.RED, hx.BLUE)[colour])
    assert checked > 100


@pytest.mark.parametrize("variant", ["dark", "dark-abrupt"])
@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3), (3, 2)])
def test_values_equal_the_full_tree_best_response(
    bench: ModuleType, variant: str, rows: int, cols: int
) -> None:
    """On the boards the core's whole game tree fits, both colours' best-response win rates
    equal the core's exact best responses to the same policy (payoffs +-1 there)."""
    exact = hx.exploitability(greedy_policy, variant, rows, cols).best_response
    for colour, payoff in zip(("red", "blue"), exact, strict=True):
        value = bench.BestResponse(variant, rows, cols, colour).value()
        assert value == pytest.approx((payoff + 1) / 2, abs=1e-9)


def test_3x3_known_values(bench: ModuleType) -> None:
    """Classic 2x2 and 3x3: a best-responding Red wins every game against GreedyBot
    (the core's full tree says so for 2x2); Blue cannot on 3x3."""
    assert bench.BestResponse("dark", 2, 2, "red").value() == 1.0
    assert bench.BestResponse("dark", 3, 3, "red").value() == pytest.approx(1.0)
    assert bench.BestResponse("dark", 3, 3, "blue").value() < 1.0


@pytest.mark.parametrize("engine", ["python", "cpp"])
@pytest.mark.parametrize("variant", ["dark", "dark-abrupt"])
def test_3x3_blue_best_response_wins_as_computed(bench: ModuleType, variant: str, engine: str) -> None:
    """3x3, Blue: the computed best response (this script's, or the core's move values),
    playing real games (hx.Game) against seeded GreedyBots, wins within four standard
    errors of its computed win rate; and no other player does better than that rate by
    more than the noise: GreedyBot itself as Blue."""
    value = bench.BestResponse(variant, 3, 3, "blue").value()
    assert 0.3 < value < 0.9
    player = bench.BestResponse if engine == "python" else bench.CoreBestResponse
    games = 300
    wins = bench.play(player(variant, 3, 3, "blue"), games, seed=7)
    sigma = math.sqrt(value * (1 - value) / games)
    assert abs(wins / games - value) < 4 * sigma
    greedy_wins = 0
    for i in range(games):
        game = hx.Game(variant, size=3)
        red, blue = hx.GreedyBot(seed=i), hx.GreedyBot(seed=10_000 + i)
        while not game.is_over:
            game.play((red if game.to_move == hx.RED else blue).choose(game.view(game.to_move)))
        greedy_wins += game.winner == hx.BLUE
    assert greedy_wins / games < value + 4 * sigma


def test_bad_input_is_named(bench: ModuleType) -> None:
    with pytest.raises(ValueError, match="variant"):
        bench.BestResponse("hex", 3, 3, "red")
    with pytest.raises(ValueError, match="colour"):
        bench.BestResponse("dark", 3, 3, "green")
    with pytest.raises(ValueError, match="1 to 6 rows"):
        bench.BestResponse("dark", 9, 9, "red")


def test_regret_is_zero_for_the_best_response_and_not_for_greedy(bench: ModuleType) -> None:
    """--regret's measure: the best response gives up nothing at any decision; GreedyBot
    in the responder's seat gives up win probability, and its losses are counted."""
    br = bench.BestResponse("dark-abrupt", 3, 3, "blue")
    own = bench.regret(br, lambda seed: br, 30)
    assert own["loss_per_game"] == pytest.approx(0.0, abs=1e-12)
    assert sum(d["count"] for d in own["by_decision"]) >= 30
    greedy = bench.regret(br, lambda seed: hx.GreedyBot(seed=seed), 30)
    assert greedy["loss_per_game"] > 0.01
    assert any(d["over"] > 0 for d in greedy["by_decision"])


@pytest.mark.parametrize("variant", ["dark", "dark-abrupt"])
@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (4, 2)])
def test_the_core_gives_the_reference_values(bench: ModuleType, variant: str, rows: int, cols: int) -> None:
    """The core's best response (C++, the default engine) and the script's own agree on
    both colours' win rates on every board up to 3x3 and two long thin ones."""
    for responder, colour in ((1, "red"), (2, "blue")):
        value, decisions, turns, bound = _core.greedy_best_response(variant, rows, cols, responder)
        assert value == pytest.approx(bench.BestResponse(variant, rows, cols, colour).value(), abs=1e-6)
        assert bound == "exact" and decisions > 0 and turns > 0


@pytest.mark.parametrize("variant", ["dark", "dark-abrupt"])
@pytest.mark.parametrize("rows,cols", [(2, 3), (3, 3), (2, 4)])
def test_a_target_is_answered_with_a_bound_on_the_right_side(variant: str, rows: int, cols: int) -> None:
    """With a target the core says only whether the best response passes it: the target
    itself "at most" when it does not, a value above the target and no more than the best
    "at least" when it does, and never with more memoised decisions than the full answer."""
    for responder in (1, 2):
        value, decisions, _, _ = _core.greedy_best_response(variant, rows, cols, responder)
        assert value is not None
        for target in (0.0, value - 0.05, value - 1e-4, value + 1e-4, value + 0.05, 0.999):
            if not 0 <= target < 1:
                continue
            found, asked, _, bound = _core.greedy_best_response(variant, rows, cols, responder, target=target)
            assert found is not None
            if value > target:
                assert bound == "at least" and target < found <= value + 1e-6
            else:
                assert bound == "at most" and found == target
            assert asked <= decisions


@pytest.mark.parametrize("variant", ["dark", "dark-abrupt"])
@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (4, 2)])
def test_a_told_responder_bounds_the_ceiling(bench: ModuleType, variant: str, rows: int, cols: int) -> None:
    """Told every hidden stone once it has k stones, the responder can only do better: the
    core's value is the script's (its own perfect-information game against GreedyBot), at
    least the exact ceiling, no higher for a later k, and the ceiling itself once k is past
    the stones a game can give it (in classic; in abrupt the told responder may also pass)."""
    for responder, colour in ((1, "red"), (2, "blue")):
        exact, _, _, _ = _core.greedy_best_response(variant, rows, cols, responder)
        assert exact is not None
        last = 1.0
        for k in range(min(rows * cols, 6) + 1):  # 6: past the stones either side can place on 3x3
            told, states, _, bound = _core.greedy_best_response(variant, rows, cols, responder, 0, None, k)
            assert told is not None and bound == "exact" and states > 0
            reference = bench.BestResponse(variant, rows, cols, colour, reveal_after=k).value()
            assert told == pytest.approx(reference, abs=1e-6)
            assert exact - 1e-9 <= told <= last + 1e-9
            last = told
        if variant == "dark":
            assert last == pytest.approx(exact, abs=1e-6)
    told_first = _core.greedy_best_response(variant, rows, cols, 2, reveal_after=0)[0]
    assert told_first is not None and told_first >= exact - 1e-9


def test_a_told_bound_answers_a_target_the_exact_value_cannot() -> None:
    """On 4x4 classic, Blue: told at 3 stones the bound is 0.7863 (the ceiling 0.7833, from
    2,144,075 decisions): "at most 0.79" is shown in a few thousand states, and "at most
    0.78", true of the ceiling, is not shown by this bound."""
    told, _, _, bound = _core.greedy_best_response("dark", 4, 4, 2, reveal_after=3)
    assert bound == "exact" and told == pytest.approx(0.78635, abs=1e-4)
    value, states, _, bound = _core.greedy_best_response("dark", 4, 4, 2, target=0.79, reveal_after=3)
    assert (value, bound) == (0.79, "at most") and states < 50_000
    value, _, _, bound = _core.greedy_best_response("dark", 4, 4, 2, target=0.78, reveal_after=3)
    assert bound == "at least" and value is not None and value > 0.78
    stopped = _core.greedy_best_response("dark", 4, 4, 2, 1000, reveal_after=3)
    assert stopped[0] is None and stopped[1] > 1000  # told positions count towards max_states
    with pytest.raises(hx.ConfigError, match="reveal_after"):
        _core.greedy_best_response("dark", 3, 3, 1, reveal_after=-1)


def test_the_core_stops_at_max_states_and_names_bad_input() -> None:
    value, decisions, turns, bound = _core.greedy_best_response("dark", 4, 4, 2, 1000)
    assert value is None and bound is None and turns > 0
    assert 1000 < decisions <= 1016  # past it by at most one a ply
    with pytest.raises(hx.ConfigError, match=r"for Dark Hex .* not hex"):
        _core.greedy_best_response("hex", 3, 3, 1)
    with pytest.raises(hx.ConfigError, match=r"fits 64 cells .* not 8x8"):
        _core.greedy_best_response("dark", 8, 8, 1)
    with pytest.raises(hx.ConfigError, match="max_states"):
        _core.greedy_best_response("dark", 3, 3, 1, -1)
    for target in (-0.1, 1.0, 2.0, float("nan")):
        with pytest.raises(hx.ConfigError, match="target win rate"):
            _core.greedy_best_response("dark", 3, 3, 1, target=target)
    with pytest.raises(hx.HexError):
        _core.greedy_best_response("dark", 3, 3, 3)
    with pytest.raises(hx.RulesError):
        _core.greedy_best_response("dark", 0, 3, 1)


def test_the_script_reports_the_core_values(bench: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--boards", "3x3", "--variants", "dark", "--colours", "blue"]) == 0
    assert "| 3x3 | dark | blue | 0.6092 |" in capsys.readouterr().out
    assert bench.main(["--boards", "4x4", "--colours", "blue", "--max-states", "500"]) == 0
    assert "| 4x4 | dark | blue | not finished |" in capsys.readouterr().out
    assert bench.main(["--boards", "3x3", "--variants", "dark", "--colours", "blue", "--target", "0.7"]) == 0
    assert "| 3x3 | dark | blue | at most 0.7000 |" in capsys.readouterr().out
    assert bench.main(["--boards", "3x3", "--variants", "dark", "--colours", "blue", "--target", "0.5"]) == 0
    found = re.search(r"\| 3x3 \| dark \| blue \| at least (0\.\d+) \|", capsys.readouterr().out)
    assert found and 0.5 < float(found.group(1)) <= 0.6093
    told = ["--boards", "4x4", "--variants", "dark", "--colours", "blue", "--reveal-after", "3"]
    assert bench.main(told) == 0
    assert "| 4x4 | dark | blue | at most 0.7863 |" in capsys.readouterr().out
    assert bench.main([*told, "--target", "0.78"]) == 0
    assert "| 4x4 | dark | blue | told at least 0.78" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        bench.main([*told, "--check", "10"])


@pytest.mark.parametrize("variant", ["dark", "dark-abrupt"])
def test_the_core_move_values_equal_the_reference(bench: ModuleType, variant: str) -> None:
    """At every decision of random 3x3 games, both colours, the core's value of each move
    (``_core.GreedyResponder``, its memo kept across the calls) is the script's."""
    rng = random.Random(5)
    for colour in ("red", "blue"):
        reference = bench.BestResponse(variant, 3, 3, colour)
        core = bench.CoreBestResponse(variant, 3, 3, colour)
        me = hx.RED if colour == "red" else hx.BLUE
        compared = 0
        for i in range(15):
            game = hx.Game(variant, size=3)
            greedy = hx.GreedyBot(seed=i)
            while not game.is_over:
                view = game.view(game.to_move)
                if game.to_move != me:
                    game.play(greedy.choose(view))
                    continue
                expected = reference.move_values(view)
                got = core.move_values(view)
                assert got.keys() == expected.keys()
                assert all(got[c] == pytest.approx(expected[c], abs=1e-6) for c in expected)
                compared += 1
                game.play(rng.choice(view.legal_moves()))
        assert compared > 30 and core.core.decisions > 0


def test_the_core_move_values_refuse_a_bad_belief() -> None:
    responder = _core.GreedyResponder("dark", 3, 3, 2)
    with pytest.raises(hx.ConfigError, match="belief is empty"):
        responder.move_values(0, 0, [])
    with pytest.raises(hx.ConfigError, match="clashes with the view"):
        responder.move_values(0b1, 0, [(0b1, 0, 1.0)])  # GreedyBot's stone on the responder's own
    with pytest.raises(hx.ConfigError, match="off the board"):
        responder.move_values(1 << 9, 0, [(0, 0, 1.0)])
    with pytest.raises(hx.ConfigError, match="weight must be positive"):
        responder.move_values(0, 0, [(0b10, 0, 0.0)])
    with pytest.raises(hx.ConfigError, match="already join its edges"):
        responder.move_values(0b000111000, 0, [(0b1, 0, 1.0)])  # Blue's a2 b2 c2
    with pytest.raises(hx.ConfigError, match="greedy player's stones joining"):
        responder.move_values(0, 0, [(0b010010010, 0, 1.0)])  # Red's b1 b2 b3
    with pytest.raises(hx.ConfigError, match="not hex"):
        _core.GreedyResponder("hex", 3, 3, 1)
