"""What each piece of the solver's knowledge is worth in nodes, and where the
nodes go, on a fixed set of positions.

For every set of positions the solver runs with all its knowledge, then with
each piece left out in turn (``hx.KNOWLEDGE``, the ``knowledge=`` option of
``hx.solve``), under a node cap per position; the table gives the nodes to
prove the whole set (``>`` when some position hit the cap). With ``--counts``
the run with all knowledge also prints where its nodes went: positions
expanded, how many the edge connections or an empty must-play region decided,
how many had no must-play region, the moves left after the must-play region
and after the inferior cells, and the nodes per ply below the root.

    python bench/solver_knowledge.py                    # the default sets
    python bench/solver_knowledge.py --sets hex7 --cap 200000 --counts
    python bench/solver_knowledge.py --only hex7:a4 --counts   # one position
"""

from __future__ import annotations

import argparse
import sys
import time

import hexengine as hx

# Fixed sets: name -> (variant, size, openings). An opening is Red's first stone, Blue to move.
SETS = {
    "hex6": ("hex", 6, "all"),
    "hex7": ("hex", 7, "d4 c1 c3 e4 b1 d2"),
    "hex7-slow": ("hex", 7, "a4 a6"),
    "hex8": ("hex", 8, "d5 a1"),
    "rex4": ("rex", 4, "all"),
    "rex5": ("rex", 5, "a1 c3 b2 e1"),
    "rex6": ("rex", 6, "b1 c2 d1"),
}


def openings(variant: str, size: int, cells: str) -> list[tuple[str, hx.Game]]:
    every = [hx.Cell.from_index(i, size).name for i in range(size * size)]
    names = every if cells == "all" else cells.split()
    out = []
    for name in names:
        game = hx.Game(variant, size=size, swap="off")
        game.play(name)
        out.append((name, game))
    return out


def run(positions, knowledge, cap: int) -> tuple[int, int, list[hx.SolveResult]]:
    nodes, capped, results = 0, 0, []
    for _name, game in positions:
        res = hx.solve(game, max_nodes=cap, max_seconds=None, max_memory=2**30, knowledge=knowledge)
        nodes += res.nodes
        capped += not res.proven
        results.append(res)
    return nodes, capped, results


def show_counts(names: list[str], results: list[hx.SolveResult]) -> None:
    for name, res in zip(names, results, strict=True):
        c = res.counts
        searched = c["expanded"] - c["vc_won"] - c["vc_lost"] - c["mustplay_lost"] - c["rex_paired"]
        per = max(1, searched)
        print(
            f"  {name:>4} {res.winner or res.status}: {res.nodes} nodes, {c['expanded']} expanded "
            f"(decided: {c['vc_won']} own VC, {c['vc_lost']} their VC, "
            f"{c['mustplay_lost']} empty must-play, {c['rex_paired']} Rex pairing; "
            f"{c['no_mustplay']} of {searched} searched had no must-play region); "
            f"per searched position {c['empty_cells'] / per:.1f} empty cells, "
            f"{c['mustplay_moves'] / per:.1f} after must-play, {c['moves'] / per:.1f} "
            f"after inferior cells; {c['vc_budget_out']} H-search builds out of budget; "
            f"{c['decomposed']} decompositions filled; "
            f"depth {c['max_depth']}"
        )
        print("       nodes per ply:", " ".join(str(n) for n in c["nodes_by_depth"]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default="hex6,hex7,rex4,rex5", help=f"comma-separated: {', '.join(SETS)}")
    parser.add_argument("--only", help="one position, SET:CELL (e.g. hex7:a4)")
    parser.add_argument("--cap", type=int, default=100_000, help="node cap per position (default 100000)")
    parser.add_argument("--counts", action="store_true", help="where the nodes went, with all knowledge")
    parser.add_argument("--no-ablation", action="store_true", help="only the run with all knowledge")
    args = parser.parse_args()
    chosen = [args.only.split(":")[0]] if args.only else args.sets.split(",")
    for set_name in chosen:
        variant, size, cells = SETS[set_name]
        if args.only:
            cells = args.only.split(":")[1]
        positions = openings(variant, size, cells)
        names = [n for n, _ in positions]
        label = f"{set_name} ({len(positions)} positions)"
        start = time.process_time()
        nodes, capped, results = run(positions, None, args.cap)
        cpu = time.process_time() - start
        print(f"{label}: all knowledge {'>' if capped else ''}{nodes} nodes ({cpu:.1f} s CPU)", flush=True)
        if args.counts:
            show_counts(names, results)
        if args.no_ablation:
            continue
        hex_only = (
            "vc",
            "mustplay",
            "proof-sets",
            "decompositions",
            "edge-templates",
            "strategy-stealing",
            "permanently-inferior",
        )
        pieces = [k for k in hx.KNOWLEDGE if not (variant == "rex" and k in hex_only)]
        pieces = [k for k in pieces if not (variant == "hex" and k == "rex-pairing")]
        for piece in pieces:
            without = [k for k in hx.KNOWLEDGE if k != piece and not (piece == "vc" and k == "mustplay")]
            n, capped, _ = run(positions, without, args.cap)
            ratio = f"x{n / max(1, nodes):.2f}"
            print(f"  without {piece:<20} {'>' if capped else ''}{n:>10} nodes  {ratio}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
