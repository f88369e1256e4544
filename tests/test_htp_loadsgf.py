"""loadsgf in the HTP engine: records of every format, set-up positions, move numbers, errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from test_htp import run_session

import hexengine as hx
from hexengine.htp.engine import HtpEngine

DATA = Path(__file__).with_name("data")


def engine(**kwargs: object) -> HtpEngine:
    return HtpEngine(size=kwargs.pop("size", 5), simulations=kwargs.pop("simulations", 60), **kwargs)  # type: ignore[arg-type]


def test_loadsgf_loads_a_game_up_to_a_move(tmp_path):
    """loadsgf FILE sets up the record's whole game (its size, variant, swap and resignation);
    loadsgf FILE N the position before move N, as GTP says; play goes on from there."""
    game = hx.Game("rex", size=4, swap="pieces")
    for move in ["b2", "swap", "a1", "d4"]:
        game.play(move)
    game.resign(hx.BLUE)
    path = tmp_path / "g.sgf"
    path.write_text(hx.GameRecord.from_game(game).to_sgf())
    e = engine()
    run_session(e, [(f"loadsgf {path}", "="), ("final_score", "= B+"), ("undo", "=")])
    assert e.game.rules == hx.Rules("rex", 4, 4, "pieces") and e.game.history == game.history
    for number, actions in ((1, 0), (3, 2), (5, 4), (99, 4)):
        run_session(e, [(f"loadsgf {path} {number}", "=")])
        assert e.game.history == game.history[:actions]
    run_session(e, [(f"loadsgf {path} 3", "="), ("genmove b", None), ("clear_board", "=")])
    assert e.game.rules == hx.Rules("hex", 4, 4, "sides")  # the configured rules, the loaded size


def test_loadsgf_reads_set_up_positions_little_golem_json_and_trmph(tmp_path):
    """Set-up stones (AB/AW/PL) load as a position the engine plays on; Little Golem's files,
    hexengine JSON and trmph links load as games."""
    e = engine()
    run_session(e, [(f"loadsgf {DATA / 'hexgui_setup.sgf'} 2", "=")])
    board = e.position.board
    reds = [hx.Cell(int(r), int(c)).name for r, c in zip(*np.nonzero(board == 1), strict=True)]
    assert reds == ["a1", "a2", "b3"]
    assert board[1, 2] == hx.BLUE and board[1, 1] == hx.BLUE and e.position.to_move is hx.RED
    run_session(e, [("genmove b", None), ("undo", "="), ("undo", "="), ("undo", "? cannot undo")])
    assert e.position.to_move is hx.BLUE and e.position.board[1, 1] == 0
    run_session(e, [(f"loadsgf {DATA / 'littlegolem.sgf'}", "="), ("final_score", "= W+")])
    assert e.game.rules == hx.Rules("hex", 11, 11, "pieces") and len(e.game.history) == 6
    record = hx.GameRecord.from_moves(hx.Rules("hex", 3, 3, "off"), ["b2", "a1"])
    (tmp_path / "r.json").write_text(record.to_json())
    (tmp_path / "r.txt").write_text("https://trmph.com/hex/board#3,b2a1c1")
    run_session(e, [(f"loadsgf {tmp_path / 'r.json'}", "=")])
    assert e.game.history == record.game().history
    run_session(e, [(f"loadsgf {tmp_path / 'r.txt'}", "="), ("showboard", None)])
    assert len(e.game.history) == 3 and e.game.rules == hx.Rules("hex", 3, 3, "sides")


def test_loadsgf_errors_leave_the_game_as_it_was(tmp_path):
    """A missing file, a file with no record, a Dark Hex record and bad arguments are refused
    with '? cannot load file: ...' or the usage, and the game is unchanged."""
    e = engine()
    e.execute("play b c3")
    (tmp_path / "junk.sgf").write_text("hello")
    dark = hx.GameRecord.from_moves(hx.Rules("dark", 3, 3), ["a1"])
    (tmp_path / "dark.sgf").write_text(dark.to_sgf())
    (tmp_path / "bad.sgf").write_text("(;GM[11]SZ[3]AB[a1];W[swap-sides])")
    run_session(
        e,
        [
            (f"loadsgf {tmp_path / 'none.sgf'}", "? cannot load file: no such file"),
            (f"loadsgf {tmp_path / 'junk.sgf'}", "? junk.sgf' holds no record: a .sgf file should hold SGF"),
            (f"loadsgf {tmp_path / 'dark.sgf'}", "? not offered over HTP"),
            (f"loadsgf {tmp_path / 'bad.sgf'}", "? bad.sgf': illegal move: swap is off"),
            (f"loadsgf {tmp_path / 'junk.sgf'} x", "? move number must be a whole number"),
            (f"loadsgf {tmp_path / 'junk.sgf'} 0", "? move number must be at least 1"),
            ("loadsgf", "? loadsgf needs a file"),
        ],
    )
    assert [a.cell.name for a in e.game.history] == ["c3"]  # type: ignore[union-attr]
