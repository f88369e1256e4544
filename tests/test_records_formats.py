"""Records from other tools: Little Golem's SGF, HexGui's set-up stones, results without a winner,
files in other encodings, and the errors for files and text that hold no record."""

from __future__ import annotations

import functools
import itertools
from pathlib import Path

import numpy as np
import pytest
from oracle import board_connects

import hexengine as hx
from hexengine.records import MissingRecordFile, Position, read_sgf_position

DATA = Path(__file__).with_name("data")


def test_little_golem_sgf_is_read_with_its_own_conventions():
    """Little Golem writes the first player's moves as W, cells as two letters (column, row:
    'ce' is c5) and its swap as the pieces swap (the stone is mirrored and changes colour, the
    players keep their colours); PB is the first player, RE[W] means the second one won."""
    record = hx.read_record(DATA / "littlegolem.sgf")
    assert record.rules == hx.Rules("hex", 11, 11, "pieces")
    assert [str(a) for a in record.actions] == [
        "Red c5",
        "Blue swap (e3)",
        "Red f7",
        "Blue e6",
        "Red g7",
        "Blue e8",
    ]
    assert (record.winner, record.end_reason) == (hx.BLUE, "resignation")
    assert record.players[record.red_seat].name == "Ana Example"
    assert record.players[record.seat_of(hx.BLUE)].name == "Ben Sample"
    board = record.game().board
    assert board[4, 2] == 0 and board[2, 4] == hx.BLUE  # c5 went, e3 came
    # Read the same file as plain SGF (no Little Golem source) and the colours are wrong.
    plain = (DATA / "littlegolem.sgf").read_text().replace("SO[http://www.littlegolem.com]", "")
    plain = plain.replace("EV[hex.ch.1.1.1]", "")
    with pytest.raises(hx.RecordError, match="out of turn"):
        hx.read_record(plain)


def test_little_golem_results_and_swap_match_a_game_without_swap():
    """RE[B] is the first player's win, by the moves' or the file's say; a Little Golem game
    without a swap replays as the same cells in plain SGF with the colours exchanged."""
    head = "(;FF[4]EV[hex.mc.1.2]PB[A]PW[B]SZ[5]SO[https://www.littlegolem.net]"
    record = hx.read_record(head + "RE[B];W[ca];B[bc];W[cb];B[resign])")
    assert (record.winner, record.end_reason) == (hx.RED, "resignation")
    same = hx.read_record("(;FF[4]GM[11]SZ[5];B[c1];W[b3];B[c2];W[resign])")
    assert [(a.color, a.cell) for a in record.actions] == [(a.color, a.cell) for a in same.actions]
    column = ";W[ca];B[ea];W[cb];B[eb];W[cc];B[ec];W[cd];B[ed];W[ce])"  # the first player joins rows
    assert hx.read_record(head + "RE[B]" + column).end_reason == "connection"
    with pytest.raises(hx.RecordError, match="contradicts"):
        hx.read_record(head + "RE[W]" + column)
    with pytest.raises(hx.RecordError, match="contradicts the moves: Blue resigned"):
        hx.read_record(head + "RE[W];W[ca];B[bc];W[cb];B[resign])")


@pytest.mark.parametrize("value", ["?", "0", "Void", "Draw", ""])
def test_results_without_a_winner_are_no_result(value):
    """RE[?] (unknown), RE[0] and RE[Draw] (a draw, which Hex has not) and an empty RE leave the
    record without a winner, like a file with no RE."""
    record = hx.read_record(f"(;FF[4]GM[11]SZ[3]RE[{value}];B[b2];W[a1])")
    assert record.winner is None and record.end_reason is None and len(record.actions) == 2


def test_setup_stones_make_a_position_not_a_game():
    """HexGui's AB/AW/PL describe a board that alternating moves cannot reach: a game record
    refuses it by name, and read_sgf_position reads the stones, the colour to move and the
    moves after them."""
    text = (DATA / "hexgui_setup.sgf").read_text()
    with pytest.raises(hx.RecordError, match="sets up stones"):
        hx.read_record(text)
    sgf = read_sgf_position(text)
    assert sgf.rules == hx.Rules("hex", 4, 4, "sides")
    assert [(c, cell.name) for c, cell in sgf.setup] == [
        (hx.RED, "a1"),
        (hx.RED, "a2"),
        (hx.RED, "b3"),
        (hx.BLUE, "c2"),
    ]
    assert sgf.to_move is hx.BLUE and [m.value for m in sgf.moves] == ["b2", "d1"]
    assert sgf.players == ("Setter", "Solver")
    start, end = sgf.position(0), sgf.position()
    assert start.to_move is hx.BLUE and int((start.board == 1).sum()) == 3
    assert end.board[1, 1] == hx.BLUE and end.board[0, 3] == hx.RED and end.to_move is hx.BLUE


