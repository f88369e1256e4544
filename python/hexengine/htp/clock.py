"""GTP time control for the HTP engine: ``time_settings``, ``time_left``, and the time a move may take.

GTP's clock (section 4.2 of the GTP 2 draft) is Canadian byo-yomi: ``main``
seconds of main time, then periods of ``byo_yomi`` seconds in which
``stones`` moves must be made. ``byo_yomi`` 0 is sudden death; ``byo_yomi``
above 0 with ``stones`` 0 means no time limit, and so does all zero.
``time_left COLOR SECONDS STONES`` says what a clock shows (``STONES`` 0:
still in main time). Between two ``time_left`` the engine keeps its own
clock by the time its searches took.

The time for one move: in main time, what is left spread over an eighth of
the empty cells (at least 5 moves), plus half of a byo-yomi stone's share;
in byo-yomi, the period's time over its stones; 90% of that, less 50 ms for
the protocol, and at least 10 ms. A Hex game ends long before its board is
full (11x11 games between strong programs take some 25 moves a side), so an
eighth of the empty cells front-loads the time, as Benzene's MoHex does, and
spends most of the clock: 86% of it over 100 11x11 games against MoHex,
where a quarter of the empty cells (at least 10 moves) had left a third of
it unused (``docs/speed-and-strength.md``, "The same time per game").

>>> clock = GameClock()
>>> clock.settings(60, 0, 0)                   # one minute each, sudden death
>>> round(clock.budget(RED, empty_cells=121), 2)  # 60 s over 16 moves, 90%, less 50 ms
3.33
>>> clock.time_left(RED, 10, 5)                # byo-yomi: 10 s for 5 stones
>>> round(clock.budget(RED, empty_cells=40), 2)
1.75
"""

from __future__ import annotations

import math
from typing import Any

from ..rules import BLUE, RED, Color

__all__ = ["GameClock"]

MIN_MOVES_LEFT = 5
EMPTY_CELLS_PER_MOVE = 8
SAFETY = 0.9
LATENCY = 0.05
MIN_BUDGET = 0.01


class GameClock:
    """Both colours' clocks under GTP time settings (none at first)."""

    def __init__(self) -> None:
        self.main = 0.0
        self.byo_yomi = 0.0
        self.stones = 0
        self.active = False
        self._left: dict[Color, float] = {}
        self._stones_left: dict[Color, int] = {}

    def settings(self, main: float, byo_yomi: float, stones: int) -> None:
        """``time_settings``: both clocks start again."""
        self.main, self.byo_yomi, self.stones = float(main), float(byo_yomi), int(stones)
        self.active = not ((byo_yomi > 0 and stones == 0) or (main == 0 and byo_yomi == 0))
        for color in (RED, BLUE):
            if main > 0 or stones == 0:
                self._left[color], self._stones_left[color] = self.main, 0
            else:
                self._left[color], self._stones_left[color] = self.byo_yomi, self.stones

    def restart(self) -> None:
        """A new game: both clocks show the time settings again (as Benzene's engines do)."""
        self.settings(self.main, self.byo_yomi, self.stones)

    def time_left(self, color: Color, seconds: float, stones: int) -> None:
        """``time_left``: ``color``'s clock shows ``seconds`` (for ``stones`` moves of a
        byo-yomi period; 0 in main time)."""
        self._left[color], self._stones_left[color] = float(seconds), int(stones)

    def left(self, color: Color) -> tuple[float, int]:
        """``(seconds, stones)`` on ``color``'s clock as the engine knows it."""
        return self._left.get(color, self.main), self._stones_left.get(color, 0)

    def budget(self, color: Color, empty_cells: int) -> float | None:
        """The seconds ``color``'s next move may take; ``None`` without a time limit."""
        if not self.active:
            return None
        left, stones = self.left(color)
        if stones > 0:
            share = left / stones
        else:
            share = left / max(MIN_MOVES_LEFT, math.ceil(empty_cells / EMPTY_CELLS_PER_MOVE))
            if self.byo_yomi > 0 and self.stones > 0:
                share += 0.5 * self.byo_yomi / self.stones
        return max(MIN_BUDGET, SAFETY * share - LATENCY)

    def move_budget(
        self, color: Color, empty_cells: int, simulations: int | None = None, seconds: float | None = None
    ) -> dict[str, Any]:
        """A search's budget for ``color``'s next move: the clock's time, capped by the
        ``seconds`` and ``simulations`` a player was given explicitly; ``{}`` (the player's
        own budget) without a time limit.

        >>> clock = GameClock()
        >>> clock.settings(60, 0, 0)
        >>> clock.move_budget(RED, 121, simulations=5000, seconds=1.0)
        {'simulations': 5000, 'seconds': 1.0}
        """
        budget = self.budget(color, empty_cells)
        if budget is None:
            return {}
        return {"simulations": simulations or None, "seconds": min(budget, seconds) if seconds else budget}

    def spend(self, color: Color, seconds: float) -> None:
        """``color`` took ``seconds`` over a move: its clock goes down, into byo-yomi when the
        main time runs out and into a new period when a period's stones are made."""
        if not self.active:
            return
        left, stones = self.left(color)
        left -= seconds
        if stones == 0:
            if left < 0 and self.byo_yomi > 0 and self.stones > 0:
                left, stones = self.byo_yomi + left, self.stones
        else:
            stones -= 1
            if stones == 0 and left >= 0:
                left, stones = self.byo_yomi, self.stones
        self._left[color], self._stones_left[color] = left, stones
