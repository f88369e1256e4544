"""Ratings for rated tables: OpenSkill (Weng-Lin) updates, kept in a small store, with a leaderboard.

The maths is the ``openskill`` library's (``pip install "hexengine[ratings]"``);
hexengine only stores and ranks. Each player has a skill estimate ``mu`` and an
uncertainty ``sigma``; the leaderboard ranks by the conservative
``rating = mu - 3 * sigma``, which rises as a player proves themselves. Computer
levels are rated too, under the ids ``computer:easy``, ``computer:medium`` and
``computer:hard``.

>>> import hexengine as hx
>>> ratings = hx.Ratings(hx.MemoryRatingStore())
>>> ann = hx.PlayerInfo("Ann", id="ann")
>>> easy = hx.PlayerInfo("Computer (easy)", "computer", "easy", "computer:easy")
>>> changes = ratings.rate(ann, easy)
>>> changes["ann"]["after"]["mu"] > changes["ann"]["before"]["mu"]
True
>>> [(p.id, p.games, p.wins) for p in ratings.leaderboard()]
[('ann', 1, 1), ('computer:easy', 1, 0)]

Stores implement :class:`RatingStore`: :class:`MemoryRatingStore` for tests and
single processes, :class:`SQLiteRatingStore` (standard library ``sqlite3``) for
servers.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Literal, Protocol

from ..errors import HexError
from ..records import PlayerInfo

__all__ = ["MemoryRatingStore", "PlayerRating", "RatingStore", "Ratings", "SQLiteRatingStore"]

Kind = Literal["person", "computer"]


@dataclass(frozen=True)
class PlayerRating:
    """One player's rating: OpenSkill ``mu`` and ``sigma``, and a tally of rated games."""

    id: str
    name: str
    kind: Kind
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    losses: int = 0

    @property
    def rating(self) -> float:
        """The conservative estimate ``mu - 3 * sigma`` that the leaderboard ranks by."""
        return self.mu - 3.0 * self.sigma

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "rating": self.rating}

    def __repr__(self) -> str:
        score = f"(mu {self.mu:.2f}, sigma {self.sigma:.2f}) {self.wins}-{self.losses}"
        return f"<PlayerRating {self.id} {self.rating:.1f} {score}>"


class RatingStore(Protocol):
    """Where ratings live. ``put`` stores several ratings at once, atomically."""

    def get(self, player_id: str) -> PlayerRating | None: ...

    def put(self, ratings: list[PlayerRating]) -> None: ...

    def leaderboard(self, limit: int, kind: Kind | None) -> list[PlayerRating]: ...


class MemoryRatingStore:
    """Ratings in a dict: for tests and single processes."""

    def __init__(self) -> None:
        self._data: dict[str, PlayerRating] = {}
        self._lock = threading.Lock()

    def get(self, player_id: str) -> PlayerRating | None:
        return self._data.get(player_id)

    def put(self, ratings: list[PlayerRating]) -> None:
        with self._lock:
            for r in ratings:
                self._data[r.id] = r

    def leaderboard(self, limit: int, kind: Kind | None) -> list[PlayerRating]:
        rows = [r for r in self._data.values() if kind is None or r.kind == kind]
        rows.sort(key=lambda r: (-r.rating, r.id))
        return rows[:limit]


class SQLiteRatingStore:
    """Ratings in an SQLite database (a path, ``":memory:"``, or an open connection).

    One table, ``hexengine_ratings``; every ``put`` is one transaction.
    """

    _SCHEMA = """
        CREATE TABLE IF NOT EXISTS hexengine_ratings (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('person', 'computer')),
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            games INTEGER NOT NULL,
            wins INTEGER NOT NULL,
            losses INTEGER NOT NULL
        );
        CREATE INDEX IF NOT EXISTS hexengine_ratings_rank ON hexengine_ratings (mu - 3 * sigma DESC, id);
    """

    def __init__(self, database: str | Path | sqlite3.Connection = ":memory:") -> None:
        if isinstance(database, sqlite3.Connection):
            self._conn = database
        else:
            self._conn = sqlite3.connect(str(database), check_same_thread=False)
        self._lock = threading.Lock()
        with self._lock, self._conn:
            self._conn.executescript(self._SCHEMA)

    def get(self, player_id: str) -> PlayerRating | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT id, name, kind, mu, sigma, games, wins, losses FROM hexengine_ratings WHERE id = ?",
                (player_id,),
            ).fetchone()
        return None if row is None else PlayerRating(*row)

    def put(self, ratings: list[PlayerRating]) -> None:
        rows = [(r.id, r.name, r.kind, r.mu, r.sigma, r.games, r.wins, r.losses) for r in ratings]
        with self._lock, self._conn:
            self._conn.executemany(
                """INSERT INTO hexengine_ratings (id, name, kind, mu, sigma, games, wins, losses)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                   ON CONFLICT(id) DO UPDATE SET name = excluded.name, kind = excluded.kind,
                     mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,
                     wins = excluded.wins, losses = excluded.losses""",
                rows,
            )

    def leaderboard(self, limit: int, kind: Kind | None) -> list[PlayerRating]:
        query = "SELECT id, name, kind, mu, sigma, games, wins, losses FROM hexengine_ratings"
        args: tuple[Any, ...] = ()
        if kind is not None:
            query += " WHERE kind = ?"
            args = (kind,)
        query += " ORDER BY mu - 3 * sigma DESC, id LIMIT ?"
        with self._lock:
            rows = self._conn.execute(query, (*args, limit)).fetchall()
        return [PlayerRating(*row) for row in rows]

    def close(self) -> None:
        self._conn.close()


