"""A match: N games between two players, colours alternating, in this process or in several.

A match comes in three steps: :func:`schedule` lays its games out as
:class:`~hexengine.match.game.GameJob` values, each fully specified and seeded so that it
can be played anywhere; an :data:`Execution` plays them (:func:`play_here` one after the
other, :func:`play_in_processes` several at a time) and yields the results as games finish;
:func:`run_match` gathers them into a :class:`MatchResult`, with records and progress.

>>> import hexengine as hx
>>> result = run_match("random:seed=1", "random", games=2, rules=hx.Rules("hex", 3, 3), jobs=1)
>>> [g.red for g in result.games], result.games_played
(['A', 'B'], 2)
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import json
import math
import multiprocessing
import os
import random
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import asdict, dataclass
from multiprocessing import util
from pathlib import Path
from typing import Any

from ..rules import Rules
from .errors import MatchError
from .game import GameJob, GameResult
from .openings import random_opening
from .players import Players, PlayerSpec, check_players, parse_player, report_names
from .stats import elo, elo_interval, los

__all__ = ["Execution", "MatchResult", "play_here", "play_in_processes", "run_match", "schedule"]


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
        return elo_interval(self.wins["A"], self.games_played)

    @property
    def los(self) -> float:
        """Likelihood of superiority of A: the probability that A is the stronger."""
        return los(self.wins["A"], self.wins["B"])

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


Execution = Callable[[Sequence[GameJob]], Generator[GameResult, None, None]]
"""How the games of a match are played: given every game's :class:`~hexengine.match.game.GameJob`,
yield each game's result as it finishes, in any order. The match closes the generator if it
stops early, so an execution cancels what it has not played when it gets ``GeneratorExit``."""


def play_here(jobs: Sequence[GameJob]) -> Generator[GameResult, None, None]:
    """An :data:`Execution`: plays the games one after the other in this process; HTP engines
    live across the games and are stopped at the end."""
    kept: list[Players] = []
    try:
        for job in jobs:
            yield job.play(_seated(kept, job.specs))
    finally:
        for players in kept:
            players.close()


def play_in_processes(jobs: Sequence[GameJob], processes: int) -> Generator[GameResult, None, None]:
    """An :data:`Execution` once ``processes`` is given: plays the games that many at a time,
    each in a process of its own; a process keeps its HTP engines across the games it plays."""
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=processes, mp_context=context) as pool:
        futures = [pool.submit(_play_in_worker, job) for job in jobs]
        try:
            for future in concurrent.futures.as_completed(futures):
                yield future.result()
        except BaseException:
            for future in futures:
                future.cancel()
            raise


_kept_in_worker: list[Players] = []


def _play_in_worker(job: GameJob) -> GameResult:
    return job.play(_seated(_kept_in_worker, job.specs, until_exit=True))


def _seated(kept: list[Players], specs: tuple[PlayerSpec, PlayerSpec], until_exit: bool = False) -> Players:
    """The players for ``specs`` in ``kept``, made and kept there on first use (with
    ``until_exit``, stopped when this process exits)."""
    for players in kept:
        if players.specs == specs:
            return players
    players = Players(specs)
    kept.append(players)
    if until_exit:
        util.Finalize(players, players.close, exitpriority=10)
    return players


def schedule(
    specs: tuple[PlayerSpec, PlayerSpec],
    rules: Rules,
    games: int,
    openings: Sequence[Sequence[str]] = (),
    random_openings: int = 0,
    seed: int = 0,
) -> list[GameJob]:
    """The games of a match as jobs: colours alternate (A is Red in even-numbered games);
    with ``openings`` or ``random_openings`` (drawn from ``seed``), each opening starts a
    pair of games, once with each player as Red; game ``i`` gets the seed ``seed + i``.

    >>> specs = (parse_player("mcts"), parse_player("random"))
    >>> jobs = schedule(specs, hx.Rules("hex", 5, 5), 3, [["c3"], ["a1"]], seed=7)
    >>> [(job.red, job.opening, job.seed) for job in jobs]
    [('A', ('c3',), 7), ('B', ('c3',), 8), ('A', ('a1',), 9)]
    """
    rng = random.Random(seed)
    pairs = (games + 1) // 2
    if random_openings:
        lines = [random_opening(rules, random_openings, rng) for _ in range(pairs)]
    else:
        lines = [list(o) for o in openings]
    names = report_names(specs)
    return [
        GameJob(
            index,
            specs,
            rules,
            tuple(lines[(index // 2) % len(lines)]) if lines else (),
            "A" if index % 2 == 0 else "B",
            seed + index,
            names,
        )
        for index in range(games)
    ]


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
    a, b = (p if isinstance(p, PlayerSpec) else parse_player(p) for p in (player_a, player_b))
    specs = (a, b)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise MatchError(f"games must be a positive whole number, not {games!r}")
    jobs = jobs or os.cpu_count() or 1
    if jobs < 1:
        raise MatchError(f"jobs must be at least 1, not {jobs}")
    check_players(specs, rules)
    work = schedule(specs, rules, games, openings, random_openings, seed)
    execute: Execution = (
        play_here if jobs == 1 else functools.partial(play_in_processes, processes=min(jobs, games))
    )
    result = MatchResult(work[0].names, rules, [], games)
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

    with contextlib.closing(execute(work)) as results:
        for game in results:
            finished(game)
    result.seconds = time.perf_counter() - started
    if out is not None:
        (out / "results.json").write_text(json.dumps(result.to_dict(), indent=1) + "\n", encoding="utf-8")
    return result
