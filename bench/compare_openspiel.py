"""Speed of hexengine against OpenSpiel, measured side by side in one run.

    pip install ".[peers]"        # open-spiel
    python bench/compare_openspiel.py [--quick] [--json out.json]

Prints a table of rates and ratios (ours / OpenSpiel):

- random playouts per second: ``Game.random_playouts(n)`` against OpenSpiel's
  fastest path from Python, ``pyspiel.MCTSBot`` with one simulation and a
  ``RandomRolloutEvaluator(n)`` (n C++ playouts per call), on 7x7, 11x11 and
  19x19 Hex, 11x11 Rex (``misere(game=hex)``) and 11x11 Dark Hex;
- the floor: a bare C++ loop that only shuffles, fills and checks the board;
- MCTS simulations per second from the empty board and from a midgame, ours
  (one thread) against ``pyspiel.MCTSBot`` with ``RandomRolloutEvaluator(1)``,
  both running searches of 20,000 simulations; ours at its defaults, and in
  the midgame also without the virtual-connection analysis of well-visited
  nodes (``knowledge_visits=0``) to show what that knowledge costs;
- our MCTS with two threads against one thread: three pairs of runs, each
  pair back to back, and the pair whose ratio is the median shown; and the
  time a cache line takes to pass between the two CPUs, probed before and
  after each pair (``_core.cache_handoff_ns``). Threads that share a tree pay
  it on every count one writes and the other reads, and on a virtual machine
  the host now and then places the two vCPUs (or the memory) so that it
  takes several times as long; other work on the CPUs slows it too. A pair
  is "slow" when either reading is more than twice the run's fastest. While
  fewer than three pairs are fast, up to three more pairs are measured, and
  the fast and slow pairs' medians get rows of their own, so a run that
  meets such a moment says so.

Everything runs in this one process, so the ratios compare the two engines on
the same machine at the same moment. A playout figure is the best of a few
repetitions of the same work. An MCTS figure is the mean rate (all
simulations over all time) of several searches, ours each with another seed
and OpenSpiel's each with its random stream moved on: how fast a search runs
depends on the tree it happens to grow (how deep it goes, how many nodes earn
the connection analysis), so one seed would measure luck as much as speed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import hexengine as hx
from hexengine import _core

MIDGAME_11 = ["f6", "e7", "g4", "d5", "c8", "h7", "e4", "f8", "d9", "g6", "c4", "e9", "h3", "b6", "i5", "g9"]


def best_rate(work: Callable[[], int], repeat: int) -> float:
    """The best of ``repeat`` runs of ``work`` (which returns how many units it did), per second."""
    best = 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        units = work()
        best = max(best, units / (time.perf_counter() - start))
    return best


def mean_rate(works: list[Callable[[], int]]) -> float:
    """Units per second over all of ``works``, each run once: total units / total time."""
    units, seconds = 0, 0.0
    for work in works:
        start = time.perf_counter()
        units += work()
        seconds += time.perf_counter() - start
    return units / seconds


def spiel_game(pyspiel, variant: str, size: int):
    if variant == "hex":
        return pyspiel.load_game(f"hex(num_rows={size},num_cols={size})")
    if variant == "rex":
        return pyspiel.load_game(f"misere(game=hex(num_rows={size},num_cols={size}))")
    return pyspiel.load_game(f"dark_hex(num_rows={size},num_cols={size},gameversion=cdh)")


def spiel_playouts(pyspiel, game, n: int, calls: int, repeat: int) -> float:
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(n, 1), 2.0, 1, 1000, False, 1, False)
    state = game.new_initial_state()

    def work() -> int:
        for _ in range(calls):
            bot.step(state)
        return n * calls

    return best_rate(work, repeat)


def spiel_mcts(pyspiel, game, moves: list[str], sims: int, searches: int) -> float:
    state = game.new_initial_state()
    for name in moves:
        state.apply_action(hx.Cell.parse(name).index(game.get_parameters()["num_cols"]))
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 1), 2.0, sims, 4000, False, 1, False)
    return mean_rate([lambda: (bot.step(state), sims)[1]] * searches)


def our_mcts(moves: list[str], sims: int, threads: int, searches: int, **options: float) -> float:
    game = hx.Game("hex", size=11, swap="off")
    for name in moves:
        game.play(name)
    view = game.view(game.to_move)

    def work(seed: int) -> int:
        bot = hx.MCTSBot(simulations=sims, threads=threads, seed=seed, **options)
        return bot.analyse(view).simulations

    return mean_rate([lambda s=seed: work(s) for seed in range(1, searches + 1)])


def handoff_ns() -> float | None:
    """The probe's hand-off time in nanoseconds, or None where it cannot run (one CPU)."""
    try:
        return _core.cache_handoff_ns()
    except hx.ConfigError:
        return None


@dataclass
class Pair:
    """A two-thread and a one-thread measurement taken back to back, with the
    hand-off readings before and after them."""

    two: float
    one: float
    handoffs: tuple[float | None, float | None]


