"""The server's database: one SQLite file in WAL mode holding every table's state and the ratings.

All access goes through one thread (:class:`Database` runs each call on its
own single-thread executor), so the event loop never waits on the disk and
writes are applied in the order they were asked for. A table's state, the
server's bookkeeping for it (acknowledged move ids, the invite digest) and the
rating changes of a game that just ended are committed in one transaction.

Ratings live in the table layer's :class:`~hexengine.SQLiteRatingStore`
(table ``hexengine_ratings``) in the same file.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..table import PlayerRating, SQLiteRatingStore

__all__ = ["Database", "SavedTable", "database_path", "default_database"]

_SCHEMA = """
    CREATE TABLE IF NOT EXISTS hexengine_tables (
        id TEXT PRIMARY KEY,
        state TEXT NOT NULL,
        meta TEXT NOT NULL,
        active INTEGER NOT NULL,
        created REAL NOT NULL,
        updated REAL NOT NULL
    );
    CREATE INDEX IF NOT EXISTS hexengine_tables_active ON hexengine_tables (active, updated);
    CREATE TABLE IF NOT EXISTS hexengine_recovery (
        digest TEXT PRIMARY KEY,
        player TEXT NOT NULL,
        sealed TEXT NOT NULL,
        expires REAL NOT NULL
    );
    CREATE INDEX IF NOT EXISTS hexengine_recovery_player ON hexengine_recovery (player);
"""


@dataclass(frozen=True)
class SavedTable:
    """One row: the table's ``to_state()``, the server's bookkeeping, and whether it was running."""

    id: str
    state: dict[str, Any]
    meta: dict[str, Any]
    active: bool


def default_database() -> Path:
    """``hexengine.db`` in the user's data folder (platformdirs, or the XDG/APPDATA convention)."""
    try:
        from platformdirs import user_data_dir

        folder = Path(user_data_dir("hexengine", appauthor=False))
    except ImportError:  # pragma: no cover - platformdirs is in the server extra
        import os
        import sys

        if sys.platform == "win32":
            folder = Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming")) / "hexengine"
        elif sys.platform == "darwin":
            folder = Path.home() / "Library" / "Application Support" / "hexengine"
        else:
            folder = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "hexengine"
    return folder / "hexengine.db"


def database_path(url: str | Path | None) -> Path | str:
    """The SQLite file named by ``url``: ``None`` (the default file), a path, ``sqlite:///path``,
    or ``sqlite:///:memory:``. Other databases are not supported (a clear ConfigError)."""
    if url is None:
        return default_database()
    if isinstance(url, Path):
        return url
    if not isinstance(url, str) or not url.strip():
        raise ConfigError(f"database must be a path or an sqlite:/// URL, not {url!r}")
    if "://" in url:
        scheme, _, rest = url.partition("://")
        if scheme != "sqlite":
            raise ConfigError(f"only SQLite databases are supported (sqlite:///path), not {scheme}://")
        if rest in ("", "/"):
            raise ConfigError("an sqlite:/// URL needs a file: sqlite:///path/to/hexengine.db")
        rest = rest[1:] if rest.startswith("/") else rest
        return ":memory:" if rest == ":memory:" else Path(rest if rest.startswith("/") else "/" + rest)
    return Path(url)


