"""hexengine as an HTP engine: the referee keeps the game, :class:`~hexengine.MCTSBot` finds moves.

``hexengine htp`` runs :meth:`HtpEngine.serve` on standard input and output.
Every command of a controller such as HexGui gets ``= answer`` or ``? reason``
followed by a blank line (an optional numeric id is echoed after ``=`` or
``?``); a malformed command, even one that is not UTF-8, never stops the engine.
``docs/htp.md`` describes every command; in short:

- ``protocol_version``, ``name``, ``version``, ``known_command NAME``,
  ``list_commands``, ``quit``.
- ``boardsize W [H]``, ``clear_board``: a new game of the configured rules
  (variant and swap form of the command line and ``param_game``).
- ``play COLOR MOVE``, ``genmove COLOR``, ``reg_genmove COLOR``, ``undo``:
  COLOR is ``b``/``black`` (Red) or ``w``/``white`` (Blue); MOVE is a cell
  (``f6``), a swap word or ``resign``.
- ``showboard``, ``final_score``, ``all_legal_moves [COLOR]``.
- ``time_settings MAIN BYO_YOMI STONES``, ``time_left COLOR SECONDS [STONES]``:
  GTP time control; the engine budgets each move from it (:mod:`.clock`).
- ``loadsgf FILE [MOVE_NUMBER]``: a record (SGF with set-up stones, Little
  Golem's SGF, hexengine JSON, trmph), up to just before MOVE_NUMBER.
- ``dfpn-solve-state [COLOR]``, ``dfpn-solver-find-winning COLOR``,
  ``param_dfpn [NAME VALUE]``: Benzene's solver commands, answered by
  :func:`hexengine.solve` (HexGui's Solve button).
- ``param_game [NAME VALUE]``: ``variant hex|rex``, ``swap sides|pieces|off``,
  ``allow_swap 0|1``; ``param_hexengine [NAME VALUE]``: ``level``,
  ``simulations``, ``seconds``, ``threads``, ``seed``.
- ``hexgui-analyze_commands``, ``hexengine-values``, ``hexengine-pv``.

Dialects say how swaps are named and whether stones may be played out of
turn. ``standard`` (the default): ``swap-sides`` is the ``sides`` swap (the
board stays, White moves next), ``swap-pieces`` the ``pieces`` swap (Black's
stone becomes White's on the mirrored cell, Black moves next), and colours
must alternate. ``benzene`` (Benzene, MoHex, HexGui 0.9 and older): their
``swap-pieces`` leaves the board as it is and White moves next, so it is the
``sides`` swap, answered as ``swap-pieces``; stones of either colour may be
played, as GTP allows. ``hexgui``: as ``benzene``, answering ``swap``, the
word every HexGui reads as its side swap. A controller that sends
``hexgui-analyze_commands`` is HexGui, and the engine switches to ``hexgui``
unless a dialect was given.

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

import io
import math
import re
import sys
import time
from collections.abc import Callable
from typing import Any, BinaryIO, Literal, TextIO

from .._checks import MAX_COUNT
from .._moves import SWAP, Move
from .._version import __version__
from ..bots import LEVELS, MCTSBot
from ..cells import Cell
from ..errors import ConfigError, HexError
from ..game import Game
from ..records import GameRecord, Position, RecordError, load_text, read_sgf_position
from ..records.record import file_problem
from ..rules import BLUE, RED, Color, MoveResult, Rules, SwapForm, Variant
from ..solver import solve
from ..text import board_text
from .clock import GameClock
from .state import Failure, GameState

__all__ = ["DIALECTS", "HtpEngine", "HtpFailure"]

NAME = "hexengine"
Dialect = Literal["standard", "benzene", "hexgui"]
DIALECTS: tuple[str, ...] = ("standard", "benzene", "hexgui")
COLORS = {"b": RED, "black": RED, "red": RED, "w": BLUE, "white": BLUE, "blue": BLUE}
SWAP_WORDS = ("swap", "swap-sides", "swap-pieces")
HTP_VARIANTS = ("hex", "rex")
DEFAULT_SIMULATIONS = 10_000
SOLVER_SECONDS = 30.0
SOLVER_NODES = 20_000_000
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")

HtpFailure = Failure


class HtpEngine:
    """hexengine's HTP engine: a referee for Hex or Rex plus :class:`~hexengine.MCTSBot`.

    ``variant`` (``"hex"`` or ``"rex"``), ``size`` or ``rows``/``cols`` and
    ``swap`` are the configured rules every new game starts from. The search:
    ``level`` (``"easy"``, ``"medium"``, ``"hard"``) is a preset, and
    ``simulations``, ``seconds`` and ``threads`` given here win over it. With
    neither budget given, 10,000 simulations a move; ``seconds`` alone makes
    time the only budget, ``simulations`` alone the simulations, both: whichever
    comes first. ``dialect`` is ``"standard"``, ``"benzene"`` or ``"hexgui"``
    (see the module docstring; ``None``: standard until HexGui shows itself).
    :meth:`execute` answers one command line; :meth:`serve` runs the protocol.
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
        threads: int | None = None,
        seed: int = 0,
        dialect: str | None = None,
    ) -> None:
        if dialect is not None and dialect not in DIALECTS:
            raise ConfigError(f"unknown HTP dialect {dialect!r}: expected standard, benzene or hexgui")
        rules = Rules(variant, size if rows is None else rows, size if cols is None else cols, swap)
        _check_variant(rules)
        self._variant: Variant = rules.variant
        self._swap_wish: SwapForm = rules.swap  # type: ignore[assignment]
        self._dialect: Dialect = dialect or "standard"  # type: ignore[assignment]
        self._dialect_given = dialect is not None
        self._level = "custom"
        self._given: dict[str, Any] = {"seed": seed}
        if level is not None:
            self._set_level(level)
        if simulations is not None:
            self._given["simulations"] = simulations
        if seconds is not None:
            self._given["seconds"] = seconds
        if simulations is not None or seconds is not None:
            self._level = "custom"
        if threads is not None:
            self._given["threads"] = threads
        self._bot = self._make_bot()
        self._clock = GameClock()
        # Benzene's parameters, and hexengine's own guess: the simulations of a search whose move
        # dfpn-solve-state proves first (hx.solve's guess; 0 for none).
        self._solver = {
            "use_guifx": False,
            "timelimit": SOLVER_SECONDS,
            "max_nodes": SOLVER_NODES,
            "guess": 0,
        }
        self._state = GameState(rules)
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
            "reg_genmove": self._reg_genmove,
            "undo": self._undo,
            "showboard": self._showboard,
            "final_score": self._final_score,
            "all_legal_moves": self._all_legal_moves,
            "time_settings": self._time_settings,
            "time_left": self._time_left,
            "loadsgf": self._loadsgf,
            "param_game": self._param_game,
            "param_hexengine": self._param_hexengine,
            "param_dfpn": self._param_dfpn,
            "dfpn-solve-state": self._solve_state,
            "dfpn-solver-find-winning": self._find_winning,
            "hexgui-analyze_commands": self._analyze_commands,
            "hexengine-values": self._values,
            "hexengine-pv": self._pv,
        }

    # ------------------------------------------------------------------ protocol

    @property
    def game(self) -> Game:
        """A copy of the engine's current game. A set-up position (stones played out of turn,
        or loaded with ``loadsgf``) is no game: see :attr:`position`."""
        game = self._state.game
        if game is None:
            raise ConfigError(
                "the engine holds a set-up position, not a game from the empty board: see .position"
            )
        return game.copy()

    @property
    def position(self) -> Position:
        """The current board and colour to move, game or set-up position alike."""
        return self._state.as_position()

    @property
    def dialect(self) -> str:
        """How swaps are named and whether stones may come out of turn (module docstring)."""
        return self._dialect

    def execute(self, line: str | bytes) -> str | None:
        """The full response (``=...`` or ``?...`` and a blank line) to one command line,
        or ``None`` for a line with no command (blank or a ``#`` comment). ``bytes`` are
        read as UTF-8; a line that is not UTF-8 is refused with ``?``."""
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError as e:
                found = re.match(rb"\s*(\d+)\s", line)
                ident = found.group(1).decode() if found else ""
                where = f"byte 0x{line[e.start]:02x} at offset {e.start}"
                return f"?{ident} cannot read the command: {where} is not UTF-8\n\n"
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
                raise Failure(f"unknown command: {_printable(name)}")
            answer = handler(args)
        except (Failure, HexError) as e:
            return f"?{ident} {_one_line(str(e))}\n\n"
        except Exception as e:  # an engine must answer, whatever went wrong
            return f"?{ident} internal error: {_one_line(repr(e))}\n\n"
        answer = re.sub(r"\n(?:[ \t]*\n)+", "\n", answer).rstrip()
        return f"={ident} {answer}".rstrip(" ") + "\n\n"

    def serve(self, stdin: TextIO | BinaryIO | None = None, stdout: TextIO | BinaryIO | None = None) -> int:
        """Answers commands from ``stdin`` on ``stdout`` until ``quit`` or the end of input.
        Lines are read as bytes where the stream has them (``sys.stdin.buffer``), so one
        byte that is not UTF-8 costs one ``?`` answer, not the session."""
        source: Any = sys.stdin if stdin is None else stdin
        sink: Any = sys.stdout if stdout is None else stdout
        source = getattr(source, "buffer", source)
        sink_bytes = getattr(sink, "buffer", None)
        if sink_bytes is None and not isinstance(sink, io.TextIOBase):
            sink_bytes = sink  # a byte stream itself
        while not self.finished:
            try:
                line = source.readline()
            except UnicodeDecodeError as e:  # a text stream that cannot decode its next line
                line, response = "?", f"? cannot read the command: {e.reason}\n\n"
            else:
                response = self.execute(line) if line else None
            if not line:
                break
            if response is None:
                continue
            if sink_bytes is not None:
                if sink_bytes is not sink:
                    sink.flush()
                sink_bytes.write(response.encode("utf-8", errors="backslashreplace"))
                sink_bytes.flush()
            else:
                sink.write(response)
                sink.flush()
        return 0

    # ------------------------------------------------------------------ commands: games

    def _known_command(self, args: list[str]) -> str:
        _arity(args, 1, "known_command NAME")
        return "true" if args[0].lower() in self._commands else "false"

    def _quit(self, args: list[str]) -> str:
        self.finished = True
        return ""

    def _boardsize(self, args: list[str]) -> str:
        if len(args) not in (1, 2):
            raise Failure("boardsize needs a width and an optional height: boardsize 11 or boardsize 11 9")
        cols = _integer(args[0], "board width")
        rows = _integer(args[1], "board height") if len(args) == 2 else cols
        try:
            rules = self._configured(rows, cols)
        except HexError as e:
            raise Failure(f"unacceptable size: {e}") from None
        self._new_game(rules)
        return ""

    def _clear_board(self, args: list[str]) -> str:
        _arity(args, 0, "clear_board")
        r = self._state.rules
        self._new_game(self._configured(r.rows, r.cols))
        return ""

    def _play(self, args: list[str]) -> str:
        if len(args) != 2:
            raise Failure("play needs a colour and a move: play black f6")
        color = _color(args[0])
        move = args[1].lower()
        if move == "resign":
            self._state.end(color)
            return ""
        if move in SWAP_WORDS:
            self._state.play(color, SWAP, swap=self._incoming_swap(move))
            return ""
        self._state.play(color, move, setup=self._dialect != "standard")
        return ""

    def _genmove(self, args: list[str]) -> str:
        return self._generate(args, "genmove", play=True)

    def _reg_genmove(self, args: list[str]) -> str:
        return self._generate(args, "reg_genmove", play=False)

    def _generate(self, args: list[str], command: str, *, play: bool) -> str:
        _arity(args, 1, f"{command} COLOR")
        color = _color(args[0])
        state = self._state
        if state.is_over:
            raise Failure(f"the game is over ({state.status()})")
        if color != state.to_move and self._dialect == "standard":
            raise Failure(f"it is {_htp_name(state.to_move)}'s turn, not {_htp_name(color)}'s")
        view = state.view(color)
        if state.game is None or state.game.to_move != color:
            self._bot.clear()  # a position has no history to reuse a tree by
        started = time.monotonic()
        move = self._bot.choose(view, **self._move_budget(color, view))
        self._clock.spend(color, time.monotonic() - started)
        if move == SWAP:
            form = self._answer_swap_form()
            if play:
                state.play(color, SWAP, swap=form)
            return self._swap_word(form)
        name = move.name  # type: ignore[union-attr]
        if play:
            state.play(color, name, setup=True)
        return name

    def _undo(self, args: list[str]) -> str:
        _arity(args, 0, "undo")
        self._state.undo()
        self._bot.clear()
        return ""

    def _showboard(self, args: list[str]) -> str:
        _arity(args, 0, "showboard")
        state = self._state
        return "\n" + board_text(state.board, state.completed_chain()) + "\n" + state.status()

    def _final_score(self, args: list[str]) -> str:
        _arity(args, 0, "final_score")
        if not self._state.is_over:
            raise Failure("cannot score: the game is not over")
        return "B+" if self._state.winner is RED else "W+"

    def _all_legal_moves(self, args: list[str]) -> str:
        if len(args) > 1:
            raise Failure("all_legal_moves takes at most a colour")
        state = self._state
        if args and _color(args[0]) != state.to_move:
            if self._dialect == "standard" or state.is_over:
                return ""
            return " ".join(cell.name for cell in state.as_position(_color(args[0])).legal_moves())
        return " ".join(self._move_word(m) for m in state.legal_moves())

    def _loadsgf(self, args: list[str]) -> str:
        if len(args) not in (1, 2):
            raise Failure("loadsgf needs a file and an optional move number: loadsgf game.sgf 12")
        number = _integer(args[1], "move number") if len(args) == 2 else None
        try:
            text = load_text(args[0])
        except RecordError as e:
            raise Failure(f"cannot load file: {e}") from None
        try:
            state = self._loaded(text, number)
        except RecordError as e:
            raise Failure(f"cannot load file: {file_problem(args[0], text, str(e))}") from None
        except Failure as e:
            raise Failure(f"cannot load file {args[0]!r}: {e}") from None
        self._state = state
        self._bot.clear()
        return ""

    # ------------------------------------------------------------------ commands: time

    def _time_settings(self, args: list[str]) -> str:
        _arity(args, 3, "time_settings MAIN_TIME BYO_YOMI_TIME BYO_YOMI_STONES")
        main = _seconds(args[0], "main time")
        byo = _seconds(args[1], "byo-yomi time")
        stones = _integer(args[2], "byo-yomi stones", minimum=0)
        self._clock.settings(main, byo, stones)
        return ""

    def _time_left(self, args: list[str]) -> str:
        if not args:
            if not self._clock.active:
                return "no time limit"
            shown = [(w, *self._clock.left(color)) for w, color in (("b", RED), ("w", BLUE))]
            return " ".join(f"{w} {_number_text(round(t, 3))} {n}" for w, t, n in shown)
        if len(args) not in (2, 3):
            raise Failure("time_left needs a colour, seconds and stones: time_left black 300 0")
        color = _color(args[0])
        seconds = _seconds(args[1], "time left")
        stones = _integer(args[2], "stones", minimum=0) if len(args) == 3 else 0
        self._clock.time_left(color, seconds, stones)
        return ""

    # ------------------------------------------------------------------ commands: solver

    def _solve_state(self, args: list[str]) -> str:
        if len(args) > 3:
            raise Failure("dfpn-solve-state takes a colour (and Benzene's bounds, which are ignored)")
        color = _color(args[0]) if args else None
        state = self._state
        if state.is_over:
            if state.end_reason == "connection":
                return _htp_word(state.winner)
            raise Failure(f"the game is over ({state.status()})")
        winner, _ = self._solve(color or state.to_move, winning_moves=False)  # type: ignore[arg-type]
        return _htp_word(winner)

    def _find_winning(self, args: list[str]) -> str:
        _arity(args, 1, "dfpn-solver-find-winning COLOR")
        color = _color(args[0])
        if self._state.is_over:
            raise Failure(f"the game is over ({self._state.status()})")
        _, moves = self._solve(color, winning_moves=True)
        return " ".join(self._move_word(m) for m in moves)

    def _param_dfpn(self, args: list[str]) -> str:
        p = self._solver
        if not args:
            return (
                f"\n[bool] use_guifx {int(p['use_guifx'])}\n"
                f"[string] timelimit {_number_text(p['timelimit'])}\n[string] max_nodes {p['max_nodes']}\n"
                f"[string] guess {p['guess']}"
            )
        _arity(args, 2, "param_dfpn NAME VALUE")
        name, value = args[0].lower(), args[1].lower()
        if name == "use_guifx":
            p[name] = _bool(value, name)  # accepted; hexengine draws nothing while it solves
        elif name == "timelimit":
            p[name] = _seconds(value, "timelimit")
        elif name in ("max_nodes", "guess"):
            p[name] = _integer(value, name, minimum=0, maximum=MAX_COUNT)
        else:
            expected = "use_guifx, timelimit, max_nodes or guess"
            raise Failure(f"unknown solver parameter {name!r}: expected {expected}")
        return ""

    # ------------------------------------------------------------------ commands: settings

    def _param_game(self, args: list[str]) -> str:
        r = self._state.rules
        if not args:
            return (
                f"\n[list/hex/rex] variant {self._variant}\n[list/sides/pieces/off] swap {self._swap_wish}\n"
                f"[bool] allow_swap {int(self._swap_wish != 'off')}"
            )
        _arity(args, 2, "param_game NAME VALUE")
        name, value = args[0].lower(), args[1].lower()
        variant, swap = self._variant, self._swap_wish
        if name == "variant":
            if value in ("dark", "dark-abrupt"):
                _check_variant(Rules(value, r.rows, r.cols))  # type: ignore[arg-type]
            variant = value  # type: ignore[assignment]
        elif name == "swap":
            swap = value  # type: ignore[assignment]
        elif name == "allow_swap":
            swap = ("sides" if swap == "off" else swap) if _bool(value, "allow_swap") else "off"
        else:
            raise Failure(f"unknown game parameter {name!r}: expected variant, swap or allow_swap")
        # The pieces swap needs a square board; on others the configured form plays as sides.
        fits = swap if name == "swap" or swap != "pieces" or r.rows == r.cols else "sides"
        rules = _rules_or_failure(variant, r.rows, r.cols, fits)
        _check_variant(rules)
        # A new variant keeps this game's swap form (a swap word may have changed it); a new
        # swap form applies to this game too.
        self._state.with_rules(Rules(rules.variant, r.rows, r.cols, r.swap) if name == "variant" else rules)
        self._variant, self._swap_wish = rules.variant, swap  # type: ignore[assignment]
        self._bot.clear()
        return ""

    def _param_hexengine(self, args: list[str]) -> str:
        if not args:
            s = self._settings()
            return (
                f"\n[list/custom/easy/medium/hard] level {self._level}\n"
                f"[string] simulations {s['simulations']}\n"
                f"[string] seconds {_number_text(s['seconds'])}\n[string] threads {s['threads']}\n"
                f"[string] seed {s['seed']}"
            )
        _arity(args, 2, "param_hexengine NAME VALUE")
        name, value = args[0].lower(), args[1]
        old = (dict(self._given), self._level)
        if name == "level":
            self._set_level(value.lower())
        elif name in ("simulations", "threads", "seed"):
            self._given[name] = _integer(value, name, minimum=0)
            if name == "simulations":
                self._level = "custom"
        elif name == "seconds":
            self._given["seconds"], self._level = _seconds(value, "seconds"), "custom"
        else:
            raise Failure(
                f"unknown search parameter {name!r}: expected level, simulations, seconds, threads or seed"
            )
        try:
            self._bot = self._make_bot()
        except HexError as e:
            self._given, self._level = old
            raise Failure(str(e)) from None
        return ""

    def _analyze_commands(self, args: list[str]) -> str:
        if not self._dialect_given:
            self._dialect = "hexgui"  # only HexGui asks this
        return "\n".join(
            [
                "param/Game Param/param_game",
                "param/hexengine Param/param_hexengine",
                "param/DFPN Param/param_dfpn",
                "plist/All Legal Moves/all_legal_moves %c",
                "string/ShowBoard/showboard",
                "string/Final Score/final_score",
                "pspairs/hexengine Values/hexengine-values",
                "var/hexengine PV/hexengine-pv",
                "string/DFPN Solve State/dfpn-solve-state %m",
                "plist/DFPN Find Winning/dfpn-solver-find-winning %m",
            ]
        )

    def _values(self, args: list[str]) -> str:
        analysis = self._analyse(args)
        return " ".join(f"{cell.name} {value:.3f}" for cell, _, value in analysis.top(8))

    def _pv(self, args: list[str]) -> str:
        analysis = self._analyse(args)
        return " ".join(self._move_word(m) for m in analysis.pv)

    # ------------------------------------------------------------------ internals

    def _configured(self, rows: int, cols: int) -> Rules:
        swap = self._swap_wish if self._swap_wish != "pieces" or rows == cols else "sides"
        return Rules(self._variant, rows, cols, swap)

    def _new_game(self, rules: Rules) -> None:
        self._state = GameState(rules)
        self._bot.clear()
        self._clock.restart()

    def _loaded(self, text: str, number: int | None) -> GameState:
        """The game of a record's text, up to just before move ``number`` (GTP's loadsgf)."""
        keep = None if number is None else max(0, number - 1)
        if text.lstrip().startswith("("):
            sgf = read_sgf_position(text)
            if sgf.setup:
                _check_variant(sgf.rules)
                base = Position.empty(sgf.rules)
                for color, cell in sgf.setup:
                    base = base.place(color, cell)
                if not base.is_over:
                    base = base.with_to_move(sgf.to_move)
                state = GameState(Rules(sgf.rules.variant, sgf.rules.rows, sgf.rules.cols, "off"), base)
                for move in sgf.moves[:keep]:
                    if move.value in ("resign", "forfeit"):
                        break
                    state.play(move.color, move.value, setup=True)
                return state
        record = GameRecord.parse(text)
        _check_variant(record.rules)
        state = GameState(record.rules)
        actions = record.actions if keep is None else record.actions[:keep]
        for action in actions:
            move = SWAP if action.result is MoveResult.SWAPPED else action.cell.name
            state.play(action.color, move)
        if keep is None or keep >= len(record.actions):
            if record.end_reason in ("resignation", "timeout") and record.winner is not None:
                state.end(record.winner.opponent, record.end_reason)
        return state

    def _incoming_swap(self, word: str) -> SwapForm:
        if self._dialect != "standard":
            return "sides"  # Benzene's and HexGui 0.9's swap-pieces, and every HexGui's swap
        if word == "swap":
            return self._state.rules.swap  # type: ignore[return-value]
        return "sides" if word == "swap-sides" else "pieces"

    def _answer_swap_form(self) -> SwapForm:
        return self._state.rules.swap if self._dialect == "standard" else "sides"  # type: ignore[return-value]

    def _swap_word(self, form: SwapForm) -> str:
        if self._dialect == "hexgui":
            return "swap"
        if self._dialect == "benzene":
            return "swap-pieces"
        return f"swap-{form}"

    def _move_word(self, move: Move) -> str:
        return self._swap_word(self._answer_swap_form()) if move == SWAP else move.name  # type: ignore[union-attr]

    def _solve(self, color: Color, *, winning_moves: bool) -> tuple[Color, tuple[Move, ...]]:
        """The winner with ``color`` to move, and ``color``'s winning moves if asked."""
        game = self._state.game
        mirrored = False
        if game is not None and game.to_move == color:
            target: Any = game
        else:
            position = self._state.as_position(color)
            if color is BLUE and not position.board.any():
                # The solver reads an empty board as a game's start, Red to move: it solves the
                # mirror image (rows and columns exchanged, and the colours), which is the same.
                r = position.rules
                position = Position(Rules(r.variant, r.cols, r.rows, "off"), position.board.T, RED)
                mirrored = True
            target = position.view()
        p = self._solver
        result = solve(
            target,
            winning_moves=winning_moves,
            max_nodes=p["max_nodes"] or None,
            max_seconds=p["timelimit"] or None,
            # A guess spares work only where one winning move is enough.
            guess=0 if winning_moves else p["guess"],
        )
        if result.winner is None:
            limit = {"nodes": "node limit", "time": "time limit", "memory": "memory limit"}
            raise Failure(
                f"unknown: the solver stopped at its {limit.get(result.status, result.status)} "
                f"({result.nodes} nodes, {result.seconds:.1f} s); param_dfpn timelimit and max_nodes raise it"
            )
        moves = tuple(result.winning_moves or ())
        if mirrored:
            return result.winner.opponent, tuple(Cell(m.col, m.row) for m in moves)  # type: ignore[union-attr]
        return result.winner, moves

    def _analyse(self, args: list[str]) -> Any:
        _arity(args, 0, "this analysis command")
        state = self._state
        if state.is_over:
            raise Failure(f"the game is over ({state.status()})")
        color = state.to_move
        assert color is not None
        if state.game is None:
            self._bot.clear()
        return self._bot.analyse(state.view(color))

    def _set_level(self, level: str) -> None:
        if level not in LEVELS:
            raise Failure(f"unknown level {level!r}: expected easy, medium or hard")
        self._given.pop("simulations", None)
        self._given.pop("seconds", None)
        self._level = level

    def _settings(self) -> dict[str, Any]:
        """The search settings in force: the level's preset under what was given."""
        preset = LEVELS.get(self._level, {})
        g = self._given
        if "simulations" in g or "seconds" in g:
            simulations, seconds = g.get("simulations", 0), g.get("seconds", 0.0)
        else:
            simulations, seconds = preset.get("simulations", 0), preset.get("seconds", 0.0)
        if not simulations and not seconds:
            simulations = DEFAULT_SIMULATIONS
        return {
            "simulations": simulations,
            "seconds": seconds,
            "threads": g.get("threads", preset.get("threads", 1)),
            "seed": g["seed"],
        }

    def _make_bot(self) -> MCTSBot:
        s = self._settings()
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

    def _move_budget(self, color: Color, view: Any) -> dict[str, Any]:
        """The budget of one move: the bot's own (empty), or under a clock the clock's time
        (capped by seconds and simulations given explicitly). The bot, and with it the tree
        of the game, stays the same."""
        empty = int((view.board == 0).sum())
        given = self._given
        return self._clock.move_budget(color, empty, given.get("simulations"), given.get("seconds"))