def split(pairs: list[Pair]) -> tuple[list[Pair], list[Pair]]:
    """``pairs`` as (fast, slow): slow when a reading is over twice the fastest of all."""
    readings = [h for p in pairs for h in p.handoffs if h is not None]
    if not readings:
        return pairs, []
    limit = 2 * min(readings)
    fast: list[Pair] = []
    slow: list[Pair] = []
    for p in pairs:
        (slow if any(h is not None and h > limit for h in p.handoffs) else fast).append(p)
    return fast, slow


def median_pair(pairs: list[Pair]) -> tuple[float, float]:
    """The two rates of the pair whose ratio is the median (the upper one of an even count)."""
    middle = sorted(pairs, key=lambda p: p.two / p.one)[len(pairs) // 2]
    return middle.two, middle.one


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="fewer and shorter runs (CI smoke test)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    import pyspiel

    repeat = 1 if args.quick else 3
    scale = 0.05 if args.quick else 1.0
    rows: list[tuple[str, float, float | None]] = []

    def row(name: str, ours: float, theirs: float | None) -> None:
        rows.append((name, ours, theirs))
        digits = 2 if theirs and ours < 10 * theirs else 1  # 1.74x, 13.8x
        ratio = f"{ours / theirs:8.{digits}f}x" if theirs else "        -"
        theirs_text = f"{theirs:14,.0f}" if theirs else f"{'-':>14}"
        print(f"{name:<44}{ours:14,.0f}{theirs_text}{ratio}", flush=True)

    print(f"{'random playouts per second (1 thread)':<44}{'hexengine':>14}{'OpenSpiel':>14}{'ratio':>9}")
    for variant, size in [("hex", 7), ("hex", 11), ("hex", 19), ("rex", 11), ("dark", 11)]:
        n = int((400_000 if variant != "dark" else 100_000) * scale) or 1000
        game = hx.Game(variant, size=size)
        ours = best_rate(lambda g=game, n=n: sum(g.random_playouts(n, seed=7).values()), repeat)
        spiel_n = 200 if size < 19 else 100
        calls = max(1, int(20 * scale)) if variant != "dark" else max(1, int(5 * scale))
        theirs = spiel_playouts(pyspiel, spiel_game(pyspiel, variant, size), spiel_n, calls, repeat)
        row(f"{variant} {size}x{size}", ours, theirs)
    for size in (7, 11, 19):
        n = int(400_000 * scale) or 1000
        floor = best_rate(lambda s=size, n=n: (_core.floor_playouts(s, s, n, 3), n)[1], repeat)
        row(f"floor: bare shuffle+fill+check {size}x{size}", floor, None)

    print(f"\n{'MCTS simulations per second, 11x11 Hex':<44}{'hexengine':>14}{'OpenSpiel':>14}{'ratio':>9}")
    sims = int(20_000 * scale) or 500  # the same search size for both engines
    searches = 1 if args.quick else 8
    hex11 = spiel_game(pyspiel, "hex", 11)
    for label, moves in [("empty board", []), ("midgame (16 stones)", MIDGAME_11)]:
        ours = our_mcts(moves, sims, 1, searches)
        theirs = spiel_mcts(pyspiel, hex11, moves, sims, searches)
        row(label, ours, theirs)
    # What the virtual-connection analysis of well-visited nodes costs (it is on by default).
    row("midgame, VC analysis off", our_mcts(MIDGAME_11, sims, 1, searches, knowledge_visits=0), theirs)

    print(f"\n{'threads, 11x11 Hex from the empty board':<44}{'2 threads':>14}{'1 thread':>14}{'ratio':>9}")
    # Pairs measured back to back, and the pair with the median ratio shown: on
    # a shared machine a neighbour's load can slow one measurement for minutes,
    # and a ratio of two measurements taken far apart would show that load.
    pairs: list[Pair] = []
    while len(pairs) < repeat or (len(split(pairs)[0]) < repeat and len(pairs) < 2 * repeat):
        before = handoff_ns()
        two = our_mcts([], sims * 10, 2, searches)
        one = our_mcts([], sims * 10, 1, searches)
        pairs.append(Pair(two, one, (before, handoff_ns())))
    row(f"MCTS simulations per second (median of {len(pairs)})", *median_pair(pairs))
    fast, slow = split(pairs)
    readings = [ns for p in pairs for ns in p.handoffs if ns is not None]
    if readings:
        print(f"cache-line hand-off between the two CPUs: {', '.join(f'{ns:.0f}' for ns in readings)} ns")
    if slow:
        for label, group in (("fast", fast), ("slow", slow)):
            if group:
                ns = statistics.median(h for p in group for h in p.handoffs if h is not None)
                row(f"  the {len(group)} with a {label} hand-off ({ns:.0f} ns)", *median_pair(group))

    if args.json:
        with open(args.json, "w") as f:
            json.dump([{"name": n, "ours": o, "theirs": t} for n, o, t in rows], f, indent=2)


if __name__ == "__main__":
    main()
