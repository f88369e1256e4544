"""Two threads against one, with the host's placement of the two CPUs probed.

    python bench/thread_scaling.py [--rounds 100] [--simulations 200000] \
        [--shadow-visits 0 256 1024 4096]

Each round runs a one-thread search from the empty 11x11 Hex board, then a
two-thread search for each ``shadow_visits`` setting (their order turns from
round to round), and probes the time a cache line takes to pass between the
two CPUs (``_core.cache_handoff_ns``) right before and right after each
two-thread search. Threads sharing a tree pay that time on every count one
writes and the other reads, and on a virtual machine the host now and then
places the vCPUs or the memory so that it takes several times as long.

Prints, for each setting, the median ratio of the two-thread rate to the
one-thread rate over all rounds, over the fast ones and over the slow ones
(a two-thread search is slow when a reading next to it is over twice the
run's fastest reading, as in ``compare_openspiel.py``), and how many rounds
ran under 1.5x. With ``shadow_visits=0`` the threads write the tree's counts
on every simulation; otherwise each keeps its own copy of the counts of the
nodes with that many visits and adds to the tree's now and then.
"""

from __future__ import annotations

import argparse
import json
import statistics

from compare_openspiel import Pair, handoff_ns, split

import hexengine as hx


def rate(threads: int, simulations: int, seed: int, shadow_visits: int) -> float:
    """Simulations a second of one search from the empty 11x11 board."""
    view = hx.Game("hex", size=11, swap="off").view(hx.RED)
    bot = hx.MCTSBot(simulations=simulations, threads=threads, seed=seed, shadow_visits=shadow_visits)
    analysis = bot.analyse(view)
    return analysis.simulations / analysis.seconds


def summary(pairs: list[Pair], slow: set[int]) -> str:
    """Median ratios over all, fast and slow pairs (``slow``: their ids), and the count under 1.5x."""

    def median(group: list[Pair]) -> str:
        if not group:
            return "-"
        return f"{statistics.median(p.two / p.one for p in group):.2f}x ({len(group)})"

    fast = [p for p in pairs if id(p) not in slow]
    slowed = [p for p in pairs if id(p) in slow]
    under = sum(p.two / p.one < 1.5 for p in pairs)
    return f"{median(pairs):>14}{median(fast):>14}{median(slowed):>14}{under:>12}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--simulations", type=int, default=200_000)
    parser.add_argument("--shadow-visits", type=int, nargs="+", default=[0, 256, 1024, 4096])
    parser.add_argument("--json", help="also write every measurement to this file")
    args = parser.parse_args()
    settings = args.shadow_visits
    pairs: dict[int, list[Pair]] = {s: [] for s in settings}
    for r in range(args.rounds):
        one = rate(1, args.simulations, r, 0)
        turn = r % len(settings)
        for s in settings[turn:] + settings[:turn]:
            before = handoff_ns()
            two = rate(2, args.simulations, r, s)
            pairs[s].append(Pair(two, one, (before, handoff_ns())))
        print(f"round {r + 1}/{args.rounds}", flush=True)
    everything = [p for group in pairs.values() for p in group]
    readings = [h for p in everything for h in p.handoffs if h is not None]
    slow = {id(p) for p in split(everything)[1]}
    print(f"\n2 threads / 1 thread, 11x11 Hex, {args.simulations:,} simulations, {args.rounds} rounds")
    if readings:
        low, high = min(readings), max(readings)
        print(f"hand-off {low:.0f} to {high:.0f} ns; {len(slow)} of {len(everything)} searches slow")
    print(f"{'shadow_visits':<14}{'all':>14}{'fast':>14}{'slow':>14}{'under 1.5x':>12}")
    for s in settings:
        print(f"{s:<14}{summary(pairs[s], slow)}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({str(s): [vars(p) for p in group] for s, group in pairs.items()}, out, indent=1)


if __name__ == "__main__":
    main()
