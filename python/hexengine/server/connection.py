"""Connections: one websocket each, with its outgoing frames written by their own task.

A slow client never holds up a room: frames wait in the connection's queue, and
past ``MAX_OUTBOX`` unsent frames the connection is closed (the client reconnects
and gets a snapshot).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any

__all__ = ["MAX_OUTBOX", "Connection"]

MAX_OUTBOX = 5_000


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
