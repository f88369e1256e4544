"""Driving external HTP engines (MoHex, Wolve, hexengine itself) from Python.

Modelled on python-chess's ``chess.engine``: :func:`popen` starts an engine,
:meth:`HtpClient.play` asks it for a move in a game and :meth:`HtpClient.quit`
ends it. The client brings the engine's board up to date with the game
(``boardsize``, ``clear_board`` and ``play`` only when needed), applies the
search limit through the engine's own parameters where it knows them
(``param_hexengine`` for hexengine, ``param_mohex`` for MoHex), asks for
``genmove`` and reads the answer into a move. It never plays the move in your
game: you (or the match runner) decide whether it is legal.

The client takes a :class:`~hexengine.Game` or a player's
:class:`~hexengine.View` (it uses the view of the player to move); Dark Hex
cannot be played over HTP.

>>> import sys, hexengine as hx
>>> engine = hx.htp.popen([sys.executable, "-m", "hexengine.cli", "htp", "--simulations", "100"])
>>> engine.name
'hexengine'
>>> game = hx.Game("hex", size=5, swap="off")
>>> _ = game.play("c3")
>>> result = engine.play(game, hx.htp.Limit(simulations=50))
>>> result.move in game.legal_moves()
True
>>> engine.quit()
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import subprocess
import threading
import time
import warnings
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .._moves import SWAP, Move, cell_index
from ..cells import Cell
from ..errors import ConfigError, HexError
from ..game import Game, View
from ..rules import RED, MoveResult, Rules

__all__ = ["EngineError", "EngineTimeout", "HtpClient", "HtpError", "Limit", "PlayResult", "popen"]

Dialect = Literal["standard", "benzene", "hexgui"]
#: How each dialect names the two swap forms (see :mod:`hexengine.htp`): ``standard``
#: the SGF standard's words (``hexgui``, their older name here, is the same);
#: ``benzene`` Benzene's, whose ``swap-pieces`` is the sides swap.
SWAP_NAMES: dict[str, dict[str, str]] = {
    "standard": {"sides": "swap-sides", "pieces": "swap-pieces"},
    "hexgui": {"sides": "swap-sides", "pieces": "swap-pieces"},
    "benzene": {"sides": "swap-pieces"},
}


class EngineError(HexError):
    """The engine failed: it exited, did not answer in time, or answered something that is not a move."""


class EngineTimeout(EngineError):
    """The engine did not answer in time (it has been stopped)."""


class HtpError(EngineError):
    """The engine answered ``? message`` to ``command``."""

    def __init__(self, command: str, message: str) -> None:
        super().__init__(f"the engine refused {command!r}: {message}")
        self.command = command
        self.message = message


@dataclass(frozen=True)
class Limit:
    """How long the engine may search for one move: ``simulations`` (playouts), ``seconds``, or both.

    Applied through the engine's parameters where the client knows them
    (hexengine: ``param_hexengine simulations|seconds``; MoHex: ``param_mohex
    max_games|max_time``); other engines search as configured.
    """

    simulations: int | None = None
    seconds: float | None = None


@dataclass(frozen=True)
class PlayResult:
    """The engine's answer to ``genmove``: a cell or ``"swap"``, or ``resigned``."""

    move: Move | None
    resigned: bool = False
    answer: str = ""


