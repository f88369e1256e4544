"""The record of one game: every action, who made it and when, how it ended; as JSON, and its replay.

A :class:`GameRecord` holds the rules, the players of both seats, every action
with its colour, cell, result (placed, hit, swapped), time and whether a person
or the computer made it, and how the game ended. ``record.game()`` rebuilds the
referee by replaying it (so a record that breaks a rule cannot be loaded) and
``record.replay()`` steps through the full board after every action, whatever
the end reason.

>>> import hexengine as hx
>>> record = hx.GameRecord.from_moves(hx.Rules("dark", 2, 2), ["a1", "a1", "b1", "a2"])
>>> [str(a) for a in record.actions]
['Red a1', 'Blue a1 hit', 'Blue b1', 'Red a2']
>>> record.winner, record.end_reason
(<Color.RED: 1>, 'connection')
>>> print(record.to_sgf())
(;FF[4]AP[hexengine:...]GM[11]SZ[2]RU[dark]SW[off]RS[A]PB[A]PW[B]RE[B+];B[a1];W[a1]HIT[];W[b1];B[a2])
>>> hx.GameRecord.from_sgf(record.to_sgf()) == record
True
>>> [int(board.sum()) for _, board in record.replay()]     # stones on the true board
[0, 1, 1, 3, 4]
"""

from __future__ import annotations

import codecs
import json
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._moves import SWAP
from ..cells import Cell
from ..errors import HexError, IllegalMove
from ..game import Game
from ..rules import BLUE, RED, Color, EndReason, MoveResult, Rules, SwapForm, Variant
from ..svg import Picture
from .model import (
    MAX_RECORD_CHARS,
    SEATS,
    MissingRecordFile,
    PlayerInfo,
    RecordedAction,
    RecordError,
    SeatName,
    other_seat,
    seconds_or_none,
)
from .sgf import read_sgf, write_sgf
from .trmph import trmph_moves, write_trmph

__all__ = ["RECORD_FORMAT", "GameRecord", "load_text", "read_game", "read_record", "read_trmph"]

RECORD_FORMAT = "hexengine.record"
RECORD_VERSION = 1


