"""Game records: JSON and HexGui-style SGF, both ways, and replays through the full board."""

from __future__ import annotations

import json
import random

import pytest

import hexengine as hx


def random_record(variant: str, rows: int, cols: int, seed: int, swap=None) -> hx.GameRecord:
    rng = random.Random(seed)
    game = hx.Game(variant, rows=rows, cols=cols, swap=swap)
    moves = []
    while not game.is_over and rng.random() > 0.02:
        move = rng.choice(game.legal_moves())
        moves.append(move if move == "swap" else move.name)
        game.play(move)
    resign = None if game.is_over else game.to_move
    return hx.GameRecord.from_moves(game.rules, moves, resign=resign)


VARIANTS = [("hex", 5, 5, "sides"), ("hex", 4, 4, "pieces"), ("rex", 3, 5, "sides"), ("dark", 4, 3, None),
            ("dark-abrupt", 3, 3, None), ("hex", 1, 1, "off")]  # fmt: skip


@pytest.mark.parametrize(("variant", "rows", "cols", "swap"), VARIANTS)
@pytest.mark.parametrize("seed", range(8))
def test_json_and_sgf_round_trips(variant, rows, cols, swap, seed):
    """Every record survives JSON and SGF unchanged (seats, results, hits, swap form, end)."""
    record = random_record(variant, rows, cols, seed, swap)
    assert hx.GameRecord.from_json(record.to_json()) == record
    back = hx.GameRecord.from_sgf(record.to_sgf())
    assert back.rules == record.rules and back.actions == record.actions
    assert (back.winner, back.end_reason) == (record.winner, record.end_reason)


def test_sgf_is_written_the_way_hexgui_writes_it():
    """GM[11], SZ[cols:rows] for non-square boards, B for Red, swap moves named by what they do."""
    rect = hx.GameRecord.from_moves(hx.Rules("hex", 3, 5, "sides"), ["e1", "swap", "a1"])
    sgf = rect.to_sgf()
    assert sgf.startswith("(;FF[4]AP[hexengine:") and "GM[11]SZ[5:3]" in sgf
    assert ";B[e1];W[swap-sides];W[a1]" in sgf  # sides: board unchanged, Blue (the first mover) is next
    pieces = hx.GameRecord.from_moves(hx.Rules("hex", 3, 3, "pieces"), ["c2", "swap", "a1"])
    assert ";B[c2];W[swap-pieces];B[a1]" in pieces.to_sgf()
    assert pieces.actions[1].cell == hx.Cell.parse("b3")


def test_hexgui_files_load():
    """Files as HexGui writes them (line-wrapped, comments with escapes, variations, the
    old bare 'swap') load, main line only, with swap forms read by what they do; as HexGui
    itself does, files of HexGui 0.9 and older read 'swap-pieces' as 'swap-sides'."""
    hexgui = (
        "(;FF[4]AP[HexGui:0.10.GIT]GM[11]SZ[5]\n"
        ";B[c5];W[swap-pieces]C[a \\] comment];B[b2]\n(;W[a1])(;W[e5]))"
    )
    old_hexgui = hx.GameRecord.from_sgf("(;FF[4]AP[HexGui:0.9.GIT]GM[11]SZ[5];B[c5];W[swap-pieces];W[b2])")
    assert old_hexgui.rules.swap == "sides"
    assert [str(a) for a in old_hexgui.actions] == ["Red c5", "Blue swap (c5)", "Blue b2"]
    rec = hx.GameRecord.from_sgf(hexgui)
    assert rec.rules == hx.Rules("hex", 5, 5, "pieces")
    assert [str(a) for a in rec.actions] == ["Red c5", "Blue swap (e3)", "Red b2", "Blue a1"]
    assert rec.end_reason is None and rec.players["A"].name == "A"
    sides = hx.GameRecord.from_sgf("(;GM[11]SZ[4];B[b2];W[swap-sides];W[a1])")
    assert sides.rules.swap == "sides" and sides.seat_of(hx.RED) == "B"
    old = hx.GameRecord.from_sgf("(;GM[11]SZ[4]SW[sides];B[b2];W[swap];W[a1])")
    assert old.actions == sides.actions
    resigned = hx.GameRecord.from_sgf("(;GM[11]SZ[3]PB[Ann]PW[Bob];B[b2];W[resign])")
    assert resigned.winner is hx.RED and resigned.end_reason == "resignation"
    assert resigned.players == {"A": hx.PlayerInfo("Ann"), "B": hx.PlayerInfo("Bob")}
    timed = hx.GameRecord.from_sgf("(;GM[11]SZ[3]RE[B+Time];B[b2])")
    assert timed.end_reason == "timeout" and timed.winner is hx.RED
    rect = hx.GameRecord.from_sgf("(;GM[11]SZ[5:3];B[e3])")
    assert (rect.rules.rows, rect.rules.cols) == (3, 5)


