"""Seats: who sits at A and B, the clients that hold their seats, and the clients' tokens.

A person sits on their own device (its message stream is named after the seat,
``"A"`` or ``"B"``) or shares one device with the other person (``"device"``);
the computer sits without a client. A client proves itself with a token that the
table keeps only as a SHA-256 digest and compares in constant time. A client may
leave; after the grace period the computer plays its seats until it comes back.

>>> seats = Seats()
>>> client, token = seats.sit("A", "Ann", None)
>>> seats.sit_computer("B", "easy")
>>> seats.mode, client.recipient, seats.auth(token) is client
('computer', 'A', True)
>>> seats.info("B", None)["name"]
'Computer (easy)'
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any, Literal

from ..records import PlayerInfo, RecordError
from ..rules import Color
from .errors import TableError
from .messages import color_name
from .settings import LEVELS, SEATS, Level, SeatName

__all__ = ["MAX_NAME", "Client", "Mode", "Seats", "check_name", "check_token", "token_digest"]

Mode = Literal["online", "computer", "one-device"]
MAX_NAME = 64


def check_token(token: object) -> str:
    """``token`` if it can be a seat token at all; TableError ``bad-token`` otherwise."""
    if not isinstance(token, str) or not token or len(token) > 256:
        raise TableError("a seat token is required", "bad-token")
    return token


def token_digest(token: str) -> bytes:
    """The SHA-256 digest a secret (a seat token, an invite code) is kept as; never the secret itself.

    >>> token_digest("abc").hex()[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


@dataclass(eq=False)
class Client:
    """A device holding one seat or both: its message stream, its token's digest, whether it is here."""

    recipient: str
    seats: tuple[SeatName, ...]
    digest: bytes
    connected: bool = True
    absent_since: float | None = None
    taken_over: bool = False

    def leave(self, now: float) -> None:
        """The client is gone from ``now``; the grace period starts."""
        self.connected = False
        self.absent_since = now

    def come_back(self) -> bool:
        """The client is here again; returns whether the computer had taken its seats over."""
        was_taken = self.taken_over
        self.connected = True
        self.absent_since = None
        self.taken_over = False
        return was_taken

    def takeover_time(self, grace: float) -> float | None:
        """When the computer takes this absent client's seats over, or ``None``."""
        if self.connected or self.taken_over or self.absent_since is None:
            return None
        return self.absent_since + grace

    def to_dict(self) -> dict[str, Any]:
        return {
            "recipient": self.recipient,
            "seats": list(self.seats),
            "digest": self.digest.hex(),
            "connected": self.connected,
            "absent_since": self.absent_since,
            "taken_over": self.taken_over,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Client:
        seats = tuple(data["seats"])
        if not seats or any(s not in SEATS for s in seats):
            raise RecordError(f"client seats must be A and/or B, not {seats!r}")
        client = cls(data["recipient"], seats, bytes.fromhex(data["digest"]))
        client.connected = bool(data["connected"])
        client.absent_since = data["absent_since"]
        client.taken_over = bool(data["taken_over"])
        return client


@dataclass
class _Seat:
    player: PlayerInfo | None = None
    client: Client | None = None


class Seats:
    """Seats A and B: their players, and the clients (in the order they sat) that hold them."""

    def __init__(self, *, distinct: bool = False) -> None:
        self._seats: dict[SeatName, _Seat] = {s: _Seat() for s in SEATS}
        self.clients: list[Client] = []
        self._distinct = distinct

    def player(self, seat: SeatName) -> PlayerInfo | None:
        return self._seats[seat].player

    @property
    def players(self) -> dict[SeatName, PlayerInfo | None]:
        return {s: self._seats[s].player for s in SEATS}

    @property
    def full(self) -> bool:
        """Whether both seats are taken."""
        return all(self._seats[s].player is not None for s in SEATS)

    @property
    def mode(self) -> Mode | None:
        """``"online"``, ``"computer"``, ``"one-device"``, or ``None`` while a seat is empty."""
        players = [self._seats[s].player for s in SEATS]
        if any(p is None for p in players):
            return None
        if any(p.kind == "computer" for p in players if p is not None):
            return "computer"
        if self._seats["A"].client is self._seats["B"].client:
            return "one-device"
        return "online"

    def client(self, recipient: str) -> Client | None:
        """The client whose message stream is ``recipient``."""
        return next((c for c in self.clients if c.recipient == recipient), None)

    # ---------------------------------------------------------------- sitting down

    def sit(self, seat: SeatName, name: str, player_id: str | None) -> tuple[Client, str]:
        """A person on their own device takes ``seat``; returns their client and its token."""
        self._check_empty(seat)
        player = _person(name, player_id)
        self._check_distinct(seat, player)
        client, token = self._new_client(seat, (seat,))
        self._seats[seat].player = player
        self._seats[seat].client = client
        return client, token

    def sit_together(
        self, name_a: str, name_b: str, ids: tuple[str | None, str | None]
    ) -> tuple[Client, str]:
        """Two people on one device take both seats; returns the device's client and its token."""
        self._check_empty("A")
        self._check_empty("B")
        if not isinstance(ids, tuple) or len(ids) != 2:
            raise TableError(f"ids must be a pair (id of A, id of B), not {ids!r}", "bad-name")
        players = [_person(name, pid) for name, pid in zip((name_a, name_b), ids, strict=True)]
        if self._distinct and players[0].id == players[1].id:
            raise TableError(_same_player(players[0].id), "same-player")
        client, token = self._new_client("device", ("A", "B"))
        for seat, player in zip(SEATS, players, strict=True):
            self._seats[seat].player = player
            self._seats[seat].client = client
        return client, token

    def sit_computer(self, seat: SeatName, level: Level) -> None:
        """The computer takes ``seat`` at ``level``."""
        self._check_empty(seat)
        if level not in LEVELS:
            raise TableError(f"computer level must be one of {', '.join(LEVELS)}, not {level!r}", "bad-level")
        player = PlayerInfo(f"Computer ({level})", "computer", level, f"computer:{level}")
        self._check_distinct(seat, player)
        self._seats[seat].player = player

    def _check_empty(self, seat: object) -> None:
        if seat not in SEATS:
            raise TableError(f"seat must be 'A' or 'B', not {seat!r}", "no-seat")
        if self._seats[seat].player is not None:  # type: ignore[index]
            raise TableError(f"seat {seat} is taken", "seat-taken")

    def _check_distinct(self, seat: SeatName, player: PlayerInfo) -> None:
        """At a rated table, TableError ``same-player`` if the other seat has the same rating id."""
        other = self._seats["B" if seat == "A" else "A"].player
        if self._distinct and other is not None and other.id == player.id:
            raise TableError(_same_player(player.id), "same-player")

    def _new_client(self, recipient: str, seats: tuple[SeatName, ...]) -> tuple[Client, str]:
        token = secrets.token_urlsafe(24)
        client = Client(recipient, seats, token_digest(token))
        self.clients.append(client)
        return client, token

    # ---------------------------------------------------------------- tokens

    def auth(self, token: object, *, allow_absent: bool = False) -> Client:
        """The client holding ``token``; TableError ``bad-token`` (or ``disconnected``) otherwise."""
        digest = token_digest(check_token(token))
        found = None
        for client in self.clients:
            if hmac.compare_digest(client.digest, digest):
                found = client
        if found is None:
            raise TableError("this seat token is not valid at this table", "bad-token")
        if not found.connected and not allow_absent:
            raise TableError("this seat is marked absent: reconnect first", "disconnected")
        return found

    def asking(self, token: str | None) -> tuple[SeatName, ...]:
        """The seats a request with ``token`` speaks for; without a token, both seats, but only
        at a table with no person (two computers)."""
        if token is not None:
            return self.auth(token).seats
        if any(self._seats[s].player.kind == "person" for s in SEATS):  # type: ignore[union-attr]
            raise TableError("a person asks for a rematch with their seat token", "bad-token")
        return SEATS

    def rotate(self, token: str) -> str:
        """Replaces ``token`` by a fresh one (the old one stops working) and returns it."""
        client = self.auth(token, allow_absent=True)
        new = secrets.token_urlsafe(24)
        client.digest = token_digest(new)
        return new

    # ---------------------------------------------------------------- facts

    def computer_plays(self, seat: SeatName) -> bool:
        """A computer seat, or an absent person's seat the computer has taken over."""
        s = self._seats[seat]
        if s.player is not None and s.player.kind == "computer":
            return True
        return s.client is not None and s.client.taken_over

    def leave_all(self, now: float) -> None:
        """Every client still here leaves at ``now`` (after a server restart their connections are gone)."""
        for client in self.clients:
            if client.connected:
                client.leave(now)

    def takeovers(self, grace: float) -> list[tuple[float, Client]]:
        """When each absent client's seats pass to the computer (those not yet taken over)."""
        times = ((c.takeover_time(grace), c) for c in self.clients)
        return [(t, c) for t, c in times if t is not None]

    def info(self, seat: SeatName, color: Color | None) -> dict[str, Any]:
        """The public facts about ``seat`` (the seat object of the messages)."""
        s = self._seats[seat]
        if s.player is None:
            return {
                "kind": None,
                "name": None,
                "level": None,
                "connected": False,
                "computer_playing": False,
                "color": None,
            }
        connected = True if s.client is None else s.client.connected
        return {
            "kind": s.player.kind,
            "name": s.player.name,
            "level": s.player.level,
            "connected": connected,
            "computer_playing": self.computer_plays(seat),
            "color": color_name(color),
        }

    # ---------------------------------------------------------------- saving

    def to_state(self, rematch: dict[SeatName, bool]) -> dict[str, Any]:
        """``{"seats": ..., "clients": ...}`` of the table's state; ``rematch`` comes from the series."""
        index = {id(c): k for k, c in enumerate(self.clients)}
        return {
            "seats": {
                s: {
                    "player": None if seat.player is None else seat.player.to_dict(),
                    "client": None if seat.client is None else index[id(seat.client)],
                    "rematch": rematch[s],
                }
                for s, seat in self._seats.items()
            },
            "clients": [c.to_dict() for c in self.clients],
        }

    def restore(self, state: dict[str, Any]) -> None:
        """Takes the clients and players back from :meth:`to_state` output."""
        self.clients = [Client.from_dict(c) for c in state["clients"]]
        for s in SEATS:
            data = state["seats"][s]
            self._seats[s].player = None if data["player"] is None else PlayerInfo.from_dict(data["player"])
            self._seats[s].client = None if data["client"] is None else self.clients[data["client"]]


def _same_player(pid: str | None) -> str:
    return (
        f"a rated game needs two different players, but both seats would have the rating id {pid!r}"
        " (give each person their own player_id, or open an unrated table)"
    )


def _person(name: object, player_id: object) -> PlayerInfo:
    """A person's PlayerInfo; their rating id (default: the name) may not pose as a computer level's."""
    name = check_name(name)
    if player_id is not None and (
        not isinstance(player_id, str) or not player_id.strip() or len(player_id) > 2 * MAX_NAME
    ):
        raise TableError(f"a player id must be 1 to {2 * MAX_NAME} characters, not {player_id!r}", "bad-name")
    if player_id is not None and _hidden_characters(player_id):
        raise TableError(
            f"a player id may not hold control or invisible characters ({_hidden_characters(player_id)})",
            "bad-name",
        )
    pid = player_id or name
    if pid.startswith("computer:"):
        raise TableError(f"{pid!r} is reserved for the computer's ratings", "bad-name")
    return PlayerInfo(name, "person", None, pid)


# Categories a name may not hold: control (Cc), format (Cf: bidi overrides and isolates,
# zero-width characters), surrogates (Cs), private use (Co), line and paragraph separators.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})


def _hidden_characters(text: str) -> str:
    """The characters of ``text`` a name may not hold, as ``U+202E RIGHT-TO-LEFT OVERRIDE, ...``."""
    found = dict.fromkeys(ch for ch in text if unicodedata.category(ch) in _HIDDEN_CATEGORIES)
    return ", ".join(f"U+{ord(ch):04X} {unicodedata.name(ch, 'control character')}" for ch in found)


def check_name(name: object) -> str:
    """A player's name as shown to everyone: whitespace trimmed at both ends, 1 to ``MAX_NAME``
    characters, no control characters and no invisible format characters (a text-direction
    override could make a leaderboard line read as something else). TableError ``bad-name``.

    >>> check_name("  Ann ")
    'Ann'
    >>> check_name("Ann\u202e")
    Traceback (most recent call last):
    ...
    hexengine.table.errors.TableError: a player's name may not hold ... (U+202E RIGHT-TO-LEFT OVERRIDE)
    """
    if not isinstance(name, str):
        raise TableError(f"a player's name must be text, not {type(name).__name__}", "bad-name")
    name = name.strip()
    hidden = _hidden_characters(name)
    if hidden:
        raise TableError(
            f"a player's name may not hold control or invisible characters ({hidden})", "bad-name"
        )
    if not name or len(name) > MAX_NAME:
        raise TableError(
            f"a player's name must be 1 to {MAX_NAME} characters (spaces at the ends do not count), "
            f"not {name!r}",
            "bad-name",
        )
    return name