@dataclass(frozen=True, eq=True)
class GameRecord:
    """The full record of one game at a table (or of a game read from a file)."""

    rules: Rules
    actions: tuple[RecordedAction, ...]
    winner: Color | None
    end_reason: EndReason | None
    players: dict[str, PlayerInfo] = field(
        default_factory=lambda: {"A": PlayerInfo("A"), "B": PlayerInfo("B")}
    )
    red_seat: SeatName = "A"
    number: int = 1
    end_time: float | None = None
    started_at: float | None = None
    table: str | None = None
    settings: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        if set(self.players) != set(SEATS) or not all(
            isinstance(p, PlayerInfo) for p in self.players.values()
        ):
            raise RecordError("a record names the players of seats A and B as PlayerInfo")
        if self.red_seat not in SEATS:
            raise RecordError(f"red_seat must be 'A' or 'B', not {self.red_seat!r}")
        # Replaying validates every action against the rules; a bad record never loads.
        self.game()

    def __hash__(self) -> int:
        return hash((self.rules, self.actions, self.winner, self.end_reason, self.number, self.table))

    # ----------------------------------------------------------------- building

    @classmethod
    def from_moves(
        cls,
        rules: Rules,
        moves: Iterable[str | tuple[int, int] | int],
        *,
        resign: Color | None = None,
        timeout: Color | None = None,
        players: tuple[str, str] | None = None,
        red_seat: SeatName = "A",
    ) -> GameRecord:
        """A record of ``moves`` played by two people in seats A and B, ``red_seat`` moving
        first (default A); results (hit, swap) come from the referee. ``resign`` or
        ``timeout`` ends it that way; ``players`` names the people of seats A and B."""
        if red_seat not in SEATS:
            raise RecordError(f"red_seat must be 'A' or 'B', not {red_seat!r}")
        game = Game(rules)
        seats = {RED: red_seat, BLUE: other_seat(red_seat)}
        actions = []
        for move in moves:
            color = game.to_move
            if color is None:
                raise RecordError(f"move {move!r} comes after the end of the game")
            result = game.play(move)  # type: ignore[arg-type]
            cell = game.history[-1].cell
            assert cell is not None
            actions.append(RecordedAction(color, cell, result, seats[color]))  # type: ignore[arg-type]
            if result is MoveResult.SWAPPED and rules.swap == "sides":
                seats = {RED: seats[BLUE], BLUE: seats[RED]}
        if resign is not None:
            game.resign(resign)
        elif timeout is not None:
            game.timeout(timeout)
        names = {"A": PlayerInfo("A"), "B": PlayerInfo("B")}
        if players is not None:
            names = {"A": PlayerInfo(players[0]), "B": PlayerInfo(players[1])}
        return cls(rules, tuple(actions), game.winner, game.end_reason, names, red_seat)

    @classmethod
    def from_game(
        cls, game: Game, *, players: tuple[str, str] | None = None, red_seat: SeatName = "A"
    ) -> GameRecord:
        """The record of ``game`` so far, finished or not (including a resignation or
        time-out); ``players`` names the players of seats A and B, ``red_seat`` the seat
        that moved first.

        >>> game = hx.Game("rex", size=3)
        >>> _ = game.play("b2"); game.resign(hx.BLUE)
        >>> hx.GameRecord.from_game(game, players=("Ann", "Bob")).to_sgf()
        '(;FF[4]AP[hexengine:...]GM[11]SZ[3]RU[rex]SW[sides]RS[A]PB[Ann]PW[Bob]RE[B+Resign];B[b2];W[resign])'
        """
        if not isinstance(game, Game):
            raise TypeError(f"from_game() takes a hexengine Game, not {type(game).__name__}")
        moves = [SWAP if a.result is MoveResult.SWAPPED else a.cell for a in game.history]
        loser = None if game.winner is None else game.winner.opponent
        return cls.from_moves(
            game.rules,
            moves,  # type: ignore[arg-type]
            resign=loser if game.end_reason == "resignation" else None,
            timeout=loser if game.end_reason == "timeout" else None,
            players=players,
            red_seat=red_seat,
        )

    @classmethod
    def parse(cls, text: str) -> GameRecord:
        """A record from SGF, hexengine's JSON or trmph text, whichever ``text`` is
        (trmph is read as Hex with the ``sides`` swap)."""
        if not isinstance(text, str):
            raise RecordError(f"a record must be text, not {type(text).__name__}")
        head = text.lstrip()[:1]
        if head == "(":
            return cls.from_sgf(text)
        if head == "{":
            return cls.from_json(text)
        return cls.from_trmph(text)

    @classmethod
    def from_trmph(cls, text: str, variant: Variant = "hex", swap: SwapForm | None = None) -> GameRecord:
        """A record from a trmph link (see :func:`hexengine.read_trmph`)."""
        rules, moves = trmph_moves(text, variant, swap)
        try:
            return cls.from_moves(rules, moves)
        except HexError as e:
            raise RecordError(f"trmph record is not a legal game: {e}") from None

    def to_trmph(self, *, link: bool = True) -> str:
        """The moves as a trmph link (see :func:`hexengine.write_trmph`)."""
        return write_trmph(self, link=link)

    # ----------------------------------------------------------------- replay

    def game(self) -> Game:
        """The referee after replaying the whole record (including a resignation or time-out)."""
        game = Game(self.rules)
        for k, action in enumerate(self.actions, start=1):
            if game.to_move != action.color:
                raise RecordError(f"action {k} ({action}) is out of turn: {game.status()}")
            try:
                result = game.play(SWAP if action.result is MoveResult.SWAPPED else action.cell)
            except IllegalMove as e:
                raise RecordError(f"action {k} ({action}) is illegal: {e}") from None
            if result is not action.result or (
                result is MoveResult.SWAPPED and game.history[-1].cell != action.cell
            ):
                raise RecordError(
                    f"action {k} ({action}) was recorded as {action.result.value}, "
                    f"but the rules make it {result.value}"
                )
        if self.end_reason in ("resignation", "timeout"):
            if game.is_over or self.winner is None:
                raise RecordError(f"a {self.end_reason} needs a running game and a winner")
            if self.end_reason == "resignation":
                game.resign(self.winner.opponent)
            else:
                if game.to_move != self.winner.opponent:
                    raise RecordError(f"{self.winner.opponent} cannot lose on time: it is not their turn")
                game.timeout(self.winner.opponent)
        elif self.end_reason == "connection" and not game.is_over:
            raise RecordError("the record says the game ended by connection, but no chain is complete")
        elif self.end_reason is None and game.is_over:
            raise RecordError("the record's moves complete a chain, but it gives no end")
        if game.winner != self.winner:
            raise RecordError(f"the record names {self.winner} as winner, but the rules give {game.winner}")
        return game

    def replay(self) -> Iterator[tuple[RecordedAction | None, np.ndarray]]:
        """``(None, empty board)``, then each action with the full true board after it."""
        game = self.game()
        yield None, game.board_after(0)
        for k, action in enumerate(self.actions, start=1):
            yield action, game.board_after(k)

    def _picture(self) -> Picture:
        return self.game()._picture()

    def completed_chain(self) -> list[Cell]:
        """The chain that ended the game (see :meth:`hexengine.Game.completed_chain`)."""
        return self.game().completed_chain()

    @property
    def winner_seat(self) -> SeatName | None:
        """The seat that won, taking a ``sides`` swap into account."""
        if self.winner is None:
            return None
        return self.seat_of(self.winner)

    def seat_of(self, color: Color) -> SeatName:
        """The seat holding ``color`` at the end of the game."""
        red = self.red_seat
        for action in self.actions:
            if action.result is MoveResult.SWAPPED and self.rules.swap == "sides":
                red = other_seat(red)
        return red if color is RED else other_seat(red)

    # ----------------------------------------------------------------- JSON

    def to_dict(self) -> dict[str, Any]:
        """The record as a JSON-ready dict (format ``hexengine.record``, version 1)."""
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "table": self.table,
            "number": self.number,
            "rules": _rules_dict(self.rules),
            "settings": self.settings,
            "players": {seat: self.players[seat].to_dict() for seat in SEATS if seat in self.players},
            "red_seat": self.red_seat,
            "started_at": self.started_at,
            "actions": [a.to_dict() for a in self.actions],
            "result": {
                "winner": None if self.winner is None else self.winner.name.lower(),
                "winner_seat": self.winner_seat,
                "reason": self.end_reason,
                "time": self.end_time,
                "completed_chain": [c.name for c in self.completed_chain()],
            },
        }

    def to_json(self, **kwargs: Any) -> str:
        """The record as JSON text (``json.dumps`` keyword arguments pass through)."""
        return json.dumps(self.to_dict(), **kwargs)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """A record from :meth:`to_dict` output; raises RecordError naming what is wrong."""
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise RecordError(f"not a hexengine record (expected format {RECORD_FORMAT!r})")
        if data.get("version") != RECORD_VERSION:
            raise RecordError(
                f"unsupported record version {data.get('version')!r} (expected {RECORD_VERSION})"
            )
        try:
            rules = Rules(**_require(data, "rules", dict))
        except TypeError as e:
            raise RecordError(f"bad rules in record: {e}") from None
        except HexError as e:
            raise RecordError(f"bad rules in record: {e}") from e
        players = {seat: PlayerInfo.from_dict(p) for seat, p in _require(data, "players", dict).items()}
        if set(players) != set(SEATS):
            raise RecordError("a record names the players of seats A and B")
        red_seat = data.get("red_seat", "A")
        if red_seat not in SEATS:
            raise RecordError(f"red_seat must be 'A' or 'B', not {red_seat!r}")
        actions = tuple(
            _action_from_dict(a, rules, k) for k, a in enumerate(_require(data, "actions", list), 1)
        )
        result = _require(data, "result", dict)
        winner = _color_from_name(result.get("winner"), allow_none=True)
        reason = result.get("reason")
        if reason not in (None, "connection", "resignation", "timeout"):
            raise RecordError(f"unknown end reason {reason!r}")
        number = data.get("number", 1)
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise RecordError(f"game number must be a positive integer, not {number!r}")
        settings = data.get("settings")
        if settings is not None and not isinstance(settings, dict):
            raise RecordError("record settings must be a dict")
        table = data.get("table")
        if table is not None and not isinstance(table, str):
            raise RecordError("record table id must be a string")
        return cls(
            rules, actions, winner, reason, players, red_seat, number,
            seconds_or_none(result.get("time"), "end time"),
            seconds_or_none(data.get("started_at"), "start time"), table, settings,
        )  # fmt: skip

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """A record from :meth:`to_json` text."""
        if not isinstance(text, str) or len(text) > MAX_RECORD_CHARS:
            raise RecordError(f"a record must be a string of at most {MAX_RECORD_CHARS} characters")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"record is not valid JSON: {e}") from None
        except RecursionError:
            raise RecordError(
                "record is not a hexengine record: its JSON nests too deeply to read (a record "
                "nests 4 levels)"
            ) from None
        return cls.from_dict(data)

    # ----------------------------------------------------------------- SGF

    def to_sgf(self, *, comment: str | None = None) -> str:
        """The record as SGF the way HexGui writes Hex games, plus hexengine's documented extras;
        ``comment`` becomes the root's ``C[...]`` (HexGui shows it). See :mod:`hexengine.records.sgf`."""
        return write_sgf(self, comment=comment)

    @classmethod
    def from_sgf(cls, text: str) -> GameRecord:
        """A record from SGF written by HexGui or by :meth:`to_sgf` (main line only; see
        :func:`hexengine.records.sgf.read_sgf`)."""
        return cls(**read_sgf(text))


