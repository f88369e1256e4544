"""Matches: N games between two players, adjudicated by hexengine's referee.

A player is given as a spec string (``hexengine match --player SPEC``):

- ``mcts`` or ``mcts:simulations=1000;threads=1;seed=7``: :class:`~hexengine.MCTSBot`
  with any of its keyword arguments; ``level=easy|medium|hard`` starts from a preset.
- ``computer:LEVEL``: the table's computer at that level
  (:func:`hexengine.table.computer_bot`: MCTS in Hex and Rex; in Dark Hex whatever
  the table plays, today a random player).
- ``random`` or ``random:seed=3``: :class:`~hexengine.RandomBot`.
- ``htp:COMMAND;option=value;...``: an external HTP engine started with
  COMMAND (split like a shell would). Options: ``setup=CMD`` (an HTP command
  sent once after start; repeat it for several), ``simulations=N`` and
  ``seconds=S`` (the limit per move, sent as the engine's own parameters
  when the client knows them: hexengine and MoHex), ``timeout=S`` (seconds an
  answer may take before the engine forfeits; default 60), ``dialect=hexgui|benzene``
  (how it names swaps; MoHex is recognised), ``stderr=capture|inherit|discard``.
- ``python:MODULE:NAME;key=value;...``: ``MODULE.NAME(**options)`` must return an
  object with ``choose(view) -> move`` (e.g. an adapter around another library's bot).

Every spec takes ``name=...`` for the reports. Built-in bots without an explicit
``seed`` get the match seed plus the game number, so games differ.

The referee decides everything: an engine's claim of a win is never asked for
and its moves are checked by the rules. A player that resigns loses; one that
answers an illegal move, crashes, or stays silent past its ``timeout``
forfeits the game (logged; a crashed engine is restarted for the next game).

>>> import hexengine as hx
>>> from hexengine.match import run_match
>>> result = run_match("mcts:simulations=200", "random", games=4, rules=hx.Rules("hex", 5, 5, "off"), jobs=1)
>>> result.wins, result.games_played
({'A': 4, 'B': 0}, 4)
>>> print(result.summary())                             # doctest: +ELLIPSIS
A  mcts:simulations=200   4 wins (2 as Red, 2 as Blue)...
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import importlib
import inspect
import json
import math
import multiprocessing
import os
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ._moves import SWAP, Move
from .bots import MCTSBot, RandomBot
from .errors import HexError, IllegalMove
from .game import Game, View
from .records import GameRecord
from .rules import BLUE, RED, Color, MoveResult, Rules
from .table.computer import computer_bot

__all__ = [
    "GameResult",
    "MatchResult",
    "PlayerSpec",
    "elo",
    "parse_opening",
    "parse_player",
    "run_match",
    "wilson",
]

KINDS = ("mcts", "computer", "random", "htp", "python")
# Every keyword argument of MCTSBot, plus a level preset.
MCTS_OPTIONS = (*(p for p in inspect.signature(MCTSBot).parameters if p != "self"), "level")
HTP_OPTIONS = ("setup", "simulations", "seconds", "timeout", "dialect", "stderr", "name")


class MatchError(HexError):
    """A match that cannot run: a bad player spec, opening or setting."""


class Resigned(Exception):
    """Raised by a player that resigns."""


# ===================================================================== players


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
        """A fresh player for one game (HTP engines are started by :class:`_Players` and kept)."""
        opts = {k: v for k, v in self.options.items() if k != "name"}
        if self.kind == "mcts":
            level = opts.pop("level", None)
            opts.setdefault("seed", seed)
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
    hexengine.match.MatchError: unknown player kind 'alphazero' in 'alphazero': expected mcts, ...
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


class _HtpPlayer:
    """An external engine kept running across games, restarted after a failure."""

    def __init__(self, spec: PlayerSpec) -> None:
        from .htp.client import Limit

        self.spec = spec
        self.client: Any = None
        o = spec.options
        self.limit = (
            Limit(o.get("simulations"), o.get("seconds")) if ("simulations" in o or "seconds" in o) else None
        )
        self.timeout = float(o.get("timeout", 60.0))

    def start(self) -> None:
        from .htp.client import popen

        if self.client is None or not self.client.alive:
            self.client = popen(
                self.spec.target,
                setup=self.spec.setup,
                timeout=max(self.timeout, 30.0),
                dialect=self.spec.options.get("dialect"),
                stderr=self.spec.options.get("stderr", "capture"),
            )

    def new_game(self) -> None:
        self.start()
        self.client.new_game()

    def choose(self, view: View) -> Move:
        self.start()
        result = self.client.play(view, self.limit, timeout=self.timeout)
        if result.resigned:
            raise Resigned()
        return result.move  # type: ignore[no-any-return]

    def close(self) -> None:
        if self.client is not None:
            with contextlib.suppress(Exception):
                self.client.quit()
            self.client = None


class _Players:
    """The two players of one process: HTP engines live across games, bots are made per game."""

    def __init__(self, specs: tuple[PlayerSpec, PlayerSpec]) -> None:
        self.specs = specs
        self.engines = {seat: _HtpPlayer(s) for seat, s in zip("AB", specs, strict=True) if s.kind == "htp"}

    def for_game(self, seat: str, rules: Rules, seed: int) -> Any:
        if seat in self.engines:
            engine = self.engines[seat]
            engine.new_game()
            return engine
        return self.specs["AB".index(seat)].build(rules, seed)

    def close(self) -> None:
        for engine in self.engines.values():
            engine.close()


# ===================================================================== games


@dataclass
class GameResult:
    """One finished game of a match. ``red`` is the seat that played Red first;
    ``reason`` is ``connection``, ``resignation``, ``timeout`` or ``forfeit``
    (with ``detail`` saying why); times are seconds of wall-clock thinking."""

    index: int
    red: str
    winner: str
    winner_color: str
    reason: str
    detail: str
    moves: int
    opening: list[str]
    sgf: str
    time: dict[str, float] = field(default_factory=dict)
    decisions: dict[str, int] = field(default_factory=dict)


def play_game(
    index: int,
    players: _Players,
    rules: Rules,
    opening: Sequence[str],
    red: str,
    seed: int,
    names: tuple[str, str],
) -> GameResult:
    """Plays one game; the referee adjudicates, failures forfeit."""
    game = Game(rules)
    for move in opening:
        game.play(move)
    seats: dict[Color, str] = {RED: red, BLUE: "B" if red == "A" else "A"}
    for action in game.history:
        if action.result is MoveResult.SWAPPED and rules.swap == "sides":
            seats = {RED: seats[BLUE], BLUE: seats[RED]}
    bots: dict[str, Any] = {}
    spent = {"A": 0.0, "B": 0.0}
    decisions = {"A": 0, "B": 0}
    reason, detail = "", ""
    for seat in "AB":
        try:
            bots[seat] = players.for_game(seat, rules, seed * 2 + "AB".index(seat))
        except Exception as e:
            color = RED if seats[RED] == seat else BLUE
            game.resign(color)
            reason, detail = "forfeit", f"{seat} ({color}) could not start: {_short(e)}"
            break
    while not game.is_over:
        color = game.to_move
        assert color is not None
        seat = seats[color]
        view = game.view(color)
        started = time.perf_counter()
        try:
            move = bots[seat].choose(view)
        except Resigned:
            game.resign(color)
            reason, detail = "resignation", f"{seat} ({color}) resigned"
            break
        except Exception as e:
            from .htp.client import EngineTimeout

            spent[seat] += time.perf_counter() - started
            if isinstance(e, EngineTimeout):
                game.timeout(color)
            else:
                game.resign(color)
            reason, detail = "forfeit", f"{seat} ({color}) failed: {_short(e)}"
            break
        spent[seat] += time.perf_counter() - started
        decisions[seat] += 1
        try:
            result = game.play(move)
        except IllegalMove as e:
            game.resign(color)
            reason, detail = "forfeit", f"{seat} ({color}) played an illegal move {move!s}: {e}"
            break
        except HexError as e:
            game.resign(color)
            reason, detail = "forfeit", f"{seat} ({color}) answered {move!r}, which is not a move: {e}"
            break
        if result is MoveResult.SWAPPED and rules.swap == "sides":
            seats = {RED: seats[BLUE], BLUE: seats[RED]}
    winner_color = game.winner
    assert winner_color is not None
    if not reason:
        reason = str(game.end_reason)
    record = GameRecord.from_game(game, players=names, red_seat=red)
    comment = f"game {index + 1}; A: {names[0]}; B: {names[1]}"
    if opening:
        comment += f"; opening: {' '.join(opening)}"
    if detail:
        comment += f"; {detail}"
    return GameResult(
        index=index,
        red=red,
        winner=seats[winner_color],
        winner_color=str(winner_color).lower(),
        reason=reason,
        detail=detail,
        moves=len(game.history),
        opening=list(opening),
        sgf=record.to_sgf(comment=comment),
        time={k: round(v, 4) for k, v in spent.items()},
        decisions=decisions,
    )


def _short(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    return " ".join(text.split())[:400]


# ===================================================================== openings


def parse_opening(text: str, rules: Rules) -> list[str]:
    """An opening line: moves separated by spaces or commas (``swap`` allowed), or a trmph
    link; checked by the referee (it must not end the game).

    >>> parse_opening("a1 b2", hx.Rules("hex", 5, 5))
    ['a1', 'b2']
    >>> parse_opening("#5,c3c3", hx.Rules("hex", 5, 5))
    ['c3', 'swap']
    """
    text = text.strip()
    if "#" in text or "trmph" in text:
        from .records import parse_trmph

        rows, cols, cells = parse_trmph(text)
        if (rows, cols) != (rules.rows, rules.cols):
            raise MatchError(f"opening {text!r} is for a {rows}x{cols} board, not {rules.rows}x{rules.cols}")
        moves = ["swap" if k == 1 and c == cells[0] else c for k, c in enumerate(cells)]
    else:
        moves = [m.lower() for m in text.replace(",", " ").split()]
    game = Game(rules)
    for move in moves:
        try:
            game.play(move)
        except HexError as e:
            raise MatchError(f"opening {text!r}: {e}") from None
    if game.is_over:
        raise MatchError(f"opening {text!r} ends the game")
    return moves


def random_opening(rules: Rules, plies: int, rng: random.Random) -> list[str]:
    """``plies`` random moves (no swap) that do not end the game."""
    for _ in range(100):
        game = Game(rules)
        moves: list[str] = []
        for _ in range(plies):
            cells = [m for m in game.legal_moves() if m != SWAP]
            if not cells or game.is_over:
                break
            move = rng.choice(cells).name  # type: ignore[union-attr]
            game.play(move)
            moves.append(move)
        if not game.is_over:
            return moves
    raise MatchError(f"cannot find a random opening of {plies} moves that leaves the game open")


# ===================================================================== results


def wilson(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate of ``wins`` in ``games``.

    >>> [round(x, 3) for x in wilson(9, 10)]
    [0.596, 0.982]
    """
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def elo(score: float) -> float:
    """The Elo difference that expects ``score`` (0..1): 400 log10(score / (1 - score)).

    >>> round(elo(0.75), 1), elo(0.5), elo(1.0)
    (190.8, 0.0, inf)
    """
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


