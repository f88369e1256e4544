"""The table: settings, seats and modes, curtain, clock, leaving and coming back, resignation, series.

Every table here has a MessageChecker listening, so each test also proves that
no message it provokes shows its recipient a stone the rules hide.
"""

from __future__ import annotations

import hmac

import pytest
from _tablecheck import check_table, make, rnd_bots

import hexengine as hx
from hexengine.table import seats as seats_module
from hexengine.table import table as table_module


def types(table, recipient):
    return [m["type"] for m in table.poll(recipient)]


def last(table, recipient, kind):
    found = [m for m in table.poll(recipient) if m["type"] == kind]
    assert found, f"no {kind} message for {recipient}"
    return found[-1]


# ---------------------------------------------------------------- settings


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"variant": "dark", "swap": "sides"}, "not available in dark"),
        ({"variant": "dark-abrupt", "swap": "pieces"}, "not available"),
        ({"variant": "misere"}, "variant"),
        ({"rows": 0}, "rows"),
        ({"size": 20}, "19"),
        ({"rows": 5, "cols": 7, "swap": "pieces"}, "square"),
        ({"first": "C"}, "first"),
        ({"first": "alternate", "alternate": False}, "contradicts"),
        ({"time_limit": 0}, "time_limit"),
        ({"time_limit": float("nan")}, "time_limit"),
        ({"time_limit": "30"}, "time_limit"),
        ({"grace": -1}, "grace"),
        ({"takeover_level": "expert"}, "takeover_level"),
        ({"rated": "yes"}, "rated"),
        ({"alternate": 1}, "alternate"),
    ],
)
def test_invalid_settings_get_clear_errors(kwargs, needle):
    """Every impossible table setting raises RulesError naming the problem."""
    with pytest.raises(hx.RulesError, match=needle):
        hx.TableSettings(**kwargs)


def test_settings_defaults_sizes_and_round_trip():
    """Defaults follow docs/rules.md (11x11 Hex, swap sides, no time limit, alternating Red);
    any rows x cols works; settings survive to_dict/from_dict."""
    s = hx.TableSettings()
    assert s.rules == hx.Rules("hex", 11, 11, "sides")
    assert s.time_limit is None and s.alternate and s.first == "A" and not s.rated
    odd = hx.TableSettings(variant="dark-abrupt", rows=4, cols=3, time_limit=30, rated=True, first="B")
    assert odd.rules == hx.Rules("dark-abrupt", 4, 3, "off")
    assert hx.TableSettings.from_dict(odd.to_dict()) == odd
    with pytest.raises(hx.RulesError, match="unknown table setting"):
        hx.TableSettings.from_dict({"variant": "hex", "colour": "red"})


def test_who_plays_red_in_a_series():
    """first= picks game 1's Red; alternate flips it every game unless switched off."""
    assert [hx.TableSettings().red_seat(n) for n in (1, 2, 3)] == ["A", "B", "A"]
    assert [hx.TableSettings(first="B").red_seat(n) for n in (1, 2)] == ["B", "A"]
    assert [hx.TableSettings(first="alternate").red_seat(n) for n in (1, 2)] == ["A", "B"]
    assert [hx.TableSettings(first="B", alternate=False).red_seat(n) for n in (1, 2, 3)] == ["B", "B", "B"]


def test_rated_table_needs_a_ratings_store():
    """A rated table without a store is refused up front, not at the end of the game."""
    with pytest.raises(hx.TableError, match="ratings store") as e:
        hx.Table(hx.TableSettings(rated=True))
    assert e.value.code == "no-ratings"


# ---------------------------------------------------------------- seats and tokens


def test_seats_tokens_and_modes():
    """Tokens are long, random, distinct; a seat cannot be taken twice; the mode follows the seats."""
    table, _, _ = make(variant="hex", size=3)
    assert table.mode is None
    a = table.sit("A", "Ann")
    with pytest.raises(hx.TableError) as e:
        table.sit("A", "Bob")
    assert e.value.code == "seat-taken"
    with pytest.raises(hx.TableError) as e:
        table.sit("C", "Bob")
    assert e.value.code == "no-seat"
    for bad in ["", "   ", "x" * 65, 7]:
        with pytest.raises(hx.TableError):
            table.sit("B", bad)
    b = table.sit("B", "Bob")
    assert table.mode == "online" and len(a) >= 32 and a != b
    assert table.recipients == ["A", "B", "spectators"]

    t2, _, _ = make(variant="hex", size=3)
    t2.sit("A", "Ann")
    t2.sit_computer("B", "hard")
    assert t2.mode == "computer"
    with pytest.raises(hx.TableError):
        make(variant="hex")[0].sit_computer("A", "expert")

    t3, _, _ = make(variant="dark", size=3)
    t3.sit_together("Ann", "Bob")
    assert t3.mode == "one-device" and t3.recipients == ["device", "spectators"]


