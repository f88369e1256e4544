"""The HTP engine's search settings and clock: explicit options over level presets, time as the
only budget, GTP's time_settings and time_left, and input that is not UTF-8."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time

import pytest
from test_htp import run_session

import hexengine as hx
from hexengine.htp.clock import GameClock
from hexengine.htp.engine import HtpEngine


def listing(engine: HtpEngine) -> dict[str, str]:
    text = engine.execute("param_hexengine")
    assert text is not None and text.startswith("= \n")
    return dict(line.split(" ")[1:3] for line in text.strip().split("\n")[1:])  # type: ignore[misc]


def test_explicit_options_win_over_the_level():
    """--level hard --threads 1 searches with one thread (the level keeps its time budget and its
    name); a budget given with a level makes the settings custom; a level set later keeps
    threads given before."""
    e = HtpEngine(level="hard", threads=1)
    assert listing(e) == {"level": "hard", "simulations": "0", "seconds": "3", "threads": "1", "seed": "0"}
    assert repr(e._bot) == "MCTSBot(seconds=3.0, threads=1, seed=0)"
    e = HtpEngine(level="medium", seconds=0.5)
    assert listing(e)["level"] == "custom" and listing(e)["simulations"] == "0"
    e = HtpEngine(threads=2)
    run_session(e, [("param_hexengine level hard", "=")])
    assert listing(e)["threads"] == "2"
    proc = subprocess.run(
        [sys.executable, "-m", "hexengine.cli", "htp", "--level", "hard", "--threads", "1"],
        input="param_hexengine\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0 and "[string] threads 1" in proc.stdout, proc.stderr


def test_seconds_alone_lift_the_simulation_cap():
    """Setting only seconds makes time the budget (no 10,000-simulation cap); setting both
    keeps both (whichever comes first); a level replaces both; seconds 0 alone falls back to
    10,000 simulations."""
    e = HtpEngine(size=9)
    run_session(e, [("param_hexengine seconds 1", "=")])
    assert listing(e)["simulations"] == "0" and listing(e)["seconds"] == "1"
    assert repr(e._bot) == "MCTSBot(seconds=1.0, threads=1, seed=0)"
    run_session(e, [("param_hexengine simulations 500", "=")])
    assert repr(e._bot) == "MCTSBot(simulations=500, seconds=1.0, threads=1, seed=0)"
    run_session(e, [("param_hexengine level medium", "=")])
    medium = {"level": "medium", "simulations": "5000", "seconds": "0", "threads": "1", "seed": "0"}
    assert listing(e) == medium
    run_session(e, [("param_hexengine seconds 0", "=")])
    assert listing(e)["simulations"] == "10000"
    e = HtpEngine(size=9, seconds=0.2)
    assert listing(e)["simulations"] == "0"
    e.execute("play b e5")
    started = time.monotonic()
    assert e.execute("genmove w").startswith("= ")  # type: ignore[union-attr]
    assert time.monotonic() - started >= 0.15  # it searched for its time, not for 10,000 simulations


def test_clock_budgets_follow_gtp_time_control():
    """Main time is spread over the moves to come (an eighth of the empty cells, at least 5),
    byo-yomi time over the period's stones; the budget is 90% of that less 50 ms and never below
    10 ms; byo-yomi with no stones, or no time at all, means no limit."""
    clock = GameClock()
    assert clock.budget(hx.RED, 121) is None
    clock.settings(100, 0, 0)
    assert clock.budget(hx.RED, 121) == pytest.approx(0.9 * 100 / 16 - 0.05)
    assert clock.budget(hx.BLUE, 20) == pytest.approx(0.9 * 100 / 5 - 0.05)
    clock.settings(60, 30, 5)
    assert clock.budget(hx.RED, 48) == pytest.approx(0.9 * (60 / 6 + 0.5 * 30 / 5) - 0.05)
    clock.time_left(hx.RED, 12, 4)
    assert clock.budget(hx.RED, 40) == pytest.approx(0.9 * 12 / 4 - 0.05)
    clock.time_left(hx.RED, 0.01, 1)
    assert clock.budget(hx.RED, 40) == 0.01
    for no_limit in ((0, 5, 0), (0, 0, 0), (30, 10, 0)):
        clock.settings(*no_limit)
        assert clock.budget(hx.RED, 40) is None
    clock.settings(0, 20, 4)  # byo-yomi only
    assert clock.left(hx.BLUE) == (20, 4)


def test_clock_runs_down_into_byo_yomi_and_new_periods():
    """What a move took comes off the clock: main time runs into byo-yomi (the overrun taken
    from the first period), a period's last stone starts a new one."""
    clock = GameClock()
    clock.settings(10, 6, 2)
    clock.spend(hx.RED, 4)
    assert clock.left(hx.RED) == (6, 0) and clock.left(hx.BLUE) == (10, 0)
    clock.spend(hx.RED, 7)
    assert clock.left(hx.RED) == (5, 2)
    clock.spend(hx.RED, 2)
    assert clock.left(hx.RED) == (3, 1)
    clock.spend(hx.RED, 1)
    assert clock.left(hx.RED) == (6, 2)


