"""Records in and out: SGF and trmph round trips, loading into hx.Game, and SVG pictures."""

from __future__ import annotations

import random

import numpy as np
import pytest

import hexengine as hx

VARIANTS = [
    hx.Rules("hex", 5, 5),
    hx.Rules("hex", 4, 6, "off"),
    hx.Rules("rex", 5, 5, "pieces"),
    hx.Rules("rex", 3, 3),
    hx.Rules("dark", 4, 4),
    hx.Rules("dark-abrupt", 3, 5),
]


def random_game(rules: hx.Rules, seed: int) -> hx.Game:
    rng = random.Random(seed)
    game = hx.Game(rules)
    while not game.is_over:
        if rng.random() < 0.02:
            game.resign(game.to_move)  # type: ignore[arg-type]
            break
        if rng.random() < 0.01:
            game.timeout(game.to_move)  # type: ignore[arg-type]
            break
        moves = game.legal_moves()
        game.play("swap" if "swap" in moves and rng.random() < 0.5 else rng.choice(moves))
    return game


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_sgf_round_trip_of_random_games(rules):
    """Random games of every variant (swaps of both forms, hits, resignations, time-outs) go
    Game -> GameRecord -> SGF -> GameRecord -> Game and come back with the same record,
    board, winner and end."""
    for seed in range(25):
        game = random_game(rules, seed)
        record = hx.GameRecord.from_game(game, players=("Ann", "Bob"), red_seat="AB"[seed % 2])  # type: ignore[arg-type]
        text = record.to_sgf(comment="a ] tricky [ comment \\ here")
        assert text.startswith("(;FF[4]") and "GM[11]" in text
        back = hx.GameRecord.from_sgf(text)
        assert back.actions == record.actions and back.winner == game.winner
        assert back.end_reason == game.end_reason and back.red_seat == record.red_seat
        loaded = hx.read_game(text)
        assert loaded.history == game.history
        assert np.array_equal(loaded.board, game.board)
        assert (loaded.winner, loaded.end_reason) == (game.winner, game.end_reason)
        assert hx.GameRecord.parse(record.to_json()) == record


@pytest.mark.parametrize("rules", [r for r in VARIANTS if not r.is_dark], ids=str)
def test_trmph_round_trip_of_random_games(rules):
    """Hex and Rex games, with swaps, go Game -> trmph -> Game unchanged (the variant and the
    swap form given when reading, as trmph does not carry them)."""
    for seed in range(25):
        game = random_game(rules, seed)
        link = hx.write_trmph(game)
        assert link.startswith("https://trmph.com/hex/board#")
        back = hx.read_trmph(link, rules.variant, rules.swap).game()
        assert back.history == game.history
        if game.end_reason == "connection":
            assert back.winner == game.winner
        assert hx.write_trmph(back, link=False) == link.split("board", 1)[1]


def test_trmph_reading_forms_and_errors():
    """trmph is read from full links, bare '#size,moves' and 'size,moves', upper or lower case,
    with a non-square 'COLSxROWS' size; Dark Hex and broken records are refused by name."""
    for text in (
        "http://www.trmph.com/hex/board#5,c3b4",
        "#5,C3B4",
        "5,c3b4",
        "  trmph.com/hex/board#5,c3b4 ",
    ):
        assert [str(a) for a in hx.read_trmph(text).actions] == ["Red c3", "Blue b4"]
    assert hx.read_trmph("#6x3,f3").rules == hx.Rules("hex", 3, 6)
    for bad, needle in [
        ("c3b4", "cannot read"),
        ("#5,c3?4", "cannot read trmph moves"),
        ("#5,c3c3c3", "not a legal game"),
        ("#5,f1", "not a legal game"),
        ("#25,a1", "bad rules"),
        (12, "must be a string"),
    ]:
        with pytest.raises(hx.RecordError, match=needle):
            hx.read_trmph(bad)  # type: ignore[arg-type]
    with pytest.raises(hx.RecordError, match="Dark Hex"):
        hx.read_trmph("#3,a1", "dark")
    with pytest.raises(hx.RecordError, match="Dark Hex"):
        hx.write_trmph(hx.Game("dark", size=3))
    with pytest.raises(TypeError):
        hx.write_trmph("a1")


