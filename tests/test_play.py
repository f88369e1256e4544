"""`hexengine play` end to end: whole games through piped input in every variant and table setting.

The input lists every cell of the board, three times over: each prompt takes
the next line, occupied cells are answered with a reason and a new prompt,
and so every game reaches its end before the input does. Curtain prompts
and the "play again" question take lines too.
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time

import pytest

import hexengine as hx

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def cells(rows: int, cols: int) -> list[str]:
    return [f"{chr(97 + c)}{r + 1}" for r in range(rows) for c in range(cols)]


def play(args: list[str], lines: list[str], timeout: float = 120) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "hexengine.cli", "play", *args],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return proc.stdout


def no_directions(text: str) -> None:
    """Texts shown to players name colours, never directions."""
    for word in ("top", "bottom", "left", "right", "north", "south", "east", "west"):
        assert not re.search(rf"\b{word}\b", text, re.I), word


@pytest.mark.parametrize("variant", ["hex", "rex", "dark", "dark-abrupt"])
def test_against_the_computer_to_the_end(variant):
    """Every variant against the computer: the game ends with a result line naming the winner,
    plain text on a pipe, and the next 'play again' answer ends the session."""
    out = play(["--variant", variant, "--size", "4", "--level", "easy", "--seed", "3"], cells(4, 4) * 3)
    assert re.search(r"(You win|Computer \(easy\) wins) game 1\.", out), out
    assert "You wins" not in out
    assert "Play again? [y/N]" in out and out.rstrip().endswith("Bye.")
    assert not ANSI.search(out)
    no_directions(out)
    if variant == "rex":
        assert "losing chain" in out or "resign" in out
    if variant.startswith("dark"):
        running = out.rsplit("is thinking", 1)[0]  # the winning move is shown with the reveal
        assert "Blue placed a stone." in running  # the computer's cells stay hidden until the end
        assert not re.search(r"Blue placed a stone on", running)


@pytest.mark.parametrize("variant", ["hex", "rex"])
def test_two_people_on_one_device(variant):
    """Two people, one device, Hex and Rex: no curtain, both colours prompted by name, the
    last move bracketed and the completed chain in lower case at the end."""
    out = play(
        [
            "--variant",
            variant,
            "--size",
            "3",
            "--opponent",
            "human",
            "--names",
            "Ann",
            "Bob",
            "--swap",
            "off",
        ],
        cells(3, 3) * 3,
    )
    assert "Red (Ann), your move:" in out and "Blue (Bob), your move:" in out
    assert "Pass the device" not in out
    assert re.search(r"(Ann|Bob) wins game 1\.", out)
    assert "[" in out and re.search(r"\b[xo]\b", out)


@pytest.mark.parametrize("variant", ["dark", "dark-abrupt"])
def test_dark_hex_on_one_device_has_a_curtain(variant):
    """Dark Hex on one device: the screen is cleared at every hand-over behind 'pass the device'
    and each player sees only their own stones (Bob's first board is empty although Ann has
    played); the game goes to the end."""
    out = play(
        ["--variant", variant, "--size", "3", "--opponent", "human", "--names", "Ann", "Bob"], cells(3, 3) * 4
    )
    handovers = out.count("Pass the device to")
    assert handovers >= 3 and out.count("-" * 60) == 2 * handovers
    assert "Pass the device to Blue (Bob), then press Enter." in out
    first_blue = out.split("Pass the device to Blue (Bob)")[1].split("your move")[0]
    board = first_blue.split("a b c")[1]
    assert "X" not in board and "O" not in board
    assert "hidden enemy stones on the board: 1" in first_blue
    assert re.search(r"(Ann|Bob) wins game 1\.", out)
    no_directions(out)


def test_swap_forms_and_non_square_boards():
    """The swap in both forms (sides: the stone stays and changes owner; pieces: it moves to the
    mirrored cell) and a board that is not square, with who moves first set."""
    out = play(
        ["--size", "3", "--opponent", "human", "--names", "Ann", "Bob"], ["b1", "swap", *cells(3, 3) * 3]
    )
    assert "Blue used the swap." in out and "(a cell, or swap)" in out
    assert out.split("Blue used the swap.")[1].split("your move")[0].count("X") >= 2  # stone stays red
    out = play(
        ["--size", "3", "--opponent", "human", "--swap", "pieces", "--names", "Ann", "Bob"],
        ["b1", "swap", *cells(3, 3) * 3],
    )
    after = out.split("Blue used the swap.")[1]
    assert "Red (Ann), your move" in after.split("\n\n")[1] or "Red (Ann), your move" in after
    out = play(["--rows", "2", "--cols", "5", "--level", "easy", "--first", "opponent"], cells(2, 5) * 3)
    assert (
        "Red (X, moves first): Computer (easy)" in out and "rows 1 and 2" in out and "columns a and e" in out
    )
    assert re.search(r"(You win|Computer \(easy\) wins) game 1\.", out)


def test_bad_input_gets_a_reason_and_a_new_prompt():
    """Unknown words, occupied and off-board cells and a swap that is not offered each get a
    short reason after '? ' and the same player is asked again; help lists the commands."""
    out = play(
        ["--size", "3", "--opponent", "human", "--swap", "off"],
        ["hello", "z9", "b2", "b2", "swap", "help", "quit"],
    )
    assert "? 'hello' is not a cell" in out
    assert "? cell z9 is off the 3x3 board" in out
    assert "? b2 already holds a Red stone" in out
    assert "? " in out.split("swap\n")[1].split("\n")[0]
    assert "resign  give up this game" in out
    assert "The game is left unfinished. Bye." in out


def test_resign_rematch_series_and_saved_records(tmp_path):
    """Resigning ends the game; 'y' starts the next game with the colours exchanged; the series
    score is shown; --save writes each game as SGF that loads back."""
    out = play(
        ["--size", "3", "--opponent", "human", "--names", "Ann", "Bob", "--save", str(tmp_path)],
        ["b2", "resign", "y", "a1", "resign", "n"],
    )
    assert "Blue resigned: Red wins. Ann wins game 1." in out
    assert "Red (X, moves first): Bob." in out and "Blue (Ann), your move" in out
    assert "Blue resigned: Red wins. Bob wins game 2." in out and "Series: Ann 1, Bob 1." in out
    first = hx.read_record(str(tmp_path / "game-1.sgf"))
    second = hx.read_record(str(tmp_path / "game-2.sgf"))
    assert first.winner_seat == "A" and first.end_reason == "resignation"
    assert second.winner_seat == "B" and second.red_seat == "B"
    assert first.players["A"].name == "Ann" and second.players["B"].name == "Bob"


def test_colours_and_end_of_input():
    """--color always paints the board with ANSI colours; the session ends cleanly when the
    input ends, at any prompt."""
    out = play(["--size", "3", "--color", "always", "--level", "easy"], [])
    assert "\x1b[1;31m" in out and "\x1b[1;34m" in out
    assert out.rstrip().endswith("The game is left unfinished. Bye.")
    out = play(["--variant", "dark", "--size", "3", "--opponent", "human"], [])
    assert out.rstrip().endswith("The game is left unfinished. Bye.") and "Pass the device" in out


def test_time_limit_loses_on_time():
    """With --time-limit, a player who does not answer in time loses by time-out while the
    prompt waits."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "hexengine.cli",
            "play",
            "--size",
            "3",
            "--time-limit",
            "0.5",
            "--level",
            "easy",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    output: list[str] = []
    reader = threading.Thread(
        target=lambda: output.extend(iter(lambda: proc.stdout.read(1), "")), daemon=True
    )  # type: ignore[union-attr]
    reader.start()
    deadline = time.monotonic() + 60
    while "Play again?" not in "".join(output) and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.stdin.write("n\n")  # type: ignore[union-attr]
    proc.stdin.close()  # type: ignore[union-attr]
    assert proc.wait(timeout=60) == 0
    reader.join(timeout=10)
    text = "".join(output)
    assert "[0 s left]" in text or "s left]" in text
    assert "Red ran out of time: Blue wins" in text and "Computer (easy) wins game 1." in text


