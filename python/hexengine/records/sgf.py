"""SGF as HexGui writes Hex games.

``(;FF[4]AP[...]GM[11]SZ[n]...;B[a1];W[swap-pieces];B[c3]...)``: ``SZ[n]`` for an
n x n board and ``SZ[cols:rows]`` otherwise (HexGui's width:height; letters
name columns). HexGui's Black is Red: it moves first and joins the rows. Swap
moves are named by what they do, as HexGui does: the ``sides`` form (board
unchanged, Blue moves next) is ``W[swap-sides]``, the ``pieces`` form (Red's
stone replaced by a Blue one on the mirrored cell, Red moves next) is
``W[swap-pieces]``. A resignation is a final ``B[resign]`` or ``W[resign]``
node. ``RE[B+]``, ``RE[W+Resign]``, ``RE[B+Time]`` give the result.

hexengine's extra properties (HexGui keeps unknown properties as they are):

- root ``RU[hex|rex|dark|dark-abrupt]``: the variant (SGF's rules property);
  absent means Hex.
- root ``SW[sides|pieces|off]``: the swap form; absent means the variant's default.
- root ``RS[A|B]``: the seat that played Red (Black) when the game started;
  ``PB`` and ``PW`` are the players who held Red and Blue at the start.
- move ``HIT[]``: Dark Hex: the cell held a hidden enemy stone; nothing was
  placed (in classic Dark Hex the same colour moves again).
- move ``BY[computer]``: the computer made this move (a computer seat, or the
  computer playing for an absent person).
- move ``AT[seconds]``: when the action was made, in seconds after the game started.

JSON keeps everything (player kinds, levels and rating ids, settings, table
id, times); SGF keeps what HexGui can show plus the extras above.

>>> import hexengine as hx
>>> record = hx.GameRecord.from_moves(hx.Rules("hex", 3, 3), ["b2", "swap", "a1"])
>>> write_sgf(record)
'(;FF[4]AP[hexengine:...]GM[11]SZ[3]RU[hex]SW[sides]RS[A]PB[A]PW[B];B[b2];W[swap-sides];W[a1])'
>>> read_sgf(write_sgf(record))["red_seat"]
'A'
"""

from __future__ import annotations

import re
from typing import Any

from .._moves import SWAP
from .._version import __version__
from ..errors import HexError, IllegalMove
from ..game import Game
from ..rules import BLUE, RED, Color, MoveResult, Rules
from .model import (
    MAX_RECORD_CHARS,
    SEATS,
    PlayerInfo,
    RecordedAction,
    RecordError,
    SeatName,
    other_seat,
    seconds_or_none,
)

__all__ = ["read_sgf", "write_sgf"]


def write_sgf(record: Any, *, comment: str | None = None) -> str:
    """The SGF text of a :class:`~hexengine.GameRecord` the way HexGui writes Hex games,
    plus hexengine's documented extras; ``comment`` becomes the root's ``C[...]``."""
    r = record.rules
    size = str(r.cols) if r.rows == r.cols else f"{r.cols}:{r.rows}"
    blue_seat = other_seat(record.red_seat)
    root = [
        ("FF", "4"), ("AP", f"hexengine:{__version__}"), ("GM", "11"), ("SZ", size),
        ("RU", r.variant), ("SW", r.swap or "off"), ("RS", record.red_seat),
        ("PB", record.players[record.red_seat].name), ("PW", record.players[blue_seat].name),
    ]  # fmt: skip
    if record.winner is not None:
        suffix = {"connection": "", "resignation": "Resign", "timeout": "Time"}[
            record.end_reason or "connection"
        ]
        root.append(("RE", f"{_sgf_color(record.winner)}+{suffix}"))
    if comment:
        root.append(("C", comment))
    nodes = ["".join(f"{k}[{_escape(v)}]" for k, v in root)]
    for action in record.actions:
        props = [(_sgf_color(action.color), _sgf_move(action, r))]
        if action.result is MoveResult.HIT:
            props.append(("HIT", ""))
        if action.by == "computer":
            props.append(("BY", "computer"))
        if action.time is not None:
            props.append(("AT", f"{action.time:.3f}".rstrip("0").rstrip(".")))
        nodes.append("".join(f"{k}[{_escape(v)}]" for k, v in props))
    if record.end_reason == "resignation" and record.winner is not None:
        nodes.append(f"{_sgf_color(record.winner.opponent)}[resign]")
    return "(;" + ";".join(nodes) + ")"


