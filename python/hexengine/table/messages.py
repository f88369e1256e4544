"""Messages a table sends to its clients: built only from what each recipient may know.

Every message is a JSON-ready ``dict``; ``docs/messages.md`` is the full
schema for front-end developers. Each carries the envelope

``{"schema_version": 1, "type": ..., "seq": n, "to": recipient, "table": id, "game": number, "time": t}``

where ``to`` is ``"A"``, ``"B"`` (a seat on its own device), ``"device"``
(one device holding both seats) or ``"spectators"``, and ``seq`` counts that
recipient's messages from 1 without gaps. The payload of every message comes
from the recipient's :class:`~hexengine.View` (``game.view(color)`` for a
seat, ``game.spectator_view()`` for spectators and for a device whose curtain
is up), plus what the table itself makes public (seats, clocks, series,
curtain). Two messages show more, once a game has ended: ``reveal`` after a
connection in Dark Hex (when every view is full anyway) and ``replay``, the
full record, sent on request.

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
from typing import Any

from ..cells import Cell
from ..game import View
from ..rules import Color, Rules

__all__ = [
    "SCHEMA_VERSION",
    "board_rows",
    "cell_names",
    "color_name",
    "history_items",
    "rules_dict",
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
    return [[int(x) for x in row] for row in view.board]


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
