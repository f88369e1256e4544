"""A round-robin tournament: every pair of players plays the same number of games, colours
alternating, and the players are rated from the table of wins.

The games are the matches' (:func:`~hexengine.match.runner.schedule` lays out each pair's),
interleaved so that a tournament stopped early has played every pair about as often: game
``k`` is pair ``k % P``'s game ``k // P`` (``P`` pairs), with the seed ``seed + k``. They are
played like a match's, here, in processes or on a Ray cluster, and saved to and resumed from
an output folder the same way (:func:`~hexengine.match.runner.play_jobs`). The ratings are a
Bradley-Terry fit by maximum likelihood with 95% intervals
(:func:`~hexengine.match.stats.bradley_terry`).

>>> rules = hx.Rules("hex", 4, 4, "off")
>>> result = run_tournament(["mcts:simulations=300", "random:seed=1", "random:seed=2"],
...                         games_per_pair=2, rules=rules, jobs=1)
>>> result.games_played, result.wins[0]
(6, [0, 2, 2])
>>> print(result.summary())
   player                  1    2    3  games  score    Elo  95% CI
1  mcts:simulations=300    .  2-0  2-0      4   100%   +199  -60 to +458
2  random:seed=1         0-2    .  2-0      4    50%     +0  -217 to +217
3  random:seed=2         0-2  0-2    .      4     0%   -199  -458 to +60
6 games of hex 4x4 swap off, 2 per pair; Red won 3
Elo: Bradley-Terry maximum likelihood, relative to the mean, with 95% intervals
"""

from __future__ import annotations

import dataclasses
import itertools
import os
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ..rules import Rules
from .errors import MatchError
from .game import GameJob, GameResult, check_clock
from .players import PlayerSpec, check_players, parse_player
from .runner import execution, failure_lines, play_jobs, rules_dict, schedule
from .stats import bradley_terry

__all__ = ["TournamentResult", "run_tournament", "tournament_schedule"]


@dataclass
class TournamentResult:
    """A round robin's games and totals: :attr:`wins` between each pair and :attr:`ratings`."""

    names: tuple[str, ...]
    rules: Rules
    games_per_pair: int
    games: list[GameResult]
    seconds: float = 0.0

    @property
    def pairs(self) -> list[tuple[int, int]]:
        """The pairs of players (by their numbers from 0), in the order of :func:`tournament_schedule`."""
        return list(itertools.combinations(range(len(self.names)), 2))

    @property
    def planned(self) -> int:
        return self.games_per_pair * len(self.pairs)

    @property
    def games_played(self) -> int:
        return len(self.games)

    def seats(self, game: GameResult) -> tuple[int, int]:
        """The players (by number) who sat at A and at B in ``game``."""
        return self.pairs[game.index % len(self.pairs)]

    @property
    def wins(self) -> list[list[int]]:
        """``wins[i][j]``: the games player ``i`` won against player ``j``."""
        n = len(self.names)
        table = [[0] * n for _ in range(n)]
        for game in self.games:
            a, b = self.seats(game)
            winner, loser = (a, b) if game.winner == "A" else (b, a)
            table[winner][loser] += 1
        return table

    @property
    def ratings(self) -> list[tuple[float, float, float]]:
        """Each player's Elo rating relative to the field's mean, with its 95% confidence
        interval: ``(rating, low, high)`` (:func:`~hexengine.match.stats.bradley_terry`)."""
        return bradley_terry(self.wins)

    def summary(self) -> str:
        """The cross table, best rated first, and the totals as text."""
        wins, ratings = self.wins, self.ratings
        order = sorted(range(len(self.names)), key=lambda i: -ratings[i][0])
        width = max(len("player"), *(len(n) for n in self.names))
        cell = max(3, *(len(f"{wins[i][j]}-{wins[j][i]}") for i in order for j in order))
        head = "".join(f"  {k + 1:>{cell}}" for k in range(len(order)))
        lines = [f"{'':>{len(str(len(order)))}}  {'player':<{width}}{head}  games  score    Elo  95% CI"]
        for rank, i in enumerate(order, 1):
            cells = "".join(f"  {'.' if i == j else f'{wins[i][j]}-{wins[j][i]}':>{cell}}" for j in order)
            played = sum(wins[i][j] + wins[j][i] for j in order)
            score = f"{100 * sum(wins[i]) / played:.0f}%" if played else "-"
            rating, low, high = ratings[i]
            lines.append(
                f"{rank:>{len(str(len(order)))}}  {self.names[i]:<{width}}{cells}  {played:>5}  {score:>5}"
                f"  {round(rating):+5d}  {round(low):+d} to {round(high):+d}"
            )
        r = self.rules
        red_wins = sum(1 for g in self.games if g.winner_color == "red")
        missing = self.planned - self.games_played
        lines.append(
            f"{self.games_played} games of {r.variant} {r.rows}x{r.cols} swap {r.swap}, "
            f"{self.games_per_pair} per pair" + (f" ({missing} not played)" if missing else "")
            + f"; Red won {red_wins}"
        )  # fmt: skip
        lines.append("Elo: Bradley-Terry maximum likelihood, relative to the mean, with 95% intervals")
        lines += failure_lines(self.games)
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """Everything as a JSON-ready dict (without the SGF texts)."""
        wins, ratings = self.wins, self.ratings
        return {
            "players": list(self.names),
            "rules": rules_dict(self.rules),
            "games_per_pair": self.games_per_pair,
            "games_planned": self.planned,
            "games_played": self.games_played,
            "wins": {a: {b: wins[i][j] for j, b in enumerate(self.names) if j != i}
                     for i, a in enumerate(self.names)},
            "ratings": [
                {"player": name, "elo": rating, "elo_95": [low, high]}
                for name, (rating, low, high) in zip(self.names, ratings, strict=True)
            ],
            "seconds": round(self.seconds, 3),
            "games": [
                {**{k: v for k, v in asdict(g).items() if k != "sgf"},
                 "players": [self.names[i] for i in self.seats(g)]}
                for g in self.games
            ],
        }  # fmt: skip


