"""The benchmark scripts still run: each is started on a tiny workload, so a change in the
package cannot silently break the commands the README and docs/ give for their figures."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

import hexengine as hx

BENCH = Path(__file__).resolve().parent.parent / "bench"
pytestmark = pytest.mark.skipif(not BENCH.exists(), reason="bench/ is not next to the tests")


def run(*args: str) -> str:
    proc = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=300, cwd=BENCH.parent, check=False
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


@pytest.mark.parametrize("opponent", ["naive", "ismcts", "greedy", "random"])
def test_dark_strength_match_runs(opponent: str) -> None:
    """Two 4x4 games against each baseline, with the JSON summary the docs quote."""
    if opponent == "ismcts":
        pytest.importorskip("pyspiel")
    out = run(
        "bench/dark_strength.py", "match", "--opponent", opponent, "--size", "4", "--games", "2",
        "--seconds", "0.02",
    )  # fmt: skip
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["games"] == 2 and 0 <= summary["wins"] <= 2


def test_solve_bench_runs() -> None:
    """bench/solve.py on every 3x3 Hex opening, and with a guess proven first on 4x4
    (the same winners; each row names the guess)."""
    assert "total" in run("bench/solve.py", "hex", "3").lower()
    out = run("bench/solve.py", "hex", "4", "--guess", "500")
    assert "16 positions, 0 unknown" in out and "Red wins after: d1 c2 b3 a4" in out
    assert sum("guess " in line for line in out.splitlines()) == 16


def test_solve_bench_distinct_openings_in_parallel() -> None:
    """--distinct keeps one opening per half-turn pair (the first in reading order), and
    --jobs 2 gives the same table as one at a time: 4x4 Red wins after d1, c2 and their
    half-turn images a4, b3 only."""
    whole = run("bench/solve.py", "hex", "4", "--quiet")
    assert "16 positions, 0 unknown" in whole and "Red wins after: d1 c2 b3 a4" in whole
    half = run("bench/solve.py", "hex", "4", "--distinct", "--jobs", "2")
    assert "8 positions, 0 unknown" in half and "Red wins after: d1 c2\n" in half
    names = [line.split()[0] for line in half.splitlines()[1:9]]
    assert names == ["a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2"]


def test_tiny_dark_hex_bench_runs() -> None:
    """bench/darkhex_tiny.py on 2x2 with the shipped bot measured."""
    out = run(
        "bench/darkhex_tiny.py", "--boards", "2x2", "--sizes", "", "--iterations", "50",
        "--bot", "200", "--bot", "200:visits",
    )  # fmt: skip
    assert "MCTSBot 200 " in out and "MCTSBot 200:visits" in out


def test_openspiel_comparison_runs() -> None:
    """bench/compare_openspiel.py --quick prints every row of its table."""
    pytest.importorskip("pyspiel")
    out = run("bench/compare_openspiel.py", "--quick")
    for row in ("hex 11x11", "dark 11x11", "floor", "midgame, VC analysis off", "2 threads"):
        assert row in out
    if two_cpus():
        # Two readings a pair; a pair with a slow one (the host, or other work
        # on the CPUs) brings more pairs and rows for the fast and slow ones.
        readings = re.search(r"cache-line hand-off between the two CPUs: ([\d, ]+) ns", out)
        assert readings, out
        assert len(readings.group(1).split(", ")) % 2 == 0


def two_cpus() -> bool:
    """Whether this process may run on two CPUs or more (the hand-off probe's need)."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) >= 2 if affinity else (os.cpu_count() or 1) >= 2


def test_cache_handoff_probe_measures_and_checks_its_count() -> None:
    """_core.cache_handoff_ns (the comparison's placement probe) returns a time, and a
    bad number of hand-offs is a ConfigError that names it."""
    from hexengine import _core

    if two_cpus():
        ns = _core.cache_handoff_ns(200)
        assert 0 < ns < 1e6
    else:
        with pytest.raises(hx.ConfigError, match="two CPUs"):
            _core.cache_handoff_ns(200)
    for bad in (0, -1, 10**8 + 1):
        with pytest.raises(hx.ConfigError, match=f"hand-offs must be from 1 to 100000000, not {bad}"):
            _core.cache_handoff_ns(bad)


def test_thread_scaling_sweep_runs(tmp_path: Path) -> None:
    """bench/thread_scaling.py: two short rounds, a row and two measurements for each setting."""
    out = run(
        "bench/thread_scaling.py", "--rounds", "2", "--simulations", "3000", "--shadow-visits", "0", "1024",
        "--json", str(tmp_path / "pairs.json"),
    )  # fmt: skip
    assert re.search(r"^0 +\S+x \(2\)", out, re.M) and re.search(r"^1024 +\S+x \(2\)", out, re.M), out
    pairs = json.loads((tmp_path / "pairs.json").read_text())
    assert sorted(pairs) == ["0", "1024"]
    for group in pairs.values():
        assert len(group) == 2 and all(p["two"] > 0 and p["one"] > 0 for p in group)


@pytest.mark.parametrize(
    ("colour", "red_games", "blue_games"), [("red", 2, 0), ("blue", 0, 2), ("both", 1, 1)]
)
def test_strength_match_plays_the_colour_asked_for(colour: str, red_games: int, blue_games: int) -> None:
    """bench/strength_openspiel.py --colour: two 4x4 Rex games from game 1 on, with
    hexengine on the side asked for (Red in the even games); ``--ours simulations=``
    gives our side its own budget."""
    pytest.importorskip("pyspiel")
    out = run(
        "bench/strength_openspiel.py", "--variant", "rex", "--size", "4", "--simulations", "50",
        "--games", "2", "--first-game", "1", "--jobs", "1", "--colour", colour, "--ours", "simulations=60",
    )  # fmt: skip
    assert "50 simulations per move (hexengine 60)" in out
    found = re.search(r"won (\d+)/2 = .*as Red (\d+)/(\d+), as Blue (\d+)/(\d+)", out)
    assert found, out
    won, red_won, reds, blue_won, blues = map(int, found.groups())
    assert (reds, blues) == (red_games, blue_games)
    assert won == red_won + blue_won


def random_records(folder: Path, games: int, seed: int, variant: str = "rex", size: int = 4) -> list[int]:
    """Writes ``games`` random 4x4 Rex games (or of `variant` and `size`; swap off; "ann"
    Red, "bob" Blue) into ``folder`` as SGF; returns, per game Red lost, how many times
    Red was to move."""
    rng = random.Random(seed)
    red_moves = []
    for n in range(games):
        game = hx.Game(variant, size=size, swap="off")
        while not game.is_over:
            game.play(rng.choice(game.legal_moves()))
        if game.winner == hx.BLUE:
            red_moves.append((len(game.history) + 1) // 2)
        record = hx.GameRecord.from_game(game, players=("ann", "bob"))
        (folder / f"game{n}.sgf").write_text(record.to_sgf())
    return red_moves


def test_where_lost_finds_the_won_positions_a_loser_gave_away(tmp_path: Path) -> None:
    """bench/where_lost.py on random 4x4 Rex games: Red, the first player, wins 4x4 Rex
    from the empty board with perfect play (an even board), so every game Red lost shows
    its first position won, and a line has one mark per position with Red to move."""
    red_moves = random_records(tmp_path, 8, seed=3)
    (tmp_path / "notes.txt").write_text("not a record")  # not a record's name: left out
    (tmp_path / "broken.sgf").write_text("(;FF[4]SZ[99]")  # not a record: skipped with a warning
    assert 0 < len(red_moves) < 8  # both kinds of game, so the --player filter is tested
    out = run(
        "bench/where_lost.py", str(tmp_path), "--player", "ann", "--max-empties", "16", "--seconds", "30"
    )
    *lines, summary = out.strip().splitlines()
    marks = [line.split(" lost: ")[1].split("  (")[0].split() for line in lines]
    for line, game_marks in zip(lines, marks, strict=True):
        assert game_marks[0] == "16:W" and all(m[-1] in "WL" for m in game_marks), line
    assert sorted(map(len, marks)) == sorted(red_moves)
    assert summary.startswith(f"{len(red_moves)} lost games of 8: {len(red_moves)} with a proven win")


def test_where_lost_reports_where_openspiel_proves_the_result(tmp_path: Path) -> None:
    """bench/where_lost.py --peer-simulations: for each game Red lost, the most empty cells
    at which OpenSpiel's MCTSBot, searching a position of Blue (the winner), proves its
    result; a 4x4 Rex game ends with the loser's move, so Blue had positions with 1 to 15
    empty cells, and on a board that small its search settles the late ones."""
    pytest.importorskip("pyspiel")
    red_moves = random_records(tmp_path, 4, seed=3)
    out = run(
        "bench/where_lost.py", str(tmp_path), "--player", "ann", "--max-empties", "0",
        "--peer-simulations", "300",
    )  # fmt: skip
    found = [int(n) for n in re.findall(r"\[OpenSpiel proves it from (\d+) empty\]", out)]
    assert len(found) == len(red_moves) > 0, out
    assert all(1 <= n <= 15 for n in found)


def test_where_lost_shows_where_the_search_value_fell(tmp_path: Path) -> None:
    """bench/where_lost.py --search-seconds on random 5x5 Hex games: each game Red lost
    names the largest fall of the search's value between two of Red's positions (an even
    number of moves apart, values in [0, 1]), and the summary counts the falls of 0.3 or
    more among those games."""
    red_moves = random_records(tmp_path, 6, seed=3, variant="hex", size=5)
    out = run(
        "bench/where_lost.py", str(tmp_path), "--player", "ann", "--max-empties", "0",
        "--search-seconds", "0.02", "--jobs", "1",
    )  # fmt: skip
    falls = re.findall(r"\[search value (\d\.\d\d) at move (\d+) -> (\d\.\d\d) at move (\d+)\]", out)
    assert len(falls) == len(red_moves) > 0, out
    for before, first, after, second in falls:
        assert 0 <= float(before) <= 1 and 0 <= float(after) <= 1
        assert int(second) - int(first) >= 2 and (int(second) - int(first)) % 2 == 0
    big = sum(1 for before, _, after, _ in falls if float(before) - float(after) >= 0.3 + 0.01)
    found = re.search(r"^(\d+) of (\d+) lost games where the search's value fell by 0.3", out, re.M)
    assert found, out
    assert int(found[2]) == len(red_moves) and big <= int(found[1]) <= len(red_moves)


def test_where_lost_finds_where_the_connections_prove_the_loss(tmp_path: Path) -> None:
    """bench/where_lost.py --connections on random 6x6 Hex games: where a game Red lost
    names the first move from which the search's knowledge alone proves Red lost, that
    position has Red to move and the exact solver agrees that Red loses it; the summary
    counts those games."""
    red_moves = random_records(tmp_path, 24, seed=8, variant="hex", size=6)
    out = run(
        "bench/where_lost.py", str(tmp_path), "--player", "ann", "--max-empties", "0",
        "--connections", "--jobs", "1",
    )  # fmt: skip
    known = re.findall(
        r"^(game\d+\.sgf) red lost:.*\[connections prove it lost from move (\d+) \(hexengine\)", out, re.M
    )
    assert len(known) >= 3, out
    for name, move in known:
        record = hx.read_record(tmp_path / name)
        game = hx.Game("hex", size=6, swap="off")
        for action in record.actions[: int(move) - 1]:
            game.play(action.cell)
        assert game.to_move == hx.RED
        assert hx.solve(game).winner == hx.BLUE, (name, move)
    found = re.search(r"^hexengine's connections prove (\d+) of (\d+) lost games lost", out, re.M)
    assert found, out
    assert int(found[1]) == len(known) and int(found[2]) == len(red_moves)


def test_where_lost_compares_two_runs(tmp_path: Path) -> None:
    """bench/where_lost.py --json, then --compare: a run compared with itself proves every
    game lost at the same move; a second run whose first proof of one game comes two moves
    earlier and that drops another is counted so, and the changed games are named. Where
    both runs hold Benzene's first proofs (runs with and without a ``--benzene-setting``),
    those are compared too, in a block of their own."""
    games = tmp_path / "games"
    games.mkdir()
    random_records(games, 24, seed=8, variant="hex", size=6)
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    run(
        "bench/where_lost.py", str(games), "--player", "ann", "--max-empties", "0",
        "--connections", "--jobs", "1", "--json", str(before),
    )  # fmt: skip
    lost = json.loads(before.read_text())
    known = [g for g in lost if g["ours_know_from"]]
    assert len(known) >= 3 and all(g["loser"] == "red" for g in lost)
    same = run("bench/where_lost.py", "--compare", str(before), str(before))
    assert f"{len(lost)} lost games in both runs: proven lost earlier in 0, later in 0, " in same
    assert f"at the same move in {len(known)}; only before in 0, only after in 0" in same
    known[0]["ours_know_from"] -= 2
    known[1]["ours_know_from"] = None
    after.write_text(json.dumps(lost))
    changed = run("bench/where_lost.py", "--compare", str(before), str(after))
    counts = (
        "earlier in 1, later in 0, "
        + f"at the same move in {len(known) - 2}; only before in 1, only after in 0"
    )
    assert counts in changed
    assert f"{known[0]['name']}: proven lost from move " in changed and f"{known[1]['name']}: " in changed
    assert "hexengine's connections:" in changed and "Benzene's connections:" not in changed
    for game in lost:  # Benzene's proofs: two moves before ours in the first run, at ours in the second
        game["benzene_knows_from"] = game["ours_know_from"] and game["ours_know_from"] - 2
    before.write_text(json.dumps(lost))
    for game in lost:
        game["benzene_knows_from"] = game["ours_know_from"]
    after.write_text(json.dumps(lost))
    both = run("bench/where_lost.py", "--compare", str(before), str(after))
    theirs = both[both.index("Benzene's connections:") :]
    assert f"earlier in 0, later in {len(known) - 1}, at the same move in 0;" in theirs, both
    no_benzene = subprocess.run(
        [sys.executable, "bench/where_lost.py", str(games), "--benzene-setting", "param_mohex num_threads 1"],
        capture_output=True, text=True, cwd=BENCH.parent, check=False,
    )  # fmt: skip
    assert no_benzene.returncode == 2 and "--benzene-setting needs --benzene PATH" in no_benzene.stderr
    not_json = subprocess.run(
        [sys.executable, "bench/where_lost.py", "--compare", str(before), str(games / "game0.sgf")],
        capture_output=True, text=True, cwd=BENCH.parent, check=False,
    )  # fmt: skip
    assert not_json.returncode == 2 and "game0.sgf is not a file of where_lost.py --json" in not_json.stderr


def test_where_lost_replays_dark_hex_matches(tmp_path: Path) -> None:
    """bench/where_lost.py --dark on a dark_strength.py match against the greedy player: every
    decision replays as recorded (or the script fails), and the summary and the JSON account for
    each game and decision."""
    records, decisions = tmp_path / "dark.jsonl", tmp_path / "decisions.json"
    run(
        "bench/dark_strength.py", "match", "--opponent", "greedy", "--variant", "dark-abrupt", "--size", "4",
        "--games", "6", "--simulations", "300", "--records", str(records),
    )  # fmt: skip
    out = run("bench/where_lost.py", "--dark", str(records), "--json", str(decisions))
    games = json.loads(decisions.read_text())
    assert len(games) == 6 and all(g["decisions"] for g in games)
    totals = [int(count) for _, count in re.findall(r"(lost|won) games (\d+):", out)]
    assert sum(totals) == 6
    assert sum(not g["won"] for g in games) == len(re.findall(r"^seed \d+ \w+ lost", out, re.M))


def test_python_loops_bench_runs(tmp_path: Path) -> None:
    """bench/python_loops.py: every row, with OpenSpiel beside hexengine."""
    pytest.importorskip("pyspiel")
    figures_file = tmp_path / "loops.json"
    out = run("bench/python_loops.py", "--seconds", "0.05", "--rounds", "1", "--json", str(figures_file))
    for row in ("hex: openspiel", "hex: hexengine, with undo", "dark: hexengine, numpy actions"):
        assert row in out
    figures = json.loads(figures_file.read_text())
    assert len(figures) == 10 and all(f["moves_per_second"] > 0 for f in figures)


def test_vector_env_bench_runs(tmp_path: Path) -> None:
    """bench/vector_env.py on a small batch (pgx rows only where pgx is installed)."""
    out = run("bench/vector_env.py", "--batch", "64", "--seconds", "0.05", "--rounds", "1")
    assert "hexengine, 2 threads" in out and "bytes of game state" in out


def test_net_strength_match_runs(tmp_path: Path) -> None:
    """bench/net_strength.py: the evaluator's speed, then two 5x5 games against the playout search."""
    pytest.importorskip("onnx", reason="building the test model needs onnx")
    pytest.importorskip("onnxruntime", reason="the nn extra (onnxruntime) is not installed")
    from test_networks import linear_model

    model = linear_model(tmp_path / "net.onnx", 12)
    out = run(
        "bench/net_strength.py", "--onnx", str(model), "--size", "5", "--games", "2", "--simulations", "20"
    )
    assert "positions/s" in out and re.search(r"net \d of 2 \(.*95% Wilson interval", out)


# A stand-in for MoHex on HTP: it answers every command, and for each genmove writes
# the statistics MoHex logs after a search (playouts, knowledge nodes, time), except
# after exactly 12 stones, where it logs what MoHex logs when its pre-search decides.
FAKE_MOHEX = """
import sys
log = open(next(a for a in sys.argv if a.startswith("--logfile-name=")).split("=", 1)[1], "a")
stones = 0
for line in sys.stdin:
    words = line.split()
    if words and words[0] == "clear_board":
        stones = 0
    elif words and words[0] == "play":
        stones += 1
    elif words and words[0] == "genmove":
        if stones == 12:
            log.write("info: Winning SC.\\n")
        else:
            log.write(f"Elapsed Time   1.2s\\nGamesPlayed    {5000 + 100 * stones}\\n")
            log.write(f"Knowledge      {30 + stones} (0.5%)\\nTime           0.5\\n")
        log.flush()
    print("= a1" if words and words[0] == "genmove" else "= ", end="\\n\\n", flush=True)
    if words and words[0] == "quit":
        break
"""


def test_mohex_search_reads_the_searches_from_the_log(tmp_path: Path) -> None:
    """bench/mohex_search.py with a stand-in MoHex: playouts a second and knowledge nodes are
    read from the log of each search, a position its pre-search decided is left out, and
    the medians are over the positions both engines searched."""
    fake = tmp_path / "mohex"
    fake.write_text(f"#!{sys.executable}\n{FAKE_MOHEX}")
    fake.chmod(0o755)
    records = tmp_path / "games"
    records.mkdir()
    random_records(records, 2, seed=4, variant="hex", size=9)
    out = run(
        "bench/mohex_search.py", str(records), "--mohex", str(fake), "--moves", "6,10,12",
        "--seconds", "0.05",
    )  # fmt: skip
    lines = re.findall(r"^game(\d+)\.sgf move (\d+): ([\d,]+), (\d+), 0\.50, ([\d,]+) \| ([\d,]+)", out, re.M)
    assert [(int(g), int(m)) for g, m, *_ in lines] == [(0, 6), (0, 10), (1, 6), (1, 10)], out
    for _, move, played, knowledge, rate, ours in lines:
        assert int(played.replace(",", "")) == 5000 + 100 * int(move) and int(knowledge) == 30 + int(move)
        assert int(rate.replace(",", "")) == 2 * (5000 + 100 * int(move)) and int(ours.replace(",", "")) > 0
    assert "median over 4 positions: MoHex 11,600 playouts/s with knowledge at 38 nodes" in out
