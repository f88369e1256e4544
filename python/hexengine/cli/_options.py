"""Options that several subcommands share."""

from __future__ import annotations

import argparse

VARIANTS = ("hex", "rex", "dark", "dark-abrupt")


def add_board_options(parser: argparse.ArgumentParser, size: int) -> None:
    """``--variant``, ``--size`` (default ``size``), ``--rows``, ``--cols`` and ``--swap``."""
    parser.add_argument("--variant", choices=list(VARIANTS), default="hex")
    parser.add_argument("--size", type=int, default=size, help=f"board size (default {size})")
    parser.add_argument("--rows", type=int, help="rows, for boards that are not square")
    parser.add_argument("--cols", type=int, help="columns, for boards that are not square")
    parser.add_argument(
        "--swap", choices=["sides", "pieces", "off"], help="swap form (default: the variant's)"
    )