def tournament_schedule(
    specs: Sequence[PlayerSpec],
    rules: Rules,
    games_per_pair: int,
    openings: Sequence[Sequence[str]] = (),
    random_openings: int = 0,
    seed: int = 0,
    clock: float = 0.0,
) -> list[GameJob]:
    """The games of a round robin as jobs: each pair's match (:func:`~hexengine.match.runner.schedule`,
    the lower-numbered player at seat A, so Red in the pair's even-numbered games, every pair
    with the same openings), interleaved: game ``k`` is pair ``k % P``'s game ``k // P``,
    seeded ``seed + k``.

    >>> specs = [parse_player(p) for p in ("mcts", "random:seed=1", "random:seed=2")]
    >>> [(j.index, j.names, j.red) for j in tournament_schedule(specs, hx.Rules("hex", 3, 3), 2)][2:4]
    [(2, ('random:seed=1', 'random:seed=2'), 'A'), (3, ('mcts', 'random:seed=1'), 'B')]
    """
    pairs = list(itertools.combinations(range(len(specs)), 2))
    matches = [
        schedule((specs[i], specs[j]), rules, games_per_pair, openings, random_openings, seed, clock)
        for i, j in pairs
    ]
    return [
        dataclasses.replace(match[game], index=index, seed=seed + index)
        for game in range(games_per_pair)
        for index, match in enumerate(matches, game * len(pairs))
    ]


def run_tournament(
    players: Sequence[str | PlayerSpec],
    *,
    games_per_pair: int = 10,
    rules: Rules | None = None,
    jobs: int | None = None,
    openings: Sequence[Sequence[str]] = (),
    random_openings: int = 0,
    seed: int = 0,
    out: str | os.PathLike[str] | None = None,
    progress: Callable[[TournamentResult], None] | None = None,
    log: Callable[[str], None] | None = None,
    cluster: str | None = None,
    clock: float = 0.0,
) -> TournamentResult:
    """Plays a round robin between ``players`` (specs, as for a match; at least two, with
    different names: give ``name=`` to tell the same spec apart) and returns the result.

    Every pair plays ``games_per_pair`` games, colours alternating; ``openings`` and
    ``random_openings`` start each pair's games as in a match. ``jobs``, ``cluster``,
    ``progress``, ``log`` and ``clock`` are as for :func:`~hexengine.match.runner.run_match`; ``out``
    receives an SGF file per game as it finishes, ``games.jsonl``, ``results.json`` and
    ``results.txt`` (the table), and is resumed when run again with the same settings.
    """
    rules = rules if rules is not None else Rules("hex", 11, 11)
    specs = [p if isinstance(p, PlayerSpec) else parse_player(p) for p in players]
    if len(specs) < 2:
        raise MatchError("a tournament needs at least two players")
    names = [s.name for s in specs]
    for k, name in enumerate(names):
        if name in names[:k]:
            raise MatchError(
                f"players {names.index(name) + 1} and {k + 1} are both named {name!r}: "
                "give them different names with name=..."
            )
    if isinstance(games_per_pair, bool) or not isinstance(games_per_pair, int) or games_per_pair < 1:
        raise MatchError(f"games_per_pair must be a positive whole number, not {games_per_pair!r}")
    check_clock(clock)
    work = tournament_schedule(specs, rules, games_per_pair, openings, random_openings, seed, clock)
    execute = execution(jobs, cluster, len(work))
    check_players(specs, rules, [str(k + 1) for k in range(len(specs))], start_engines=cluster is None)
    settings = {
        "kind": "tournament",
        "players": [s.text for s in specs],
        "rules": rules_dict(rules),
        "games_per_pair": games_per_pair,
        "openings": [list(o) for o in openings],
        "random_openings": random_openings,
        "seed": seed,
        **({"clock": clock} if clock else {}),
    }
    result = TournamentResult(tuple(names), rules, games_per_pair, [])
    return play_jobs(result, work, execute, out, settings, progress, log)