def _check_variant(rules: Rules) -> None:
    if rules.variant not in HTP_VARIANTS:
        raise Failure(
            f"variant {rules.variant!r} is not offered over HTP: HTP has no hidden stones; play Dark Hex "
            "with 'hexengine play' or hexengine.Table"
        )


def _rules_or_failure(variant: str, rows: int, cols: int, swap: str | None) -> Rules:
    try:
        return Rules(variant, rows, cols, swap)  # type: ignore[arg-type]
    except HexError as e:
        raise Failure(str(e)) from None


def _arity(args: list[str], n: int, usage: str) -> None:
    if len(args) != n:
        raise Failure(f"expected {n} argument{'s' if n != 1 else ''}: {usage}")


def _color(word: str) -> Color:
    color = COLORS.get(word.lower())
    if color is None:
        raise Failure(f"unknown colour {_printable(word)!r}: expected black, white, b or w")
    return color


def _integer(word: str, what: str, minimum: int = 1, maximum: int | None = None) -> int:
    if re.fullmatch(r"\d{20,}", word):
        raise Failure(f"{what} must be a whole number of at most 19 digits, not {word!r}")
    if not re.fullmatch(r"\d{1,19}", word):
        raise Failure(f"{what} must be a whole number, not {_printable(word)!r}")
    value = int(word)
    if value < minimum:
        raise Failure(f"{what} must be at least {minimum}, not {value}")
    if maximum is not None and value > maximum:
        top = "2**63 - 1" if maximum == MAX_COUNT else str(maximum)
        raise Failure(f"{what} must be at most {top}, not {value}")
    return value


def _seconds(word: str, what: str) -> float:
    try:
        value = float(word)
    except ValueError:
        raise Failure(f"{what} must be a number, not {_printable(word)!r}") from None
    if not math.isfinite(value) or value < 0:
        raise Failure(f"{what} must be a finite number of at least 0, not {_printable(word)!r}")
    return value


def _bool(word: str, what: str) -> bool:
    if word in ("1", "true", "on", "yes"):
        return True
    if word in ("0", "false", "off", "no"):
        return False
    raise Failure(f"{what} must be 0 or 1, not {_printable(word)!r}")


def _htp_name(color: Color | None) -> str:
    return "Black" if color is RED else "White"


def _htp_word(color: Color | None) -> str:
    return "black" if color is RED else "white"


def _number_text(value: float) -> str:
    return f"{value:g}"


def _printable(text: str) -> str:
    return text.encode("ascii", errors="backslashreplace").decode("ascii")[:40]


def _one_line(text: str) -> str:
    return " ".join(text.split())
