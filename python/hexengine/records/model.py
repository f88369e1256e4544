"""What every record format shares: the seats, who held them, one recorded action, the error.

>>> from hexengine.records import PlayerInfo
>>> PlayerInfo("Ann").to_dict()
{'name': 'Ann', 'kind': 'person', 'level': None, 'id': None}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ..cells import Cell
from ..errors import HexError
from ..rules import Color, MoveResult

__all__ = [
    "MAX_RECORD_CHARS",
    "SEATS",
    "Actor",
    "MissingRecordFile",
    "PlayerInfo",
    "RecordError",
    "RecordedAction",
    "SeatName",
]

SeatName = Literal["A", "B"]
SEATS: tuple[SeatName, SeatName] = ("A", "B")

MAX_RECORD_CHARS = 1_000_000

Actor = Literal["person", "computer"]


class RecordError(HexError):
    """A record that cannot be read: bad JSON or SGF, missing fields, or moves the rules forbid."""


class MissingRecordFile(RecordError, FileNotFoundError):
    """A record was asked for by a path to no file: catch it as a RecordError or as a
    FileNotFoundError."""


@dataclass(frozen=True)
class PlayerInfo:
    """Who held a seat: a name, ``"person"`` or ``"computer"``, the computer's level,
    and the id ratings are kept under."""

    name: str
    kind: Actor = "person"
    level: str | None = None
    id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "level": self.level, "id": self.id}

    @classmethod
    def from_dict(cls, data: Any) -> PlayerInfo:
        if not isinstance(data, dict) or not isinstance(data.get("name"), str):
            raise RecordError(f"a player must be a dict with a name, not {data!r}")
        kind = data.get("kind", "person")
        if kind not in ("person", "computer"):
            raise RecordError(f"player kind must be 'person' or 'computer', not {kind!r}")
        level, pid = data.get("level"), data.get("id")
        if level is not None and not isinstance(level, str):
            raise RecordError(f"player level must be a string, not {level!r}")
        if pid is not None and not isinstance(pid, str):
            raise RecordError(f"player id must be a string, not {pid!r}")
        return cls(data["name"], kind, level, pid)


@dataclass(frozen=True)
class RecordedAction:
    """One action of a record: the referee's colour, cell and result, plus who made it and when.

    ``seat`` is the seat that held ``color`` when the action was made;
    ``by`` is ``"computer"`` when the computer made it (for a computer seat or
    for an absent person); ``time`` is seconds after the game started.
    """

    color: Color
    cell: Cell
    result: MoveResult
    seat: SeatName
    by: Actor = "person"
    time: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "color": self.color.name.lower(),
            "cell": self.cell.name,
            "result": self.result.value,
            "seat": self.seat,
            "by": self.by,
            "time": self.time,
        }

    def __str__(self) -> str:
        text = f"{self.color} {self.cell.name}"
        if self.result is MoveResult.HIT:
            text += " hit"
        elif self.result is MoveResult.SWAPPED:
            text = f"{self.color} swap ({self.cell.name})"
        return text + (" (computer)" if self.by == "computer" else "")


def other_seat(seat: SeatName) -> SeatName:
    """The seat that is not ``seat``."""
    return "B" if seat == "A" else "A"


def seconds_or_none(value: Any, what: str) -> float | None:
    """``value`` as a finite number of seconds, or ``None``; RecordError naming ``what`` otherwise."""
    if value is None:
        return None
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise RecordError(f"{what} must be a number of seconds, not {value!r}") from None
    if out != out or out in (float("inf"), float("-inf")):
        raise RecordError(f"{what} must be finite, not {value!r}")
    return out
