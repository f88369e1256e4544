"""The game under way at a table: the referee, who holds which colour, the table's facts about
each action, the clock of the decision, the curtain (one device, Dark Hex); and the game's record.

The referee knows every hidden stone; what each recipient may know of it is
worked out in :mod:`hexengine.table.messages`.

>>> import hexengine as hx
>>> run = Running.start(hx.Rules("hex", 3, 3, "sides"), number=1, red="B", now=0.0, curtained=False)
>>> run.play("a1", "person", now=2.5)
('B', <Color.RED: 1>, <MoveResult.PLACED: 'placed'>)
>>> run.play("swap", "person", now=4.0)[2], run.colors_dict()
(<MoveResult.SWAPPED: 'swapped'>, {'red': 'A', 'blue': 'B'})
>>> run.meta
[('B', 'person', 2.5), ('A', 'person', 4.0)]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .._moves import MoveLike
from ..game import Game
from ..records import GameRecord, PlayerInfo, RecordedAction
from ..records.model import other_seat
from ..rules import BLUE, RED, Color, MoveResult, Rules
from .clock import TurnClock
from .curtain import Curtain
from .messages import ActionMeta
from .settings import SeatName

__all__ = ["Running"]


@dataclass
class Running:
    """One game of the series, from its start until the next one starts (``record`` is set
    once it is over; ``curtain`` is ``None`` unless the game is played on one device in Dark Hex)."""

    game: Game
    number: int
    red_at_start: SeatName
    colors: dict[Color, SeatName]
    started_at: float
    meta: list[ActionMeta] = field(default_factory=list)
    record: GameRecord | None = None
    clock: TurnClock = field(default_factory=TurnClock)
    curtain: Curtain | None = None
    takeback: SeatName | None = None
    aborted: SeatName | None = None

    @classmethod
    def start(
        cls,
        rules: Rules,
        *,
        number: int,
        red: SeatName,
        now: float,
        curtained: bool,
        main_time: float | None = None,
    ) -> Running:
        """Game ``number`` of the series, with seat ``red`` playing Red; if ``curtained``, the
        curtain is up for Red to lift; with ``main_time`` each seat has that many seconds for
        the game."""
        curtain = Curtain(True, red) if curtained else None
        clock = TurnClock(banks=None if main_time is None else {"A": main_time, "B": main_time})
        colors = {RED: red, BLUE: other_seat(red)}
        return cls(Game(rules), number, red, colors, now, clock=clock, curtain=curtain)

    @property
    def over(self) -> bool:
        """Whether the game has ended: by the rules, or aborted (no result)."""
        return self.game.is_over or self.aborted is not None

    @property
    def seat_to_move(self) -> SeatName | None:
        """The seat whose decision it is, ``None`` once the game is over or aborted."""
        color = self.game.to_move
        return None if color is None or self.aborted is not None else self.colors[color]

    def last_action_of(self, seat: SeatName) -> int | None:
        """The index of ``seat``'s last action in the game, or ``None`` if it has made none."""
        for i in range(len(self.meta) - 1, -1, -1):
            if self.meta[i][0] == seat:
                return i
        return None

    def undo(self, count: int) -> None:
        """Takes back the last ``count`` actions (a ``sides`` swap gives the colours back)."""
        for _ in range(count):
            action = self.game.undo()
            self.meta.pop()
            if action.result is MoveResult.SWAPPED and self.game.rules.swap == "sides":
                self.colors = {RED: self.colors[BLUE], BLUE: self.colors[RED]}

    def color_of(self, seat: SeatName) -> Color:
        """The colour ``seat`` holds now (it changes after a ``sides`` swap)."""
        return RED if self.colors[RED] == seat else BLUE

    def colors_dict(self) -> dict[str, SeatName]:
        return {"red": self.colors[RED], "blue": self.colors[BLUE]}

    @property
    def again(self) -> bool:
        """Whether the player to move moves again because their last action hit a hidden stone
        (classic Dark Hex). Worked out from the game itself, so every announcement of the
        decision (after the curtain, a reconnect, a takeover) says so."""
        if self.game.is_over or not self.meta:
            return False
        last = self.game.history[-1]
        return last.result is MoveResult.HIT and last.color == self.game.to_move

    @property
    def covered(self) -> bool:
        """Whether the curtain is up (no board on the device's screen)."""
        return self.curtain is not None and self.curtain.up

    @property
    def revealed(self) -> bool:
        """Whether every stone is in every view: a Dark Hex game that ended by a connection."""
        return self.game.rules.is_dark and self.game.end_reason == "connection"

    def play(
        self, move: MoveLike, by: Literal["person", "computer"], now: float
    ) -> tuple[SeatName, Color, MoveResult]:
        """Plays ``move`` for the player to move; returns who played (seat and colour) and the result.
        Illegal moves raise :class:`~hexengine.IllegalMove` and change nothing."""
        color = self.game.to_move
        assert color is not None
        seat = self.colors[color]
        result = self.game.play(move)
        self.meta.append((seat, by, round(now - self.started_at, 6)))
        if result is MoveResult.SWAPPED and self.game.rules.swap == "sides":
            self.colors = {RED: self.colors[BLUE], BLUE: self.colors[RED]}
        return seat, color, result

    def cover(self, now: float) -> bool:
        """Raises the curtain; a decision under way keeps its remaining time for the lift.
        Returns whether a clock was running (it stops)."""
        assert self.curtain is not None
        running = self.clock.deadline is not None
        if self.curtain.up or self.over:
            self.clock.stop(now)
        else:
            self.clock.pause(now)
        self.curtain.cover(self.seat_to_move)
        return running

    def make_record(
        self,
        players: dict[SeatName, PlayerInfo | None],
        table_id: str,
        settings: dict[str, Any],
        end_time: float | None = None,
    ) -> GameRecord:
        """The record of the game so far."""
        actions = tuple(
            RecordedAction(a.color, a.cell, a.result, seat, by, t)  # type: ignore[arg-type]
            for a, (seat, by, t) in zip(self.game.history, self.meta, strict=True)
        )
        return GameRecord(
            self.game.rules,
            actions,
            self.game.winner,
            self.game.end_reason,
            players,  # type: ignore[arg-type]
            self.red_at_start,
            self.number,
            end_time,
            self.started_at,
            table_id,
            settings,
        )

    def to_state(self, record: GameRecord) -> dict[str, Any]:
        """The game for the table's state: its ``record`` so far, the clock and the curtain."""
        return {
            "record": record.to_dict(),
            **self.clock.to_state(),
            "curtain_up": self.covered,
            "curtain_seat": None if self.curtain is None else self.curtain.seat,
            "takeback": self.takeback,
            "aborted": self.aborted,
        }

    @classmethod
    def from_state(cls, data: dict[str, Any], now: float, *, curtained: bool) -> Running:
        """The game from :meth:`to_state` output, by replaying its record (``now`` stands in for
        an unknown start time)."""
        record = GameRecord.from_dict(data["record"])
        game = record.game()
        up, seat = bool(data["curtain_up"]), data["curtain_seat"]
        curtain = Curtain(up, seat) if curtained else None
        run = cls(
            game,
            record.number,
            record.red_seat,
            {RED: record.seat_of(RED), BLUE: record.seat_of(BLUE)},
            record.started_at if record.started_at is not None else now,
            [(a.seat, a.by, a.time) for a in record.actions],
            record if record.end_reason is not None else None,
            TurnClock.from_state(data),
            curtain,
        )
        run.takeback = data.get("takeback")
        run.aborted = data.get("aborted")
        return run
