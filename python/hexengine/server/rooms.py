"""Rooms: one :class:`~hexengine.Table` each, its websockets, its timer and its computer.

A :class:`Room` serialises every call to its table under one ``asyncio.Lock``,
commits the table's state to the database after each change and only then
acknowledges the request and forwards the messages the table queued for each
recipient, each to the socket that holds that recipient's seat (or to every
spectator). The table decides everything; a room only routes, stores and
schedules: the timer wakes at ``table.next_event_time()``, and a computer's
decision (``table.computer_turn()``) runs in a worker thread and comes back
through ``table.submit``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..bots import RandomBot
from ..errors import HexError, IllegalMove
from ..table import (
    BotFactory,
    Clock,
    PlayerRating,
    Ratings,
    SystemClock,
    Table,
    TableError,
    TableSettings,
)
from .db import Database

__all__ = ["Connection", "Hub", "Room", "ServerError"]

log = logging.getLogger("hexengine.server")

PROTOCOL = 1
MAX_ACKS = 64
MAX_OUTBOX = 5_000
TOKEN_GRACE = 300.0
SETTING_KEYS = (
    "variant",
    "size",
    "rows",
    "cols",
    "swap",
    "first",
    "alternate",
    "time_limit",
    "grace",
    "rated",
)


class ServerError(HexError):
    """A request the server refuses before it reaches a table; ``code`` and ``status`` say why."""

    def __init__(self, message: str, code: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


class Connection:
    """One websocket: an outgoing queue drained by its own task, so a slow client never
    holds up a room (past MAX_OUTBOX unsent frames it is closed; it reconnects for a snapshot)."""

    def __init__(self, send_text: Callable[[str], Any], close: Callable[[int, str], Any]) -> None:
        self._send_text = send_text
        self._close = close
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._writer = asyncio.get_running_loop().create_task(self._write())
        self.recipient: str | None = None
        self.token: str | None = None
        self.closed = False

    def send(self, frame: dict[str, Any] | str) -> None:
        if self.closed:
            return
        if self._queue.qsize() >= MAX_OUTBOX:
            self.close(4008, "too many unread messages: reconnect for a snapshot")
            return
        self._queue.put_nowait(frame if isinstance(frame, str) else json.dumps(frame))

    def close(self, code: int = 1000, reason: str = "") -> None:
        if not self.closed:
            self.closed = True
            self._queue.put_nowait(None)
            self._close_args = (code, reason)

    async def _write(self) -> None:
        try:
            while (text := await self._queue.get()) is not None:
                await self._send_text(text)
            code, reason = getattr(self, "_close_args", (1000, ""))
            await self._close(code, reason)
        except Exception:  # the peer went away; the receive loop notices and detaches
            self.closed = True

    async def drain(self) -> None:
        """Waits until every queued frame is written (tests and shutdown)."""
        self.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._writer, 5)


class _RoomRatings:
    """A rating store for one room: reads the hub's in-memory ratings; a ``put`` updates them
    and waits in the room for its next commit, which writes it in the same transaction."""

    def __init__(self, hub: Hub, room: Room) -> None:
        self._hub, self._room = hub, room

    def get(self, player_id: str) -> PlayerRating | None:
        return self._hub.ratings_cache.get(player_id)

    def put(self, ratings: list[PlayerRating]) -> None:
        for r in ratings:
            self._hub.ratings_cache[r.id] = r
        self._room.pending_ratings.extend(ratings)

    def leaderboard(self, limit: int, kind: str | None) -> list[PlayerRating]:
        rows = [r for r in self._hub.ratings_cache.values() if kind is None or r.kind == kind]
        rows.sort(key=lambda r: (-r.rating, r.id))
        return rows[:limit]


@dataclass
class _Meta:
    invite: str | None = None
    created: float = field(default_factory=time.time)
    acks: dict[str, OrderedDict[str, dict[str, Any]]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "invite": self.invite,
            "created": self.created,
            "acks": {r: list(a.items()) for r, a in self.acks.items()},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> _Meta:
        meta = cls(data.get("invite"), float(data.get("created", time.time())))
        meta.acks = {r: OrderedDict((k, v) for k, v in items) for r, items in data.get("acks", {}).items()}
        return meta


class Room:
    """One table with its sockets. Every public coroutine takes the room's lock."""

    def __init__(self, hub: Hub, table_id: str, meta: _Meta) -> None:
        self.hub = hub
        self.id = table_id
        self.meta = meta
        self.lock = asyncio.Lock()
        self.sockets: dict[str, Connection] = {}
        self.spectators: set[Connection] = set()
        self.pending_ratings: list[PlayerRating] = []
        self.previous_tokens: dict[bytes, tuple[str, float]] = {}
        self.table: Table = None  # type: ignore[assignment]
        self._timer: asyncio.TimerHandle | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self._dirty = False
        self.closed = False

    # ---------------------------------------------------------------- building

    def table_kwargs(self) -> dict[str, Any]:
        return {
            "clock": self.hub.clock,
            "ratings": Ratings(_RoomRatings(self.hub, self), model=self.hub.rating_model),
            "bots": self.hub.bots,
            "autoplay": False,
            "listener": self._on_message,
        }

    def _on_message(self, recipient: str, message: dict[str, Any]) -> None:
        self._dirty = True

    @property
    def active(self) -> bool:
        """Waiting for a player, or a game under way."""
        referee = self.table.referee
        return referee is None or not referee.is_over

    # ---------------------------------------------------------------- committing and routing

    async def commit(self) -> None:
        """Writes the table's state (and pending ratings) to the database; on failure the room
        is dropped, every socket closed, and the next visitor reloads the last committed state."""
        ratings, self.pending_ratings = self.pending_ratings, []
        try:
            await self.hub.db.save(self.id, self.table.to_state(), self.meta.to_dict(), self.active, ratings)
        except Exception as e:
            log.exception("table %s: could not commit; reloading it from the database", self.id)
            self.hub.drop(self)
            for conn in [*self.sockets.values(), *self.spectators]:
                conn.close(1011, "the server could not save the game; reconnecting")
            raise ServerError(f"the server could not save the game ({e})", "storage", 503) from None
        self._dirty = False

    def flush(self) -> None:
        """Forwards every queued message to the socket(s) of its recipient."""
        for recipient in self.table.recipients:
            messages = self.table.poll(recipient)
            if not messages:
                continue
            if recipient == "spectators":
                frames = [json.dumps(m) for m in messages]
                for conn in list(self.spectators):
                    for f in frames:
                        conn.send(f)
                continue
            conn = self.sockets.get(recipient)
            if conn is not None:
                for m in messages:
                    conn.send(m)

    def schedule(self) -> None:
        """Sets the timer for the table's next event and starts the computer if it is to move."""
        if self.closed:
            return
        loop = asyncio.get_running_loop()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        when = self.table.next_event_time()
        if when is not None:
            delay = min(max(0.0, when - self.hub.clock.now()) + 0.005, 3600.0)
            self._timer = loop.call_later(delay, lambda: self.hub.spawn(self.on_timer()))
        if self._bot_task is None and self.table.computer_turn() is not None:
            self._bot_task = self.hub.spawn(self._computer())

    async def on_timer(self) -> None:
        async with self.lock:
            if self.closed:
                return
            self.table.tick()
            if self._dirty:
                await self.commit()
                self.flush()
            self.schedule()

    async def _computer(self) -> None:
        try:
            turn = self.table.computer_turn()
            if turn is None:
                return
            loop = asyncio.get_running_loop()
            try:
                move = await loop.run_in_executor(self.hub.bot_executor, turn.run)
            except Exception as e:
                log.warning("table %s: the computer failed (%s); a random move instead", self.id, e)
                move = RandomBot().choose(turn.view)
            async with self.lock:
                if self.closed:
                    return
                try:
                    self.table.submit(turn, move)
                except TableError:
                    pass  # the decision went stale (a person came back, or the game ended)
                except HexError as e:
                    log.warning("table %s: the computer's move was refused (%s); a random one", self.id, e)
                    self.table.submit(turn, RandomBot().choose(turn.view))
                if self._dirty:
                    await self.commit()
                    self.flush()
        finally:
            self._bot_task = None
            if not self.closed:
                self.schedule()

    # ---------------------------------------------------------------- sockets

    async def attach(self, conn: Connection, token: str) -> None:
        """A seat holder's socket says hello with its token: the token is rotated, the seat
        reconnected, the state committed; then ``welcome`` (with the new token) and a snapshot."""
        async with self.lock:
            if not isinstance(token, str) or not token or len(token) > 256:
                raise TableError("a seat token is required", "bad-token")
            try:
                new = self.table.rotate_token(token)
            except TableError:
                new = self._rotate_previous(token)
            self.previous_tokens[_digest(token)] = (new, time.monotonic() + TOKEN_GRACE)
            snapshot = self.table.reconnect(new)
            recipient = snapshot["to"]
            old = self.sockets.get(recipient)
            conn.recipient, conn.token = recipient, new
            self.sockets[recipient] = conn
            await self.commit()
            if old is not None and old is not conn:
                old.recipient = None
                old.close(4001, "this seat was opened in another window")
            conn.send(
                {
                    "type": "welcome",
                    "protocol": PROTOCOL,
                    "table": self.id,
                    "recipient": recipient,
                    "token": new,
                }
            )
            self.flush()
            self.schedule()

    def _rotate_previous(self, token: str) -> str:
        """A token rotated moments ago whose client may have missed the new one (its
        connection dropped before ``welcome`` arrived) still works once more, for a while."""
        now = time.monotonic()
        for digest, (_, expiry) in list(self.previous_tokens.items()):
            if expiry < now:
                del self.previous_tokens[digest]
        found = self.previous_tokens.pop(_digest(token), None)
        if found is None:
            raise TableError("this seat token is not valid at this table", "bad-token")
        return self.table.rotate_token(found[0])

    async def watch(self, conn: Connection) -> None:
        """A spectator's socket: a snapshot now, then the spectators' stream."""
        async with self.lock:
            self.flush()
            conn.recipient = None
            conn.send(self.table.spectate())
            self.spectators.add(conn)

    async def detach(self, conn: Connection) -> None:
        """A socket closed: a seat's client is marked absent (the grace period starts)."""
        self.spectators.discard(conn)
        if conn.recipient is None or self.sockets.get(conn.recipient) is not conn:
            return
        async with self.lock:
            if self.closed or self.sockets.get(conn.recipient) is not conn:
                return
            del self.sockets[conn.recipient]
            try:
                self.table.disconnect(conn.token)  # type: ignore[arg-type]
            except TableError:
                return
            await self.commit()
            self.flush()
            self.schedule()

    def forget_previous(self, conn: Connection) -> None:
        """The client stored its new token: the one it replaced stops working at once."""
        new_digest = _digest(conn.token or "")
        for digest, (token, _) in list(self.previous_tokens.items()):
            if hmac.compare_digest(_digest(token), new_digest):
                del self.previous_tokens[digest]

    # ---------------------------------------------------------------- requests

    async def request(self, conn: Connection, frame: dict[str, Any]) -> None:
        """Runs one validated client request; answers with an ``ack`` (after the commit)."""
        kind, rid = frame["type"], frame.get("id")
        if kind == "ping":
            conn.send({"type": "pong", "id": rid})
            return
        if kind == "saved":
            self.forget_previous(conn)
            return
        if kind == "snapshot":
            async with self.lock:
                self.flush()
                conn.send(
                    self.table.spectate() if conn.recipient is None else self.table.snapshot(conn.recipient)
                )
            return
        if conn.recipient is None:
            conn.send(_refusal(rid, "no-seat", "spectators watch; they cannot act at the table"))
            return
        async with self.lock:
            if self.closed or self.sockets.get(conn.recipient) is not conn:
                conn.send(_refusal(rid, "replaced", "this connection no longer holds the seat"))
                return
            done = self.meta.acks.setdefault(conn.recipient, OrderedDict())
            if rid is not None and rid in done:
                conn.send({**done[rid], "duplicate": True})
                return
            try:
                ack = self._act(conn, frame)
            except IllegalMove as e:
                conn.send(_refusal(rid, "illegal", str(e), rule=e.rule))
                return
            except (TableError, ServerError) as e:
                conn.send(_refusal(rid, e.code, str(e)))
                return
            except HexError as e:
                conn.send(_refusal(rid, "bad-request", str(e)))
                return
            if rid is not None:
                done[rid] = ack
                while len(done) > MAX_ACKS:
                    done.popitem(last=False)
            if self._dirty or rid is not None:
                await self.commit()
            conn.send(ack)
            self.flush()
            self.schedule()

    def _act(self, conn: Connection, frame: dict[str, Any]) -> dict[str, Any]:
        kind, rid, token = frame["type"], frame.get("id"), conn.token
        table = self.table
        ack: dict[str, Any] = {"type": "ack", "id": rid, "ok": True, "of": kind, "duplicate": False}
        if kind == "move":
            result = table.play(token, frame["cell"], ply=frame.get("ply"))  # type: ignore[arg-type]
            ack["result"] = result.value
            ack["ply"] = frame.get("ply")
        elif kind == "resign":
            table.resign(token, frame.get("seat"))  # type: ignore[arg-type]
        elif kind == "lift":
            table.lift_curtain(token, frame.get("seat"))  # type: ignore[arg-type]
        elif kind == "raise":
            table.raise_curtain(token)  # type: ignore[arg-type]
        elif kind == "rematch":
            ack["started"] = table.rematch(token)
        elif kind == "replay":
            table.request_replay(conn.recipient, frame.get("number"))  # type: ignore[arg-type]
        return ack

    def close(self) -> None:
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
        for conn in [*self.sockets.values(), *self.spectators]:
            conn.close(1001, "the server is shutting down")


