"""The series: the records of the finished games, the score, the rematch and the ratings.

A series is every game played at one table. Each finished game adds its record
and a win to its winner's seat. The next game starts when both seats asked for a
rematch (a computer seat always agrees). On a rated table each finished game
also updates both players' ratings.

>>> import hexengine as hx
>>> series = Series()
>>> series.ask(("A",), {"A": hx.PlayerInfo("Ann"), "B": hx.PlayerInfo("Bob")})
False
>>> series.ask(("B",), {"A": hx.PlayerInfo("Ann"), "B": hx.PlayerInfo("Bob")}), series.ready
(True, {'A': True, 'B': True})
"""

from __future__ import annotations

from typing import Any

from ..records import GameRecord, PlayerInfo
from ..records.model import other_seat
from .errors import TableError
from .ratings import pool_of
from .settings import SEATS, SeatName

__all__ = ["Series"]


class Series:
    """The games of one table so far; ``ratings`` (a :class:`~hexengine.Ratings`) if rated."""

    def __init__(self, ratings: Any = None) -> None:
        self._ratings = ratings
        self.records: list[GameRecord] = []
        self.wins: dict[SeatName, int] = {"A": 0, "B": 0}
        self.ready: dict[SeatName, bool] = {s: False for s in SEATS}

    def info(self) -> dict[str, Any]:
        """``{"games": finished games, "wins": {"A": n, "B": m}}``."""
        return {"games": len(self.records), "wins": dict(self.wins)}

    def add(self, record: GameRecord) -> None:
        """A game is over: its record joins the series and its winner scores."""
        self.records.append(record)
        winner = record.winner_seat
        assert winner is not None
        self.wins[winner] += 1

    def finished(self, number: int | None) -> GameRecord:
        """The record of finished game ``number`` (default: the last one); TableError ``no-game``."""
        if not self.records:
            raise TableError(
                "no game has finished yet: a replay shows every stone only after the end", "no-game"
            )
        if number is None:
            return self.records[-1]
        record = next((r for r in self.records if r.number == number), None)
        if record is None:
            raise TableError(f"no finished game number {number!r} at this table", "no-game")
        return record

    def ask(self, seats: tuple[SeatName, ...], players: dict[SeatName, PlayerInfo | None]) -> bool:
        """``seats`` ask for the next game (computer seats always agree); returns whether both
        seats now asked."""
        for s in seats:
            self.ready[s] = True
        for s in SEATS:
            if players[s].kind == "computer":  # type: ignore[union-attr]
                self.ready[s] = True
        return all(self.ready[s] for s in SEATS)

    def new_game(self) -> None:
        """The next game started: nobody has asked for a rematch yet."""
        self.ready = {s: False for s in SEATS}

    def rate(
        self, record: GameRecord, players: dict[SeatName, PlayerInfo | None], now: float
    ) -> dict[str, Any] | None:
        """Rates a finished game in its pool (variant and board); returns the payload of the
        ``ratings`` message (``None`` if the series is not rated).

        A game in which the computer played for an absent person is not rated at all: that
        person's rating must not move by the computer's moves, and their opponent did not
        play them. The message then says why, with ``changes`` empty."""
        if self._ratings is None:
            return None
        pool = pool_of(record.rules)
        stood_in = sorted(
            {a.seat for a in record.actions if a.by == "computer" and players[a.seat].kind == "person"}  # type: ignore[union-attr]
        )
        if stood_in:
            names = " and ".join(f"{players[s].name} (seat {s})" for s in stood_in)  # type: ignore[union-attr]
            return {
                "pool": pool,
                "changes": {},
                "unrated": f"not rated: the computer played for {names} while they were away",
            }
        winner = record.winner_seat
        assert winner is not None
        changes = self._ratings.rate(players[winner], players[other_seat(winner)], pool=pool, time=now)
        return {
            "pool": pool,
            "changes": {
                s: {"id": players[s].id, **changes[players[s].id]}  # type: ignore[union-attr]
                for s in SEATS
            },
            "unrated": None,
        }

    def to_state(self) -> dict[str, Any]:
        """``{"records": ..., "wins": ...}`` of the table's state (``ready`` is kept with the seats)."""
        return {"records": [r.to_dict() for r in self.records], "wins": dict(self.wins)}

    def restore(self, state: dict[str, Any]) -> None:
        """Takes the series back from the table's state."""
        self.ready = {s: bool(state["seats"][s]["rematch"]) for s in SEATS}
        self.records = [GameRecord.from_dict(r) for r in state["records"]]
        self.wins = {s: int(state["wins"][s]) for s in SEATS}
