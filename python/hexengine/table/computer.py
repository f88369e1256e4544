"""Computer players for table seats: the bot interface, the level factory, the bots of one
table and a computer's pending decision.

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

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from .._moves import Move
from ..bots import MCTSBot, RandomBot
from ..errors import HexError
from ..game import View
from ..records import PlayerInfo
from ..rules import Color, Rules
from .settings import LEVELS, Level, SeatName

if TYPE_CHECKING:
    from .running import Running
    from .seats import Seats

__all__ = ["Bot", "BotFactory", "ComputerTurn", "Computers", "computer_bot"]


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


class Computers:
    """The bots of one table, one per seat for the current game: a computer seat's at its
    level, an absent person's at ``takeover_level``. Each is made by ``factory`` when first
    needed and kept until the game ends or the person comes back."""

    def __init__(self, factory: BotFactory, takeover_level: Level) -> None:
        self._factory = factory
        self._takeover_level = takeover_level
        self._bots: dict[SeatName, Bot] = {}

    def _bot(self, seat: SeatName, player: PlayerInfo | None, rules: Rules) -> Bot:
        """The bot that plays ``seat`` (held by ``player``) under ``rules``."""
        bot = self._bots.get(seat)
        if bot is None:
            level = player.level if player is not None and player.kind == "computer" else None
            bot = self._factory(level or self._takeover_level, rules)  # type: ignore[arg-type]
            self._bots[seat] = bot
        return bot

    def turn(self, table_id: str, run: Running | None, seats: Seats) -> ComputerTurn | None:
        """The computer's pending decision in ``run`` (at a computer seat, or a person's seat it
        plays while they are away), or ``None``."""
        if run is None or run.over:
            return None
        color = run.game.to_move
        assert color is not None
        seat = run.colors[color]
        if not seats.computer_plays(seat):
            return None
        view = run.game.view(color)
        bot = self._bot(seat, seats.player(seat), run.game.rules)
        return ComputerTurn(table_id, run.number, len(run.meta), seat, color, view, bot)

    @staticmethod
    def play(turn: ComputerTurn, apply: Callable[[Move], object]) -> None:
        """Hands the bot's move to ``apply``; a bot that fails or answers illegally is replaced by
        a random legal move (with a warning), so a broken bot cannot stall the table."""
        try:
            apply(turn.run())
        except HexError as e:
            warnings.warn(
                f"the computer for seat {turn.seat} failed ({e}); it played a random move instead",
                RuntimeWarning,
                stacklevel=3,
            )
            apply(RandomBot().choose(turn.view))

    @staticmethod
    def pending(turn: ComputerTurn, table_id: str, run: Running | None, seats: Seats) -> bool:
        """Whether ``turn`` is still the decision the computer has to make in ``run``."""
        return not (
            run is None
            or run.over
            or turn.table != table_id
            or turn.game != run.number
            or turn.ply != len(run.meta)
            or not seats.computer_plays(turn.seat)
            or run.game.to_move != turn.color
        )

    def forget(self, seats: tuple[SeatName, ...]) -> None:
        """Drops the bots of ``seats`` (a new game, or people back at their seats)."""
        for s in seats:
            self._bots.pop(s, None)


@dataclass(frozen=True)
class ComputerTurn:
    """A computer's decision, ready to run off the table's thread.

    ``run()`` touches only ``view`` and ``bot`` (never the table or the
    referee), so a server may call it in a worker and hand the move back with
    :meth:`Table.submit <hexengine.Table.submit>`.
    """

    table: str
    game: int
    ply: int
    seat: SeatName
    color: Color
    view: View
    bot: Bot

    def run(self) -> Move:
        """The bot's move for this view."""
        return self.bot.choose(self.view)
