"""News: who at the table is told what, and when.

For each event (a game starts, an action, a new decision, the clock stops, the
curtain moves, a seat changes, a game ends) :class:`News` builds every connected
recipient's message from what that recipient may know (their
:class:`~hexengine.table.messages.Perspective`) and queues it in the
:class:`~hexengine.table.outbox.Outbox`, in the order the protocol promises:
the clients in the order they sat, then the spectators. It also makes the
snapshots. The payloads themselves are shaped in :mod:`hexengine.table.messages`.
"""

from __future__ import annotations

from typing import Any

from ..records import GameRecord
from ..rules import Color, MoveResult
from . import messages
from .clock import Clock
from .errors import TableError
from .messages import Perspective, color_name
from .outbox import Outbox
from .running import Running
from .seats import Seats
from .series import Series
from .settings import SEATS, SeatName, TableSettings

__all__ = ["News"]


class News:
    """The telling side of one table: its outbox, and what it needs to know to address and
    fill each message (the seats, the series, the settings and the clock). Every method takes
    the game under way (``None`` before the first game)."""

    def __init__(
        self, outbox: Outbox, seats: Seats, series: Series, settings: TableSettings, clock: Clock
    ) -> None:
        self._outbox = outbox
        self._seats = seats
        self._series = series
        self._settings = settings
        self._clock = clock

    # ---------------------------------------------------------------- streams

    def streams(self) -> list[str]:
        """Every message stream: each client's, then the spectators'."""
        return [c.recipient for c in self._seats.clients] + ["spectators"]

    def listening(self) -> list[str]:
        """The streams that receive news now: each connected client's, then the spectators'."""
        return [c.recipient for c in self._seats.clients if c.connected] + ["spectators"]

    def check(self, recipient: str) -> None:
        """TableError ``no-seat`` unless ``recipient`` names a stream."""
        if recipient not in self._outbox:
            raise TableError(
                f"no message stream {recipient!r}; streams: {', '.join(self.streams())}", "no-seat"
            )

    def send(self, run: Running | None, recipient: str, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        """Queues (and returns) one message."""
        return self._outbox.send(recipient, kind, payload, game=0 if run is None else run.number)

    def broadcast(self, run: Running | None, kind: str, payload: dict[str, Any]) -> None:
        """The same news for everyone listening."""
        for r in self.listening():
            self.send(run, r, kind, payload)

    # ---------------------------------------------------------------- events

    def game_started(self, run: Running) -> None:
        for r in self.listening():
            self.send(run, r, "game_started", {"state": self.state(run, messages.perspective(r, run))})

    def action(self, run: Running, seat: SeatName, color: Color, result: MoveResult, by: str) -> None:
        """The last action, made by ``seat`` (``color``), as each recipient knows it."""
        again = run.again
        for r in self.listening():
            p = messages.perspective(r, run)
            self.send(run, r, *messages.action(p, run, seat, color, result, by, again))

    def turn(self, run: Running, *, only: str | None = None) -> None:
        """A decision starts (``your_turn`` for whoever makes it, ``turn`` for the others);
        ``only`` tells one recipient alone. ``again`` comes from the game (:attr:`Running.again`)."""
        again = run.again
        color = run.game.to_move
        assert color is not None
        seat = run.colors[color]
        clock = self.clock_info(run)
        for r in self.listening():
            if only is not None and r != only:
                continue
            p = messages.perspective(r, run)
            self.send(run, r, *messages.turn(p, color, seat, again, clock, self._decides(run, p)))

    def clock(self, run: Running) -> None:
        """The clock stopped without a new decision."""
        self.broadcast(run, "clock", {"clock": self.clock_info(run)})

    def curtain(self, run: Running) -> None:
        self.broadcast(run, "curtain", self.curtain_info(run))

    def seats(
        self, run: Running | None, seats: tuple[SeatName, ...] | list[SeatName], skip: str | None = None
    ) -> None:
        """Someone sat, left, came back, or the computer took over: the ``seats`` objects to
        everyone listening but ``skip``."""
        for r in self.listening():
            if r == skip:
                continue
            for s in seats:
                self.send(run, r, "seat", {"seat": s, **self.seat_info(run, s)})

    def game_over(self, run: Running) -> None:
        """The end, and after a connection in Dark Hex every stone."""
        for r in self.listening():
            p = messages.perspective(r, run)
            self.send(run, r, "game_over", messages.game_over(p, run, self._series.info()))
            if run.revealed:
                self.send(run, r, "reveal", messages.reveal(p, run))

    def takeback(self, run: Running, state: str, seat: SeatName, *, undone: int = 0) -> None:
        """A takeback asked by ``seat`` was ``asked``, ``accepted`` (``undone`` actions taken
        back), ``declined``, ``withdrawn``, or ``lapsed`` (an action was played first)."""
        name = self._seats.player(seat).name  # type: ignore[union-attr]
        text = {
            "asked": f"{name} asks to take back their last move",
            "accepted": f"Taken back: the last {undone} move{'s' if undone != 1 else ''}",
            "declined": f"The takeback {name} asked for was declined",
            "withdrawn": f"{name} withdrew their takeback request",
            "lapsed": f"The takeback {name} asked for lapsed: a move was played",
        }[state]
        self.broadcast(run, "takeback", {"state": state, "seat": seat, "undone": undone, "text": text})

    def aborted(self, run: Running, seat: SeatName) -> None:
        """``seat`` aborted the game before its second action: no result."""
        name = self._seats.player(seat).name  # type: ignore[union-attr]
        self.broadcast(
            run, "aborted", {"seat": seat, "text": f"{name} aborted the game: no result, not rated"}
        )

    def replay(self, run: Running | None, recipient: str, number: int, record: GameRecord) -> dict[str, Any]:
        return self.send(run, recipient, "replay", messages.replay(number, record))

    # ---------------------------------------------------------------- snapshots

    def snapshot(
        self, run: Running | None, recipient: str, reason: str, *, queue: bool = False
    ) -> dict[str, Any]:
        """The whole state as ``recipient`` may know it now. Queued (as their next message) if
        ``queue``; else it carries the ``seq`` of the last message sent to them."""
        if queue:
            return self._outbox.push(recipient, lambda seq: self._snapshot(run, recipient, reason, seq))
        return self._snapshot(run, recipient, reason, self._outbox.last_seq(recipient))

    def _snapshot(self, run: Running | None, recipient: str, reason: str, seq: int) -> dict[str, Any]:
        message = self._outbox.envelope(recipient, "snapshot", seq, 0 if run is None else run.number)
        you = None
        client = self._seats.client(recipient)
        if client is not None:
            you = {"seats": list(client.seats)}
        state = None
        curtain = None
        if run is not None:
            p = messages.perspective(recipient, run)
            state = self.state(run, p)
            if you is not None:
                you["seat"] = p.seat
                you["color"] = None if p.seat is None else color_name(run.color_of(p.seat))
            curtain = None if run.curtain is None else self.curtain_info(run)
        message.update(
            {
                "reason": reason,
                "settings": self._settings.to_dict(),
                "mode": self._seats.mode,
                "seats": self.all_seats(run),
                "you": you,
                "series": self._series.info(),
                "curtain": curtain,
                "state": state,
            }
        )
        return message

    # ---------------------------------------------------------------- objects

    def state(self, run: Running, p: Perspective) -> dict[str, Any]:
        """The state object for ``p``."""
        return messages.game_state(p, run, self.clock_info(run), self._decides(run, p))

    def clock_info(self, run: Running) -> dict[str, Any]:
        settings = self._settings
        return {
            **run.clock.info(settings.move_limit, self._clock.now(), run.game.to_move, run.seat_to_move),
            "main_time": settings.main_time,
            "increment": settings.increment,
            "days_per_move": settings.days_per_move,
        }

    def curtain_info(self, run: Running) -> dict[str, Any]:
        curtain = run.curtain
        assert curtain is not None
        if curtain.seat is None:
            return curtain.info(None, None)
        return curtain.info(run.color_of(curtain.seat), self._seats.player(curtain.seat).name)  # type: ignore[union-attr]

    def seat_info(self, run: Running | None, seat: SeatName) -> dict[str, Any]:
        return self._seats.info(seat, None if run is None else run.color_of(seat))

    def all_seats(self, run: Running | None) -> dict[str, dict[str, Any]]:
        return {s: self.seat_info(run, s) for s in SEATS}

    def _decides(self, run: Running, p: Perspective) -> bool:
        """Whether the recipient of ``p`` makes the pending decision now (and so sees its moves)."""
        seat = run.seat_to_move
        return seat is not None and p.seat == seat and p.shows_board and not self._seats.computer_plays(seat)
