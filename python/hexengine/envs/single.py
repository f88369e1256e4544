"""One agent against an opponent: a Gymnasium environment for each variant.

``gymnasium.make("hexengine/Hex-v0", size=7, opponent="easy")`` (ids for Rex,
Dark Hex and abrupt Dark Hex too, see :mod:`hexengine.envs`). The agent plays
``agent_color`` (``"red"``, ``"blue"`` or ``"random"``, drawn at each reset);
the opponent is a level name (``"random"``, ``"easy"``, ``"medium"``,
``"hard"``), a bot with ``choose(view)``, or a callable taking the opponent's
:class:`~hexengine.View` and returning a move or an integer action. The
opponent sees only its own view, the agent only its own.

Observations are dicts: ``"observation"``, the planes of
:meth:`hexengine.View.planes` (float32 by default), and ``"action_mask"``, an
``int8`` flag per action. Actions are integers (``row * cols + col``, the swap
``rows * cols``). The reward is +1 when the agent wins, -1 when it loses, 0
before the end. An illegal action ends the episode as a loss (reward -1,
``info["illegal_action"]`` with the action and the rule it broke), as
PettingZoo's classic games do; ``illegal="raise"`` raises
:class:`~hexengine.IllegalMove` instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import gymnasium
import numpy as np
from gymnasium import spaces

from .._moves import action_of
from ..bots import LEVELS, MCTSBot, RandomBot
from ..errors import ConfigError, IllegalMove
from ..game import PLANES, Game, View
from ..raster import board_rgb
from ..rules import BLUE, RED, Color, Rules, SwapForm, Variant, rules_of

__all__ = ["HexEnv", "Opponent"]

Opponent = str | Callable[[View], Any] | Any
AgentColor = Literal["red", "blue", "random"]


class HexEnv(gymnasium.Env[dict[str, np.ndarray], int]):
    """A game of ``variant`` on a ``size`` board (or ``rows`` x ``cols``) for one agent."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}  # noqa: RUF012

    def __init__(
        self,
        variant: Variant = "hex",
        size: int = 11,
        *,
        rows: int | None = None,
        cols: int | None = None,
        swap: SwapForm | None = None,
        opponent: Opponent = "random",
        agent_color: AgentColor = "red",
        illegal: Literal["lose", "raise"] = "lose",
        dtype: Any = np.float32,
        render_mode: str | None = None,
    ) -> None:
        self.rules = rules_of(variant, size, rows, cols, swap)
        if agent_color not in ("red", "blue", "random"):
            raise ConfigError(f"agent_color must be 'red', 'blue' or 'random', not {agent_color!r}")
        if illegal not in ("lose", "raise"):
            raise ConfigError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError(
                f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}"
            )
        self._opponent_spec = _check_opponent(opponent)
        self._agent_color = agent_color
        self._illegal = illegal
        self._dtype = np.dtype(dtype)
        self.render_mode = render_mode
        rows, cols = self.rules.rows, self.rules.cols
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, (len(PLANES), rows, cols), dtype=self._dtype),
                "action_mask": spaces.Box(0, 1, (rows * cols + 1,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(rows * cols + 1)
        self.game = Game(self.rules)
        self.agent: Color = RED
        self._opponent: Callable[[View], Any] = _as_callable(self._opponent_spec, self.rules, 0)
        self._done = True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        draw = int(self.np_random.integers(0, 2**63 - 1))
        self.game = Game(self.rules)
        if self._agent_color == "random":
            self.agent = RED if self.np_random.random() < 0.5 else BLUE
        else:
            self.agent = RED if self._agent_color == "red" else BLUE
        self._opponent = _as_callable(self._opponent_spec, self.rules, draw)
        self._opponent_moves()
        self._done = self.game.is_over
        return self._observe(), self._info()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self._done:
            raise ConfigError("the episode is over: call reset()")
        try:
            self.game.apply(action)
        except (IllegalMove, TypeError) as e:
            if self._illegal == "raise":
                raise
            rule = e.rule if isinstance(e, IllegalMove) else "not-an-action"
            info = {**self._info(), "illegal_action": {"action": action, "rule": rule, "error": str(e)}}
            self._done = True
            return self._observe(), -1.0, True, False, info
        self._opponent_moves()
        self._done = self.game.is_over
        reward = 0.0 if not self._done else (1.0 if self.game.winner == self.agent else -1.0)
        return self._observe(), reward, self._done, False, self._info()

    def render(self) -> str | np.ndarray | None:
        """The agent's view: as text (``"ansi"``) or pixels (``"rgb_array"``)."""
        view = self.game.view(self.agent)
        if self.render_mode == "ansi":
            return str(view)
        if self.render_mode == "rgb_array":
            return board_rgb(view.board)
        return None

    def _opponent_moves(self) -> None:
        """Lets the opponent play until it is the agent's turn or the game is over."""
        while not self.game.is_over and self.game.to_move != self.agent:
            view = self.game.view(self.game.to_move)
            move = self._opponent(view)
            if isinstance(move, int | np.integer) and not isinstance(move, bool):
                self.game.apply(int(move))
            else:
                self.game.apply(action_of(move, self.rules))

    def _observe(self) -> dict[str, np.ndarray]:
        view = self.game.view(self.agent)
        return {"observation": view.planes(self._dtype), "action_mask": view.action_mask().astype(np.int8)}

    def _info(self) -> dict[str, Any]:
        return {"to_play": self.game.to_move, "agent": self.agent}


def _check_opponent(opponent: Opponent) -> Opponent:
    if isinstance(opponent, str):
        if opponent != "random" and opponent not in LEVELS:
            raise ConfigError(
                f"opponent must be 'random', {', '.join(map(repr, LEVELS))}, a bot or a callable"
            )
        return opponent
    if callable(getattr(opponent, "choose", None)) or callable(opponent):
        return opponent
    raise ConfigError(
        f"opponent must be a level name, a bot with choose(view) or a callable, not {opponent!r}"
    )


def _as_callable(opponent: Opponent, rules: Rules, seed: int) -> Callable[[View], Any]:
    """The opponent as a function of its view; levels get a fresh bot seeded by ``seed``."""
    if opponent == "random":
        return RandomBot(seed).choose
    if isinstance(opponent, str):
        return MCTSBot.level(opponent, seed=seed).choose
    choose = getattr(opponent, "choose", None)
    return choose if callable(choose) else opponent
