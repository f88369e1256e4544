"""Dark Hex on tiny boards: tree sizes, CFR+ equilibria, exploitability of policies.

Reproduces the tables of docs/dark-hex-tiny.md.

    python bench/darkhex_tiny.py                          # 2x2, 2x3, 3x2: sizes, values, uniform policy
    python bench/darkhex_tiny.py --boards 2x4,4x2 --iterations 256
    python bench/darkhex_tiny.py --sizes 3x3 --boards none  # count only (3x4/4x3 need ~2 GB, minutes)
    python bench/darkhex_tiny.py --openspiel              # OpenSpiel's CFR+ on the same boards (peers extra)
    python bench/darkhex_tiny.py --policy mymodule:make_policy   # exploitability of any policy or bot
    python bench/darkhex_tiny.py --bot medium --bot 20000:visits   # the shipped MCTSBot (level, simulations)

Each solve runs in its own process so that its peak memory (max RSS) is its own.
``--policy module:factory`` calls ``factory(rules)`` (an ``hx.Rules``) and measures the
returned policy (a function of a view, or an object with ``choose(view)``, e.g. a bot).
"""

from __future__ import annotations

import argparse
import importlib
import json
import resource
import subprocess
import sys
import time

import hexengine as hx


def f4(x: float) -> str:
    text = f"{x:.4f}"
    return "0.0000" if text == "-0.0000" else text


def board_list(text: str) -> list[tuple[int, int]]:
    if text in ("", "none"):
        return []
    return [(int(r), int(c)) for r, c in (b.split("x") for b in text.split(","))]


def uniform(view: hx.View) -> dict[hx.Move, float]:
    moves = view.legal_moves()
    return {m: 1 / len(moves) for m in moves}


def solve_one(variant: str, rows: int, cols: int, iterations: int, target: float | None) -> dict:
    eq = hx.dark_equilibrium(variant, rows, cols, iterations=iterations, target=target)
    return {
        "value": eq.value,
        "bounds": eq.value_bounds,
        "pure": eq.pure_bounds,
        "exploitability": eq.exploitability,
        "iterations": eq.iterations,
        "seconds": eq.seconds,
        "histories": eq.histories,
        "infosets": eq.infosets,
        "curve": eq.curve,
        "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def run_isolated(args: list[str]) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--one", *args], check=True, capture_output=True, text=True
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def openspiel_value(variant: str, rows: int, cols: int, iterations: int) -> tuple[float, float, float]:
    import pyspiel

    game = pyspiel.load_game(
        "dark_hex",
        {
            "num_rows": rows,
            "num_cols": cols,
            "gameversion": "cdh" if variant == "dark" else "adh",
            "obstype": "reveal-numturns",
        },
    )
    start = time.perf_counter()
    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    seconds = time.perf_counter() - start
    value = pyspiel.expected_returns(game.new_initial_state(), policy, -1, True)[0]
    return value, pyspiel.nash_conv(game, policy) / 2, seconds


