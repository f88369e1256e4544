"""The HTP engine with HexGui and Benzene: swap dialects, new games from the configured rules,
and set-up stones played out of turn."""

from __future__ import annotations

import subprocess
import sys

import pytest
from oracle import board_connects
from test_htp import run_session

import hexengine as hx
from hexengine.htp.engine import HtpEngine


def engine(**kwargs: object) -> HtpEngine:
    return HtpEngine(size=kwargs.pop("size", 5), simulations=kwargs.pop("simulations", 100), **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("dialect", ["benzene", "hexgui"])
def test_benzene_and_old_hexgui_swap_pieces_is_the_side_swap(dialect):
    """Benzene, MoHex and HexGui 0.9 play 'swap-pieces' with the board left as it is and White
    to move next: hexengine's sides swap, whatever the configured form. Their 'swap-sides' and
    'swap' are the same swap."""
    for word in ("swap-pieces", "swap-sides", "swap"):
        e = engine(swap="pieces", dialect=dialect)
        run_session(e, [("play b b4", "="), (f"play w {word}", "=")])
        game = e.game
        assert game.rules.swap == "sides" and game.to_move is hx.BLUE
        assert game.board[3, 1] == hx.RED and int((game.board != 0).sum()) == 1


@pytest.mark.parametrize(
    ("dialect", "word"), [("standard", "swap-sides"), ("benzene", "swap-pieces"), ("hexgui", "swap")]
)
def test_the_engine_names_its_own_swap_in_the_dialect(dialect, word):
    """The centre of 3x3 wins, so White swaps it: answered as 'swap-sides' (standard),
    'swap-pieces' (Benzene) or 'swap' (which every HexGui reads as its side swap); in the
    Benzene and HexGui dialects the swap is the side swap even in a pieces-form game, so the
    controller's board and the engine's agree."""
    for swap in ("sides", "pieces"):
        e = engine(size=3, swap=swap, dialect=dialect)
        e.execute("play b b2")
        answer = e.execute("genmove w")
        expected = word if dialect != "standard" or swap == "sides" else "swap-pieces"
        assert answer == f"= {expected}\n\n"
        game = e.game
        form = swap if dialect == "standard" else "sides"
        assert game.rules.swap == form and game.history[-1].result is hx.MoveResult.SWAPPED
        assert e.execute("all_legal_moves") == "= a1 b1 c1 a2 c2 a3 b3 c3\n\n"


def test_hexgui_is_recognised_by_its_analyze_command_unless_a_dialect_was_given():
    """Only HexGui sends hexgui-analyze_commands: the engine then speaks the hexgui dialect;
    a dialect given explicitly stays."""
    e = engine()
    assert e.dialect == "standard"
    e.execute("hexgui-analyze_commands")
    assert e.dialect == "hexgui"
    run_session(e, [("play b b4", "="), ("play w swap-pieces", "=")])
    assert e.game.rules.swap == "sides" and e.game.board[3, 1] == hx.RED
    e = engine(dialect="standard")
    e.execute("hexgui-analyze_commands")
    run_session(e, [("play b b4", "="), ("play w swap-pieces", "=")])
    assert e.game.rules.swap == "pieces" and e.game.board[1, 3] == hx.BLUE
    with pytest.raises(hx.ConfigError, match="unknown HTP dialect"):
        HtpEngine(dialect="gnugo")


def test_a_swap_form_does_not_stick_across_new_games():
    """A swap word of the other form changes this game only: clear_board and boardsize start
    from the configured rules again (HexGui's replay of a pieces swap too)."""
    e = engine()
    run_session(e, [("play b b4", "="), ("play w swap-pieces", "=")])
    assert e.game.rules.swap == "pieces"
    run_session(e, [("clear_board", "=")])
    assert e.game.rules.swap == "sides"
    run_session(e, [("play w d2", "=")])  # HexGui 0.10's pieces swap: clear_board, play white CELL
    assert e.game.rules.swap == "pieces"
    run_session(e, [("boardsize 5", "=")])
    assert e.game.rules == hx.Rules("hex", 5, 5, "sides")
    e = engine(swap="pieces")
    run_session(e, [("boardsize 5 4", "="), ("boardsize 4", "=")])
    assert e.game.rules.swap == "pieces"  # the configured form comes back on a square board
    run_session(e, [("param_game swap off", "="), ("clear_board", "=")])
    assert e.game.rules.swap == "off"


def test_hexgui_set_up_stones_are_played_out_of_turn():
    """HexGui 0.10 sends a set-up board as clear_board and one play per stone, row by row, in
    any colour order; the engine accepts them in the hexgui and benzene dialects, keeps the
    position, searches it for the colour asked, and undoes stone by stone."""
    e = engine(size=4, dialect="hexgui")
    stones = [("black", "a1"), ("black", "b1"), ("white", "c1"), ("black", "a2"), ("white", "d3")]
    run_session(e, [("clear_board", "=")] + [(f"play {c} {m}", "=") for c, m in stones])
    position = e.position
    assert int((position.board == 1).sum()) == 3 and int((position.board == 2).sum()) == 2
    assert position.to_move is hx.RED  # the last stone was White's
    with pytest.raises(hx.ConfigError, match="set-up position"):
        e.game  # noqa: B018
    answer = e.execute("genmove w")
    assert answer is not None and answer.startswith("= ")
    cell = hx.Cell(answer[2:].strip())
    assert position.board[cell] == 0 and e.position.board[cell] == hx.BLUE
    assert e.position.to_move is hx.RED
    run_session(e, [("play b b1", "? already holds"), ("play w swap", "? swap is allowed only")])
    for _ in range(len(stones) + 1):
        run_session(e, [("undo", "=")])
    assert e.game.history == [] and e.game.to_move is hx.RED
    run_session(e, [("undo", "? cannot undo")])


def test_genmove_for_the_colour_not_to_move_and_mid_game_set_up():
    """GTP lets a controller ask either colour for a move (HexGui's 'toggle to move') and HexGui
    0.9 sends a set-up stone mid-game as a play: in the hexgui dialect both work; the standard
    dialect keeps the referee's turn order."""
    e = engine(size=5, swap="off", dialect="hexgui")
    run_session(e, [("play b c3", "="), ("genmove b", None)])
    assert int((e.position.board == 1).sum()) == 2 and e.position.to_move is hx.BLUE
    run_session(e, [("genmove w", None)])
    empty = [hx.Cell(int(r), int(c)).name for r, c in zip(*(e.position.board == 0).nonzero(), strict=True)]
    run_session(e, [(f"play w {empty[0]}", "="), (f"play w {empty[1]}", "=")])  # Black was to move
    assert int((e.position.board == 2).sum()) == 3 and e.position.to_move is hx.RED
    strict = engine(size=5, swap="off")
    refused = [("genmove b", "? it is White's turn"), ("play b a1", "? White's turn")]
    run_session(strict, [("play b c3", "="), *refused])


def test_a_set_up_chain_ends_the_game():
    """Set-up stones that complete a chain end the game: final_score names the winner (the
    chain's owner in Hex, the other colour in Rex) and genmove refuses."""
    for variant, score in (("hex", "= B+"), ("rex", "= W+")):
        e = HtpEngine(variant, 3, simulations=50, dialect="benzene")
        run_session(e, [("play b a1", "="), ("play b a2", "="), ("play b a3", "=")])
        assert board_connects(e.position.board, hx.RED)
        run_session(e, [("final_score", score), ("genmove w", "? the game is over"), ("undo", "=")])
        run_session(e, [("final_score", "? not over")])


def test_cli_takes_the_dialect_under_both_names():
    """`hexengine htp --dialect benzene` and `--swap-dialect hexgui` set the dialect; the Benzene
    swap is read as the side swap end to end."""
    htp = [sys.executable, "-m", "hexengine.cli", "htp"]
    cases = (("--dialect", "benzene", "swap-pieces"), ("--swap-dialect", "hexgui", "swap"))
    for flag, value, answer in cases:
        proc = subprocess.run(
            [*htp, "--size", "3", "--simulations", "200", flag, value],
            input="play b b2\ngenmove w\nshowboard\n",
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 0, proc.stderr
        answers = proc.stdout.split("\n\n")
        assert answers[1] == f"= {answer}" and "White (Blue) to move" in answers[2]
    bad = subprocess.run([*htp, "--dialect", "gnugo"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "invalid choice" in bad.stderr