def read_record(source: str | os.PathLike[str]) -> GameRecord:
    """The record in ``source``: a path to a file, or the text itself (SGF, hexengine JSON or
    trmph; see :meth:`GameRecord.parse`). Files are read by :func:`load_text` (UTF-8, or
    the encoding the file declares, else Latin-1). The error for a file that holds no
    record names the file; a path to no file raises :class:`MissingRecordFile` (both a
    RecordError and a FileNotFoundError).

    >>> hx.read_record("games/missing.sgf")
    Traceback (most recent call last):
    ...
    hexengine.records.model.MissingRecordFile: no such file: 'games/missing.sgf'
    """
    if isinstance(source, os.PathLike) or (
        isinstance(source, str) and "\n" not in source and len(source) < 4096 and os.path.isfile(source)
    ):
        name = os.fspath(source)
        text, encoding = _load(name)
        try:
            return GameRecord.parse(text)
        except RecordError as e:
            raise RecordError(file_problem(name, text, str(e), encoding)) from None
    if isinstance(source, str) and _looks_like_a_path(source):
        try:
            return GameRecord.parse(source)
        except RecordError:
            if os.path.exists(source):
                raise RecordError(f"{source!r} is not a file, so it holds no record") from None
            raise MissingRecordFile(f"no such file: {source.strip()!r}") from None
    return GameRecord.parse(source)  # type: ignore[arg-type]


