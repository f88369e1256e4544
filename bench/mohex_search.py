"""How MoHex and hexengine spend one second of search, position by position.

On positions taken from recorded games (``hexengine match --out`` folders:
SGF, hexengine JSON or trmph), each engine searches the same position for the
same time, one thread each, and the script prints what each did with it:
MoHex's playouts (``GamesPlayed``), the nodes where it computed its knowledge
(virtual connections and inferior cells: ``Knowledge``) and its search time,
read from its log; hexengine's simulations with ``MCTSBot.level("hard")``. The
medians close the table. MoHex (built from github.com/cgao3/benzene-vanilla-cmake)
is driven over HTP; hexengine neither ships nor builds it. Positions MoHex
decides before searching (its pre-search finds a winning connection) have no
search to compare and are left out.

    python bench/mohex_search.py mohex-t1/ --mohex /path/to/mohex --games 5 --moves 6,12,18
    python bench/mohex_search.py mohex-t1/ --mohex /path/to/mohex \\
        --setting "param_mohex_policy pattern_heuristic 0"

The second line shows the same with one of MoHex's settings changed (here:
its playouts without the local patterns around the last move).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path

from solve import Benzene  # the HTP driver of bench/solve.py
from where_lost import record_paths

import hexengine as hx

# MoHex's settings for a one-thread search of a fixed time (as the README's equal-time match).
MOHEX_SETTINGS = [
    "param_game allow_swap 0",
    "param_mohex num_threads 1",
    "param_mohex max_games 100000000",
    "param_mohex extend_unstable_search 0",
    "param_mohex reuse_subtree 0",
]


def mohex_search(mohex: Benzene, game: hx.Game) -> dict[str, float] | None:
    """MoHex's playouts, knowledge nodes and search seconds on ``game``'s position (None: no search)."""
    mohex.set_position(game)
    colour = "b" if game.to_move == hx.RED else "w"
    logged = mohex.log.stat().st_size if mohex.log.exists() else 0
    mohex.command(f"genmove {colour}")  # set_position clears the board, so the move need not be taken back
    with mohex.log.open("rb") as log:  # only what this search wrote
        log.seek(logged)
        text = log.read().decode(errors="replace")
    found = {
        key: re.search(rf"^{key}\s+([\d.]+)", text, re.M) for key in ("GamesPlayed", "Knowledge", "Time")
    }
    if not all(found.values()):
        return None
    return {key: float(match[1]) for key, match in found.items() if match}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("records", type=Path, help="folder of game records")
    parser.add_argument("--mohex", required=True, metavar="PATH", help="a mohex binary")
    parser.add_argument("--games", type=int, default=5, help="records read, in name order (default 5)")
    parser.add_argument(
        "--moves", default="6,12,18", help="positions after these many moves (default 6,12,18)"
    )
    parser.add_argument("--seconds", type=float, default=1.0, help="search time of each engine (default 1)")
    parser.add_argument("--setting", action="append", default=[], help="one more HTP command for MoHex")
    args = parser.parse_args(argv)
    moves = [int(m) for m in args.moves.split(",")]
    if args.games < 1 or not args.seconds > 0 or min(moves) < 0:
        parser.error("--games must be >= 1, --seconds > 0 and --moves >= 0")
    try:
        paths = record_paths(args.records)[: args.games]
    except ValueError as error:
        parser.error(str(error))
    rows = []
    print("position, MoHex playouts, knowledge nodes, seconds, playouts/s | hexengine simulations/s, ratio")
    for path in paths:
        record = hx.read_record(path)
        rules = record.rules
        if rules.variant != "hex" or rules.swap != "off":
            parser.error(f"{path.name}: MoHex is compared on Hex with swap off")
        settings = [*MOHEX_SETTINGS, f"param_mohex max_time {args.seconds:g}", *args.setting]
        mohex = Benzene(args.mohex, rules.rows, rules.cols, settings)
        try:
            game = hx.Game("hex", rows=rules.rows, cols=rules.cols, swap="off")
            mohex_search(mohex, game)  # MoHex loads its patterns on its first search; not timed
            for number, action in enumerate(record.actions, start=1):
                game.play(action.cell)
                if number not in moves or game.is_over:
                    continue
                theirs = mohex_search(mohex, game)
                if theirs is None:
                    continue
                found = hx.MCTSBot.level("hard", seconds=args.seconds, threads=1).analyse(
                    game.view(game.to_move)
                )
                ours = found.simulations / found.seconds
                rate = theirs["GamesPlayed"] / theirs["Time"]
                rows.append((rate, theirs["Knowledge"], ours))
                print(
                    f"{path.name} move {number}: {theirs['GamesPlayed']:,.0f}, {theirs['Knowledge']:,.0f}, "
                    f"{theirs['Time']:.2f}, {rate:,.0f} | {ours:,.0f}, {ours / rate:.1f}x",
                    flush=True,
                )
        finally:
            mohex.close()
    if not rows:
        print("no position that MoHex searched")
        return 0
    rate, knowledge, ours = (statistics.median(column) for column in zip(*rows, strict=True))
    print(
        f"median over {len(rows)} positions: MoHex {rate:,.0f} playouts/s "
        f"with knowledge at {knowledge:g} nodes, hexengine {ours:,.0f} simulations/s ({ours / rate:.1f}x)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