def test_read_game_from_files_and_text(tmp_path):
    """read_game and read_record take a path or the text of SGF, JSON or trmph; unreadable
    files and unknown text are refused with a RecordError."""
    game = random_game(hx.Rules("hex", 5, 5), 3)
    record = hx.GameRecord.from_game(game)
    for name, text in [
        ("g.sgf", record.to_sgf()),
        ("g.json", record.to_json()),
        ("g.txt", hx.write_trmph(game)),
    ]:
        path = tmp_path / name
        path.write_text(text)
        assert hx.read_game(str(path)).history == game.history
        assert hx.read_game(path).history == game.history
    (tmp_path / "bad.sgf").write_bytes(b"\xff\xfe(;")
    with pytest.raises(hx.RecordError, match="cannot read"):
        hx.read_game(tmp_path / "bad.sgf")
    (tmp_path / "cut.sgf").write_text("(;FF[4]GM[11]SZ[5];B[a1]")
    with pytest.raises(hx.RecordError, match=r"cut\.sgf' holds no record: SGF ends before"):
        hx.read_record(tmp_path / "cut.sgf")
    with pytest.raises(hx.RecordError):
        hx.read_game("no such file and no record")
    with pytest.raises(hx.RecordError):
        hx.GameRecord.parse(None)  # type: ignore[arg-type]
    # A file is read by its text, whatever its name (JSON in a .sgf file is read);
    # when the text is no record and does not start as the name promises, the
    # error says what the name promised instead of blaming the trmph reader.
    (tmp_path / "json.sgf").write_text(record.to_json())
    assert hx.read_game(tmp_path / "json.sgf").history == game.history
    (tmp_path / "notes.sgf").write_text("hello world")
    with pytest.raises(
        hx.RecordError, match=r"a \.sgf file should hold SGF, which starts with '\('; it starts with 'hello"
    ):
        hx.read_record(tmp_path / "notes.sgf")
    (tmp_path / "notes.json").write_text("[1, 2]")
    with pytest.raises(hx.RecordError, match=r"a \.json file should hold JSON, which starts with '\{'"):
        hx.read_record(tmp_path / "notes.json")
    (tmp_path / "notes.txt").write_text("hello world")
    with pytest.raises(hx.RecordError, match="as trmph"):
        hx.read_record(tmp_path / "notes.txt")


def test_hexgui_swap_names_by_what_they_do():
    """SGF swap moves are read by what they do, as current HexGui and the SGF standard say:
    swap-sides keeps the board (White moves next), swap-pieces mirrors the stone (Black
    moves next); files of HexGui 0.9 and older meant swap-sides by swap-pieces."""
    sides = hx.read_game("(;FF[4]GM[11]SZ[4];B[b1];W[swap-sides];W[c3])")
    assert sides.rules.swap == "sides" and sides.board[0, 1] == hx.RED
    pieces = hx.read_game("(;FF[4]AP[HexGui:0.10]GM[11]SZ[4];B[b1];W[swap-pieces];B[c3])")
    assert pieces.rules.swap == "pieces" and pieces.board[1, 0] == hx.BLUE and pieces.board[0, 1] == 0
    old = hx.read_game("(;FF[4]AP[HexGui:0.9.GIT]GM[11]SZ[4];B[b1];W[swap-pieces];W[c3])")
    assert old.rules.swap == "sides" and old.history == sides.history


def test_svg_pictures(tmp_path):
    """SVG of a game shows every stone, the last move and the completed chain; a view shows
    only its viewer's stones (a Dark Hex view hides the enemy's, the spectator sees none);
    write_svg saves the picture; other objects are refused."""
    game = hx.Game("dark", size=3)
    for move in ["b2", "b2", "a2", "b1", "a1", "b3"]:
        game.play(move)
    picture = game._repr_svg_()
    assert picture.count('class="stone red"') == 3 and picture.count('class="stone blue"') == 2
    assert picture.count('class="chain"') == 3 and picture.count('class="last"') == 1
    running = hx.Game("dark", size=3)
    for move in ["b2", "a1", "c3"]:
        running.play(move)
    blue = running.view(hx.BLUE)._repr_svg_()
    assert blue.count('class="stone red"') == 0 and blue.count('class="stone blue"') == 1
    assert 'class="last"' not in blue  # Red's last move is hidden from Blue
    assert 'class="stone' not in hx.svg(running.spectator_view())
    finished_view = hx.svg(game.view(hx.BLUE))
    assert finished_view.count('class="chain"') == 3  # a connection reveals everything
    hex_game = hx.Game("hex", rows=2, cols=7)
    hex_game.play("g2")
    path = tmp_path / "board.svg"
    hx.write_svg(hex_game, path, cell_size=10, coordinates=False)
    text = path.read_text()
    assert text.startswith("<svg") and text.rstrip().endswith("</svg>") and ">g2<" in text
    assert hx.svg(hx.GameRecord.from_game(hex_game)).count('class="stone red"') == 1
    with pytest.raises(TypeError):
        hx.svg("board")
    for not_a_path in (1, True, None):  # 1 once wrote to standard output and closed it
        with pytest.raises(TypeError, match="writes to a file path"):
            hx.write_svg(hex_game, not_a_path)
    hx.write_svg(hex_game, str(path))
    assert path.read_text() == hx.svg(hex_game) + "\n"
    from hexengine.svg import board_svg

    with pytest.raises(ValueError):
        board_svg(np.zeros((0, 3)))
