"""pytest-benchmark suite of the solver (not part of the default test run).

    python -m pytest bench/test_solver_bench.py --benchmark-only

Each benchmark solves a fixed set of positions once per round and checks the
answers, so a faster but wrong solver cannot pass. The long sets (every 7x7
Hex opening, every reply to a 5x5 Rex opening) are in ``bench/solve.py``.
"""

from __future__ import annotations

import pytest

import hexengine as hx

# Benzene regression/dfpn-solve-6x6.tst: Red's winning first moves on 6x6.
HEX6_WINS = set("f1 b2 c2 d2 e2 f2 a3 b3 c3 d3 e3 f3 a4 b4 c4 d4 e4 f4 a5 b5 c5 d5 e5 a6".split())
HEX5_WINS = set("e1 b2 c2 d2 e2 b3 c3 d3 a4 b4 c4 d4 a5".split())


def solve_openings(variant: str, n: int, cells: list[str] | None = None) -> dict[str, hx.Color]:
    out = {}
    for i in range(n * n):
        name = hx.Cell.from_index(i, n).name
        if cells and name not in cells:
            continue
        game = hx.Game(variant, size=n, swap="off")
        game.play(name)
        res = hx.solve(game, max_seconds=None, max_memory=2**30)
        assert res.proven
        out[name] = res.winner
    return out


def red_wins(results: dict[str, hx.Color]) -> set[str]:
    return {name for name, winner in results.items() if winner == hx.RED}


def test_hex_5x5_all_openings(benchmark):
    results = benchmark(solve_openings, "hex", 5)
    assert red_wins(results) == HEX5_WINS


@pytest.mark.parametrize("rounds", [1])
def test_hex_6x6_all_openings(benchmark, rounds):
    results = benchmark.pedantic(solve_openings, args=("hex", 6), rounds=rounds, iterations=1)
    assert red_wins(results) == HEX6_WINS


def test_hex_7x7_centre(benchmark):
    results = benchmark.pedantic(solve_openings, args=("hex", 7, ["d4"]), rounds=1, iterations=1)
    assert results == {"d4": hx.RED}


def test_rex_4x4_all_openings(benchmark):
    results = benchmark(solve_openings, "rex", 4)
    assert red_wins(results) == set(results) - {"c2", "b3"}


def test_rex_5x5_all_openings(benchmark):
    results = benchmark.pedantic(solve_openings, args=("rex", 5), rounds=1, iterations=1)
    assert red_wins(results) == set()
