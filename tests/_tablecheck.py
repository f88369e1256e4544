"""The referee's side of the table tests: checks every message a table sends against the rules.

A :class:`MessageChecker` is a table listener. When a message is queued it
compares it, at that instant, with the referee's true board and the view the
recipient is entitled to, and fails loudly if the message shows anything more.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from typing import Any

import hexengine as hx

CELL = re.compile(r"(?<![A-Za-z0-9])([a-s])([1-9][0-9]?)(?![0-9])")


class MessageChecker:
    """Collects every message per recipient and checks each one as it is queued."""

    def __init__(self) -> None:
        self.table: hx.Table | None = None
        self.messages: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.checked = 0

    def __call__(self, recipient: str, message: dict[str, Any]) -> None:
        assert self.table is not None, "attach the checker: checker.table = table"
        check_message(self.table, recipient, message, self.messages[recipient])
        self.messages[recipient].append(message)
        self.checked += 1

    def types(self, recipient: str) -> list[str]:
        return [m["type"] for m in self.messages[recipient]]


def entitled_view(table: hx.Table, recipient: str) -> tuple[hx.View | None, bool]:
    """The view ``recipient`` may know now, and whether it may see a board at all."""
    game = table.referee
    if game is None:
        return None, True
    if recipient in ("A", "B"):
        return game.view(table.color_of(recipient)), True
    if recipient == "spectators":
        return game.spectator_view(), True
    assert recipient == "device"
    if game.rules.is_dark:
        curtain = table.curtain
        assert curtain is not None
        if curtain["up"]:
            return game.spectator_view(), False
        if curtain["seat"] is None:
            return game.spectator_view(), True
        return game.view(table.color_of(curtain["seat"])), True
    return game.view(game.to_move or hx.RED), True


def secret_cells(game: hx.Game, view: hx.View) -> set[str]:
    """Cells holding a stone the viewer cannot see."""
    truth, seen = game.board, view.board
    rows, cols = truth.shape
    return {
        hx.Cell(r, c).name
        for r in range(rows)
        for c in range(cols)
        if truth[r, c] != 0 and seen[r, c] != truth[r, c]
    }


def mentioned_cells(value: Any, *, skip_keys: frozenset[str] = frozenset({"legal_moves"})) -> set[str]:
    """Every cell name appearing anywhere in a message (keys in ``skip_keys`` aside)."""
    found: set[str] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            if k not in skip_keys and k not in ("table", "to", "settings"):
                found |= mentioned_cells(v, skip_keys=skip_keys)
    elif isinstance(value, list):
        for v in value:
            found |= mentioned_cells(v, skip_keys=skip_keys)
    elif isinstance(value, str):
        found |= {m.group(0) for m in CELL.finditer(value)}
    return found


def walk(value: Any, key: str) -> list[Any]:
    """Every value stored under ``key`` anywhere in a message."""
    out = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k == key:
                out.append(v)
            out.extend(walk(v, key))
    elif isinstance(value, list):
        for v in value:
            out.extend(walk(v, key))
    return out


def rows(view: hx.View) -> list[list[int]]:
    return [[int(x) for x in r] for r in view.board]


def check_message(
    table: hx.Table, recipient: str, msg: dict[str, Any], earlier: list[dict[str, Any]]
) -> None:
    """Fails if ``msg`` is malformed or shows ``recipient`` anything the rules hide from them."""
    assert json.loads(json.dumps(msg)) == msg, "messages are plain JSON"
    assert msg["schema_version"] == hx.table.SCHEMA_VERSION
    assert msg["to"] == recipient and msg["table"] == table.id
    expected_seq = earlier[-1]["seq"] + 1 if earlier else msg["seq"]
    assert msg["seq"] == expected_seq, (
        f"{recipient}: seq {msg['seq']} after {earlier[-1]['seq'] if earlier else None}"
    )
    if msg["type"] == "replay":
        finished = {r.number for r in table.records}
        assert msg["number"] in finished, "a replay shows every stone only after the game ended"
        return
    game = table.referee
    view, board_allowed = entitled_view(table, recipient)
    if game is None:
        assert not walk(msg, "board") or all(b is None for b in walk(msg, "board"))
        return
    assert view is not None
    secrets_ = secret_cells(game, view)
    leaked = mentioned_cells(msg) & secrets_
    assert not leaked, f"{msg['type']} to {recipient} names hidden stones {sorted(leaked)}: {msg}"
    for board in walk(msg, "board"):
        if board is None:
            continue
        assert board_allowed, f"{msg['type']} to {recipient} shows a board while the curtain is up"
        assert board == rows(view), f"{msg['type']} to {recipient} shows a board that is not their view"
    for history in walk(msg, "history"):
        mine = [(h["color"], h["cell"], h["result"]) for h in history]
        theirs = [
            (a.color.name.lower(), None if a.cell is None else a.cell.name, a.result.value)
            for a in view.history
        ]
        assert mine == theirs, f"history to {recipient} differs from their view"
    for moves in walk(msg, "legal_moves"):
        if moves:
            assert board_allowed
            assert moves == [m if m == "swap" else m.name for m in view.legal_moves()]
    for hidden in walk(msg, "hidden_stones"):
        assert hidden == view.hidden_enemy_stones
    if msg["type"] == "your_turn":
        seat = table.seat_of(game.to_move)
        assert recipient == seat or (recipient == "device" and board_allowed), "your_turn goes to the mover"
    if msg["type"] in ("game_over", "reveal"):
        assert game.is_over
    if msg["type"] == "game_over":
        assert msg["winner"] == game.winner.name.lower() and msg["reason"] == game.end_reason
        assert msg["revealed"] == (game.rules.is_dark and game.end_reason == "connection")
        if game.end_reason != "connection":
            assert msg["completed_chain"] == []


def check_table(table: hx.Table) -> None:
    """Invariants between operations: the curtain is up at every hand-over of a dark one-device game."""
    game = table.referee
    curtain = table.curtain
    if game is None or curtain is None:
        return
    if not game.is_over and not curtain["up"]:
        assert curtain["seat"] == table.seat_of(game.to_move), "the curtain is down for the wrong player"
    if game.is_over and game.end_reason == "connection":
        assert not curtain["up"]


def rnd_bots(level: str, rules: hx.Rules) -> hx.RandomBot:
    """Seeded random bots for computer seats (the easy one never swaps), so table tests are fast."""
    return hx.RandomBot(seed=7, swap=level != "easy")


def make(autoplay: bool = True, bots: Any = rnd_bots, ratings: Any = None, **settings: Any):
    """A table with a fake clock at 1000 s and a :class:`MessageChecker` attached:
    ``(table, clock, checker)``."""
    clock = hx.FakeClock(1000.0)
    checker = MessageChecker()
    table = hx.Table(
        hx.TableSettings(**settings),
        clock=clock,
        bots=bots,
        autoplay=autoplay,
        listener=checker,
        ratings=ratings,
        table_id="t",
    )
    checker.table = table
    return table, clock, checker
