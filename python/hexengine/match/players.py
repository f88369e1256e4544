"""Match players: the spec strings that name them and the players they make.

A player is given as a spec string (``hexengine match --player SPEC``):

- ``mcts`` or ``mcts:simulations=1000;threads=1;seed=7``: :class:`~hexengine.MCTSBot`
  with any of its keyword arguments; ``level=easy|medium|hard`` starts from a preset;
  ``onnx=PATH`` (an :class:`~hexengine.OnnxEvaluator`) or ``evaluator=MODULE:FUNCTION``
  gives it an evaluator (:func:`hexengine.networks.load_evaluator`).
- ``computer:LEVEL``: the table's computer at that level
  (:func:`hexengine.table.computer_bot`: MCTS in Hex and Rex; in Dark Hex whatever
  the table plays, today a random player).
- ``random`` or ``random:seed=3``: :class:`~hexengine.RandomBot`.
- ``htp:COMMAND;option=value;...``: an external HTP engine started with
  COMMAND (split like a shell would). Options: ``setup=CMD`` (an HTP command
  sent once after start; repeat it for several), ``simulations=N`` and
  ``seconds=S`` (the limit per move, sent as the engine's own parameters
  when the client knows them: hexengine and MoHex), ``timeout=S`` (seconds an
  answer may take before the engine forfeits; default 60), ``dialect=standard|benzene``
  (how it names swaps; MoHex is recognised), ``stderr=capture|inherit|discard``.
- ``python:MODULE:NAME;key=value;...``: ``MODULE.NAME(**options)`` must return an
  object with ``choose(view) -> move`` (e.g. an adapter around another library's bot).

Every spec takes ``name=...`` for the reports. Built-in bots without an explicit
``seed`` get the match seed plus the game number, so games differ.

>>> spec = parse_player("random:seed=3;name=R")
>>> spec.kind, spec.options, spec.name
('random', {'seed': 3, 'name': 'R'}, 'R')
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .._moves import Move
from ..bots import MCTSBot, RandomBot
from ..errors import HexError
from ..game import Game, View
from ..networks import load_evaluator
from ..rules import RED, Rules
from ..table.computer import computer_bot
from .errors import MatchError

__all__ = [
    "HTP_OPTIONS",
    "KINDS",
    "MCTS_OPTIONS",
    "PlayerSpec",
    "Players",
    "Resigned",
    "check_players",
    "parse_player",
    "report_names",
]

KINDS = ("mcts", "computer", "random", "htp", "python")
# Every keyword argument of MCTSBot, plus a level preset and an ONNX network.
MCTS_OPTIONS = (*(p for p in inspect.signature(MCTSBot).parameters if p != "self"), "level", "onnx")
HTP_OPTIONS = ("setup", "simulations", "seconds", "timeout", "dialect", "stderr", "name")


class Resigned(Exception):
    """Raised by a player that resigns."""


@dataclass(frozen=True)
class PlayerSpec:
    """A parsed player spec: ``kind``, ``target`` (the HTP command or ``module:name``),
    ``options`` and the ``text`` it came from."""

    kind: str
    options: dict[str, Any]
    text: str
    target: str = ""
    setup: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """The name in reports: ``name=`` if given, else the spec text (an engine's program
        without its directory)."""
        if self.options.get("name"):
            return str(self.options["name"])
        if self.kind == "htp":
            words = self.target.split(maxsplit=1)
            program = os.path.basename(words[0]) if words else ""
            return " ".join(["htp:" + program, *words[1:]]) + "".join(
                f";{k}={v}" for k, v in self.options.items() if k in ("simulations", "seconds")
            )
        return self.text

    def build(self, rules: Rules, seed: int) -> Any:
        """A fresh player for one game (HTP engines are started by :class:`Players` and kept)."""
        opts = {k: v for k, v in self.options.items() if k != "name"}
        if self.kind == "mcts":
            level = opts.pop("level", None)
            opts.setdefault("seed", seed)
            if "onnx" in opts or "evaluator" in opts:
                opts["evaluator"] = load_evaluator(
                    onnx=opts.pop("onnx", None), evaluator=opts.pop("evaluator", None)
                )
            return MCTSBot.level(str(level), **opts) if level else MCTSBot(**opts)
        if self.kind == "random":
            return RandomBot(opts.get("seed", seed), swap=bool(opts.get("swap", True)))
        if self.kind == "computer":
            return computer_bot(opts.get("level", "medium"), rules, opts.get("seed", seed))
        if self.kind == "python":
            module_name, _, attr = self.target.partition(":")
            try:
                factory = getattr(importlib.import_module(module_name), attr)
            except (ImportError, AttributeError) as e:
                raise MatchError(f"cannot load {self.target!r}: {e}") from None
            bot = factory(**opts)
            if not callable(getattr(bot, "choose", None)):
                raise MatchError(f"{self.target} made {bot!r}, which has no choose(view) method")
            return bot
        raise MatchError(f"{self.kind} players are not built per game")


def parse_player(text: str) -> PlayerSpec:
    """Reads a player spec (see the module docstring).

    >>> parse_player("mcts:simulations=1000;threads=2").options
    {'simulations': 1000, 'threads': 2}
    >>> spec = parse_player("htp:/opt/mohex --quiet;setup=param_mohex max_games 1000;timeout=30")
    >>> spec.target, spec.setup, spec.options
    ('/opt/mohex --quiet', ('param_mohex max_games 1000',), {'timeout': 30})
    >>> parse_player("alphazero")
    Traceback (most recent call last):
    ...
    hexengine.match.errors.MatchError: unknown player kind 'alphazero' in 'alphazero': expected mcts, ...
    """
    if not isinstance(text, str) or not text.strip():
        raise MatchError("a player spec cannot be empty")
    text = text.strip()
    kind, _, rest = text.partition(":")
    kind = kind.strip().lower()
    if kind not in KINDS:
        raise MatchError(
            f"unknown player kind {kind!r} in {text!r}: expected {', '.join(KINDS[:-1])} or python"
        )
    if kind == "htp":
        command, *parts = rest.split(";")
        if not command.strip():
            raise MatchError(f"{text!r}: an htp player needs a command, e.g. 'htp:mohex --quiet'")
        options, setup = _options(parts, text, allowed=HTP_OPTIONS)
        return PlayerSpec(kind, options, text, command.strip(), tuple(setup))
    if kind == "python":
        target, *parts = rest.split(";")
        if ":" not in target:
            raise MatchError(f"{text!r}: a python player is 'python:module.path:factory'")
        options, _ = _options(parts, text, allowed=None)
        return PlayerSpec(kind, options, text, target.strip())
    parts = [p for chunk in rest.split(";") for p in chunk.split(",")] if rest else []
    if kind == "computer" and parts and "=" not in parts[0]:
        parts[0] = f"level={parts[0]}"
    allowed = {"mcts": MCTS_OPTIONS, "random": ("seed", "swap"), "computer": ("level", "seed")}[kind]
    options, _ = _options(parts, text, allowed=(*allowed, "name"))
    if kind == "computer" and options.get("level", "medium") not in ("easy", "medium", "hard"):
        raise MatchError(f"{text!r}: level must be easy, medium or hard")
    if kind == "mcts":
        try:
            PlayerSpec(kind, options, text).build(Rules("hex", 3, 3), 0)
        except (HexError, TypeError) as e:
            raise MatchError(f"{text!r}: {e}") from None
    return PlayerSpec(kind, options, text)


def _options(
    parts: Iterable[str], text: str, allowed: Sequence[str] | None
) -> tuple[dict[str, Any], list[str]]:
    options: dict[str, Any] = {}
    setup: list[str] = []
    for part in parts:
        part = part.strip()
        if not part:
            continue
        key, eq, value = part.partition("=")
        key = key.strip().lower().replace("-", "_")
        if not eq:
            raise MatchError(f"{text!r}: expected key=value, not {part!r}")
        if allowed is not None and key not in allowed:
            raise MatchError(f"{text!r}: unknown option {key!r}; options: {', '.join(allowed)}")
        if key == "setup":
            setup.append(value.strip())
        else:
            options[key] = _value(value.strip())
    return options, setup


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def report_names(specs: tuple[PlayerSpec, PlayerSpec]) -> tuple[str, str]:
    """The two players' names in reports and records, told apart by seat when they are the same.

    >>> report_names((parse_player("random"), parse_player("random")))
    ('random (A)', 'random (B)')
    """
    a, b = specs[0].name, specs[1].name
    if a == b:
        a, b = f"{a} (A)", f"{b} (B)"
    return a, b


class StopGate:
    """Defers a stop requested while an HTP engine is being started in this process until the
    engine is held where the stop can reach it. Signal handlers run in the main thread, as
    engines are started, so a plain count serves."""

    def __init__(self) -> None:
        self._starting = 0
        self._pending: Callable[[], None] | None = None

    @contextlib.contextmanager
    def starting(self) -> Iterator[None]:
        """Wraps the start of an engine."""
        self._starting += 1
        try:
            yield
        finally:
            self._starting -= 1
            if not self._starting and self._pending is not None:
                stop, self._pending = self._pending, None
                stop()

    def request(self, stop: Callable[[], None]) -> None:
        """Runs ``stop`` now, or once no engine is being started."""
        if self._starting:
            self._pending = stop
        else:
            stop()


#: The gate of this process (execution.py's worker stop goes through it).
stop_gate = StopGate()


class _HtpPlayer:
    """An external engine kept running across games, restarted after a failure."""

    def __init__(self, spec: PlayerSpec) -> None:
        from ..htp.client import Limit

        self.spec = spec
        self.client: Any = None
        o = spec.options
        self.limit = (
            Limit(o.get("simulations"), o.get("seconds")) if ("simulations" in o or "seconds" in o) else None
        )
        self.timeout = float(o.get("timeout", 60.0))

    def start(self) -> None:
        from ..htp.client import popen

        if self.client is None or not self.client.alive:
            # A worker's stop (execution.py) waits until the engine is held here to be stopped.
            with stop_gate.starting():
                self.client = popen(
                    self.spec.target,
                    setup=self.spec.setup,
                    timeout=max(self.timeout, 30.0),
                    dialect=self.spec.options.get("dialect"),
                    stderr=self.spec.options.get("stderr", "capture"),
                )

    def new_game(self, clock: float = 0.0) -> None:
        self.start()
        self.client.new_game()
        if clock:
            self.client.time_settings(clock)

    def choose(self, view: View, time_left: float | None = None) -> Move:
        self.start()
        # On a clock the wait ends a little after the time left: the referee has flagged it by then.
        wait = self.timeout if time_left is None else min(self.timeout, time_left + 2.0)
        result = self.client.play(view, self.limit, timeout=wait, time_left=time_left)
        if result.resigned:
            raise Resigned()
        return result.move  # type: ignore[no-any-return]

    def close(self) -> None:
        self._release("quit")

    def kill(self) -> None:
        self._release("kill")

    def _release(self, how: str) -> None:
        # The client is let go first, so that even an interrupted quit leaves none behind.
        client, self.client = self.client, None
        if client is not None:
            with contextlib.suppress(Exception):
                getattr(client, how)()


class Players:
    """The two players of one process: HTP engines live across games, bots are made per game."""

    def __init__(self, specs: tuple[PlayerSpec, PlayerSpec]) -> None:
        self.specs = specs
        self.engines = {seat: _HtpPlayer(s) for seat, s in zip("AB", specs, strict=True) if s.kind == "htp"}

    def for_game(self, seat: str, rules: Rules, seed: int, clock: float = 0.0) -> Any:
        """Seat ``seat``'s player for a new game (``A`` or ``B``); an HTP engine is told the
        ``clock`` (seconds of main time for each side), if any."""
        if seat in self.engines:
            engine = self.engines[seat]
            engine.new_game(clock)
            return engine
        return self.specs["AB".index(seat)].build(rules, seed)

    def limits(self, seat: str) -> tuple[int | None, float | None]:
        """The ``simulations`` and ``seconds`` seat ``seat``'s spec gives explicitly (they cap
        what a clock gives its searches, as in hexengine's HTP engine)."""
        options = self.specs["AB".index(seat)].options
        return options.get("simulations"), options.get("seconds")

    def close(self) -> None:
        """Stops the engines."""
        for engine in self.engines.values():
            engine.close()

    def kill(self) -> None:
        """Stops the engines at once, without waiting for a move they are thinking over."""
        for engine in self.engines.values():
            engine.kill()


def check_players(
    specs: Sequence[PlayerSpec], rules: Rules, labels: Sequence[str] = "AB", start_engines: bool = True
) -> None:
    """Fails early, with a clear message, for players that cannot play these rules at all;
    ``labels`` name the players in it. HTP engines are started once to see that they run,
    unless ``start_engines`` is false (when the games are played on other machines)."""
    for seat, spec in zip(labels, specs, strict=True):
        if spec.kind == "htp":
            if rules.is_dark:
                raise MatchError(f"player {seat} ({spec.name}) speaks HTP, which cannot play Dark Hex")
            if not start_engines:
                continue
            engine = _HtpPlayer(spec)
            try:
                engine.start()
            except HexError as e:
                raise MatchError(f"player {seat} ({spec.name}): {e}") from None
            finally:
                engine.close()
        elif spec.kind in ("mcts", "python") and rules.is_dark:
            try:
                spec.build(rules, 0).choose(Game(rules).view(RED))
            except HexError as e:
                raise MatchError(f"player {seat} ({spec.name}) cannot play {rules.variant}: {e}") from None
        elif spec.kind == "python":
            spec.build(rules, 0)
