"""Reinforcement-learning interfaces: Gymnasium and PettingZoo (extra ``hexengine[rl]``).

Importing this package registers one Gymnasium id per variant, each taking
``size`` (or ``rows`` and ``cols``), ``swap`` and the keyword arguments of
:class:`~hexengine.envs.single.HexEnv`:

- ``hexengine/Hex-v0``, ``hexengine/Rex-v0``, ``hexengine/DarkHex-v0``,
  ``hexengine/DarkHexAbrupt-v0``.

``gymnasium.make(id, opponent="easy")`` gives one agent against an opponent
(:class:`~hexengine.envs.single.HexEnv`); ``gymnasium.make_vec(id, num_envs=1024)``
gives the C++ batched self-play environment
(:class:`~hexengine.envs.vector.HexVectorEnv`, over :class:`hexengine.VectorEnv`).
:mod:`hexengine.envs.pettingzoo` has the two-player AEC environment.

>>> import gymnasium
>>> import hexengine.envs
>>> env = gymnasium.make("hexengine/Hex-v0", size=5, opponent="random")
>>> obs, info = env.reset(seed=0)
>>> obs["observation"].shape, obs["action_mask"].sum()
((9, 5, 5), np.int64(25))
>>> vec = gymnasium.make_vec("hexengine/DarkHex-v0", num_envs=8, size=5)
>>> vec.reset(seed=0)[0].shape
(8, 9, 5, 5)
"""

from __future__ import annotations

try:
    import gymnasium
except ModuleNotFoundError as e:  # pragma: no cover - depends on the extra
    raise ModuleNotFoundError(
        "hexengine.envs needs Gymnasium (and PettingZoo for hexengine.envs.pettingzoo): "
        "pip install 'hexengine[rl]'",
        name=e.name,
    ) from None

from .single import HexEnv
from .vector import HexVectorEnv

__all__ = ["IDS", "HexEnv", "HexVectorEnv"]

IDS = {
    "hexengine/Hex-v0": "hex",
    "hexengine/Rex-v0": "rex",
    "hexengine/DarkHex-v0": "dark",
    "hexengine/DarkHexAbrupt-v0": "dark-abrupt",
}


def _register() -> None:
    for env_id, variant in IDS.items():
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(
            env_id,
            entry_point="hexengine.envs.single:HexEnv",
            vector_entry_point="hexengine.envs.vector:HexVectorEnv",
            kwargs={"variant": variant},
        )


_register()