def read_sgf(text: str) -> dict[str, Any]:
    """The fields of a :class:`~hexengine.GameRecord` (``rules``, ``actions``, ``winner``,
    ``end_reason``, ``players``, ``red_seat``) from SGF written by HexGui or by
    :func:`write_sgf` (main line only); raises RecordError.

    ``swap`` is read as the game's own swap form; ``swap-sides`` and
    ``swap-pieces`` must match it (without ``SW[...]`` they set it).
    """
    if not isinstance(text, str) or len(text) > MAX_RECORD_CHARS:
        raise RecordError(f"SGF must be a string of at most {MAX_RECORD_CHARS} characters")
    nodes = _parse_sgf(text)
    root = nodes[0]
    if _one(root, "GM", "11") != "11":
        raise RecordError("not a Hex game: SGF GM must be 11")
    size = _one(root, "SZ", None)
    if size is None:
        raise RecordError("SGF has no board size (SZ)")
    m = re.fullmatch(r"\s*(\d{1,2})\s*(?::\s*(\d{1,2})\s*)?", size)
    if not m:
        raise RecordError(f"cannot read board size SZ[{size}]")
    cols = int(m.group(1))
    rows = int(m.group(2)) if m.group(2) else cols
    variant = _one(root, "RU", "hex")
    swap = _one(root, "SW", None)
    for k, node in enumerate(nodes):
        if {"AB", "AW", "AE"} & set(node):
            raise RecordError(
                f"SGF node {k} sets up stones (AB/AW/AE); only games played from the empty board load"
            )
    moves = [(k, node) for k, node in enumerate(nodes[1:], start=1) if "B" in node or "W" in node]
    # HexGui up to 0.9 (and Benzene) wrote "swap-pieces" for what the SGF standard and
    # later HexGui call "swap-sides": the board stays, White moves next. HexGui reads
    # those files that way; so does this.
    old_swap = re.fullmatch(r"HexGui:0\.[0-9](\D.*)?", _one(root, "AP", "")) is not None
    if old_swap:
        for _, node in moves:
            for c in ("B", "W"):
                if c in node and node[c] and node[c][0].strip().lower() == "swap-pieces":
                    node[c] = ["swap-sides"]
    if swap is None:
        named = {_one(node, c, "").strip().lower() for _, node in moves for c in ("B", "W") if c in node}
        if "swap-pieces" in named:
            swap = "pieces"
        elif "swap-sides" in named:
            swap = "sides"
    try:
        rules = Rules(variant, rows, cols, swap)  # type: ignore[arg-type]
    except HexError as e:
        raise RecordError(f"bad rules in SGF: {e}") from None
    red_seat = _one(root, "RS", "A")
    if red_seat not in SEATS:
        raise RecordError(f"RS must be A or B, not {red_seat!r}")
    blue_seat = other_seat(red_seat)  # type: ignore[arg-type]
    players = {
        red_seat: PlayerInfo(_one(root, "PB", red_seat)),
        blue_seat: PlayerInfo(_one(root, "PW", blue_seat)),
    }
    game = Game(rules)
    seats: dict[Color, SeatName] = {RED: red_seat, BLUE: blue_seat}  # type: ignore[dict-item]
    actions: list[RecordedAction] = []
    resigned: Color | None = None
    for k, node in moves:
        if "B" in node and "W" in node:
            raise RecordError(f"SGF node {k} has both a B and a W move")
        letter = "B" if "B" in node else "W"
        color = RED if letter == "B" else BLUE
        value = _one(node, letter, "").strip().lower()
        if resigned is not None:
            raise RecordError(f"SGF node {k} comes after a resignation")
        if value in ("resign", "forfeit"):
            resigned = color
            continue
        if game.to_move != color:
            raise RecordError(f"SGF node {k}: {color} moves out of turn ({game.status()})")
        if value in ("swap", "swap-sides", "swap-pieces"):
            if value != "swap" and value != f"swap-{rules.swap}":
                raise RecordError(f"SGF node {k}: {value} does not match the game's swap form {rules.swap!r}")
            move: str = SWAP
        else:
            move = value
        try:
            result = game.play(move)
        except IllegalMove as e:
            raise RecordError(f"SGF node {k} ({letter}[{value}]) is illegal: {e}") from None
        if (result is MoveResult.HIT) != ("HIT" in node):
            raise RecordError(f"SGF node {k} ({letter}[{value}]): HIT[] does not match the rules")
        by = _one(node, "BY", "person")
        if by not in ("person", "computer"):
            raise RecordError(f"SGF node {k}: BY must be person or computer, not {by!r}")
        cell = game.history[-1].cell
        assert cell is not None
        actions.append(
            RecordedAction(
                color, cell, result, seats[color], by, seconds_or_none(_one(node, "AT", None), "AT")
            )
        )  # type: ignore[arg-type]
        if result is MoveResult.SWAPPED and rules.swap == "sides":
            seats = {RED: seats[BLUE], BLUE: seats[RED]}
    winner, reason = game.winner, game.end_reason
    re_value = _one(root, "RE", None)
    rm = None if re_value is None else re.fullmatch(r"\s*([BW])\+\s*(\w*)\s*", re_value)
    if re_value is not None and rm is None:
        raise RecordError(f"cannot read result RE[{re_value}]")
    if rm is not None and game.is_over:
        if (RED if rm.group(1) == "B" else BLUE) != game.winner:
            raise RecordError(f"RE[{re_value}] contradicts the moves: {game.status()}")
    elif rm is not None:
        winner = RED if rm.group(1) == "B" else BLUE
        how = rm.group(2).lower()
        reason = "timeout" if how in ("t", "time", "forfeit", "f") else "resignation"
    elif resigned is not None:
        winner, reason = resigned.opponent, "resignation"
    return {
        "rules": rules, "actions": tuple(actions), "winner": winner, "end_reason": reason,
        "players": players, "red_seat": red_seat,
    }  # fmt: skip


