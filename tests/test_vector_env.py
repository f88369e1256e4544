"""The batched environment: every game in it plays exactly as the referee would, with the
observations of the player to move (never a hidden stone), same-step autoreset, rewards to
the mover, clear errors that change nothing, and results independent of the thread split."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from oracle import examples
from test_properties import SEEDS

import hexengine as hx

FORMS = [
    ("hex", "off"),
    ("hex", "sides"),
    ("rex", "pieces"),
    ("rex", "off"),
    ("dark", "off"),
    ("dark-abrupt", "off"),
]


def run_against_referees(env: hx.VectorEnv, steps: int, rng: np.random.Generator | None = None) -> int:
    """Steps ``env`` and a referee per game side by side, checking every output against the
    referees; actions from sample_actions() or, with ``rng``, chosen by numpy from the mask.
    Returns how many games ended."""
    rules = env.rules
    games = [hx.Game(rules) for _ in range(env.num_envs)]
    obs, info = env.reset()
    ended = 0
    for _ in range(steps):
        for i, game in enumerate(games):
            view = game.view(game.to_move)
            assert np.array_equal(obs[i], view.planes(env.dtype))
            assert np.array_equal(info["action_mask"][i], game.action_mask())
            assert info["to_play"][i] == game.to_move
        if rng is None:
            actions = env.sample_actions()
        else:
            actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in info["action_mask"]])
        assert all(a in game.legal_actions() for a, game in zip(actions, games, strict=True))
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        for i, game in enumerate(games):
            mover = game.to_move
            game.apply(int(actions[i]))
            if game.is_over:
                assert terminated[i] and rewards[i] == (1.0 if game.winner == mover else -1.0)
                assert info["_final_obs"][i]
                assert np.array_equal(info["final_obs"][i], game.view(mover).planes(env.dtype))
                games[i] = hx.Game(rules)
                ended += 1
            else:
                assert not terminated[i] and rewards[i] == 0.0
                assert "final_obs" not in info or info["final_obs"][i] is None
    return ended


@settings(max_examples=examples(40), deadline=None)
@given(
    form=st.sampled_from(FORMS),
    rows=st.integers(1, 6),
    cols=st.integers(1, 6),
    num_envs=st.integers(1, 9),
    threads=st.integers(1, 3),
    seed=SEEDS,
    as_float=st.booleans(),
)
# A pieces swap of a stone on the diagonal leaves it on its cell, but blue.
@example(form=("rex", "pieces"), rows=2, cols=2, num_envs=1, threads=1, seed=2, as_float=False)
def test_every_game_plays_as_the_referee_would(
    form: tuple[str, str], rows: int, cols: int, num_envs: int, threads: int, seed: int, as_float: bool
) -> None:
    variant, swap = form
    if swap == "pieces" and rows != cols:
        swap = "sides"
    env = hx.VectorEnv(
        variant, rows=rows, cols=cols, swap=swap, num_envs=num_envs, threads=threads, seed=seed,
        dtype=np.float32 if as_float else bool,
    )  # fmt: skip
    run_against_referees(env, steps=3 * rows * cols + 4)


@pytest.mark.parametrize(("variant", "swap"), FORMS)
def test_eleven_by_eleven_with_actions_drawn_from_the_mask(variant: str, swap: str) -> None:
    env = hx.VectorEnv(variant, size=11, swap=swap, num_envs=8, threads=2, seed=5)
    assert run_against_referees(env, steps=260, rng=np.random.default_rng(1)) >= 8


def test_a_classic_hit_gives_the_same_player_the_next_step() -> None:
    for variant, next_player in (("dark", hx.BLUE), ("dark-abrupt", hx.RED)):
        env = hx.VectorEnv(variant, size=3, num_envs=1)
        env.reset()
        env.step([4])
        obs, rewards, terminated, _, info = env.step([4])  # Blue hits Red's b2
        assert info["to_play"][0] == next_player and rewards[0] == 0 and not terminated[0]
        if next_player == hx.BLUE:
            assert obs[0][hx.PLANES.index("hit")][1, 1] and not info["action_mask"][0][4]


def test_the_same_seed_gives_the_same_games_whatever_the_threads() -> None:
    runs = []
    for threads in (1, 2, 3):
        env = hx.VectorEnv("dark", size=5, num_envs=50, threads=threads, seed=9)
        env.reset()
        out = []
        for _ in range(40):
            actions = env.sample_actions()
            obs, rewards, terminated, _, _ = env.step(actions)
            out.append((actions.tobytes(), obs.tobytes(), rewards.tobytes(), terminated.tobytes()))
        runs.append(out)
    assert runs[0] == runs[1] == runs[2]


def test_reset_with_a_seed_repeats_and_without_one_moves_on() -> None:
    env = hx.VectorEnv("hex", size=7, num_envs=16, seed=3)
    env.reset(seed=11)
    first = env.sample_actions()
    env.reset(seed=11)
    assert np.array_equal(env.sample_actions(), first)
    env.reset()
    assert not np.array_equal(env.sample_actions(), first)


@pytest.mark.parametrize(
    ("before", "actions", "words", "rule"),
    [
        ([[0, 1, 4]], [4, 4, 4], r"environment 2, action 4: b2 already holds a Red stone", "occupied"),
        (
            [[0, 1, 4]],
            [2, 2, 99],
            r"environment 2, action 99: out of range: actions are 0-8",
            "off-board",
        ),
        ([[0, 1, 4]], [2, -1, 2], r"environment 1, action -1: out of range", "off-board"),
        (
            [],
            [0, 9, 0],
            r"environment 1, action 9: swap is only allowed as Blue's first",
            "swap-timing",
        ),
        ([[0, 1, 4], [9, 9, 9]], [9, 2, 2], r"environment 0, action 9: swap is only allowed", "swap-timing"),
    ],
)
def test_an_illegal_action_names_the_environment_and_changes_nothing(
    before: list[list[int]], actions: list[int], words: str, rule: str
) -> None:
    env, twin = (hx.VectorEnv("hex", size=3, swap="sides", num_envs=3, seed=1) for _ in range(2))
    for e in (env, twin):
        e.reset()
        for step in before:
            e.step(step)
    with pytest.raises(hx.IllegalMove, match=words) as info:
        env.step(actions)
    assert info.value.rule == rule
    # Nothing moved: not the games, not the random streams.
    assert np.array_equal(env.sample_actions(), twin.sample_actions())
    legal = env.sample_actions()
    assert np.array_equal(legal, twin.sample_actions())
    for a, b in zip(env.step(legal), twin.step(legal), strict=True):
        assert np.array_equal(a, b) if isinstance(a, np.ndarray) else a.keys() == b.keys()


@pytest.mark.parametrize(
    ("actions", "error", "words"),
    [
        ([0.0, 1.0], TypeError, "actions are integers"),
        (["a1", "b1"], TypeError, "actions are integers"),
        ([0, 1, 2], hx.ConfigError, r"one action per environment: an array of shape \(2,\)"),
        ([[0, 1]], hx.ConfigError, "one action per environment"),
        ([True, False], TypeError, "actions are integers"),
    ],
)
def test_actions_of_the_wrong_kind_are_refused(actions: object, error: type, words: str) -> None:
    env = hx.VectorEnv("hex", size=3, num_envs=2)
    env.reset()
    with pytest.raises(error, match=words):
        env.step(actions)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"num_envs": 0}, hx.ConfigError, "num_envs must be between 1"),
        ({"num_envs": 2, "threads": 0}, hx.ConfigError, "threads must be between 1"),
        ({"num_envs": 2, "dtype": np.int16}, hx.ConfigError, "observations are bool or float32"),
        (
            {"num_envs": 2, "swap": "sides", "variant": "dark"},
            hx.RulesError,
            "swap 'sides' is not available in dark",
        ),
        ({"num_envs": 2, "size": 20}, hx.RulesError, "20"),
        ({"num_envs": 2.0}, hx.ConfigError, "num_envs must be a whole number"),
    ],
)
def test_bad_settings_are_clear_errors(kwargs: dict, error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        hx.VectorEnv(**kwargs)


def test_step_before_reset_is_an_error() -> None:
    env = hx.VectorEnv("hex", size=3, num_envs=2)
    with pytest.raises(hx.ConfigError, match="call reset"):
        env.step([0, 0])
