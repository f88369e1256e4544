"""Random table sessions: every message any client receives obeys the rules.

Hypothesis drives many sessions in every mode (online, against the computer,
one device, two computers) and variant, with disconnects, returns, grace
periods, time-outs, resignations, the curtain, rematches, snapshots,
replays, takebacks and aborts. A MessageChecker checks each message the instant it is queued against
the referee's true board and the recipient's view: no message to a seat, a
device or the spectators ever names or shows a stone its recipient may not know.
"""

from __future__ import annotations

import json

from _tablecheck import MessageChecker, check_message, check_table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hexengine as hx

KINDS = ["move"] * 10 + ["illegal", "resign", "disconnect", "reconnect", "wait", "wait", "tick"]
KINDS += ["lift", "lift", "raise", "rematch", "rematch", "spectate", "snapshot", "replay", "rotate"]
KINDS += ["takeback", "answer", "answer", "abort"]


@st.composite
def sessions(draw):
    variant = draw(st.sampled_from(["hex", "rex", "dark", "dark-abrupt"]))
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    swap = None
    if variant in ("hex", "rex"):
        swap = draw(st.sampled_from(["sides", "pieces", "off"]))
        if swap == "pieces" and rows != cols:
            swap = "sides"
    first = draw(st.sampled_from(["A", "B", "alternate"]))
    main_time = draw(st.sampled_from([None, None, 12.0]))
    settings_ = hx.TableSettings(
        variant=variant,
        rows=rows,
        cols=cols,
        swap=swap,
        first=first,
        alternate=True if first == "alternate" else draw(st.booleans()),
        time_limit=draw(st.sampled_from([None, 5.0, 30.0])),
        main_time=main_time,
        increment=draw(st.sampled_from([0.0, 2.0])) if main_time else 0.0,
        grace=draw(st.sampled_from([0.0, 4.0, 20.0])),
        takeover_level=draw(st.sampled_from(hx.table.LEVELS)),
    )
    mode = draw(st.sampled_from(["online", "computer-A", "computer-B", "one-device", "computers"]))
    level = draw(st.sampled_from(hx.table.LEVELS))
    autoplay = draw(st.booleans())
    ops = draw(
        st.lists(
            st.tuples(st.sampled_from(KINDS), st.integers(0, 10_000), st.sampled_from(["A", "B"])),
            min_size=15,
            max_size=60,
        )
    )
    return settings_, mode, level, autoplay, ops, draw(st.integers(0, 2**16))


