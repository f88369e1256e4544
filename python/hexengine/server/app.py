"""The web application: pages, a small JSON API and the table websocket (Starlette).

Routes:

- ``GET /``: the lobby (create a table); ``GET /t/{id}``: the table page (seat
  holders, the invited friend, and ``/t/{id}/watch`` for spectators);
  ``GET /t/{id}/replay/{n}``: the replay of a finished game; ``GET /leaderboard``.
- ``POST /api/tables``: open a table; ``POST /api/tables/{id}/join``: take the
  invited seat; ``GET /api/tables/{id}``: public facts; ``GET
  /api/tables/{id}/games/{n}``: a finished game's record with every board;
  ``GET /api/leaderboard``.
- ``WS /ws/{id}``: the table's messages; the protocol is in ``docs/web.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import HexError
from ..records import GameRecord
from ..table import BotFactory, Clock, TableError
from ..table.analysis import analyse_record
from ..table.ratings import check_pool
from .connection import Connection
from .db import Database, database_path
from .errors import ServerError
from .hub import Hub, options
from .rooms import Room

__all__ = ["MAX_FRAME", "FrameError", "create_app", "parse_frame"]

log = logging.getLogger("hexengine.server")

STATIC = Path(__file__).parent / "static"
MAX_FRAME = 4096
MAX_BODY = 65_536
DEFAULT_ANALYSIS = 2_000
ANALYSIS_CACHE = 128
HELLO_TIMEOUT = 15.0
FRAME_RATE = 40.0  # frames per second a client may send on average (twice that in a burst)
TYPES = {"move", "resign", "lift", "raise", "rematch", "replay", "snapshot", "saved", "ping"}
TYPES |= {"takeback", "answer_takeback", "abort"}
FIELDS = {"type", "id", "ply", "cell", "seat", "number", "token", "watch", "accept"}


class FrameError(HexError):
    """A client frame the server cannot accept; ``code`` names why."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def parse_frame(text: Any) -> dict[str, Any]:
    """Validates one client frame (JSON text, at most MAX_FRAME bytes) and returns it.

    >>> parse_frame('{"type": "move", "id": "m1", "ply": 0, "cell": "f6"}')["cell"]
    'f6'
    >>> parse_frame('{"type": "move", "cell": 5}')
    Traceback (most recent call last):
    ...
    hexengine.server.app.FrameError: a move needs "cell": a cell name or "swap", not 5
    """
    if not isinstance(text, str):
        raise FrameError("frames are JSON text, not binary", "bad-frame")
    if len(text) > MAX_FRAME or len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME:
        raise FrameError(f"a frame may have at most {MAX_FRAME} bytes", "too-big")
    try:
        frame = json.loads(text)
    except (ValueError, RecursionError):
        raise FrameError("a frame must be a JSON object", "bad-json") from None
    if not isinstance(frame, dict):
        raise FrameError("a frame must be a JSON object", "bad-frame")
    unknown = sorted(set(frame) - FIELDS)
    if unknown:
        raise FrameError(f"unknown field(s): {', '.join(unknown)[:100]}", "bad-frame")
    kind = frame.get("type")
    if kind != "hello" and kind not in TYPES:
        raise FrameError(f"unknown frame type {str(kind)[:40]!r}", "bad-type")
    rid = frame.get("id")
    if rid is not None and (not isinstance(rid, str) or not 1 <= len(rid) <= 64):
        raise FrameError("id must be a string of 1 to 64 characters", "bad-frame")
    ply = frame.get("ply")
    if ply is not None and (isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= 100_000):
        raise FrameError("ply must be the number of actions seen (an integer)", "bad-frame")
    seat = frame.get("seat")
    if seat is not None and seat not in ("A", "B"):
        raise FrameError("seat must be 'A' or 'B'", "bad-frame")
    number = frame.get("number")
    if number is not None and (isinstance(number, bool) or not isinstance(number, int) or number < 1):
        raise FrameError("number must be a game number (1 or more)", "bad-frame")
    if kind == "move":
        cell = frame.get("cell")
        if not isinstance(cell, str) or not 1 <= len(cell) <= 8:
            raise FrameError(f'a move needs "cell": a cell name or "swap", not {cell!r}'[:120], "bad-frame")
    if kind == "answer_takeback" and not isinstance(frame.get("accept"), bool):
        raise FrameError('answer_takeback needs "accept": true or false', "bad-frame")
    if kind == "hello":
        token, watch = frame.get("token"), frame.get("watch")
        if watch is not True and (not isinstance(token, str) or not 1 <= len(token) <= 256):
            raise FrameError('hello needs {"token": ...} or {"watch": true}', "bad-frame")
    return frame


