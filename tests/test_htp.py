"""The HTP engine (``hexengine htp``): scripted sessions over every command and every error.

Each session is a list of (command, expected answer) pairs; an expected answer
starting with ``?`` must be an error containing the rest, ``=`` + text must be
that exact success, and ``None`` means any success.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

import hexengine as hx
from hexengine.htp.engine import HtpEngine


def run_session(engine: HtpEngine, script: list[tuple[str, str | None]]) -> None:
    for command, expected in script:
        answer = engine.execute(command)
        assert answer is not None and answer.endswith("\n\n"), (command, answer)
        body = answer[:-2]
        assert "\n\n" not in body, (command, answer)
        if expected is None:
            assert body.startswith("="), (command, answer)
        elif expected.startswith("?"):
            assert body.startswith("?"), (command, answer)
            assert expected[1:].strip() in body, (command, answer)
        else:
            assert body == expected, (command, answer)


def engine(**kwargs: object) -> HtpEngine:
    return HtpEngine(size=kwargs.pop("size", 5), simulations=kwargs.pop("simulations", 100), **kwargs)  # type: ignore[arg-type]


def test_administrative_commands():
    """protocol_version, name, version, known_command and list_commands answer as GTP says;
    list_commands names the GTP basics, the board and play commands, hexgui-analyze_commands and
    both param_ commands."""
    e = engine()
    run_session(
        e,
        [
            ("protocol_version", "= 2"),
            ("name", "= hexengine"),
            ("version", f"= {hx.__version__}"),
            ("known_command genmove", "= true"),
            ("known_command hexgui-analyze_commands", "= true"),
            ("known_command fly", "= false"),
            ("known_command", "? expected 1 argument"),
        ],
    )
    listed = e.execute("list_commands")[2:].split()  # type: ignore[index]
    for name in (
        "protocol_version name version known_command list_commands quit boardsize clear_board play "
        "genmove undo showboard final_score hexgui-analyze_commands param_game param_hexengine"
    ).split():
        assert name in listed


def test_protocol_framing():
    """Ids are echoed after = and ?, comments, tabs, control characters and blank lines are
    handled as GTP says, unknown commands get '? unknown command', and the engine goes on."""
    e = engine()
    assert e.execute("") is None
    assert e.execute("   # only a comment") is None
    assert e.execute("12 name") == "=12 hexengine\n\n"
    assert e.execute("7 frobnicate") == "?7 unknown command: frobnicate\n\n"
    assert e.execute("3") == "?3 missing command after the id\n\n"
    assert e.execute("name # trailing comment") == "= hexengine\n\n"
    assert e.execute("play\tblack\ta1\r") == "=\n\n"
    assert e.execute("play w \x01b\x072") == "=\n\n"
    assert e.execute("NAME") == "= hexengine\n\n"


def test_boardsize_and_clear_board():
    """boardsize W [H] starts an empty W-column, H-row board; bad sizes are refused with a
    reason and change nothing; clear_board empties the board."""
    e = engine()
    run_session(
        e,
        [
            ("boardsize 7", "="),
            ("play b g7", "="),
            ("boardsize 7 3", "="),
            ("play b g3", "="),
            ("play w g4", "? off the 3x7 board"),
            ("boardsize 0", "? board width must be at least 1"),
            ("boardsize 20", "? unacceptable size"),
            ("boardsize x", "? board width must be a whole number"),
            ("boardsize 99999999999999999999", "? board width must be a whole number of at most 19 digits"),
            ("boardsize 1 2 3", "? boardsize needs a width"),
            ("boardsize", "? boardsize needs a width"),
            ("clear_board now", "? expected 0 arguments"),
            ("clear_board", "="),
            ("play b a1", "="),
        ],
    )
    assert e.game.rules == hx.Rules("hex", 3, 7, "sides")


def test_play_and_its_errors():
    """play takes b/black/w/white in any case and a cell; out-of-turn, occupied, off-board,
    malformed and after-the-end moves get '? illegal move' with the referee's reason."""
    e = engine(swap="off")
    run_session(
        e,
        [
            ("play b c3", "="),
            ("play black c2", "? it is White's turn, not Black's"),
            ("play WHITE C3", "? c3 already holds a Red stone"),
            ("play w z9", "? off the 5x5 board"),
            ("play w 33", "? illegal move"),
            ("play purple a1", "? unknown colour 'purple'"),
            ("play w", "? play needs a colour and a move"),
            ("play w a1 a2", "? play needs a colour and a move"),
            ("play w swap-sides", "? swap is off in this game"),
            ("play w a1", "="),
        ],
    )
    for move in ["c1", "b1", "c2", "b2", "c4", "b4"]:
        e.execute(f"play {'b' if move[0] == 'c' else 'w'} {move}")
    run_session(e, [("play b c5", "="), ("final_score", "= B+"), ("play w a5", "? the game is over")])


