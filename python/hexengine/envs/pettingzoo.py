"""A two-player AEC environment in the style of PettingZoo's classic games.

>>> from hexengine.envs import pettingzoo as hexzoo
>>> env = hexzoo.env(variant="dark", size=3)
>>> env.reset(seed=1)
>>> env.agent_selection, sorted(env.observe("red"))
('red', ['action_mask', 'observation'])

The agents are the colours, ``"red"`` (moves first, joins rows 1 and N) and
``"blue"``. Each observes only its own :class:`~hexengine.View`: the planes of
:meth:`hexengine.View.planes` under ``"observation"`` and an ``int8`` flag per
action under ``"action_mask"`` (all 0 when it is not that agent's turn). Actions
are integers (``row * cols + col``, the swap ``rows * cols``). In classic Dark
Hex a hit keeps the same agent selected; after a ``sides`` swap Blue moves
again (the board stays, the players change colours). At the end the winner
gets +1 and the loser -1. As in PettingZoo's classic games, :func:`env` wraps
the raw environment so that an illegal action ends the game as a loss for the
agent that made it (PettingZoo's ``TerminateIllegalWrapper``), an action
outside the action space is an error, and the calls come in order.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..errors import ConfigError
from ..game import PLANES, Game
from ..raster import board_rgb
from ..rules import BLUE, RED, SwapForm, Variant, rules_of

__all__ = ["env", "raw_env"]

AGENTS = {"red": RED, "blue": BLUE}


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's classic wrappers; keyword arguments as :class:`raw_env`'s."""
    wrapped: AECEnv = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):
    """Hex, Rex or Dark Hex for two agents, ``"red"`` and ``"blue"``."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "name": "hexengine_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        variant: Variant = "hex",
        size: int = 11,
        *,
        rows: int | None = None,
        cols: int | None = None,
        swap: SwapForm | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules = rules_of(variant, size, rows, cols, swap)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError(
                f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}"
            )
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        rows, cols = self.rules.rows, self.rules.cols
        space = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, (len(PLANES), rows, cols), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (rows * cols + 1,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(rows * cols + 1) for a in self.possible_agents}
        self.game = Game(self.rules)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        view = self.game.view(AGENTS[agent])
        return {"observation": view.planes(np.float32), "action_mask": view.action_mask().astype(np.int8)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.game = Game(self.rules)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {"action_mask": self.observe(a)["action_mask"]} for a in self.agents}
        self.agent_selection = "red"

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.game.apply(int(action))
        if self.game.is_over:
            winner = "red" if self.game.winner == RED else "blue"
            for a in self.agents:
                self.rewards[a] = 1.0 if a == winner else -1.0
                self.terminations[a] = True
        else:
            self.agent_selection = "red" if self.game.to_move == RED else "blue"
        for a in self.agents:
            self.infos[a] = {"action_mask": self.observe(a)["action_mask"]}
        self._accumulate_rewards()

    def render(self) -> str | np.ndarray | None:
        """What a spectator may see: text (``"ansi"``) or pixels (``"rgb_array"``)."""
        view = self.game.spectator_view()
        if self.render_mode == "ansi":
            return str(view)
        if self.render_mode == "rgb_array":
            return board_rgb(view.board)
        return None

    def close(self) -> None:
        pass
