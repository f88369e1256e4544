"""Checks every websocket frame a client received against the rules, after the fact.

The table's own checker (tests/_tablecheck.py) compares a message with the
referee at the instant it is queued. Over the wire the test sees frames only
later, so this module rebuilds, for each frame, the position it was sent in:
the frames of one connection arrive in order and say how many actions of which
game they follow (``n`` in action messages, the history of a snapshot), and the
server's records give the true actions. A :class:`Position` stands in for the
table at that moment and :func:`_tablecheck.check_message` does the checking.
"""

from __future__ import annotations

from typing import Any

from _tablecheck import check_message, mentioned_cells

import hexengine as hx

SERVER_FRAMES = {"welcome", "ack", "error", "pong"}


def game_after(record: hx.GameRecord, n: int, over: bool) -> hx.Game:
    """The referee of ``record``'s game after its first ``n`` actions (and its end, if ``over``)."""
    game = hx.Game(record.rules)
    for action in record.actions[:n]:
        game.play("swap" if action.result is hx.MoveResult.SWAPPED else action.cell)
    if over and not game.is_over:
        loser = record.winner.opponent
        if record.end_reason == "resignation":
            game.resign(loser)
        else:
            game.timeout(loser)
    return game


class Position:
    """Duck-types what check_message reads of a table: the referee, colours, curtain, records."""

    def __init__(
        self,
        table_id: str,
        record: hx.GameRecord | None,
        n: int,
        over: bool,
        curtain: dict[str, Any] | None,
        finished: list[hx.GameRecord],
    ) -> None:
        self.id = table_id
        self.records = finished
        self.curtain = curtain
        self.referee = None if record is None else game_after(record, n, over)
        colors = {}
        if record is not None:
            other = "B" if record.red_seat == "A" else "A"
            colors = {hx.RED: record.red_seat, hx.BLUE: other}
            for action in record.actions[:n]:
                if action.result is hx.MoveResult.SWAPPED and record.rules.swap == "sides":
                    colors = {hx.RED: colors[hx.BLUE], hx.BLUE: colors[hx.RED]}
        self._colors = colors

    def color_of(self, seat: str) -> hx.Color:
        return hx.RED if self._colors[hx.RED] == seat else hx.BLUE

    def seat_of(self, color: hx.Color) -> str:
        return self._colors[color]


def check_connection(
    frames: list[dict[str, Any]],
    table_id: str,
    games: dict[int, hx.GameRecord],
    finished: list[hx.GameRecord],
    *,
    sent_cells: set[str] = frozenset(),  # type: ignore[assignment]
    dark_device: bool = False,
) -> int:
    """Checks the frames of one websocket connection, in order; returns how many were table messages."""
    recipient = None
    number, n, over = 0, 0, False
    curtain: dict[str, Any] | None = None
    earlier: list[dict[str, Any]] = []
    checked = 0
    for frame in frames:
        kind = frame.get("type")
        if kind in SERVER_FRAMES:
            assert "board" not in frame and "state" not in frame, f"a server frame carries a board: {frame}"
            named = mentioned_cells(frame, skip_keys=frozenset({"id", "token", "table"})) - set(sent_cells)
            assert not named, f"a server frame names cells the client never sent: {named} in {frame}"
            if kind == "welcome":
                recipient = frame["recipient"]
            continue
        if recipient is None:
            recipient = frame["to"]
        assert frame["to"] == recipient, f"a frame for {frame['to']} reached the client of {recipient}"
        if frame["game"] != number:
            number, n, over = frame["game"], 0, False
        state = frame.get("state") if kind in ("snapshot", "game_started") else None
        if kind in ("snapshot", "game_started"):
            n = 0 if state is None else len(state["history"])
            over = False if state is None else state["over"]
        if kind in ("moved", "you_hit", "opponent_moved", "stone_hit", "action"):
            n = frame["n"]
        if kind in ("game_over", "reveal"):
            over = True
        if dark_device:
            if kind == "snapshot":
                curtain = frame["curtain"]
            elif kind == "game_started":
                curtain = {"up": True, "seat": frame["state"]["red_at_start"]}
            elif kind == "curtain":
                curtain = {"up": frame["up"], "seat": frame["seat"]}
            elif kind == "game_over":
                curtain = {"up": frame["reason"] != "connection", "seat": None}
        record = games.get(number) if number else None
        position = Position(
            table_id, record, n, over, curtain, [r for r in finished if r.number <= max(number, 1)]
        )
        request_snapshot = kind == "snapshot" and frame["reason"] == "request"
        if request_snapshot:
            assert not earlier or frame["seq"] == earlier[-1]["seq"], (
                "a requested snapshot repeats the last seq"
            )
        check_message(position, recipient, frame, [] if request_snapshot else earlier)  # type: ignore[arg-type]
        if not request_snapshot:
            earlier.append(frame)
        checked += 1
    return checked


def names_in(frame: dict[str, Any]) -> set[str]:
    """Every cell name in a frame (legal moves included)."""
    return mentioned_cells(frame, skip_keys=frozenset())
