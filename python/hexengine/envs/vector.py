"""The C++ batched environment as a Gymnasium vector environment (``gymnasium.make_vec``).

Self-play: every step plays one action per game for whichever player is to move
there, as :class:`hexengine.VectorEnv` does; this class only adds Gymnasium's
spaces and metadata (``AutoresetMode.SAME_STEP``).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ..errors import ConfigError
from ..vector_env import VectorEnv

__all__ = ["HexVectorEnv"]


class HexVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` self-play games in C++; keyword arguments as :class:`hexengine.VectorEnv`'s."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(self, variant: str = "hex", size: int = 11, *, num_envs: int = 1, **kwargs: Any) -> None:
        self.env = VectorEnv(variant, size, num_envs=num_envs, **kwargs)  # type: ignore[arg-type]
        self.num_envs = self.env.num_envs
        self.single_observation_space = spaces.Box(0, 1, self.env.observation_shape, dtype=self.env.dtype)
        self.single_action_space = spaces.Discrete(self.env.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if isinstance(seed, list):
            raise ConfigError("the batch takes one seed (each game's stream is drawn from it), not a list")
        return self.env.reset(seed=seed, options=options)

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        return self.env.step(actions)

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action per game, drawn in C++."""
        return self.env.sample_actions()