def test_a_client_can_only_act_for_its_own_seat():
    """A wrong, empty or other seat's token never moves; the referee is untouched."""
    table, _, _ = make(variant="hex", size=3)
    a, b = table.sit("A", "Ann"), table.sit("B", "Bob")
    for token in ["", "nope", a[:-1] + ("x" if a[-1] != "x" else "y"), None, 12, "x" * 10_000]:
        with pytest.raises(hx.TableError) as e:
            table.play(token, "b2")
        assert e.value.code == "bad-token"
    with pytest.raises(hx.TableError) as e:
        table.play(b, "b2")  # Red (A) is to move
    assert e.value.code == "not-your-turn"
    assert table.referee.history == []


def test_tokens_are_compared_in_constant_time(monkeypatch):
    """Every token check goes through hmac.compare_digest (on SHA-256 digests)."""
    calls = []
    real = hmac.compare_digest

    def spy(x, y):
        calls.append((len(x), len(y)))
        return real(x, y)

    monkeypatch.setattr(seats_module.hmac, "compare_digest", spy)
    table, _, _ = make(variant="hex", size=3)
    a = table.sit("A", "Ann")
    table.sit("B", "Bob")
    table.play(a, "a1")
    assert calls and all(n == (32, 32) for n in calls)


def test_token_rotation():
    """rotate_token gives a fresh token and retires the old one."""
    table, _, _ = make(variant="hex", size=3)
    a = table.sit("A", "Ann")
    table.sit("B", "Bob")
    new = table.rotate_token(a)
    assert new != a
    with pytest.raises(hx.TableError):
        table.play(a, "a1")
    table.play(new, "a1")


# ---------------------------------------------------------------- online play


def test_online_hex_game_to_the_end():
    """Two people on two devices: each gets your_turn, the other opponent_moved with the cell;
    the end names winner, reason and the completed chain; spectators see every stone."""
    table, _, chk = make(variant="hex", size=3, swap="off")
    a, b = table.sit("A", "Ann"), table.sit("B", "Bob")
    assert types(table, "A")[-2:] == ["game_started", "your_turn"]
    assert types(table, "B")[-2:] == ["game_started", "turn"]
    table.play(a, "b1", ply=0)
    assert [m["type"] for m in table.poll("A")] == ["moved", "turn"]
    opp = last(table, "B", "opponent_moved")
    assert opp["cell"] == "b1" and opp["board"][0] == [0, 1, 0]
    with pytest.raises(hx.TableError) as e:
        table.play(b, "a1", ply=0)  # a duplicate of an old position
    assert e.value.code == "stale"
    for token, move in [(b, "a1"), (a, "b2"), (b, "a2"), (a, "b3")]:
        table.play(token, move)
    over = last(table, "A", "game_over")
    assert over["winner"] == "red" and over["winner_seat"] == "A" and over["reason"] == "connection"
    assert over["completed_chain"] == ["b1", "b2", "b3"] and over["chain_owner"] == "red"
    assert "red edges" in over["text"] and "top" not in over["text"]
    spectators = table.poll("spectators")
    assert [m["cell"] for m in spectators if m["type"] == "action"] == ["b1", "a1", "b2", "a2", "b3"]
    with pytest.raises(hx.TableError) as e:
        table.play(b, "c3")
    assert e.value.code == "game-over"
    assert chk.checked > 20


def test_illegal_moves_change_nothing():
    """An occupied cell raises IllegalMove from the referee; no message, no record entry."""
    table, _, _ = make(variant="hex", size=3)
    a, b = table.sit("A", "Ann"), table.sit("B", "Bob")
    table.play(a, "b2")
    table.poll("A"), table.poll("B")
    with pytest.raises(hx.IllegalMove):
        table.play(b, "b2")
    with pytest.raises(hx.IllegalMove):
        table.play(b, "z9")
    assert table.poll("A") == [] and table.poll("B") == [] and len(table.record().actions) == 1