class Database:
    """The tables and ratings of one server, in one SQLite file (WAL mode).

    Every method with ``async`` runs on the database thread; the constructor
    opens (and creates) the file there too.
    """

    def __init__(self, path: str | Path) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hexengine-db")
        self.path = path
        self._conn: sqlite3.Connection = self._executor.submit(self._open, path).result()
        self.ratings_store = SQLiteRatingStore(self._conn)

    @staticmethod
    def _open(path: str | Path) -> sqlite3.Connection:
        if isinstance(path, Path):
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise ConfigError(f"cannot create the database folder {path.parent}: {e}") from None
        try:
            conn = sqlite3.connect(str(path), check_same_thread=False, timeout=10)
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(path) != ":memory:" and mode.lower() != "wal":
                raise ConfigError(f"the database {path} cannot use WAL mode (journal_mode is {mode})")
            # WAL + NORMAL: a commit survives the process being killed (not a power cut).
            conn.execute("PRAGMA synchronous=NORMAL")
            with conn:
                conn.executescript(_SCHEMA)
        except sqlite3.Error as e:
            raise ConfigError(f"cannot open the database {path}: {e}") from None
        return conn

    async def _run(self, fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)

    def journal_mode(self) -> str:
        """``"wal"`` for a file database."""
        return self._executor.submit(lambda: self._conn.execute("PRAGMA journal_mode").fetchone()[0]).result()

    # ---------------------------------------------------------------- tables

    async def save(
        self,
        table_id: str,
        state: dict[str, Any],
        meta: dict[str, Any],
        active: bool,
        ratings: list[PlayerRating] | None = None,
    ) -> None:
        """Commits a table's state and bookkeeping (and the ratings it changed) in one transaction."""
        await self._run(self._save, table_id, json.dumps(state), json.dumps(meta), active, ratings or [])

    def _save(self, table_id: str, state: str, meta: str, active: bool, ratings: list[PlayerRating]) -> None:
        now = time.time()
        conn = self._conn
        try:
            conn.execute(
                """INSERT INTO hexengine_tables (id, state, meta, active, created, updated)
                   VALUES (?, ?, ?, ?, ?, ?)
                   ON CONFLICT(id) DO UPDATE SET state = excluded.state, meta = excluded.meta,
                     active = excluded.active, updated = excluded.updated""",
                (table_id, state, meta, int(active), now, now),
            )
            if ratings:
                self.ratings_store.put(ratings)  # commits the whole transaction
            else:
                conn.commit()
        except BaseException:
            conn.rollback()
            raise

    async def load(self, table_id: str) -> SavedTable | None:
        """One table, or ``None``."""
        return await self._run(self._load, table_id)

    def _load(self, table_id: str) -> SavedTable | None:
        row = self._conn.execute(
            "SELECT id, state, meta, active FROM hexengine_tables WHERE id = ?", (table_id,)
        ).fetchone()
        return (
            None if row is None else SavedTable(row[0], json.loads(row[1]), json.loads(row[2]), bool(row[3]))
        )

    async def active_ids(self) -> list[str]:
        """Tables whose game was running or waiting for a player at the last save."""
        rows = await self._run(
            lambda: self._conn.execute("SELECT id FROM hexengine_tables WHERE active = 1").fetchall()
        )
        return [r[0] for r in rows]

    # ---------------------------------------------------------------- recovery codes

    async def save_recovery(self, digest: str, player: str, sealed: str, expires: float) -> None:
        """Stores a recovery code's digest and its sealed player id; earlier codes of the same
        player stop working (one open code per identity)."""

        def save() -> None:
            with self._conn:
                self._conn.execute("DELETE FROM hexengine_recovery WHERE player = ?", (player,))
                self._conn.execute(
                    "INSERT INTO hexengine_recovery (digest, player, sealed, expires) VALUES (?, ?, ?, ?)",
                    (digest, player, sealed, expires),
                )

        await self._run(save)

    async def claim_recovery(self, digest: str, now: float) -> str | None:
        """Takes (and deletes, in one transaction) the sealed player id of the code with
        ``digest`` if it has not expired by ``now``; ``None`` otherwise. Expired codes go too."""

        def claim() -> str | None:
            with self._conn:
                self._conn.execute("DELETE FROM hexengine_recovery WHERE expires < ?", (now,))
                row = self._conn.execute(
                    "SELECT sealed FROM hexengine_recovery WHERE digest = ?", (digest,)
                ).fetchone()
                if row is not None:
                    self._conn.execute("DELETE FROM hexengine_recovery WHERE digest = ?", (digest,))
            return None if row is None else str(row[0])

        return await self._run(claim)

    # ---------------------------------------------------------------- ratings

    async def all_ratings(self) -> list[PlayerRating]:
        """Every stored rating of every pool (the server keeps them in memory to rate games
        without waiting)."""
        return await self._run(self.ratings_store.leaderboard, -1, None, None)

    async def leaderboard(self, limit: int, kind: str | None, pool: str | None = None) -> list[PlayerRating]:
        return await self._run(self.ratings_store.leaderboard, limit, kind, pool)

    async def rating_history(self, player_id: str, pool: str) -> list[tuple[float | None, int]]:
        """``player_id``'s displayed rating after each rated game in ``pool``, oldest first."""
        return await self._run(self.ratings_store.history, player_id, pool)

    async def pools(self) -> list[dict[str, Any]]:
        """Every pool with rated players: ``[{"pool", "players"}]``, most players first."""
        rows = await self._run(
            lambda: self._conn.execute(
                "SELECT pool, COUNT(*) FROM hexengine_pool_ratings GROUP BY pool ORDER BY COUNT(*) DESC, pool"
            ).fetchall()
        )
        return [{"pool": p, "players": n} for p, n in rows]

    def close(self) -> None:
        self._executor.submit(self._conn.close).result()
        self._executor.shutdown()
