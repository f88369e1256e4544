"""The web table: ``hexengine serve`` (``pip install "hexengine[server]"``).

A Starlette application that drives one :class:`hexengine.Table` per table and
forwards each recipient's messages over a websocket; it re-implements no rule.
Pages are plain HTML, CSS and JavaScript shipped in this package. Every table's
state is committed to SQLite (WAL mode) before a move is acknowledged, so a
restarted server carries on every game where it stood.

>>> from hexengine.server import create_app
>>> app = create_app("sqlite:///:memory:")
>>> "/api/tables" in [r.path for r in app.routes]
True
"""

from __future__ import annotations

from .app import create_app, parse_frame
from .db import Database, database_path, default_database
from .hub import Hub
from .rooms import Room

__all__ = [
    "Database",
    "Hub",
    "Room",
    "create_app",
    "database_path",
    "default_database",
    "parse_frame",
    "serve",
]


def serve(
    host: str = "127.0.0.1",
    port: int = 8765,
    database: str | None = None,
    *,
    log_level: str = "warning",
    ready: object = None,
) -> None:
    """Runs the server until interrupted (what ``hexengine serve`` does)."""
    import uvicorn

    app = create_app(database)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=1 << 20,
        lifespan="on",
        ws="websockets-sansio",
    )
    server = uvicorn.Server(config)
    if callable(ready):
        ready(server)
    server.run()
