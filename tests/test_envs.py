"""Gymnasium and PettingZoo: the registered ids pass Gymnasium's environment checker, make_vec
gives the C++ batched environment, the AEC environment passes PettingZoo's API and seed tests,
and in Dark Hex each agent observes only its own view."""

from __future__ import annotations

import random

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")
pettingzoo = pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import hexengine as hx  # noqa: E402
import hexengine.envs  # noqa: E402
from hexengine.envs import pettingzoo as hexzoo  # noqa: E402

IDS = list(hexengine.envs.IDS)


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize(
    "kwargs",
    [
        {"size": 5},
        {"rows": 3, "cols": 4, "agent_color": "blue"},
        {"size": 4, "agent_color": "random", "opponent": "easy", "render_mode": "rgb_array"},
        {"size": 3, "render_mode": "ansi", "dtype": bool},
    ],
)
def test_every_id_passes_gymnasiums_checker(env_id: str, kwargs: dict) -> None:
    env = gymnasium.make(env_id, **kwargs)
    check_env(env.unwrapped, skip_render_check=False)
    env.reset(seed=3)
    frame = env.render()
    if kwargs.get("render_mode") == "rgb_array":
        assert frame.ndim == 3 and frame.dtype == np.uint8
    elif kwargs.get("render_mode") == "ansi":
        assert isinstance(frame, str) and "to move" in frame


@pytest.mark.parametrize("env_id", IDS)
def test_an_episode_against_the_opponent_ends_with_the_agents_result(env_id: str) -> None:
    env = gymnasium.make(env_id, size=5, opponent="random", agent_color="random")
    rng = np.random.default_rng(0)
    results = []
    for episode in range(20):
        obs, info = env.reset(seed=episode)
        done, reward = False, 0.0
        while not done:
            assert info["to_play"] == info["agent"]
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, done, truncated, info = env.step(action)
            assert not truncated
        game = env.unwrapped.game
        assert reward == (1.0 if game.winner == env.unwrapped.agent else -1.0)
        results.append(reward)
    assert set(results) <= {1.0, -1.0}


def test_the_opponent_may_be_a_bot_or_a_callable() -> None:
    seen: list[hx.View] = []

    def first_legal(view: hx.View) -> int:
        seen.append(view)
        return view.legal_actions()[0]

    for opponent in (hx.RandomBot(seed=1), first_legal, hx.MCTSBot(simulations=20)):
        env = gymnasium.make("hexengine/DarkHex-v0", size=4, opponent=opponent, agent_color="blue")
        obs, _ = env.reset(seed=0)
        assert obs["observation"][hx.PLANES.index("hidden")].max() > 0  # Red moved, unseen
    assert seen and all(v.viewer == hx.RED for v in seen)


def test_an_illegal_action_loses_the_episode_or_raises() -> None:
    env = gymnasium.make("hexengine/Hex-v0", size=3)
    env.reset(seed=0)
    _, reward, done, _, info = env.step(9)  # the swap, before any stone
    assert done and reward == -1.0 and info["illegal_action"]["rule"] == "swap-timing"
    with pytest.raises(hx.ConfigError, match="the episode is over"):
        env.step(0)
    strict = gymnasium.make("hexengine/Hex-v0", size=3, illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(hx.IllegalMove, match="swap is only allowed"):
        strict.step(9)


def test_bad_settings_are_clear_errors() -> None:
    with pytest.raises(hx.ConfigError, match="opponent must be 'random', 'easy'"):
        gymnasium.make("hexengine/Hex-v0", opponent="grandmaster")
    with pytest.raises(hx.ConfigError, match="agent_color must be"):
        gymnasium.make("hexengine/Hex-v0", agent_color="green")
    with pytest.raises(hx.RulesError):
        gymnasium.make("hexengine/DarkHex-v0", swap="sides")


@pytest.mark.parametrize("env_id", IDS)
def test_make_vec_gives_the_cpp_vector_env(env_id: str) -> None:
    vec = gymnasium.make_vec(env_id, num_envs=16, size=5)
    assert isinstance(vec.unwrapped, hexengine.envs.HexVectorEnv)
    assert vec.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    obs, info = vec.reset(seed=2)
    assert info["action_mask"].shape == (16, 26) and info["action_mask"][:, :25].all()
    assert obs.shape == (16, len(hx.PLANES), 5, 5) and vec.single_observation_space.contains(obs[0])
    for _ in range(40):
        actions = vec.unwrapped.sample_actions()
        assert vec.action_space.contains(actions)
        obs, rewards, terminated, truncated, _ = vec.step(actions)
        assert vec.observation_space.contains(obs) and not truncated.any()
        assert set(rewards[terminated].tolist()) <= {1.0, -1.0} and not rewards[~terminated].any()
    with pytest.raises(hx.ConfigError, match="one seed"):
        vec.reset(seed=[1, 2])


@pytest.mark.parametrize("variant", ["hex", "rex", "dark", "dark-abrupt"])
def test_the_aec_environment_passes_pettingzoos_api_and_seed_tests(variant: str) -> None:
    api_test(hexzoo.env(variant=variant, size=4), num_cycles=300)
    seed_test(lambda: hexzoo.env(variant=variant, size=4), num_cycles=300)


@pytest.mark.parametrize("variant", ["dark", "dark-abrupt"])
def test_in_dark_hex_each_agent_observes_only_its_own_view(variant: str) -> None:
    """Every observation of every agent is exactly the planes of that agent's own view, over
    many random games; the referee's board is never what an agent sees while stones are hidden."""
    rng = random.Random(5)
    hidden_seen = 0
    for game_number in range(30):
        env = hexzoo.env(variant=variant, size=5)
        env.reset(seed=game_number)
        while env.agents:
            game = env.unwrapped.game
            for agent, color in (("red", hx.RED), ("blue", hx.BLUE)):
                obs = env.observe(agent)
                view = game.view(color)
                assert np.array_equal(obs["observation"], view.planes(np.float32))
                assert np.array_equal(obs["action_mask"], view.action_mask().astype(np.int8))
                hidden_seen += view.hidden_enemy_stones > 0
            agent = env.agent_selection
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert hidden_seen > 100


def test_a_classic_hit_keeps_the_same_agent_selected() -> None:
    env = hexzoo.env(variant="dark", size=3)
    env.reset(seed=0)
    env.step(4)  # red b2
    env.step(4)  # blue hits b2
    assert env.agent_selection == "blue"
    abrupt = hexzoo.env(variant="dark-abrupt", size=3)
    abrupt.reset(seed=0)
    abrupt.step(4)
    abrupt.step(4)
    assert abrupt.agent_selection == "red"


def test_an_illegal_action_ends_the_aec_game_as_a_loss() -> None:
    env = hexzoo.env(variant="hex", size=3)
    env.reset(seed=0)
    env.step(4)
    env.step(4)  # blue plays on red's stone: PettingZoo's rule for classic games
    assert env.rewards == {"red": 0.0, "blue": -1.0}
    assert all(env.terminations.values())
    assert env.unwrapped.game.history[-1].cell == hx.Cell.parse("b2")  # nothing was played
