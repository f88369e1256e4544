"""Rating math for match results: win-rate intervals, Elo differences, likelihood of superiority,
and ratings fitted to a table of wins between several players (Bradley-Terry).

Hex has no draws, so a score is a share of wins.

>>> wins, games = 30, 40
>>> round(elo(wins / games)), [round(x) for x in elo_interval(wins, games)], round(los(wins, games - wins), 4)
(191, [69, 313], 0.9992)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

__all__ = ["bradley_terry", "elo", "elo_interval", "los", "wilson"]

# Elo points per unit of the logistic model's log-odds.
ELO_PER_LOGIT = 400.0 / math.log(10.0)


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


def elo_interval(wins: int, games: int) -> tuple[float, float]:
    """The 95% confidence interval of the Elo difference of ``wins`` in ``games``: the Wilson
    score interval of the score, in Elo (finite bounds even for 0 or 100%, where the Elo
    itself is infinite).

    >>> [round(x, 1) for x in elo_interval(10, 10)]
    [166.2, inf]
    """
    if games == 0:
        return (-math.inf, math.inf)
    p = wins / games
    low, high = wilson(wins, games)
    return (-math.inf if p == 0.0 else elo(low), math.inf if p == 1.0 else elo(high))


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority: the probability that the player with ``wins`` against
    ``losses`` is the stronger.

    >>> los(0, 0), round(los(6, 4), 3)
    (0.5, 0.736)
    """
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def bradley_terry(
    wins: Sequence[Sequence[float]], prior: float = 0.5, z: float = 1.959964
) -> list[tuple[float, float, float]]:
    """Elo ratings fitted by maximum likelihood to ``wins[i][j]``, the games player ``i`` won
    against player ``j``, in the Bradley-Terry (logistic Elo) model where ``i`` beats ``j`` with
    probability ``1 / (1 + 10 ** ((r_j - r_i) / 400))``. Each rating comes with its 95%
    confidence interval, ``(rating, low, high)``, from the curvature of the likelihood at its
    maximum; ratings are relative to the players' mean, which is 0.

    Every pair that played also counts ``prior`` virtual wins each way, so that a player who
    won (or lost) every game still gets a finite rating; with two players the difference is
    then ``elo((wins + prior) / (games + 2 * prior))``.

    >>> [round(r) for r, _, _ in bradley_terry([[0, 3], [1, 0]])], round(elo(3.5 / 5))
    ([74, -74], 147)
    >>> table = [[0, 8, 9], [2, 0, 6], [1, 4, 0]]
    >>> [(round(r), round(low), round(high)) for r, low, high in bradley_terry(table)]
    [(176, 50, 302), (-51, -159, 57), (-125, -240, -10)]
    """
    w = np.array(wins, dtype=float)
    n = len(w)
    if w.shape != (n, n) or (w < 0).any():
        raise ValueError("wins must be a square table of counts that are not negative")
    w = w + prior * ((w + w.T) > 0)
    games = w + w.T
    r = np.zeros(n)

    def fit(r: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        p = 1.0 / (1.0 + np.exp(r[None, :] - r[:, None]))
        likelihood = float((w * np.log(np.where(games > 0, p, 1.0))).sum())
        gradient = (w - games * p).sum(axis=1)
        weight = games * p * p.T
        information = np.diag(weight.sum(axis=1)) - weight
        return likelihood, gradient, information

    likelihood, gradient, information = fit(r)
    for _ in range(100):
        step = np.linalg.pinv(information) @ gradient
        for _ in range(30):
            trial = fit(r + step)
            if trial[0] >= likelihood - 1e-12:
                break
            step = step / 2
        r = r + step
        r -= r.mean()
        likelihood, gradient, information = trial
        if np.abs(step).max() < 1e-10:
            break
    spread = z * np.sqrt(np.clip(np.diag(np.linalg.pinv(information)), 0.0, None))
    return [
        (float(x * ELO_PER_LOGIT), float((x - s) * ELO_PER_LOGIT), float((x + s) * ELO_PER_LOGIT))
        for x, s in zip(r, spread, strict=True)
    ]
