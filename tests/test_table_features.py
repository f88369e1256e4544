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
from _tablecheck import make, rnd_bots

import hexengine as hx


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


# ---------------------------------------------------------------- clocks: Fischer and correspondence


def clock_of(messages, kind="your_turn"):
    return of_type(messages, kind)[-1]["clock"]


def test_fischer_main_time_is_spent_and_the_increment_added():
    """Main time shrinks by the time each move took and grows by the increment when the turn
    passes; every turn message shows both players' main time left."""
    table, clock, _ = make(variant="hex", size=5, main_time=60, increment=5)
    ann, bob = table.sit("A", "Ann"), table.sit("B", "Bob")
    first = clock_of(table.poll("A"))
    assert first["main_left"] == {"A": 60.0, "B": 60.0} and first["deadline"] == 1060.0
    assert first["main_time"] == 60.0 and first["increment"] == 5.0 and first["limit"] is None
    clock.advance(20)
    table.play(ann, "a1")
    told = clock_of(table.poll("B"))
    assert told["main_left"] == {"A": 45.0, "B": 60.0} and told["deadline"] == 1080.0
    clock.advance(50)
    table.play(bob, "b1")
    assert clock_of(table.poll("A"))["main_left"] == {"A": 45.0, "B": 15.0}
    clock.advance(10)
    snap = table.snapshot("B")["state"]["clock"]
    assert snap["main_left"] == {"A": 35.0, "B": 15.0} and snap["remaining"] == 35.0


def test_running_out_of_main_time_loses():
    """The bank runs out before any per-move limit: the player to move loses on time."""
    table, clock, _ = make(variant="hex", size=5, main_time=30, increment=2, time_limit=60)
    ann = table.sit("A", "Ann")
    table.sit("B", "Bob")
    assert table.deadline == 1030.0  # the bank is shorter than the 60 s per move
    clock.advance(10)
    table.play(ann, "c3")
    assert table.deadline == 1040.0  # Bob: 30 s in the bank
    clock.advance(31)
    table.tick()
    assert table.referee.end_reason == "timeout" and table.referee.winner is hx.RED
    over = of_type(table.poll("A"), "game_over")[-1]
    assert over["reason"] == "timeout"


def test_the_per_move_limit_still_applies_with_main_time():
    """time_limit and main_time together: whichever runs out first decides."""
    table, clock, _ = make(variant="hex", size=5, main_time=600, time_limit=20)
    table.sit("A", "Ann")
    table.sit("B", "Bob")
    assert table.deadline == 1020.0
    clock.advance(21)
    table.tick()
    assert table.referee.end_reason == "timeout"


def test_a_hit_keeps_the_turn_and_earns_no_increment():
    """Classic Dark Hex: a hit is followed by the same player's next decision from the same
    bank; only when the turn passes is the increment added."""
    table, clock, _ = make(variant="dark", size=3, main_time=100, increment=10)
    ann, bob = table.sit("A", "Ann"), table.sit("B", "Bob")
    table.play(ann, "b2")
    clock.advance(30)
    assert table.play(bob, "b2") is hx.MoveResult.HIT
    assert clock_of(table.poll("B"))["main_left"]["B"] == 70.0
    clock.advance(5)
    table.play(bob, "a1")
    assert clock_of(table.poll("A"))["main_left"]["B"] == 75.0


def test_the_curtain_pauses_main_time():
    """One device, Dark Hex: raising the curtain stops the bank too; lifting resumes it."""
    table, clock, _ = make(variant="dark", size=3, main_time=100)
    device = table.sit_together("Ann", "Bob")
    clock.advance(50)  # the curtain is up: no clock runs
    table.lift_curtain(device)
    assert table.deadline == 1150.0
    clock.advance(10)
    table.raise_curtain(device)
    clock.advance(500)
    assert table.referee.is_over is False
    table.lift_curtain(device)
    assert table.deadline == 1650.0
    assert table.snapshot("device")["state"]["clock"]["main_left"]["A"] == 90.0


def test_main_time_survives_a_restart():
    """to_state keeps each seat's bank and the running clock: the rebuilt table goes on."""
    table, clock, _ = make(variant="hex", size=5, main_time=60, increment=3)
    ann = table.sit("A", "Ann")
    table.sit("B", "Bob")
    clock.advance(10)
    table.play(ann, "a1")
    clock.advance(4)
    again = hx.Table.from_state(table.to_state(), clock=clock, bots=rnd_bots)
    assert again.deadline == table.deadline == 1070.0
    assert again.snapshot("B")["state"]["clock"]["main_left"] == {"A": 53.0, "B": 56.0}


