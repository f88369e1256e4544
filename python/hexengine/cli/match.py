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
import signal
import sys
from collections.abc import Callable
from typing import Any

from ._options import add_board_options

__all__ = ["add_cluster_option", "add_game_options", "add_parser", "run", "run_games"]


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """The ``match`` subcommand's parser."""
    parser = subparsers.add_parser(
        "match",
        help="games between two players (built-in bots or HTP engines), with an Elo estimate",
        description="Play N games between two players, colours alternating, adjudicated by hexengine's "
        "referee. A player is mcts[:key=value;...], computer:LEVEL, random[:seed=N], "
        "htp:COMMAND[;setup=CMD;simulations=N;seconds=S;timeout=S;dialect=standard|benzene], "
        "or python:MODULE:FACTORY[;key=value...]; every spec takes name=NAME.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
        '  hexengine match -n 20 --size 7 --player "mcts:simulations=2000" --player "computer:easy"\n'
        '  hexengine match -n 100 --swap off --player "mcts:simulations=1000" \\\n'
        '      --player "htp:mohex --quiet --use-logfile=0;setup=param_mohex max_games 1000"\n'
        '  hexengine match -n 10 --player mcts --player "htp:hexengine htp;simulations=500"\n'
        '  hexengine match -n 200 --size 9 --cluster auto --out runs/a -p mcts -p "mcts:level=easy"',
    )
    parser.add_argument(
        "--player", "-p", action="append", required=True, metavar="SPEC", help="a player (give exactly two)"
    )
    parser.add_argument("--games", "-n", type=int, default=100, help="number of games (default 100)")
    add_game_options(parser, "match")
    return parser


def add_game_options(parser: argparse.ArgumentParser, kind: str) -> None:
    """The options that ``match`` and ``tournament`` share: the rules, the openings, the seed,
    where the games are played and where their records go."""
    add_board_options(parser, size=11)
    parser.add_argument(
        "--jobs",
        "-j",
        type=int,
        help="games played at once, each in its own process (default: cores); "
        "with --cluster, at most this many at once (default: as many as the cluster runs)",
    )
    add_cluster_option(parser)
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
        "--clock",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="a game clock: SECONDS of thinking time for each side a game, kept by the referee; a side "
        "whose clock runs out loses on time (HTP engines are told it by time_settings and time_left)",
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        help=f"where SGF records, games.jsonl, results.json and {kind}.log go (default: {kind}-DATE-TIME); "
        "a folder of the same settings is resumed: only the games not yet there are played",
    )
    parser.add_argument("--no-records", action="store_true", help="write no files")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def add_cluster_option(parser: argparse.ArgumentParser) -> None:
    """``--cluster ADDRESS``, for the subcommands that can play their games on Ray."""
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="play each game as a task on a Ray cluster: 'ray' (join the one 'ray start' runs on this "
        "machine, or start one), 'auto' (the running cluster, or RAY_ADDRESS), 'ray://HOST:PORT' (Ray "
        "client) or HOST:PORT; needs pip install 'hexengine[cluster]'",
    )


def run(args: argparse.Namespace) -> int:
    """Runs the match and prints the result; 2 for bad settings."""
    from ..match import run_match

    if len(args.player) != 2:
        print("hexengine match: give exactly two --player specs", file=sys.stderr)
        return 2

    def play(specs: list[Any], out: str | None, **common: Any) -> Any:
        return run_match(specs[0], specs[1], games=args.games, sgf_dir=out, **common)

    return run_games("match", args, args.player, play, _bar_text)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def run_games(
    kind: str,
    args: argparse.Namespace,
    players: list[str],
    play: Callable[..., Any],
    bar_text: Callable[[Any], str],
) -> int:
    """Runs ``play(specs, out, **common)`` for the subcommand ``kind``, where ``specs`` are the
    ``players`` parsed, ``out`` the output folder (None with ``--no-records``) and ``common``
    the keyword arguments that :func:`~hexengine.match.run_match` and
    :func:`~hexengine.run_tournament` share (``rules``, ``jobs``, ``openings``,
    ``random_openings``, ``seed``, ``progress``, ``log``, ``cluster``, ``clock``), from the options of
    :func:`add_game_options`. Prints the result, with a progress bar that shows
    ``bar_text(result)``; 2 for bad settings, 130 when interrupted by Ctrl-C or SIGTERM (the
    games finished so far are saved, and running again with the same folder plays the rest;
    the games under way are dropped, and the HTP engines stopped)."""
    from ..errors import HexError
    from ..match import parse_player
    from ..match.openings import read_openings
    from ..rules import Rules
    from ._terminal import ProgressBar

    try:
        specs = [parse_player(p) for p in players]
        rules = Rules(
            args.variant,
            args.rows if args.rows is not None else args.size,
            args.cols if args.cols is not None else args.size,
            args.swap,
        )
        openings = read_openings(args.openings, rules) if args.openings else []
    except (HexError, OSError) as e:
        print(f"hexengine {kind}: {e}", file=sys.stderr)
        return 2
    out = None
    made = False
    if not args.no_records:
        out = args.out or datetime.datetime.now().strftime(f"{kind}-%Y%m%d-%H%M%S")
        made = not os.path.exists(out)
        os.makedirs(out, exist_ok=True)
    log_file = open(os.path.join(out, f"{kind}.log"), "a", encoding="utf-8") if out else None
    bar = ProgressBar(lines=True)

    def log(message: str) -> None:
        if log_file is not None:
            log_file.write(message + "\n")
            log_file.flush()
        bar.clear()
        print(message, file=sys.stderr)

    def progress(result: Any) -> None:
        if not args.quiet:
            bar.show(result.games_played, result.planned, bar_text(result))

    # SIGTERM (kill, a job scheduler, a container stopping) stops the games as Ctrl-C does.
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        result = play(
            specs,
            out,
            rules=rules,
            jobs=args.jobs,
            openings=openings,
            random_openings=args.random_openings,
            seed=args.seed,
            progress=progress,
            log=log,
            cluster=args.cluster,
            clock=args.clock,
        )
    except HexError as e:
        bar.clear()
        print(f"hexengine {kind}: {e}", file=sys.stderr)
        if made and out is not None:
            _remove_if_unused(out, f"{kind}.log")
        return 2
    except KeyboardInterrupt:
        bar.clear()
        again = f"; the same command plays the rest (--out {out})" if out else ""
        print(f"hexengine {kind}: interrupted{again}", file=sys.stderr)
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous)
        if log_file is not None:
            log_file.close()
    bar.clear()
    if args.json:
        print(json.dumps(result.to_dict(), indent=1))
    else:
        print(result.summary())
        if out:
            print(f"records: {os.path.abspath(out)}")
    return 0


def _remove_if_unused(folder: str, log_name: str) -> None:
    """Removes the output folder this run made when settings refused before any game left
    only its empty log there."""
    log_path = os.path.join(folder, log_name)
    if os.listdir(folder) == [log_name] and os.path.getsize(log_path) == 0:
        os.remove(log_path)
        os.rmdir(folder)


def _bar_text(result: Any) -> str:
    wins = result.wins
    return f"A {wins['A']} - B {wins['B']}  {result.seconds:.0f}s"
