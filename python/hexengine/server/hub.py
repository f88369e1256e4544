"""The hub: every room of one server, the database, the computer's worker threads and the
ratings; and the lobby's two requests, opening a table and joining one with an invite.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..errors import ConfigError, HexError
from ..table import (
    LEVELS,
    BotFactory,
    Clock,
    PlayerRating,
    SystemClock,
    Table,
    TableError,
    TableSettings,
)
from ..table.seats import MAX_NAME, token_digest
from ..table.settings import MAX_DAYS
from .db import Database
from .errors import ServerError
from .rooms import Room, RoomMeta

__all__ = ["BOARD_SIZES", "Hub", "check_board", "options"]

log = logging.getLogger("hexengine.server")

SETTING_KEYS = (
    "variant",
    "size",
    "rows",
    "cols",
    "swap",
    "first",
    "alternate",
    "time_limit",
    "main_time",
    "increment",
    "days_per_move",
    "grace",
    "rated",
)


BOARD_SIZES: tuple[int, ...] = tuple(range(5, 20))
"""The board sizes the web table plays by default (square boards, 5x5 and 6x6 for learning,
7x7 to 19x19 as on play sites). The API refuses any other; the lobby offers these, read from
``GET /api/options``. A server may offer others (``create_app(board_sizes=...)``)."""
DEFAULT_SIZE = 11
RECOVERY_TTL = 24 * 3600.0
"""Seconds a recovery code works (it works once)."""


def check_sizes(sizes: Any) -> tuple[int, ...]:
    """``sizes`` as a sorted tuple of board sizes the engine plays (1 to 19); ConfigError otherwise."""
    try:
        out = tuple(sorted({int(n) for n in sizes}))
    except (TypeError, ValueError):
        raise ConfigError(f"board_sizes must be whole numbers from 1 to 19, not {sizes!r}") from None
    if not out or out[0] < 1 or out[-1] > 19:
        raise ConfigError(f"board_sizes must be whole numbers from 1 to 19, not {sizes!r}")
    return out


def options(sizes: tuple[int, ...] = BOARD_SIZES) -> dict[str, Any]:
    """What the lobby may offer, in one place: ``GET /api/options`` sends it, and
    :meth:`Hub.create` accepts exactly this."""
    return {
        "sizes": list(sizes),
        "default_size": DEFAULT_SIZE if DEFAULT_SIZE in sizes else sizes[len(sizes) // 2],
        "square_only": True,
        "variants": ["hex", "rex", "dark", "dark-abrupt"],
        "swap": ["sides", "pieces", "off"],
        "first": ["A", "B", "alternate"],
        "levels": list(LEVELS),
        "modes": ["online", "computer", "one-device"],
        "settings": list(SETTING_KEYS),
        "max_name": MAX_NAME,
        "max_days_per_move": MAX_DAYS,
    }


def check_board(settings: TableSettings, sizes: tuple[int, ...] = BOARD_SIZES) -> None:
    """ServerError ``bad-settings`` unless the board is one the web table offers (``sizes``)."""
    rows, cols = settings.rows, settings.cols
    if rows != cols or rows not in sizes:
        low, high = sizes[0], sizes[-1]
        every = len(sizes) == high - low + 1
        offered = f"from {low}x{low} to {high}x{high}" if every else ", ".join(f"{n}x{n}" for n in sizes)
        raise ServerError(f"the web table plays square boards {offered}, not {rows}x{cols}", "bad-settings")


class Hub:
    """Every room of one server, the database, the computer's worker threads and the ratings."""

    def __init__(
        self,
        db: Database,
        *,
        clock: Clock | None = None,
        bots: BotFactory | None = None,
        bot_threads: int = 2,
        board_sizes: Any = BOARD_SIZES,
    ) -> None:
        self.db = db
        self.board_sizes = check_sizes(board_sizes)
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.bots: BotFactory = bots if bots is not None else _default_bots
        self.bot_executor = ThreadPoolExecutor(max_workers=bot_threads, thread_name_prefix="hexengine-bot")
        self.rooms: dict[str, Room] = {}
        self.ratings_cache: dict[tuple[str, str], PlayerRating] = {}
        self.rating_model: Any = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.analysis_slot = asyncio.Semaphore(1)
        self.analysis_cache: OrderedDict[Any, Any] = OrderedDict()
        self._loading: dict[str, asyncio.Future[Room | None]] = {}

    async def start(self) -> None:
        """Loads the ratings and reopens every table that was running at the last save."""
        try:
            from openskill.models import PlackettLuce

            self.rating_model = PlackettLuce()
        except ImportError:  # pragma: no cover - openskill is in the server extra
            self.rating_model = None
        self.ratings_cache = {(r.pool, r.id): r for r in await self.db.all_ratings()}
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
                room = Room(self, saved.id, RoomMeta.from_dict(saved.meta))
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
        check_board(settings, self.board_sizes)
        table_id = secrets.token_hex(8)
        room = Room(self, table_id, RoomMeta())
        room.table = Table(settings, table_id=table_id, **room.table_kwargs())
        table = room.table
        name, pid = body.get("name"), public_id(body.get("player_id"))
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
                room.meta.invite = token_digest(invite).hex()
                answer["invite"] = f"/t/{table_id}#invite={invite}"
            table.disconnect(token)  # absent until the page connects (the grace period applies)
        except TableError as e:
            raise ServerError(str(e), e.code) from None
        answer.update(token=token, recipient="device" if mode == "one-device" else "A", mode=mode)
        answer["player"] = pid
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
            if _matches(room.meta.used_invite, code):
                raise ServerError(
                    "someone already took the seat with this invite: you can watch the game instead",
                    "seat-taken",
                    409,
                    table=table_id,
                    watch=f"/t/{table_id}/watch",
                )
            if not _matches(room.meta.invite, code):
                raise ServerError("this invite link is not valid for this table", "bad-invite", 403)
            try:
                pid = public_id(body.get("player_id"))
                token = room.table.sit("B", body.get("name"), player_id=pid)  # type: ignore[arg-type]
            except TableError as e:
                raise ServerError(str(e), e.code, 409 if e.code == "seat-taken" else 400) from None
            room.table.disconnect(token)
            room.meta.used_invite, room.meta.invite = room.meta.invite, None
            await room.commit()
            room.flush()
            room.schedule()
        return {"table": table_id, "token": token, "recipient": "B", "url": f"/t/{table_id}", "player": pid}

    # ---------------------------------------------------------------- identity on another device

    async def issue_recovery(self, body: dict[str, Any]) -> dict[str, Any]:
        """A one-time code that moves the browser's identity (its secret ``player_id``) to
        another device: the code's SHA-256 is stored with the player id sealed by the code
        itself, so the database alone cannot give the identity away. Valid for
        ``RECOVERY_TTL`` seconds; a new code replaces the player's previous one."""
        secret = body.get("player_id")
        player = public_id(secret)
        if player is None:
            raise ServerError("player_id is required: the identity to move", "bad-name")
        code = secrets.token_urlsafe(18)
        expires = self.clock.now() + RECOVERY_TTL
        await self.db.save_recovery(token_digest(code).hex(), player, _seal(code, secret), expires)
        return {"code": code, "url": f"/recover#code={code}", "expires": expires, "player": player}

    async def claim_recovery(self, body: dict[str, Any]) -> dict[str, Any]:
        """Gives the identity behind a recovery code to this device, once."""
        code = body.get("code")
        if not isinstance(code, str) or not 1 <= len(code) <= 128:
            raise ServerError("a recovery code is required", "bad-recovery", 400)
        sealed = await self.db.claim_recovery(token_digest(code).hex(), self.clock.now())
        if sealed is None:
            raise ServerError("this recovery link is unknown, used or expired", "bad-recovery", 404)
        secret = _unseal(code, sealed)
        return {"player_id": secret, "player": public_id(secret)}

    async def tick_all(self) -> None:
        """Applies what is due at every table now (tests with a fake clock call this)."""
        for room in list(self.rooms.values()):
            await room.on_timer()

    async def idle(self) -> None:
        """Waits until no computer is thinking (tests)."""
        while any(r._bot_task is not None for r in self.rooms.values()):
            await asyncio.sleep(0.005)