def test_correspondence_play_gives_days_and_no_takeover():
    """days_per_move: each decision gets that many days; a player who leaves is not replaced by
    the computer; running out of days loses."""
    table, clock, _ = make(variant="hex", size=5, days_per_move=2, grace=5)
    ann, bob = table.sit("A", "Ann"), table.sit("B", "Bob")
    assert clock_of(table.poll("A"))["days_per_move"] == 2.0
    assert table.deadline == 1000.0 + 2 * 86400
    table.play(ann, "c3")
    table.disconnect(bob)
    clock.advance(86400)
    assert table.computer_turn() is None and table.seats["B"]["computer_playing"] is False
    table.reconnect(bob)
    table.play(bob, "a1")
    table.disconnect(ann)
    clock.advance(2 * 86400 + 1)
    table.tick()
    assert table.referee.end_reason == "timeout" and table.seat_of(table.referee.winner) == "B"


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"main_time": 0}, "main_time"),
        ({"main_time": -5}, "main_time"),
        ({"main_time": float("inf")}, "main_time"),
        ({"increment": 5}, "set main_time too"),
        ({"main_time": 60, "increment": -1}, "increment"),
        ({"days_per_move": 0}, "days_per_move"),
        ({"days_per_move": 61}, "at most 60"),
        ({"days_per_move": 1, "time_limit": 30}, "cannot be combined"),
        ({"days_per_move": 1, "main_time": 30}, "cannot be combined"),
        ({"main_time": "5 min"}, "main_time"),
    ],
)
def test_bad_clock_settings_are_refused(kwargs, needle):
    with pytest.raises(hx.RulesError, match=re.escape(needle)):
        hx.TableSettings(**kwargs)


# ---------------------------------------------------------------- takebacks


def online_pair(**settings):
    table, clock, _checker = make(**{"variant": "hex", "size": 5, **settings})
    ann, bob = table.sit("A", "Ann"), table.sit("B", "Bob")
    return table, clock, ann, bob


def test_an_accepted_takeback_undoes_the_askers_move_and_the_reply():
    """Ann moves, Bob replies, Ann asks; Bob accepts: both moves are gone, Ann is to move again,
    and every recipient gets the new position as a snapshot."""
    table, _, ann, bob = online_pair()
    table.play(ann, "c3")
    table.play(bob, "b2")
    table.poll("B")
    assert table.ask_takeback(ann) is False
    asked = of_type(table.poll("B"), "takeback")[-1]
    assert asked["state"] == "asked" and asked["seat"] == "A"
    assert table.snapshot("B")["state"]["takeback"] == "A"
    table.answer_takeback(bob, True)
    assert table.referee.history == [] and table.seat_of(table.referee.to_move) == "A"
    got = table.poll("A")
    assert [m["state"] for m in of_type(got, "takeback")][-1] == "accepted"
    assert of_type(got, "takeback")[-1]["undone"] == 2
    snap = of_type(got, "snapshot")[-1]
    assert snap["reason"] == "takeback" and snap["state"]["history"] == []
    assert got[-1]["type"] == "your_turn"
    assert of_type(table.poll("spectators"), "snapshot")[-1]["state"]["board"] == [[0] * 5] * 5
    table.play(ann, "a1")
    assert [a.cell.name for a in table.referee.history] == ["a1"]


def test_a_declined_withdrawn_or_lapsed_takeback_changes_nothing():
    table, _, ann, bob = online_pair()
    table.play(ann, "c3")
    table.ask_takeback(ann)
    with pytest.raises(hx.TableError) as twice:
        table.ask_takeback(ann)
    assert twice.value.code == "takeback-pending"
    table.answer_takeback(bob, False)
    assert len(table.referee.history) == 1
    table.ask_takeback(ann)
    table.answer_takeback(ann, False)  # withdrawn
    table.ask_takeback(ann)
    table.play(bob, "b2")  # Bob plays on instead: the request lapses
    states = [m["state"] for m in of_type(table.poll("A"), "takeback")]
    assert states == ["asked", "declined", "asked", "withdrawn", "asked", "lapsed"]
    with pytest.raises(hx.TableError) as nothing:
        table.answer_takeback(bob, True)
    assert nothing.value.code == "no-takeback" and len(table.referee.history) == 2


def test_takebacks_are_refused_when_there_is_nothing_to_take_back():
    table, _, _ann, bob = online_pair()
    with pytest.raises(hx.TableError, match="no move to take back") as refused:
        table.ask_takeback(bob)
    assert refused.value.code == "no-takeback"
    with pytest.raises(hx.TableError, match="must be True or False"):
        table.answer_takeback(bob, "yes")


def test_dark_hex_has_no_takebacks():
    """A taken-back Dark Hex move would leave each player knowing what it showed them."""
    table, _, ann, bob = online_pair(variant="dark", size=3)
    table.play(ann, "b2")
    table.play(bob, "b2")  # a hit: Bob has found Ann's stone
    for token in (ann, bob):
        with pytest.raises(hx.TableError, match="Dark Hex has no takebacks") as refused:
            table.ask_takeback(token)
        assert refused.value.code == "no-takeback"
    assert len(table.referee.history) == 2