def test_ae_removes_setup_stones_and_setup_after_moves_is_refused():
    """AE empties cells set up before (later nodes win), PL picks the colour to move (by
    default Black unless Black has more stones); set-up stones after the first move, cells off
    the board and bad PL values are refused with the node named."""
    sgf = read_sgf_position("(;GM[11]SZ[3];AB[a1][b1][c1];AE[b1];AW[b1];AE[c1])")
    assert [(c, cell.name) for c, cell in sgf.setup] == [(hx.RED, "a1"), (hx.BLUE, "b1")]
    assert sgf.to_move is hx.RED
    assert read_sgf_position("(;GM[11]SZ[3]AB[a1][b1])").to_move is hx.BLUE
    assert read_sgf_position("(;GM[11]SZ[3]AB[aa][bc])").setup[1][1] == hx.Cell("b3")
    for bad, needle in [
        ("(;GM[11]SZ[3];B[a1];AB[b2])", "after the moves began"),
        ("(;GM[11]SZ[3]AB[d4])", "not a cell of the board"),
        ("(;GM[11]SZ[3]AB[a1]PL[X])", "PL must be B or W"),
        ("(;GM[11]SZ[3]AB[a1];W[swap-sides])", "swap after set-up"),
    ]:
        with pytest.raises(hx.RecordError, match=needle):
            read_sgf_position(bad).position()


def _winner(board: np.ndarray, to_move: hx.Color, variant: str) -> hx.Color:
    """Who wins ``board`` with ``to_move`` to move, by trying every continuation (tiny boards)."""
    key = (board.tobytes(), int(to_move))

    @functools.cache
    def solve(cells: bytes, mover: int) -> int:
        b = np.frombuffer(cells, dtype=np.int8).reshape(board.shape)
        for color in (hx.RED, hx.BLUE):
            if board_connects(b, color):
                return int(color.opponent if variant == "rex" else color)
        results = []
        for r, c in zip(*np.nonzero(b == 0), strict=True):
            nxt = b.copy()
            nxt[r, c] = mover
            results.append(solve(nxt.tobytes(), 3 - mover))
        return mover if mover in results else 3 - mover

    return hx.Color(solve(*key))


@pytest.mark.parametrize("variant", ["hex", "rex"])
def test_positions_know_finished_boards_and_hand_views_to_bots_and_the_solver(variant):
    """A Position built from any stones says whether a chain is complete (checked against a
    flood fill) and who won (the chain's owner in Hex, the other colour in Rex); its view goes to
    the solver, whose answer matches an exhaustive search, and to MCTSBot."""
    rules = hx.Rules(variant, 3, 3)
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(60):
        board = rng.choice([0, 0, 1, 2], size=(3, 3)).astype(np.int8)
        to_move = hx.RED if rng.random() < 0.5 else hx.BLUE
        position = Position(rules, board, to_move)
        joined = [c for c in (hx.RED, hx.BLUE) if board_connects(board, c)]
        assert position.is_over == bool(joined)
        if joined:
            assert position.winner == (joined[0].opponent if variant == "rex" else joined[0])
            continue
        assert position.to_move is to_move and position.rules.swap == "off"
        if (board == 0).sum() and checked < 12:
            assert hx.solve(position.view()).winner == _winner(board, to_move, variant)
            assert hx.MCTSBot(simulations=30).choose(position.view()) in position.legal_moves()
            checked += 1
    assert checked == 12
    with pytest.raises(hx.IllegalMove, match="already holds"):
        Position.empty(rules).place(hx.RED, "a1").place(hx.BLUE, "a1")
    with pytest.raises(hx.RecordError, match="hidden stones"):
        Position.empty(hx.Rules("dark", 3, 3))


