"""The match runner (hexengine.match, `hexengine match`): players, colours, openings, parallel
games, records, forfeits and the Elo estimate."""

from __future__ import annotations

import json
import math
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import hexengine as hx
from hexengine.match import MatchError, MatchResult, elo, parse_opening, parse_player, run_match

FAKE = str(Path(__file__).with_name("_fake_htp.py"))
HEXENGINE_HTP = f"htp:{sys.executable} -m hexengine.cli htp"
SMALL = hx.Rules("hex", 5, 5, "off")
CLOCKED = {"games": 2, "rules": SMALL, "jobs": 1, "clock": 30}


def fake(mode: str, *options: str) -> str:
    return ";".join([f"htp:{sys.executable} {FAKE} {mode}", *options])


def test_player_specs():
    """Specs of every kind parse into their options; unknown kinds and options, bad values and
    malformed parts are refused with the spec named."""
    assert parse_player("mcts").options == {}
    assert parse_player("mcts:level=hard;threads=2,seed=5").options == {
        "level": "hard",
        "threads": 2,
        "seed": 5,
    }
    assert parse_player("computer:easy").options == {"level": "easy"}
    assert parse_player("random:seed=3;name=R").name == "R"
    spec = parse_player(
        "htp:/x/mohex --quiet;setup=param_mohex max_games 1000;setup=param_game allow_swap 0;timeout=9"
    )
    assert spec.setup == ("param_mohex max_games 1000", "param_game allow_swap 0")
    assert spec.name == "htp:mohex --quiet" and spec.options == {"timeout": 9}
    assert parse_player("python:hexengine.bots:RandomBot;seed=1").target == "hexengine.bots:RandomBot"
    for bad, needle in [
        ("", "cannot be empty"),
        ("alpha", "unknown player kind"),
        ("mcts:simulations=-5", "simulations must be"),
        ("mcts:temperature=2", "unknown option"),
        ("mcts:fast", "expected key=value"),
        ("computer:godlike", "level must be"),
        ("htp:", "needs a command"),
        ("htp:x;color=red", "unknown option"),
        ("python:nomodule", "python:module.path:factory"),
    ]:
        with pytest.raises(MatchError, match=needle):
            parse_player(bad)


def test_elo_and_interval():
    """Elo of a score, the Wilson 95% interval (finite bounds at 0% and 100%) and the LOS."""
    assert elo(0.5) == 0.0 and elo(0.0) == -math.inf and round(elo(0.9), 1) == 381.7
    result = MatchResult(("a", "b"), SMALL, [], 0)
    assert result.elo_interval == (-math.inf, math.inf) and result.los == 0.5
    from hexengine.match import GameResult

    result.games = [GameResult(i, "A", "A", "red", "connection", "", 9, [], "") for i in range(10)]
    lo, hi = result.elo_interval
    assert result.elo == math.inf and hi == math.inf and 100 < lo < 400
    result.games[0].winner = "B"
    lo, hi = result.elo_interval
    assert lo < result.elo < hi and result.los > 0.99


def test_built_in_bots_in_one_process(tmp_path):
    """Two built-in bots: colours alternate, the referee's winner is reported, every game is
    saved as SGF that loads back to the same winner, and results.json holds the totals."""
    result = run_match("mcts:simulations=100", "random", games=4, rules=SMALL, jobs=1, sgf_dir=tmp_path)
    assert [g.red for g in result.games] == ["A", "B", "A", "B"]
    assert result.wins == {"A": 4, "B": 0} and result.games_played == 4
    for g in result.games:
        record = hx.GameRecord.from_sgf((tmp_path / f"game-{g.index + 1:04d}.sgf").read_text())
        assert record.winner.name.lower() == g.winner_color
        assert record.players[record.red_seat].name == ("mcts:simulations=100" if g.red == "A" else "random")
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["wins"] == {"A": 4, "B": 0} and data["elo_a_minus_b"] == "inf"
    assert "4 wins (2 as Red, 2 as Blue)" in result.summary()