def test_online_dark_hex_messages_hide_the_opponent():
    """Dark Hex online: the opponent's cells never reach you; a hit tells the hitter the cell and
    the victim only that a stone was hit; spectators see no stone until the chain is complete,
    and then the full board is revealed to all."""
    table, _, chk = make(variant="dark", size=3)
    a, b = table.sit("A", "Ann"), table.sit("B", "Bob")
    table.play(a, "b2")
    opp = last(table, "B", "opponent_moved")
    assert opp["cell"] is None and opp["board"] == [[0] * 3] * 3 and opp["hidden_stones"] == 1
    assert table.play(b, "b2") is hx.MoveResult.HIT
    hit = last(table, "B", "you_hit")
    assert hit["cell"] == "b2" and hit["again"] is True and hit["board"][1][1] == 1
    victim = last(table, "A", "stone_hit")
    assert victim["cell"] is None and "one of your stones" in victim["text"]
    assert all(m.get("cell") is None for m in table.poll("spectators"))
    for token, move in [(b, "a1"), (a, "b1"), (b, "a2"), (a, "b3")]:
        table.play(token, move)
    assert table.referee.winner is hx.RED
    for r in ("A", "B", "spectators"):
        msgs = table.poll(r)
        assert [m["type"] for m in msgs][-2:] == ["game_over", "reveal"]
        assert msgs[-1]["board"] == [[int(x) for x in row] for row in table.referee.board]
    assert chk.checked > 30


def test_dark_resignation_reveals_nothing_but_the_replay_shows_everything():
    """After a resignation in Dark Hex each player keeps their own view and spectators still
    see nothing; the replay, on request, shows every stone."""
    table, _, _ = make(variant="dark-abrupt", size=3)
    a, b = table.sit("A", "Ann"), table.sit("B", "Bob")
    table.play(a, "b2")
    table.play(b, "a1")
    table.resign(b)  # out of turn: it is Red's move
    for r, expected in [("A", [[0, 0, 0], [0, 1, 0], [0, 0, 0]]), ("B", [[2, 0, 0], [0, 0, 0], [0, 0, 0]])]:
        over = last(table, r, "game_over")
        assert over["reason"] == "resignation" and over["revealed"] is False and over["board"] == expected
    assert last(table, "spectators", "game_over")["board"] == [[0] * 3] * 3
    replay = table.request_replay("spectators")
    assert replay["boards"][-1] == [[2, 0, 0], [0, 1, 0], [0, 0, 0]]
    assert [a["cell"] for a in replay["record"]["actions"]] == ["b2", "a1"]


def test_replay_only_after_a_game_ends():
    """No replay while the first game runs (it would show hidden stones)."""
    table, _, _ = make(variant="dark", size=3)
    table.sit("A", "Ann"), table.sit("B", "Bob")
    with pytest.raises(hx.TableError) as e:
        table.request_replay("A")
    assert e.value.code == "no-game"


def test_sides_swap_exchanges_the_peoples_colours():
    """With the sides swap Blue's person takes over the red stone: the table now seats them
    as Red, the first mover plays Blue and moves next, and the winner's seat follows."""
    table, _, _ = make(variant="hex", size=2, swap="sides")
    a, b = table.sit("A", "Ann"), table.sit("B", "Bob")
    table.play(a, "a1")
    assert table.play(b, "swap") is hx.MoveResult.SWAPPED
    assert table.seat_of(hx.RED) == "B" and table.color_of("A") is hx.BLUE
    msgs = {m["type"]: m for m in table.poll("A")}
    assert msgs["opponent_moved"]["result"] == "swapped"
    assert msgs["opponent_moved"]["colors"] == {"red": "B", "blue": "A"}
    assert msgs["your_turn"]["color"] == "blue"
    table.play(a, "b1")  # Ann, now Blue
    table.play(b, "a2")  # Bob, now Red: a1-a2 joins the red edges
    over = last(table, "B", "game_over")
    assert over["winner"] == "red" and over["winner_seat"] == "B"
    assert table.series["wins"] == {"A": 0, "B": 1}


def test_pieces_swap_keeps_the_colours():
    """With the pieces swap the stone is mirrored, colours stay with their people, Red moves next."""
    table, _, _ = make(variant="rex", size=3, swap="pieces")
    a, b = table.sit("A", "Ann"), table.sit("B", "Bob")
    table.play(a, "c1")
    table.play(b, "swap")
    assert table.seat_of(hx.RED) == "A"
    msgs = {m["type"]: m for m in table.poll("A")}
    assert msgs["opponent_moved"]["cell"] == "a3" and msgs["opponent_moved"]["board"][2][0] == 2
    assert msgs["your_turn"]["color"] == "red"


