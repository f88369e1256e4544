"""Load benchmark of the web table: many concurrent tables over loopback websockets.

Starts ``hexengine serve`` on a free loopback port with a fresh database (or
uses ``--server URL``), opens ``--tables`` online tables at once, seats two
websocket clients at each, and has them play random legal moves, game after
game, until ``--games`` games are finished or ``--seconds`` have passed.
Reports moves per second, the move latency (a move sent until its ack, which
the server sends after committing the move to SQLite) at p50/p99, and the
server's memory. Every request goes to 127.0.0.1 only and the run is bounded.

    python bench/web_load.py --tables 50 --games 200 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect


def http(method: str, url: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid: int) -> dict[str, int]:
    """Resident memory (now and peak) of a process, from /proc (Linux)."""
    out = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(("VmRSS:", "VmHWM:")):
                key, value = line.split(":")
                out[key] = int(value.split()[0])
    except OSError:
        pass
    return out


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.games = 0
        self.moves = 0
        self.errors = 0


async def play_game(
    base: str, ws_base: str, args: argparse.Namespace, stats: Stats, rng: random.Random
) -> None:
    created = await asyncio.to_thread(
        http,
        "POST",
        base + "/api/tables",
        {
            "mode": "online",
            "name": "Ann",
            "settings": {"variant": args.variant, "size": args.size, "swap": None},
        },
    )
    table = created["table"]
    code = created["invite"].split("invite=")[1]
    joined = await asyncio.to_thread(
        http, "POST", f"{base}/api/tables/{table}/join", {"code": code, "name": "Bob"}
    )
    done = asyncio.Event()

    async def player(token: str) -> None:
        async with connect(f"{ws_base}/ws/{table}", max_size=None) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            sent: dict[str, float] = {}
            ply = 0
            while not done.is_set():
                try:
                    raw = await asyncio.wait_for(ws.recv(), 0.5)
                except asyncio.TimeoutError:
                    continue
                f = json.loads(raw)
                kind = f.get("type")
                if kind == "welcome":
                    await ws.send(json.dumps({"type": "saved"}))
                elif kind == "snapshot" and f.get("state"):
                    ply = len(f["state"]["history"])  # a your_turn follows if it is ours
                elif kind in ("moved", "you_hit", "opponent_moved", "stone_hit"):
                    ply = f["n"]
                elif kind == "your_turn":
                    moves = [m for m in f["legal_moves"] if m != "swap"]
                    await move(ws, sent, ply, rng.choice(moves))
                elif kind == "ack" and f.get("id") in sent:
                    stats.latencies.append(time.perf_counter() - sent.pop(f["id"]))
                    if f["ok"]:
                        stats.moves += 1
                    else:
                        stats.errors += 1
                elif kind == "game_over":
                    done.set()

    async def move(ws: Any, sent: dict[str, float], ply: int, cell: str) -> None:
        rid = f"{ply}-{cell}"
        sent[rid] = time.perf_counter()
        await ws.send(json.dumps({"type": "move", "id": rid, "ply": ply, "cell": cell}))

    await asyncio.gather(player(created["token"]), player(joined["token"]))
    stats.games += 1


async def run(args: argparse.Namespace, base: str) -> tuple[Stats, float]:
    ws_base = base.replace("http://", "ws://")
    stats = Stats()
    rng = random.Random(args.seed)
    deadline = time.monotonic() + args.seconds
    started = time.perf_counter()
    remaining = [args.games]

    async def worker() -> None:
        while remaining[0] > 0 and time.monotonic() < deadline:
            remaining[0] -= 1
            try:
                await asyncio.wait_for(
                    play_game(base, ws_base, args, stats, rng), max(1.0, deadline - time.monotonic())
                )
            except asyncio.TimeoutError:
                return

    await asyncio.gather(*(worker() for _ in range(args.tables)))
    return stats, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=50, help="tables played at the same time")
    parser.add_argument("--games", type=int, default=200, help="games to finish in all")
    parser.add_argument("--seconds", type=float, default=60.0, help="stop after this long")
    parser.add_argument("--size", type=int, default=7)
    parser.add_argument("--variant", default="hex", choices=["hex", "rex", "dark", "dark-abrupt"])
    parser.add_argument("--server", help="an already running server (default: start hexengine serve)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    proc = None
    tmp = tempfile.TemporaryDirectory()
    base = args.server
    try:
        if base is None:
            port = free_port()
            proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "hexengine.cli",
                    "serve",
                    "--port",
                    str(port),
                    "--database",
                    str(Path(tmp.name) / "bench.db"),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
            base = f"http://127.0.0.1:{port}"
            for _ in range(300):
                try:
                    http("GET", base + "/healthz")
                    break
                except OSError:
                    time.sleep(0.1)
        before = rss_kib(proc.pid) if proc else {}
        stats, elapsed = asyncio.run(run(args, base))
        after = rss_kib(proc.pid) if proc else {}
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)
        tmp.cleanup()
    lat = sorted(stats.latencies)
    q = statistics.quantiles(lat, n=100) if len(lat) >= 2 else [float("nan")] * 99
    figures = {
        "tables": args.tables,
        "variant": args.variant,
        "size": args.size,
        "games": stats.games,
        "moves": stats.moves,
        "refused": stats.errors,
        "seconds": round(elapsed, 2),
        "moves_per_second": round(stats.moves / elapsed, 1),
        "latency_ms_p50": round(q[49] * 1000, 2),
        "latency_ms_p99": round(q[98] * 1000, 2),
        "server_rss_mib_start": round(before.get("VmRSS", 0) / 1024, 1),
        "server_rss_mib_end": round(after.get("VmRSS", 0) / 1024, 1),
        "server_rss_mib_peak": round(after.get("VmHWM", 0) / 1024, 1),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        for k, v in figures.items():
            print(f"{k:>22}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