def run_session(settings_, mode, level, autoplay, ops, seed):
    clock = hx.FakeClock(100.0)
    checker = MessageChecker()
    table = hx.Table(
        settings_,
        clock=clock,
        autoplay=autoplay,
        listener=checker,
        bots=lambda lvl, rules: hx.RandomBot(seed=seed, swap=lvl != "easy"),
    )
    checker.table = table
    tokens: dict[str, str] = {}
    if mode == "online":
        tokens["A"] = table.sit("A", "Ann")
        tokens["B"] = table.sit("B", "Bob")
    elif mode.startswith("computer-"):
        person = mode[-1]
        tokens[person] = table.sit(person, "Ann")
        table.sit_computer("B" if person == "A" else "A", level)
    elif mode == "one-device":
        tokens["A"] = tokens["B"] = table.sit_together("Ann", "Bob")
    else:
        table.sit_computer("A", level)
        table.sit_computer("B", "easy")
    check_table(table)

    for kind, k, seat in ops:
        game = table.referee
        before = len(game.history)
        try:
            if kind == "move":
                if not game.is_over:
                    mover = table.seat_of(game.to_move)
                    turn = table.computer_turn()
                    if turn is not None:
                        table.submit(turn, turn.run())
                    elif mover in tokens:
                        token = tokens[mover]
                        if table.curtain and table.curtain["up"]:
                            table.lift_curtain(token)
                        moves = game.legal_moves()
                        table.play(token, moves[k % len(moves)], ply=before)
            elif kind == "illegal":
                if seat in tokens and not game.is_over:
                    # Whatever is due (a time-out, a takeover's computer move) happens at the start of
                    # every table call; let it happen first, so that only the refusal is left to check.
                    table.tick()
                    game, before = table.referee, len(table.referee.history)
                    own = [c for c in game.view(table.color_of(seat)).board.flatten().nonzero()[0]]
                    target = int(own[k % len(own)]) if own else "swap"
                    try:
                        table.play(tokens[seat], target)
                    except hx.HexError:
                        assert len(table.referee.history) == before, "a refused move changed the game"
            elif kind == "resign":
                if seat in tokens:
                    table.resign(tokens[seat], seat if mode == "one-device" else None)
            elif kind == "disconnect":
                if seat in tokens:
                    table.disconnect(tokens[seat])
            elif kind == "reconnect":
                if seat in tokens:
                    snap = table.reconnect(tokens[seat])
                    assert snap["type"] == "snapshot" and snap["reason"] == "reconnect"
            elif kind == "wait":
                clock.advance([0.5, 3.0, 10.0, 31.0][k % 4])
                if k % 2:
                    table.tick()
            elif kind == "tick":
                table.tick()
            elif kind == "lift":
                if seat in tokens:
                    table.lift_curtain(tokens[seat], seat if game.is_over else None)
            elif kind == "raise":
                if seat in tokens:
                    table.raise_curtain(tokens[seat])
            elif kind == "rematch":
                table.rematch(tokens.get(seat)) if tokens else table.rematch()
            elif kind == "spectate":
                check_message(table, "spectators", table.spectate(), [])
            elif kind == "snapshot":
                for r in table.recipients:
                    check_message(table, r, table.snapshot(r), [])
            elif kind == "replay":
                table.request_replay(table.recipients[k % len(table.recipients)])
            elif kind == "takeback":
                if seat in tokens:
                    table.ask_takeback(tokens[seat])
            elif kind == "answer":
                if seat in tokens:
                    table.answer_takeback(tokens[seat], k % 3 != 0)
            elif kind == "abort":
                if seat in tokens:
                    table.abort(tokens[seat], seat if mode == "one-device" else None)
            elif kind == "rotate":
                if seat in tokens:
                    new = table.rotate_token(tokens[seat])
                    tokens = {s: (new if t == tokens[seat] else t) for s, t in tokens.items()}
        except hx.HexError:
            pass
        check_table(table)
        for r in table.recipients:
            table.poll(r)

    for record in table.records:
        assert hx.GameRecord.from_json(record.to_json()) == record
        back = hx.GameRecord.from_sgf(record.to_sgf())
        assert back.actions == record.actions and back.winner == record.winner
        assert record.winner_seat in ("A", "B")
    assert sum(table.series["wins"].values()) == table.series["games"] == len(table.records)
    again = hx.Table.from_state(json.loads(json.dumps(table.to_state())), clock=clock)
    for r in table.recipients:
        mine, theirs = table.snapshot(r), again.snapshot(r)
        for key in ("state", "seats", "series", "curtain", "you", "seq"):
            assert mine[key] == theirs[key], f"{key} differs after restoring the table"
    return checker.checked


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions())
def test_no_message_ever_shows_a_hidden_stone(session):
    """Over random sessions of every mode and variant, every message matches the rules and
    the recipient's knowledge (see tests/_tablecheck.py for the checks)."""
    run_session(*session)


def test_a_long_dark_session_checks_many_messages():
    """A fixed long session (one device, classic Dark Hex, disconnect and takeover) sends and
    checks hundreds of messages, so the property above is not vacuous."""
    ops = [("move", i * 7, "A") for i in range(30)] + [
        ("disconnect", 0, "A"),
        ("wait", 2, "A"),
        ("tick", 0, "A"),
    ]
    ops += [("reconnect", 0, "A"), ("rematch", 0, "A")] + [("move", i * 3, "A") for i in range(30)]
    settings_ = hx.TableSettings(variant="dark", size=4, time_limit=30, grace=4)
    assert run_session(settings_, "one-device", "medium", True, ops, 5) > 200


def test_the_checker_catches_a_leak(monkeypatch):
    """Sanity check of the oracle: a table that sent the true board would be caught at once."""
    import pytest

    from hexengine.table import messages as messages_module

    leaky = {}

    def true_board(view):
        return [[int(x) for x in row] for row in leaky["table"].referee.board]

    monkeypatch.setattr(messages_module, "board_rows", true_board)
    clock = hx.FakeClock()
    checker = MessageChecker()
    table = hx.Table(hx.TableSettings(variant="dark", size=3), clock=clock, listener=checker)
    checker.table = leaky["table"] = table
    a = table.sit("A", "Ann")
    table.sit("B", "Bob")
    with pytest.raises(AssertionError, match="not their view"):
        table.play(a, "b2")