# ---------------------------------------------------------------- against the computer


def test_against_the_computer_moves_at_once_and_is_recorded():
    """The computer answers inside the person's call; the record marks its moves."""
    table, _, _ = make(variant="hex", size=3, swap="off", first="B")
    table.sit_computer("B", "medium")
    a = table.sit("A", "Ann")  # the computer (Red) has already moved when Ann sits
    assert len(table.record().actions) == 1
    while not table.referee.is_over:
        table.play(a, table.referee.legal_moves()[0])
    record = table.records[-1]
    assert {x.by for x in record.actions if x.seat == "B"} == {"computer"}
    assert {x.by for x in record.actions if x.seat == "A"} == {"person"}
    assert record.players["B"].kind == "computer" and record.players["B"].level == "medium"


def test_easy_computer_plays_with_swap_off():
    """docs/rules.md: the easy level plays with swap off; medium keeps the table's swap."""
    table, _, _ = make(variant="hex", size=5)
    table.sit("A", "Ann"), table.sit_computer("B", "easy")
    assert table.rules.swap == "off"
    t2, _, _ = make(variant="hex", size=5)
    t2.sit("A", "Ann"), t2.sit_computer("B", "medium")
    assert t2.rules.swap == "sides"


def test_computer_gets_only_its_view_and_can_run_in_a_worker():
    """With autoplay off the front end runs computer_turn() (a View and a bot, no table)
    and submits the move; a stale submission is refused. In Dark Hex the bot's view is its
    seat's view."""
    seen = []

    class Spy:
        def choose(self, view):
            seen.append(view)
            return view.legal_moves()[0]

    table, _, _ = make(autoplay=False, bots=lambda level, rules: Spy(), variant="dark", size=3)
    a = table.sit("A", "Ann")
    table.sit_computer("B", "hard")
    table.play(a, "b2")
    turn = table.computer_turn()
    assert turn is not None and turn.seat == "B" and turn.color is hx.BLUE
    assert isinstance(turn.view, hx.View) and turn.view.viewer is hx.BLUE
    assert not turn.view.board.any()  # Blue cannot see b2
    move = turn.run()
    assert table.submit(turn, move) is hx.MoveResult.PLACED
    with pytest.raises(hx.TableError) as e:
        table.submit(turn, move)
    assert e.value.code == "stale"
    assert seen and all(v.viewer is hx.BLUE for v in seen)
    assert table.computer_turn() is None  # Ann's move


@pytest.mark.real_bots
def test_the_real_computer_levels_play_whole_games():
    """With the default factory, seats of every variant are MCTSBot levels (in Dark
    Hex fed only the seat's view); computer-only tables finish their game."""
    for variant in ("hex", "rex", "dark", "dark-abrupt"):
        for level in ("easy", "medium", "hard"):
            assert isinstance(hx.table.computer_bot(level, hx.Rules(variant, 4, 4)), hx.MCTSBot)
        table, _, _ = make(bots=None, variant=variant, size=4)
        table.sit_computer("A", "medium")
        table.sit_computer("B", "easy")
        assert table.referee.is_over
        assert {a.by for a in table.records[-1].actions} == {"computer"}


def test_two_computers_play_a_whole_series_on_request():
    """A bot arena: two computer seats play to the end at once; rematch() without a token."""
    table, _, _ = make(variant="rex", size=4)
    table.sit_computer("A", "medium")
    table.sit_computer("B", "hard")
    assert table.referee.is_over and table.series["games"] == 1
    assert table.rematch() is True
    assert table.series["games"] == 2 and table.records[-1].red_seat == "B"


# ---------------------------------------------------------------- one device and the curtain


def test_one_device_hex_has_no_curtain():
    """Hot-seat Hex: nothing is hidden, so no curtain; the device gets your_turn for each side."""
    table, _, _ = make(variant="hex", size=3)
    dev = table.sit_together("Ann", "Bob")
    assert table.curtain is None
    table.play(dev, "a1")
    turn = last(table, "device", "your_turn")
    assert turn["seat"] == "B" and "swap" in turn["legal_moves"]
    table.play(dev, "b2")
    with pytest.raises(hx.TableError) as e:
        table.lift_curtain(dev)
    assert e.value.code == "no-curtain"