def _error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "error": message}


async def _receive(websocket: WebSocket) -> str | bytes | None:
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        return None
    if message.get("text") is not None:
        return message["text"]
    return message.get("bytes") or b""


async def table_socket(websocket: WebSocket) -> None:
    hub: Hub = websocket.app.state.hub
    await websocket.accept()
    conn = Connection(websocket.send_text, lambda code, reason: websocket.close(code, reason))
    room = await hub.room(websocket.path_params["table_id"])
    if room is None:
        conn.send(_error("no-table", "there is no such table"))
        conn.close(4404, "no such table")
        await conn.drain()
        return
    rate = websocket.app.state.frame_rate
    allowance, last = 2 * rate, time.monotonic()
    hello_by = time.monotonic() + HELLO_TIMEOUT
    greeted = False
    try:
        while True:
            timeout = None if greeted else max(0.01, hello_by - time.monotonic())
            try:
                raw = await asyncio.wait_for(_receive(websocket), timeout)
            except asyncio.TimeoutError:
                conn.send(_error("no-hello", 'say hello first: {"type": "hello", ...}'))
                conn.close(4002, "no hello")
                break
            if raw is None:
                break
            now = time.monotonic()
            allowance = min(2 * rate, allowance + (now - last) * rate)
            last = now
            if allowance < 1:
                conn.send(_error("too-fast", "too many frames; this one was ignored"))
                continue
            allowance -= 1
            try:
                frame = parse_frame(raw)
            except FrameError as e:
                conn.send(_error(e.code, str(e)))
                continue
            if not greeted:
                if frame["type"] != "hello":
                    conn.send(_error("no-hello", 'the first frame is {"type": "hello", ...}'))
                    continue
                try:
                    if frame.get("watch") is True:
                        await room.watch(conn)
                    else:
                        await room.attach(conn, frame["token"])
                except (TableError, ServerError) as e:
                    conn.send(_error(e.code, str(e)))
                    conn.close(4003, "not admitted")
                    break
                greeted = True
                continue
            if frame["type"] == "hello":
                conn.send(_error("bad-frame", "already said hello"))
                continue
            try:
                await room.request(conn, frame)
            except ServerError as e:
                conn.send(_error(e.code, str(e)))
                break
            if room.closed:
                break
    except WebSocketDisconnect:
        pass
    finally:
        with contextlib.suppress(ServerError):
            await room.detach(conn)
        await conn.drain()


async def _json_body(request: Request) -> dict[str, Any]:
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise ServerError(f"the request body may have at most {MAX_BODY} bytes", "too-big", 413)
        chunks.append(chunk)
    try:
        body = json.loads(b"".join(chunks) or b"{}")
    except ValueError:
        raise ServerError("the request body must be JSON", "bad-json") from None
    if not isinstance(body, dict):
        raise ServerError("the request body must be a JSON object", "bad-json")
    return body


def _refuse(e: ServerError | TableError | HexError) -> JSONResponse:
    code = getattr(e, "code", "bad-request")
    status = getattr(e, "status", 400)
    extra = getattr(e, "extra", {})
    return JSONResponse({"error": str(e), "code": code, **extra}, status_code=status)


async def create_table(request: Request) -> Response:
    try:
        return JSONResponse(await request.app.state.hub.create(await _json_body(request)), status_code=201)
    except (ServerError, HexError) as e:
        return _refuse(e)


async def join_table(request: Request) -> Response:
    try:
        body = await _json_body(request)
        return JSONResponse(await request.app.state.hub.join(request.path_params["table_id"], body))
    except (ServerError, HexError) as e:
        return _refuse(e)


