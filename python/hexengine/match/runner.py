"""A match: N games between two players, colours alternating, here, in several processes or on
a cluster.

A match comes in three steps: :func:`schedule` lays its games out as
:class:`~hexengine.match.game.GameJob` values, each fully specified and seeded so that it
can be played anywhere; an :data:`~hexengine.match.execution.Execution` plays them (chosen by
:func:`execution`: here, in processes, or on Ray) and yields the results as games finish;
:func:`run_match` gathers them into a :class:`MatchResult`, with records and progress, saving
each game as it finishes in an output folder that a stopped match resumes
(:mod:`~hexengine.match.folder`). :func:`play_jobs` is that last step for any set of jobs
(a tournament's too).

>>> import hexengine as hx
>>> result = run_match("random:seed=1", "random", games=2, rules=hx.Rules("hex", 3, 3), jobs=1)
>>> [g.red for g in result.games], result.games_played
(['A', 'B'], 2)
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Protocol, TypeVar

from ..rules import Rules
from .errors import MatchError
from .execution import Execution as Execution
from .execution import play_here as play_here
from .execution import play_in_processes as play_in_processes
from .folder import ResultsFolder
from .game import GameJob, GameResult, check_clock
from .openings import random_opening
from .players import PlayerSpec, check_players, parse_player, report_names
from .stats import elo, elo_interval, los

__all__ = ["MatchResult", "execution", "play_jobs", "run_match", "schedule"]


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
            if self.games:
                most = max(g.time.get(seat, 0.0) for g in self.games)
                per_move += f", {spent / len(self.games):.1f} s a game (at most {most:.1f})"
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
        lines += failure_lines(self.games)
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """Everything as a JSON-ready dict (without the SGF texts)."""
        lo, hi = self.elo_interval
        return {
            "players": {"A": self.names[0], "B": self.names[1]},
            "rules": rules_dict(self.rules),
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


def failure_lines(games: Sequence[GameResult]) -> list[str]:
    """The summary's lines on the games lost by a forfeit or on time (ten of each at most)."""
    lines = []
    for reason, title in (("forfeit", "forfeits"), ("timeout", "lost on time")):
        failed = [g for g in games if g.reason == reason]
        if failed:
            lines.append(f"{title}: {len(failed)}")
            lines += [f"  game {g.index + 1}: {g.detail}" for g in failed[:10]]
    return lines


def _elo_text(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}"


def _json_number(value: float) -> float | str:
    return value if math.isfinite(value) else ("inf" if value > 0 else "-inf")