def test_swap_words_do_what_they_say():
    """swap-sides keeps the board and White moves next; swap-pieces puts a White stone on
    the mirrored cell and Black moves next; 'swap' is the game's own form; swaps at the
    wrong time are refused."""
    e = engine()
    run_session(
        e,
        [("play b b4", "="), ("play w swap-sides", "="), ("play w swap-sides", "? swap"), ("play w a1", "=")],
    )
    assert e.game.rules.swap == "sides" and e.game.board[3, 1] == hx.RED
    e = engine()
    run_session(e, [("play b b4", "="), ("play w swap-pieces", "="), ("play b a1", "=")])
    assert e.game.rules.swap == "pieces" and e.game.board[1, 3] == hx.BLUE and e.game.board[3, 1] == 0
    e = engine(swap="pieces")
    run_session(e, [("play b b4", "="), ("play w swap", "="), ("play b a1", "=")])
    e = HtpEngine(rows=3, cols=5)
    run_session(e, [("play b b2", "="), ("play w swap-pieces", "? square board"), ("play w swap", "=")])
    e = engine()
    run_session(e, [("play w swap", "? it is Black's turn")])


def test_hexgui_replays_swap_pieces_as_a_white_first_move():
    """HexGui sends a swap-pieces as clear_board + 'play white CELL'; the engine reads it as
    Black's stone on the mirrored cell and the pieces swap, so both boards agree."""
    e = engine()
    run_session(e, [("play b b4", "="), ("clear_board", "="), ("play w d2", "="), ("play b a1", "=")])
    game = e.game
    assert game.rules.swap == "pieces" and game.board[1, 3] == hx.BLUE
    assert [str(a) for a in game.history][:2] == ["Red b4", "Blue swap (d2)"]
    e = engine(swap="off")
    run_session(e, [("play w d2", "? it is Black's turn")])


def test_genmove_resign_undo_and_final_score():
    """genmove plays a legal move for the colour to move (refused for the other colour and
    after the end); resign ends the game; undo takes back a resignation or a move."""
    e = engine(swap="off")
    run_session(
        e, [("genmove w", "? it is Black's turn"), ("genmove b", None), ("genmove x", "? unknown colour")]
    )
    first = e.game.history[0].cell
    assert first is not None
    run_session(
        e,
        [
            ("final_score", "? cannot score: the game is not over"),
            ("play w resign", "="),
            ("final_score", "= B+"),
            ("genmove w", "? the game is over"),
            ("play b resign", "? the game is over"),
            ("undo", "="),
            ("final_score", "? not over"),
            ("undo", "="),
            ("undo", "? cannot undo"),
            ("undo now", "? expected 0 arguments"),
        ],
    )
    assert e.game.history == []
    e = engine(size=3)
    e.execute("play b b2")
    assert e.execute("genmove w") == "= swap-sides\n\n"  # the centre of 3x3 wins: swap it


def test_genmove_plays_whole_games_in_hex_and_rex():
    """Two genmove loops play legal games to the end in Hex and in Rex (where the player who
    completes a chain loses); final_score names the referee's winner."""
    for variant in ("hex", "rex"):
        e = HtpEngine(variant, 4, simulations=50)
        color = "b"
        while e.execute("final_score").startswith("?"):  # type: ignore[union-attr]
            assert e.execute(f"genmove {color}").startswith("= ")  # type: ignore[union-attr]
            color = "w" if color == "b" else "b"
            color = "b" if e.game.to_move is hx.RED else "w"
        game = e.game
        assert e.execute("final_score") == ("= B+\n\n" if game.winner is hx.RED else "= W+\n\n")
        if variant == "rex":
            chain_owner = game.board[tuple(game.completed_chain()[0])]
            assert chain_owner != game.winner


def test_showboard_and_all_legal_moves():
    """showboard draws the board after a newline with whose turn it is; all_legal_moves lists
    the cells (and the swap when it is legal) for the colour to move only."""
    e = engine(size=3)
    e.execute("play b b2")
    board = e.execute("showboard")
    assert (
        board is not None and board.startswith("= \n") and " X " in board and "White (Blue) to move" in board
    )
    assert e.execute("all_legal_moves w") == "= a1 b1 c1 a2 c2 a3 b3 c3 swap-sides\n\n"
    assert e.execute("all_legal_moves b") == "=\n\n"
    assert e.execute("all_legal_moves b w").startswith("?")  # type: ignore[union-attr]


