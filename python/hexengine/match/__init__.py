"""Matches and tournaments: games between players, adjudicated by hexengine's referee, played
here, in several processes or on a Ray cluster.

Players are spec strings such as ``"mcts:simulations=1000"``, ``"random"`` or
``"htp:/path/to/mohex --quiet"`` (the grammar is in :mod:`~hexengine.match.players`).
The package is cut by concern, each module using only those before it:

- :mod:`~hexengine.match.errors`: :class:`MatchError`, for a match that cannot run;
- :mod:`~hexengine.match.stats`: win-rate intervals, Elo, likelihood of superiority;
- :mod:`~hexengine.match.players`: player specs and the players they make;
- :mod:`~hexengine.match.openings`: opening lines, given or random;
- :mod:`~hexengine.match.game`: one game, whose failures forfeit;
- :mod:`~hexengine.match.execution`: how a set of games is played, here or in several processes;
- :mod:`~hexengine.match.cluster`: or on a Ray cluster (the optional ``hexengine[cluster]``);
- :mod:`~hexengine.match.folder`: the output folder, saved game by game and resumed;
- :mod:`~hexengine.match.runner`: the match: its schedule of games and its totals;
- :mod:`~hexengine.match.tournament`: a round robin between several players, with ratings.

hexengine's referee decides every game; a player that resigns loses, one that fails
forfeits (:mod:`~hexengine.match.game` says how).

>>> import hexengine as hx
>>> from hexengine.match import run_match
>>> result = run_match("mcts:simulations=200", "random", games=4, rules=hx.Rules("hex", 5, 5, "off"), jobs=1)
>>> result.wins, result.games_played
({'A': 4, 'B': 0}, 4)
>>> print(result.summary())                             # doctest: +ELLIPSIS
A  mcts:simulations=200   4 wins (2 as Red, 2 as Blue)...
"""

from __future__ import annotations

# Names written `x as x` are importable from here too, though not in __all__.
from .errors import MatchError as MatchError
from .game import GameResult
from .game import play_game as play_game
from .openings import parse_opening
from .openings import random_opening as random_opening
from .players import HTP_OPTIONS as HTP_OPTIONS
from .players import KINDS as KINDS
from .players import MCTS_OPTIONS as MCTS_OPTIONS
from .players import PlayerSpec, parse_player
from .players import Resigned as Resigned
from .players import check_players as check_players
from .runner import MatchResult, run_match
from .stats import bradley_terry as bradley_terry
from .stats import elo, wilson
from .tournament import TournamentResult, run_tournament

__all__ = [
    "GameResult",
    "MatchResult",
    "PlayerSpec",
    "TournamentResult",
    "elo",
    "parse_opening",
    "parse_player",
    "run_match",
    "run_tournament",
    "wilson",
]
