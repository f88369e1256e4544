"""``hexengine selfplay``: self-play games recorded for training networks (:func:`hexengine.selfplay`).

::

    hexengine selfplay --variant hex --size 7 --swap off --games 200 --simulations 400 --out data/a
    hexengine selfplay --size 7 --swap off --games 200 --onnx net.onnx --seed 1 --out data/b
    hexengine selfplay --size 9 --swap off --games 5000 --cluster auto --out data/c

Run it again with the same ``--out`` and settings to continue (or extend ``--games``).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ._options import add_board_options
from .match import add_cluster_option

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """The ``selfplay`` subcommand's parser."""
    parser = subparsers.add_parser(
        "selfplay",
        help="self-play games recorded as training data (.npz shards)",
        description="Play MCTSBot against itself from the empty board and record every position: the "
        "mover's planes, the legal actions, the search's visit distribution, the outcome. Without "
        "--onnx or --evaluator the playout search plays; with one, the evaluator search with root noise. "
        "A folder already holding games of the same settings is continued.",
    )
    add_board_options(parser, size=7)
    parser.add_argument(
        "--games", "-n", type=int, default=200, help="games the folder should hold (default 200)"
    )
    parser.add_argument("--simulations", type=int, default=400, help="simulations per move (default 400)")
    network = parser.add_mutually_exclusive_group()
    network.add_argument("--onnx", metavar="PATH", help="an ONNX policy/value network (hx.OnnxEvaluator)")
    network.add_argument(
        "--evaluator", metavar="MODULE:FUNCTION", help="an evaluator fn(planes, mask) -> (priors, values)"
    )
    parser.add_argument(
        "--threads", type=int, default=1, help="search threads (default 1; more are not repeatable)"
    )
    parser.add_argument("--seed", type=int, default=0, help="game i is seeded from (seed, i) (default 0)")
    parser.add_argument(
        "--temperature-moves",
        type=int,
        metavar="N",
        help="moves drawn in proportion to the visits (default: a third of the cells)",
    )
    parser.add_argument(
        "--noise-fraction", type=float, default=0.25, help="root Dirichlet noise's share (evaluator search)"
    )
    parser.add_argument(
        "--noise-alpha",
        type=float,
        help="root Dirichlet noise's alpha (default 10 / cells; evaluator search)",
    )
    parser.add_argument(
        "--games-per-shard", type=int, default=50, help="games in each .npz file (default 50)"
    )
    parser.add_argument("--out", required=True, metavar="DIR", help="the folder of shards and manifest.json")
    add_cluster_option(parser)
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    return parser


def run(args: argparse.Namespace) -> int:
    """Plays the games and prints a summary; 2 for bad settings, 130 when interrupted."""
    from ..errors import HexError
    from ..selfplay import SelfplayResult, selfplay
    from ._terminal import ProgressBar

    bar = ProgressBar()
    latest: list[SelfplayResult] = []

    def progress(result: SelfplayResult) -> None:
        latest[:] = [result]
        if not args.quiet:
            bar.show(
                result.games,
                result.planned,
                f"{result.positions:,} positions  Red {result.red_wins} - Blue {result.blue_wins}  "
                f"{result.seconds:.0f}s",
            )

    try:
        result = selfplay(
            args.out,
            variant=args.variant,
            size=args.size,
            rows=args.rows,
            cols=args.cols,
            swap=args.swap,
            games=args.games,
            simulations=args.simulations,
            onnx=args.onnx,
            evaluator=args.evaluator,
            threads=args.threads,
            seed=args.seed,
            temperature_moves=args.temperature_moves,
            noise_fraction=args.noise_fraction,
            noise_alpha=args.noise_alpha,
            games_per_shard=args.games_per_shard,
            progress=progress,
            cluster=args.cluster,
        )
    except (HexError, OSError) as e:
        bar.clear()
        print(f"hexengine selfplay: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        bar.clear()
        kept = f": {latest[0].summary()}" if latest else ""
        print(f"hexengine selfplay: interrupted, the finished games are kept{kept}", file=sys.stderr)
        return 130
    bar.clear()
    print(result.summary())
    return 0