def test_one_device_dark_hex_curtain_at_every_hand_over():
    """Hot-seat Dark Hex: the curtain is up at the start and after every hand-over; while up
    no board is sent and nobody may move; the next player lifts it and sees only their view,
    with what happened since their last turn; a classic hit keeps the curtain down."""
    table, _, chk = make(variant="dark", size=3, time_limit=60)
    dev = table.sit_together("Ann", "Bob")
    assert table.curtain == {"up": True, "seat": "A"}
    with pytest.raises(hx.TableError) as e:
        table.play(dev, "b2")
    assert e.value.code == "curtain-up"
    assert table.deadline is None  # the clock waits for the curtain
    msgs = table.poll("device")
    assert all(m.get("board") is None for m in msgs) and msgs[-1]["type"] == "turn"
    snap = table.lift_curtain(dev)
    assert snap["you"]["seat"] == "A" and snap["state"]["legal_moves"]
    assert table.deadline == 1060.0
    table.play(dev, "b2")
    assert table.curtain == {"up": True, "seat": "B"}
    check_table(table)
    with pytest.raises(hx.TableError):
        table.lift_curtain(dev, "A")  # the curtain is Bob's to lift
    snap = table.lift_curtain(dev)
    assert snap["you"]["color"] == "blue" and snap["state"]["board"] == [[0] * 3] * 3
    assert [h["result"] for h in snap["state"]["since_last_turn"]] == ["placed"]
    assert table.play(dev, "b2") is hx.MoveResult.HIT
    assert table.curtain == {"up": False, "seat": "B"}  # classic: Bob moves again
    table.play(dev, "a1")
    assert table.curtain["up"]
    snap = table.lift_curtain(dev)
    assert snap["state"]["hits_received"] == 1
    assert [h["result"] for h in snap["state"]["since_last_turn"]] == ["hit", "placed"]
    assert all(h["cell"] is None for h in snap["state"]["since_last_turn"])
    assert chk.checked > 20


def test_abrupt_hit_hands_over_behind_the_curtain():
    """Dark Hex abrupt: a hit ends the turn, so the curtain goes up."""
    table, _, _ = make(variant="dark-abrupt", size=3)
    dev = table.sit_together("Ann", "Bob")
    table.lift_curtain(dev)
    table.play(dev, "b2")
    table.lift_curtain(dev)
    assert table.play(dev, "b2") is hx.MoveResult.HIT
    assert table.curtain == {"up": True, "seat": "A"}


def test_one_device_dark_end_by_resignation_and_by_connection():
    """After a resignation the curtain stays up and the device names whose board to show; a
    connection reveals the whole board, with the curtain down."""
    table, _, _ = make(variant="dark", size=2)
    dev = table.sit_together("Ann", "Bob")
    table.lift_curtain(dev)
    table.play(dev, "a1")
    table.resign(dev, "A")  # Ann resigns while Bob's curtain is up
    assert table.curtain == {"up": True, "seat": None}
    assert last(table, "device", "game_over")["board"] is None
    with pytest.raises(hx.TableError):
        table.lift_curtain(dev)
    snap = table.lift_curtain(dev, "B")
    assert snap["state"]["board"] == [[0, 0], [0, 0]]
    table.raise_curtain(dev)
    snap = table.lift_curtain(dev, "A")
    assert snap["state"]["board"] == [[1, 0], [0, 0]]

    t2, _, _ = make(variant="dark", size=2)
    dev = t2.sit_together("Ann", "Bob")
    for move in ["a1", "b1", "a2"]:
        t2.lift_curtain(dev)
        t2.play(dev, move)
    assert t2.curtain == {"up": False, "seat": None}
    msgs = t2.poll("device")
    assert [m["type"] for m in msgs][-2:] == ["game_over", "reveal"]
    assert msgs[-1]["board"] == [[1, 2], [1, 0]]


# ---------------------------------------------------------------- clock


def test_timeout_loses_and_late_moves_are_refused():
    """A decision gets time_limit seconds; the first call after the deadline ends the game
    by time-out, and the late move is refused."""
    table, clock, _ = make(variant="hex", size=3, time_limit=30)
    a, b = table.sit("A", "Ann"), table.sit("B", "Bob")
    assert table.deadline == 1030.0 and table.next_event_time() == 1030.0
    clock.advance(29)
    table.play(a, "a1")
    assert table.deadline == 1059.0  # Bob's decision gets its own 30 s
    clock.advance(30)
    with pytest.raises(hx.TableError) as e:
        table.play(b, "b1")
    assert e.value.code == "game-over"
    assert table.referee.end_reason == "timeout" and table.referee.winner is hx.RED
    over = last(table, "B", "game_over")
    assert over["reason"] == "timeout" and "ran out of time" in over["text"]


