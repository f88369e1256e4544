"""Rating math for match results: win-rate intervals, Elo differences, likelihood of superiority.

Hex has no draws, so a score is a share of wins.

>>> wins, games = 30, 40
>>> round(elo(wins / games)), [round(x) for x in elo_interval(wins, games)], round(los(wins, games - wins), 4)
(191, [69, 313], 0.9992)
"""

from __future__ import annotations

import math

__all__ = ["elo", "elo_interval", "los", "wilson"]


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