async def issue_recovery(request: Request) -> Response:
    """``POST /api/identity/recovery {player_id}``: a one-time link that moves this identity."""
    try:
        return JSONResponse(
            await request.app.state.hub.issue_recovery(await _json_body(request)), status_code=201
        )
    except (ServerError, HexError) as e:
        return _refuse(e)


async def claim_recovery(request: Request) -> Response:
    """``POST /api/identity/claim {code}``: the identity behind a recovery link, once."""
    try:
        return JSONResponse(await request.app.state.hub.claim_recovery(await _json_body(request)))
    except (ServerError, HexError) as e:
        return _refuse(e)


async def table_info(request: Request) -> Response:
    room = await request.app.state.hub.room(request.path_params["table_id"])
    if room is None:
        return JSONResponse({"error": "no such table", "code": "no-table"}, status_code=404)
    async with room.lock:
        await room.catch_up()
        table = room.table
        return JSONResponse(
            {
                "table": table.id,
                "settings": table.settings.to_dict(),
                "mode": table.mode,
                "seats": table.seats,
                "series": table.series,
                "game": table.game_number,
                "finished": [r.number for r in table.records],
                "invite_open": room.meta.invite is not None,
            }
        )


async def _named_game(request: Request) -> tuple[Room, int] | Response:
    """The room and the game number a ``/api/tables/{id}/games/{n}`` route names (-1 for a
    number that is not one), or the 404 answer when there is no such table."""
    room = await request.app.state.hub.room(request.path_params["table_id"])
    if room is None:
        return JSONResponse({"error": "no such table", "code": "no-table"}, status_code=404)
    try:
        number = int(request.path_params["number"])
    except ValueError:
        number = -1
    return room, number


async def game_record(request: Request) -> Response:
    named = await _named_game(request)
    if isinstance(named, Response):
        return named
    room, number = named
    async with room.lock:
        record = _finished(room.table, number)
        if record is None:
            return JSONResponse(
                {
                    "error": "no finished game with that number (a replay comes after the end)",
                    "code": "no-game",
                },
                status_code=404,
            )
        boards = [[[int(x) for x in row] for row in board] for _, board in record.replay()]
        return JSONResponse(
            {"table": room.id, "number": number, "record": record.to_dict(), "boards": boards}
        )


def _finished(table: Any, number: int) -> GameRecord | None:
    """The record of a table's finished game ``number``, or ``None``."""
    return next((r for r in table.records if r.number == number), None)


def _finished_or_current(room: Any, number: int) -> tuple[Any, bool] | None:
    """Game ``number`` of a room's table: its record and whether it is finished, or ``None``."""
    table = room.table
    record = _finished(table, number)
    if record is not None:
        return record, True
    if number == table.game_number and number > 0:
        return table.record(), False
    return None


def _query_int(request: Request, name: str, default: int | None) -> int | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ServerError(f"{name} must be a whole number, not {raw[:20]!r}", "bad-request") from None


async def _analyse(
    request: Request, record: Any, finished: bool, ply: Any, simulations: Any, top: Any
) -> Any:
    """Runs :func:`~hexengine.table.analysis.analyse_record` in the computer's worker threads,
    one analysis at a time per server; finished games' answers are kept for repeats."""
    hub = request.app.state.hub
    key = None
    if finished:
        key = (record.to_json(), ply, simulations, top)
        if key in hub.analysis_cache:
            hub.analysis_cache.move_to_end(key)
            return hub.analysis_cache[key]
    job = functools.partial(analyse_record, record, ply, simulations=simulations, top=top, finished=finished)
    async with hub.analysis_slot:
        answer = await asyncio.get_running_loop().run_in_executor(hub.bot_executor, job)
    if key is not None:
        hub.analysis_cache[key] = answer
        while len(hub.analysis_cache) > ANALYSIS_CACHE:
            hub.analysis_cache.popitem(last=False)
    return answer


def _analysis_refusal(e: TableError | ServerError | HexError) -> JSONResponse:
    status = 403 if getattr(e, "code", "") == "hidden" else getattr(e, "status", 400)
    return JSONResponse({"error": str(e), "code": getattr(e, "code", "bad-request")}, status_code=status)


