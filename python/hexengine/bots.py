"""Computer players. A bot is given a :class:`~hexengine.View`, never the game.

:class:`MCTSBot` is a Monte Carlo tree search in C++ (UCT with RAVE, pattern
playouts, tactical knowledge, tree reuse, threads, a node budget):

>>> import hexengine as hx
>>> game = hx.Game("hex", size=5, swap="off")
>>> bot = hx.MCTSBot(simulations=2000, seed=1)
>>> move = bot.choose(game.view(game.to_move))
>>> move in game.legal_moves()
True
>>> analysis = bot.analyse(game.view(game.to_move))  # reuses the tree of the last search
>>> int(analysis.visits.sum()) == analysis.simulations + analysis.reused
True

A win in one is played without search:

>>> game = hx.Game("hex", size=3, swap="off")
>>> for move in ["a1", "c1", "a2", "c2"]:
...     _ = game.play(move)
>>> bot.analyse(game.view(hx.RED))
<Analysis a3: forced (win), value 1.000>
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import _core
from ._checks import MAX_SEED, whole_number
from ._moves import SWAP, Move
from .cells import Cell
from .errors import ConfigError
from .game import View

__all__ = ["LEVELS", "Analysis", "GreedyBot", "MCTSBot", "RandomBot"]


@dataclass(frozen=True)
class Analysis:
    """What a search found, for the player to move.

    ``visits`` and ``values`` are ``(rows, cols)`` arrays over the root moves:
    simulations through each move and the mover's estimated win probability
    after it (NaN where unvisited). When the swap is available, ``swap_value``
    is its value: swapping takes over the position the opponent just left,
    worth one minus the best cell's value, so the bot swaps when that is
    more. ``swap_visits`` counts the simulations through the swap: the
    evaluator search tries it like a cell, the playout search values it
    without searching it (0). When the opponent may swap next, values count that (a first move
    worth v is worth min(v, 1 - v)). ``value`` is the estimated
    win probability of the player to move, ``pv`` the principal variation,
    ``forced`` says why a move was chosen without search (``"win"``,
    ``"block"``, ``"only-move"``, ``"dead-cell"``, ``"solved"`` for a win the
    endgame solver proved, ``"swindle"`` for a position it proved lost) or is
    ``None``. ``proven`` marks root cells
    whose outcome the search proved: +1 a win, -1 a loss, 0 unknown. ``simulations`` counts this
    search's simulations, ``reused`` those inherited from the previous move's
    tree, ``nodes`` the tree's size. ``endgame_nodes`` and ``endgame_playouts``
    count the work of the endgame solver and the swindle before the search
    (solver nodes, the swindle's solves included, and its random playouts).

    Dark Hex: the search runs over worlds drawn from the view (see
    :meth:`View.sample_boards <hexengine.View.sample_boards>`), so
    ``values`` count hits as they come (in ``dark`` a hit lets the mover
    play again, in ``dark-abrupt`` it ends the turn), ``hit_probability``
    gives for each cell the share of searched worlds with a hidden enemy
    stone there, and ``pv`` follows the most searched line of the viewer's
    information sets, with the opponent's entries only the search's guess
    (the viewer never sees them). ``swap_value`` is ``None``.
    """

    move: Move
    value: float | None
    visits: np.ndarray = field(repr=False)
    values: np.ndarray = field(repr=False)
    swap_value: float | None
    pv: list[Move]
    simulations: int
    seconds: float
    nodes: int
    forced: str | None
    reused: int = 0
    proven: np.ndarray | None = field(default=None, repr=False)
    hit_probability: np.ndarray | None = field(default=None, repr=False)
    batches: int = 0
    evaluator_seconds: float = 0.0
    swap_visits: int = 0
    endgame_nodes: int = 0
    endgame_playouts: int = 0

    @property
    def mean_batch_size(self) -> float | None:
        """Positions per evaluator call, on average (``None`` without an evaluator)."""
        return self.simulations / self.batches if self.batches else None

    def __repr__(self) -> str:
        value = "?" if self.value is None else f"{self.value:.3f}"
        if self.forced:
            return f"<Analysis {self.move}: forced ({self.forced}), value {value}>"
        pv = " ".join(str(m) for m in self.pv[:8])
        return (
            f"<Analysis {self.move}: value {value}, {self.simulations} simulations "
            f"in {self.seconds:.2f}s, pv {pv}>"
        )

    def top(self, n: int = 5) -> list[tuple[Cell, int, float]]:
        """The ``n`` most visited root cells as ``(cell, visits, value)``."""
        cols = self.visits.shape[1]
        order = np.argsort(-self.visits.astype(np.int64), axis=None, kind="stable")[:n]
        visits, values = self.visits.flat, self.values.flat
        return [
            (Cell.from_index(int(i), cols), int(visits[i]), float(values[i])) for i in order if visits[i] > 0
        ]


# The endgame solver's nodes of the simulation-budget presets: the 200,000
# that 7x7 Rex gets by default can make one swindle move take half a minute.
_PRESET_SOLVER_NODES = 20_000

# Dark Hex: the greedy model of the opponent (worlds, tree, playouts); Hex and Rex ignore it.
# Against GreedyBot at 5,000 simulations it lifted the four 5x5/7x7 classic/abrupt cells
# from 60-80% to 74-87% (400 games each; docs/search-notes.md). Not in "hard": at equal
# time it was no stronger on 7x7 (42 of 60 against 40) and weaker on 11x11 (27 of 40
# against 35), as it costs up to 7x the simulations.
_DARK_MODEL = {"greedy_worlds": 0.9, "greedy_opponent": 1.0, "greedy_playouts": 0.75}

#: Strength presets: easy is beatable by a beginner, hard uses the machine for a few seconds.
LEVELS: dict[str, dict[str, Any]] = {
    "easy": {
        "simulations": 60,
        "allow_swap": False,
        "knowledge": False,
        "patterns": False,
        "solver_nodes": _PRESET_SOLVER_NODES,
    },
    "medium": {"simulations": 5_000, "solver_nodes": _PRESET_SOLVER_NODES, **_DARK_MODEL},
    "hard": {"seconds": 3.0, "threads": max(1, min(os.cpu_count() or 1, 8))},
}


class MCTSBot:
    """Monte Carlo tree search for Hex, Rex and Dark Hex.

    Give a budget of ``simulations`` per move, ``seconds`` per move, or both
    (the search stops at whichever comes first; with neither, 10,000
    simulations). ``threads`` share one tree; with ``threads=1`` and a fixed
    ``seed`` the same calls give the same moves. The tree of the previous move
    is reused when the next view continues the same game. The tree is bounded
    by ``max_nodes`` (38 bytes each; 34 without the progressive bias).
    ``rave_equivalence`` (the visits at which a move's own value and its
    all-moves-as-first value weigh the same) defaults to the variant's: 3,000
    in Rex, 1,000 otherwise. ``rave_initial_weight`` is what each
    all-moves-as-first result of a move weighs, in the move's own visits,
    while it has few of them (MoHex's initial RAVE weight: 1 by default, 2.12
    in MoHex). In Hex and Rex each new move in the tree starts
    with a prior worth ``prior`` virtual all-moves-as-first visits, above or
    below even as the move's local pattern (its twelve surrounding cells) and
    its distance from the move just played were learned to be likely or not in
    self-play of that variant (``prior=0`` turns it off). The same prior also
    biases the selection, as MoHex's does: a move's value gains ``prior_bias``
    times its learned probability among its siblings, divided by the square
    root of its visits + 1, so that likely moves keep being tried until the
    search's own results outweigh them (``prior_bias=0`` turns that off).
    In Hex and Rex a position of the tree visited ``amaf_sample_visits``
    times or more updates the all-moves-as-first counts of its moves on one
    simulation in eight, not on every one (each move has thousands of them
    by then): two threads then do not both write the top of the tree on
    every simulation (``0`` updates them every time). With several threads,
    each keeps its own copy of the counts of the moves of the root and of
    every position visited ``shadow_visits`` times or more, and adds to the
    shared ones after each eighth of that position's visits, so the
    threads do not hand those counts back and forth on every simulation
    (``0`` turns that off; one thread never needs it; at most 16 MB of
    copies a thread, beside the tree).

    In Hex, a position of the tree visited ``knowledge_visits`` times gets the
    solver's virtual connections: a connection of the player to move proves
    the position won, one of the opponent proves it lost, and moves outside
    the opponent's must-play region are dropped. One visited
    ``inferior_visits`` times gets the solver's inferior-cell analysis: dead
    cells and captured pairs are filled in, and moves into them, dominated
    moves (another move of one's own fills them in, as dead or captured)
    and vulnerable ones (an opponent's stone somewhere would leave them
    dead) are dropped, always keeping a move that wins if any does; with
    ``inferior_fill`` the playouts below start from the filled-in board.
    With this analysis on, the connections are built on the filled-in board,
    where a captured pair no longer breaks a chain of them. ``0`` turns
    either analysis off.

    Endgames with at most ``solver_empties`` empty cells go to the exact
    solver first (``solver_nodes`` nodes; by default 200,000 in Rex on boards
    of up to 49 cells, whose endgames have no virtual connections to cut them
    short, and 20,000 otherwise; ``0`` turns it off): a proven win is played
    at once. A position it proves lost gets, with ``swindle`` on, the move
    that sets the best trap: for each move the solver sorts the opponent's
    replies into those that keep the win and those that throw it away, random
    playouts value every reply, and the bot plays the move after which the
    best throw-away reply looks most attractive next to the best winning one
    (a perfect opponent still wins; a fallible one is most likely to go
    wrong). With ``simulations`` set, the solver and the swindle together do
    at most 100 units of work per simulation (a solver node or a random playout
    each; :attr:`Analysis.endgame_nodes` and :attr:`Analysis.endgame_playouts`
    count them), so a bot given only simulations answers in time proportional
    to them; with only ``seconds``, they take at most half of it.

    Dark Hex views get an information-set search over worlds drawn from the
    view alone (the bot never sees a hidden stone): the tree holds the
    viewer's information sets, a hit reveals a stone and, in ``dark``, gives
    the mover another move. The worlds are drawn uniformly among the boards
    the view allows; ``opponent_model`` (e.g. ``2.5``) weights them instead by
    where a sensible opponent would have played (centre, short paths between
    its edges, closeness to a chain); off by default, as it measured no
    stronger at equal time (see docs/speed-and-strength.md). Three shares in
    [0, 1] model the opponent as a player that builds a shortest connection
    from what it sees (as :class:`GreedyBot` does) and walks into stones it
    cannot see: ``greedy_worlds`` draws the worlds by replaying the view's
    record with the opponent's hidden moves greedy with that probability,
    weighted by how likely they make the recorded results;
    ``greedy_opponent`` is the share of the opponent's moves in the tree
    played that way instead of by the tree's statistics (which assume it
    knows the bot's stones); ``greedy_playouts`` plays the playouts out by
    the dark rules with that share of greedy moves for both sides instead of
    a random fill. All three are 0 by default and on in the medium level
    (0.9, 1 and 0.75), whose budget is simulations: at equal simulations the
    model wins more, but it costs 1.1x (5x5) to 7x (11x11) of them, and at
    equal time it measured no stronger on 7x7 and weaker on 11x11, so the
    hard level, which has a time budget, keeps uniform worlds.

    >>> game = hx.Game("dark", size=4)
    >>> _ = game.play("b2")
    >>> bot = hx.MCTSBot(simulations=2000, seed=1)
    >>> view = game.view(hx.BLUE)            # Blue knows one red stone is hidden somewhere
    >>> bot.choose(view) in view.legal_moves()
    True
    >>> round(float(bot.analyse(view).hit_probability.sum()), 6)   # one hidden stone in every world
    1.0

    With ``evaluator=fn`` the bot runs AlphaZero's search instead (PUCT, in C++):
    ``fn(planes, mask)`` receives a float32 batch ``(B, len(hx.PLANES), rows,
    cols)`` of :meth:`View.planes <hexengine.View.planes>` for the player to move
    and their legal-action flags ``(B, rows * cols + 1)``, and returns ``(priors,
    values)``: floating-point arrays ``(B, rows * cols + 1)`` (at least 0; only the
    legal actions' weights count, renormalised; uniform if they have none) and
    ``(B,)`` (or ``(B, 1)``), values in [-1, 1] for the player to move. The search
    collects up to ``batch_size`` positions with virtual losses, calls ``fn`` once
    for them (holding the GIL only then) and backs the values up instead of
    playouts; ``c_puct`` weighs the priors; ``noise_fraction`` mixes
    Dirichlet(``noise_alpha``) noise into the root's priors (for self-play),
    drawn afresh for each search from ``seed`` and the searches before it.
    ``threads`` collect and back up batches on one tree. In Hex and Rex the tree
    of the last search is kept for the next view of the same game, as in the
    playout search (``reuse_tree``; ``reused`` counts its visits, and the
    budget's simulations are new ones); in Dark Hex the search draws worlds from
    the view, builds a new tree for each move, and ``fn`` only ever sees the
    searcher's own view. The other settings above are for the playout search
    and are refused with an evaluator. ``analyse`` reports the
    evaluator's ``batches``, ``mean_batch_size`` and ``evaluator_seconds``. A
    bad return value (shape, type, NaN, a value outside [-1, 1]) is a clear
    :class:`ConfigError` and an exception inside ``fn`` propagates; the bot stays
    usable either way.

    >>> def uniform(planes, mask):
    ...     return np.ones(mask.shape, np.float32), np.zeros(len(mask), np.float32)
    >>> game = hx.Game("hex", size=3, swap="off")
    >>> for move in ["a1", "c1", "a2", "c2"]:
    ...     _ = game.play(move)
    >>> bot = hx.MCTSBot(evaluator=uniform, simulations=100, batch_size=8)
    >>> analysis = bot.analyse(game.view(hx.RED))
    >>> analysis.move, analysis.batches > 0
    (Cell('a3'), True)
    >>> game = hx.Game("hex", size=5, swap="off")
    >>> _ = game.play(bot.choose(game.view(hx.RED)))
    >>> reply = bot.analyse(game.view(hx.BLUE))   # the subtree under Red's move is kept
    >>> reply.reused > 0, int(reply.visits.sum()) == reply.simulations + reply.reused
    (True, True)
    """

    def __init__(
        self,
        simulations: int | None = None,
        seconds: float | None = None,
        *,
        threads: int = 1,
        seed: int = 0,
        max_nodes: int = 16_000_000,
        reuse_tree: bool = True,
        allow_swap: bool = True,
        knowledge: bool = True,
        patterns: bool = True,
        rave_equivalence: float | None = None,
        rave_initial_weight: float = 1.0,
        exploration: float = 0.0,
        expand_threshold: int = 8,
        rex_endgame: float = 0.0,
        knowledge_visits: int = 1024,
        inferior_visits: int = 64,
        inferior_fill: bool = True,
        solver_nodes: int | None = None,
        solver_empties: int = 24,
        swindle: bool = True,
        opponent_model: float = 0.0,
        prior: float = 30.0,
        prior_bias: float = 6.0,
        amaf_sample_visits: int = 8192,
        shadow_visits: int = 1024,
        greedy_playouts: float = 0.0,
        greedy_opponent: float = 0.0,
        greedy_worlds: float = 0.0,
        evaluator: Callable[[np.ndarray, np.ndarray], Any] | None = None,
        batch_size: int = 16,
        c_puct: float = 1.5,
        noise_fraction: float = 0.0,
        noise_alpha: float = 0.3,
    ) -> None:
        if evaluator is not None:
            arguments = locals()
            given = sorted(k for k, v in _PLAYOUT_DEFAULTS.items() if arguments[k] != v)
            if given:
                raise ConfigError(f"{', '.join(given)}: settings of the playout search, not the evaluator's")
            if not callable(evaluator):
                raise ConfigError(
                    f"evaluator must be a function fn(planes, mask) -> (priors, values), not {evaluator!r}"
                )
            if simulations is None and seconds is None:
                simulations = 800
            self._evaluator = evaluator
            self._settings = {
                "simulations": whole_number(simulations or 0, "simulations"),
                "seconds": _number(seconds or 0.0, "seconds"),
                "threads": whole_number(threads, "threads", _core.MAX_THREADS, least=1),
                "batch_size": whole_number(batch_size, "batch_size", 2**31 - 1, least=1),
                "c_puct": _number(c_puct, "c_puct"),
                "noise_fraction": _number(noise_fraction, "noise_fraction"),
                "noise_alpha": _number(noise_alpha, "noise_alpha"),
                "seed": whole_number(seed, "seed", MAX_SEED),
                "reuse_tree": bool(reuse_tree),
            }
            self._engine = _core.EvaluatorBot(**self._settings)
            return
        if (batch_size, c_puct, noise_fraction, noise_alpha) != (16, 1.5, 0.0, 0.3):
            raise ConfigError(
                "batch_size, c_puct, noise_fraction and noise_alpha are settings of the evaluator search: "
                "give evaluator= too"
            )
        self._evaluator = None
        if simulations is None and seconds is None:
            simulations = 10_000
        settings = {
            "simulations": whole_number(simulations or 0, "simulations"),
            "seconds": _number(seconds or 0.0, "seconds"),
            "threads": whole_number(threads, "threads", _core.MAX_THREADS, least=1),
            "seed": whole_number(seed, "seed", MAX_SEED),
            "max_nodes": whole_number(max_nodes, "max_nodes"),
            "reuse_tree": bool(reuse_tree),
            "allow_swap": bool(allow_swap),
            "knowledge": bool(knowledge),
            "patterns": bool(patterns),
            "rave_equivalence": _rave_equivalence(rave_equivalence),
            "rave_initial_weight": _number(rave_initial_weight, "rave_initial_weight"),
            "exploration": _number(exploration, "exploration"),
            "expand_threshold": whole_number(expand_threshold, "expand_threshold", 2**32 - 1),
            "rex_endgame": _number(rex_endgame, "rex_endgame"),
            "knowledge_visits": whole_number(knowledge_visits, "knowledge_visits", 2**32 - 1),
            "inferior_visits": whole_number(inferior_visits, "inferior_visits", 2**32 - 1),
            "inferior_fill": bool(inferior_fill),
            "solver_nodes": None if solver_nodes is None else whole_number(solver_nodes, "solver_nodes"),
            "solver_empties": whole_number(solver_empties, "solver_empties", 361),
            "swindle": bool(swindle),
            "opponent_model": _number(opponent_model, "opponent_model"),
            "prior": _number(prior, "prior"),
            "prior_bias": _number(prior_bias, "prior_bias"),
            "amaf_sample_visits": whole_number(amaf_sample_visits, "amaf_sample_visits", 2**32 - 1),
            "shadow_visits": whole_number(shadow_visits, "shadow_visits", 2**32 - 1),
            "greedy_playouts": _number(greedy_playouts, "greedy_playouts"),
            "greedy_opponent": _number(greedy_opponent, "greedy_opponent"),
            "greedy_worlds": _number(greedy_worlds, "greedy_worlds"),
        }
        self._engine = _core.Mcts(**settings)
        self._settings = settings

    @classmethod
    def level(cls, name: str, **overrides: Any) -> MCTSBot:
        """A preset: ``"easy"``, ``"medium"`` or ``"hard"``; keyword arguments override it."""
        if name not in LEVELS:
            raise ConfigError(f"unknown level {name!r}: expected one of {', '.join(map(repr, LEVELS))}")
        return cls(**{**LEVELS[name], **overrides})

    def choose(self, view: View, *, simulations: int | None = None, seconds: float | None = None) -> Move:
        """The move to play in ``view``, whose viewer must be the player to move (``simulations``
        and ``seconds``: this search's budget, as in :meth:`analyse`)."""
        return self.analyse(view, simulations=simulations, seconds=seconds).move

    def analyse(
        self, view: View, *, simulations: int | None = None, seconds: float | None = None
    ) -> Analysis:
        """Searches ``view`` and returns the move with the statistics behind it.

        ``simulations`` and ``seconds`` give this one search a budget of its own in place of
        the bot's (one of them alone: the only budget), and the tree of the game is kept: a
        clock's share of the time for each move, say.

        >>> bot = hx.MCTSBot(simulations=2000, seed=1)
        >>> game = hx.Game("hex", size=7, swap="off")
        >>> bot.analyse(game.view(hx.RED), simulations=300).simulations
        300
        """
        if not isinstance(view, View):
            raise TypeError(f"bots take a hexengine.View (game.view(color)), not {type(view).__name__}")
        budget: dict[str, float] = {}
        if simulations is not None or seconds is not None:
            # Types here; the core refuses a budget of neither (validate_budget).
            budget = {
                "simulations": whole_number(simulations or 0, "simulations"),
                "seconds": _number(seconds or 0.0, "seconds"),
            }
        if self._evaluator is not None:
            raw = self._engine.search(view._core, self._evaluator, **budget)
        else:
            raw = self._engine.search(view._core, **budget)
        cols = view.rules.cols
        return Analysis(
            move=_move(raw["best"], cols),
            value=raw["value"],
            visits=raw["visits"],
            values=raw["values"],
            swap_value=raw["swap_value"],
            pv=[_move(m, cols) for m in raw["pv"]],
            simulations=raw["simulations"],
            seconds=raw["seconds"],
            nodes=raw["nodes"],
            forced=raw["forced"] or None,
            reused=raw["reused"],
            proven=raw["proven"],
            hit_probability=raw.get("occupied"),
            batches=raw["batches"],
            evaluator_seconds=raw["evaluator_seconds"],
            swap_visits=raw["swap_visits"],
            endgame_nodes=raw["endgame_nodes"],
            endgame_playouts=raw["endgame_playouts"],
        )

    def clear(self) -> None:
        """Forgets the search tree (e.g. before a new game)."""
        self._engine.clear()

    def __repr__(self) -> str:
        s = self._settings
        budget = []
        if s["simulations"]:
            budget.append(f"simulations={s['simulations']}")
        if s["seconds"]:
            budget.append(f"seconds={s['seconds']}")
        if self._evaluator is not None:
            budget.append(f"evaluator={getattr(self._evaluator, '__name__', type(self._evaluator).__name__)}")
        return f"MCTSBot({', '.join(budget)}, threads={s['threads']}, seed={s['seed']})"


class RandomBot:
    """Plays a uniformly random legal move of its view (a baseline and a stand-in).
    ``swap=False`` never swaps.

    >>> game = hx.Game("dark", size=4)
    >>> hx.RandomBot(seed=3).choose(game.view(hx.RED)) in game.legal_moves()
    True
    """

    def __init__(self, seed: int | None = None, *, swap: bool = True) -> None:
        self._rng = random.Random(seed)
        self._swap = swap

    def choose(self, view: View) -> Move:
        """A random move among ``view.legal_moves()``."""
        if not isinstance(view, View):
            raise TypeError(f"bots take a hexengine.View (game.view(color)), not {type(view).__name__}")
        moves = [m for m in view.legal_moves() if self._swap or m != SWAP]
        if not moves:
            raise ConfigError("there is no move to choose: the game is over or it is not this viewer's turn")
        return self._rng.choice(moves)

    def __repr__(self) -> str:
        return f"RandomBot(swap={self._swap})"


class GreedyBot:
    """Plays the cell that most shortens its own connection, judged from its view alone
    (a baseline that any search should beat).

    For each cell it may play, the bot counts the stones it would still need to join
    its two edges with a stone of its own there: the length of a shortest path where
    its own stones cost nothing, every cell it does not know to be occupied costs one
    (in Dark Hex an enemy stone it has not found is an empty cell to it) and the enemy
    stones it sees block. It plays a cell with the fewest, picked at random among equals
    by its own generator (``seed``); the counting is in C++ (``View`` in, one number per
    cell out). In Rex, where joining one's edges loses, it plays a cell that leaves the
    count largest instead: a stone off every shortest path of its own, while there is
    one. It never swaps.

    >>> game = hx.Game("dark", size=3)
    >>> for move in ["a1", "c1", "a2"]:
    ...     _ = game.play(move)
    >>> bot = hx.GreedyBot(seed=1)
    >>> bot
    GreedyBot(seed=1)
    >>> view = game.view(hx.BLUE)            # Blue sees its c1, not Red's a1 and a2
    >>> bot.distances(view)                  # -1: its own stone
    array([[ 1,  1, -1],
           [ 1,  1,  2],
           [ 1,  2,  2]], dtype=int32)
    >>> bot.choose(view)                     # one of the five 1s: a1 and a2 would be hits
    Cell('b1')
    """

    def __init__(self, seed: int | None = None) -> None:
        self._seed = seed
        self._rng = random.Random(seed)

    def distances(self, view: View) -> np.ndarray:
        """Per cell ``(rows, cols)``: the stones the player to move would still need after
        a stone of its own there (``-1`` where it may not play)."""
        if not isinstance(view, View):
            raise TypeError(f"bots take a hexengine.View (game.view(color)), not {type(view).__name__}")
        return _core.move_distances(view._core)

    def choose(self, view: View) -> Move:
        """The cell with the fewest stones still needed (the most in Rex), ties broken at random."""
        flat = self.distances(view).ravel()
        legal = np.flatnonzero(flat >= 0)
        scores = flat[legal]
        best = scores.max() if view.rules.variant == "rex" else scores.min()
        cells = legal[scores == best]
        return Cell.from_index(int(cells[self._rng.randrange(len(cells))]), view.rules.cols)

    def __repr__(self) -> str:
        return f"GreedyBot(seed={self._seed})"


# The playout search's settings and their defaults, which an evaluator search refuses to take.
_PLAYOUT_DEFAULTS: dict[str, Any] = {
    "max_nodes": 16_000_000, "allow_swap": True, "knowledge": True, "patterns": True,
    "rave_equivalence": None, "rave_initial_weight": 1.0, "exploration": 0.0, "expand_threshold": 8,
    "rex_endgame": 0.0, "knowledge_visits": 1024, "inferior_visits": 64, "inferior_fill": True,
    "solver_nodes": None, "solver_empties": 24, "swindle": True,
    "opponent_model": 0.0, "prior": 30.0, "prior_bias": 6.0, "amaf_sample_visits": 8192,
    "shadow_visits": 1024, "greedy_playouts": 0.0, "greedy_opponent": 0.0,
    "greedy_worlds": 0.0,
}  # fmt: skip


def _move(value: int, cols: int) -> Move:
    return SWAP if value < 0 else Cell.from_index(value, cols)


def _rave_equivalence(value: object) -> float:
    # None, the variant's default, goes to the core as 0; a given value must be positive.
    if value is None:
        return 0.0
    number = _number(value, "rave_equivalence")
    if number == 0:
        raise ConfigError("rave_equivalence must be positive (or None for the variant's default)")
    return number


def _number(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ConfigError(f"{name} must be a finite number, not {value!r}")
    if value < 0:
        raise ConfigError(f"{name} must be at least 0, not {value}")
    return float(value)
