"""``hexengine match``: N games between two players, in parallel, with an Elo estimate.

Players are spec strings (see :mod:`hexengine.match.players`), e.g.::

    hexengine match -n 200 --size 11 --swap off \\
        --player "mcts:simulations=1000" \\
        --player "htp:/path/to/mohex --quiet --use-logfile=0;setup=param_mohex max_games 1000;timeout=60"
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
from typing import Any

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """The ``match`` subcommand's parser."""
    parser = subparsers.add_parser(
        "match",
        help="games between two players (built-in bots or HTP engines), with an Elo estimate",
        description="Play N games between two players, colours alternating, adjudicated by hexengine's "
        "referee. A player is mcts[:key=value;...], computer:LEVEL, random[:seed=N], "
        "htp:COMMAND[;setup=CMD;simulations=N;seconds=S;timeout=S;dialect=hexgui|benzene], "
        "or python:MODULE:FACTORY[;key=value...]; every spec takes name=NAME.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
        '  hexengine match -n 20 --size 7 --player "mcts:simulations=2000" --player "computer:easy"\n'
        '  hexengine match -n 100 --swap off --player "mcts:simulations=1000" \\\n'
        '      --player "htp:mohex --quiet --use-logfile=0;setup=param_mohex max_games 1000"\n'
        '  hexengine match -n 10 --player mcts --player "htp:hexengine htp;simulations=500"',
    )
    parser.add_argument(
        "--player", "-p", action="append", required=True, metavar="SPEC", help="a player (give exactly two)"
    )
    parser.add_argument("--games", "-n", type=int, default=100, help="number of games (default 100)")
    parser.add_argument("--variant", choices=["hex", "rex", "dark", "dark-abrupt"], default="hex")
    parser.add_argument("--size", type=int, default=11, help="board size (default 11)")
    parser.add_argument("--rows", type=int, help="rows, for boards that are not square")
    parser.add_argument("--cols", type=int, help="columns, for boards that are not square")
    parser.add_argument(
        "--swap", choices=["sides", "pieces", "off"], help="swap form (default: the variant's)"
    )
    parser.add_argument(
        "--jobs", "-j", type=int, help="games played at once, each in its own process (default: cores)"
    )
    parser.add_argument(
        "--openings", metavar="FILE", help="one opening per line: moves ('a1 b2') or a trmph link"
    )
    parser.add_argument(
        "--random-openings",
        type=int,
        default=0,
        metavar="PLIES",
        help="start each pair of games with PLIES random moves",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed for bots without their own and for random openings"
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        help="where SGF records, results.json and match.log go (default: match-DATE-TIME)",
    )
    parser.add_argument("--no-records", action="store_true", help="write no files")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    return parser


def run(args: argparse.Namespace) -> int:
    """Runs the match and prints the result; 2 for bad settings."""
    from ..errors import HexError
    from ..match import parse_player, run_match
    from ..match.openings import read_openings
    from ..rules import Rules
    from ._terminal import ProgressBar

    if len(args.player) != 2:
        print("hexengine match: give exactly two --player specs", file=sys.stderr)
        return 2
    try:
        rules = Rules(
            args.variant,
            args.rows if args.rows is not None else args.size,
            args.cols if args.cols is not None else args.size,
            args.swap,
        )
        specs = [parse_player(p) for p in args.player]
        openings = read_openings(args.openings, rules) if args.openings else []
    except (HexError, OSError) as e:
        print(f"hexengine match: {e}", file=sys.stderr)
        return 2
    out = None
    if not args.no_records:
        out = args.out or datetime.datetime.now().strftime("match-%Y%m%d-%H%M%S")
        os.makedirs(out, exist_ok=True)
    log_file = open(os.path.join(out, "match.log"), "a", encoding="utf-8") if out else None
    bar = ProgressBar(lines=True)

    def log(message: str) -> None:
        if log_file is not None:
            log_file.write(message + "\n")
            log_file.flush()
        bar.clear()
        print(f"forfeit: {message}", file=sys.stderr)

    def progress(result: Any) -> None:
        if not args.quiet:
            bar.show(result.games_played, result.planned, _bar_text(result))

    try:
        result = run_match(
            specs[0],
            specs[1],
            games=args.games,
            rules=rules,
            jobs=args.jobs,
            openings=openings,
            random_openings=args.random_openings,
            seed=args.seed,
            sgf_dir=out,
            progress=progress,
            log=log,
        )
    except HexError as e:
        bar.clear()
        print(f"hexengine match: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        bar.clear()
        print("hexengine match: interrupted", file=sys.stderr)
        return 130
    finally:
        if log_file is not None:
            log_file.close()
    bar.clear()
    if args.json:
        print(json.dumps(result.to_dict(), indent=1))
    else:
        print(result.summary())
        if out:
            print(f"records: {out}")
    return 0


def _bar_text(result: Any) -> str:
    wins = result.wins
    return f"A {wins['A']} - B {wins['B']}  {result.seconds:.0f}s"