def test_tick_applies_the_timeout():
    """tick() is how a front end makes time-outs happen without a move."""
    table, clock, _ = make(variant="hex", size=3, time_limit=5)
    table.sit("A", "Ann"), table.sit("B", "Bob")
    clock.advance(4.9)
    table.tick()
    assert not table.referee.is_over
    clock.advance(0.1)
    table.tick()
    assert table.referee.end_reason == "timeout" and table.next_event_time() is None


def test_a_classic_hit_starts_a_new_decision():
    """In classic Dark Hex a hit gives the mover a fresh time limit for the extra move."""
    table, clock, _ = make(variant="dark", size=3, time_limit=10)
    a, b = table.sit("A", "Ann"), table.sit("B", "Bob")
    table.play(a, "b2")
    clock.advance(9)
    table.play(b, "b2")
    assert table.deadline == clock.now() + 10
    assert last(table, "B", "your_turn")["again"] is True


def test_no_time_limit_never_times_out():
    """Without a time limit nothing is ever due."""
    table, clock, _ = make(variant="hex", size=3)
    table.sit("A", "Ann"), table.sit("B", "Bob")
    clock.advance(10**9)
    table.tick()
    assert not table.referee.is_over and table.deadline is None


def test_real_clock_by_default():
    """Without a clock the table reads the wall clock."""
    table = hx.Table(hx.TableSettings(size=3, time_limit=30))
    table.sit("A", "Ann"), table.sit("B", "Bob")
    assert isinstance(table.clock, hx.SystemClock) and table.deadline > 1e9


# ---------------------------------------------------------------- leaving and coming back


def test_reconnect_within_grace_restores_the_seat_with_a_snapshot():
    """Leaving and coming back in time: the opponent hears of both, the returning client gets a
    full snapshot of its own view, and the computer never played."""
    table, clock, _ = make(variant="dark", size=3, grace=20)
    a, b = table.sit("A", "Ann"), table.sit("B", "Bob")
    table.play(a, "b2")
    table.disconnect(b)
    seat = last(table, "A", "seat")
    assert seat["seat"] == "B" and seat["connected"] is False and seat["computer_playing"] is False
    with pytest.raises(hx.TableError) as e:
        table.play(b, "a1")
    assert e.value.code == "disconnected"
    clock.advance(19)
    table.tick()
    snap = table.reconnect(b)
    assert snap["type"] == "snapshot" and snap["reason"] == "reconnect" and snap["you"]["seat"] == "B"
    assert snap["state"]["board"] == [[0] * 3] * 3 and snap["state"]["hidden_stones"] == 1
    assert [m["type"] for m in table.poll("B")] == ["snapshot", "your_turn"]
    assert len(table.record().actions) == 1


def test_after_the_grace_period_the_computer_plays_from_the_seats_view():
    """An absent person's seat is played by the computer after the grace period, from that
    seat's view only; the record says which moves the computer made for whom; the person
    takes over again on return."""
    views = []

    class Spy:
        def choose(self, view):
            views.append(view)
            return view.legal_moves()[-1]

    table, clock, _ = make(
        bots=lambda level, rules: Spy(), variant="dark", size=3, grace=10, takeover_level="easy"
    )
    a, b = table.sit("A", "Ann"), table.sit("B", "Bob")
    table.disconnect(a)
    clock.advance(10)
    table.tick()  # Ann was to move: the computer plays for her at once
    assert len(views) == 1 and views[0].viewer is hx.RED
    seat = last(table, "B", "seat")
    assert seat["seat"] == "A" and seat["computer_playing"] is True
    table.play(b, "a1")
    assert len(views) == 2 and views[1].viewer is hx.RED
    assert not (views[1].board == 2).any()  # it never saw Blue's stone
    snap = table.reconnect(a)
    assert snap["seats"]["A"]["computer_playing"] is False
    table.play(b, "a2")
    assert len(views) == 2 and table.computer_turn() is None  # Ann is back and to move
    record = table.record()
    assert [(x.seat, x.by) for x in record.actions] == [
        ("A", "computer"),
        ("B", "person"),
        ("A", "computer"),
        ("B", "person"),
    ]


