"""A network's strength in the search: MCTSBot with an ONNX evaluator against MCTSBot's playout search.

    python bench/net_strength.py --onnx net.onnx --games 100 --simulations 400 --jobs 2
    python bench/net_strength.py --onnx net.onnx --games 100 --seconds 0.2 --jobs 2
    python bench/net_strength.py --onnx net.onnx --speed-only

A match of the match runner (``hexengine.match.run_match``) between
``mcts:onnx=PATH`` (the evaluator search, no root noise) and ``mcts`` (the
default playout search), both one thread, at equal simulations or at equal
seconds per move, colours alternating, swap off by default. The evaluator
search without noise plays the same move in the same position, so each pair of
games starts from ``--random-openings`` random stones (two by default), once
with each player as Red. Printed: the match's summary (wins by colour, seconds per
move) and the network's score with its 95% Wilson interval. The match runner's
``results.json`` and the games as SGF go to ``--records``.

Before the match, the evaluator's speed: positions evaluated per second inside a
400-simulation search (from the empty board and from a few positions of
self-play), the share of that time spent in the network, and the playout
search's simulations per second on the same positions, so that the equal-time
result can be read.
"""

from __future__ import annotations

import argparse
import random
import re
import time

import hexengine as hx
from hexengine.match import run_match, wilson
from hexengine.match.openings import random_opening


def speed(path: str, rules: hx.Rules, simulations: int = 400, positions: int = 8) -> dict[str, float]:
    """Positions per second of the evaluator search, its share in the network, and the
    playout search's simulations per second, over the empty board and random openings."""
    evaluator = hx.OnnxEvaluator(path)
    rng = random.Random(0)
    views = []
    for k in range(positions):
        game = hx.Game(rules)
        for move in random_opening(rules, 2 * k, rng) if k else []:
            game.play(move)
        views.append(game.view(game.to_move))
    totals = {"net": 0.0, "net_seconds": 0.0, "in_network": 0.0, "playout": 0.0, "playout_seconds": 0.0}
    for view in views:
        analysis = hx.MCTSBot(evaluator=evaluator, simulations=simulations).analyse(view)
        totals["net"] += analysis.simulations
        totals["net_seconds"] += analysis.seconds
        totals["in_network"] += analysis.evaluator_seconds
        started = time.perf_counter()
        analysis = hx.MCTSBot(simulations=20_000, seed=1).analyse(view)
        totals["playout"] += analysis.simulations
        totals["playout_seconds"] += time.perf_counter() - started
    return {
        "net_positions_per_second": totals["net"] / totals["net_seconds"],
        "share_in_network": totals["in_network"] / totals["net_seconds"],
        "playout_simulations_per_second": totals["playout"] / totals["playout_seconds"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--onnx", required=True, help="the network (hx.OnnxEvaluator's names)")
    parser.add_argument("--variant", default="hex", choices=["hex", "rex", "dark", "dark-abrupt"])
    parser.add_argument("--size", type=int, default=7)
    parser.add_argument("--swap", default="off", choices=["sides", "pieces", "off"])
    parser.add_argument("--games", type=int, default=100)
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--simulations", type=int, help="simulations per move, each side (default 400)")
    budget.add_argument("--seconds", type=float, help="seconds per move, each side")
    parser.add_argument("--random-openings", type=int, default=2, metavar="PLIES")
    parser.add_argument("--jobs", type=int, default=1, help="games at once, each in its own process")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--records", help="a folder for results.json and the SGF records")
    parser.add_argument("--speed-only", action="store_true", help="measure the speeds, play no match")
    args = parser.parse_args()
    rules = hx.Rules(
        args.variant, args.size, args.size, None if args.variant.startswith("dark") else args.swap
    )

    s = speed(args.onnx, rules)
    print(
        f"evaluator search: {s['net_positions_per_second']:,.0f} positions/s "
        f"({100 * s['share_in_network']:.0f}% of the time in the network); "
        f"playout search: {s['playout_simulations_per_second']:,.0f} simulations/s",
        flush=True,
    )
    if args.speed_only:
        return
    budget = (
        f"seconds={args.seconds};simulations=0" if args.seconds else f"simulations={args.simulations or 400}"
    )
    net = f"mcts:onnx={args.onnx};{budget};name=net"
    playout = f"mcts:{budget};name=playout"
    result = run_match(
        net,
        playout,
        games=args.games,
        rules=rules,
        jobs=args.jobs,
        random_openings=args.random_openings,
        seed=args.seed,
        sgf_dir=args.records,
    )
    print(result.summary())
    wins, games = result.wins["A"], result.games_played
    low, high = wilson(wins, games)
    distinct = len({tuple(re.findall(r";[BW]\[(\w+)\]", g.sgf)) for g in result.games})
    print(
        f"net {wins} of {games} ({100 * wins / games:.1f}%), 95% Wilson interval "
        f"{100 * low:.1f}% - {100 * high:.1f}%; {distinct} distinct games; {result.seconds:.0f} s"
    )


if __name__ == "__main__":
    main()
