"""The evaluator search (hx.MCTSBot(evaluator=fn)): PUCT in C++ with a batched Python
evaluator. It follows the evaluator's priors and values, still finds what the rules decide,
refuses bad evaluator output with clear errors and stays usable, and in Dark Hex the
evaluator sees only the searching player's own view."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import assume, given, settings
from oracle import examples, play_random
from test_properties import SEEDS, relocated, rule_sets

import hexengine as hx


def uniform(planes: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.ones(mask.shape, np.float32), np.zeros(len(mask), np.float32)


def favouring(action: int):  # type: ignore[no-untyped-def]
    """An evaluator that puts all its prior on ``action`` and calls every position even."""

    def fn(planes: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        priors = np.full(mask.shape, 1e-6, np.float32)
        priors[:, action] = 1.0
        return priors, np.zeros(len(mask), np.float32)

    return fn


def play(variant: str, size: int, moves: list[str]) -> hx.Game:
    game = (
        hx.Game(variant, size=size, swap="off")
        if not variant.startswith("dark")
        else hx.Game(variant, size=size)
    )
    for move in moves:
        game.play(move)
    return game


@pytest.mark.parametrize("variant", ["hex", "rex", "dark", "dark-abrupt"])
def test_a_prior_on_one_cell_gets_that_cell_chosen(variant: str) -> None:
    game = play(variant, 5, ["c3"])
    view = game.view(game.to_move)
    target = hx.action_of("b4", game.rules)
    analysis = hx.MCTSBot(evaluator=favouring(target), simulations=300, seed=1).analyse(view)
    assert analysis.move == hx.Cell.parse("b4")
    assert analysis.visits[3, 1] == analysis.visits.max() > 200


@pytest.mark.parametrize("threads", [1, 2])
def test_uniform_priors_and_even_values_still_find_a_win_in_one(threads: int) -> None:
    game = play("hex", 3, ["a1", "c1", "a2", "c2"])  # Red wins at a3
    bot = hx.MCTSBot(evaluator=uniform, simulations=200, threads=threads, batch_size=4)
    analysis = bot.analyse(game.view(hx.RED))
    assert analysis.move == hx.Cell.parse("a3") and analysis.value > 0.5


def test_in_rex_the_search_avoids_completing_its_own_chain() -> None:
    game = play("rex", 3, ["a1", "c1", "a2", "c3"])  # Red to move: a3 would complete Red's chain and lose
    analysis = hx.MCTSBot(evaluator=uniform, simulations=300).analyse(game.view(hx.RED))
    assert analysis.move != hx.Cell.parse("a3")
    assert analysis.values[2, 0] < 0.1 or analysis.visits[2, 0] <= 2


def test_in_dark_hex_a_win_in_one_is_found_through_the_worlds() -> None:
    game = play("dark", 3, ["b1", "b1", "c2", "b2"])  # Blue hits b1, places c2; Red places b2
    game.play("a2")  # Blue
    view = game.view(hx.RED)  # Red to move: a3 and b3 each join b2 to row 3, unless a hidden stone is there
    analysis = hx.MCTSBot(evaluator=uniform, simulations=400, seed=3).analyse(view)
    assert analysis.move in (hx.Cell.parse("a3"), hx.Cell.parse("b3")) and analysis.value > 0.6
    assert analysis.visits[2, 0] + analysis.visits[2, 1] > 0.8 * analysis.visits.sum()


def test_analysis_reports_the_evaluator_calls() -> None:
    calls = []

    def counting(planes: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        calls.append(len(mask))
        return uniform(planes, mask)

    game = play("hex", 7, ["d4"])
    analysis = hx.MCTSBot(evaluator=counting, simulations=500, batch_size=8).analyse(game.view(hx.BLUE))
    assert analysis.batches == len(calls) and sum(calls) == analysis.simulations <= 500
    assert max(calls) <= 8 and analysis.mean_batch_size == pytest.approx(analysis.simulations / len(calls))
    assert analysis.evaluator_seconds > 0 and int(analysis.visits.sum()) <= analysis.simulations


def test_the_evaluator_receives_the_planes_of_the_player_to_move() -> None:
    seen: list[tuple[np.ndarray, np.ndarray]] = []

    def recording(planes: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        assert planes.dtype == np.float32 and mask.dtype == np.bool_
        seen.append((planes.copy(), mask.copy()))
        return uniform(planes, mask)

    for variant in ("hex", "dark"):
        seen.clear()
        game = play(variant, 4, ["b2", "c3"])
        view = game.view(game.to_move)
        hx.MCTSBot(evaluator=recording, simulations=20, batch_size=1).analyse(view)
        assert np.array_equal(seen[0][0][0], view.planes()) and np.array_equal(
            seen[0][1][0], view.action_mask()
        )


def test_one_thread_and_a_seed_give_the_same_search() -> None:
    game = play("dark", 5, ["c3", "b2"])
    view = game.view(game.to_move)

    def run() -> hx.Analysis:
        return hx.MCTSBot(evaluator=uniform, simulations=300, seed=7, noise_fraction=0.25).analyse(view)

    a, b = run(), run()
    assert a.move == b.move and np.array_equal(a.visits, b.visits)


@settings(max_examples=examples(25), deadline=None)
@given(rules=rule_sets(variants=("dark", "dark-abrupt"), max_side=5), seed=SEEDS)
def test_dark_hex_evaluator_sees_only_the_searchers_view(rules: hx.Rules, seed: int) -> None:
    """Two games that differ only in a stone hidden from the searcher give the evaluator exactly
    the same planes, call after call, and the search the same result."""
    rng = random.Random(seed)
    game = hx.Game(rules)
    play_random(game, rng, max_actions=rng.randint(1, rules.cells))
    assume(not game.is_over)
    viewer = game.to_move
    other = relocated(game, viewer, rng)
    assume(other is not None and other.to_move == viewer)
    received: list[list[bytes]] = [[], []]

    def recorder(k: int):  # type: ignore[no-untyped-def]
        def fn(planes: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            received[k].append(planes.tobytes() + mask.tobytes())
            weights = np.linspace(1.0, 2.0, mask.shape[1], dtype=np.float32)
            return np.tile(weights, (len(mask), 1)), np.full(len(mask), 0.1, np.float32)

        return fn

    results = [
        hx.MCTSBot(evaluator=recorder(k), simulations=60, batch_size=4, seed=seed).analyse(g.view(viewer))
        for k, g in enumerate((game, other))
    ]
    assert received[0] == received[1]
    assert results[0].move == results[1].move and np.array_equal(results[0].visits, results[1].visits)


@pytest.mark.parametrize(
    ("returned", "words"),
    [
        (lambda p, m: np.ones(m.shape), "must return \\(priors, values\\), not ndarray"),
        (lambda p, m: (np.ones(m.shape),), "2 items, not 1"),
        (
            lambda p, m: (np.ones((len(m), 3), np.float32), np.zeros(len(m))),
            "priors must have shape \\(\\d+, 26\\)",
        ),
        (
            lambda p, m: (np.ones(m.shape, np.float32), np.zeros((len(m), 2))),
            "values must have shape \\(\\d+,\\)",
        ),
        (
            lambda p, m: (np.ones(m.shape, np.int64), np.zeros(len(m))),
            "priors must be floating-point, not int64",
        ),
        (lambda p, m: (np.full(m.shape, np.nan), np.zeros(len(m))), "priors must be finite"),
        (lambda p, m: (-np.ones(m.shape), np.zeros(len(m))), "priors must be finite and at least 0"),
        (lambda p, m: (np.ones(m.shape), np.full(len(m), 2.0)), "values must be finite and between -1 and 1"),
        (lambda p, m: (np.ones(m.shape), np.full(len(m), np.inf)), "values must be finite"),
        (lambda p, m: ("priors", np.zeros(len(m))), "priors must be floating-point"),
    ],
)
def test_bad_evaluator_output_is_a_clear_error_and_the_bot_stays_usable(returned, words: str) -> None:  # type: ignore[no-untyped-def]
    game = play("hex", 5, ["c3"])
    state = {"bad": True}

    def fn(planes: np.ndarray, mask: np.ndarray):  # type: ignore[no-untyped-def]
        return returned(planes, mask) if state["bad"] else uniform(planes, mask)

    bot = hx.MCTSBot(evaluator=fn, simulations=50, threads=2)
    with pytest.raises(hx.ConfigError, match=words):
        bot.analyse(game.view(hx.BLUE))
    state["bad"] = False
    assert bot.choose(game.view(hx.BLUE)) in game.legal_moves()


def test_an_exception_in_the_evaluator_propagates_and_the_bot_stays_usable() -> None:
    game = play("dark", 4, ["b2"])
    state = {"calls": 0}

    def flaky(planes: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        state["calls"] += 1
        if state["calls"] == 3:
            raise ZeroDivisionError("the network divided by zero")
        return uniform(planes, mask)

    bot = hx.MCTSBot(evaluator=flaky, simulations=200, batch_size=2)
    with pytest.raises(ZeroDivisionError, match="the network divided by zero"):
        bot.analyse(game.view(hx.BLUE))
    assert bot.analyse(game.view(hx.BLUE)).simulations == 200


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"evaluator": uniform, "prior": 5.0}, "prior: settings of the playout search"),
        ({"evaluator": uniform, "knowledge": False, "swindle": False}, "knowledge, swindle: settings"),
        ({"evaluator": "net"}, "evaluator must be a function"),
        ({"batch_size": 8}, "settings of the evaluator search: give evaluator="),
        ({"evaluator": uniform, "batch_size": 0}, "batch_size must be between 1"),
        ({"evaluator": uniform, "c_puct": 0.0}, "c_puct must be above 0"),
        ({"evaluator": uniform, "noise_fraction": 1.5}, "noise_fraction must be between 0 and 1"),
    ],
)
def test_bad_settings_are_clear_errors(kwargs: dict, words: str) -> None:
    with pytest.raises(hx.ConfigError, match=words):
        hx.MCTSBot(**kwargs)


@pytest.mark.parametrize("variant", ["hex", "rex"])
def test_the_tree_of_the_last_search_is_kept_for_the_next_view_of_the_game(variant: str) -> None:
    """In Hex and Rex a view that continues the game searched last starts from the subtree
    under the moves played since: its visits count as reused, the budget's simulations are
    new ones, and only those reach the evaluator; the same calls give the same searches."""
    calls: list[int] = []

    def counting(planes: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        calls.append(len(mask))
        return uniform(planes, mask)

    def self_play(bot: hx.MCTSBot) -> list[hx.Analysis]:
        game = play(variant, 5, [])
        analyses = []
        for _ in range(4):
            analyses.append(bot.analyse(game.view(game.to_move)))
            game.play(analyses[-1].move)
        return analyses

    bot = hx.MCTSBot(evaluator=counting, simulations=300, batch_size=4)
    searches = self_play(bot)
    assert searches[0].reused == 0
    for before, after in itertools.pairwise(searches):
        # The subtree's root was the node under the move played: the visits of that move,
        # less the one that first reached it.
        assert after.reused == before.visits.ravel()[before.move.index(5)] - 1 > 0
        assert int(after.visits.sum()) == after.simulations + after.reused and after.simulations == 300
    assert sum(calls) <= 4 * 300
    again = self_play(hx.MCTSBot(evaluator=uniform, simulations=300, batch_size=4))
    assert all(np.array_equal(a.visits, b.visits) for a, b in zip(searches, again, strict=True))


@pytest.mark.parametrize("variant", ["hex", "dark"])
def test_each_search_draws_its_own_root_noise(variant: str) -> None:
    """Root noise (and in Dark Hex the worlds) come from a stream of the search's own: one bot
    searching the same view again spreads its visits differently, and a new bot with the same
    seed repeats the first bot's searches call for call."""
    view = play(variant, 5, ["c3"]).view(hx.BLUE)

    def searches(bot: hx.MCTSBot) -> list[np.ndarray]:
        return [bot.analyse(view).visits for _ in range(3)]

    def noisy() -> hx.MCTSBot:
        return hx.MCTSBot(
            evaluator=uniform, simulations=400, seed=5, noise_fraction=0.5, noise_alpha=0.3, reuse_tree=False
        )

    first = searches(noisy())
    assert not np.array_equal(first[0], first[1]) and not np.array_equal(first[1], first[2])
    assert all(np.array_equal(a, b) for a, b in zip(first, searches(noisy()), strict=True))


