"""Ratings for rated tables: OpenSkill (Weng-Lin) updates per rating pool, kept in a small store,
with a leaderboard, a familiar display scale and each player's history.

The maths is the ``openskill`` library's (``pip install "hexengine[ratings]"``);
hexengine only stores, ranks and shows. Each player has a skill estimate ``mu``
and an uncertainty ``sigma`` **per pool**: one pool per variant and board,
named like ``"hex:11x11"``, ``"dark:4x3"`` (:func:`pool_of`), since strength at
11x11 Hex says little about 4x3 Dark Hex. The leaderboard ranks by the
conservative ``rating = mu - 3 * sigma``, which rises as a player proves
themselves, and shows it on an Elo-like scale (:func:`display_rating`): a
newcomer shows 1500. Computer levels are rated too, under the ids
``computer:easy``, ``computer:medium`` and ``computer:hard``.

>>> import hexengine as hx
>>> ratings = hx.Ratings(hx.MemoryRatingStore())
>>> ann = hx.PlayerInfo("Ann", id="ann")
>>> easy = hx.PlayerInfo("Computer (easy)", "computer", "easy", "computer:easy")
>>> ratings.rating(ann, "hex:11x11").display
1500
>>> changes = ratings.rate(ann, easy, pool="hex:11x11", time=60.0)
>>> changes["ann"]["after"]["display"] > changes["ann"]["before"]["display"]
True
>>> [(p.id, p.games, p.wins) for p in ratings.leaderboard(pool="hex:11x11")]
[('ann', 1, 1), ('computer:easy', 1, 0)]
>>> ratings.history("ann", "hex:11x11")
[(60.0, 1601)]
>>> ratings.leaderboard(pool="hex:7x7")
[]

Stores implement :class:`RatingStore`: :class:`MemoryRatingStore` for tests and
single processes, :class:`SQLiteRatingStore` (standard library ``sqlite3``) for
servers.
"""

from __future__ import annotations

import math
import re
import sqlite3
import threading
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Literal, Protocol

from ..errors import HexError
from ..records import PlayerInfo
from ..rules import Rules

__all__ = [
    "BETA",
    "MemoryRatingStore",
    "PlayerRating",
    "RatingStore",
    "Ratings",
    "SQLiteRatingStore",
    "check_pool",
    "display_rating",
    "pool_of",
]

Kind = Literal["person", "computer"]

BETA = 25.0 / 6.0
"""OpenSkill's default performance spread (``beta``): the display scale is measured in it."""

ELO_UNIT = 400.0 / math.log(10.0)
"""173.72: Elo points per unit of logistic log-odds."""

FLOOR = 100
"""The display never goes below this: no rating looks negative."""

_POOL = re.compile(r"^(hex|rex|dark|dark-abrupt):([1-9][0-9]?)x([1-9][0-9]?)$")


def pool_of(rules: Rules) -> str:
    """The rating pool of a game: its variant and board, ``"hex:11x11"`` or ``"dark:4x3"``
    (rows x cols). Swap forms share a pool.

    >>> hx.table.ratings.pool_of(hx.Rules("dark", 4, 3))
    'dark:4x3'
    """
    return f"{rules.variant}:{rules.rows}x{rules.cols}"


def check_pool(pool: object) -> str:
    """``pool`` if it names a variant and a board as :func:`pool_of` does; HexError otherwise."""
    match = _POOL.match(pool) if isinstance(pool, str) else None
    if match is None or int(match[2]) > 19 or int(match[3]) > 19:
        raise HexError(
            f"a rating pool is a variant and a board such as 'hex:11x11' or 'dark:4x3', not {pool!r}"
        )
    return pool


def display_rating(mu: float, sigma: float) -> int:
    """The conservative rating ``mu - 3 sigma`` on an Elo-like scale:
    ``1500 + 173.72 * (mu - 3 sigma) / (sqrt(2) * BETA)``, at least 100, rounded.

    Two well-established players (small ``sigma``) whose ``mu`` differ by ``d`` win
    against each other with odds ``exp(d / (sqrt(2) * BETA))`` in OpenSkill's
    Bradley-Terry model; the scale turns that into Elo points (400 points: 10 to 1),
    about 29.5 points per point of ``mu``. A newcomer (``mu`` 25, ``sigma`` 25/3) shows
    1500; the number rises as games make ``sigma`` shrink and falls with losses.

    >>> display_rating(25.0, 25.0 / 3.0)
    1500
    >>> display_rating(30.0, 1.0)
    2296
    >>> display_rating(-40.0, 8.0)
    100
    """
    value = 1500.0 + ELO_UNIT * (mu - 3.0 * sigma) / (math.sqrt(2.0) * BETA)
    return max(FLOOR, round(value))


