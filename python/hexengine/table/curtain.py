"""The curtain: on one device in Dark Hex, the cover over the board at every hand-over.

While the curtain is up the device shows no board; ``seat`` is who lifts it next
(``None`` after a resignation or a time-out: either player may lift it to see
their own final view). While it is down the device shows the view of ``seat``
(``None`` after a connection: the whole board).

>>> import hexengine as hx
>>> curtain = Curtain()
>>> curtain.cover("B")
>>> curtain.info(hx.BLUE, "Bob")["text"]
'Pass the device to Blue (Bob), who lifts the curtain'
>>> curtain.lift("B")
>>> curtain.info(hx.BLUE, "Bob")["text"]
'Blue sees their own board'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..rules import Color
from .errors import TableError
from .messages import color_name
from .settings import SEATS, SeatName

__all__ = ["Curtain"]


@dataclass
class Curtain:
    """Whether the curtain is up, and whose it is (see the module's docstring)."""

    up: bool = False
    seat: SeatName | None = None

    def cover(self, seat: SeatName | None) -> None:
        """Raises the curtain; ``seat`` lifts it next."""
        self.up, self.seat = True, seat

    def lift(self, seat: SeatName | None) -> None:
        """Lowers the curtain to show the view of ``seat``."""
        self.up, self.seat = False, seat

    def lift_for(self, seat: SeatName | None, *, over: bool) -> None:
        """A player lifts the curtain: while the game runs, the one it is for (``seat`` may be
        left out); once it is over, either, naming their ``seat``. TableError otherwise."""
        if not self.up:
            raise TableError("the curtain is already down", "no-curtain")
        if not over:
            if seat is not None and seat != self.seat:
                raise TableError(f"the curtain is for seat {self.seat}, not {seat}", "not-your-turn")
            seat = self.seat
        elif seat not in SEATS:
            raise TableError("the game is over: name the seat whose board to show ('A' or 'B')", "no-seat")
        self.lift(seat)

    def end(self, revealed: bool) -> None:
        """The game is over: the whole board is shown if ``revealed``, else the board stays covered
        until either player lifts the curtain."""
        self.up, self.seat = not revealed, None

    def info(self, color: Color | None, name: str | None) -> dict[str, Any]:
        """The curtain object of the messages; ``color`` and ``name`` are those of ``seat``."""
        if self.up:
            if self.seat is not None:
                text = f"Pass the device to {color} ({name}), who lifts the curtain"
            else:
                text = "The board is covered"
        else:
            text = "The board is shown" if self.seat is None else f"{color} sees their own board"
        return {"up": self.up, "seat": self.seat, "color": color_name(color), "text": text}
