"""``hexengine htp``: hexengine as an HTP engine on standard input and output.

Connect it to HexGui (Program > New Program, command ``hexengine htp``) or to
any HTP/GTP controller. ``param_game variant rex`` switches to Rex,
``param_hexengine simulations N`` or ``seconds S`` sets the search; see
:mod:`hexengine.htp.engine` for every command.
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
    parser.add_argument("--level", choices=["easy", "medium", "hard"], help="a search preset")
    parser.add_argument("--simulations", type=int, help="simulations per move (default 10000)")
    parser.add_argument("--seconds", type=float, help="seconds per move")
    parser.add_argument("--threads", type=int, default=1, help="search threads (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="search seed (default 0)")
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
        )
    except (HexError, HtpFailure) as e:
        print(f"hexengine htp: {e}", file=sys.stderr)
        return 2
    return engine.serve(sys.stdin, sys.stdout)