def _keystream(code: str, n: int) -> bytes:
    return hashlib.shake_256(b"hexengine recovery\0" + code.encode("utf-8")).digest(n)


def _seal(code: str, secret: str) -> str:
    """``secret`` encrypted with a key stream drawn from ``code`` (hex); only the code opens it."""
    data = secret.encode("ascii")
    return bytes(a ^ b for a, b in zip(data, _keystream(code, len(data)), strict=True)).hex()


def _unseal(code: str, sealed: str) -> str:
    data = bytes.fromhex(sealed)
    return bytes(a ^ b for a, b in zip(data, _keystream(code, len(data)), strict=True)).decode("ascii")


def _matches(digest: str | None, code: str) -> bool:
    """Whether ``code`` is the invite kept as the SHA-256 ``digest`` (constant time)."""
    return digest is not None and hmac.compare_digest(bytes.fromhex(digest), token_digest(code))


def public_id(value: Any) -> str | None:
    """The rating id of the browser's secret ``player_id``: ``"p:"`` and 20 hex digits of its
    SHA-256, so leaderboards, records and histories never show the secret itself (whoever
    knew it could play, and lose, under that identity). ``None`` without a player id."""
    if value is None or value == "":
        return None
    if not isinstance(value, str) or not 8 <= len(value) <= 100 or not value.isascii():
        raise ServerError("player_id must be a string of 8 to 100 ASCII characters", "bad-name")
    return "p:" + token_digest(value).hex()[:20]


def _default_bots(level: Any, rules: Any) -> Any:
    """The table's computer for each level (:func:`hexengine.table.computer_bot`), looked up at
    call time so a stronger Dark Hex search in the table layer is picked up without a change here."""
    from ..table import computer as computer_module

    return computer_module.computer_bot(level, rules, seed=secrets.randbelow(2**31))
