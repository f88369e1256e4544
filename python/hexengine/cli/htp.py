"""``hexengine htp``: hexengine as an HTP engine on standard input and output.

Connect it to HexGui (Program > New Program, command ``hexengine htp``) or to
any HTP/GTP controller. ``param_game variant rex`` switches to Rex,
``param_hexengine simulations N`` or ``seconds S`` sets the search; see
:mod:`hexengine.htp.engine` and ``docs/htp.md`` for every command. Options
given on the command line win over the ``--level`` preset.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """The ``htp`` subcommand's parser."""
    parser = subparsers.add_parser(
        "htp",
        help="an HTP engine on standard input/output (for HexGui and Benzene's tools)",
        description="Answer HTP commands (the Hex dialect of GTP) on standard input/output. "
        "Black is Red: it moves first and joins rows 1 and N; letters are columns. "
        "'param_game variant rex' switches to Rex; 'param_hexengine simulations N' or "
        "'param_hexengine seconds S' sets the search per move.",
    )
    parser.add_argument("--variant", choices=["hex", "rex"], default="hex", help="the first game's variant")
    parser.add_argument("--size", type=int, default=11, help="board size (default 11)")
    parser.add_argument("--rows", type=int, help="rows, for boards that are not square")
    parser.add_argument("--cols", type=int, help="columns, for boards that are not square")
    parser.add_argument("--swap", choices=["sides", "pieces", "off"], help="swap form (default sides)")
    parser.add_argument(
        "--level", choices=["easy", "medium", "hard"], help="a search preset (the options below win over it)"
    )
    parser.add_argument(
        "--simulations",
        type=int,
        help="simulations per move (default 10000; with --seconds too, whichever comes first)",
    )
    parser.add_argument("--seconds", type=float, help="seconds per move (alone: no simulation cap)")
    parser.add_argument("--threads", type=int, help="search threads (default 1, or the level's)")
    parser.add_argument("--seed", type=int, default=0, help="search seed (default 0)")
    parser.add_argument(
        "--dialect",
        "--swap-dialect",
        choices=["standard", "benzene", "hexgui"],
        help="how swaps are named and whether stones may be played out of turn: standard (swap-sides "
        "and swap-pieces as the SGF standard says; the default, until HexGui shows itself), benzene "
        "(Benzene, MoHex, HexGui 0.9: swap-pieces is the side swap) or hexgui",
    )
    return parser


def run(args: argparse.Namespace) -> int:
    """Serves HTP until ``quit`` or the end of input."""
    from ..errors import HexError
    from ..htp.engine import HtpEngine, HtpFailure

    try:
        engine = HtpEngine(
            args.variant,
            args.size,
            rows=args.rows,
            cols=args.cols,
            swap=args.swap,
            level=args.level,
            simulations=args.simulations,
            seconds=args.seconds,
            threads=args.threads,
            seed=args.seed,
            dialect=args.dialect,
        )
    except (HexError, HtpFailure) as e:
        print(f"hexengine htp: {e}", file=sys.stderr)
        return 2
    return engine.serve(sys.stdin, sys.stdout)
