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
    """The clock of one decision: its ``deadline`` (clock time), or while the board is
    covered the seconds it had left (``paused``), resumed when the curtain is lifted.

    >>> turn = TurnClock()
    >>> turn.start(100.0, 30.0)
    >>> turn.pause(110.0)
    >>> turn.deadline, turn.paused
    (None, 20.0)
    >>> turn.resume(500.0), turn.deadline
    (True, 520.0)
    """

    deadline: float | None = None
    paused: float | None = None

    def start(self, now: float, limit: float | None) -> None:
        """A decision of ``limit`` seconds starts at ``now`` (``None``: no clock runs)."""
        self.deadline = None if limit is None else now + limit

    def stop(self) -> None:
        self.deadline = None

    def pause(self, now: float) -> None:
        """Stops the clock, keeping the time left of a decision under way."""
        if self.deadline is not None:
            self.paused = max(0.0, self.deadline - now)
        self.deadline = None

    def resume(self, now: float) -> bool:
        """Restarts a paused decision with the time it had left; returns whether there was one."""
        if self.paused is None:
            return False
        self.deadline, self.paused = now + self.paused, None
        return True

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
        }
