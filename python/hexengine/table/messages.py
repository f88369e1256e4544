"""Messages a table sends to its clients: built only from what each recipient may know.

Every message is a JSON-ready ``dict``; ``docs/messages.md`` is the full
schema for front-end developers. Each carries the envelope

``{"schema_version": 1, "type": ..., "seq": n, "to": recipient, "table": id, "game": number, "time": t}``

(see :mod:`hexengine.table.outbox`) where ``to`` is ``"A"``, ``"B"`` (a seat on
its own device), ``"device"`` (one device holding both seats) or ``"spectators"``,
and ``seq`` counts that recipient's messages from 1 without gaps. The payload of
every message comes from the recipient's :class:`Perspective`: their seat and
:class:`~hexengine.View` (``game.view(color)`` for a seat,
``game.spectator_view()`` for spectators and for a device whose curtain is up),
plus what the table itself makes public (seats, clocks, series, curtain). Two
messages show more, once a game has ended: ``reveal`` after a connection in Dark
Hex (when every view is full anyway) and ``replay``, the full record, sent on
request.

This module only shapes payloads; :class:`~hexengine.Table` decides who gets what.

>>> import hexengine as hx
>>> game = hx.Game("dark", size=3)
>>> _ = game.play("b2")
>>> board_rows(game.view(hx.BLUE))          # Blue cannot see Red's stone
[[0, 0, 0], [0, 0, 0], [0, 0, 0]]
>>> history_items(game.view(hx.BLUE), [("A", "person", 1.5)])
[{'n': 1, 'color': 'red', 'seat': 'A', 'cell': None, 'result': 'placed', 'by': 'person', 'time': 1.5}]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .._moves import SWAP, Move
from ..cells import Cell
from ..game import View
from ..records import GameRecord, SeatName
from ..rules import Color, MoveResult, Rules

if TYPE_CHECKING:
    from .running import Running

__all__ = [
    "SCHEMA_VERSION",
    "Perspective",
    "action",
    "board_rows",
    "cell_names",
    "color_name",
    "game_over",
    "game_state",
    "history_items",
    "move_choices",
    "perspective",
    "replay",
    "reveal",
    "rules_dict",
    "turn",
]

SCHEMA_VERSION = 1
"""Version of the message schema in ``docs/messages.md``; bumped on any incompatible change."""

ActionMeta = tuple[str, str, float | None]
"""Public facts the table adds to each action: (seat, ``"person"`` or ``"computer"``, time)."""


def color_name(color: Color | None) -> str | None:
    """``"red"``, ``"blue"`` or ``None``."""
    return None if color is None else color.name.lower()


def cell_names(cells: Sequence[Cell]) -> list[str]:
    """Cell names, e.g. ``['a1', 'b2']``."""
    return [c.name for c in cells]


def rules_dict(rules: Rules) -> dict[str, Any]:
    """``{"variant", "rows", "cols", "swap"}``."""
    return {"variant": rules.variant, "rows": rules.rows, "cols": rules.cols, "swap": rules.swap}


def board_rows(view: View) -> list[list[int]]:
    """The view's board as rows of 0 (empty or unknown), 1 (red), 2 (blue)."""
    return _rows(view.board)


def _rows(board: np.ndarray) -> list[list[int]]:
    return [[int(x) for x in row] for row in board]


def history_items(view: View, meta: Sequence[ActionMeta]) -> list[dict[str, Any]]:
    """The record as the viewer knows it (hidden cells are ``None``), with the table's public facts."""
    items = []
    for n, (action, (seat, by, t)) in enumerate(zip(view.history, meta, strict=True), start=1):
        items.append(
            {
                "n": n,
                "color": color_name(action.color),
                "seat": seat,
                "cell": None if action.cell is None else action.cell.name,
                "result": action.result.value,
                "by": by,
                "time": t,
            }
        )
    return items


def move_choices(moves: Sequence[Move]) -> dict[str, Any]:
    """``{"legal_moves": names, "swap_available": bool}`` of the recipient's decision."""
    return {
        "legal_moves": [m if m == SWAP else m.name for m in moves],  # type: ignore[union-attr]
        "swap_available": SWAP in moves,
    }


# ---------------------------------------------------------------- who knows what


@dataclass
class Perspective:
    """What one recipient knows now: the seat whose view they have (``None``: nobody's, as a
    spectator), that view, and whether they may see a board at all (not behind the curtain)."""

    seat: SeatName | None
    view: View
    shows_board: bool = True

    @property
    def board(self) -> list[list[int]] | None:
        """The recipient's board, ``None`` behind the curtain."""
        return board_rows(self.view) if self.shows_board else None


def perspective(recipient: str, run: Running) -> Perspective:
    """What ``recipient`` knows of the game under way. A device holding both seats sees the
    player to move, or in a game with a curtain what the curtain shows."""
    game, curtain = run.game, run.curtain
    if recipient in ("A", "B"):
        seat: SeatName = recipient  # type: ignore[assignment]
        return Perspective(seat, game.view(run.color_of(seat)))
    if recipient == "device":
        if curtain is not None:
            if curtain.up:
                return Perspective(None, game.spectator_view(), shows_board=False)
            if curtain.seat is None:
                return Perspective(None, game.spectator_view())
            return Perspective(curtain.seat, game.view(run.color_of(curtain.seat)))
        if game.is_over:
            return Perspective(None, game.spectator_view())
        return Perspective(run.seat_to_move, game.view(game.to_move))  # type: ignore[arg-type]
    return Perspective(None, game.spectator_view())


# ---------------------------------------------------------------- payloads


