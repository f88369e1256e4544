"""Many games stepped together in C++: the batched environment for reinforcement learning.

:class:`VectorEnv` follows Gymnasium's vector API (``reset`` and ``step`` over
``num_envs`` games at once) without needing Gymnasium; ``hexengine.envs`` wraps
it for ``gymnasium.make_vec``. Each call runs in C++ with the GIL released.

>>> import hexengine as hx
>>> env = hx.VectorEnv("hex", size=5, num_envs=4, seed=1)
>>> obs, info = env.reset()
>>> obs.shape, obs.dtype, info["action_mask"].shape
((4, 9, 5, 5), dtype('bool'), (4, 26))
>>> obs, rewards, terminated, truncated, info = env.step(env.sample_actions())
>>> rewards.tolist(), info["to_play"].tolist()      # Blue moves next everywhere
([0.0, 0.0, 0.0, 0.0], [2, 2, 2, 2])

Actions are integers: ``row * cols + col`` for a cell, ``rows * cols`` for
the swap (:func:`hexengine.action_of`). Observations are the planes of
:meth:`hexengine.View.planes` (``len(hx.PLANES)`` channels) for the player to
move; in Dark Hex that player's own view, never a hidden stone. A reward goes
to the player who moved: +1 for the move that wins, -1 for the move that
loses (in Rex: completing your own chain), 0 otherwise. In classic Dark Hex a
hit gives the same player the next step; in dark-abrupt the turn passes.

A game that ends is reset within the same step (Gymnasium's
``AutoresetMode.SAME_STEP``): the step returns the new game's first
observation, and ``info["final_obs"]`` (an object array, ``None`` for games
that did not end, with the mask ``info["_final_obs"]``) holds each ended game's
last position as seen by the player who made the last move. ``truncated`` is
always False: every game ends within ``rows * cols`` moves.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from numpy.typing import DTypeLike

from . import _core
from ._checks import MAX_SEED, whole_number
from .errors import ConfigError
from .rules import Rules, SwapForm, Variant, rules_of

__all__ = ["VectorEnv"]


class VectorEnv:
    """``num_envs`` games of one rule set, stepped together in C++.

    ``VectorEnv("hex", size=11, num_envs=1024)`` or with ``rows=`` and
    ``cols=``; ``swap`` is ``"off"`` unless given (``"sides"`` or ``"pieces"``
    in Hex and Rex); ``threads`` splits each batch over that many threads;
    ``seed`` seeds every game's random stream (for :meth:`sample_actions`);
    ``dtype`` is ``bool`` (the default, as pgx gives them) or ``np.float32``
    for the observations.
    """

    metadata: ClassVar[dict[str, Any]] = {"autoreset_mode": "same-step"}

    def __init__(
        self,
        variant: Variant = "hex",
        size: int = 11,
        *,
        rows: int | None = None,
        cols: int | None = None,
        num_envs: int,
        swap: SwapForm = "off",
        threads: int = 1,
        seed: int = 0,
        dtype: DTypeLike = bool,
    ) -> None:
        rules = rules_of(variant, size, rows, cols, swap)
        kind = np.dtype(dtype)
        if kind not in (np.dtype(bool), np.dtype(np.float32)):
            raise ConfigError(f"observations are bool or float32, not {kind}")
        self._rules = rules
        self._float = kind == np.float32
        self._seed = whole_number(seed, "seed", MAX_SEED)
        self._resets = 0
        self._core = _core.VectorEnv(
            rules.variant,
            rules.rows,
            rules.cols,
            rules.swap or "off",
            whole_number(num_envs, "num_envs", 2**31 - 1, least=1),
            whole_number(threads, "threads", _core.MAX_THREADS, least=1),
            self._seed,
        )
        self._ready = False
        # No game is ever truncated: the same read-only array serves every step.
        self._never = np.zeros(self._core.num_envs, dtype=bool)
        self._never.flags.writeable = False

    @property
    def rules(self) -> Rules:
        """The rule set every game plays."""
        return self._rules

    @property
    def num_envs(self) -> int:
        """How many games the batch holds."""
        return self._core.num_envs

    @property
    def num_actions(self) -> int:
        """Actions per game: ``rows * cols`` cells, then the swap."""
        return self._core.num_actions

    @property
    def threads(self) -> int:
        """Threads a step is split over."""
        return self._core.threads

    @property
    def dtype(self) -> np.dtype:
        """The observations' type: bool or float32."""
        return np.dtype(np.float32 if self._float else bool)

    @property
    def observation_shape(self) -> tuple[int, int, int]:
        """One game's observation: ``(len(hx.PLANES), rows, cols)``."""
        return (_core.PLANES, self._rules.rows, self._rules.cols)

    @property
    def bytes_per_env(self) -> int:
        """Bytes of game state each game holds in C++ (observations not counted)."""
        return self._core.bytes_per_env

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Empties every board (Red to move) and returns ``(observations, info)``; ``seed``
        reseeds the games' random streams (by default each reset takes the next seed
        after the constructor's)."""
        if options:
            raise ConfigError(f"VectorEnv.reset takes no options, not {sorted(options)}")
        if seed is None:
            seed = (self._seed + self._resets) % (MAX_SEED + 1)
        else:
            self._seed, self._resets = whole_number(seed, "seed", MAX_SEED), 0
        self._resets += 1
        obs, mask, to_play = self._core.reset(seed, self._float)
        self._ready = True
        return obs, {"action_mask": mask, "to_play": to_play}

    def step(
        self, actions: np.ndarray | list[int]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Plays one action per game: returns ``(observations, rewards, terminated,
        truncated, info)``. An illegal action raises :class:`IllegalMove` naming the
        game's index and the action, and changes nothing."""
        if not self._ready:
            raise ConfigError("call reset() before the first step()")
        batch = np.asarray(actions)
        if batch.dtype.kind not in "iu":
            raise TypeError(f"actions are integers (one per game), not an array of {batch.dtype}")
        if batch.dtype != np.int64:
            batch = batch.astype(np.int64)
        obs, rewards, terminated, mask, to_play, ended, finals = self._core.step(batch, self._float)
        info: dict[str, Any] = {"action_mask": mask, "to_play": to_play}
        if ended:
            final_obs = np.empty(self.num_envs, dtype=object)  # None everywhere
            for k, i in enumerate(ended):
                final_obs[i] = finals[k]
            info["final_obs"], info["_final_obs"] = final_obs, terminated.copy()
        return obs, rewards, terminated, self._never, info

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action per game (``int64``), drawn in C++ from each
        game's own random stream."""
        if not self._ready:
            raise ConfigError("call reset() before sample_actions()")
        return self._core.sample_actions()

    def close(self) -> None:
        """Nothing to release; for Gymnasium's API."""

    def __repr__(self) -> str:
        r = self._rules
        return (
            f"<VectorEnv {r.variant} {r.rows}x{r.cols} swap={r.swap}: {self.num_envs} games, "
            f"{self.threads} threads, {self.dtype} observations>"
        )