def schedule(
    specs: tuple[PlayerSpec, PlayerSpec],
    rules: Rules,
    games: int,
    openings: Sequence[Sequence[str]] = (),
    random_openings: int = 0,
    seed: int = 0,
    clock: float = 0.0,
) -> list[GameJob]:
    """The games of a match as jobs: colours alternate (A is Red in even-numbered games);
    with ``openings`` or ``random_openings`` (drawn from ``seed``), each opening starts a
    pair of games, once with each player as Red; game ``i`` gets the seed ``seed + i``;
    every game has the ``clock`` (seconds of main time for each side; 0: none).

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
            clock,
        )
        for index in range(games)
    ]


def execution(jobs: int | None, cluster: str | None, games: int) -> Execution:
    """The :data:`~hexengine.match.execution.Execution` for ``games`` games: on the Ray cluster
    ``cluster`` (see :mod:`~hexengine.match.cluster`; ``jobs`` then caps the games played at
    once, by default the cluster's), else ``jobs`` games at a time in processes of their own
    (default: the number of cores; 1 plays them here, one after the other)."""
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise MatchError(f"jobs must be at least 1, not {jobs!r}")
    if cluster is not None:
        from .cluster import ray_execution

        return ray_execution(cluster, limit=jobs)
    jobs = jobs or os.cpu_count() or 1
    return play_here if jobs == 1 else functools.partial(play_in_processes, processes=min(jobs, games))


class Tally(Protocol):
    """What :func:`play_jobs` fills: a result with its ``games`` and ``seconds``, a
    ``summary()`` and a ``to_dict()`` (:class:`MatchResult`, a tournament's result)."""

    games: list[GameResult]
    seconds: float

    def summary(self) -> str: ...

    def to_dict(self) -> dict[str, Any]: ...


T = TypeVar("T", bound=Tally)


def play_jobs(
    tally: T,
    work: Sequence[GameJob],
    execute: Execution,
    out: str | os.PathLike[str] | None = None,
    settings: dict[str, Any] | None = None,
    progress: Callable[[T], None] | None = None,
    log: Callable[[str], None] | None = None,
) -> T:
    """Plays ``work`` with ``execute`` into ``tally``, each game counted once, as it finishes.

    With ``out``, the folder of the run described by ``settings``
    (:class:`~hexengine.match.folder.ResultsFolder`): the games already saved there are taken
    as they are and not played again, each new game is saved as it finishes, and
    ``results.json`` and ``results.txt`` are written at the end. ``progress`` is called with
    ``tally`` after each game (and first with the games already saved, if any), ``log`` with
    each forfeit.
    """
    with _folder(out, {"kind": "games", **(settings or {})}, work) as folder:
        done = dict(folder.finished) if folder is not None else {}
        tally.games = sorted(done.values(), key=lambda g: g.index)
        started = time.perf_counter()
        todo = [job for job in work if job.index not in done]
        if done and progress is not None:
            progress(tally)
        # Nothing left to play starts nothing (no processes, no Ray).
        with contextlib.closing(execute(todo) if todo else (g for g in ())) as results:
            for game in results:
                if game.index in done:
                    continue
                done[game.index] = game
                if folder is not None:
                    folder.add(game)
                tally.games.append(game)
                tally.games.sort(key=lambda g: g.index)
                tally.seconds = time.perf_counter() - started
                if game.reason in ("forfeit", "timeout") and log is not None:
                    log(f"game {game.index + 1}: {game.detail}")
                if progress is not None:
                    progress(tally)
        tally.seconds = time.perf_counter() - started
        if folder is not None:
            folder.write("results.json", json.dumps(tally.to_dict(), indent=1) + "\n")
            folder.write("results.txt", tally.summary() + "\n")
    return tally


@contextlib.contextmanager
def _folder(
    out: str | os.PathLike[str] | None, settings: dict[str, Any], work: Sequence[GameJob]
) -> Iterator[ResultsFolder | None]:
    if out is None:
        yield None
        return
    with ResultsFolder(out, settings, work) as folder:
        yield folder


def rules_dict(rules: Rules) -> dict[str, Any]:
    """``rules`` as JSON-ready values."""
    return {"variant": rules.variant, "rows": rules.rows, "cols": rules.cols, "swap": rules.swap}


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
    cluster: str | None = None,
    clock: float = 0.0,
) -> MatchResult:
    """Plays ``games`` games between A and B and returns the result.

    Colours alternate (A is Red in even-numbered games); with ``openings`` (move
    lists) or ``random_openings`` (that many random moves), each opening is
    played twice, once with each player as Red. ``jobs`` games run at once in
    separate processes (default: the number of cores; 1 runs here); with ``cluster``
    (``"ray"``, ``"auto"``, ``"ray://host:port"``: see :mod:`~hexengine.match.cluster`)
    each game is a task on a Ray cluster, and ``jobs`` caps how many run at once.
    ``sgf_dir`` receives one SGF file per game as it finishes, ``games.jsonl`` and
    ``results.json`` (:mod:`~hexengine.match.folder`); run again with the same folder and
    settings, the match plays only the games not yet there. ``progress`` is called after each
    game, ``log`` with each forfeit and each loss on time. ``clock`` gives each side that many
    seconds a game, kept by the referee (:mod:`~hexengine.match.game`); 0: no clock.
    """
    rules = rules if rules is not None else Rules("hex", 11, 11)
    a, b = (p if isinstance(p, PlayerSpec) else parse_player(p) for p in (player_a, player_b))
    specs = (a, b)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise MatchError(f"games must be a positive whole number, not {games!r}")
    check_clock(clock)
    execute = execution(jobs, cluster, games)
    check_players(specs, rules, start_engines=cluster is None)
    work = schedule(specs, rules, games, openings, random_openings, seed, clock)
    settings = {
        "kind": "match",
        "players": [a.text, b.text],
        "rules": rules_dict(rules),
        "games": games,
        "openings": [list(o) for o in openings],
        "random_openings": random_openings,
        "seed": seed,
        **({"clock": clock} if clock else {}),
    }
    result = MatchResult(work[0].names, rules, [], games)
    return play_jobs(result, work, execute, sgf_dir, settings, progress, log)