@pytest.mark.parametrize(
    ("sgf", "needle"),
    [
        ("(;GM[1]SZ[5];B[a1])", "not a Hex game"),
        ("(;GM[11];B[a1])", "board size"),
        ("(;GM[11]SZ[x])", "board size"),
        ("(;GM[11]SZ[3];B[a1];W[a1])", "illegal"),
        ("(;GM[11]SZ[3];W[a1])", "out of turn"),
        ("(;GM[11]SZ[3];B[a5])", "illegal"),
        ("(;GM[11]SZ[3];B[a1]", "is closed"),
        ("(;GM[11]SZ[3];B[a1", "not closed"),
        ("GM[11]", "must start"),
        ("(;GM[11]SZ[3]AB[a1];W[b2])", "sets up stones"),
        ("(;GM[11]SZ[3]RU[dark]SW[sides])", "bad rules"),
        ("(;GM[11]SZ[3]RU[dark];B[a1];W[a1])", "HIT"),
        ("(;GM[11]SZ[3]SW[sides];B[a1];W[swap-pieces])", "swap form"),
        ("(;GM[11]SZ[2]RE[W+];B[a1];W[b1];B[a2])", "contradicts"),
        ("(;GM[11]SZ[3]RE[nonsense])", "cannot read result"),
        ("(;GM[11]SZ[3];B[a1];W[resign];B[b2])", "after a resignation"),
        ("(;GM[11]SZ[3];B[a1]W[b2])", "both"),
        ("(;GM[11]SZ[3];B[a1]BY[robot])", "BY"),
        ("(;GM[11]SZ[3];B[a1]AT[soon])", "AT"),
        ("(" + "x" * 1_000_001 + ")", "at most"),
    ],
)
def test_bad_sgf_gets_clear_errors(sgf, needle):
    """A malformed or rule-breaking SGF raises RecordError saying what is wrong; never a crash."""
    with pytest.raises(hx.RecordError, match=needle):
        hx.GameRecord.from_sgf(sgf)


@pytest.mark.parametrize(
    ("mutate", "needle"),
    [
        (lambda d: d.update(format="x"), "not a hexengine record"),
        (lambda d: d.update(version=9), "version"),
        (lambda d: d["actions"][0].update(cell="z99"), "action 1"),
        (lambda d: d["actions"][0].update(result="flipped"), "result"),
        (lambda d: d["actions"][0].update(color="green"), "colour"),
        (lambda d: d["actions"][1].update(result="placed"), "hit"),
        (lambda d: d["result"].update(winner="blue"), "winner"),
        (lambda d: d["result"].update(reason="draw"), "end reason"),
        (lambda d: d.update(players={"A": {"name": "x"}}), "seats A and B"),
        (lambda d: d["actions"][0].update(time="noon"), "seconds"),
    ],
)
def test_bad_json_records_get_clear_errors(mutate, needle):
    """A JSON record that is malformed or breaks a rule is refused with a RecordError."""
    data = hx.GameRecord.from_moves(hx.Rules("dark", 2, 2), ["a1", "a1", "b1", "a2"]).to_dict()
    mutate(data)
    with pytest.raises(hx.RecordError, match=needle):
        hx.GameRecord.from_dict(data)
    with pytest.raises(hx.RecordError, match="JSON"):
        hx.GameRecord.from_json("{nope")


@pytest.mark.parametrize("end", ["connection", "resignation", "timeout"])
def test_replay_shows_every_stone_whatever_the_end(end):
    """The replay steps through the referee's full board after every action."""
    moves = ["a1", "b1"] if end != "connection" else ["a1", "b1", "a2"]
    kwargs = {"resignation": {"resign": hx.BLUE}, "timeout": {"timeout": hx.RED}}.get(end, {})
    record = hx.GameRecord.from_moves(hx.Rules("dark", 2, 2), moves, **kwargs)
    assert record.end_reason == end
    steps = list(record.replay())
    assert steps[0][0] is None and not steps[0][1].any()
    assert [int((b != 0).sum()) for _, b in steps] == list(range(len(moves) + 1))
    assert steps[-1][1][0, 1] == 2  # Blue's b1: hidden from Red at the table, shown in the replay


def test_table_records_are_complete():
    """A table's record has settings, players, seats, who made each move, times and the end;
    its JSON and SGF carry them."""
    clock = hx.FakeClock(50.0)
    table = hx.Table(
        hx.TableSettings(variant="dark", size=3, time_limit=60),
        clock=clock,
        bots=lambda level, rules: hx.RandomBot(seed=1),
        table_id="tbl",
    )
    ann = table.sit("A", "Ann", player_id="ann-1")
    table.sit_computer("B", "hard")
    clock.advance(2.5)
    table.play(ann, "b2")
    table.resign(ann)
    record = table.records[0]
    data = json.loads(record.to_json())
    assert data["settings"]["time_limit"] == 60 and data["table"] == "tbl" and data["started_at"] == 50.0
    assert data["players"]["A"] == {"name": "Ann", "kind": "person", "level": None, "id": "ann-1"}
    assert data["players"]["B"]["kind"] == "computer" and data["players"]["B"]["id"] == "computer:hard"
    first = {"color": "red", "cell": "b2", "result": "placed", "seat": "A", "by": "person", "time": 2.5}
    assert data["actions"][0] == first
    assert data["actions"][1]["by"] == "computer" and data["actions"][1]["seat"] == "B"
    assert data["result"] == {"winner": "blue", "winner_seat": "B", "reason": "resignation", "time": 2.5,
                              "completed_chain": []}  # fmt: skip
    sgf = record.to_sgf()
    assert "PB[Ann]PW[Computer (hard)]RE[W+Resign]" in sgf and "BY[computer]" in sgf and "AT[2.5]" in sgf
    assert sgf.endswith(";B[resign])")
    assert hx.GameRecord.from_json(record.to_json()) == record