def _refusal(rid: Any, code: str, error: str, **extra: Any) -> dict[str, Any]:
    return {"type": "ack", "id": rid, "ok": False, "code": code, "error": error, **extra}


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


class Hub:
    """Every room of one server, the database, the computer's worker threads and the ratings."""

    def __init__(
        self,
        db: Database,
        *,
        clock: Clock | None = None,
        bots: BotFactory | None = None,
        bot_threads: int = 2,
    ) -> None:
        self.db = db
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.bots: BotFactory = bots if bots is not None else _default_bots
        self.bot_executor = ThreadPoolExecutor(max_workers=bot_threads, thread_name_prefix="hexengine-bot")
        self.rooms: dict[str, Room] = {}
        self.ratings_cache: dict[str, PlayerRating] = {}
        self.rating_model: Any = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loading: dict[str, asyncio.Future[Room | None]] = {}

    async def start(self) -> None:
        """Loads the ratings and reopens every table that was running at the last save."""
        try:
            from openskill.models import PlackettLuce

            self.rating_model = PlackettLuce()
        except ImportError:  # pragma: no cover - openskill is in the server extra
            self.rating_model = None
        self.ratings_cache = {r.id: r for r in await self.db.all_ratings()}
        for table_id in await self.db.active_ids():
            await self.room(table_id)

    async def stop(self) -> None:
        for room in list(self.rooms.values()):
            room.close()
        for task in list(self._tasks):
            task.cancel()
        self.bot_executor.shutdown(wait=False, cancel_futures=True)

    def spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    def drop(self, room: Room) -> None:
        room.close()
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]

    async def room(self, table_id: str) -> Room | None:
        """The open room of ``table_id``, loading it from the database (as after a restart:
        every client absent until it reconnects) if needed; ``None`` if there is no such table."""
        if not isinstance(table_id, str) or not 1 <= len(table_id) <= 64:
            return None
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        if table_id in self._loading:
            return await self._loading[table_id]
        future: asyncio.Future[Room | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            saved = await self.db.load(table_id)
            room = None
            if saved is not None:
                room = Room(self, saved.id, _Meta.from_dict(saved.meta))
                room.table = Table.from_state(saved.state, absent=True, **room.table_kwargs())
                self.rooms[table_id] = room
                async with room.lock:
                    room.table.tick()
                    await room.commit()
                    room.schedule()
            future.set_result(room)
            return room
        except Exception as e:
            future.set_exception(e)
            raise
        finally:
            del self._loading[table_id]

    async def create(self, body: dict[str, Any]) -> dict[str, Any]:
        """Opens a table from the lobby's form; returns the host's token and the links."""
        mode = body.get("mode", "online")
        if mode not in ("online", "computer", "one-device"):
            raise ServerError(f"mode must be online, computer or one-device, not {mode!r}", "bad-mode")
        raw = body.get("settings", {})
        if not isinstance(raw, dict):
            raise ServerError("settings must be an object", "bad-settings")
        unknown = sorted(set(raw) - set(SETTING_KEYS))
        if unknown:
            raise ServerError(f"unknown setting(s): {', '.join(map(str, unknown))}", "bad-settings")
        try:
            settings = TableSettings(**raw)
        except (HexError, TypeError) as e:
            raise ServerError(str(e), "bad-settings") from None
        table_id = secrets.token_hex(8)
        room = Room(self, table_id, _Meta())
        room.table = Table(settings, table_id=table_id, **room.table_kwargs())
        table = room.table
        name, pid = body.get("name"), _player_id(body.get("player_id"))
        answer: dict[str, Any] = {"table": table_id, "url": f"/t/{table_id}", "watch": f"/t/{table_id}/watch"}
        try:
            if mode == "one-device":
                token = table.sit_together(name, body.get("opponent_name"))  # type: ignore[arg-type]
            else:
                token = table.sit("A", name, player_id=pid)  # type: ignore[arg-type]
            if mode == "computer":
                table.sit_computer("B", body.get("level", "medium"))
            if mode == "online":
                invite = secrets.token_urlsafe(16)
                room.meta.invite = _digest(invite).hex()
                answer["invite"] = f"/t/{table_id}#invite={invite}"
            table.disconnect(token)  # absent until the page connects (the grace period applies)
        except TableError as e:
            raise ServerError(str(e), e.code) from None
        answer.update(token=token, recipient="device" if mode == "one-device" else "A", mode=mode)
        async with room.lock:
            self.rooms[table_id] = room
            await room.commit()
            room.flush()
            room.schedule()
        return answer

    async def join(self, table_id: str, body: dict[str, Any]) -> dict[str, Any]:
        """The invited friend takes seat B with the invite code."""
        room = await self.room(table_id)
        if room is None:
            raise ServerError("no such table", "no-table", 404)
        code = body.get("code")
        if not isinstance(code, str) or not code or len(code) > 128:
            raise ServerError("an invite code is required", "bad-invite", 403)
        async with room.lock:
            expected = room.meta.invite
            if expected is None or not hmac.compare_digest(bytes.fromhex(expected), _digest(code)):
                raise ServerError("this invite link is not valid for this table", "bad-invite", 403)
            try:
                token = room.table.sit("B", body.get("name"), player_id=_player_id(body.get("player_id")))  # type: ignore[arg-type]
            except TableError as e:
                raise ServerError(str(e), e.code, 409 if e.code == "seat-taken" else 400) from None
            room.table.disconnect(token)
            room.meta.invite = None
            await room.commit()
            room.flush()
            room.schedule()
        return {"table": table_id, "token": token, "recipient": "B", "url": f"/t/{table_id}"}

    async def tick_all(self) -> None:
        """Applies what is due at every table now (tests with a fake clock call this)."""
        for room in list(self.rooms.values()):
            await room.on_timer()

    async def idle(self) -> None:
        """Waits until no computer is thinking (tests)."""
        while any(r._bot_task is not None for r in self.rooms.values()):
            await asyncio.sleep(0.005)


def _player_id(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > 100:
        raise ServerError("player_id must be a short string", "bad-name")
    return "p:" + value


def _default_bots(level: Any, rules: Any) -> Any:
    """The table's computer for each level (:func:`hexengine.table.computer_bot`), looked up at
    call time so a stronger Dark Hex search in the table layer is picked up without a change here."""
    from ..table import computer as computer_module

    return computer_module.computer_bot(level, rules, seed=secrets.randbelow(2**31))