def test_grace_zero_means_immediate_takeover_and_timeouts_still_apply():
    """grace=0: the computer takes over at once. With a time limit shorter than the grace
    period, an absent player to move loses on time first."""
    table, _, _ = make(variant="hex", size=3, grace=0)
    a = table.sit("A", "Ann")
    table.sit("B", "Bob")
    table.disconnect(a)
    assert len(table.record().actions) == 1 and table.record().actions[0].by == "computer"

    t2, clock, _ = make(variant="hex", size=3, grace=60, time_limit=30)
    a = t2.sit("A", "Ann")
    t2.sit("B", "Bob")
    t2.disconnect(a)
    clock.advance(100)
    t2.tick()
    assert t2.referee.end_reason == "timeout" and t2.referee.winner is hx.BLUE


def test_one_device_reconnect_raises_the_curtain():
    """A hot-seat device that comes back does not know who sits in front of it: curtain up."""
    table, _, _ = make(variant="dark", size=3)
    dev = table.sit_together("Ann", "Bob")
    table.lift_curtain(dev)
    table.disconnect(dev)
    snap = table.reconnect(dev)
    assert snap["curtain"]["up"] is True and snap["state"]["board"] is None


# ---------------------------------------------------------------- resignation and series


def test_resignation_any_time():
    """Either player may resign at any time, also out of turn; not after the end."""
    table, _, _ = make(variant="hex", size=3)
    a, b = table.sit("A", "Ann"), table.sit("B", "Bob")
    table.resign(b)  # Red to move; Blue resigns
    assert table.referee.winner is hx.RED and table.referee.end_reason == "resignation"
    with pytest.raises(hx.TableError) as e:
        table.resign(a)
    assert e.value.code == "game-over"


def test_rematch_keeps_seats_alternates_red_and_keeps_score():
    """A rematch starts when both ask; Red alternates; the series score carries over; the
    record of each game is kept."""
    table, _, _ = make(variant="hex", size=3)
    a, b = table.sit("A", "Ann"), table.sit("B", "Bob")
    with pytest.raises(hx.TableError) as e:
        table.rematch(a)
    assert e.value.code == "game-running"
    table.resign(b)
    assert table.rematch(a) is False
    assert last(table, "B", "rematch")["ready"] == {"A": True, "B": False}
    assert table.rematch(b) is True
    assert table.game_number == 2 and table.seat_of(hx.RED) == "B"
    started = last(table, "A", "game_started")
    assert started["state"]["colors"] == {"red": "B", "blue": "A"}
    table.resign(a)
    assert table.series == {"games": 2, "wins": {"A": 1, "B": 1}}
    assert [r.red_seat for r in table.records] == ["A", "B"]


def test_rematch_without_alternation_keeps_red():
    """alternate=False keeps the same seat on Red."""
    table, _, _ = make(variant="hex", size=3, first="B", alternate=False)
    dev = table.sit_together("Ann", "Bob")
    assert table.seat_of(hx.RED) == "B"
    table.resign(dev)
    assert table.rematch(dev) is True and table.seat_of(hx.RED) == "B"


# ---------------------------------------------------------------- snapshots, spectators, state


def test_spectators_join_any_time_and_see_what_the_rules_allow():
    """A late spectator's snapshot of a Hex game shows the board; of Dark Hex, no stone."""
    for variant, stones in [("hex", 1), ("dark", 0)]:
        table, _, _ = make(variant=variant, size=3)
        a = table.sit("A", "Ann")
        table.sit("B", "Bob")
        table.play(a, "a1")
        snap = table.spectate()
        assert snap["you"] is None
        assert sum(map(sum, snap["state"]["board"])) == stones
        assert snap["seq"] == table.snapshot("spectators")["seq"]