def test_files_in_other_encodings_are_read(tmp_path):
    """UTF-8 (with or without a byte-order mark), UTF-16 with its mark, the character set SGF's
    CA[] names, and Latin-1 when a file is not UTF-8 all give the same names."""
    latin1 = hx.read_record(DATA / "latin1.sgf")
    assert [latin1.players[s].name for s in "AB"] == ["José", "Björn"]
    text = "(;FF[4]GM[11]SZ[3]PB[José]PW[Björn];B[b2];W[a1];B[b1];W[c1];B[b3])"
    for name, data in [
        ("utf8.sgf", text.encode("utf-8")),
        ("bom.sgf", b"\xef\xbb\xbf" + text.encode("utf-8")),
        ("utf16.sgf", text.encode("utf-16")),
        ("nocharset.sgf", text.encode("latin-1")),
    ]:
        (tmp_path / name).write_bytes(data)
        record = hx.read_record(tmp_path / name)
        assert [record.players[s].name for s in "AB"] == ["José", "Björn"], name
        assert record.winner is hx.RED
    euro = text.replace("SZ[3]", "SZ[3]CA[cp1252]").replace("José", "5 €")
    (tmp_path / "cp1252.sgf").write_bytes(euro.encode("cp1252"))  # € is byte 0x80 there
    assert hx.read_record(tmp_path / "cp1252.sgf").players["A"].name == "5 €"
    assert hx.records.load_text(tmp_path / "utf16.sgf") == text


def test_unreadable_files_and_missing_paths_say_so(tmp_path):
    """A path to no file says the file does not exist (a RecordError and a FileNotFoundError),
    for a path object and for a string that names a file; a file that is not UTF-8 and holds no
    record says how it was read; records named by their text still load."""
    for missing in ("missing.sgf", "games/g1.json", str(tmp_path / "nothing.trmph"), tmp_path / "x.sgf"):
        with pytest.raises(MissingRecordFile, match="no such file") as info:
            hx.read_game(missing)
        assert isinstance(info.value, FileNotFoundError) and isinstance(info.value, hx.RecordError)
    with pytest.raises(hx.RecordError, match="is not a file"):
        hx.read_record(str(tmp_path) + "/")
    (tmp_path / "bin.sgf").write_bytes(b"\x00\x81\xfe garbage")
    with pytest.raises(hx.RecordError, match=r"as Latin-1 text \(it is not UTF-8: byte 0x81 at offset 1\)"):
        hx.read_record(tmp_path / "bin.sgf")
    assert hx.read_game("#3,b2").board[1, 1] == hx.RED
    with pytest.raises(hx.RecordError, match="as trmph"):
        hx.read_game("no record here")


def test_json_records_that_nest_deeply_or_name_bad_rules_are_record_errors():
    """JSON nested past what Python can read, and rules the engine refuses, raise RecordError
    (the second chained to the RulesError), never RecursionError or RulesError."""
    with pytest.raises(hx.RecordError, match="nests too deeply"):
        hx.read_record('{"a":' * 100_000 + "0" + "}" * 100_000)
    with pytest.raises(hx.RecordError, match="nests too deeply"):
        hx.GameRecord.from_json("[" * 50_000 + "]" * 50_000)
    good = hx.GameRecord.from_moves(hx.Rules("hex", 3, 3), ["b2"]).to_dict()
    for rules, needle in [
        ({"variant": "chess", "rows": 3, "cols": 3}, "unknown variant"),
        ({"variant": "dark", "rows": 3, "cols": 3, "swap": "sides"}, "not available"),
        ({"variant": "hex", "rows": 40, "cols": 3}, "rows"),
    ]:
        data = dict(good, rules=rules)
        with pytest.raises(hx.RecordError, match=f"bad rules in record: .*{needle}") as info:
            hx.GameRecord.from_dict(data)
        assert isinstance(info.value.__cause__, hx.RulesError)


def test_two_letter_cells_and_hexgui_swap_names_still_round_trip():
    """Go-style two-letter cells read as column and row letters in any SGF; what write_sgf
    writes reads back unchanged (every variant's random games are in test_records_io)."""
    record = hx.read_record("(;FF[4]GM[11]SZ[4];B[bc];W[ab];B[dd])")
    assert [a.cell.name for a in record.actions] == ["b3", "a2", "d4"]
    for moves in itertools.islice(itertools.permutations(["a1", "b2", "c3", "d4"]), 5):
        again = hx.GameRecord.from_sgf(hx.GameRecord.from_moves(hx.Rules("hex", 4, 4), moves).to_sgf())
        assert [a.cell.name for a in again.actions] == list(moves)