@dataclass(frozen=True)
class PlayerRating:
    """One player's rating in one pool: OpenSkill ``mu`` and ``sigma``, a tally of rated
    games, and when it last changed (``updated``, the table clock's time)."""

    id: str
    name: str
    kind: Kind
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    losses: int = 0
    pool: str = "hex:11x11"
    updated: float | None = None

    @property
    def rating(self) -> float:
        """The conservative estimate ``mu - 3 * sigma`` that the leaderboard ranks by."""
        return self.mu - 3.0 * self.sigma

    @property
    def display(self) -> int:
        """:attr:`rating` on the Elo-like scale (:func:`display_rating`): 1500 for a newcomer."""
        return display_rating(self.mu, self.sigma)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "rating": self.rating, "display": self.display}

    def __repr__(self) -> str:
        score = f"(mu {self.mu:.2f}, sigma {self.sigma:.2f}) {self.wins}-{self.losses}"
        return f"<PlayerRating {self.id} {self.pool} {self.display} {score}>"


class RatingStore(Protocol):
    """Where ratings live, per pool. ``put`` stores several ratings at once, atomically, and adds
    each to its player's history; ``leaderboard`` with ``pool=None`` lists every pool."""

    def get(self, player_id: str, pool: str) -> PlayerRating | None: ...

    def put(self, ratings: list[PlayerRating]) -> None: ...

    def leaderboard(self, limit: int, kind: Kind | None, pool: str | None) -> list[PlayerRating]: ...

    def history(self, player_id: str, pool: str) -> list[tuple[float | None, int]]: ...


def _ranked(rows: list[PlayerRating], limit: int) -> list[PlayerRating]:
    rows.sort(key=lambda r: (-r.rating, r.id, r.pool))
    return rows if limit < 0 else rows[:limit]


class MemoryRatingStore:
    """Ratings in a dict: for tests and single processes."""

    def __init__(self) -> None:
        self._data: dict[tuple[str, str], PlayerRating] = {}
        self._history: dict[tuple[str, str], list[tuple[float | None, int]]] = {}
        self._lock = threading.Lock()

    def get(self, player_id: str, pool: str) -> PlayerRating | None:
        return self._data.get((pool, player_id))

    def put(self, ratings: list[PlayerRating]) -> None:
        with self._lock:
            for r in ratings:
                self._data[(r.pool, r.id)] = r
                self._history.setdefault((r.pool, r.id), []).append((r.updated, r.display))

    def leaderboard(self, limit: int, kind: Kind | None, pool: str | None) -> list[PlayerRating]:
        rows = [
            r
            for r in self._data.values()
            if (kind is None or r.kind == kind) and (pool is None or r.pool == pool)
        ]
        return _ranked(rows, limit)

    def history(self, player_id: str, pool: str) -> list[tuple[float | None, int]]:
        return list(self._history.get((pool, player_id), []))