def test_state_survives_a_restart():
    """to_state / from_state: same position, colours, deadline, curtain, score and records;
    old tokens still work; clients can be marked absent after the restart."""
    table, clock, _ = make(variant="dark", size=3, time_limit=30, grace=5)
    dev = table.sit_together("Ann", "Bob")
    table.lift_curtain(dev)
    table.play(dev, "b2")
    table.lift_curtain(dev)
    state = table.to_state()
    import json

    state = json.loads(json.dumps(state))
    again = hx.Table.from_state(state, clock=clock, bots=rnd_bots)
    assert again.referee.history == table.referee.history
    assert again.deadline == table.deadline and again.curtain == table.curtain
    assert again.snapshot("device")["state"] == table.snapshot("device")["state"]
    again.play(dev, "a1")
    assert again.curtain["up"]

    absent = hx.Table.from_state(state, clock=clock, bots=rnd_bots, absent=True)
    clock.advance(5)
    absent.tick()
    assert absent.seats["A"]["computer_playing"] and absent.seats["B"]["computer_playing"]
    assert absent.referee.is_over  # the computer finished the game for both absent people
    with pytest.raises(hx.RecordError):
        hx.Table.from_state({"format": "nope"})


def test_refusals_name_the_problem():
    """Calls that make no sense now are refused with a TableError code, never a crash."""
    with pytest.raises(hx.TableError):
        hx.Table("hex")
    table, _, _ = make(variant="hex", size=3)
    a = table.sit("A", "Ann")
    for call, code in [
        (lambda: table.play(a, "a1"), "no-game"),
        (lambda: table.rematch(a), "no-game"),
        (lambda: table.poll("C"), "no-seat"),
        (lambda: table.snapshot("B"), "no-seat"),
        (lambda: table.request_replay("Z"), "no-seat"),
    ]:
        with pytest.raises(hx.TableError) as e:
            call()
        assert e.value.code == code
    assert table.spectate()["state"] is None and table.record() is None and table.rules is None
    b = table.sit("B", "Bob")
    with pytest.raises(hx.TableError) as e:
        table.resign(a, "B")
    assert e.value.code == "not-your-turn"
    table.resign(a)
    with pytest.raises(hx.TableError) as e:
        table.request_replay("A", 7)
    assert e.value.code == "no-game"
    with pytest.raises(hx.TableError):
        table.rematch()  # persons ask with their token
    assert table.rematch(b) is False
    assert repr(table) == "<Table t hex online: game 1, Blue wins by resignation>"


def test_a_bot_that_answers_illegally_is_replaced_by_a_random_move():
    """A broken bot cannot stall the table: an illegal answer becomes a random legal move."""

    class Broken:
        def choose(self, view):
            return "swap" if view.history else (0, 0)

    table, _, _ = make(bots=lambda level, rules: Broken(), variant="hex", size=3, swap="off")
    a = table.sit("A", "Ann")
    table.sit_computer("B", "medium")
    with pytest.warns(RuntimeWarning, match="random move"):
        table.play(a, "a1")  # the bot's swap is illegal with swap off
    assert len(table.record().actions) == 2 and table.record().actions[1].by == "computer"


def test_covering_the_board_pauses_but_does_not_reset_the_clock():
    """Raising the curtain mid-decision (or the device reconnecting) stops the clock; lifting
    it resumes with the time that was left, not a fresh limit."""
    table, clock, _ = make(variant="dark", size=3, time_limit=30)
    dev = table.sit_together("Ann", "Bob")
    table.lift_curtain(dev)
    clock.advance(20)
    table.raise_curtain(dev)
    assert table.deadline is None
    assert [m["type"] for m in table.poll("device")][-2:] == ["curtain", "clock"]
    assert table.snapshot("device")["state"]["clock"]["paused"] == 10
    clock.advance(500)
    table.tick()
    assert not table.referee.is_over
    table.lift_curtain(dev)
    assert table.deadline == clock.now() + 10
    clock.advance(5)
    table.disconnect(dev)
    table.reconnect(dev)
    assert table.curtain["up"] and table.deadline is None
    table.lift_curtain(dev)
    assert table.deadline == clock.now() + 5


def test_an_unread_stream_stays_bounded(monkeypatch):
    """A stream nobody polls keeps only the newest messages; the seq gap shows what was lost."""
    monkeypatch.setattr(table_module, "MAX_QUEUE", 5)
    table = hx.Table(hx.TableSettings(variant="hex", size=5), clock=hx.FakeClock())
    a, b = table.sit("A", "Ann"), table.sit("B", "Bob")
    for move_a, move_b in [("a1", "a2"), ("b1", "b2"), ("c1", "c2")]:
        table.play(a, move_a)
        table.play(b, move_b)
    msgs = table.poll("spectators")
    assert len(msgs) == 5 and [m["seq"] for m in msgs] == list(range(msgs[0]["seq"], msgs[0]["seq"] + 5))
    assert msgs[0]["seq"] > 1