def load_text(path: str | os.PathLike[str]) -> str:
    """The text of the record file ``path``: UTF-8 (a byte-order mark is skipped), UTF-16
    when the file starts with its byte-order mark, else the character set an SGF file
    names in ``CA[...]``, else Latin-1 (every byte is a Latin-1 character, so old
    Windows files load). Raises :class:`MissingRecordFile` for a path to no file and
    RecordError for a file that cannot be read or is too large."""
    return _load(os.fspath(path))[0]


def _load(name: str) -> tuple[str, str | None]:
    try:
        with open(name, "rb") as f:
            data = f.read(4 * MAX_RECORD_CHARS + 1)
    except FileNotFoundError:
        raise MissingRecordFile(f"no such file: {name!r}") from None
    except OSError as e:
        raise RecordError(f"cannot read {name!r}: {e.strerror or e}") from None
    if len(data) > 4 * MAX_RECORD_CHARS:
        raise RecordError(f"cannot read {name!r}: a record file holds at most {MAX_RECORD_CHARS} characters")
    return _decode(data)


def _decode(data: bytes) -> tuple[str, str | None]:
    """The text of ``data`` and, when it is not plain UTF-8, how it was read."""
    if data.startswith(codecs.BOM_UTF8):
        return data[len(codecs.BOM_UTF8) :].decode("utf-8", errors="replace"), None
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16", errors="replace"), "UTF-16 text (it starts with a byte-order mark)"
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as e:
        not_utf8 = f"it is not UTF-8: byte 0x{data[e.start]:02x} at offset {e.start}"
    declared = re.search(rb"CA\s*\[([^\]]{1,40})\]", data)
    if declared is not None:
        charset = declared.group(1).decode("ascii", errors="replace").strip()
        try:
            codecs.lookup(charset)
        except LookupError:
            pass
        else:
            return data.decode(charset, errors="replace"), f"{charset} text (its CA[{charset}]; {not_utf8})"
    return data.decode("latin-1"), f"Latin-1 text ({not_utf8})"


