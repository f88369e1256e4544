"""The ``hexengine`` command.

Each subcommand is a module of this package with ``add_parser(subparsers)``
and ``run(args) -> int``: ``play`` (a game in the terminal), ``htp`` (an HTP
engine for HexGui and Benzene's tools), ``match`` (games between engines), ``tournament``
(a round robin between several), ``selfplay`` (training data), ``serve`` (the web table).
A subcommand whose module or optional dependencies are missing is simply not offered.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from .._version import __version__
from ._options import show_defaults

__all__ = ["main"]

SUBCOMMANDS = ("play", "htp", "match", "tournament", "selfplay", "serve")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every available subcommand."""
    parser = argparse.ArgumentParser(prog="hexengine", description="Play and connect Hex, Rex and Dark Hex.")
    parser.add_argument("--version", action="version", version=f"hexengine {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ImportError:
            continue
        sub = module.add_parser(subparsers)
        show_defaults(sub)
        sub.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    return int(args.run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