async def game_analysis(request: Request) -> Response:
    """``GET /api/tables/{id}/games/{n}/analysis?ply=k&simulations=2000&top=5``: the bot's top
    moves and win rate after ``k`` actions of game ``n`` (default: its last position). A
    running Dark Hex game is refused (403 ``hidden``); Hex and Rex may be analysed live."""
    named = await _named_game(request)
    if isinstance(named, Response):
        return named
    room, number = named
    try:
        ply = _query_int(request, "ply", None)
        simulations = _query_int(request, "simulations", DEFAULT_ANALYSIS)
        top = _query_int(request, "top", 5)
        async with room.lock:
            await room.catch_up()
            found = _finished_or_current(room, number)
        if found is None:
            return JSONResponse({"error": "no game with that number", "code": "no-game"}, status_code=404)
        record, finished = found
        answer = await _analyse(request, record, finished, ply, simulations, top)
    except (TableError, ServerError, HexError) as e:
        return _analysis_refusal(e)
    return JSONResponse({"table": room.id, "number": number, "finished": finished, **answer})


async def posted_analysis(request: Request) -> Response:
    """``POST /api/analyse {record, ply?, simulations?, top?}``: the same for a game record the
    client holds (format ``hexengine.record``); whoever holds a record knows every stone in it."""
    try:
        body = await _json_body(request)
        record = GameRecord.from_dict(body.get("record"))
        answer = await _analyse(
            request,
            record,
            True,
            body.get("ply"),
            body.get("simulations", DEFAULT_ANALYSIS),
            body.get("top", 5),
        )
    except (TableError, ServerError, HexError) as e:
        return _analysis_refusal(e)
    return JSONResponse(answer)


async def game_sgf(request: Request) -> Response:
    """``GET /api/tables/{id}/games/{n}/sgf``: a finished game's record as an SGF file."""
    named = await _named_game(request)
    if isinstance(named, Response):
        return named
    room, number = named
    async with room.lock:
        record = _finished(room.table, number)
    if record is None:
        error = "no finished game with that number (the record comes after the end)"
        return JSONResponse({"error": error, "code": "no-game"}, status_code=404)
    name = f"hexengine-{room.id}-{number}.sgf"
    return Response(
        record.to_sgf(),
        media_type="application/x-go-sgf",
        headers={"content-disposition": f'attachment; filename="{name}"'},
    )


def _pool(request: Request) -> str | None:
    """The rating pool a request names: ``pool=hex:11x11``, or ``variant`` and ``size`` (or
    ``rows`` and ``cols``); ``None`` if it names none. ServerError ``bad-pool`` otherwise."""
    q = request.query_params
    pool = q.get("pool")
    if pool is None and q.get("variant"):
        rows, cols = q.get("rows", q.get("size")), q.get("cols", q.get("size"))
        pool = f"{q['variant']}:{rows}x{cols}"
    if pool is None:
        return None
    try:
        return check_pool(pool)
    except HexError as e:
        raise ServerError(str(e), "bad-pool") from None


async def leaderboard(request: Request) -> Response:
    """``GET /api/leaderboard?pool=hex:11x11&kind=person&limit=50``: the best players of one pool
    (every pool without one), and the pools that have players."""
    kind = request.query_params.get("kind") or None
    if kind not in (None, "person", "computer"):
        return JSONResponse({"error": "kind is person or computer", "code": "bad-kind"}, status_code=400)
    try:
        limit = max(1, min(200, int(request.query_params.get("limit", "50"))))
    except ValueError:
        limit = 50
    try:
        pool = _pool(request)
    except ServerError as e:
        return _refuse(e)
    db = request.app.state.hub.db
    rows = await db.leaderboard(limit, kind, pool)
    return JSONResponse({"pool": pool, "players": [r.to_dict() for r in rows], "pools": await db.pools()})