def file_problem(name: str, text: str, problem: str, encoding: str | None = None) -> str:
    """The message for file ``name`` (of ``text``) that holds no record because of ``problem``.

    Records are read by their text, whatever the file's name; when the name promises a
    format the text does not start like, this says so rather than blame the trmph reader.
    ``encoding`` is how the text was read when it was not UTF-8.
    """
    suffix = os.path.splitext(name)[1].lower()
    expected = {".sgf": ("SGF", "("), ".hsgf": ("SGF", "("), ".json": ("JSON", "{")}.get(suffix)
    start = text.lstrip()[:20]
    if expected and not start.startswith(expected[1]):
        kind, head = expected
        problem = f"a {suffix} file should hold {kind}, which starts with {head!r}; it starts with {start!r}"
    if encoding is not None:
        return f"cannot read {name!r} as {encoding}: {problem}"
    return f"{name!r} holds no record: {problem}"


def _looks_like_a_path(text: str) -> bool:
    """Whether ``text``, which is no file, names one: no record starts like a file name
    ending in a record suffix, or like a path with a separator and no trmph '#'."""
    t = text.strip()
    if not t or "\n" in t or len(t) >= 4096 or t[0] in "({" or "#" in t:
        return False
    suffix = os.path.splitext(t)[1].lower()
    return suffix in (".sgf", ".hsgf", ".json", ".trmph", ".txt") or "/" in t or "\\" in t


def read_trmph(text: str, variant: Variant = "hex", swap: SwapForm | None = None) -> GameRecord:
    """The :class:`GameRecord` of a trmph record; the referee replays every move.

    ``variant`` is ``"hex"`` or ``"rex"``; ``swap`` is the form a repeated first
    cell stands for (default: the variant's, ``"sides"``). Raises RecordError.
    """
    return GameRecord.from_trmph(text, variant, swap)


def read_game(source: str | os.PathLike[str]) -> Game:
    """The game in ``source`` (a file or the text of SGF, hexengine JSON or trmph), replayed by
    the referee up to its last action.

    >>> game = hx.read_game("(;FF[4]GM[11]SZ[3];B[b2];W[swap-pieces];B[a1])")
    >>> game.rules.swap, game.board.tolist()
    ('pieces', [[1, 0, 0], [0, 2, 0], [0, 0, 0]])
    """
    return read_record(source).game()


# --------------------------------------------------------------------- helpers


def _rules_dict(rules: Rules) -> dict[str, Any]:
    return {"variant": rules.variant, "rows": rules.rows, "cols": rules.cols, "swap": rules.swap}


def _require(data: dict[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    if not isinstance(value, kind):
        raise RecordError(f"record field {key!r} must be a {kind.__name__}")
    return value


def _color_from_name(name: Any, *, allow_none: bool = False) -> Color | None:
    if name is None and allow_none:
        return None
    if name == "red":
        return RED
    if name == "blue":
        return BLUE
    raise RecordError(f"colour must be 'red' or 'blue', not {name!r}")


def _action_from_dict(data: Any, rules: Rules, k: int) -> RecordedAction:
    if not isinstance(data, dict):
        raise RecordError(f"action {k} must be a dict")
    color = _color_from_name(data.get("color"))
    assert color is not None
    try:
        result = MoveResult(data.get("result"))
    except ValueError:
        raise RecordError(
            f"action {k}: result must be placed, hit or swapped, not {data.get('result')!r}"
        ) from None
    name = data.get("cell")
    if not isinstance(name, str):
        raise RecordError(f"action {k}: cell must be a cell name")
    try:
        cell = Cell.parse(name)
    except HexError as e:
        raise RecordError(f"action {k}: {e}") from None
    if cell.row >= rules.rows or cell.col >= rules.cols:
        raise RecordError(f"action {k}: {name} is off the {rules.rows}x{rules.cols} board")
    seat = data.get("seat")
    if seat not in SEATS:
        raise RecordError(f"action {k}: seat must be 'A' or 'B', not {seat!r}")
    by = data.get("by", "person")
    if by not in ("person", "computer"):
        raise RecordError(f"action {k}: by must be 'person' or 'computer', not {by!r}")
    return RecordedAction(
        color, cell, result, seat, by, seconds_or_none(data.get("time"), f"action {k} time")
    )