class HtpClient:
    """A running HTP engine. Make one with :func:`popen`.

    ``name`` is what the engine calls itself; ``dialect`` is how it names swaps
    (``"standard"``: the SGF standard's ``swap-sides``/``swap-pieces``, also
    accepted as ``"hexgui"``; ``"benzene"``: ``swap-pieces`` for the sides
    form, as MoHex does);
    ``timeout`` is the default number of seconds an answer may take.
    """

    def __init__(
        self,
        process: subprocess.Popen[str],
        *,
        command: Sequence[str],
        timeout: float | None = 60.0,
        dialect: Dialect | None = None,
        startup_timeout: float = 60.0,
    ) -> None:
        self._process = process
        self.command = list(command)
        self.timeout = timeout
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=30)
        self._closed = False
        threading.Thread(target=self._pump, args=(process.stdout, self._lines), daemon=True).start()
        if process.stderr is not None:
            threading.Thread(target=self._pump_stderr, args=(process.stderr,), daemon=True).start()
        try:
            self.name = self.send("name", timeout=startup_timeout).strip()
        except HtpError:
            self.name = ""
        self.name = self.name or os.path.basename(self.command[0])
        try:
            self.commands = set(self.send("list_commands", timeout=startup_timeout).split())
        except HtpError:
            self.commands = set()
        benzene = "param_mohex" in self.commands or self.name.lower() in ("mohex", "wolve")
        self.dialect: Dialect = dialect or ("benzene" if benzene else "standard")
        if self.dialect not in SWAP_NAMES:
            raise ConfigError(
                f"unknown HTP dialect {self.dialect!r}: expected 'standard', 'benzene' or 'hexgui'"
            )
        self._rules: Rules | None = None
        self._sent: list[tuple[str, str]] | None = None
        self._limit: Limit | None = None

    # ------------------------------------------------------------------ raw protocol

    def send(self, command: str, *, timeout: float | None = None) -> str:
        """Sends one command and returns the engine's answer; raises :class:`HtpError` for
        ``? message`` and :class:`EngineError` when the engine dies or stays silent."""
        if self._closed:
            raise EngineError(f"the engine {self.command[0]!r} has been closed")
        if "\n" in command or "\r" in command:
            raise ConfigError(f"an HTP command is one line, not {command!r}")
        try:
            assert self._process.stdin is not None
            self._process.stdin.write(command + "\n")
            self._process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._died(command) from None
        wait = self.timeout if timeout is None else timeout
        deadline = None if wait is None else time.monotonic() + wait
        lines: list[str] = []
        while True:
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                line = self._lines.get(timeout=remaining)
            except queue.Empty:
                self.kill()
                raise EngineTimeout(
                    f"the engine gave no answer to {command!r} within {wait:g} s (it was stopped)"
                ) from None
            if line is None:
                raise self._died(command)
            line = line.rstrip("\r\n")
            if not lines:
                if not line.strip():
                    continue
                if line[0] not in "=?":
                    continue  # noise before a response is not part of it
            elif line == "":
                break  # only an empty line ends a response (MoHex's board has a line of one space)
            lines.append(line)
        head, rest = lines[0], lines[1:]
        text = "\n".join([head[1:].lstrip("0123456789").strip(), *rest]).strip()
        if head[0] == "?":
            raise HtpError(command, text)
        return text

    # ------------------------------------------------------------------ games

    def play(
        self,
        game: Game | View,
        limit: Limit | None = None,
        *,
        timeout: float | None = None,
        time_left: float | None = None,
    ) -> PlayResult:
        """The engine's move for the player to move in ``game`` (a Game, or a View of it).

        ``timeout`` (default: the client's) bounds the wait for the answer; an
        engine that takes longer is stopped and :class:`EngineError` raised.
        ``time_left`` (seconds on the mover's clock, in main time) is sent first as
        GTP's ``time_left`` when the engine knows that command (see
        :meth:`time_settings`); Benzene's engines take it without the stones count.
        An engine that refuses it is warned about once and not told again.
        """
        view = _view_of(game)
        rules = view.rules
        if view.is_over or view.to_move is None:
            raise ConfigError("the game is over: there is no move to ask for")
        moves = self._htp_moves(view)
        if rules != self._rules:
            self._setup(rules)
        if self._sent is None or self._sent != moves[: len(self._sent)]:
            self._clear_board()
        for color, word in moves[len(self._sent) :]:
            self.send(f"play {color} {word}")
            self._sent.append((color, word))
        if limit is not None and limit != self._limit:
            self._apply_limit(limit)
        color = "b" if view.to_move is RED else "w"
        if time_left is not None and "time_left" in self.commands:
            self._tell_time_left(color, max(0.0, time_left))
        answer = self.send(f"genmove {color}", timeout=timeout).strip().lower()
        result = self._read_answer(answer, rules)
        if not result.resigned:
            self._sent.append((color, answer))
        return result

    def new_game(self) -> None:
        """Forgets what the engine was told: the next :meth:`play` starts from ``clear_board``."""
        self._sent = None

    def time_settings(self, main: float, byo_yomi: float = 0.0, stones: int = 0) -> bool:
        """Tells the engine the game's clock with GTP's ``time_settings`` (``main`` seconds
        each, then byo-yomi periods of ``byo_yomi`` seconds for ``stones`` moves; 0 and 0:
        sudden death); False, and nothing sent, when the engine does not know the command.

        Benzene's engines (MoHex, Wolve) have no ``time_settings``; a sudden-death clock
        reaches them as ``param_game game_time``, which sets both sides' clocks and which
        they take only on an empty board, so the board is cleared first.
        """
        if "time_settings" in self.commands:
            self.send(f"time_settings {main:g} {byo_yomi:g} {int(stones)}")
            return True
        if self.dialect == "benzene" and "param_game" in self.commands and not byo_yomi:
            if self._sent != []:
                self._clear_board()
            self.send(f"param_game game_time {main:g}")
            return True
        return False

    # ------------------------------------------------------------------ ending

    def quit(self) -> None:
        """Sends ``quit`` and waits for the engine to exit (stopping it after 5 s, or at once
        if interrupted)."""
        if self._closed:
            return
        try:
            with contextlib.suppress(EngineError):
                self.send("quit", timeout=5.0)
            self._closed = True
            self._process.wait(timeout=5.0)
        except subprocess.TimeoutExpired:
            self.kill()
        except BaseException:  # interrupted (Ctrl-C, a stop) while the engine was to quit
            self.kill()
            raise
        self._close_pipes()

    def kill(self) -> None:
        """Stops the engine at once."""
        self._closed = True
        with contextlib.suppress(OSError):
            self._process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout=5.0)
        self._close_pipes()

    @property
    def alive(self) -> bool:
        """Whether the engine process is still running and usable."""
        return not self._closed and self._process.poll() is None

    def __enter__(self) -> HtpClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()

    def __repr__(self) -> str:
        state = "running" if self.alive else "closed"
        return f"<HtpClient {self.name!r} ({state}, pid {self._process.pid})>"

    # ------------------------------------------------------------------ internals

    def _clear_board(self) -> None:
        self.send("clear_board")
        self._sent = []

    def _tell_time_left(self, color: str, seconds: float) -> None:
        # GTP's form counts the stones left in a byo-yomi period (0: main time);
        # Benzene's takes only the colour and the seconds.
        stones = "" if self.dialect == "benzene" else " 0"
        try:
            self.send(f"time_left {color} {seconds:.3f}{stones}")
        except HtpError as e:
            self.commands.discard("time_left")
            warnings.warn(
                f"{self.name} refused {e.command!r} ({e.message}); it is not told its clock again",
                RuntimeWarning,
                stacklevel=3,
            )

    def _setup(self, rules: Rules) -> None:
        if rules.is_dark:
            raise ConfigError("Dark Hex cannot be played over HTP: the protocol has no hidden stones")
        self._rules = None
        size = f"{rules.cols}" if rules.rows == rules.cols else f"{rules.cols} {rules.rows}"
        self.send(f"boardsize {size}")
        if "param_hexengine" in self.commands:
            self.send(f"param_game variant {rules.variant}")
            self.send(f"param_game swap {rules.swap}")
        elif "param_game" in self.commands and self.dialect == "benzene":
            if rules.swap == "pieces":
                raise ConfigError(f"{self.name} knows only the 'sides' swap (it calls it swap-pieces)")
            self.send(f"param_game allow_swap {int(rules.swap != 'off')}")
        if rules.variant != "hex" and "param_hexengine" not in self.commands:
            warnings.warn(
                f"{self.name} is not told that this game is {rules.variant} (no known command for it); "
                "it may play it as Hex unless its setup commands say otherwise",
                RuntimeWarning,
                stacklevel=3,
            )
        self._rules = rules
        self._sent = None

    def _apply_limit(self, limit: Limit) -> None:
        if "param_hexengine" in self.commands:
            self.send(f"param_hexengine simulations {int(limit.simulations or 0)}")
            self.send(f"param_hexengine seconds {float(limit.seconds or 0.0):g}")
        elif "param_mohex" in self.commands:
            self.send(f"param_mohex max_games {int(limit.simulations or 99_999_999)}")
            self.send(f"param_mohex max_time {float(limit.seconds or 1_000_000.0):g}")
        self._limit = limit

    def _htp_moves(self, view: View) -> list[tuple[str, str]]:
        rules = view.rules
        if rules.is_dark:
            raise ConfigError("Dark Hex cannot be played over HTP: the protocol has no hidden stones")
        names = SWAP_NAMES[self.dialect]
        moves = []
        for action in view.history:
            color = "b" if action.color is RED else "w"
            if action.result is MoveResult.SWAPPED:
                if rules.swap not in names:
                    raise ConfigError(f"{self.name} has no name for the {rules.swap!r} swap")
                moves.append((color, names[rules.swap]))  # type: ignore[index]
            else:
                assert action.cell is not None
                moves.append((color, action.cell.name))
        return moves

    def _read_answer(self, answer: str, rules: Rules) -> PlayResult:
        if answer == "resign":
            return PlayResult(None, True, answer)
        if answer.startswith("swap"):
            forms = {v: k for k, v in SWAP_NAMES[self.dialect].items()}
            form = rules.swap if answer == "swap" else forms.get(answer)
            if form is None or form != rules.swap:
                raise EngineError(
                    f"{self.name} answered {answer!r}, which is not this game's swap "
                    f"(its form is {rules.swap!r})"
                )
            return PlayResult(SWAP, False, answer)
        try:
            index = cell_index(answer, rules.rows, rules.cols)
        except HexError:
            raise EngineError(f"{self.name} answered {answer!r}, which is not a move on this board") from None
        return PlayResult(Cell.from_index(index, rules.cols), False, answer)

    def _died(self, command: str) -> EngineError:
        self._closed = True
        try:
            code = self._process.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            code = None
        tail = " | ".join(list(self._stderr)[-5:])
        detail = f"; its last words: {tail}" if tail else ""
        self._close_pipes()
        return EngineError(f"the engine exited (code {code}) while answering {command!r}{detail}")

    def _close_pipes(self) -> None:
        for pipe in (self._process.stdin, self._process.stdout, self._process.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError, ValueError):
                    pipe.close()

    @staticmethod
    def _pump(stream: Any, lines: queue.Queue[str | None]) -> None:
        try:
            for line in iter(stream.readline, ""):
                lines.put(line)
        except (OSError, ValueError):
            pass
        lines.put(None)

    def _pump_stderr(self, stream: Any) -> None:
        try:
            for line in iter(stream.readline, ""):
                self._stderr.append(line.rstrip())
        except (OSError, ValueError):
            pass