async def rating_history(request: Request) -> Response:
    """``GET /api/ratings/{player}?pool=hex:11x11``: one player's rating in a pool and its history
    (the displayed rating after each rated game, with the time); without a pool, every pool
    the player is rated in."""
    player = request.path_params["player"]
    try:
        pool = _pool(request)
    except ServerError as e:
        return _refuse(e)
    db = request.app.state.hub.db
    cache = request.app.state.hub.ratings_cache
    pools = [pool] if pool is not None else sorted(p for p, pid in cache if pid == player)
    found = []
    for p in pools:
        current = cache.get((p, player))
        if current is None:
            continue
        history = await db.rating_history(player, p)
        found.append(
            {
                "pool": p,
                "rating": current.to_dict(),
                "history": [{"time": t, "display": d} for t, d in history],
            }
        )
    if not found:
        return JSONResponse(
            {
                "error": "no rated games for this player" + ("" if pool is None else f" in {pool}"),
                "code": "no-player",
            },
            status_code=404,
        )
    return JSONResponse({"id": player, "pools": found})


def _page(name: str) -> Any:
    async def page(request: Request) -> Response:
        return FileResponse(STATIC / name, media_type="text/html")

    return page


async def lobby_options(request: Request) -> Response:
    """``GET /api/options``: what the lobby may offer (board sizes, variants, levels, ...),
    exactly what ``POST /api/tables`` accepts."""
    return JSONResponse(options(request.app.state.hub.board_sizes))


async def health(request: Request) -> Response:
    return JSONResponse({"ok": True, "tables": len(request.app.state.hub.rooms)})


class _Headers:
    """Security headers on every HTTP answer: only this origin's scripts, styles and sockets."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = message.setdefault("headers", [])
                headers += [
                    (
                        b"content-security-policy",
                        b"default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'",
                    ),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"cache-control", b"no-store"),
                ]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(
    database: str | Path | Database | None = None,
    *,
    clock: Clock | None = None,
    bots: BotFactory | None = None,
    bot_threads: int = 2,
    frame_rate: float = FRAME_RATE,
    board_sizes: Any = None,
) -> Starlette:
    """The web table as an ASGI app. ``database``: an open :class:`Database`, a path, an
    ``sqlite:///`` URL, or ``None`` for ``hexengine.db`` in the user's data folder.
    ``clock`` and ``bots`` go to every table (tests pass a fake clock and quick bots);
    ``frame_rate`` is how many frames a second one client may send on average (more get
    a ``too-fast`` error frame and are ignored); ``board_sizes`` the square boards it offers
    (default :data:`~hexengine.server.hub.BOARD_SIZES`, 5 to 19)."""
    owned = not isinstance(database, Database)
    db = database if isinstance(database, Database) else Database(database_path(database))
    sizes = {} if board_sizes is None else {"board_sizes": board_sizes}
    hub = Hub(db, clock=clock, bots=bots, bot_threads=bot_threads, **sizes)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            if owned:
                db.close()

    routes = [
        Route("/", _page("lobby.html")),
        Route("/leaderboard", _page("leaderboard.html")),
        Route("/recover", _page("lobby.html")),  # the recovery link: the lobby claims its #code
        Route("/t/{table_id}", _page("table.html")),
        Route("/t/{table_id}/watch", _page("table.html")),
        Route("/t/{table_id}/replay/{number}", _page("replay.html")),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", table_info),
        Route("/api/tables/{table_id}/join", join_table, methods=["POST"]),
        Route("/api/tables/{table_id}/games/{number}", game_record),
        Route("/api/tables/{table_id}/games/{number}/sgf", game_sgf),
        Route("/api/tables/{table_id}/games/{number}/analysis", game_analysis),
        Route("/api/analyse", posted_analysis, methods=["POST"]),
        Route("/api/leaderboard", leaderboard),
        Route("/api/options", lobby_options),
        Route("/api/ratings/{player}", rating_history),
        Route("/api/identity/recovery", issue_recovery, methods=["POST"]),
        Route("/api/identity/claim", claim_recovery, methods=["POST"]),
        Route("/healthz", health),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        WebSocketRoute("/ws/{table_id}", table_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(_Headers)
    app.state.hub = hub
    app.state.db = db
    app.state.frame_rate = float(frame_rate)
    return app
