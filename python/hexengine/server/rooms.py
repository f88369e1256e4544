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
import hmac
import json
import logging
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..bots import RandomBot
from ..errors import HexError, IllegalMove
from ..table import PlayerRating, Ratings, Table, TableError
from ..table.seats import check_token, token_digest
from .connection import Connection
from .errors import ServerError

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["Room", "RoomMeta"]

log = logging.getLogger("hexengine.server")

PROTOCOL = 1
MAX_ACKS = 64
TOKEN_GRACE = 300.0


class _RoomRatings:
    """A rating store for one room: reads the hub's in-memory ratings; a ``put`` updates them
    and waits in the room for its next commit, which writes it in the same transaction."""

    def __init__(self, hub: Hub, room: Room) -> None:
        self._hub, self._room = hub, room

    def get(self, player_id: str, pool: str) -> PlayerRating | None:
        return self._hub.ratings_cache.get((pool, player_id))

    def put(self, ratings: list[PlayerRating]) -> None:
        for r in ratings:
            self._hub.ratings_cache[(r.pool, r.id)] = r
        self._room.pending_ratings.extend(ratings)

    def leaderboard(self, limit: int, kind: str | None, pool: str | None) -> list[PlayerRating]:
        rows = [
            r
            for r in self._hub.ratings_cache.values()
            if (kind is None or r.kind == kind) and (pool is None or r.pool == pool)
        ]
        rows.sort(key=lambda r: (-r.rating, r.id, r.pool))
        return rows[:limit]

    def history(self, player_id: str, pool: str) -> list[tuple[float | None, int]]:
        raise ServerError("a room does not read rating histories; the hub's database does", "no-ratings")


@dataclass
class RoomMeta:
    """The server's bookkeeping for one room: the open invite's SHA-256 (``None`` once used),
    the used invite's (so a second visitor learns the seat is taken, not that the link is
    wrong), when the room was made, and the acknowledged request ids per recipient."""

    invite: str | None = None
    created: float = field(default_factory=time.time)
    acks: dict[str, OrderedDict[str, dict[str, Any]]] = field(default_factory=dict)
    used_invite: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "invite": self.invite,
            "created": self.created,
            "acks": {r: list(a.items()) for r, a in self.acks.items()},
            "used_invite": self.used_invite,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoomMeta:
        meta = cls(data.get("invite"), float(data.get("created", time.time())))
        meta.used_invite = data.get("used_invite")
        meta.acks = {r: OrderedDict((k, v) for k, v in items) for r, items in data.get("acks", {}).items()}
        return meta


class Room:
    """One table with its sockets. Every public coroutine takes the room's lock."""

    def __init__(self, hub: Hub, table_id: str, meta: RoomMeta) -> None:
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

    async def catch_up(self) -> None:
        """Applies what fell due at the table (a time-out, a takeover) and commits and forwards
        it, before a request reads or changes the table. Call with the lock held."""
        self.table.tick()
        if self._dirty:
            await self.commit()
            self.flush()

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
        if self._dirty:
            # Reading the table applied an event that fell due just now (every table call
            # does): commit it and tell the clients at once rather than at the next request.
            self.hub.spawn(self.on_timer())

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
            await self.catch_up()
            check_token(token)
            try:
                new = self.table.rotate_token(token)
            except TableError:
                new = self._rotate_previous(token)
            self.previous_tokens[token_digest(token)] = (new, time.monotonic() + TOKEN_GRACE)
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
        found = self.previous_tokens.pop(token_digest(token), None)
        if found is None:
            raise TableError("this seat token is not valid at this table", "bad-token")
        return self.table.rotate_token(found[0])

    async def watch(self, conn: Connection) -> None:
        """A spectator's socket: a snapshot now, then the spectators' stream."""
        async with self.lock:
            await self.catch_up()
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
        new_digest = token_digest(conn.token or "")
        for digest, (token, _) in list(self.previous_tokens.items()):
            if hmac.compare_digest(token_digest(token), new_digest):
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
                await self.catch_up()
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
            await self.catch_up()
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
        elif kind == "takeback":
            ack["done"] = table.ask_takeback(token)  # type: ignore[arg-type]
        elif kind == "answer_takeback":
            table.answer_takeback(token, frame["accept"])  # type: ignore[arg-type]
        elif kind == "abort":
            table.abort(token, frame.get("seat"))  # type: ignore[arg-type]
        return ack

    def close(self) -> None:
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
        for conn in [*self.sockets.values(), *self.spectators]:
            conn.close(1001, "the server is shutting down")


def _refusal(rid: Any, code: str, error: str, **extra: Any) -> dict[str, Any]:
    return {"type": "ack", "id": rid, "ok": False, "code": code, "error": error, **extra}
