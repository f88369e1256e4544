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

What the reader also takes (``docs/records.md`` has the details):

- HexGui 0.9 and older (``AP[HexGui:0.9...]``) wrote ``swap-pieces`` for the
  ``sides`` swap; their files are read that way, as HexGui reads them.
- Little Golem's files (``SO[...littlegolem...]``, or an ``EV`` of its Hex
  events): the first player's moves are tagged ``W``, the second's ``B``;
  cells are two letters, column then row (``mf`` is m6); ``swap`` is the
  ``pieces`` swap (the players keep their colours); ``PB`` and ``RE[B]`` name
  the first player, who is Red here.
- Two-letter cells in any file (Go's style, which HexGui also reads).
- ``RE[?]``, ``RE[0]``, ``RE[Draw]``, ``RE[Void]`` and an empty ``RE``: no result.
- Set-up stones (``AB``, ``AW``, ``AE`` and ``PL``) before the first move:
  :func:`read_sgf_position` reads them; a game record refuses them, since it
  replays a game from the empty board.

>>> import hexengine as hx
>>> record = hx.GameRecord.from_moves(hx.Rules("hex", 3, 3), ["b2", "swap", "a1"])
>>> write_sgf(record)
'(;FF[4]AP[hexengine:...]GM[11]SZ[3]RU[hex]SW[sides]RS[A]PB[A]PW[B];B[b2];W[swap-sides];W[a1])'
>>> read_sgf(write_sgf(record))["red_seat"]
'A'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from .._moves import SWAP, cell_index
from .._version import __version__
from ..cells import Cell
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
from .position import Position

__all__ = ["SgfMove", "SgfPosition", "read_sgf", "read_sgf_position", "write_sgf"]


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
    ``end_reason``, ``players``, ``red_seat``) from SGF written by HexGui, by Little Golem
    or by :func:`write_sgf` (main line only); raises RecordError.

    ``swap`` is read as the game's own swap form; ``swap-sides`` and
    ``swap-pieces`` must match it (without ``SW[...]`` they set it). A game
    record starts from the empty board: set-up stones (``AB``, ``AW``, ``AE``)
    are refused here and read by :func:`read_sgf_position`.
    """
    sgf = _read_main_line(text)
    if sgf.setup_node is not None:
        raise RecordError(
            f"SGF node {sgf.setup_node} sets up stones (AB/AW/AE): a game record replays a game from "
            "the empty board; read_sgf_position() reads set-up positions (and 'loadsgf' in "
            "'hexengine htp' loads them)"
        )
    rules = sgf.rules
    red_seat = _one(sgf.root, "RS", "A")
    if red_seat not in SEATS:
        raise RecordError(f"RS must be A or B, not {red_seat!r}")
    blue_seat = other_seat(red_seat)  # type: ignore[arg-type]
    players = {
        red_seat: PlayerInfo(sgf.players[0] or red_seat),
        blue_seat: PlayerInfo(sgf.players[1] or blue_seat),
    }
    game = Game(rules)
    seats: dict[Color, SeatName] = {RED: red_seat, BLUE: blue_seat}  # type: ignore[dict-item]
    actions: list[RecordedAction] = []
    resigned: Color | None = None
    for move in sgf.moves:
        k, color, value, node = move.node, move.color, move.value, move.props
        if resigned is not None:
            raise RecordError(f"SGF node {k} comes after a resignation")
        if value in ("resign", "forfeit"):
            resigned = color
            continue
        if game.to_move != color:
            raise RecordError(f"SGF node {k}: {color} moves out of turn ({game.status()})")
        try:
            result = game.play(value)
        except IllegalMove as e:
            raise RecordError(f"SGF node {k} ({move.text}) is illegal: {e}") from None
        if (result is MoveResult.HIT) != ("HIT" in node):
            raise RecordError(f"SGF node {k} ({move.text}): HIT[] does not match the rules")
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
    result_of = sgf.result
    if result_of is not None and game.is_over:
        if result_of[0] != game.winner:
            raise RecordError(f"RE[{_one(sgf.root, 'RE', '')}] contradicts the moves: {game.status()}")
    elif result_of is not None:
        winner, how = result_of
        if resigned is not None and winner == resigned:
            raise RecordError(f"RE[{_one(sgf.root, 'RE', '')}] contradicts the moves: {winner} resigned")
        reason = "timeout" if how in ("t", "time", "forfeit", "f") else "resignation"
    elif resigned is not None:
        winner, reason = resigned.opponent, "resignation"
    return {
        "rules": rules, "actions": tuple(actions), "winner": winner, "end_reason": reason,
        "players": players, "red_seat": red_seat,
    }  # fmt: skip


@dataclass(frozen=True)
class SgfMove:
    """One move of an SGF main line: the node it is in, the colour, and the move as the
    referee takes it (a cell name, ``"swap"``, ``"resign"`` or ``"forfeit"``)."""

    node: int
    color: Color
    value: str
    text: str
    props: dict[str, list[str]] = field(repr=False, compare=False)


@dataclass(frozen=True)
class SgfPosition:
    """What an SGF file says, read without replaying it: the rules, the stones set up before
    the first move (``AB``, ``AW``, less ``AE``), the colour to move after them (``PL``, or
    Red unless Red has more stones), the moves of the main line and the players of Red and
    Blue. :meth:`position` gives the board after some of the moves."""

    rules: Rules
    setup: tuple[tuple[Color, Cell], ...]
    to_move: Color
    moves: tuple[SgfMove, ...]
    players: tuple[str | None, str | None]

    def position(self, moves: int | None = None) -> Position:
        """The :class:`~hexengine.records.Position` after the set-up stones and the first
        ``moves`` moves (all of them by default; a resignation ends them). A file with no
        set-up stones is replayed by the referee, so its swap is played as the rules say;
        after set-up stones each move places a stone and the other colour moves next (as
        GTP's ``play`` does), and a swap is refused."""
        chosen = self.moves if moves is None else self.moves[: max(0, moves)]
        chosen = tuple(m for m in _until_resignation(chosen))
        if not self.setup:
            game = Game(self.rules)
            for move in chosen:
                if game.to_move != move.color:
                    raise RecordError(
                        f"SGF node {move.node}: {move.color} moves out of turn ({game.status()})"
                    )
                try:
                    game.play(move.value)
                except IllegalMove as e:
                    raise RecordError(f"SGF node {move.node} ({move.text}) is illegal: {e}") from None
            if self.rules.is_dark:
                raise RecordError("a Dark Hex game has no position without hidden stones")
            return Position.from_game(game)
        position = Position.empty(self.rules, RED)
        for color, cell in self.setup:
            position = position.place(color, cell)
        position = position.with_to_move(self.to_move) if not position.is_over else position
        for move in chosen:
            if move.value in ("swap", "swap-sides", "swap-pieces"):
                raise RecordError(
                    f"SGF node {move.node}: a swap after set-up stones is not a move hexengine can play"
                )
            try:
                position = position.place(move.color, move.value)
            except IllegalMove as e:
                raise RecordError(f"SGF node {move.node} ({move.text}) is illegal: {e}") from None
        return position


def read_sgf_position(text: str) -> SgfPosition:
    """The rules, set-up stones, colour to move and moves of SGF ``text`` (HexGui's set-up
    properties ``AB``, ``AW``, ``AE`` and ``PL`` included), without replaying the moves;
    raises RecordError. Set-up stones count only before the first move.

    >>> puzzle = read_sgf_position("(;FF[4]GM[11]SZ[3];AB[a1][a2]PL[W];W[b2])")
    >>> [(str(c), cell.name) for c, cell in puzzle.setup], puzzle.to_move
    ([('Red', 'a1'), ('Red', 'a2')], <Color.BLUE: 2>)
    >>> puzzle.position().board.tolist()
    [[1, 0, 0], [1, 2, 0], [0, 0, 0]]
    """
    sgf = _read_main_line(text)
    return SgfPosition(sgf.rules, sgf.setup, sgf.to_move, sgf.moves, sgf.players)


@dataclass(frozen=True)
class _MainLine:
    root: dict[str, list[str]]
    rules: Rules
    moves: tuple[SgfMove, ...]
    setup: tuple[tuple[Color, Cell], ...]
    setup_node: int | None
    to_move: Color
    players: tuple[str | None, str | None]
    result: tuple[Color, str] | None


def _read_main_line(text: str) -> _MainLine:
    if not isinstance(text, str) or len(text) > MAX_RECORD_CHARS:
        raise RecordError(f"SGF must be a string of at most {MAX_RECORD_CHARS} characters")
    nodes = _parse_sgf(text)
    root = nodes[0]
    if _one(root, "GM", "11").strip() != "11":
        raise RecordError("not a Hex game: SGF GM must be 11")
    size = _one(root, "SZ", None)
    if size is None:
        raise RecordError("SGF has no board size (SZ)")
    m = re.fullmatch(r"\s*(\d{1,2})\s*(?::\s*(\d{1,2})\s*)?", size)
    if not m:
        raise RecordError(f"cannot read board size SZ[{size}]")
    cols = int(m.group(1))
    rows = int(m.group(2)) if m.group(2) else cols
    variant = _one(root, "RU", "hex").strip().lower()
    swap = _one(root, "SW", None)
    little_golem = _is_little_golem(root)
    setup_node, setup, to_move = _setup(nodes, rows, cols, little_golem)
    moves = []
    for k, node in enumerate(nodes[1:], start=1):
        if "B" in node and "W" in node:
            raise RecordError(f"SGF node {k} has both a B and a W move")
        for letter in ("B", "W"):
            if letter in node:
                raw = _one(node, letter, "").strip()
                color = RED if (letter == "B") != little_golem else BLUE
                value = _move_text(raw, little_golem)
                moves.append(SgfMove(k, color, value, f"{letter}[{raw}]", node))
    # HexGui up to 0.9 (and Benzene) wrote "swap-pieces" for what the SGF standard and
    # later HexGui call "swap-sides": the board stays, White moves next. HexGui reads
    # those files that way; so does this.
    if re.fullmatch(r"HexGui:0\.[0-9](\D.*)?", _one(root, "AP", "").strip()) is not None:
        moves = [replace(m, value="swap-sides") if m.value == "swap-pieces" else m for m in moves]
    named = {m.value for m in moves}
    if swap is None:
        if "swap-pieces" in named or (little_golem and "swap" in named):
            swap = "pieces"
        elif "swap-sides" in named:
            swap = "sides"
        elif little_golem:
            swap = "pieces"
    try:
        rules = Rules(variant, rows, cols, swap)  # type: ignore[arg-type]
    except HexError as e:
        raise RecordError(f"bad rules in SGF: {e}") from e
    for move in moves:
        if move.value in ("swap-sides", "swap-pieces") and move.value != f"swap-{rules.swap}":
            raise RecordError(
                f"SGF node {move.node}: {move.value} does not match the game's swap form {rules.swap!r}"
            )
    moves = [replace(m, value=SWAP) if m.value.startswith("swap") else m for m in moves]
    players = (_one(root, "PB", None), _one(root, "PW", None))
    return _MainLine(
        root, rules, tuple(moves), setup, setup_node, to_move, players, _result(_one(root, "RE", None))
    )


def _is_little_golem(root: dict[str, list[str]]) -> bool:
    """Little Golem's Hex files: ``SO[http://www.littlegolem.com]`` (or an ``EV`` of its Hex
    events, ``hex.ch...``, ``hex.mc...``)."""
    source = _one(root, "SO", "").lower()
    event = _one(root, "EV", "").strip().lower()
    return "littlegolem" in source or re.match(r"hex\.(ch|mc|in|wc)\.", event) is not None


def _move_text(raw: str, little_golem: bool) -> str:
    value = raw.strip().lower()
    if re.fullmatch(r"[a-s]{2}", value):  # column letter, row letter ("mf" is m6), as Go SGF
        return f"{value[0]}{ord(value[1]) - ord('a') + 1}"
    if little_golem and value == "swap":
        return "swap-pieces"
    return value


def _setup(
    nodes: list[dict[str, list[str]]], rows: int, cols: int, little_golem: bool
) -> tuple[int | None, tuple[tuple[Color, Cell], ...], Color]:
    """The stones set up before the first move, in order, and the colour to move after them."""
    stones: dict[Cell, Color] = {}
    first: int | None = None
    to_move: Color | None = None
    moved = False
    for k, node in enumerate(nodes):
        if "B" in node or "W" in node:
            moved = True
        keys = [key for key in ("AE", "AB", "AW") if key in node]
        if keys and moved:
            raise RecordError(
                f"SGF node {k} sets up stones (AB/AW/AE) after the moves began; hexengine reads "
                "set-up stones only before the first move"
            )
        for key in keys:
            first = k if first is None else first
            for value in node[key]:
                cell = _setup_cell(value, rows, cols, key, k)
                if key == "AE":
                    stones.pop(cell, None)
                else:
                    stones.pop(cell, None)
                    stones[cell] = RED if key == "AB" else BLUE
        if "PL" in node and not moved:
            player = _one(node, "PL", "").strip().upper()[:1]
            if player not in ("B", "W"):
                raise RecordError(f"SGF node {k}: PL must be B or W, not {_one(node, 'PL', '')!r}")
            to_move = RED if (player == "B") != little_golem else BLUE
    setup = tuple((color, cell) for cell, color in stones.items())
    if to_move is None:
        reds = sum(1 for color, _ in setup if color is RED)
        to_move = RED if reds <= len(setup) - reds else BLUE
    return first, setup, to_move


def _setup_cell(value: str, rows: int, cols: int, key: str, k: int) -> Cell:
    text = _move_text(value, False)
    try:
        index = cell_index(text, rows, cols)
    except HexError as e:
        raise RecordError(f"SGF node {k}: {key}[{value}] is not a cell of the board: {e}") from None
    return Cell.from_index(index, cols)


def _result(value: str | None) -> tuple[Color, str] | None:
    """The winner and how (``"resign"``, ``"time"``, ``""``...) of an ``RE`` value; ``None`` for
    no result (``RE[?]`` unknown, ``RE[0]`` or ``RE[Draw]``, ``RE[Void]``, empty)."""
    if value is None or value.strip().lower() in ("", "?", "0", "draw", "void"):
        return None
    m = re.fullmatch(r"\s*([BW])\s*(?:\+\s*(\w*)\s*)?", value, re.I)
    if m is None:
        raise RecordError(f"cannot read result RE[{value}]: expected B+, W+Resign, W+Time, B, ? or 0")
    return (RED if m.group(1).upper() == "B" else BLUE), (m.group(2) or "").lower()


def _until_resignation(moves: tuple[SgfMove, ...]) -> list[SgfMove]:
    out = []
    for move in moves:
        if move.value in ("resign", "forfeit"):
            break
        out.append(move)
    return out


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