def test_param_game_switches_variant_and_swap():
    """param_game lists the rules; 'param_game variant rex' switches to Rex and back, the
    moves so far replayed; swap and Benzene's allow_swap set the swap; Dark Hex, unknown
    names and values that break the moves so far are refused and change nothing."""
    e = engine()
    listing = e.execute("param_game")
    assert (
        listing
        == "= \n[list/hex/rex] variant hex\n[list/sides/pieces/off] swap sides\n[bool] allow_swap 1\n\n"
    )
    run_session(
        e,
        [
            ("play b a1", "="),
            ("param_game variant rex", "="),
            ("param_game swap off", "="),
            ("param_game allow_swap 1", "="),
            ("param_game variant dark", "? not offered over HTP"),
            ("param_game variant chess", "? "),
            ("param_game colour red", "? unknown game parameter"),
            ("param_game allow_swap maybe", "? allow_swap must be 0 or 1"),
            ("param_game variant", "? expected 2 arguments"),
            ("play w swap-sides", "="),
            ("param_game swap off", "? do not fit these rules"),
        ],
    )
    assert e.game.rules == hx.Rules("rex", 5, 5, "sides") and len(e.game.history) == 2
    e = HtpEngine(rows=3, cols=4)
    run_session(
        e,
        [
            ("param_game swap pieces", "? square board"),
            ("boardsize 4 4", "="),
            ("param_game swap pieces", "="),
        ],
    )
    with pytest.raises(Exception, match="not offered over HTP"):
        HtpEngine("dark", 5)


def test_param_hexengine_sets_the_search():
    """param_hexengine lists and sets level, simulations, seconds, threads and seed; bad
    values are refused and leave the old settings."""
    e = engine()
    run_session(
        e,
        [
            ("param_hexengine level easy", "="),
            ("param_hexengine simulations 64", "="),
            ("param_hexengine seconds 0.5", "="),
            ("param_hexengine threads 1", "="),
            ("param_hexengine seed 9", "="),
            ("param_hexengine simulations -1", "? simulations must be a whole number"),
            ("param_hexengine seconds soon", "? seconds must be a number"),
            ("param_hexengine seconds inf", "? seconds must be a finite number"),
            ("param_hexengine threads 0", "? threads must be between"),
            ("param_hexengine level godlike", "? unknown level"),
            ("param_hexengine temperature 2", "? unknown search parameter"),
            ("param_hexengine seed", "? expected 2 arguments"),
        ],
    )
    assert e.execute("param_hexengine") == (
        "= \n[list/custom/easy/medium/hard] level custom\n[string] simulations 64\n"
        "[string] seconds 0.5\n[string] threads 1\n[string] seed 9\n\n"
    )
    e.execute("param_hexengine seconds 0")
    assert e.execute("genmove b").startswith("= ")  # type: ignore[union-attr]


def test_hexgui_analyze_commands_run():
    """hexgui-analyze_commands lists type/label/command lines, and every command it lists runs
    with HexGui's wildcards filled in (%c a colour the user picks, %m the colour to move)."""
    e = engine(swap="off")
    e.execute("play b c3")
    listing = e.execute("hexgui-analyze_commands")
    assert listing is not None
    lines = listing[2:].strip().split("\n")
    assert all(len(line.split("/")) == 3 for line in lines)
    for line in lines:
        command = line.split("/")[2].replace("%c", "w").replace("%m", "w")
        answer = e.execute(command)
        ok = answer is not None and (answer.startswith("=") or answer.startswith("? cannot score"))
        assert ok, (command, answer)
    values = e.execute("hexengine-values")[2:].split()  # type: ignore[index]
    assert len(values) % 2 == 0 and all(0.0 <= float(v) <= 1.0 for v in values[1::2])
    e.execute("play w resign")
    assert e.execute("hexengine-pv").startswith("? the game is over")  # type: ignore[union-attr]
    assert e.execute("hexengine-values x").startswith("?")  # type: ignore[union-attr]


def test_quit_stops_serving_and_end_of_input_too():
    """serve() answers until quit (later lines are not read) or until the input ends."""
    import io

    e = engine()
    out = io.StringIO()
    assert e.serve(io.StringIO("name\nquit\nname\n"), out) == 0
    assert out.getvalue() == "= hexengine\n\n=\n\n"
    out = io.StringIO()
    assert engine().serve(io.StringIO("name"), out) == 0
    assert out.getvalue() == "= hexengine\n\n"


def test_hexengine_htp_command_end_to_end():
    """`hexengine htp` as a process: options set the first game, answers come on stdout,
    a malformed command does not stop it, and it ends at the end of input."""
    script = "boardsize 3\nparam_game\nplay b b2\nplay b b2\ngenmove w\nfinal_score\nxyzzy\nshowboard\n"
    proc = subprocess.run(
        [sys.executable, "-m", "hexengine.cli", "htp", "--variant", "rex", "--simulations", "50"],
        input=script,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    answers = proc.stdout.split("\n\n")[:-1]
    assert len(answers) == 8
    assert "variant rex" in answers[1]
    assert answers[3].startswith("? ") and answers[6] == "? unknown command: xyzzy"
    bad = subprocess.run(
        [sys.executable, "-m", "hexengine.cli", "htp", "--size", "30"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "hexengine htp:" in bad.stderr