def test_builtin_against_hexengine_htp_in_parallel_processes(tmp_path):
    """A built-in bot against `hexengine htp` run as an external engine, two games at a time
    in separate processes, with a swap rule: every game ends by connection and the seats'
    colours and winners agree with the records."""
    rules = hx.Rules("hex", 4, 4, "sides")
    progress: list[int] = []
    result = run_match(
        "mcts:simulations=100",
        f"{HEXENGINE_HTP};simulations=100",
        games=4,
        rules=rules,
        jobs=2,
        sgf_dir=tmp_path,
        progress=lambda r: progress.append(r.games_played),
    )
    assert progress == [1, 2, 3, 4] and result.games_played == 4
    for g in result.games:
        assert g.reason == "connection", g.detail
        record = hx.GameRecord.from_sgf((tmp_path / f"game-{g.index + 1:04d}.sgf").read_text())
        assert record.winner_seat == g.winner and record.red_seat == g.red
    assert sum(result.wins.values()) == 4


@pytest.mark.parametrize(
    ("mode", "reason", "needle"),
    [
        ("die", "forfeit", "exited"),
        ("a1", "forfeit", "illegal move"),
        ("garbage", "forfeit", "not a move"),
        ("refuse", "forfeit", "I will not"),
        ("resign", "resignation", "resigned"),
    ],
)
def test_engines_that_fail_forfeit_and_the_match_goes_on(mode, reason, needle):
    """An engine that crashes, answers an illegal move or a non-move, or refuses genmove
    forfeits each game (logged); one that resigns loses; the match plays every game."""
    logged: list[str] = []
    result = run_match("random", fake(mode), games=3, rules=SMALL, jobs=1, log=logged.append)
    assert result.games_played == 3 and result.wins == {"A": 3, "B": 0}
    assert {g.reason for g in result.games} == {reason}
    assert all(needle in g.detail for g in result.games)
    assert len(logged) == (3 if reason == "forfeit" else 0)


def test_silent_engine_loses_on_time_and_a_crashed_engine_is_restarted():
    """An engine silent past its timeout loses on time; an engine that crashes mid-game is
    started again for the next game, which it plays normally until it crashes again."""
    result = run_match("random", fake("silent", "timeout=0.3"), games=2, rules=SMALL, jobs=1)
    assert [g.reason for g in result.games] == ["forfeit", "forfeit"]
    assert all("no answer" in g.detail for g in result.games)
    result = run_match("random", fake("die-later"), games=2, rules=SMALL, jobs=1)
    assert all(g.reason == "forfeit" and g.decisions["B"] == 2 for g in result.games)


def test_openings_are_played_twice_with_colours_exchanged():
    """Each opening starts a pair of games, one with each player as Red; random openings too;
    openings are checked by the referee."""
    openings = [parse_opening("c3 b2", SMALL), parse_opening("#5,a1e5", SMALL)]
    result = run_match("mcts:simulations=50", "random", games=4, rules=SMALL, jobs=1, openings=openings)
    assert [(g.opening, g.red) for g in result.games] == [
        (["c3", "b2"], "A"), (["c3", "b2"], "B"), (["a1", "e5"], "A"), (["a1", "e5"], "B"),
    ]  # fmt: skip
    assert all(g.sgf.count(";B[") + g.sgf.count(";W[") == g.moves for g in result.games)
    result = run_match("random", "random", games=4, rules=SMALL, jobs=1, random_openings=3, seed=5)
    assert result.games[0].opening == result.games[1].opening != result.games[2].opening
    assert len(result.games[0].opening) == 3
    for bad in ("c3 c3", "a1 a2 zz9", "#4,a1"):
        with pytest.raises(MatchError):
            parse_opening(bad, SMALL)
    with pytest.raises(MatchError, match="ends the game"):
        parse_opening("a1", hx.Rules("hex", 1, 1))


def test_dark_hex_matches_and_what_cannot_play_them():
    """Dark Hex matches run with the table's computer, MCTSBot and random players (each given
    only its view); HTP engines are refused at the start with the reason."""
    rules = hx.Rules("dark", 3, 3)
    result = run_match("computer:easy", "random", games=2, rules=rules, jobs=1)
    assert result.games_played == 2 and all(g.reason == "connection" for g in result.games)
    with pytest.raises(MatchError, match="HTP"):
        run_match(HEXENGINE_HTP, "random", games=2, rules=rules, jobs=1)
    result = run_match("mcts:simulations=500", "random", games=2, rules=rules, jobs=1)
    assert result.games_played == 2 and result.wins["A"] == 2
    with pytest.raises(MatchError, match="cannot start"):
        run_match("htp:/no/such/engine", "random", games=2, rules=SMALL, jobs=1)
    with pytest.raises(MatchError, match="games must be"):
        run_match("random", "random", games=0, rules=SMALL)


