"""hexengine as an HTP engine: the referee keeps the game, :class:`~hexengine.MCTSBot` finds moves.

``hexengine htp`` runs :meth:`HtpEngine.serve` on standard input and output.
Every command of a controller such as HexGui gets ``= answer`` or ``? reason``
followed by a blank line (an optional numeric id is echoed after ``=`` or
``?``); a malformed command never stops the engine.

Commands:

- ``protocol_version``, ``name``, ``version``, ``known_command NAME``,
  ``list_commands``, ``quit``.
- ``boardsize W [H]``: a new empty board, W columns and H rows (default H = W).
- ``clear_board``: a new game on the same board.
- ``play COLOR MOVE``: COLOR is ``b``/``black`` (Red) or ``w``/``white`` (Blue);
  MOVE is a cell (``f6``), ``swap-sides``, ``swap-pieces``, ``swap`` (the
  game's own form) or ``resign``. Moves follow the rules strictly: colours
  alternate and illegal moves are refused. One exception serves HexGui, which
  sends a ``swap-pieces`` as ``clear_board`` then ``play white CELL``: a first
  move by White on a square board with swap on is read as Black's stone on the
  mirrored cell followed by ``swap-pieces``.
- ``genmove COLOR``: searches, plays and answers the move of COLOR, who must be
  to move.
- ``undo``: takes back the last action (or a resignation).
- ``showboard``, ``final_score`` (``B+`` or ``W+`` once the game is over),
  ``all_legal_moves [COLOR]``.
- ``param_game [NAME VALUE]``: the rules. ``param_game variant rex`` switches to
  Rex (``hex`` back), ``param_game swap sides|pieces|off`` picks the swap form,
  ``param_game allow_swap 0|1`` is Benzene's switch. Moves already played are
  replayed under the new rules (refused if they break them).
- ``param_hexengine [NAME VALUE]``: the search. ``simulations N`` or
  ``seconds S`` per move (0 = no limit of that kind; the first reached
  stops the search), ``threads N``, ``seed N``, ``level easy|medium|hard``
  (a preset; setting a budget makes it ``custom``).
- ``hexgui-analyze_commands``: the commands HexGui lists in its Analyze menu,
  among them ``hexengine-values`` (value of the most visited moves) and
  ``hexengine-pv`` (the principal variation).

>>> import hexengine as hx
>>> engine = hx.htp.HtpEngine(size=3, simulations=100)
>>> for line in ["boardsize 3", "play b a1", "play b b2", "1 play w z9", "param_game variant rex",
...              "play w b2", "undo", "final_score", "frobnicate"]:
...     print(engine.execute(line), end="")
=
<BLANKLINE>
=
<BLANKLINE>
? illegal move: it is White's turn, not Black's
<BLANKLINE>
?1 illegal move: cell z9 is off the 3x3 board ...
<BLANKLINE>
=
<BLANKLINE>
=
<BLANKLINE>
=
<BLANKLINE>
? cannot score: the game is not over
<BLANKLINE>
? unknown command: frobnicate
<BLANKLINE>
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable
from typing import Any, TextIO

from .._moves import SWAP, cell_index
from .._version import __version__
from ..bots import LEVELS, MCTSBot
from ..cells import Cell
from ..errors import HexError
from ..game import Game
from ..rules import BLUE, RED, Color, Rules, SwapForm, Variant
from ..text import board_text

__all__ = ["HtpEngine", "HtpFailure"]

NAME = "hexengine"
SWAP_WORDS = {"swap-sides": "sides", "swap-pieces": "pieces"}
COLORS = {"b": RED, "black": RED, "red": RED, "w": BLUE, "white": BLUE, "blue": BLUE}
HTP_VARIANTS = ("hex", "rex")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


class HtpFailure(Exception):
    """A command that fails; the engine answers ``? message`` and goes on."""


class HtpEngine:
    """hexengine's HTP engine: a referee for Hex or Rex plus :class:`~hexengine.MCTSBot`.

    ``variant`` (``"hex"`` or ``"rex"``), ``size`` or ``rows``/``cols`` and
    ``swap`` set the first game; ``level`` or ``simulations``/``seconds`` and
    ``threads``/``seed`` set the search (default: 10,000 simulations per move).
    :meth:`execute` answers one command line; :meth:`serve` runs the protocol on
    two streams.
    """

    def __init__(
        self,
        variant: Variant = "hex",
        size: int = 11,
        *,
        rows: int | None = None,
        cols: int | None = None,
        swap: SwapForm | None = None,
        level: str | None = None,
        simulations: int | None = None,
        seconds: float | None = None,
        threads: int = 1,
        seed: int = 0,
    ) -> None:
        rules = Rules(variant, size if rows is None else rows, size if cols is None else cols, swap)
        _check_variant(rules)
        self._rules = rules
        self._moves: list[str] = []
        self._resigned: Color | None = None
        self._game = Game(rules)
        self._search: dict[str, Any] = {
            "simulations": 10_000,
            "seconds": 0.0,
            "threads": threads,
            "seed": seed,
        }
        self._level = "custom"
        if level is not None:
            self._set_level(level)
        if simulations is not None or seconds is not None:
            self._search.update(simulations=simulations or 0, seconds=seconds or 0.0)
            self._level = "custom"
        self._bot = self._make_bot()
        self.finished = False
        self._commands: dict[str, Callable[[list[str]], str]] = {
            "protocol_version": lambda args: "2",
            "name": lambda args: NAME,
            "version": lambda args: __version__,
            "known_command": self._known_command,
            "list_commands": lambda args: "\n".join(self._commands),
            "quit": self._quit,
            "boardsize": self._boardsize,
            "clear_board": self._clear_board,
            "play": self._play,
            "genmove": self._genmove,
            "undo": self._undo,
            "showboard": self._showboard,
            "final_score": self._final_score,
            "all_legal_moves": self._all_legal_moves,
            "param_game": self._param_game,
            "param_hexengine": self._param_hexengine,
            "hexgui-analyze_commands": self._analyze_commands,
            "hexengine-values": self._values,
            "hexengine-pv": self._pv,
        }

    # ------------------------------------------------------------------ protocol

    @property
    def game(self) -> Game:
        """A copy of the engine's current game."""
        return self._game.copy()

    def execute(self, line: str) -> str | None:
        """The full response (``=...`` or ``?...`` and a blank line) to one command line,
        or ``None`` for a line with no command (blank or a ``#`` comment)."""
        line = _CONTROL.sub("", line.split("#", 1)[0]).replace("\t", " ").strip()
        if not line:
            return None
        words = line.split()
        ident = ""
        if words[0].isdigit():
            ident, words = words[0], words[1:]
            if not words:
                return f"?{ident} missing command after the id\n\n"
        name, args = words[0].lower(), words[1:]
        handler = self._commands.get(name)
        try:
            if handler is None:
                raise HtpFailure(f"unknown command: {name}")
            answer = handler(args)
        except HtpFailure as e:
            return f"?{ident} {_one_line(str(e))}\n\n"
        except HexError as e:
            return f"?{ident} {_one_line(str(e))}\n\n"
        except Exception as e:  # an engine must answer, whatever went wrong
            return f"?{ident} internal error: {_one_line(repr(e))}\n\n"
        answer = re.sub(r"\n(?:[ \t]*\n)+", "\n", answer).rstrip()
        return f"={ident} {answer}".rstrip(" ") + "\n\n"

    def serve(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
        """Answers commands from ``stdin`` on ``stdout`` until ``quit`` or the end of input."""
        stdin = sys.stdin if stdin is None else stdin
        stdout = sys.stdout if stdout is None else stdout
        while not self.finished:
            line = stdin.readline()
            if not line:
                break
            response = self.execute(line)
            if response is not None:
                stdout.write(response)
                stdout.flush()
        return 0

    # ------------------------------------------------------------------ commands

    def _known_command(self, args: list[str]) -> str:
        _arity(args, 1, "known_command NAME")
        return "true" if args[0].lower() in self._commands else "false"

    def _quit(self, args: list[str]) -> str:
        self.finished = True
        return ""

    def _boardsize(self, args: list[str]) -> str:
        if len(args) not in (1, 2):
            raise HtpFailure("boardsize needs a width and an optional height: boardsize 11 or boardsize 11 9")
        cols = _integer(args[0], "board width")
        rows = _integer(args[1], "board height") if len(args) == 2 else cols
        swap = self._rules.swap if self._rules.swap != "pieces" or rows == cols else "sides"
        try:
            rules = Rules(self._rules.variant, rows, cols, swap)
        except HexError as e:
            raise HtpFailure(f"unacceptable size: {e}") from None
        self._new_game(rules)
        return ""

    def _clear_board(self, args: list[str]) -> str:
        _arity(args, 0, "clear_board")
        self._new_game(self._rules)
        return ""

    def _play(self, args: list[str]) -> str:
        if len(args) != 2:
            raise HtpFailure("play needs a colour and a move: play black f6")
        color = _color(args[0])
        move = args[1].lower()
        game = self._game
        if move == "resign":
            if game.is_over:
                raise HtpFailure(f"the game is over ({_status(game)})")
            game.resign(color)
            self._resigned = color
            return ""
        if game.is_over:
            raise HtpFailure(f"illegal move: the game is over ({_status(game)})")
        if color != game.to_move:
            if self._hexgui_swap_pieces(color, move):
                return ""
            raise HtpFailure(
                f"illegal move: it is {_htp_name(game.to_move)}'s turn, not {_htp_name(color)}'s"
            )
        if move == "swap" or move in SWAP_WORDS:
            self._swap(SWAP_WORDS.get(move, self._rules.swap))  # type: ignore[arg-type]
            return ""
        try:
            game.play(move)
        except HexError as e:
            raise HtpFailure(f"illegal move: {e}") from None
        self._moves.append(move)
        return ""

    def _genmove(self, args: list[str]) -> str:
        _arity(args, 1, "genmove COLOR")
        color = _color(args[0])
        game = self._game
        if game.is_over:
            raise HtpFailure(f"the game is over ({_status(game)})")
        if color != game.to_move:
            raise HtpFailure(f"it is {_htp_name(game.to_move)}'s turn, not {_htp_name(color)}'s")
        move = self._bot.choose(game.view(color))
        if move == SWAP:
            self._swap(self._rules.swap)  # type: ignore[arg-type]
            return f"swap-{self._rules.swap}"
        game.play(move)
        self._moves.append(move.name)  # type: ignore[union-attr]
        return move.name  # type: ignore[union-attr]

    def _undo(self, args: list[str]) -> str:
        _arity(args, 0, "undo")
        if self._resigned is not None:
            self._resigned = None
        elif self._moves:
            self._moves.pop()
        else:
            raise HtpFailure("cannot undo: no move has been played")
        self._game = self._replay(self._rules)
        self._bot.clear()
        return ""

    def _showboard(self, args: list[str]) -> str:
        _arity(args, 0, "showboard")
        game = self._game
        return "\n" + board_text(game.board, game.completed_chain()) + "\n" + _status(game)

    def _final_score(self, args: list[str]) -> str:
        _arity(args, 0, "final_score")
        if not self._game.is_over:
            raise HtpFailure("cannot score: the game is not over")
        return "B+" if self._game.winner is RED else "W+"

    def _all_legal_moves(self, args: list[str]) -> str:
        if len(args) > 1:
            raise HtpFailure("all_legal_moves takes at most a colour")
        game = self._game
        if args and _color(args[0]) != game.to_move:
            return ""
        return " ".join(
            f"swap-{self._rules.swap}" if m == SWAP else m.name  # type: ignore[union-attr]
            for m in game.legal_moves()
        )

    def _param_game(self, args: list[str]) -> str:
        r = self._rules
        if not args:
            return (
                f"\n[list/hex/rex] variant {r.variant}\n[list/sides/pieces/off] swap {r.swap}\n"
                f"[bool] allow_swap {int(r.swap != 'off')}"
            )
        _arity(args, 2, "param_game NAME VALUE")
        name, value = args[0].lower(), args[1].lower()
        if name == "variant":
            if value in ("dark", "dark-abrupt"):
                _check_variant(Rules(value, r.rows, r.cols))  # type: ignore[arg-type]
            rules = _rules_or_failure(value, r.rows, r.cols, r.swap)  # type: ignore[arg-type]
        elif name == "swap":
            rules = _rules_or_failure(r.variant, r.rows, r.cols, value)  # type: ignore[arg-type]
        elif name == "allow_swap":
            on = _bool(value, "allow_swap")
            rules = _rules_or_failure(
                r.variant, r.rows, r.cols, ("sides" if r.swap == "off" else r.swap) if on else "off"
            )
        else:
            raise HtpFailure(f"unknown game parameter {name!r}: expected variant, swap or allow_swap")
        _check_variant(rules)
        self._game = self._replay(rules)
        self._rules = rules
        self._bot.clear()
        return ""

    def _param_hexengine(self, args: list[str]) -> str:
        s = self._search
        if not args:
            return (
                f"\n[list/custom/easy/medium/hard] level {self._level}\n"
                f"[string] simulations {s['simulations']}\n"
                f"[string] seconds {_number_text(s['seconds'])}\n[string] threads {s['threads']}\n"
                f"[string] seed {s['seed']}"
            )
        _arity(args, 2, "param_hexengine NAME VALUE")
        name, value = args[0].lower(), args[1]
        old = (dict(s), self._level)
        if name == "level":
            self._set_level(value.lower())
        elif name in ("simulations", "threads", "seed"):
            s[name] = _integer(value, name, minimum=0)
            if name == "simulations":
                self._level = "custom"
        elif name == "seconds":
            try:
                seconds = float(value)
            except ValueError:
                raise HtpFailure(f"seconds must be a number, not {value!r}") from None
            if not math.isfinite(seconds) or seconds < 0:
                raise HtpFailure(f"seconds must be a finite number of at least 0, not {value!r}")
            s["seconds"], self._level = seconds, "custom"
        else:
            raise HtpFailure(
                f"unknown search parameter {name!r}: expected level, simulations, seconds, threads or seed"
            )
        try:
            self._bot = self._make_bot()
        except HexError as e:
            self._search, self._level = old
            raise HtpFailure(str(e)) from None
        return ""

    def _analyze_commands(self, args: list[str]) -> str:
        return "\n".join(
            [
                "param/Game Param/param_game",
                "param/hexengine Param/param_hexengine",
                "plist/All Legal Moves/all_legal_moves %c",
                "string/ShowBoard/showboard",
                "string/Final Score/final_score",
                "pspairs/hexengine Values/hexengine-values",
                "var/hexengine PV/hexengine-pv",
            ]
        )

    def _values(self, args: list[str]) -> str:
        analysis = self._analyse(args)
        return " ".join(f"{cell.name} {value:.3f}" for cell, _, value in analysis.top(8))

    def _pv(self, args: list[str]) -> str:
        analysis = self._analyse(args)
        return " ".join(f"swap-{self._rules.swap}" if m == SWAP else m.name for m in analysis.pv)  # type: ignore[union-attr]

    # ------------------------------------------------------------------ internals

    def _analyse(self, args: list[str]) -> Any:
        _arity(args, 0, "this analysis command")
        game = self._game
        if game.is_over:
            raise HtpFailure(f"the game is over ({_status(game)})")
        return self._bot.analyse(game.view(game.to_move))  # type: ignore[arg-type]

    def _set_level(self, level: str) -> None:
        if level not in LEVELS:
            raise HtpFailure(f"unknown level {level!r}: expected easy, medium or hard")
        preset = LEVELS[level]
        self._search.update(simulations=preset.get("simulations", 0), seconds=preset.get("seconds", 0.0))
        self._search["threads"] = preset.get("threads", 1)
        self._level = level

    def _make_bot(self) -> MCTSBot:
        s = self._search
        extra = {
            k: v
            for k, v in LEVELS.get(self._level, {}).items()
            if k not in ("simulations", "seconds", "threads")
        }
        return MCTSBot(
            simulations=s["simulations"],
            seconds=s["seconds"] or None,
            threads=s["threads"],
            seed=s["seed"],
            **extra,
        )

    def _new_game(self, rules: Rules) -> None:
        self._rules = rules
        self._moves = []
        self._resigned = None
        self._game = Game(rules)
        self._bot.clear()

    def _replay(self, rules: Rules) -> Game:
        game = Game(rules)
        try:
            for move in self._moves:
                game.play(move)
            if self._resigned is not None:
                game.resign(self._resigned)
        except HexError as e:
            raise HtpFailure(f"the moves played so far do not fit these rules: {e}") from None
        return game

    def _swap(self, form: SwapForm) -> None:
        game = self._game
        if self._rules.swap == "off":
            raise HtpFailure("illegal move: swap is off in this game (param_game swap sides turns it on)")
        if SWAP not in game.legal_moves():
            raise HtpFailure("illegal move: swap is allowed only as White's first move")
        if form != self._rules.swap:
            rules = _rules_or_failure(self._rules.variant, self._rules.rows, self._rules.cols, form)
            self._game = game = self._replay(rules)
            self._rules = rules
        game.play(SWAP)
        self._moves.append(SWAP)

    def _hexgui_swap_pieces(self, color: Color, move: str) -> bool:
        """HexGui sends a swap-pieces as clear_board + ``play white CELL``: Black's stone on the
        mirrored cell, then the swap (see the module docstring)."""
        r = self._rules
        if color is not BLUE or self._moves or self._resigned or r.swap == "off" or r.rows != r.cols:
            return False
        try:
            index = cell_index(move, r.rows, r.cols)
        except HexError:
            return False
        row, col = divmod(index, r.cols)
        mirrored = Cell(col, row).name
        try:
            rules = Rules(r.variant, r.rows, r.cols, "pieces")
            game = Game(rules)
            game.play(mirrored)
            game.play(SWAP)
        except HexError:
            return False
        self._rules, self._game, self._moves = rules, game, [mirrored, SWAP]
        return True


def _check_variant(rules: Rules) -> None:
    if rules.variant not in HTP_VARIANTS:
        raise HtpFailure(
            f"variant {rules.variant!r} is not offered over HTP: HTP has no hidden stones; play Dark Hex "
            "with 'hexengine play' or hexengine.Table"
        )


def _rules_or_failure(variant: str, rows: int, cols: int, swap: str | None) -> Rules:
    try:
        return Rules(variant, rows, cols, swap)  # type: ignore[arg-type]
    except HexError as e:
        raise HtpFailure(str(e)) from None


def _arity(args: list[str], n: int, usage: str) -> None:
    if len(args) != n:
        raise HtpFailure(f"expected {n} argument{'s' if n != 1 else ''}: {usage}")


def _color(word: str) -> Color:
    color = COLORS.get(word.lower())
    if color is None:
        raise HtpFailure(f"unknown colour {word!r}: expected black, white, b or w")
    return color


def _integer(word: str, what: str, minimum: int = 1) -> int:
    if re.fullmatch(r"\d{20,}", word):
        raise HtpFailure(f"{what} must be a whole number of at most 19 digits, not {word!r}")
    if not re.fullmatch(r"\d{1,19}", word):
        raise HtpFailure(f"{what} must be a whole number, not {word!r}")
    value = int(word)
    if value < minimum:
        raise HtpFailure(f"{what} must be at least {minimum}, not {value}")
    return value


def _bool(word: str, what: str) -> bool:
    if word in ("1", "true", "on", "yes"):
        return True
    if word in ("0", "false", "off", "no"):
        return False
    raise HtpFailure(f"{what} must be 0 or 1, not {word!r}")


def _htp_name(color: Color | None) -> str:
    return "Black" if color is RED else "White"


def _status(game: Game) -> str:
    if game.is_over:
        winner = game.winner
        return f"{_htp_name(winner)} ({winner}) won by {game.end_reason}"
    return f"{_htp_name(game.to_move)} ({game.to_move}) to move"


def _number_text(value: float) -> str:
    return f"{value:g}"


def _one_line(text: str) -> str:
    return " ".join(text.split())
