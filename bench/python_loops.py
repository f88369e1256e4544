"""Python loops through the public API, hexengine against OpenSpiel, side by side in one run.

    pip install ".[peers]"        # open-spiel
    python bench/python_loops.py [--seconds 3] [--rounds 3] [--json out.json]

Random 11x11 games driven move by move from Python, the way a bot author's or
a learning loop's own code drives them. Moves per second:

- ``openspiel``: ``state.apply_action(random.choice(state.legal_actions()))``
  until ``state.is_terminal()``, a new state per game (``hex`` and
  ``dark_hex`` with ``gameversion=cdh``, classic Dark Hex);
- ``hexengine``: ``a = g.legal_actions(); g.apply(a[rng.randrange(len(a))])``
  until ``g.is_over``, a new ``hx.Game`` per game (swap off; classic Dark Hex);
- ``hexengine, numpy actions``: the same with the actions as a numpy array,
  ``a = np.flatnonzero(g.action_mask())``, to compare a list with an array;
- ``hexengine, with undo``: at every move, play one random action, take it
  back with ``g.undo()``, then play another (the walk of a tree search: two
  moves and one undo per move of the game, counted as one move);
- ``openspiel, with clone``: OpenSpiel's ``hex`` has no undo (its
  ``undo_action`` is not implemented), so its way to try a move and come back
  is to play on ``state.clone()``: at every move, play one random action on a
  clone, then another on the state.

Each row is the median of ``--rounds`` timings of ``--seconds`` each, the
rounds of all rows interleaved so that a busy spell of the machine falls on
every row alike. Ratios are against OpenSpiel's plain loop on the same game.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

import hexengine as hx

SIZE = 11


def timed(loop: Callable[[float], int], seconds: float) -> float:
    """Moves per second of ``loop``, which plays games for ``seconds`` and returns its move count."""
    start = time.perf_counter()
    moves = loop(seconds)
    return moves / (time.perf_counter() - start)


def spiel_loop(pyspiel, name: str, clone: bool = False) -> Callable[[float], int]:
    game = pyspiel.load_game(name)

    def loop(seconds: float) -> int:
        rng = random.Random(1)
        moves, end = 0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            state = game.new_initial_state()
            while not state.is_terminal():
                if clone:
                    state.clone().apply_action(rng.choice(state.legal_actions()))
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
        return moves

    return loop


def our_loop(variant: str, kind: str = "list") -> Callable[[float], int]:
    """Our loop: ``kind`` "list" (legal_actions), "numpy" (the action mask as an array) or
    "undo" (each move played, taken back and replaced)."""

    def loop(seconds: float) -> int:
        rng = random.Random(1)
        moves, end = 0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            g = hx.Game(variant, size=SIZE, swap="off")
            while not g.is_over:
                a = np.flatnonzero(g.action_mask()) if kind == "numpy" else g.legal_actions()
                g.apply(a[rng.randrange(len(a))])
                if kind == "undo":
                    g.undo()
                    g.apply(a[rng.randrange(len(a))])
                moves += 1
        return moves

    return loop


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one timing (default 3)")
    parser.add_argument("--rounds", type=int, default=3, help="timings a row, median shown (default 3)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    import pyspiel

    games = {
        "hex": "hex(num_rows=11,num_cols=11)",
        "dark": "dark_hex(num_rows=11,num_cols=11,gameversion=cdh)",
    }
    rows: list[tuple[str, str, Callable[[float], int]]] = []
    for variant, name in games.items():
        rows += [
            (variant, "openspiel", spiel_loop(pyspiel, name)),
            (variant, "hexengine", our_loop(variant)),
            (variant, "hexengine, numpy actions", our_loop(variant, "numpy")),
            (variant, "hexengine, with undo", our_loop(variant, "undo")),
            (variant, "openspiel, with clone", spiel_loop(pyspiel, name, clone=True)),
        ]
    rates: dict[tuple[str, str], list[float]] = {(v, n): [] for v, n, _ in rows}
    for _ in range(args.rounds):
        for variant, name, loop in rows:
            rates[variant, name].append(timed(loop, args.seconds))
    print(f"{'random 11x11 games from Python':<40}{'moves per second':>18}{'vs OpenSpiel':>14}")
    out = []
    for variant, name, _ in rows:
        rate = statistics.median(rates[variant, name])
        base = statistics.median(rates[variant, "openspiel"])
        print(f"{variant + ': ' + name:<40}{rate:>18,.0f}{rate / base:>13.2f}x", flush=True)
        out.append({"variant": variant, "loop": name, "moves_per_second": rate, "vs_openspiel": rate / base})
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
