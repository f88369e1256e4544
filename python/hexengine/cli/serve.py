"""``hexengine serve``: the web table on this computer (needs ``pip install "hexengine[server]"``).

Starts a local server (loopback, port 8765 or a free one if that is taken)
with its database in the user's data folder, and prints the address to open::

    $ hexengine serve
    hexengine: the web table is at http://127.0.0.1:8765/ (database ~/.local/share/hexengine/hexengine.db)

Options: ``--host``, ``--port`` (0 for any free port), ``--database``
(a path or ``sqlite:///path``), ``--open`` (open a browser tab).
"""

from __future__ import annotations

import argparse
import importlib.util
import socket
import sys

__all__ = ["add_parser", "run"]

DEFAULT_PORT = 8765


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Adds ``serve`` to the ``hexengine`` command."""
    parser = subparsers.add_parser(
        "serve",
        help="run the web table (online, against the computer, one device, spectators)",
        description="Run the web table: a local server for Hex, Rex and Dark Hex in the browser.",
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this computer only)"
    )
    parser.add_argument(
        "--port",
        type=int,
        default=None,
        help=f"port (default: {DEFAULT_PORT}, or a free one if it is taken; 0: any free port)",
    )
    parser.add_argument(
        "--database",
        "--db",
        default=None,
        metavar="URL",
        help="SQLite database: a path or sqlite:///path (default: hexengine.db in your data folder)",
    )
    parser.add_argument("--open", action="store_true", help="open the lobby in a browser")
    parser.add_argument(
        "--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"]
    )
    return parser


def _port(host: str, wanted: int | None) -> int:
    """The given port; by default 8765 when free, else any free one (so links stay the same
    from one run to the next whenever possible)."""
    if wanted is not None:
        if not 0 <= wanted <= 65535:
            raise SystemExit(f"hexengine serve: the port must be 0 to 65535, not {wanted}")
        if wanted != 0:
            return wanted
    candidates = [0] if wanted == 0 else [DEFAULT_PORT, 0]
    for port in candidates:
        try:
            with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
                s.bind((host, port))
                return s.getsockname()[1]
        except OSError:
            continue
    raise SystemExit(f"hexengine serve: no free port on {host}")


def run(args: argparse.Namespace) -> int:
    """Runs the server until Ctrl-C."""
    missing = [m for m in ("starlette", "uvicorn", "websockets") if importlib.util.find_spec(m) is None]
    if missing:
        print(
            f"hexengine serve needs the server extra ({', '.join(missing)} missing): "
            'pip install "hexengine[server]"',
            file=sys.stderr,
        )
        return 2
    import uvicorn

    from ..errors import ConfigError
    from ..server import create_app
    from ..server.db import database_path

    try:
        path = database_path(args.database)
        app = create_app(path)
    except ConfigError as e:
        print(f"hexengine serve: {e}", file=sys.stderr)
        return 2
    port = _port(args.host, args.port)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{shown}:{port}/"
    config = uvicorn.Config(
        app,
        host=args.host,
        port=port,
        log_level=args.log_level,
        ws_max_size=1 << 20,
        lifespan="on",
        ws="websockets-sansio",
    )
    server = uvicorn.Server(config)
    print(f"hexengine: the web table is at {url} (database {path})", flush=True)
    if args.open:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, (url,)).start()
    server.run()
    return 0