def game_state(p: Perspective, run: Running, clock: dict[str, Any], decides: bool) -> dict[str, Any]:
    """The state object: the game as ``p`` knows it; ``decides`` if the recipient makes the
    pending decision (only then are its legal moves listed)."""
    view = p.view
    history = history_items(view, run.meta)
    since: list[dict[str, Any]] = []
    if p.seat is not None:
        for item in reversed(history):
            if item["seat"] == p.seat:
                break
            since.append(item)
        since.reverse()
    return {
        "number": run.number,
        "rules": rules_dict(run.game.rules),
        "colors": run.colors_dict(),
        "red_at_start": run.red_at_start,
        "to_move": None if run.aborted else color_name(view.to_move),
        "to_move_seat": run.seat_to_move,
        "board": p.board,
        "history": history,
        "since_last_turn": since,
        "hidden_stones": view.hidden_enemy_stones,
        "hits_received": view.hits_received,
        "hits": cell_names(view.hits),
        **move_choices(view.legal_moves() if decides else []),
        "clock": clock,
        "over": view.is_over or run.aborted is not None,
        "result": _result(run) if view.is_over else _aborted(run),
        "takeback": run.takeback,
    }


def action(
    p: Perspective, run: Running, seat: SeatName, color: Color, result: MoveResult, by: str, again: bool
) -> tuple[str, dict[str, Any]]:
    """The type and payload telling ``p`` of the last action, made by ``seat`` (``color``):
    ``moved`` or ``you_hit`` to the mover, ``opponent_moved`` or ``stone_hit`` to the other
    seat, ``action`` to spectators and to a device behind the curtain."""
    last = p.view.history[-1]
    cell = None if last.cell is None else last.cell.name
    mine, seated, hit = p.seat == seat, p.seat is not None, result is MoveResult.HIT
    payload = {
        "n": len(run.meta),
        "color": color_name(color),
        "seat": seat,
        "by": by,
        "colors": run.colors_dict(),
        "board": p.board,
        "hidden_stones": p.view.hidden_enemy_stones,
        "cell": cell,
        "result": result.value,
    }
    if mine:
        kind = "you_hit" if hit else "moved"
        payload["again"] = again
    elif seated:
        kind = "stone_hit" if hit else "opponent_moved"
    else:
        kind = "action"
    payload["text"] = _action_text(color, result, cell, mine, seated, again)
    return kind, payload


def turn(
    p: Perspective, color: Color, seat: SeatName, again: bool, clock: dict[str, Any], decides: bool
) -> tuple[str, dict[str, Any]]:
    """``your_turn`` (with the legal moves) if the recipient ``decides``, else ``turn``."""
    base = {"color": color_name(color), "seat": seat, "again": again, "clock": clock}
    if decides:
        text = f"Your move: you play {color}" + (" (you hit a stone: move again)" if again else "")
        return "your_turn", {**base, **move_choices(p.view.legal_moves()), "text": text}
    return "turn", {**base, "text": f"{color} to move"}


def game_over(p: Perspective, run: Running, series: dict[str, Any]) -> dict[str, Any]:
    """The ``game_over`` payload for ``p``."""
    game = run.game
    winner = game.winner
    assert winner is not None
    result = _result(run)
    owner = None
    if result["completed_chain"]:
        owner = winner.opponent if game.rules.is_misere else winner
    return {
        **result,
        "chain_owner": color_name(owner),
        "revealed": run.revealed,
        "board": p.board,
        "series": series,
        "text": _over_text(winner, game.end_reason, game.rules.is_misere),  # type: ignore[arg-type]
    }


def reveal(p: Perspective, run: Running) -> dict[str, Any]:
    """The ``reveal`` payload: every stone and every cell, once a connection ended a Dark Hex game."""
    return {"board": board_rows(p.view), "history": history_items(p.view, run.meta)}


def replay(number: int, record: GameRecord) -> dict[str, Any]:
    """The ``replay`` payload: finished game ``number``'s record and the true board after every action."""
    boards = [_rows(board) for _, board in record.replay()]
    return {"number": number, "record": record.to_dict(), "boards": boards}


def _aborted(run: Running) -> dict[str, Any] | None:
    """The result object of an aborted game (no winner), or ``None`` for a game under way."""
    if run.aborted is None:
        return None
    return {"winner": None, "winner_seat": None, "reason": "aborted", "completed_chain": []}


def _result(run: Running) -> dict[str, Any]:
    game = run.game
    return {
        "winner": color_name(game.winner),
        "winner_seat": run.colors[game.winner],  # type: ignore[index]
        "reason": game.end_reason,
        "completed_chain": cell_names(game.completed_chain()),
    }


def _action_text(
    color: Color, result: MoveResult, cell: str | None, mine: bool, seated: bool, again: bool
) -> str:
    where = f" on {cell}" if cell else ""
    if result is MoveResult.SWAPPED:
        return f"{color} used the swap"
    if result is MoveResult.HIT:
        if mine:
            return f"You hit a hidden {color.opponent} stone{where}" + ("; move again" if again else "")
        if seated:
            return f"{color} hit one of your stones"
        return f"{color} hit a hidden stone"
    return ("You placed a stone" if mine else f"{color} placed a stone") + where


def _over_text(winner: Color, reason: str, misere: bool) -> str:
    if reason == "connection":
        if misere:
            loser = winner.opponent
            return f"{loser} joined their two {loser.name.lower()} edges and loses: {winner} wins"
        return f"{winner} joined their two {winner.name.lower()} edges and wins"
    if reason == "resignation":
        return f"{winner.opponent} resigned: {winner} wins"
    return f"{winner.opponent} ran out of time: {winner} wins"