def test_the_computer_accepts_takebacks_only_at_unrated_tables():
    table, _, _ = make(variant="hex", size=5)
    ann = table.sit("A", "Ann")
    table.sit_computer("B", "easy")
    table.play(ann, "c3")  # the computer answers at once
    assert len(table.referee.history) == 2
    assert table.ask_takeback(ann) is True
    assert table.referee.history == [] and table.seat_of(table.referee.to_move) == "A"

    rated, _, _ = make(variant="hex", size=5, rated=True, ratings=hx.Ratings())
    ann = rated.sit("A", "Ann")
    rated.sit_computer("B", "easy")
    rated.play(ann, "c3")
    assert rated.ask_takeback(ann) is False and len(rated.referee.history) == 2
    assert of_type(rated.poll("A"), "takeback")[-1]["state"] == "declined"


def test_one_device_takes_back_the_last_move_at_once():
    table, _, _ = make(variant="hex", size=5)
    device = table.sit_together("Ann", "Bob")
    table.play(device, "c3")
    table.play(device, "b2")
    assert table.ask_takeback(device) is True
    assert [a.cell.name for a in table.referee.history] == ["c3"]


def test_taking_back_a_sides_swap_gives_the_colours_back():
    table, _, ann, bob = online_pair(swap="sides")
    table.play(ann, "c3")
    table.play(bob, "swap")
    assert table.seat_of(hx.RED) == "B"
    table.ask_takeback(bob)
    table.answer_takeback(ann, True)
    assert table.seat_of(hx.RED) == "A" and table.seat_of(table.referee.to_move) == "B"
    assert len(table.referee.history) == 1


def test_a_pending_takeback_survives_a_restart():
    table, clock, ann, bob = online_pair()
    table.play(ann, "c3")
    table.ask_takeback(ann)
    again = hx.Table.from_state(table.to_state(), clock=clock)
    again.answer_takeback(bob, True)
    assert again.referee.history == []


# ---------------------------------------------------------------- aborts


def test_abort_before_the_second_move_ends_the_game_without_a_result():
    """Either player may abort while fewer than two moves were played: no winner, no record,
    no score, no rating; a rematch starts the next game."""
    ratings = hx.Ratings()
    table, _, _ = make(variant="hex", size=5, rated=True, ratings=ratings, time_limit=30)
    ann, bob = table.sit("A", "Ann"), table.sit("B", "Bob")
    table.play(ann, "c3")
    table.abort(bob)
    msg = of_type(table.poll("A"), "aborted")[-1]
    assert msg["seat"] == "B" and "no result" in msg["text"]
    state = table.snapshot("A")["state"]
    assert state["over"] is True and state["result"]["reason"] == "aborted" and state["to_move"] is None
    assert state["result"]["winner"] is None and state["clock"]["deadline"] is None
    assert table.records == [] and table.series == {"games": 0, "wins": {"A": 0, "B": 0}}
    assert ratings.leaderboard() == [] and table.deadline is None
    with pytest.raises(hx.TableError) as over:
        table.play(bob, "b2")
    assert over.value.code == "game-over"
    assert table.rematch(ann) is False and table.rematch(bob) is True
    assert table.game_number == 2 and not table.referee.history


def test_abort_is_refused_after_the_second_move():
    table, _, ann, bob = online_pair()
    table.play(ann, "c3")
    table.play(bob, "b2")
    with pytest.raises(hx.TableError, match="resign instead") as refused:
        table.abort(ann)
    assert refused.value.code == "game-running" and not table.referee.is_over


def test_an_aborted_dark_game_reveals_nothing():
    """Aborting a one-device Dark Hex game after Red's first stone leaves the curtain up;
    spectators still see no stone."""
    table, _, _ = make(variant="dark", size=3)
    device = table.sit_together("Ann", "Bob")
    table.lift_curtain(device)
    table.play(device, "b2")
    table.abort(device, "B")
    assert table.curtain["up"] is True
    assert table.spectate()["state"]["board"] == [[0, 0, 0]] * 3
    assert table.to_state()["run"]["aborted"] == "B"


# ---------------------------------------------------------------- analysis


def test_dark_hex_analysis_sees_what_the_mover_knew():
    """A finished Dark Hex game is analysed from the view of the player to move at that point:
    Blue did not know Red's stone on b2, so b2 is among the moves the search weighs."""
    from hexengine.table.analysis import analyse_record

    record = hx.GameRecord.from_moves(hx.Rules("dark", 3, 3), ["b2", "a1", "b1", "c1", "b3"])
    answer = analyse_record(record, 1, simulations=400, top=9)
    assert answer["to_move"] == "blue" and "b2" in {m["cell"] for m in answer["top"]}
    with pytest.raises(hx.TableError, match="only after it ends") as hidden:
        analyse_record(record, 1, simulations=100, finished=False)
    assert hidden.value.code == "hidden"
    with pytest.raises(hx.TableError, match="no move to analyse"):
        analyse_record(record, 5, simulations=100)