def test_python_players():
    """python:MODULE:FACTORY builds any bot with choose(view) from its options."""
    result = run_match("python:hexengine.bots:RandomBot;seed=1", "random", games=2, rules=SMALL, jobs=1)
    assert result.games_played == 2
    with pytest.raises(MatchError, match="cannot load"):
        run_match("python:hexengine.bots:NoSuchBot", "random", games=2, rules=SMALL, jobs=1)


def test_hexengine_match_command(tmp_path, capsys):
    """`hexengine match` prints the summary and writes records, a log of forfeits and
    results.json; bad specs exit with status 2 and a message."""
    out = tmp_path / "m"
    proc = subprocess.run(
        [sys.executable, "-m", "hexengine.cli", "match", "-n", "4", "--size", "4", "-j", "2",
         "-p", "mcts:simulations=50", "-p", fake("a1"), "--out", str(out)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert (
        "A  mcts:simulations=50" in proc.stdout
        and "Elo A - B" in proc.stdout
        and "forfeits: 4" in proc.stdout
    )
    assert len(list(out.glob("game-*.sgf"))) == 4 and (out / "results.json").exists()
    assert (out / "match.log").read_text().count("illegal move") == 4
    openings = tmp_path / "openings.txt"
    openings.write_text("# two openings\nb2\n#4,a1d4\n")
    proc = subprocess.run(
        [sys.executable, "-m", "hexengine.cli", "match", "-n", "2", "--size", "4", "--json", "-q",
         "-p", "random", "-p", "random:seed=4", "--openings", str(openings), "--no-records"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["games_played"] == 2
    from hexengine.cli import main

    capsys.readouterr()
    for args in (
        ["-p", "mcts"],
        ["-p", "nonsense", "-p", "random"],
        ["-p", "random", "-p", "random", "--size", "40"],
        ["-p", "random", "-p", "random", "--openings", str(tmp_path / "missing.txt")],
    ):
        assert main(["match", "-n", "2", "--no-records", *args]) == 2, args
        assert "hexengine match:" in capsys.readouterr().err


def test_a_stopped_match_resumes_with_the_games_it_lacks(tmp_path):
    """Each game is saved as it finishes; a match stopped after two games (Ctrl-C), its
    results file ending in half a line (a crash mid-write), is finished by running it again
    with the same folder: the half line is cut off, only the missing games are played, each
    with its own seed, and the records are those of a match played in one go. Other settings
    in the same folder are refused, and so is a second run while the first holds it."""
    args = ("mcts:simulations=50", "random")
    options = {"games": 6, "rules": SMALL, "jobs": 1, "seed": 3}
    whole = run_match(*args, **options)

    def stop_after_two(result: MatchResult) -> None:
        if result.games_played == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_match(*args, **options, sgf_dir=tmp_path, progress=stop_after_two)
    lines = (tmp_path / "games.jsonl").read_text().splitlines()
    assert [json.loads(line)["index"] for line in lines] == [0, 1]
    assert sorted(p.name for p in tmp_path.glob("game-*.sgf")) == ["game-0001.sgf", "game-0002.sgf"]
    with open(tmp_path / "games.jsonl", "a") as f:
        f.write('{"index": 2, "red": "A", "win')
    seen: list[int] = []
    result = run_match(*args, **options, sgf_dir=tmp_path, progress=lambda r: seen.append(r.games_played))
    assert seen == [2, 3, 4, 5, 6]
    assert [g.sgf for g in result.games] == [g.sgf for g in whole.games]
    indices = [json.loads(line)["index"] for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert sorted(indices) == list(range(6))
    assert json.loads((tmp_path / "results.json").read_text())["games_played"] == 6
    for g in whole.games:
        assert (tmp_path / f"game-{g.index + 1:04d}.sgf").read_text() == g.sgf + "\n"
    seen.clear()
    again = run_match(*args, **options, sgf_dir=tmp_path, progress=lambda r: seen.append(r.games_played))
    assert seen == [6] and again.to_dict()["games"] == result.to_dict()["games"]
    with pytest.raises(MatchError, match=r"other settings \(games: 6 there, 8 here\)"):
        run_match(*args, **{**options, "games": 8}, sgf_dir=tmp_path)
    with pytest.raises(MatchError, match="holds a match, not a tournament"):
        hx.run_tournament(args, games_per_pair=6, rules=SMALL, jobs=1, seed=3, out=tmp_path)
    from hexengine.match.folder import ResultsFolder

    with ResultsFolder(tmp_path / "busy", {"kind": "match"}, []):
        with pytest.raises(MatchError, match="in use by another run"):
            run_match(*args, **options, sgf_dir=tmp_path / "busy")


def test_round_robin_tournament(tmp_path):
    """Every pair plays, colours alternating within the pair; the table of wins and the ratings
    follow the games; the same tournament in two processes gives the same records; results
    go to the folder as JSON and text; `hexengine tournament` prints the table."""
    players = ["mcts:simulations=200", "random:seed=1", "random:seed=2"]
    result = hx.run_tournament(players, games_per_pair=4, rules=SMALL, jobs=1, out=tmp_path)
    assert result.games_played == 12 and result.planned == 12
    by_pair: dict[tuple[int, int], list[str]] = {}
    for g in result.games:
        by_pair.setdefault(result.seats(g), []).append(g.red)
    assert by_pair == {
        (0, 1): ["A", "B", "A", "B"],
        (0, 2): ["A", "B", "A", "B"],
        (1, 2): ["A", "B", "A", "B"],
    }
    wins = result.wins
    assert wins[0] == [0, 4, 4] and wins[1][2] + wins[2][1] == 4
    ratings = result.ratings
    assert ratings[0][0] > max(ratings[1][0], ratings[2][0]) and abs(sum(r for r, _, _ in ratings)) < 1e-6
    assert all(low < rating < high for rating, low, high in ratings)
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["wins"]["mcts:simulations=200"] == {"random:seed=1": 4, "random:seed=2": 4}
    assert [r["player"] for r in data["ratings"]] == players
    assert (tmp_path / "results.txt").read_text().startswith("   player")
    parallel = hx.run_tournament(players, games_per_pair=4, rules=SMALL, jobs=2)
    assert [g.sgf for g in parallel.games] == [g.sgf for g in result.games]
    with pytest.raises(MatchError, match="both named 'random'"):
        hx.run_tournament(["random", "random"], games_per_pair=2, rules=SMALL)
    with pytest.raises(MatchError, match="at least two"):
        hx.run_tournament(["random"], games_per_pair=2, rules=SMALL)
    proc = subprocess.run(
        [sys.executable, "-m", "hexengine.cli", "tournament", "-n", "2", "--size", "4", "-j", "1", "-q",
         "--players", "mcts:simulations=50", "random", "random:name=other", "--out", str(tmp_path / "t")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "mcts:simulations=50" in proc.stdout and "95% CI" in proc.stdout
    assert len((tmp_path / "t" / "games.jsonl").read_text().splitlines()) == 6


def test_cluster_without_ray_says_what_to_install(monkeypatch, capsys):
    """Without Ray, --cluster (and cluster=) fail with what to install, not a traceback."""
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(MatchError, match=r"pip install 'hexengine\[cluster\]'"):
        run_match("random", "random", games=2, rules=SMALL, cluster="ray")
    from hexengine.cli import main

    capsys.readouterr()
    assert main(["tournament", "--players", "random", "mcts", "--cluster", "auto", "--no-records"]) == 2
    err = capsys.readouterr().err
    assert "hexengine tournament: --cluster needs Ray: pip install 'hexengine[cluster]'" in err
    assert "Traceback" not in err


def test_without_out_the_records_go_where_the_help_says(tmp_path):
    """`hexengine match` without --out writes to match-DATE-TIME in the current
    folder, as its help says, and prints that folder's full path."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "hexengine",
            "match",
            "-n",
            "2",
            "--size",
            "3",
            "-p",
            "random",
            "-p",
            "random",
            "-q",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    (folder,) = tmp_path.iterdir()
    assert folder.name.startswith("match-") and len(folder.name) == len("match-20261202-072458")
    assert f"records: {folder}" in proc.stdout
    assert {"results.json", "games.jsonl", "game-0001.sgf", "game-0002.sgf"} <= {
        p.name for p in folder.iterdir()
    }


def _running(token: str, but: int) -> list[int]:
    """The processes but ``but`` whose command line holds ``token``, zombies left out."""
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name == str(but):
            continue
        try:
            named = token in (proc / "cmdline").read_bytes().decode(errors="replace")
            if named and "\nState:\tZ" not in (proc / "status").read_text():
                found.append(int(proc.name))
        except (OSError, ValueError):
            continue
    return found


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="reads the process table in /proc")
@pytest.mark.parametrize("jobs", [1, 2])
def test_sigterm_stops_the_match_and_its_engines(tmp_path, jobs):
    """`kill` (SIGTERM) stops `hexengine match` as Ctrl-C does, with the same message and exit
    code, while every HTP engine is thinking over a move it would not answer for an hour: the
    match exits at once and no engine outlives it."""
    token = f"engine-of-{tmp_path.name}-{jobs}"
    command = [
        sys.executable, "-m", "hexengine.cli", "match", "-n", "4", "--size", "5", "--swap", "off",
        "--jobs", str(jobs), "--out", str(tmp_path / "m"), "-p", "random",
        "-p", f"htp:{sys.executable} {FAKE} silent {token};timeout=3000",
    ]  # fmt: skip
    match = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        # Until the games' engines run (and two seconds have passed, so that the one started to
        # check the player has quit); the match's own command line names them too.
        while len(_running(token, match.pid)) < jobs or time.monotonic() < deadline - 58:
            assert match.poll() is None, match.communicate()
            assert time.monotonic() < deadline, "the engines did not start"
            time.sleep(0.05)
        match.send_signal(signal.SIGTERM)
        _, stderr = match.communicate(timeout=30)
    finally:
        if match.poll() is None:
            match.kill()
            match.wait()
    assert match.returncode == 130, stderr
    assert "interrupted; the same command plays the rest" in stderr
    deadline = time.monotonic() + 10
    while _running(token, match.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _running(token, match.pid) == [], "an engine outlived the match"


def test_a_stop_asked_for_while_an_engine_starts_waits_for_it():
    """A worker's stop that comes while an engine is being started runs once the engine is
    started (and held where the stop reaches it), and at once otherwise."""
    from hexengine.match.players import StopGate

    gate, calls = StopGate(), []
    with gate.starting():
        with gate.starting():
            gate.request(lambda: calls.append("stop"))
        assert calls == []
    assert calls == ["stop"]
    gate.request(lambda: calls.append("now"))
    assert calls == ["stop", "now"]


class _TimedBots:
    """Players for play_game: bots that take the time the test says, on a fake clock."""

    def __init__(self, bots: dict[str, object]) -> None:
        self.bots = bots
        self.clocks: list[float] = []

    def for_game(self, seat: str, rules: hx.Rules, seed: int, clock: float = 0.0) -> object:
        self.clocks.append(clock)
        return self.bots[seat]

    def limits(self, seat: str) -> tuple[None, None]:
        return None, None


class _Thinker:
    """Plays the first legal cell after `takes` seconds of the fake clock `now`; records what
    the referee told it, by the keyword its choose takes (none, seconds or time_left)."""

    def __init__(self, now: list[float], takes: float, told: str = "") -> None:
        self.now, self.takes, self.heard = now, takes, []
        if told == "seconds":
            self.choose = lambda view, seconds=None: self._move(view, seconds)
        elif told == "time_left":
            self.choose = lambda view, time_left=None: self._move(view, time_left)
        else:
            self.choose = lambda view: self._move(view, None)

    def _move(self, view: hx.View, heard: float | None) -> hx.Move:
        self.heard.append(heard)
        self.now[0] += self.takes
        return view.legal_moves()[0]


def test_the_referee_clock_flags_the_side_whose_time_runs_out():
    """With a clock the referee takes each decision's thinking off the mover's clock; the side
    that runs out loses on time, whatever it answered; a bot whose choose takes `seconds` gets
    the HTP engine's share of its clock, one that takes `time_left` what its clock shows."""
    from hexengine.htp.clock import GameClock
    from hexengine.match.game import play_game

    now = [0.0]
    slow, budgeted = _Thinker(now, 0.4), _Thinker(now, 0.1, "seconds")
    players = _TimedBots({"A": slow, "B": budgeted})
    result = play_game(0, players, SMALL, (), "A", 0, ("slow", "budgeted"), clock=1.0, timer=lambda: now[0])
    assert players.clocks == [1.0, 1.0]
    assert (result.reason, result.winner, result.winner_color) == ("timeout", "B", "blue")
    assert result.decisions == {"A": 3, "B": 2} and result.moves == 4  # the third answer came too late
    assert result.detail == "A (Red) ran out of time: 1.20 s thought, 1 s on its clock"
    reference = GameClock()
    reference.settings(1.0, 0, 0)
    expected = []
    for empty in (24, 22):
        expected.append(reference.budget(hx.BLUE, empty))
        reference.spend(hx.BLUE, 0.1)
    assert budgeted.heard == pytest.approx(expected)
    assert slow.heard == [None, None, None]

    now[0] = 0.0
    counting = _Thinker(now, 0.05, "time_left")
    players = _TimedBots({"A": counting, "B": _Thinker(now, 0.0)})
    result = play_game(1, players, SMALL, (), "A", 0, ("a", "b"), clock=1.0, timer=lambda: now[0])
    assert result.reason == "connection"
    assert counting.heard[:4] == pytest.approx([1.0, 0.95, 0.9, 0.85])

    # Without a clock nobody is told anything and nobody loses on time.
    now[0] = 0.0
    slow = _Thinker(now, 100.0, "seconds")
    result = play_game(2, _TimedBots({"A": slow, "B": _Thinker(now, 0.0)}), SMALL, (), "A", 0, ("a", "b"))
    assert result.reason == "connection" and set(slow.heard) == {None}


def test_htp_engines_hear_the_clock_and_a_slow_one_loses_on_it(tmp_path):
    """An HTP engine that knows time_settings and time_left gets the clock at the start of
    each game and what its clock shows before each genmove; one that thinks past its clock
    loses on time (logged), and the match goes on; a silent one is stopped after its clock."""
    heard = tmp_path / "time.log"
    logged_engine = f"htp:{sys.executable} {FAKE} first-free fake {heard}"
    result = run_match("random", logged_engine, games=2, rules=SMALL, jobs=1, clock=30)
    assert {g.reason for g in result.games} == {"connection"}
    lines = heard.read_text().splitlines()
    assert lines.count("time_settings 30 0 0") == 2
    games = "\n".join(lines).split("time_settings 30 0 0")[1:]
    for game, colour in zip(games, ("w", "b"), strict=True):
        shown = [line.split() for line in game.strip().splitlines()]
        assert shown and all(words[:2] == ["time_left", colour] and words[3] == "0" for words in shown)
        seconds = [float(words[2]) for words in shown]
        assert seconds[0] == 30 and seconds == sorted(seconds, reverse=True) and seconds[-1] > 29

    logged: list[str] = []
    result = run_match("random", fake("slow"), games=2, rules=SMALL, jobs=1, clock=0.5, log=logged.append)
    assert [g.reason for g in result.games] == ["timeout", "timeout"] and result.wins == {"A": 2, "B": 0}
    assert all(1 <= g.decisions["B"] <= 2 and "ran out of time" in g.detail for g in result.games)
    assert len(logged) == 2 and "lost on time: 2" in result.summary()
    assert "s a game (at most" in result.summary()  # what each side thought a game
    # One that never answers is stopped soon after its clock runs out (not after its timeout).
    result = run_match("random", fake("silent"), games=1, rules=SMALL, jobs=1, clock=0.5)
    assert result.games[0].reason == "timeout" and 2.5 <= result.games[0].time["B"] < 30


def test_benzene_engines_hear_the_clock_in_their_own_words(tmp_path):
    """MoHex has no time_settings and takes time_left without GTP's stones count: the clock
    reaches it as param_game game_time and two-word time_left. An engine that refuses its
    time_left is warned about once, plays on without it, and is still held to its clock."""
    heard = tmp_path / "time.log"
    result = run_match("random", f"htp:{sys.executable} {FAKE} first-free mohex {heard}", **CLOCKED)
    assert {g.reason for g in result.games} == {"connection"}
    lines = heard.read_text().splitlines()
    assert lines.count("param_game game_time 30") == 2
    told = [line.split() for line in lines if line.startswith("time_left")]
    assert told and all(len(w) == 3 and w[1] in ("b", "w") and float(w[2]) <= 30 for w in told)

    heard.unlink()
    standard = f"htp:{sys.executable} {FAKE} first-free mohex {heard};dialect=standard"
    with pytest.warns(RuntimeWarning, match="refused 'time_left .*not told its clock again"):
        result = run_match("random", standard, **CLOCKED)
    assert {g.reason for g in result.games} == {"connection"} and not heard.exists()
    with pytest.warns(RuntimeWarning, match="not told its clock again"):
        result = run_match("random", standard.replace("first-free", "slow"), **{**CLOCKED, "clock": 0.5})
    assert {g.reason for g in result.games} == {"timeout"}


def test_a_clock_must_be_a_number_of_seconds(tmp_path, capsys):
    """A clock that is not a number of seconds is refused with a message that names it, by the
    Python API and the command; a folder is resumed only with the clock it was made with."""
    for bad in (-1, math.nan, math.inf, True, "30", 2e6):
        with pytest.raises(MatchError, match="clock"):
            run_match("random", "random", games=2, rules=SMALL, jobs=1, clock=bad)
    with pytest.raises(MatchError, match="clock"):
        hx.run_tournament(["random", "random:seed=2"], games_per_pair=2, rules=SMALL, jobs=1, clock=-5)
    from hexengine.cli import main

    out = tmp_path / "refused"
    command = ["match", "-n", "2", "--size", "3", "-p", "random", "-p", "random", "--out", str(out)]
    assert main([*command, "--clock", "-1"]) == 2
    assert "clock" in capsys.readouterr().err
    assert not out.exists()  # refused before a game: the folder it made is gone
    out = tmp_path / "run"
    run_match("random", "random", games=2, rules=SMALL, jobs=1, clock=5, sgf_dir=out)
    assert json.loads((out / "settings.json").read_text())["clock"] == 5
    with pytest.raises(MatchError, match="other settings"):
        run_match("random", "random", games=2, rules=SMALL, jobs=1, sgf_dir=out)
    again = run_match("random", "random", games=2, rules=SMALL, jobs=1, clock=5, sgf_dir=out)
    assert again.games_played == 2


def test_an_mcts_bot_spends_its_clock_and_keeps_to_it():
    """MCTSBot takes the referee's share of its clock as its budget, so a bot set to far more
    simulations than a clock allows still plays in time; the simulations and seconds its spec
    gives cap that share, as they do in hexengine's HTP engine."""
    greedy_mcts = "mcts:simulations=10000000;threads=1"
    result = run_match(greedy_mcts, "random", games=2, rules=SMALL, jobs=1, clock=3.0)
    assert {g.reason for g in result.games} == {"connection"} and result.wins["A"] == 2
    assert all(0 < g.time["A"] < 3.0 for g in result.games)
    from hexengine.match.game import play_game
    from hexengine.match.players import Players

    budgets: list[tuple[int | None, float | None]] = []

    class Recording(hx.MCTSBot):
        def choose(self, view, *, simulations=None, seconds=None):  # type: ignore[no-untyped-def]
            budgets.append((simulations, seconds))
            return super().choose(view, simulations=simulations, seconds=seconds)

    specs = (parse_player("mcts:simulations=50;seconds=0.01"), parse_player("random"))
    players = Players(specs)
    players.for_game = lambda seat, rules, seed, clock=0.0: (  # type: ignore[method-assign]
        Recording(simulations=50, seconds=0.01) if seat == "A" else specs[1].build(rules, seed)
    )
    play_game(0, players, SMALL, (), "A", 0, ("a", "b"), clock=100.0)
    assert budgets and all(b == (50, 0.01) for b in budgets)
