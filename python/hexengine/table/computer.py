"""Computer players for table seats: the bot interface, a random bot, and the level factory.

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

import random
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from .._moves import SWAP, Move
from ..errors import HexError
from ..rules import Rules
from ..view import View
from .settings import LEVELS, Level

__all__ = ["Bot", "BotFactory", "RandomBot", "computer_bot"]


@runtime_checkable
class Bot(Protocol):
    """A computer player: picks a move from a view of the game."""

    def choose(self, view: View) -> Move: ...


BotFactory = Callable[[Level, Rules], Bot]
"""Makes the bot for a computer seat: ``factory(level, rules) -> Bot``."""


class RandomBot:
    """Picks uniformly among the moves its view allows.

    ``swap=False`` never swaps (the easy level plays with swap off).
    """

    def __init__(self, seed: int | None = None, *, swap: bool = True) -> None:
        self._random = random.Random(seed)
        self._swap = swap

    def choose(self, view: View) -> Move:
        """A random legal move for the viewer, who must be the player to move."""
        if not isinstance(view, View):
            raise HexError(f"a bot chooses from a hexengine View, not {type(view).__name__}")
        moves = view.legal_moves()
        if not self._swap:
            moves = [m for m in moves if m != SWAP]
        if not moves:
            raise HexError(f"{view!r} offers no move: it is not the viewer's turn or the game is over")
        return self._random.choice(moves)

    def __repr__(self) -> str:
        return f"RandomBot(swap={self._swap})"


def computer_bot(level: Level, rules: Rules, seed: int | None = None) -> Bot:
    """The bot that plays a computer seat at ``level`` (``"easy"``, ``"medium"``, ``"hard"``).

    Until the search bots land every level is a :class:`RandomBot` (easy never
    swaps); the table asks only this function, so a stronger bot is one line
    here (``hx.MCTSBot.level(level)`` for Hex and Rex; Dark Hex needs a bot that
    accepts a Dark Hex view).

    >>> hx.table.computer_bot("easy", hx.Rules("hex", 5, 5))
    RandomBot(swap=False)
    """
    if level not in LEVELS:
        raise HexError(f"computer level must be one of {', '.join(LEVELS)}, not {level!r}")
    return RandomBot(seed, swap=level != "easy")
