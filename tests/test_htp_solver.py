"""Benzene's solver commands in the HTP engine (HexGui's Solve button): dfpn-solve-state,
dfpn-solver-find-winning and param_dfpn, answered by hexengine.solve and checked against an
exhaustive search."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from test_htp import run_session
from test_records_formats import _winner

import hexengine as hx
from hexengine.htp import engine as htp_engine
from hexengine.htp.engine import HtpEngine

WORD = {hx.RED: "black", hx.BLUE: "white"}


def _winning_cells(board: np.ndarray, mover: hx.Color, variant: str) -> set[str]:
    """The cells that win for ``mover``, by exhaustive search."""
    cells = set()
    for r, c in zip(*np.nonzero(board == 0), strict=True):
        after = board.copy()
        after[r, c] = int(mover)
        if _winner(after, mover.opponent, variant) is mover:
            cells.add(hx.Cell(int(r), int(c)).name)
    return cells


@pytest.mark.parametrize("variant", ["hex", "rex"])
def test_solver_answers_match_an_exhaustive_search(variant):
    """On 3x3 games (swap off) and on set-up positions with either colour to move,
    dfpn-solve-state names the winner as Benzene does ('black' or 'white') and
    dfpn-solver-find-winning lists exactly the winning cells."""
    tried = 0
    for first, second in itertools.permutations(["a1", "b2", "c1", "a3"], 2):
        e = HtpEngine(variant, 3, swap="off", simulations=50, dialect="hexgui")
        run_session(e, [(f"play b {first}", "="), (f"play w {second}", "=")])
        for color in (hx.RED, hx.BLUE):  # the colour to move, then the other (a set-up question)
            board = e.position.board
            expected = _winner(board, color, variant)
            assert e.execute(f"dfpn-solve-state {WORD[color]}") == f"= {WORD[expected]}\n\n"
            answer = e.execute(f"dfpn-solver-find-winning {WORD[color]}")
            assert answer is not None and answer.startswith("=")
            assert set(answer[1:].split()) == _winning_cells(board, color, variant)
            tried += 1
    assert tried == 24
    e = HtpEngine(variant, 3, swap="off", simulations=50)
    e.execute("play b b2")
    assert e.execute("dfpn-solve-state") == f"= {WORD[_winner(e.position.board, hx.BLUE, variant)]}\n\n"


@pytest.mark.parametrize("variant", ["hex", "rex"])
def test_empty_boards_are_solved_for_either_colour(variant):
    """On an empty board the colour asked moves first, White too (the solver sees Red's start,
    so the engine asks it about the mirror image): the answers match an exhaustive search on
    square and other boards."""
    for cols, rows in ((2, 2), (3, 3), (3, 2), (2, 3), (4, 2)):
        e = HtpEngine(variant, rows=rows, cols=cols, swap="off", simulations=50, dialect="hexgui")
        empty = np.zeros((rows, cols), dtype=np.int8)
        for color in (hx.RED, hx.BLUE):
            expected = _winner(empty, color, variant)
            assert e.execute(f"dfpn-solve-state {WORD[color]}") == f"= {WORD[expected]}\n\n", (rows, cols)
            answer = e.execute(f"dfpn-solver-find-winning {WORD[color]}")
            assert set(answer[1:].split()) == _winning_cells(empty, color, variant), (rows, cols)  # type: ignore[index]


def test_hexgui_solve_button_and_the_swap():
    """HexGui's Solve sends 'param_dfpn use_guifx 1' then 'dfpn-solve-state COLOR'. The answer
    is a colour: after Black's centre stone on 3x3 Black wins, and White's only winning move is
    the side swap, which takes Black over; it is named in the dialect."""
    e = HtpEngine(size=3, simulations=50)
    e.execute("hexgui-analyze_commands")
    run_session(
        e,
        [
            ("dfpn-solve-state b", "? swap rule is still to come"),
            ("play b b2", "="),
            ("param_dfpn use_guifx 1", "="),
            ("dfpn-solve-state w", "= black"),
            ("dfpn-solver-find-winning w", "= swap"),
        ],
    )
    e = HtpEngine(size=3, simulations=50)
    run_session(e, [("play b b2", "="), ("dfpn-solver-find-winning w", "= swap-sides")])


def test_limits_give_an_honest_unknown_and_finished_games_their_winner():
    """param_dfpn lists and sets use_guifx, timelimit, max_nodes and guess; a search stopped by a
    limit answers '? unknown' naming the limit; a finished game answers its winner; bad values and
    wrong arguments are refused."""
    e = HtpEngine(size=9, swap="off", simulations=50)
    listing = "= \n[bool] use_guifx 0\n[string] timelimit 30\n[string] max_nodes 20000000\n"
    listing += "[string] guess 0\n\n"
    assert e.execute("param_dfpn") == listing
    run_session(
        e,
        [
            ("play b e5", "="),
            ("param_dfpn max_nodes 1", "="),
            ("dfpn-solve-state", "? unknown: the solver stopped at its node limit"),
            ("dfpn-solver-find-winning w", "? unknown"),
            ("param_dfpn timelimit soon", "? timelimit must be a number"),
            ("param_dfpn max_nodes -3", "? max_nodes must be a whole number"),
            ("param_dfpn guess many", "? guess must be a whole number"),
            ("param_dfpn guess 9999999999999999999", "? guess must be at most 2**63 - 1"),
            ("param_dfpn max_nodes 9999999999999999999", "? max_nodes must be at most 2**63 - 1"),
            ("param_dfpn use_guifx maybe", "? use_guifx must be 0 or 1"),
            ("param_dfpn depth 3", "? unknown solver parameter"),
            ("param_dfpn timelimit", "? expected 2 arguments"),
            ("dfpn-solve-state purple", "? unknown colour"),
            ("dfpn-solver-find-winning", "? expected 1 argument"),
        ],
    )
    e = HtpEngine(size=2, swap="off", simulations=50)
    run_session(
        e,
        [
            ("play b a1", "="),
            ("play w b1", "="),
            ("play b a2", "="),
            ("dfpn-solve-state", "= black"),
            ("dfpn-solver-find-winning w", "? the game is over"),
        ],
    )
    e.execute("undo")
    run_session(e, [("play b resign", "="), ("dfpn-solve-state", "? the game is over")])


def test_a_guess_is_proven_first_by_solve_state(monkeypatch):
    """param_dfpn guess N has dfpn-solve-state prove the move of an N-simulation search first
    (hx.solve's guess): the answers are those without it, on both colours' questions, and
    find-winning, which must prove every move anyway, lists the same moves without a guess."""
    guesses = []

    def solve(*args, **kwargs):
        guesses.append(kwargs["guess"])
        return hx.solve(*args, **kwargs)

    monkeypatch.setattr(htp_engine, "solve", solve)
    e = HtpEngine(size=4, swap="off", simulations=50)
    run_session(e, [("play b a1", "="), ("dfpn-solve-state", "= white"), ("dfpn-solve-state b", "= black")])
    plain = e.execute("dfpn-solver-find-winning w")
    run_session(
        e,
        [
            ("param_dfpn guess 2000", "="),
            ("dfpn-solve-state", "= white"),
            ("dfpn-solve-state b", "= black"),
            ("dfpn-solver-find-winning w", plain.strip()),
        ],
    )
    assert e.execute("param_dfpn guess 9999999999999999999").startswith("?")
    assert "[string] guess 2000" in e.execute("param_dfpn")
    assert guesses == [0, 0, 0, 2000, 2000, 0]


def test_the_commands_are_listed():
    """list_commands and known_command name the new commands, and HexGui's Analyze menu lists the
    solver with %m, the colour to move."""
    e = HtpEngine(size=3)
    listed = e.execute("list_commands")[2:].split()  # type: ignore[index]
    for name in (
        "time_settings time_left loadsgf reg_genmove dfpn-solve-state dfpn-solver-find-winning param_dfpn"
    ).split():
        assert name in listed and e.execute(f"known_command {name}") == "= true\n\n"
    menu = e.execute("hexgui-analyze_commands")
    assert "string/DFPN Solve State/dfpn-solve-state %m" in menu  # type: ignore[operator]
    assert "plist/DFPN Find Winning/dfpn-solver-find-winning %m" in menu  # type: ignore[operator]