def bot_factory(spec: str):  # type: ignore[no-untyped-def]
    """A factory of the shipped MCTSBot: a level name (easy, medium, hard) or a simulation
    count; with ``:visits`` the policy is the search's share of root visits per cell (the
    mixed strategy the search points at) instead of the one move ``choose`` plays."""
    spec, _, mode = spec.partition(":")

    def make(rules: hx.Rules):  # type: ignore[no-untyped-def]
        bot = hx.MCTSBot(simulations=int(spec), seed=0) if spec.isdigit() else hx.MCTSBot.level(spec, seed=0)
        if mode != "visits":
            return bot

        def visit_shares(view: hx.View) -> dict[hx.Cell, float]:
            visits = bot.analyse(view).visits.ravel().astype(float)
            legal = [c for c in view.legal_moves() if isinstance(c, hx.Cell)]
            total = sum(visits[c.index(rules.cols)] for c in legal)
            if total == 0:  # a forced move: the search did not run
                return {bot.choose(view): 1.0}  # type: ignore[dict-item]
            return {c: visits[c.index(rules.cols)] / total for c in legal}

        return visit_shares

    return make


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boards", default="2x2,2x3,3x2", help="boards to solve, e.g. 2x2,2x3 (or none)")
    ap.add_argument("--sizes", default="3x3", help="boards to count only, e.g. 3x3,3x4,4x3")
    ap.add_argument("--variants", default="dark,dark-abrupt")
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--target", type=float, default=None, help="stop once exploitability is at most this")
    ap.add_argument("--openspiel", action="store_true", help="also run OpenSpiel's CFR+ (boards up to 3x2)")
    ap.add_argument("--openspiel-iterations", type=int, default=200)
    ap.add_argument("--policy", action="append", default=[], help="module:factory, factory(rules) -> policy")
    ap.add_argument("--bot", action="append", default=[], help="hx.MCTSBot to measure: level or simulations")
    ap.add_argument("--one", nargs=5, help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.one:
        variant, rows, cols, iterations, target = args.one
        result = solve_one(
            variant, int(rows), int(cols), int(iterations), None if target == "-" else float(target)
        )
        print(json.dumps(result))
        return

    variants = args.variants.split(",")
    boards = board_list(args.boards)

    print("## Sizes\n")
    print("| variant | board | histories | information sets (Red + Blue) | sequences (Red + Blue) | time |")
    print("|---|---|---:|---:|---:|---:|")
    limits = {"history_limit": 1e17, "belief_limit": 1_000_000}
    for rows, cols in boards + board_list(args.sizes):
        for variant in variants:
            start = time.perf_counter()
            s = hx.dark_game_size(variant, rows, cols, **limits)
            seconds = time.perf_counter() - start
            h = "?" if s.histories is None else f"{s.histories:,}"
            i = "?" if s.infosets is None else f"{s.infosets[0]:,} + {s.infosets[1]:,}"
            q = "?" if s.sequences is None else f"{s.sequences[0]:,} + {s.sequences[1]:,}"
            print(f"| {variant} | {rows}x{cols} | {h} | {i} | {q} | {seconds:.1f} s |", flush=True)

    if boards:
        print(f"\n## CFR+ ({args.iterations} iterations at most, target {args.target})\n")
        print(
            "| variant | board | value (Red) | bounds | pure bounds | exploitability | iters | time | RSS |"
        )
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
        for rows, cols in boards:
            for variant in variants:
                target = "-" if args.target is None else str(args.target)
                r = run_isolated([variant, str(rows), str(cols), str(args.iterations), target])
                low, high = r["bounds"]
                pure = "[{:.4f}, {:.4f}]".format(*r["pure"])
                print(
                    f"| {variant} | {rows}x{cols} | {r['value']:.4f} | [{low:.4f}, {high:.4f}] | {pure} | "
                    f"{r['exploitability']:.2g} | {r['iterations']} | {r['seconds']:.1f} s | "
                    f"{r['max_rss_mb']:.0f} MB |",
                    flush=True,
                )

    small = [(r, c) for r, c in boards if r * c <= 6]
    if small:
        print("\n## Exploitability of policies\n")
        print("| policy | variant | board | exploitability | value for Red | queries | time |")
        print("|---|---|---|---:|---:|---:|---:|")
        policies = [("uniform random", lambda rules: uniform)]
        for spec in args.policy:
            module, name = spec.split(":")
            policies.append((spec, getattr(importlib.import_module(module), name)))
        for spec in args.bot:
            policies.append((f"MCTSBot {spec}", bot_factory(spec)))
        for label, factory in policies:
            for rows, cols in small:
                for variant in variants:
                    policy = factory(hx.Rules(variant, rows, cols))
                    e = hx.exploitability(policy, variant, rows, cols)
                    print(
                        f"| {label} | {variant} | {rows}x{cols} | {e.exploitability:.4f} | {f4(e.value)} | "
                        f"{e.queries:,} | {e.seconds:.1f} s |",
                        flush=True,
                    )

    if args.openspiel and small:
        n = args.openspiel_iterations
        print(f"\n## OpenSpiel dark_hex (obstype reveal-numturns), pyspiel.CFRPlusSolver, {n} iterations\n")
        print("| OpenSpiel game | board | OpenSpiel value | exploitability | time | hexengine, same count |")
        print("|---|---|---:|---:|---:|---:|")
        for rows, cols in small:
            for variant in variants:
                value, expl, seconds = openspiel_value(variant, rows, cols, n)
                eq = hx.dark_equilibrium(variant, rows, cols, iterations=n)
                name = "cdh" if variant == "dark" else "adh"
                print(
                    f"| {name} | {rows}x{cols} | {value:.4f} | {expl:.2g} | {seconds:.1f} s | "
                    f"{eq.value:.4f} (exploitability {eq.exploitability:.2g}, {eq.seconds:.2f} s) |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
