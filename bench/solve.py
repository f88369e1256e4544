"""Time hexengine's solver on whole sets of small-board positions.

Each position is one opening (Red's first stone, Blue to move) or, with
``--replies CELL``, one reply of Blue to Red's CELL (Red to move). Every
position is solved on its own (a fresh transposition table each time), with
swap off. The table printed gives the winner, the nodes expanded, the time and
the peak memory of each, then the totals; ``--json`` writes them to a file.

    python bench/solve.py hex 6                  # every 6x6 Hex opening
    python bench/solve.py hex 7 --cells d4       # the 7x7 centre opening
    python bench/solve.py rex 5                  # every 5x5 Rex opening
    python bench/solve.py rex 5 --replies c3     # every reply to the 5x5 Rex centre
    python bench/solve.py rex 5 --replies all    # every reply to every 5x5 Rex opening
    python bench/solve.py hex 6 --rows 6 --cols 7  # a non-square board
    python bench/solve.py hex 7 --threads 2      # a helper thread on the root's moves
    python bench/solve.py hex 8 --distinct --jobs 2 --max-seconds 600  # the 8x8 table, two at a time
    python bench/solve.py hex 8 --distinct --jobs 2 --max-seconds 600 --guess 100000  # MCTS's move first

``--distinct`` keeps one opening of each pair that the half-turn maps onto each
other (the one first in reading order, a1 b1 ... then a2 ...), which have the
same winner. ``--jobs N`` solves N positions at a time in separate processes
(one thread each unless ``--threads``); each position's time is still its own.
``--guess N`` has an MCTS search of N simulations pick a move of the player to
move, proven first (``hx.solve(..., guess=N)``); its time counts in the row's.

With ``--benzene PATH`` each position is also solved by a Benzene binary
(``mohex`` or ``wolve`` built from github.com/cgao3/benzene-vanilla-cmake) through
its HTP ``dfpn-solve-state`` command, for a side-by-side winner, node counts and
time in the same run; hexengine does not ship or build Benzene. Benzene's two
counts are read from its log: its df-pn MID calls (which, unlike hexengine's
nodes, leave out positions decided when first evaluated) and its VC builds (one
per position evaluated, like hexengine's ``expanded``, which is printed too).
``--benzene-setting`` sends Benzene one more HTP command first, for example
``"param_solver_vc use_patterns 0"``, to measure what one piece of its knowledge
is worth:

    python bench/solve.py hex 6 --benzene /path/to/mohex
    python bench/solve.py hex 6 --benzene /path/to/mohex --benzene-setting "param_solver_board use_ice 0"
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

import hexengine as hx


def positions(args: argparse.Namespace) -> list[tuple[str, hx.Game]]:
    rows, cols = args.rows or args.size, args.cols or args.size
    out = []
    everything = [hx.Cell.from_index(i, cols).name for i in range(rows * cols)]
    if args.replies:
        openings = everything if args.replies == "all" else args.replies.split(",")
        for first in openings:
            for name in everything:
                if name == hx.Cell.parse(first).name:
                    continue
                game = hx.Game(args.variant, rows=rows, cols=cols, swap="off")
                game.play(first)
                game.play(name)
                out.append((f"{first} {name}", game))
        return out
    cells = args.cells.split(",") if args.cells else everything
    if args.distinct:
        cells = distinct(cells, rows, cols)
    for name in cells:
        game = hx.Game(args.variant, rows=rows, cols=cols, swap="off")
        game.play(name)
        out.append((name, game))
    return out


def distinct(cells: list[str], rows: int, cols: int) -> list[str]:
    """One cell of each pair the half-turn maps onto each other, in reading order."""
    kept: list[str] = []
    seen: set[int] = set()
    ordered = sorted((hx.Cell.parse(name).index(cols), name) for name in cells)
    for index, name in ordered:
        turned = rows * cols - 1 - index
        if index in seen or turned in seen:
            continue
        seen.add(index)
        kept.append(name)
    return kept


def solve_row(
    moves: list[str],
    *,
    variant: str,
    rows: int,
    cols: int,
    max_seconds: float | None,
    max_memory: int,
    threads: int,
    guess: int = 0,
) -> dict:
    """Solves the position after `moves` on its own; the row of the table, with its wall and CPU time."""
    game = hx.Game(variant, rows=rows, cols=cols, swap="off")
    for move in moves:
        game.play(move)
    start, cpu = time.perf_counter(), time.process_time()
    res = hx.solve(game, max_seconds=max_seconds, max_memory=max_memory, threads=threads, guess=guess)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {
        "winner": str(res.winner) if res.winner else None,
        "status": res.status,
        "nodes": res.nodes,
        "expanded": res.counts.get("expanded", 0),
        "main_thread_nodes": res.nodes - res.counts.get("helper_nodes", 0),
        "seconds": round(wall, 4),
        "cpu_seconds": round(cpu, 4),
        "memory": res.memory,
        "guess": str(res.counts["guess"]) if guess else None,
    }


class Benzene:
    """A Benzene engine driven over HTP (a GTP dialect), one command at a time."""

    def __init__(self, path: str, rows: int, cols: int, settings: Iterable[str] = ()) -> None:
        # Benzene writes its solver statistics to a log file; the node count is read from there.
        self.log = Path(tempfile.mkdtemp(prefix="benzene-")) / "benzene.log"
        self.proc = subprocess.Popen(
            [path, f"--logfile-name={self.log}"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self.command(f"boardsize {cols} {rows}")
        self.command("param_dfpn use_guifx 0")
        for line in settings:
            self.command(line)

    def command(self, line: str) -> str:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        reply = []
        while True:
            text = self.proc.stdout.readline()
            if text == "":
                raise RuntimeError(f"benzene exited on {line!r}")
            if text.strip() == "" and reply:
                break
            if text.strip():
                reply.append(text.strip())
        answer = " ".join(reply)
        if answer.startswith("?"):
            raise RuntimeError(f"benzene: {line!r} -> {answer}")
        return answer.lstrip("= ").strip()

    def set_position(self, game: hx.Game) -> None:
        """Plays the game's moves on a cleared board (Benzene's black is Red)."""
        self.command("clear_board")
        for action in game.history:
            colour = "b" if action.color == hx.RED else "w"
            self.command(f"play {colour} {action.cell.name}")

    def solve(self, game: hx.Game) -> tuple[str, int, int, float]:
        """Winner ("black" is Red), MID calls, VC builds and seconds of one position."""
        self.set_position(game)
        self.command("dfpn-clear-tt")
        to_move = "black" if game.to_move == hx.RED else "white"
        logged = self.log.stat().st_size if self.log.exists() else 0
        start = time.perf_counter()
        winner = self.command(f"dfpn-solve-state {to_move}")
        seconds = time.perf_counter() - start
        with self.log.open("rb") as log:  # only what this position wrote
            log.seek(logged)
            text = log.read().decode(errors="replace")
        calls = re.findall(r"MID calls\s+(\d+)", text)
        builds = re.findall(r"VC builds\s+(\d+)", text)
        return winner, int(calls[-1]) if calls else -1, int(builds[-1]) if builds else -1, seconds

    def close(self) -> None:
        try:
            self.command("quit")
        except RuntimeError:
            pass
        self.proc.wait(timeout=10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant", choices=["hex", "rex"])
    parser.add_argument("size", type=int, help="board size n (n x n unless --rows/--cols)")
    parser.add_argument("--rows", type=int)
    parser.add_argument("--cols", type=int)
    parser.add_argument("--cells", help="comma-separated openings to solve (default: all)")
    parser.add_argument("--replies", metavar="CELLS", help="every reply to these openings (a,b,... or 'all')")
    parser.add_argument("--max-seconds", type=float, default=None, help="per position (default: none)")
    parser.add_argument("--max-memory", type=int, default=2**30, help="bytes per position (default 1 GiB)")
    parser.add_argument("--threads", type=int, default=1, help="threads per position (default 1)")
    parser.add_argument(
        "--guess", type=int, default=0, metavar="N", help="prove first an N-simulation MCTS's move"
    )
    parser.add_argument("--benzene", metavar="PATH", help="also run a Benzene binary (mohex or wolve)")
    parser.add_argument(
        "--benzene-setting",
        action="append",
        default=[],
        metavar="COMMAND",
        help="an HTP command sent to Benzene before solving (repeatable)",
    )
    parser.add_argument("--distinct", action="store_true", help="one opening per half-turn pair")
    parser.add_argument("--jobs", type=int, default=1, help="positions solved at a time (default 1)")
    parser.add_argument("--json", metavar="FILE", help="write the results as JSON")
    parser.add_argument("--quiet", action="store_true", help="print only unknown positions and the totals")
    args = parser.parse_args()
    if args.variant == "rex" and args.benzene:
        parser.error("Benzene's df-pn solves Hex only")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.benzene and args.jobs > 1:
        parser.error("--benzene times each position alone; use it with --jobs 1")
    if args.distinct and args.replies:
        parser.error("--distinct applies to openings, not to --replies")

    rows, cols = args.rows or args.size, args.cols or args.size
    peer = Benzene(args.benzene, rows, cols, args.benzene_setting) if args.benzene else None
    results = []
    total_nodes, main_nodes, total_seconds, total_cpu, peak = 0, 0, 0.0, 0.0, 0
    total_expanded, peer_nodes, peer_builds, peer_seconds = 0, 0, 0, 0.0
    header = f"{args.variant} {rows}x{cols}: position, winner, nodes, expanded, seconds, CPU seconds, MB"
    print(header + (", benzene winner, MID calls, VC builds, seconds" if peer else ""))
    todo = positions(args)
    solve_one = partial(
        solve_row, variant=args.variant, rows=rows, cols=cols,
        max_seconds=args.max_seconds, max_memory=args.max_memory, threads=args.threads, guess=args.guess,
    )  # fmt: skip
    moves = [[action.cell.name for action in game.history] for _, game in todo]
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    rows_out = (pool.map if pool else map)(solve_one, moves)
    for (name, game), row in zip(todo, rows_out, strict=True):
        row = {"position": name, **row}
        wall, cpu = row["seconds"], row["cpu_seconds"]
        outcome = row["winner"] or row["status"]
        line = f"{name:>7}  {outcome:>7}  {row['nodes']:>10}  {row['expanded']:>10}  {wall:9.3f}  {cpu:9.3f}"
        line += f"  {row['memory'] / 2**20:7.1f}"
        if args.guess:
            line += f"  guess {row['guess']}"
        if peer:
            winner, calls, builds, seconds = peer.solve(game)
            row.update(benzene_winner=winner, benzene_mid_calls=calls, benzene_vc_builds=builds)
            row["benzene_seconds"] = round(seconds, 4)
            line += f"  {winner:>6} {calls:>10} {builds:>10} {seconds:9.3f}"
            peer_nodes += calls
            peer_builds += builds
            peer_seconds += seconds
        if not args.quiet or row["winner"] is None:
            print(line, flush=True)
        results.append(row)
        total_nodes += row["nodes"]
        total_expanded += row["expanded"]
        main_nodes += row["main_thread_nodes"]
        total_seconds += wall
        total_cpu += cpu
        peak = max(peak, row["memory"])
    if pool:
        pool.shutdown()
    if peer:
        peer.close()
    unknown = sum(1 for r in results if r["winner"] is None)
    if args.threads > 1:
        print(f"main thread: {main_nodes} nodes (the others' nodes are in the total)")
    print(
        f"total: {len(results)} positions, {unknown} unknown, {total_nodes} nodes "
        f"({total_expanded} expanded), {total_seconds:.2f} s ({total_cpu:.2f} s CPU), "
        f"peak {peak / 2**20:.1f} MB"
    )
    if peer:
        print(f"benzene: {peer_nodes} MID calls, {peer_builds} VC builds, {peer_seconds:.2f} s")
    red = [r["position"] for r in results if r["winner"] == "Red"]
    print("Red wins after:", " ".join(red) or "none")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
