"""Clocks for tables: the real one, and a fake one that tests move by hand.

A table never sleeps and never reads the time itself: it asks its clock. Tests
use :class:`FakeClock` and advance it, so time-outs and grace periods are
scripted exactly.

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
from typing import Protocol, runtime_checkable

from ..errors import HexError

__all__ = ["Clock", "FakeClock", "SystemClock"]


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
