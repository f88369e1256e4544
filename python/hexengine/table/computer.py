"""Computer players for table seats: the bot interface and the level factory.

A bot is anything with ``choose(view) -> move``. It receives a
:class:`~hexengine.View` (in Dark Hex: only what its seat may know), never the
referee.

>>> import hexengine as hx
>>> game = hx.Game("dark", size=3)
>>> bot = hx.RandomBot(seed=1)
>>> move = bot.choose(game.view(hx.RED))
>>> move in game.legal_moves()
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from .._moves import Move
from ..bots import MCTSBot
from ..errors import HexError
from ..game import View
from ..rules import Rules
from .settings import LEVELS, Level

__all__ = ["Bot", "BotFactory", "computer_bot"]


@runtime_checkable
class Bot(Protocol):
    """A computer player: picks a move from a view of the game."""

    def choose(self, view: View) -> Move: ...


BotFactory = Callable[[Level, Rules], Bot]
"""Makes the bot for a computer seat: ``factory(level, rules) -> Bot``."""


def computer_bot(level: Level, rules: Rules, seed: int | None = None) -> Bot:
    """The bot that plays a computer seat at ``level`` (``"easy"``, ``"medium"``, ``"hard"``).

    Every variant: :meth:`hx.MCTSBot.level <hexengine.MCTSBot.level>`, which
    searches Dark Hex from the seat's view alone (the table hands it nothing
    else). The easy level never swaps.

    >>> hx.table.computer_bot("easy", hx.Rules("hex", 5, 5))
    MCTSBot(simulations=60, threads=1, seed=0)
    >>> hx.table.computer_bot("medium", hx.Rules("dark", 5, 5))
    MCTSBot(simulations=5000, threads=1, seed=0)
    """
    if level not in LEVELS:
        raise HexError(f"computer level must be one of {', '.join(LEVELS)}, not {level!r}")
    return MCTSBot.level(level, seed=seed or 0)