class SQLiteRatingStore:
    """Ratings in an SQLite database (a path, ``":memory:"``, or an open connection).

    Tables ``hexengine_pool_ratings`` (one row per player and pool) and
    ``hexengine_rating_history`` (one row per rated game and player); every ``put`` is
    one transaction. The single-pool table of earlier versions (``hexengine_ratings``) is
    left as it was: its ratings mixed every variant and size, so they start afresh.
    """

    _SCHEMA = """
        CREATE TABLE IF NOT EXISTS hexengine_pool_ratings (
            pool TEXT NOT NULL,
            id TEXT NOT NULL,
            name TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('person', 'computer')),
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            games INTEGER NOT NULL,
            wins INTEGER NOT NULL,
            losses INTEGER NOT NULL,
            updated REAL,
            PRIMARY KEY (pool, id)
        );
        CREATE INDEX IF NOT EXISTS hexengine_pool_ratings_rank
            ON hexengine_pool_ratings (pool, mu - 3 * sigma DESC, id);
        CREATE TABLE IF NOT EXISTS hexengine_rating_history (
            pool TEXT NOT NULL,
            id TEXT NOT NULL,
            time REAL,
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            display INTEGER NOT NULL
        );
        CREATE INDEX IF NOT EXISTS hexengine_rating_history_player
            ON hexengine_rating_history (pool, id);
    """
    _COLUMNS = "id, name, kind, mu, sigma, games, wins, losses, pool, updated"

    def __init__(self, database: str | Path | sqlite3.Connection = ":memory:") -> None:
        if isinstance(database, sqlite3.Connection):
            self._conn = database
        else:
            self._conn = sqlite3.connect(str(database), check_same_thread=False)
        self._lock = threading.Lock()
        with self._lock, self._conn:
            self._conn.executescript(self._SCHEMA)

    def get(self, player_id: str, pool: str) -> PlayerRating | None:
        with self._lock:
            row = self._conn.execute(
                f"SELECT {self._COLUMNS} FROM hexengine_pool_ratings WHERE pool = ? AND id = ?",
                (pool, player_id),
            ).fetchone()
        return None if row is None else PlayerRating(*row)

    def put(self, ratings: list[PlayerRating]) -> None:
        rows = [
            (r.pool, r.id, r.name, r.kind, r.mu, r.sigma, r.games, r.wins, r.losses, r.updated)
            for r in ratings
        ]
        history = [(r.pool, r.id, r.updated, r.mu, r.sigma, r.display) for r in ratings]
        with self._lock, self._conn:
            self._conn.executemany(
                """INSERT INTO hexengine_pool_ratings
                     (pool, id, name, kind, mu, sigma, games, wins, losses, updated)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                   ON CONFLICT(pool, id) DO UPDATE SET name = excluded.name, kind = excluded.kind,
                     mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,
                     wins = excluded.wins, losses = excluded.losses, updated = excluded.updated""",
                rows,
            )
            self._conn.executemany(
                """INSERT INTO hexengine_rating_history (pool, id, time, mu, sigma, display)
                   VALUES (?, ?, ?, ?, ?, ?)""",
                history,
            )

    def leaderboard(self, limit: int, kind: Kind | None, pool: str | None) -> list[PlayerRating]:
        query = f"SELECT {self._COLUMNS} FROM hexengine_pool_ratings"
        where, args = [], []
        if kind is not None:
            where.append("kind = ?")
            args.append(kind)
        if pool is not None:
            where.append("pool = ?")
            args.append(pool)
        if where:
            query += " WHERE " + " AND ".join(where)
        query += " ORDER BY mu - 3 * sigma DESC, id, pool LIMIT ?"
        with self._lock:
            rows = self._conn.execute(query, (*args, limit)).fetchall()
        return [PlayerRating(*row) for row in rows]

    def history(self, player_id: str, pool: str) -> list[tuple[float | None, int]]:
        with self._lock:
            rows = self._conn.execute(
                """SELECT time, display FROM hexengine_rating_history
                   WHERE pool = ? AND id = ? ORDER BY rowid""",
                (pool, player_id),
            ).fetchall()
        return [(t, int(d)) for t, d in rows]

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

    def get(self, player_id: str, pool: str) -> PlayerRating | None:
        """The stored rating of ``player_id`` in ``pool``, or ``None`` if they never played a
        rated game there."""
        return self._store.get(player_id, check_pool(pool))

    def rating(self, player: PlayerInfo, pool: str) -> PlayerRating:
        """``player``'s stored rating in ``pool``, or the model's starting rating for a newcomer."""
        pid = _player_id(player)
        found = self._store.get(pid, check_pool(pool))
        if found is not None:
            return found
        mu, sigma = float(self._model.mu), float(self._model.sigma)
        return PlayerRating(pid, player.name, player.kind, mu, sigma, pool=pool)

    def rate(
        self, winner: PlayerInfo, loser: PlayerInfo, *, pool: str, time: float | None = None
    ) -> dict[str, dict[str, Any]]:
        """Updates both players in ``pool`` after ``winner`` beat ``loser`` at ``time``; returns
        ``{player_id: {"before": {...}, "after": {...}}}``. A player cannot be rated against
        themselves (the same id on both sides is a HexError)."""
        with self._lock:
            w, lo = self.rating(winner, pool), self.rating(loser, pool)
            if w.id == lo.id:
                raise HexError(f"a rated game needs two different players, but both sides are {w.id!r}")
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
                updated=time,
            )
            l2 = replace(
                lo,
                name=loser.name,
                mu=float(nl.mu),
                sigma=float(nl.sigma),
                games=lo.games + 1,
                losses=lo.losses + 1,
                updated=time,
            )
            self._store.put([w2, l2])
        return {
            w.id: {"before": w.to_dict(), "after": w2.to_dict()},
            lo.id: {"before": lo.to_dict(), "after": l2.to_dict()},
        }

    def leaderboard(
        self, limit: int = 20, kind: Kind | None = None, pool: str | None = None
    ) -> list[PlayerRating]:
        """The best ``limit`` players by ``rating``; ``kind`` keeps only persons or computers,
        ``pool`` one variant and board (``None``: every pool, a player once per pool)."""
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise HexError(f"leaderboard limit must be a positive integer, not {limit!r}")
        if kind not in (None, "person", "computer"):
            raise HexError(f"kind must be 'person', 'computer' or None, not {kind!r}")
        return self._store.leaderboard(limit, kind, None if pool is None else check_pool(pool))

    def history(self, player_id: str, pool: str) -> list[tuple[float | None, int]]:
        """``player_id``'s displayed rating after each of their rated games in ``pool``, oldest
        first, as ``(time, display)``."""
        return self._store.history(player_id, check_pool(pool))


def _player_id(player: PlayerInfo) -> str:
    if not isinstance(player, PlayerInfo):
        raise HexError(f"rate players given as hx.PlayerInfo, not {type(player).__name__}")
    return player.id or player.name
