"""The table: two seats, a referee, clocks, a curtain, disconnects, series, ratings and records.

A front end drives one :class:`Table` and forwards each recipient's messages
(``table.poll(recipient)``); it never needs to know a rule. The table asks the
referee (:class:`~hexengine.Game`) for everything the rules decide and builds
each message from the recipient's :class:`~hexengine.View`; it decides what happens, in
which order, and its parts (listed in :mod:`hexengine.table`) keep the state.

>>> import hexengine as hx
>>> clock = hx.FakeClock()
>>> table = hx.Table(hx.TableSettings(variant="hex", size=3, time_limit=30), clock=clock)
>>> ann = table.sit("A", "Ann")
>>> table.sit_computer("B", "easy")
>>> [m["type"] for m in table.poll("A")]
['snapshot', 'seat', 'game_started', 'your_turn']
>>> table.play(ann, "b2")
<MoveResult.PLACED: 'placed'>
>>> [m["type"] for m in table.poll("A")]         # the computer answered at once
['moved', 'turn', 'opponent_moved', 'your_turn']
>>> clock.advance(31); table.tick()              # Ann thinks too long
>>> msg = table.poll("A")[-1]
>>> msg["type"], msg["winner_seat"], msg["reason"]
('game_over', 'B', 'timeout')
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from .._moves import Move, MoveLike
from ..game import Game
from ..records import GameRecord, RecordError
from ..rules import Color, MoveResult, Rules
from .clock import Clock, SystemClock
from .computer import BotFactory, Computers, ComputerTurn, computer_bot
from .curtain import Curtain
from .errors import TableError
from .news import News
from .outbox import Listener, Outbox
from .running import Running
from .seats import Client, Mode, Seats
from .series import Series
from .settings import SEATS, Level, SeatName, TableSettings

__all__ = ["ComputerTurn", "Table", "TableError"]

MAX_QUEUE = 10_000

_T = TypeVar("_T")


def _due_events_first(cls: type[_T]) -> type[_T]:
    """Makes every public method of ``cls`` apply what the clock says is due (time-outs,
    takeovers) before it does anything else, so no call ever acts on, or shows, a state whose
    deadline has passed. Only the outermost call does: a table method called while another
    runs (inside the table, or by a listener reading the table) does not.
    ``to_state`` only reads and is left as it is."""

    def wrap(method: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(method)
        def applying(self: Table, *args: Any, **kwargs: Any) -> Any:
            outermost = self._calls == 0
            self._calls += 1
            try:
                if outermost:
                    self._advance()
                return method(self, *args, **kwargs)
            finally:
                self._calls -= 1

        applying.applies_due_events = True  # type: ignore[attr-defined]
        return applying

    for name, value in list(vars(cls).items()):
        plain_method = callable(value) and not isinstance(value, type)
        if plain_method and not name.startswith("_") and name != "to_state":
            setattr(cls, name, wrap(value))
    return cls


@_due_events_first
class Table:
    """A table for one series of games between seat A and seat B.

    ``Table(settings, clock=..., ratings=..., bots=..., autoplay=True, table_id=..., listener=...)``

    - ``clock``: anything with ``now()`` (default: wall-clock time); tests pass
      a :class:`~hexengine.FakeClock`.
    - ``ratings``: a :class:`~hexengine.Ratings` (needed when ``settings.rated``).
    - ``bots``: ``factory(level, rules) -> bot`` for computer seats and takeovers
      (default :func:`~hexengine.table.computer_bot`).
    - ``autoplay``: computers move inside the call that gives them the turn.
      With ``False`` the front end runs :meth:`computer_turn` (e.g. in a worker)
      and hands the move to :meth:`submit`.
    - ``listener``: called as ``listener(recipient, message)`` for every message
      queued, e.g. to push it over a websocket.

    Seats: :meth:`sit` (a person on their own device; returns a private seat
    token), :meth:`sit_computer`, or :meth:`sit_together` (one device holds both
    seats; hot-seat). The first game starts when both seats are taken.

    A table is not thread-safe: a server serialises the calls to one table
    (one lock, or one task); only :meth:`ComputerTurn.run` may run elsewhere.
    """

    def __init__(
        self,
        settings: TableSettings | None = None,
        *,
        clock: Clock | None = None,
        ratings: Any = None,
        bots: BotFactory | None = None,
        autoplay: bool = True,
        table_id: str | None = None,
        listener: Listener | None = None,
    ) -> None:
        self._settings = settings if settings is not None else TableSettings()
        if not isinstance(self._settings, TableSettings):
            raise TableError(
                f"settings must be a TableSettings, not {type(settings).__name__}", "bad-settings"
            )
        if self._settings.rated and ratings is None:
            raise TableError(
                "a rated table needs a ratings store: Table(..., ratings=hx.Ratings(...))", "no-ratings"
            )
        self._clock: Clock = clock if clock is not None else SystemClock()
        self._computers = Computers(bots if bots is not None else computer_bot, self._settings.takeover_level)
        self._autoplay = autoplay
        self._id = table_id if table_id is not None else secrets.token_hex(8)
        self._seats = Seats(distinct=self._settings.rated)
        self._series = Series(ratings if self._settings.rated else None)
        self._outbox = Outbox(self._id, self._clock, listener, limit=MAX_QUEUE)
        self._outbox.open("spectators")
        self._news = News(self._outbox, self._seats, self._series, self._settings, self._clock)
        self._run: Running | None = None
        self._advancing = False
        self._calls = 0

    # ================================================================ public state

    @property
    def id(self) -> str:
        """The table's id (in every message)."""
        return self._id

    @property
    def settings(self) -> TableSettings:
        return self._settings

    @property
    def clock(self) -> Clock:
        return self._clock

    @property
    def mode(self) -> Mode | None:
        """``"online"``, ``"computer"``, ``"one-device"``, or ``None`` while a seat is empty."""
        return self._seats.mode

    @property
    def recipients(self) -> list[str]:
        """Names of the message streams: ``"A"``, ``"B"``, ``"device"``, ``"spectators"``."""
        return self._news.streams()

    @property
    def referee(self) -> Game | None:
        """The current game's referee, or ``None`` before the first game. It knows every
        hidden stone: never show it, or anything computed from it, to a client."""
        return None if self._run is None else self._run.game

    @property
    def rules(self) -> Rules | None:
        """The rules of the current game (swap is off against the easy computer)."""
        return None if self._run is None else self._run.game.rules

    @property
    def game_number(self) -> int:
        """1 for the first game of the series, 0 before it starts."""
        return 0 if self._run is None else self._run.number

    def seat_of(self, color: Color) -> SeatName | None:
        """The seat that holds ``color`` in the current game (it changes after a ``sides`` swap)."""
        return None if self._run is None else self._run.colors[color]

    def color_of(self, seat: SeatName) -> Color | None:
        """The colour seat ``seat`` plays in the current game."""
        return None if self._run is None else self._run.color_of(seat)

    @property
    def seats(self) -> dict[str, dict[str, Any]]:
        """Public facts about both seats (as in messages)."""
        return self._news.all_seats(self._run)

    @property
    def series(self) -> dict[str, Any]:
        """``{"games": finished games, "wins": {"A": n, "B": m}}``."""
        return self._series.info()

    @property
    def curtain(self) -> dict[str, Any] | None:
        """One device, Dark Hex: ``{"up": bool, "seat": ...}`` (who lifts next while up, who
        sees while down); ``None`` at tables without a curtain."""
        if self._run is None or self._run.curtain is None:
            return None
        return {"up": self._run.curtain.up, "seat": self._run.curtain.seat}

    @property
    def records(self) -> list[GameRecord]:
        """Records of the finished games of the series, in order."""
        return list(self._series.records)

    def record(self) -> GameRecord | None:
        """The record of the current game so far (finished or not)."""
        if self._run is None:
            return None
        return self._run.record or self._make_record()

    @property
    def deadline(self) -> float | None:
        """When the current decision runs out (clock time), or ``None``."""
        return None if self._run is None else self._run.clock.deadline

    def next_event_time(self) -> float | None:
        """The next time :meth:`tick` has something to do (a time-out or a takeover), or ``None``.
        A server can sleep until then."""
        return min((t for t, _ in self._pending_events()), default=None)

    # ================================================================ seating

    def sit(self, seat: SeatName, name: str, *, player_id: str | None = None) -> str:
        """Seats a person at ``seat`` on their own device; returns their private seat token.

        ``player_id`` is the key their rating is kept under (default: the name).
        """
        client, token = self._seats.sit(seat, name, player_id)
        self._outbox.open(client.recipient)
        self._after_seating((seat,), client)
        return token

    def sit_together(
        self, name_a: str, name_b: str, *, ids: tuple[str | None, str | None] = (None, None)
    ) -> str:
        """Seats two people on one device (hot-seat); returns the device's token.

        In Dark Hex the device gets a curtain at every hand-over (see :meth:`lift_curtain`).
        """
        client, token = self._seats.sit_together(name_a, name_b, ids)
        self._outbox.open(client.recipient)
        self._after_seating(SEATS, client)
        return token

    def sit_computer(self, seat: SeatName, level: Level = "medium") -> None:
        """Seats the computer at ``seat`` with a level (``"easy"`` plays with swap off)."""
        self._seats.sit_computer(seat, level)
        self._after_seating((seat,), None)

    def spectate(self) -> dict[str, Any]:
        """A snapshot for a spectator joining now; later news arrives on the ``"spectators"`` stream."""
        return self._news.snapshot(self._run, "spectators", "join")

    # ================================================================ messages

    def poll(self, recipient: str) -> list[dict[str, Any]]:
        """Takes the messages queued for ``recipient`` (``"A"``, ``"B"``, ``"device"``,
        ``"spectators"``), oldest first. Only the trusted server calls this: route each
        stream to the client holding that seat's token. At most 10,000 unread messages
        are kept per stream; a gap in ``seq`` means ask for a :meth:`snapshot`."""
        self._news.check(recipient)
        return self._outbox.poll(recipient)

    def snapshot(self, recipient: str) -> dict[str, Any]:
        """The full state as ``recipient`` may know it now (not queued; its ``seq`` is the
        last one sent to that recipient)."""
        self._news.check(recipient)
        return self._news.snapshot(self._run, recipient, "request")

    def request_replay(self, recipient: str, number: int | None = None) -> dict[str, Any]:
        """Queues (and returns) a ``replay`` message: the full record of finished game
        ``number`` (default: the last finished one) with the true board after every
        action, whatever the end reason. Only finished games have a replay."""
        self._news.check(recipient)
        record = self._series.finished(number)
        return self._news.replay(self._run, recipient, record.number if number is None else number, record)

    # ================================================================ actions

    def play(self, token: str, move: MoveLike, *, ply: int | None = None) -> MoveResult:
        """Plays ``move`` for the seat of ``token`` whose turn it is.

        ``ply``, if given, must be the number of actions so far (every view's
        ``len(history)``); a mismatch raises TableError ``stale`` (a duplicate or a
        move sent for an old position). Illegal moves raise
        :class:`~hexengine.IllegalMove` and change nothing.
        """
        client = self._seats.auth(token)
        run = self._running()
        if run.seat_to_move not in client.seats:
            raise TableError(f"it is {run.game.to_move}'s turn, not yours", "not-your-turn")
        if run.covered:
            raise TableError("lift the curtain first: the next player must see their own board", "curtain-up")
        if ply is not None and ply != len(run.meta):
            raise TableError(
                f"move sent for action {ply}, but {len(run.meta)} actions have been played", "stale"
            )
        result = self._apply(move, "person")
        self._autoplay_computers()
        return result

    def resign(self, token: str, seat: SeatName | None = None) -> None:
        """The seat of ``token`` resigns (at any time, also out of turn); the opponent wins.

        A device holding both seats names the seat, or resigns for the player to move.
        """
        run = self._running()
        seat = _acting_seat(self._seats.auth(token), run, seat, "to resign")
        run.game.resign(run.color_of(seat))  # type: ignore[arg-type]
        self._finish()

    def lift_curtain(self, token: str, seat: SeatName | None = None) -> dict[str, Any]:
        """One device, Dark Hex: the next player lifts the curtain and sees their own view.

        Returns (and queues) the snapshot for the device. After a resignation or
        time-out the device names whose view to show.
        """
        client = self._seats.auth(token)
        run, curtain = self._curtained(client)
        curtain.lift_for(seat, over=run.over)
        self._news.curtain(run)
        snap = self._news.snapshot(run, client.recipient, "curtain-lifted", queue=True)
        if not run.over:
            if run.clock.resume(self._clock.now()):
                self._news.turn(run)
            else:
                self._new_decision()
        return snap

    def raise_curtain(self, token: str) -> None:
        """One device, Dark Hex: covers the board again (e.g. before passing the device on)."""
        client = self._seats.auth(token)
        run, curtain = self._curtained(client)
        if curtain.up:
            raise TableError("the curtain is already up", "curtain-up")
        if run.revealed:
            raise TableError("the whole board is revealed; there is nothing to cover", "no-curtain")
        paused = run.cover(self._clock.now())
        self._news.curtain(run)
        if paused:
            self._news.clock(run)

    def rematch(self, token: str | None = None) -> bool:
        """Asks for the next game of the series; it starts when both seats asked
        (computer seats always agree). Returns whether it started.

        Seats stay; Red alternates as set; the series score is kept. A table
        with two computer seats takes ``rematch()`` without a token.
        """
        if self._run is None:
            raise TableError("no game has been played yet", "no-game")
        if not self._run.over:
            raise TableError("the current game is still running", "game-running")
        if self._series.ask(self._seats.asking(token), self._seats.players):
            self._start_game()
            self._autoplay_computers()
            return True
        self._news.broadcast(self._run, "rematch", {"ready": dict(self._series.ready)})
        return False

    # ================================================================ takebacks and aborts

    def ask_takeback(self, token: str) -> bool:
        """Asks to take back the asker's last action (and the opponent's reply after it, if any).
        Hex and Rex only. The opponent answers with :meth:`answer_takeback`; a computer seat
        accepts at once at an unrated table and declines at a rated one; a device holding both
        seats takes the last action back at once. Any action played before the answer lets the
        request lapse. Returns whether the actions were taken back.

        In Dark Hex there are no takebacks (TableError ``no-takeback``): a player keeps what a
        taken-back action showed them (a found stone, a hit received), so the game could not
        go on from the earlier position without either player knowing more than the rules
        allow there.
        """
        client = self._seats.auth(token)
        run = self._running()
        if run.game.rules.is_dark:
            raise TableError(
                "Dark Hex has no takebacks: what a taken-back move showed a player cannot be unseen",
                "no-takeback",
            )
        if run.takeback is not None:
            raise TableError(f"seat {run.takeback} has already asked for a takeback", "takeback-pending")
        if len(client.seats) == 2:
            if not run.meta:
                raise TableError("there is no move to take back yet", "no-takeback")
            self._take_back(run, run.meta[-1][0], 1)  # type: ignore[arg-type]
            return True
        seat = client.seats[0]
        if run.last_action_of(seat) is None:
            raise TableError("you have made no move to take back yet", "no-takeback")
        run.takeback = seat
        self._news.takeback(run, "asked", seat)
        other = "B" if seat == "A" else "A"
        if self._seats.computer_plays(other):  # type: ignore[arg-type]
            person_away = self._seats.player(other).kind == "person"  # type: ignore[arg-type, union-attr]
            accept = not (self._settings.rated or person_away)
            self._answer(run, accept=accept)
            return accept
        return False

    def answer_takeback(self, token: str, accept: bool) -> None:
        """The opponent of the asker accepts (the actions are taken back) or declines the
        pending takeback; the asker may withdraw it (``accept=False``)."""
        if not isinstance(accept, bool):
            raise TableError(f"accept must be True or False, not {accept!r}", "bad-request")
        client = self._seats.auth(token)
        run = self._running()
        asker = run.takeback
        if asker is None:
            raise TableError("no takeback has been asked", "no-takeback")
        if asker in client.seats:
            if accept:
                raise TableError("the opponent answers a takeback, not the one who asked", "not-your-turn")
            run.takeback = None
            self._news.takeback(run, "withdrawn", asker)
            return
        self._answer(run, accept=accept)

    def abort(self, token: str, seat: SeatName | None = None) -> None:
        """Ends the game with no result before its second action (unrated, not in the series'
        records or score). Either seat may abort; a device names the seat or speaks for the
        player to move."""
        run = self._running()
        seat = _acting_seat(self._seats.auth(token), run, seat, "to abort")
        if len(run.meta) >= 2:
            raise TableError(
                "a game can be aborted only before its second move; resign instead", "game-running"
            )
        run.aborted = seat
        run.takeback = None
        run.clock.stop(self._clock.now())
        if run.curtain is not None:
            run.curtain.end(revealed=False)
        self._news.aborted(run, seat)

    # ================================================================ leaving and returning

    def disconnect(self, token: str) -> None:
        """The client holding ``token`` left. After ``settings.grace`` seconds the
        computer plays its seat(s), from their own view only, until it returns."""
        client = self._seats.auth(token, allow_absent=True)
        if not client.connected:
            return
        client.leave(self._clock.now())
        self._outbox.open(client.recipient)
        self._news.seats(self._run, client.seats)
        self._advance()
        self._autoplay_computers()

    def reconnect(self, token: str) -> dict[str, Any]:
        """The client holding ``token`` is back: its seat(s) return to it, and it gets (queued,
        and returned) a full snapshot of what it may know."""
        client = self._seats.auth(token, allow_absent=True)
        was_taken = client.come_back()
        self._computers.forget(client.seats)
        self._outbox.open(client.recipient)
        run = self._run
        curtained = run is not None and run.curtain is not None and not run.revealed
        if curtained and run.cover(self._clock.now()):  # type: ignore[union-attr]
            self._news.clock(run)  # type: ignore[arg-type]
        snap = self._news.snapshot(run, client.recipient, "reconnect", queue=True)
        self._news.seats(run, client.seats, skip=client.recipient)
        if run is not None and run.seat_to_move in client.seats:
            if was_taken:
                self._new_decision()
            else:
                self._news.turn(run, only=None if curtained else client.recipient)
        return snap

    def rotate_token(self, token: str) -> str:
        """Replaces ``token`` by a fresh one (the old one stops working) and returns it."""
        return self._seats.rotate(token)

    # ================================================================ time and computers

    def tick(self) -> None:
        """Applies what the clock says is due: time-outs and computer takeovers.
        Front ends call it now and then (or at :meth:`next_event_time`)."""
        self._autoplay_computers()

    def computer_turn(self) -> ComputerTurn | None:
        """The computer's pending decision (a computer seat, or a person's seat the
        computer plays while they are away), or ``None``."""
        return self._computers.turn(self._id, self._run, self._seats)

    def submit(self, turn: ComputerTurn, move: Move) -> MoveResult:
        """Plays ``move``, chosen by ``turn.run()``, if ``turn`` is still the pending decision
        (else TableError ``stale``)."""
        if not self._computers.pending(turn, self._id, self._run, self._seats):
            raise TableError("this computer decision is no longer pending", "stale")
        result = self._apply(move, "computer")
        self._autoplay_computers()
        return result

    def play_computers(self) -> None:
        """Plays every pending computer decision now (what ``autoplay`` does by itself)."""
        while (turn := self.computer_turn()) is not None:
            self._computers.play(turn, lambda move: self._apply(move, "computer"))

    # ================================================================ saving and restoring

    def to_state(self) -> dict[str, Any]:
        """Everything needed to rebuild this table after a restart, as a JSON-ready dict.

        Seat tokens are kept only as SHA-256 digests; queued messages are not
        kept (clients get a snapshot when they reconnect). Deadlines are clock
        times, so with the wall clock the same deadlines hold after a restart.
        """
        run = self._run
        return {
            "format": "hexengine.table",
            "version": 1,
            "id": self._id,
            "settings": self._settings.to_dict(),
            **self._seats.to_state(self._series.ready),
            "seq": self._outbox.to_state(),
            **self._series.to_state(),
            "run": None if run is None else run.to_state(run.record or self._make_record()),
        }

    @classmethod
    def from_state(
        cls,
        state: dict[str, Any],
        *,
        clock: Clock | None = None,
        ratings: Any = None,
        bots: BotFactory | None = None,
        autoplay: bool = True,
        listener: Listener | None = None,
        absent: bool = False,
    ) -> Table:
        """Rebuilds a table from :meth:`to_state` output (the game by replaying its record).

        ``absent=True`` marks every client absent from now on (after a server
        restart their connections are gone; each gets its seat back with
        :meth:`reconnect`, or the computer after the grace period).
        """
        try:
            if state.get("format") != "hexengine.table" or state.get("version") != 1:
                raise RecordError("not a hexengine table state (format hexengine.table, version 1)")
            table = cls(
                TableSettings.from_dict(state["settings"]),
                clock=clock,
                ratings=ratings,
                bots=bots,
                autoplay=autoplay,
                table_id=state["id"],
                listener=listener,
            )
            table._seats.restore(state)
            table._series.restore(state)
            table._outbox.restore(state["seq"], table.recipients)
            if state["run"] is not None:
                curtained = table._has_curtain()
                table._run = Running.from_state(state["run"], table._clock.now(), curtained=curtained)
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise RecordError(f"cannot rebuild the table from this state: {e!r}") from None
        if absent:
            table._seats.leave_all(table._clock.now())
        return table

    # ================================================================ internals: seating

    def _after_seating(self, seats: tuple[SeatName, ...], client: Client | None) -> None:
        if client is not None:
            self._news.snapshot(self._run, client.recipient, "join", queue=True)
        self._news.seats(self._run, seats, skip=None if client is None else client.recipient)
        if self._run is None and self._seats.full:
            self._start_game()
            self._autoplay_computers()

    def _has_curtain(self) -> bool:
        """One device in Dark Hex: every game has a curtain."""
        return self.mode == "one-device" and self._settings.rules.is_dark

    def _curtained(self, client: Client) -> tuple[Running, Curtain]:
        run = self._run
        if run is None or client.recipient != "device" or run.curtain is None:
            raise TableError(
                "only a device holding both seats of a Dark Hex table has a curtain", "no-curtain"
            )
        return run, run.curtain

    def _running(self) -> Running:
        if self._run is None:
            raise TableError("the game has not started: both seats must be taken", "no-game")
        if self._run.aborted is not None:
            raise TableError("the game was aborted", "game-over")
        if self._run.game.is_over:
            raise TableError(f"the game is over ({self._run.game.status()})", "game-over")
        return self._run

    # ================================================================ internals: the game

    def _start_game(self) -> None:
        number = 1 if self._run is None else self._run.number + 1
        easy = any(self._seats.player(s).level == "easy" for s in SEATS)  # type: ignore[union-attr]
        rules = self._settings.game_rules(easy_computer=easy)
        red, now = self._settings.red_seat(number), self._clock.now()
        run = self._run = Running.start(
            rules,
            number=number,
            red=red,
            now=now,
            curtained=self._has_curtain(),
            main_time=self._settings.main_time,
        )
        self._computers.forget(SEATS)
        self._series.new_game()
        self._news.game_started(run)
        if run.curtain is not None:
            self._news.curtain(run)
        self._new_decision()

    def _apply(self, move: MoveLike, by: Literal["person", "computer"]) -> MoveResult:
        run = self._run
        assert run is not None
        seat, color, result = run.play(move, by, self._clock.now())
        self._news.action(run, seat, color, result, by)
        if run.takeback is not None:
            asker, run.takeback = run.takeback, None
            self._news.takeback(run, "lapsed", asker)
        if run.game.is_over:
            self._finish()
            return result
        next_seat = run.seat_to_move
        if next_seat != seat:
            run.clock.end_turn(self._clock.now(), self._settings.increment)
        else:
            run.clock.stop(self._clock.now())
        run.clock.paused = None
        if run.curtain is not None and next_seat != seat:
            run.curtain.cover(next_seat)
            self._news.curtain(run)
        self._new_decision()
        return result

    def _finish(self) -> None:
        run = self._run
        assert run is not None and run.game.is_over
        run.clock.stop(self._clock.now())
        run.record = self._make_record(end_time=round(self._clock.now() - run.started_at, 6))
        self._series.add(run.record)
        if run.curtain is not None:
            run.curtain.end(run.revealed)
        self._news.game_over(run)
        rated = self._series.rate(run.record, self._seats.players, self._clock.now())
        if rated is not None:
            self._news.broadcast(run, "ratings", rated)

    def _answer(self, run: Running, *, accept: bool) -> None:
        asker = run.takeback
        assert asker is not None
        run.takeback = None
        if not accept:
            self._news.takeback(run, "declined", asker)
            return
        first = run.last_action_of(asker)
        assert first is not None
        self._take_back(run, asker, len(run.meta) - first)

    def _take_back(self, run: Running, asker: SeatName, count: int) -> None:
        """Takes back the last ``count`` actions; everyone gets the new position as a snapshot."""
        run.clock.stop(self._clock.now())
        run.undo(count)
        self._news.takeback(run, "accepted", asker, undone=count)
        for r in self._news.listening():
            self._news.snapshot(run, r, "takeback", queue=True)
        self._new_decision()
        self._autoplay_computers()

    def _make_record(self, end_time: float | None = None) -> GameRecord:
        assert self._run is not None
        return self._run.make_record(self._seats.players, self._id, self._settings.to_dict(), end_time)

    def _new_decision(self) -> None:
        run = self._run
        assert run is not None
        if run.game.is_over:
            run.clock.stop(self._clock.now())
            return
        seat = run.seat_to_move
        assert seat is not None
        if run.covered or self._seats.computer_plays(seat):
            run.clock.start(self._clock.now(), None)
        else:
            run.clock.start(self._clock.now(), self._settings.move_limit, seat)
        self._news.turn(run)

    def _autoplay_computers(self) -> None:
        if self._autoplay:
            self.play_computers()

    # ================================================================ internals: time

    def _pending_events(self) -> list[tuple[float, Client | None]]:
        """Due times: the deadline (``None``) and each absent client's takeover."""
        deadline = None if self._run is None or self._run.over else self._run.clock.deadline
        timeout: list[tuple[float, Client | None]] = [] if deadline is None else [(deadline, None)]
        if self._settings.correspondence:
            return timeout
        return timeout + self._seats.takeovers(self._settings.grace)

    def _advance(self) -> None:
        """Applies the due events in time order (once: a call it makes does not start it again)."""
        if self._advancing:
            return
        self._advancing = True
        try:
            self._apply_due(self._clock.now())
        finally:
            self._advancing = False

    def _apply_due(self, now: float) -> None:
        while True:
            due = [e for e in self._pending_events() if e[0] <= now]
            if not due:
                return
            _, what = min(due, key=lambda e: e[0])
            run = self._run
            if what is None:
                assert run is not None
                run.game.timeout(run.game.to_move)  # type: ignore[arg-type]
                self._finish()
            else:
                what.taken_over = True
                self._news.seats(run, what.seats)
                if run is not None and run.seat_to_move in what.seats:
                    if run.clock.deadline is not None:
                        run.clock.stop(now)
                        self._news.clock(run)
                    self._autoplay_computers()

    def __repr__(self) -> str:
        state = "waiting for players" if self._run is None else self._run.game.status()
        variant = self._settings.rules.variant
        return f"<Table {self._id} {variant} {self.mode or ''}: game {self.game_number}, {state}>"


def _acting_seat(client: Client, run: Running, seat: SeatName | None, what: str) -> SeatName:
    """The seat ``client`` acts for: the one named, its only seat, or on a device holding
    both seats the player to move; TableError when the named seat is not the client's."""
    if seat is None:
        seat = client.seats[0] if len(client.seats) == 1 else run.seat_to_move  # type: ignore[assignment]
    if seat not in client.seats:
        raise TableError(f"seat {seat!r} is not yours {what}", "not-your-turn")
    return seat  # type: ignore[return-value]