class Ratings:
    """Rates finished games with an OpenSkill model and keeps the results in a store.

    ``Ratings(store=None, model=None)``: the store defaults to a
    :class:`MemoryRatingStore`, the model to OpenSkill's default
    ``PlackettLuce()`` (for two players it is the Bradley-Terry update).
    """

    def __init__(self, store: RatingStore | None = None, model: Any = None) -> None:
        if model is None:
            try:
                from openskill.models import PlackettLuce
            except ImportError:  # pragma: no cover - exercised only without the extra
                raise HexError(
                    'ratings need the openskill library: pip install "hexengine[ratings]"'
                ) from None
            model = PlackettLuce()
        self._model = model
        self._store: RatingStore = store if store is not None else MemoryRatingStore()
        self._lock = threading.Lock()

    @property
    def store(self) -> RatingStore:
        return self._store

    def get(self, player_id: str) -> PlayerRating | None:
        """The stored rating of ``player_id``, or ``None`` if they never played a rated game."""
        return self._store.get(player_id)

    def rating(self, player: PlayerInfo) -> PlayerRating:
        """``player``'s stored rating, or the model's starting rating for a newcomer."""
        pid = _player_id(player)
        found = self._store.get(pid)
        if found is not None:
            return found
        return PlayerRating(pid, player.name, player.kind, float(self._model.mu), float(self._model.sigma))

    def rate(self, winner: PlayerInfo, loser: PlayerInfo) -> dict[str, dict[str, Any]]:
        """Updates both players after ``winner`` beat ``loser``; returns
        ``{player_id: {"before": {...}, "after": {...}}}``. A player against
        themselves (same id) changes nothing."""
        with self._lock:
            w, lo = self.rating(winner), self.rating(loser)
            if w.id == lo.id:
                return {w.id: {"before": w.to_dict(), "after": w.to_dict()}}
            [[nw], [nl]] = self._model.rate(
                [
                    [self._model.rating(mu=w.mu, sigma=w.sigma)],
                    [self._model.rating(mu=lo.mu, sigma=lo.sigma)],
                ],
                ranks=[1, 2],
            )
            w2 = replace(
                w,
                name=winner.name,
                mu=float(nw.mu),
                sigma=float(nw.sigma),
                games=w.games + 1,
                wins=w.wins + 1,
            )
            l2 = replace(
                lo,
                name=loser.name,
                mu=float(nl.mu),
                sigma=float(nl.sigma),
                games=lo.games + 1,
                losses=lo.losses + 1,
            )
            self._store.put([w2, l2])
        return {
            w.id: {"before": w.to_dict(), "after": w2.to_dict()},
            lo.id: {"before": lo.to_dict(), "after": l2.to_dict()},
        }

    def leaderboard(self, limit: int = 20, kind: Kind | None = None) -> list[PlayerRating]:
        """The best ``limit`` players by ``rating``; ``kind`` keeps only persons or computers."""
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise HexError(f"leaderboard limit must be a positive integer, not {limit!r}")
        if kind not in (None, "person", "computer"):
            raise HexError(f"kind must be 'person', 'computer' or None, not {kind!r}")
        return self._store.leaderboard(limit, kind)


def _player_id(player: PlayerInfo) -> str:
    if not isinstance(player, PlayerInfo):
        raise HexError(f"rate players given as hx.PlayerInfo, not {type(player).__name__}")
    return player.id or player.name