def _sgf_color(color: Color) -> str:
    return "B" if color is RED else "W"


def _sgf_move(action: RecordedAction, rules: Rules) -> str:
    if action.result is MoveResult.SWAPPED:
        return f"swap-{rules.swap}"
    return action.cell.name


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


_Node = dict[str, list[str]]


def _one(node: _Node, key: str, default: Any) -> Any:
    values = node.get(key)
    return default if not values else values[0]


def _parse_sgf(text: str) -> list[_Node]:
    """The nodes of the main line of the first game tree in ``text``."""
    i, n = 0, len(text)

    def skip_space() -> None:
        nonlocal i
        while i < n and text[i].isspace():
            i += 1

    skip_space()
    if i >= n or text[i] != "(":
        raise RecordError("SGF must start with '('")
    i += 1
    nodes: list[_Node] = []
    depth = 1
    main_line = True
    while True:
        skip_space()
        if i >= n:
            raise RecordError("SGF ends before its game tree is closed")
        c = text[i]
        if c == ";":
            i += 1
            node: _Node = {}
            while True:
                skip_space()
                start = i
                while i < n and text[i].isalpha():
                    i += 1
                ident = text[start:i]
                if not ident:
                    break
                if not ident.isupper():
                    ident = "".join(ch for ch in ident if ch.isupper())
                skip_space()
                if i >= n or text[i] != "[":
                    raise RecordError(f"SGF property {ident} has no value")
                values = node.setdefault(ident, [])
                while i < n and text[i] == "[":
                    i += 1
                    out = []
                    while True:
                        if i >= n:
                            raise RecordError(f"SGF value of {ident} is not closed")
                        ch = text[i]
                        if ch == "\\" and i + 1 < n:
                            out.append(text[i + 1])
                            i += 2
                            continue
                        if ch == "]":
                            i += 1
                            break
                        out.append(ch)
                        i += 1
                    values.append("".join(out))
                    skip_space()
            if main_line:
                nodes.append(node)
        elif c == "(":
            depth += 1
            i += 1
        elif c == ")":
            depth -= 1
            i += 1
            main_line = False
            if depth == 0:
                break
        else:
            raise RecordError(f"unexpected {c!r} at position {i} of the SGF")
    if not nodes:
        raise RecordError("SGF game tree has no node")
    return nodes