@dataclass
class MatchResult:
    """A match's games and totals: ``wins`` per seat, ``score`` of A, Elo difference A - B
    with its 95% confidence interval, likelihood of superiority."""

    names: tuple[str, str]
    rules: Rules
    games: list[GameResult]
    planned: int
    seconds: float = 0.0

    @property
    def games_played(self) -> int:
        return len(self.games)

    @property
    def wins(self) -> dict[str, int]:
        out = {"A": 0, "B": 0}
        for g in self.games:
            out[g.winner] += 1
        return out

    @property
    def score(self) -> float:
        """A's share of the points (Hex has no draws)."""
        return self.wins["A"] / self.games_played if self.games else 0.5

    @property
    def elo(self) -> float:
        """Elo difference A - B."""
        return elo(self.score)

    @property
    def elo_interval(self) -> tuple[float, float]:
        """95% confidence interval of :attr:`elo`: the Wilson score interval of A's score,
        in Elo (finite bounds even for 0 or 100%, where the Elo itself is infinite)."""
        n = self.games_played
        if n == 0:
            return (-math.inf, math.inf)
        p = self.score
        low, high = wilson(self.wins["A"], n)
        return (-math.inf if p == 0.0 else elo(low), math.inf if p == 1.0 else elo(high))

    @property
    def los(self) -> float:
        """Likelihood of superiority of A: the probability that A is the stronger."""
        w, b = self.wins["A"], self.wins["B"]
        if w + b == 0:
            return 0.5
        return 0.5 * (1.0 + math.erf((w - b) / math.sqrt(2.0 * (w + b))))

    def summary(self) -> str:
        """The result as a few lines of text."""
        lines = []
        width = max(len(n) for n in self.names)
        for seat, name in zip("AB", self.names, strict=True):
            as_red = sum(1 for g in self.games if g.winner == seat and g.winner_color == "red")
            wins = self.wins[seat]
            decisions = sum(g.decisions.get(seat, 0) for g in self.games)
            spent = sum(g.time.get(seat, 0.0) for g in self.games)
            per_move = f", {spent / decisions:.3f} s per move" if decisions else ""
            lines.append(
                f"{seat}  {name:<{width}}  {wins} wins ({as_red} as Red, {wins - as_red} as Blue){per_move}"
            )
        r = self.rules
        red_wins = sum(1 for g in self.games if g.winner_color == "red")
        lo, hi = self.elo_interval
        lines.append(
            f"{self.games_played} games of {r.variant} {r.rows}x{r.cols} swap {r.swap}"
            + (
                f" ({self.planned - self.games_played} not played)"
                if self.planned > self.games_played
                else ""
            )
            + f"; Red won {red_wins}"
        )
        lines.append(
            f"score A {100 * self.score:.1f}%; Elo A - B {_elo_text(self.elo)} "
            f"(95% CI {_elo_text(lo)} to {_elo_text(hi)}); LOS {100 * self.los:.1f}%"
        )
        forfeits = [g for g in self.games if g.reason in ("forfeit",)]
        if forfeits:
            lines.append(f"forfeits: {len(forfeits)}")
            lines += [f"  game {g.index + 1}: {g.detail}" for g in forfeits[:10]]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """Everything as a JSON-ready dict (without the SGF texts)."""
        lo, hi = self.elo_interval
        return {
            "players": {"A": self.names[0], "B": self.names[1]},
            "rules": {"variant": self.rules.variant, "rows": self.rules.rows, "cols": self.rules.cols,
                      "swap": self.rules.swap},
            "games_planned": self.planned,
            "games_played": self.games_played,
            "wins": self.wins,
            "score_a": self.score,
            "elo_a_minus_b": _json_number(self.elo),
            "elo_95": [_json_number(lo), _json_number(hi)],
            "los_a": self.los,
            "seconds": round(self.seconds, 3),
            "games": [{k: v for k, v in asdict(g).items() if k != "sgf"} for g in self.games],
        }  # fmt: skip