def popen(
    command: str | Sequence[str],
    *,
    setup: Sequence[str] = (),
    timeout: float | None = 60.0,
    dialect: Dialect | None = None,
    stderr: Literal["capture", "inherit", "discard"] = "capture",
    cwd: str | None = None,
) -> HtpClient:
    """Starts the HTP engine ``command`` (a string is split like a shell would) and returns
    its client, after sending the ``setup`` commands (each must succeed).

    ``stderr``: ``"capture"`` keeps the engine's last lines for error messages,
    ``"inherit"`` shows them, ``"discard"`` drops them.

    >>> hx.htp.popen(["no-such-engine-anywhere"])
    Traceback (most recent call last):
    ...
    hexengine.htp.client.EngineError: cannot start the engine ['no-such-engine-anywhere']: ...
    """
    args = shlex.split(command) if isinstance(command, str) else list(command)
    if not args:
        raise ConfigError("an engine command cannot be empty")
    err: Any = {"capture": subprocess.PIPE, "inherit": None, "discard": subprocess.DEVNULL}.get(stderr)
    if stderr not in ("capture", "inherit", "discard"):
        raise ConfigError(f"stderr must be 'capture', 'inherit' or 'discard', not {stderr!r}")
    try:
        process = subprocess.Popen(
            args,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
            cwd=cwd,
        )
    except OSError as e:
        raise EngineError(f"cannot start the engine {args!r}: {e}") from None
    try:
        client = HtpClient(process, command=args, timeout=timeout, dialect=dialect)
        for line in setup:
            client.send(line)
    except BaseException:
        with contextlib.suppress(Exception):
            process.kill()
            process.wait(timeout=5.0)
        raise
    return client


def _view_of(game: Game | View) -> View:
    if isinstance(game, Game):
        if game.to_move is None:
            raise ConfigError("the game is over: there is no move to ask for")
        return game.view(game.to_move)
    if isinstance(game, View):
        return game
    raise TypeError(f"play() takes a hexengine Game or View, not {type(game).__name__}")
