"""Memory of one long search: nodes and peak resident memory.

    python bench/mcts_memory.py [--simulations 1000000] [--size 11] [--threads 1] [--variant hex]

Runs one search from the empty board and prints the tree's node count, the
node budget, and the process's peak resident set size (ru_maxrss) before and
after, so the tree's share is the difference.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

import hexengine as hx


def peak_mib() -> float:
    """Peak resident memory of this process in MiB (ru_maxrss is KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--simulations", type=int, default=1_000_000)
    parser.add_argument("--size", type=int, default=11)
    parser.add_argument("--variant", choices=["hex", "rex"], default="hex")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--max-nodes", type=int, default=16_000_000)
    args = parser.parse_args()
    view = hx.Game(args.variant, size=args.size, swap="off").view(hx.RED)
    before = peak_mib()
    bot = hx.MCTSBot(simulations=args.simulations, threads=args.threads, max_nodes=args.max_nodes)
    start = time.perf_counter()
    analysis = bot.analyse(view)
    seconds = time.perf_counter() - start
    after = peak_mib()
    print(
        f"{args.size}x{args.size} {args.variant.capitalize()}, {analysis.simulations:,} simulations "
        f"on {args.threads} thread(s) "
        f"in {seconds:.1f}s: {analysis.nodes:,} nodes (budget {args.max_nodes:,}); "
        f"peak RSS {before:.0f} MiB before, {after:.0f} MiB after ({after - before:.0f} MiB for the search)"
    )


if __name__ == "__main__":
    main()
