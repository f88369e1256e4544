"""The evaluator search's own cost per evaluated position, with a trivial numpy evaluator.

    python bench/evaluator_overhead.py [--simulations 20000] [--json out.json]

``hx.MCTSBot(evaluator=fn)`` on the empty 11x11 Hex board (and a 9x9 Dark Hex
position), ``fn`` returning uniform priors and even values from arrays made
once (so that it costs almost nothing). For each batch size: positions
evaluated per second, microseconds per position in all, of which inside
``fn`` (the call through Python, as ``analyse()`` reports it), and the rest:
the search's own work per position (walking the tree, playing the moves,
writing the planes and masks, backing up) plus the batch's hand-over.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

import hexengine as hx


def trivial(cells: int, batch: int):  # type: ignore[no-untyped-def]
    """An evaluator returning uniform priors and zero values, its arrays made once."""
    priors = np.ones((batch, cells + 1), np.float32)
    values = np.zeros(batch, np.float32)

    def fn(planes: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return priors[: len(mask)], values[: len(mask)]

    return fn


def measure(view: hx.View, batch: int, simulations: int, threads: int = 1) -> dict[str, float]:
    cells = view.rules.rows * view.rules.cols
    fn = trivial(cells, batch)
    bot = hx.MCTSBot(evaluator=fn, simulations=simulations, batch_size=batch, threads=threads)
    start = time.perf_counter()
    analysis = bot.analyse(view)
    seconds = time.perf_counter() - start
    per = 1e6 / analysis.simulations
    return {
        "batch_size": batch,
        "threads": threads,
        "positions_per_second": analysis.simulations / seconds,
        "us_per_position": seconds * per,
        "us_in_evaluator": analysis.evaluator_seconds * per,
        "us_search_own": (seconds - analysis.evaluator_seconds) * per,
        "mean_batch": analysis.mean_batch_size or 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--simulations", type=int, default=20_000)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    hex_view = hx.Game("hex", size=11, swap="off").view(hx.RED)
    dark = hx.Game("dark", size=9)
    for move in ["e5", "d6", "f4"]:
        dark.play(move)
    positions = {"hex 11x11, empty board": hex_view, "dark 9x9, 3 moves in": dark.view(dark.to_move)}
    head = f"{'position':<28}{'batch':>6}{'thr':>4}{'pos/s':>10}{'us/pos':>9}{'in fn':>8}{'search':>8}"
    print(f"{head}{'mean':>7}")
    out = []
    for name, view in positions.items():
        for batch, threads in ((1, 1), (8, 1), (32, 1), (128, 1), (32, 2)):
            row = measure(view, batch, args.simulations, threads)
            out.append({"position": name, **row})
            print(
                f"{name:<28}{batch:>6}{threads:>4}{row['positions_per_second']:>10,.0f}"
                f"{row['us_per_position']:>9.2f}{row['us_in_evaluator']:>8.2f}{row['us_search_own']:>8.2f}"
                f"{row['mean_batch']:>7.1f}",
                flush=True,
            )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
