"""The outbox: one message stream per recipient, numbered without gaps, each message in its envelope.

Streams are named ``"A"``, ``"B"`` (a seat on its own device), ``"device"`` (one
device holding both seats) and ``"spectators"``. Every message starts with the
envelope ``{"schema_version", "type", "seq", "to", "table", "game", "time"}``;
``seq`` counts that recipient's messages from 1. A stream keeps at most ``limit``
unread messages: past that the oldest go, and the gap in ``seq`` tells the client
to ask for a snapshot, so a stream nobody reads cannot grow without bound.

>>> import hexengine as hx
>>> outbox = Outbox("t1", hx.FakeClock(), None, limit=2)
>>> outbox.open("spectators")
>>> for kind in ("seat", "seat", "turn"):
...     _ = outbox.send("spectators", kind, {}, game=1)
>>> [(m["seq"], m["type"]) for m in outbox.poll("spectators")]
[(2, 'seat'), (3, 'turn')]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from .clock import Clock
from .messages import SCHEMA_VERSION

__all__ = ["Listener", "Outbox"]

Listener = Callable[[str, dict[str, Any]], None]
"""Called as ``listener(recipient, message)`` for every message queued."""


class Outbox:
    """The message streams of one table, its clock for the envelope's time, and its listener."""

    def __init__(self, table_id: str, clock: Clock, listener: Listener | None, *, limit: int) -> None:
        self._table_id = table_id
        self._clock = clock
        self._listener = listener
        self._limit = limit
        self._seq: dict[str, int] = {}
        self._queues: dict[str, deque[dict[str, Any]]] = {}

    def __contains__(self, recipient: object) -> bool:
        return recipient in self._queues

    def open(self, recipient: str) -> None:
        """Opens ``recipient``'s stream, or empties it (a client that left or came back starts
        afresh with a snapshot); its numbering goes on."""
        self._seq.setdefault(recipient, 0)
        self._queues[recipient] = deque(maxlen=self._limit)

    def last_seq(self, recipient: str) -> int:
        """The ``seq`` of the last message sent to ``recipient`` (0 before the first)."""
        return self._seq[recipient]

    def envelope(self, recipient: str, kind: str, seq: int, game: int) -> dict[str, Any]:
        """The fields every message starts with."""
        return {
            "schema_version": SCHEMA_VERSION,
            "type": kind,
            "seq": seq,
            "to": recipient,
            "table": self._table_id,
            "game": game,
            "time": self._clock.now(),
        }

    def send(self, recipient: str, kind: str, payload: dict[str, Any], *, game: int) -> dict[str, Any]:
        """Queues (and returns) a message of type ``kind`` for ``recipient``."""
        return self.push(recipient, lambda seq: {**self.envelope(recipient, kind, seq, game), **payload})

    def push(self, recipient: str, make: Callable[[int], dict[str, Any]]) -> dict[str, Any]:
        """Queues (and returns) ``make(seq)``, a whole message numbered ``seq``."""
        self._seq[recipient] += 1
        message = make(self._seq[recipient])
        self._queues[recipient].append(message)
        if self._listener is not None:
            self._listener(recipient, message)
        return message

    def poll(self, recipient: str) -> list[dict[str, Any]]:
        """Takes ``recipient``'s queued messages, oldest first."""
        out = list(self._queues[recipient])
        self._queues[recipient].clear()
        return out

    def to_state(self) -> dict[str, int]:
        """Each stream's last ``seq`` (queued messages are not kept)."""
        return dict(self._seq)

    def restore(self, seqs: dict[str, Any], streams: list[str]) -> None:
        """Takes the numbering back from :meth:`to_state` output, with empty ``streams``."""
        for recipient in streams:
            self.open(recipient)
        self._seq = {str(k): int(v) for k, v in seqs.items()}