def test_time_commands_drive_the_search():
    """time_settings and time_left are accepted and checked; under a clock genmove searches for
    the budget the clock gives (no simulation cap unless one was given) and the engine's clock
    goes down by what the move took; without arguments time_left shows both clocks."""
    e = HtpEngine(size=9, swap="off")
    run_session(
        e,
        [
            ("time_left", "= no time limit"),
            ("time_settings 30 0", "? expected 3 arguments"),
            ("time_settings 30 x 0", "? byo-yomi time must be a number"),
            ("time_settings 30 0 -1", "? byo-yomi stones must be a whole number"),
            ("time_left green 3 0", "? unknown colour"),
            ("time_left b -1 0", "? time left must be a finite number of at least 0"),
            ("time_settings 0 2 1", "="),
            ("time_left w 1.2 1", "="),
            ("play b e5", "="),
        ],
    )
    started = time.monotonic()
    assert e.execute("genmove w").startswith("= ")  # type: ignore[union-attr]
    took = time.monotonic() - started
    assert took >= 0.9 * 1.2 - 0.05 - 0.05  # the budget the clock gave
    if took < 1.2:  # the period's one stone was made in time: a new period
        assert e._clock.left(hx.BLUE) == (2, 1) and e.execute("time_left") == "= b 2 1 w 2 1\n\n"
    run_session(e, [("time_settings 0 1 0", "="), ("time_left", "= no time limit")])


def test_a_new_game_starts_the_clocks_again():
    """clear_board and boardsize give both colours the full time of the settings again, so a
    controller that keeps the engine across games (as hexengine match does) sets the clock once."""
    e = HtpEngine(size=5, swap="off")
    run_session(e, [("time_settings 20 0 0", "="), ("time_left b 3 0", "="), ("time_left w 7 0", "=")])
    assert e.execute("time_left") == "= b 3 0 w 7 0\n\n"
    run_session(e, [("clear_board", "=")])
    assert e.execute("time_left") == "= b 20 0 w 20 0\n\n"
    run_session(e, [("time_settings 0 6 2", "="), ("time_left b 1 1", "="), ("boardsize 7", "=")])
    assert e.execute("time_left") == "= b 6 2 w 6 2\n\n"


def test_under_a_clock_the_search_keeps_its_tree():
    """A move under a clock is searched by the engine's one bot with the clock's time as that
    search's budget, so the tree grown over the last moves is reused (it used to be a new bot,
    and a new tree, every move)."""
    e = HtpEngine(size=9, swap="off", simulations=3000)
    bot = e._bot
    seen = []
    search = bot.analyse

    def spy(view, **budget):
        analysis = search(view, **budget)
        seen.append((budget, analysis))
        return analysis

    bot.analyse = spy  # type: ignore[method-assign]
    run_session(e, [("time_settings 4 0 0", "="), ("play b e5", "=")])
    first = e.execute("genmove w")
    assert first.startswith("= ")
    run_session(e, [(f"play b {'d4' if first.strip() != '= d4' else 'f6'}", "=")])
    assert e.execute("genmove w").startswith("= ")
    assert e._bot is bot and len(seen) == 2
    for budget, _ in seen:
        assert budget["simulations"] == 3000 and 0 < budget["seconds"] <= 0.9 * 4 / 9
    assert seen[1][1].reused > 0 or seen[1][1].forced


def test_bytes_that_are_not_utf8_cost_one_answer():
    """A command line with a byte that is not UTF-8 gets '? cannot read the command' (with its
    id), and every other command is answered, on byte streams, on text streams and from the
    command line under a strict UTF-8 locale."""
    e = HtpEngine(size=3)
    refused = "?7 cannot read the command: byte 0xff at offset 9 is not UTF-8\n\n"
    assert e.execute(b"7 play b \xff1\n") == refused
    out = io.BytesIO()
    e.serve(io.BytesIO(b"name\n\xff\xfe\nname\n"), out)
    assert out.getvalue().decode() == (
        "= hexengine\n\n? cannot read the command: byte 0xff at offset 0 is not UTF-8\n\n= hexengine\n\n"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "hexengine.cli", "htp"],
        input=b"name\n\xff\nversion\n",
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8:strict"},
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode().split("\n\n")[:3] == [
        "= hexengine",
        "? cannot read the command: byte 0xff at offset 0 is not UTF-8",
        f"= {hx.__version__}",
    ]