def test_another_game_clear_or_reuse_tree_false_start_a_new_tree() -> None:
    """A view of another game, a bot cleared, a bot with reuse_tree=False, an evaluator that
    threw, and Dark Hex (whose worlds are drawn again each move) search from a new tree; the
    swap is followed like a move."""
    game = play("hex", 5, ["c3"])
    view = game.view(hx.BLUE)
    bot = hx.MCTSBot(evaluator=uniform, simulations=200)
    bot.analyse(view)
    assert bot.analyse(play("hex", 5, ["b2"]).view(hx.BLUE)).reused == 0
    bot.analyse(view)
    bot.clear()
    assert bot.analyse(view).reused == 0
    fresh = hx.MCTSBot(evaluator=uniform, simulations=200, reuse_tree=False)
    fresh.analyse(view)
    assert fresh.analyse(view).reused == 0
    assert bot.analyse(view).reused > 0  # the same view again: the whole tree

    state = {"throw": False}

    def flaky(planes: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if state["throw"]:
            raise ZeroDivisionError("the network divided by zero")
        return uniform(planes, mask)

    bot = hx.MCTSBot(evaluator=flaky, simulations=200)
    bot.analyse(view)
    state["throw"] = True
    with pytest.raises(ZeroDivisionError):
        bot.analyse(view)
    state["throw"] = False
    assert bot.analyse(view).reused == 0

    dark = play("dark", 4, ["b2"])
    bot = hx.MCTSBot(evaluator=uniform, simulations=200)
    move = bot.choose(dark.view(hx.BLUE))
    dark.play(move)
    if not dark.is_over and dark.to_move is hx.RED:
        assert bot.analyse(dark.view(hx.RED)).reused == 0

    swapping = hx.Game("hex", size=4, swap="pieces")
    swapping.play("b2")
    bot = hx.MCTSBot(evaluator=favouring(16), simulations=200, batch_size=1)
    first = bot.analyse(swapping.view(hx.BLUE))
    assert first.move == hx.SWAP and first.swap_visits > 1
    swapping.play("swap")
    assert bot.analyse(swapping.view(hx.RED)).reused == first.swap_visits - 1
