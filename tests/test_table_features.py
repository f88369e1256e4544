"""The table's later features and the bugs players met: the hit-again decision announced
again, due events applied by every call, names, clocks (Fischer and correspondence),
takebacks and aborts.

Every table here has a MessageChecker listening, so each test also proves that no
message it provokes shows its recipient a stone the rules hide.
"""

from __future__ import annotations

import inspect
import re

import pytest
from _tablecheck import MessageChecker

import hexengine as hx


def rnd_bots(level, rules):
    return hx.RandomBot(seed=7, swap=level != "easy")


def make(autoplay: bool = True, ratings=None, **settings):
    clock = hx.FakeClock(1000.0)
    checker = MessageChecker()
    table = hx.Table(
        hx.TableSettings(**settings),
        clock=clock,
        bots=rnd_bots,
        autoplay=autoplay,
        listener=checker,
        ratings=ratings,
        table_id="t",
    )
    checker.table = table
    return table, clock, checker


def of_type(messages, kind):
    return [m for m in messages if m["type"] == kind]


# ---------------------------------------------------------------- move again, announced again


def hit_on_one_device():
    table, _, _ = make(variant="dark", size=3)
    device = table.sit_together("Ann", "Bob")
    table.lift_curtain(device)
    table.play(device, "b2")
    table.lift_curtain(device)
    assert table.play(device, "b2") is hx.MoveResult.HIT
    table.poll("device")
    return table, device


def test_move_again_survives_the_curtain_raised_and_lifted():
    """After a hit in classic Dark Hex the mover moves again; raising and lifting the curtain
    announces that decision again, and it still says so."""
    table, device = hit_on_one_device()
    table.raise_curtain(device)
    table.lift_curtain(device)
    [turn] = of_type(table.poll("device"), "your_turn")
    assert turn["again"] is True and turn["text"].endswith("(you hit a stone: move again)")


def test_move_again_survives_a_reconnect():
    """A player who hit and then reconnects is told, again, that they move again."""
    table, _, _ = make(variant="dark", size=3)
    ann, bob = table.sit("A", "Ann"), table.sit("B", "Bob")
    table.play(ann, "b2")
    assert table.play(bob, "b2") is hx.MoveResult.HIT
    told = of_type(table.poll("A"), "turn")[-1]
    assert told["again"] is True
    table.disconnect(bob)
    table.reconnect(bob)
    [turn] = of_type(table.poll("B"), "your_turn")
    assert turn["again"] is True and "move again" in turn["text"]


def test_abrupt_hit_passes_the_turn_and_is_no_move_again():
    """In abrupt Dark Hex a hit ends the turn: the next decision is the opponent's, not again."""
    table, _, _ = make(variant="dark-abrupt", size=3)
    ann, bob = table.sit("A", "Ann"), table.sit("B", "Bob")
    table.play(ann, "b2")
    table.play(bob, "b2")
    table.disconnect(ann)
    table.reconnect(ann)
    [turn] = of_type(table.poll("A"), "your_turn")
    assert turn["again"] is False


# ---------------------------------------------------------------- due events, every call


def timed_out_online():
    table, clock, _ = make(variant="hex", size=3, time_limit=30)
    ann = table.sit("A", "Ann")
    table.sit("B", "Bob")
    table.poll("A")
    table.poll("spectators")
    clock.advance(31)
    return table, ann


@pytest.mark.parametrize(
    "call",
    [
        lambda t: t.snapshot("A")["state"]["over"],
        lambda t: any(m["type"] == "game_over" for m in t.poll("A")),
        lambda t: t.request_replay("A")["record"]["result"]["reason"] == "timeout",
        lambda t: t.computer_turn() is None and t.referee.is_over,
        lambda t: t.spectate()["state"]["over"],
        lambda t: t.record().end_reason == "timeout",
    ],
    ids=["snapshot", "poll", "request_replay", "computer_turn", "spectate", "record"],
)
def test_every_call_applies_a_passed_deadline_first(call):
    """A deadline that passed is applied by whatever call comes next, not only by tick()."""
    table, _ = timed_out_online()
    assert call(table)
    assert table.referee.end_reason == "timeout"


def test_computer_turn_after_a_takeover_is_due():
    """computer_turn() applies a takeover that became due: the absent person's seat is the
    computer's decision at once."""
    table, clock, _ = make(autoplay=False, variant="hex", size=3, grace=10)
    ann = table.sit("A", "Ann")
    table.sit("B", "Bob")
    table.disconnect(ann)
    assert table.computer_turn() is None
    clock.advance(11)
    turn = table.computer_turn()
    assert turn is not None and turn.seat == "A"


def test_every_public_table_method_applies_due_events():
    """One place wraps them all: every public method (but the read-only to_state)."""
    public = [
        name
        for name, value in vars(hx.Table).items()
        if not name.startswith("_") and inspect.isfunction(value) and name != "to_state"
    ]
    assert {"poll", "snapshot", "request_replay", "computer_turn", "play"} <= set(public)
    for name in public:
        assert getattr(getattr(hx.Table, name), "applies_due_events", False), name


# ---------------------------------------------------------------- names


@pytest.mark.parametrize(
    ("name", "needle"),
    [
        ("Ann\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("\x00Ann", "U+0000"),
        ("Ann\u2067x", "U+2067 RIGHT-TO-LEFT ISOLATE"),
        ("A\u200dnn", "U+200D ZERO WIDTH JOINER"),
        ("Ann\u2028Bob", "U+2028 LINE SEPARATOR"),
        ("  ", "1 to 64 characters"),
        ("x" * 65, "1 to 64 characters"),
        (None, "text"),
    ],
)
def test_names_may_not_hide_anything(name, needle):
    """Control, bidi and other invisible characters are refused with the character named."""
    table, _, _ = make(size=3)
    with pytest.raises(hx.TableError, match=re.escape(needle)) as refused:
        table.sit("A", name)
    assert refused.value.code == "bad-name"
    with pytest.raises(hx.TableError, match=re.escape(needle)):
        table.sit_together("Ann", name)


def test_names_are_trimmed_and_ids_checked_too():
    """Whitespace at both ends goes; a rating id with a hidden character is refused as well."""
    table, _, _ = make(size=3)
    table.sit("A", "  Ann \t")
    assert table.seats["A"]["name"] == "Ann"
    with pytest.raises(hx.TableError, match="U\\+202E"):
        table.sit("B", "Bob", player_id="bob\u202e")