def _elo_text(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}"


def _json_number(value: float) -> float | str:
    return value if math.isfinite(value) else ("inf" if value > 0 else "-inf")


# ===================================================================== running


_worker: dict[str, Any] = {}


def _init_worker(specs: tuple[PlayerSpec, PlayerSpec]) -> None:
    players = _Players(specs)
    _worker["players"] = players
    from multiprocessing import util

    util.Finalize(players, players.close, exitpriority=10)


def _run_in_worker(job: tuple[Any, ...]) -> GameResult:
    return play_game(*job[:1], _worker["players"], *job[1:])


def run_match(
    player_a: str | PlayerSpec,
    player_b: str | PlayerSpec,
    *,
    games: int = 100,
    rules: Rules | None = None,
    jobs: int | None = None,
    openings: Sequence[Sequence[str]] = (),
    random_openings: int = 0,
    seed: int = 0,
    sgf_dir: str | os.PathLike[str] | None = None,
    progress: Callable[[MatchResult], None] | None = None,
    log: Callable[[str], None] | None = None,
) -> MatchResult:
    """Plays ``games`` games between A and B and returns the result.

    Colours alternate (A is Red in even-numbered games); with ``openings`` (move
    lists) or ``random_openings`` (that many random moves), each opening is
    played twice, once with each player as Red. ``jobs`` games run at once in
    separate processes (default: the number of cores; 1 runs here).
    ``sgf_dir`` receives one SGF file per game and ``results.json``;
    ``progress`` is called after each game, ``log`` with each forfeit.
    """
    rules = rules if rules is not None else Rules("hex", 11, 11)
    specs = tuple(p if isinstance(p, PlayerSpec) else parse_player(p) for p in (player_a, player_b))
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise MatchError(f"games must be a positive whole number, not {games!r}")
    jobs = jobs or os.cpu_count() or 1
    if jobs < 1:
        raise MatchError(f"jobs must be at least 1, not {jobs}")
    check_players(specs, rules)  # type: ignore[arg-type]
    names = _names(specs)  # type: ignore[arg-type]
    rng = random.Random(seed)
    pairs = (games + 1) // 2
    if random_openings:
        lines = [random_opening(rules, random_openings, rng) for _ in range(pairs)]
    else:
        lines = [list(o) for o in openings]
    work = []
    for index in range(games):
        opening = lines[(index // 2) % len(lines)] if lines else []
        red = "A" if index % 2 == 0 else "B"
        work.append((index, rules, opening, red, seed + index, names))
    result = MatchResult(names, rules, [], games)
    out = Path(sgf_dir) if sgf_dir is not None else None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()

    def finished(game: GameResult) -> None:
        result.games.append(game)
        result.games.sort(key=lambda g: g.index)
        result.seconds = time.perf_counter() - started
        if out is not None:
            (out / f"game-{game.index + 1:04d}.sgf").write_text(game.sgf + "\n", encoding="utf-8")
        if game.reason == "forfeit" and log is not None:
            log(f"game {game.index + 1}: {game.detail}")
        if progress is not None:
            progress(result)

    if jobs == 1:
        players = _Players(specs)  # type: ignore[arg-type]
        try:
            for job in work:
                finished(play_game(job[0], players, *job[1:]))
        finally:
            players.close()
    else:
        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(
            max_workers=min(jobs, games), mp_context=context, initializer=_init_worker, initargs=(specs,)
        ) as pool:
            futures = [pool.submit(_run_in_worker, job) for job in work]
            try:
                for future in concurrent.futures.as_completed(futures):
                    finished(future.result())
            except BaseException:
                for future in futures:
                    future.cancel()
                raise
    result.seconds = time.perf_counter() - started
    if out is not None:
        (out / "results.json").write_text(json.dumps(result.to_dict(), indent=1) + "\n", encoding="utf-8")
    return result


def check_players(specs: tuple[PlayerSpec, PlayerSpec], rules: Rules) -> None:
    """Fails early, with a clear message, for players that cannot play these rules at all."""
    for seat, spec in zip("AB", specs, strict=True):
        if spec.kind == "htp":
            if rules.is_dark:
                raise MatchError(f"player {seat} ({spec.name}) speaks HTP, which cannot play Dark Hex")
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


def _names(specs: tuple[PlayerSpec, PlayerSpec]) -> tuple[str, str]:
    a, b = specs[0].name, specs[1].name
    if a == b:
        a, b = f"{a} (A)", f"{b} (B)"
    return a, b
