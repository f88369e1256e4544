"""A match: N games between two players, colours alternating, in this process or in several.

>>> import hexengine as hx
>>> result = run_match("random:seed=1", "random", games=2, rules=hx.Rules("hex", 3, 3), jobs=1)
>>> [g.red for g in result.games], result.games_played
(['A', 'B'], 2)
"""

from __future__ import annotations

import concurrent.futures
import json
import math
import multiprocessing
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..rules import Rules
from .errors import MatchError
from .game import GameResult, play_game
from .openings import random_opening
from .players import Players, PlayerSpec, check_players, parse_player, report_names
from .stats import elo, elo_interval, los

__all__ = ["MatchResult", "run_match"]


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


_worker: dict[str, Any] = {}


def _init_worker(specs: tuple[PlayerSpec, PlayerSpec]) -> None:
    players = Players(specs)
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
    names = report_names(specs)  # type: ignore[arg-type]
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
        players = Players(specs)  # type: ignore[arg-type]
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
