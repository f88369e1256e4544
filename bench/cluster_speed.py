"""What a Ray cluster adds to a CPU-bound match: the same match (MCTS against MCTS at a fixed
number of simulations, the same seeds) played four ways, in one process, in two local
processes (``jobs=2``), on Ray one game at a time (``limit=1``) and on Ray two at a time,
with the seconds of each, the speed-up of two Ray workers over one, and the overhead per
game that Ray adds over one local process (``(ray 1 - local 1) / games``).

Without ``--address`` the script starts a local Ray cluster of two nodes with one CPU each
(``ray.cluster_utils.Cluster``), as the tests do, and stops it at the end; with one it joins
that cluster (``auto``, ``host:port`` or ``ray://host:port``). This process connects once
before the Ray runs (the seconds it took are shown apart), and the workers play a game each
first, so the Ray rows count what every game costs, not Ray's start. The last line printed is
JSON: ``same_records`` (all four ways gave the same records, as they must), ``seconds`` by way,
and the derived figures::

    python bench/cluster_speed.py --games 48 --size 9 --simulations 5000   # about 3 minutes on 2 cores
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from collections.abc import Callable
from typing import Any

import hexengine as hx
from hexengine.match import MatchResult, run_match

WAYS = ("local 1", "local 2", "ray 1", "ray 2")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=48, help="games of each way (default 48)")
    parser.add_argument("--size", type=int, default=9, help="board size, swap off (default 9)")
    parser.add_argument(
        "--simulations", type=int, default=5000, help="MCTS simulations a move, both sides (default 5000)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--address", help="a running Ray cluster (default: start a local one of two 1-CPU nodes)"
    )
    args = parser.parse_args(argv)
    if args.games < 2 or args.size < 2 or args.simulations < 1:
        parser.error("give at least 2 games, a board of at least 2x2 and at least 1 simulation")
    import ray

    players = (f"mcts:simulations={args.simulations}", f"mcts:simulations={args.simulations};name=other")
    rules = hx.Rules("hex", args.size, args.size, "off")

    def play(jobs: int, cluster: str | None = None, games: int = args.games) -> MatchResult:
        return run_match(*players, games=games, rules=rules, jobs=jobs, seed=args.seed, cluster=cluster)

    print(
        f"{args.games} games of hex {args.size}x{args.size}, {players[0]} against itself, "
        f"on {os.cpu_count()} cores",
        flush=True,
    )
    results: dict[str, MatchResult] = {}
    seconds: dict[str, float] = {}

    def measure(way: str, run: Callable[[], MatchResult]) -> None:
        started = time.perf_counter()
        results[way] = run()
        seconds[way] = time.perf_counter() - started
        print(f"{way:<8} {seconds[way]:8.2f} s", flush=True)

    measure("local 1", lambda: play(1))
    measure("local 2", lambda: play(2))
    nodes = None
    try:
        if args.address is None:
            from ray.cluster_utils import Cluster

            nodes = Cluster()
            nodes.add_node(num_cpus=1)
            nodes.add_node(num_cpus=1)
            nodes.wait_for_nodes(timeout=120)
        address = args.address if nodes is None else nodes.address
        started = time.perf_counter()
        ray.init(address=address, logging_level=logging.WARNING)
        connect = time.perf_counter() - started
        started = time.perf_counter()
        play(2, "ray", games=2)  # each worker plays a game first: imports, first search
        warm_up = time.perf_counter() - started
        print(f"(Ray: connecting {connect:.2f} s, the workers' first game {warm_up:.2f} s)", flush=True)
        measure("ray 1", lambda: play(1, "ray"))
        measure("ray 2", lambda: play(2, "ray"))
        cpus = ray.cluster_resources().get("CPU", 0)
    finally:
        ray.shutdown()
        if nodes is not None:
            nodes.shutdown()

    def records(result: MatchResult) -> list[tuple[Any, ...]]:
        return [(g.index, g.winner, g.reason, g.sgf) for g in result.games]

    same = all(records(results[way]) == records(results["local 1"]) for way in WAYS)
    summary = {
        "same_records": same,
        "seconds": {way: round(seconds[way], 3) for way in WAYS},
        "speedup_ray_2_over_ray_1": round(seconds["ray 1"] / seconds["ray 2"], 3),
        "speedup_local_2_over_local_1": round(seconds["local 1"] / seconds["local 2"], 3),
        "ray_overhead_per_game_seconds": round((seconds["ray 1"] - seconds["local 1"]) / args.games, 4),
        "ray_connect_seconds": round(connect, 3),
        "ray_warm_up_seconds": round(warm_up, 3),
        "games": args.games,
        "size": args.size,
        "simulations": args.simulations,
        "cores": os.cpu_count(),
        "cluster_cpus": cpus,
        "cluster": "started: 2 nodes of 1 CPU" if nodes is not None else args.address,
    }
    print(
        f"two Ray workers over one: {summary['speedup_ray_2_over_ray_1']:.2f}x "
        f"(two local processes over one: {summary['speedup_local_2_over_local_1']:.2f}x); "
        f"Ray's overhead: {summary['ray_overhead_per_game_seconds']:+.3f} s a game over one local process; "
        f"same records every way: {'yes' if same else 'NO'}"
    )
    print(json.dumps(summary))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
