"""Clocks for tables: the real one, a fake one that tests move by hand, and the clock of a decision.

A table never sleeps and never reads the time itself: it asks its clock. Tests
use :class:`FakeClock` and advance it, so time-outs and grace periods are
scripted exactly. A :class:`TurnClock` holds the deadline of the decision under
way, or the time it had left while the board is covered.

>>> import hexengine as hx
>>> clock = hx.FakeClock()
>>> clock.now()
0.0
>>> clock.advance(30)
>>> clock.now()
30.0
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from ..errors import HexError
from ..rules import Color
from .messages import color_name
from .settings import SeatName

__all__ = ["Clock", "FakeClock", "SystemClock", "TurnClock"]


@runtime_checkable
class Clock(Protocol):
    """Anything with ``now()``: seconds as a float that never goes backwards."""

    def now(self) -> float: ...


class SystemClock:
    """Wall-clock time (``time.time()``), so deadlines stored by a server survive a restart."""

    def now(self) -> float:
        return time.time()

    def __repr__(self) -> str:
        return "SystemClock()"


class FakeClock:
    """A clock that moves only when told to: ``advance(seconds)`` or ``set(t)``."""

    __slots__ = ("_now",)

    def __init__(self, start: float = 0.0) -> None:
        self._now = float(start)

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        """Moves the clock ``seconds`` forward."""
        if not math.isfinite(seconds) or seconds < 0:
            raise HexError(f"a clock only moves forward by a finite number of seconds, not {seconds!r}")
        self._now += float(seconds)

    def set(self, t: float) -> None:
        """Moves the clock to time ``t`` (not before the current time)."""
        if not math.isfinite(t) or t < self._now:
            raise HexError(f"cannot set the clock back from {self._now} to {t!r}")
        self._now = float(t)

    def __repr__(self) -> str:
        return f"FakeClock({self._now})"


@dataclass
class TurnClock:
    """The clock of one decision, and each seat's main time.

    ``deadline`` is when the decision under way runs out (clock time), or while the board
    is covered ``paused`` holds the seconds it had left, resumed when the curtain is lifted.
    With main time (``banks``: seconds left per seat) the deadline is the sooner of the
    per-move limit and the bank of the seat whose clock runs (``seat``, since ``started``);
    the time a seat uses is taken from its bank when its decision ends, pauses or stops, and
    :meth:`end_turn` adds the Fischer increment.

    >>> turn = TurnClock()
    >>> turn.start(100.0, 30.0)
    >>> turn.pause(110.0)
    >>> turn.deadline, turn.paused
    (None, 20.0)
    >>> turn.resume(500.0), turn.deadline
    (True, 520.0)
    >>> fischer = TurnClock(banks={"A": 60.0, "B": 60.0})
    >>> fischer.start(0.0, None, "A")
    >>> fischer.deadline
    60.0
    >>> fischer.end_turn(25.0, increment=5.0)
    >>> fischer.banks
    {'A': 40.0, 'B': 60.0}
    """

    deadline: float | None = None
    paused: float | None = None
    banks: dict[str, float] | None = None
    started: float | None = None
    seat: SeatName | None = None

    def start(self, now: float, limit: float | None, seat: SeatName | None = None) -> None:
        """A decision starts at ``now``: ``limit`` seconds per move (``None``: none) and, with
        main time, the bank of ``seat``. Without ``seat`` no main time runs (the computer is
        to move, or the board is covered); without both no clock runs."""
        self.paused = None
        self.seat = seat
        budget = [x for x in (limit, self.bank(seat)) if x is not None]
        if budget:
            self.deadline, self.started = now + min(budget), now
        else:
            self.deadline, self.started = None, None

    def bank(self, seat: SeatName | None) -> float | None:
        """The main time ``seat`` has left (``None`` without main time)."""
        if self.banks is None or seat is None:
            return None
        return self.banks[seat]

    def charge(self, now: float) -> bool:
        """Takes the time used since ``started`` from the running seat's bank; returns whether
        a clock was running."""
        if self.started is None:
            return False
        if self.banks is not None and self.seat is not None:
            self.banks[self.seat] = max(0.0, self.banks[self.seat] - max(0.0, now - self.started))
        self.started = None
        return True

    def end_turn(self, now: float, increment: float) -> None:
        """The running seat moved and its turn passes: its time is charged and, if its clock
        ran, ``increment`` seconds are added to its bank (Fischer)."""
        seat = self.seat
        if self.charge(now) and self.banks is not None and seat is not None:
            self.banks[seat] += increment
        self.stop(now)

    def stop(self, now: float | None = None) -> None:
        """No clock runs any more (the time used so far charged, given ``now``)."""
        if now is not None:
            self.charge(now)
        self.deadline = None
        self.started = None

    def pause(self, now: float) -> None:
        """Stops the clock, keeping the time left of a decision under way."""
        if self.deadline is not None:
            self.paused = max(0.0, self.deadline - now)
        self.charge(now)
        self.deadline = None

    def resume(self, now: float) -> bool:
        """Restarts a paused decision with the time it had left; returns whether there was one."""
        if self.paused is None:
            return False
        self.deadline, self.paused, self.started = now + self.paused, None, now
        return True

    def left(self, now: float) -> dict[str, float] | None:
        """Each seat's main time left at ``now`` (``None`` without main time)."""
        if self.banks is None:
            return None
        left = dict(self.banks)
        if self.started is not None and self.seat is not None:
            left[self.seat] = max(0.0, left[self.seat] - max(0.0, now - self.started))
        return left

    def info(
        self, limit: float | None, now: float, color: Color | None, seat: SeatName | None
    ) -> dict[str, Any]:
        """The clock object of the messages, for the decision of ``color`` (at ``seat``)."""
        return {
            "limit": limit,
            "deadline": self.deadline,
            "remaining": None if self.deadline is None else max(0.0, self.deadline - now),
            "paused": self.paused,
            "color": color_name(color),
            "seat": seat,
            "main_left": self.left(now),
        }

    def to_state(self) -> dict[str, Any]:
        return {
            "deadline": self.deadline,
            "paused": self.paused,
            "banks": self.banks,
            "started": self.started,
            "clock_seat": self.seat,
        }

    @classmethod
    def from_state(cls, data: dict[str, Any]) -> TurnClock:
        banks = data.get("banks")
        return cls(
            data["deadline"],
            data.get("paused"),
            None if banks is None else {str(k): float(v) for k, v in banks.items()},
            data.get("started"),
            data.get("clock_seat"),
        )