def test_bad_settings_exit_with_status_2():
    """Settings no table accepts are refused with a message and status 2."""
    for args in (["--size", "0"], ["--variant", "dark", "--swap", "sides"], ["--names", "a", "b", "c"],
                 ["--time-limit", "-1"], ["--rows", "3", "--cols", "4", "--swap", "pieces"]):  # fmt: skip
        proc = subprocess.run(
            [sys.executable, "-m", "hexengine.cli", "play", *args],
            input="",
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 2 and proc.stderr.startswith("hexengine play:"), args


def test_the_easy_level_says_it_plays_without_swap() -> None:
    """The easy computer plays without the swap rule: asked for with --swap, the
    session says so at once (rather than answering 'swap' with 'the swap rule
    is off' later); the medium level keeps the swap the settings ask for."""
    out = play(["--size", "3", "--level", "easy", "--swap", "sides", "--seed", "1"], ["quit"])
    assert out.startswith("The easy level plays without the swap rule (sides); --level medium or hard")
    out = play(["--size", "3", "--level", "medium", "--swap", "sides", "--seed", "1"], ["quit"])
    assert "without the swap rule" not in out and "swap (sides)" in out
    out = play(["--size", "3", "--level", "easy", "--swap", "off", "--seed", "1"], ["quit"])
    assert "without the swap rule" not in out
    out = play(["--size", "3", "--level", "easy", "--seed", "1"], ["quit"])  # swap not asked for
    assert "without the swap rule" not in out and out.startswith("Game 1 of hex on 3x3. Red")


@pytest.mark.parametrize("command", ["play", "htp", "match", "tournament", "selfplay", "serve"])
def test_help_shows_every_default(command: str) -> None:
    """`--help` names the default of every option that has one, through
    `python -m hexengine` as through the `hexengine` command."""
    from hexengine.cli import build_parser

    parser = build_parser()
    sub = parser._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr]
    text = subprocess.run(
        [sys.executable, "-m", "hexengine", command, "--help"], capture_output=True, text=True, check=True
    ).stdout
    flat = " ".join(text.split())
    for action in sub._actions:
        default = action.default
        if not action.option_strings or default is None or default is False or action.help is None:
            continue
        if default == "==SUPPRESS==" or default == []:
            continue
        assert "default" in (action.help or "") or f"(default: {default})" in flat, (command, action.dest)


def test_undo_takes_back_a_move_against_the_computer() -> None:
    """`undo` takes back the player's move and the computer's reply (the board is
    empty again and it is the player's move), says why when there is nothing to
    take back, and is refused with the reason in Dark Hex."""
    out = play(["--size", "3", "--level", "easy", "--seed", "1"], ["a1", "undo", "undo", "quit"])
    after = out.split("Taken back.")[1]
    board = after.split("your move")[0]
    assert "X" not in board.split("a b c")[1] and "O" not in board.split("a b c")[1]  # an empty board
    assert "? you have made no move to take back yet" in after
    out = play(["--variant", "dark", "--size", "3", "--level", "easy", "--seed", "1"], ["a1", "undo", "quit"])
    assert "? Dark Hex has no takebacks" in out and "Taken back." not in out
    assert "undo" in play(["--size", "3"], ["help", "quit"])
