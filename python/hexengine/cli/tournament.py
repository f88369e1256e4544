"""``hexengine tournament``: a round robin between several players, with a cross table and ratings.

Players are spec strings as for ``hexengine match`` (see :mod:`hexengine.match.players`), e.g.::

    hexengine tournament --games-per-pair 20 --size 9 \\
        --players "mcts:simulations=2000" "mcts:simulations=500" "computer:easy" random
"""

from __future__ import annotations

import argparse
from typing import Any

from .match import add_game_options, run_games

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """The ``tournament`` subcommand's parser."""
    parser = subparsers.add_parser(
        "tournament",
        help="a round robin between several players, with a table of wins and Elo ratings",
        description="Every pair of players plays the same number of games, colours alternating, "
        "adjudicated by hexengine's referee; prints the table of wins and Elo ratings fitted by "
        "maximum likelihood (Bradley-Terry) with 95%% intervals. Players are specs as for "
        "'hexengine match'; give name=NAME to two players of the same spec.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
        "  hexengine tournament -n 10 --size 7 --players mcts:simulations=2000 mcts:simulations=500 random\n"
        "  hexengine tournament -n 50 --size 9 --cluster auto --out runs/t \\\n"
        '      --players "mcts:level=hard" "mcts:level=medium" "htp:/opt/mohex --quiet;name=mohex"',
    )
    parser.add_argument(
        "--players", nargs="+", required=True, metavar="SPEC", help="the players (at least two)"
    )
    parser.add_argument(
        "--games-per-pair", "-n", type=int, default=10, help="games each pair plays (default 10)"
    )
    add_game_options(parser, "tournament")
    return parser


def run(args: argparse.Namespace) -> int:
    """Runs the tournament and prints the result; 2 for bad settings."""
    from ..match import run_tournament

    def play(specs: list[Any], out: str | None, **common: Any) -> Any:
        return run_tournament(specs, games_per_pair=args.games_per_pair, out=out, **common)

    return run_games("tournament", args, args.players, play, lambda result: f"{result.seconds:.0f}s")
