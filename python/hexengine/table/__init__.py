"""The table: seats, modes, curtain, clocks, disconnects, series, ratings and records.

Everything a front end (web, terminal, chat bot) needs to run games by the
table rules of docs/rules.md section 6, without knowing a rule itself. See
:class:`Table` and ``docs/messages.md``.

:class:`Table` (``table.py``) coordinates one part per concern: ``seats.py`` (seats,
clients, tokens, names), ``running.py`` (the game under way), ``clock.py`` (clocks
and the clock of a decision), ``curtain.py``, ``news.py`` (who is told what),
``messages.py`` (what each recipient knows, and the payloads), ``outbox.py`` (the
message streams), ``series.py`` (records, score, rematch, ratings),
``computer.py`` (bots and their decisions), ``settings.py``, ``ratings.py`` and
``errors.py``.
"""

from __future__ import annotations

from ..records import GameRecord, PlayerInfo, RecordedAction, RecordError, read_game, read_record
from .clock import Clock, FakeClock, SystemClock
from .computer import Bot, BotFactory, ComputerTurn, computer_bot
from .errors import TableError
from .messages import SCHEMA_VERSION
from .ratings import MemoryRatingStore, PlayerRating, Ratings, RatingStore, SQLiteRatingStore
from .settings import LEVELS, SEATS, TableSettings
from .table import Table

__all__ = [
    "LEVELS",
    "SCHEMA_VERSION",
    "SEATS",
    "Bot",
    "BotFactory",
    "Clock",
    "ComputerTurn",
    "FakeClock",
    "GameRecord",
    "MemoryRatingStore",
    "PlayerInfo",
    "PlayerRating",
    "RatingStore",
    "Ratings",
    "RecordError",
    "RecordedAction",
    "SQLiteRatingStore",
    "SystemClock",
    "Table",
    "TableError",
    "TableSettings",
    "computer_bot",
    "read_game",
    "read_record",
]
