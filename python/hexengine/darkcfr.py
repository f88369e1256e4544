"""Exact Dark Hex on tiny boards: equilibria by CFR+, and the exploitability of any policy.

On boards of up to eight cells (2x2, 2x3, 3x2, 2x4, 4x2) the whole Dark Hex
game tree fits in memory. :func:`dark_equilibrium` runs CFR+ on it in C++ and
reports the game value for Red (+1 a sure Red win, -1 a sure Blue win) with
bounds that are proven by exact best responses; :func:`exploitability` asks
a policy (any function from a :class:`~hexengine.View` to a move or to a
distribution over moves) once per information set and measures exactly how
much a best-responding opponent gains against it.

>>> import hexengine as hx
>>> eq = hx.dark_equilibrium("dark-abrupt", rows=2, cols=2, iterations=2000)
>>> round(eq.value, 2), eq.exploitability < 1e-3
(0.5, True)
>>> low, high = eq.value_bounds
>>> low <= 0.5 <= high
True
>>> hx.exploitability(eq.policy, "dark-abrupt", 2, 2).exploitability < 1e-3
True
>>> def uniform(view):
...     moves = view.legal_moves()
...     return {move: 1 / len(moves) for move in moves}
>>> hx.exploitability(uniform, "dark", 2, 2)
<PolicyExploitability dark 2x2: exploitability 0.6250 (NashConv 1.2500), value 0.0000, 134 queries>
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import _core
from ._moves import cell_index
from .cells import Cell
from .errors import ConfigError, IllegalMove
from .game import View
from .rules import Rules, Variant

__all__ = [
    "DarkEquilibrium",
    "DarkGameSize",
    "PolicyExploitability",
    "dark_equilibrium",
    "dark_game_size",
    "exploitability",
]

MAX_HISTORIES = int(_core.DARK_TREE_MAX_HISTORIES)
"""The largest game tree (in histories) the solver builds: 4 bytes each in memory."""

Policy = Callable[[View], Any]
"""A function from a view to a move, or to a mapping {move: probability}."""


def _f(x: float) -> str:
    """Four decimals, without a minus sign on a rounded zero."""
    text = f"{x:.4f}"
    return "0.0000" if text == "-0.0000" else text


def _dark_rules(variant: str, rows: int, cols: int) -> Rules:
    rules = Rules(variant, rows, cols)  # type: ignore[arg-type]
    if not rules.is_dark:
        raise ConfigError(f"exact tiny-board play is for 'dark' and 'dark-abrupt', not {rules.variant!r}")
    return rules


@dataclass(frozen=True)
class DarkGameSize:
    """How big the Dark Hex game tree of one board is, and whether it can be solved here.

    ``histories`` is the number of nodes of the tree (every sequence of
    actions, decisions and game ends), ``infosets`` and ``sequences`` count
    (Red, Blue) information sets and (information set, action) pairs. A count
    is ``None`` when it passed the limit it was given. Counts above 2**53 are
    rounded to double precision.

    >>> import hexengine as hx
    >>> size = hx.dark_game_size("dark", 2, 2)
    >>> size.histories, size.infosets, size.feasible
    (441, (33, 101), True)
    >>> hx.dark_game_size("dark", 3, 3).feasible
    False
    """

    rules: Rules
    histories: int | None
    infosets: tuple[int, int] | None
    sequences: tuple[int, int] | None
    feasible: bool

    def __repr__(self) -> str:
        r = self.rules
        h = "more than the limit" if self.histories is None else f"{self.histories:.4g}"
        i = "?" if self.infosets is None else f"{self.infosets[0]:.4g}+{self.infosets[1]:.4g}"
        can = "solvable here" if self.feasible else "too large to solve here"
        return f"<DarkGameSize {r.variant} {r.rows}x{r.cols}: {h} histories, {i} information sets, {can}>"


def dark_game_size(
    variant: Variant = "dark",
    rows: int = 2,
    cols: int = 2,
    *,
    history_limit: float = 1e13,
    belief_limit: int = 2_000_000,
) -> DarkGameSize:
    """Counts the Dark Hex game tree of a board without building it (C++, GIL released).

    Histories are counted by dynamic programming on referee positions,
    information sets by dynamic programming on each colour's belief (the set
    of positions consistent with what it has seen); ``history_limit`` and
    ``belief_limit`` stop the counts early on large boards. 3x3 takes about
    a second; 3x4 needs ``history_limit=1e17`` and a few GB.
    """
    rules = _dark_rules(variant, rows, cols)
    if rules.cells > _core.DARK_TREE_MAX_CELLS:
        raise ConfigError(
            f"a {rows}x{cols} board has {rules.cells} cells; tiny-board counts go up to "
            f"{_core.DARK_TREE_MAX_CELLS} cells"
        )
    d = _core.dark_tree_size(rules.variant, rows, cols, float(history_limit), float(belief_limit))
    histories = int(d["histories"]) if d["histories_complete"] else None
    complete = d["infosets_complete"]
    return DarkGameSize(
        rules=rules,
        histories=histories,
        infosets=tuple(int(x) for x in d["infosets"]) if complete else None,  # type: ignore[arg-type]
        sequences=tuple(int(x) for x in d["sequences"]) if complete else None,  # type: ignore[arg-type]
        feasible=histories is not None and histories <= MAX_HISTORIES,
    )


@dataclass(frozen=True)
class DarkEquilibrium:
    """An approximate equilibrium of tiny-board Dark Hex found by CFR+.

    ``value`` is Red's expected payoff when both colours play the average
    strategy (+1 when Red wins, -1 when Blue wins); the game value lies in
    ``value_bounds``, which are what each colour's strategy guarantees against
    a best response. ``pure_bounds`` are what the purified strategies (the
    most likely cell at every information set) guarantee: when they meet, the
    game value is exactly that, proven with pure strategies (a sure win).
    ``exploitability`` is half the NashConv (OpenSpiel's convention).
    ``curve`` lists (iterations, exploitability) checkpoints.
    :meth:`policy` is the average strategy, usable as a policy anywhere.
    """

    rules: Rules
    value: float
    value_bounds: tuple[float, float]
    pure_bounds: tuple[float, float]
    exploitability: float
    nash_conv: float
    histories: int
    infosets: tuple[int, int]
    iterations: int
    seconds: float
    curve: tuple[tuple[int, float], ...]
    _tree: Any = field(repr=False, compare=False)
    _average: tuple[np.ndarray, np.ndarray] = field(repr=False, compare=False)

    @property
    def red_win_probability(self) -> float:
        """Red's winning chance under the average strategies: (value + 1) / 2."""
        return (self.value + 1) / 2

    def policy(self, view: View) -> dict[Cell, float]:
        """The average strategy at ``view`` (the player to move's view of this game):
        a probability for each legal cell."""
        if not isinstance(view, View):
            raise ConfigError(f"a policy is asked with a hexengine View, not {type(view).__name__}")
        index = self._tree.infoset_of(view._core)
        color = int(view.viewer)  # type: ignore[arg-type]
        first = self._tree.first_sequence(color, index)
        probs = self._average[color - 1]
        cols = self.rules.cols
        return {
            Cell.from_index(cell, cols): float(probs[first + k])
            for k, cell in enumerate(view._core.legal_moves())
        }

    def __repr__(self) -> str:
        r = self.rules
        low, high = self.value_bounds
        return (
            f"<DarkEquilibrium {r.variant} {r.rows}x{r.cols}: value {_f(self.value)} "
            f"in [{_f(low)}, {_f(high)}], exploitability {self.exploitability:.2g} "
            f"after {self.iterations} CFR+ iterations>"
        )


def dark_equilibrium(
    variant: Variant = "dark",
    rows: int = 2,
    cols: int = 2,
    iterations: int = 1000,
    *,
    target: float | None = None,
) -> DarkEquilibrium:
    """Solves tiny-board Dark Hex with CFR+ in C++ (GIL released); deterministic.

    Runs ``iterations`` iterations of CFR+ (alternating updates, regret
    matching+, linear averaging), measuring the average strategy's exact
    exploitability after 1, 2, 4, 8, ... iterations and at the end; stops
    early once it is at most ``target``. Boards whose tree has more than
    ``MAX_HISTORIES`` histories (3x3 has 1.9e10) raise ConfigError saying so.

    >>> import hexengine as hx
    >>> hx.dark_equilibrium("dark", 2, 2, iterations=100).pure_bounds   # Red wins 2x2 for sure
    (1.0, 1.0)
    """
    rules = _dark_rules(variant, rows, cols)
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise ConfigError(f"iterations must be a positive integer, not {iterations!r}")
    if iterations > _core.DARK_CFR_MAX_ITERATIONS:
        raise ConfigError(f"iterations must be at most {_core.DARK_CFR_MAX_ITERATIONS:,}, not {iterations:,}")
    if target is not None and (
        isinstance(target, bool) or not isinstance(target, (int, float)) or not target >= 0
    ):
        raise ConfigError(f"target is an exploitability, a number at least 0, not {target!r}")
    start = time.perf_counter()
    tree = _core.DarkTree(rules.variant, rows, cols)
    cfr = _core.DarkCfr(tree)
    curve: list[tuple[int, float]] = []
    checkpoint = 1
    evaluation = (0.0, 0.0, 0.0)
    while cfr.iterations < iterations:
        goal = min(checkpoint, iterations)
        cfr.run(goal - cfr.iterations)
        evaluation = cfr.evaluate_average()
        curve.append((cfr.iterations, (evaluation[1] + evaluation[2]) / 2))
        if target is not None and curve[-1][1] <= target:
            break
        checkpoint *= 2
    value, br_red, br_blue = evaluation
    _, pure_red, pure_blue = cfr.evaluate_purified()
    return DarkEquilibrium(
        rules=rules,
        value=value,
        value_bounds=(-br_blue, br_red),
        pure_bounds=(-pure_blue, pure_red),
        exploitability=(br_red + br_blue) / 2,
        nash_conv=br_red + br_blue,
        histories=tree.histories,
        infosets=tuple(tree.infosets),
        iterations=cfr.iterations,
        seconds=time.perf_counter() - start,
        curve=tuple(curve),
        _tree=tree,
        _average=cfr.average_policy(),
    )


@dataclass(frozen=True)
class PolicyExploitability:
    """How exploitable a policy is, measured exactly on the whole game tree.

    ``value`` is Red's expected payoff when the policy plays both colours;
    ``best_response`` is what a best-responding Red, and a best-responding
    Blue, expects against the policy's other colour; ``nash_conv`` is their
    sum and ``exploitability`` half of it (0 exactly at an equilibrium, at
    most 2). ``queries`` is the number of information sets the policy was asked about.
    """

    rules: Rules
    exploitability: float
    nash_conv: float
    value: float
    best_response: tuple[float, float]
    queries: int
    seconds: float

    def __repr__(self) -> str:
        r = self.rules
        return (
            f"<PolicyExploitability {r.variant} {r.rows}x{r.cols}: exploitability {_f(self.exploitability)} "
            f"(NashConv {_f(self.nash_conv)}), value {_f(self.value)}, {self.queries} queries>"
        )


def exploitability(
    policy: Policy | Any,
    variant: Variant = "dark",
    rows: int = 2,
    cols: int = 2,
) -> PolicyExploitability:
    """Exact exploitability of ``policy`` playing both colours of tiny-board Dark Hex.

    ``policy`` is called once per information set with the :class:`View`
    the core's referee gives the player to move there, and returns either a
    move (a deterministic policy, e.g. a bot's ``choose``) or a mapping
    ``{move: probability}`` over legal moves (missing moves have probability
    0; the probabilities must sum to 1). An object with a ``choose`` method
    (a bot) is used through it. Best responses are computed in C++ with the
    GIL released.
    """
    rules = _dark_rules(variant, rows, cols)
    ask = policy if callable(policy) else getattr(policy, "choose", None)
    if not callable(ask):
        raise ConfigError(f"a policy is a function of a view, or an object with choose(view); not {policy!r}")
    start = time.perf_counter()
    tree = _core.DarkTree(rules.variant, rows, cols)
    probabilities: list[np.ndarray] = []
    queries = 0
    for color, count in zip((1, 2), tree.infosets, strict=True):
        probs = np.zeros(tree.sequences[color - 1])
        for index in range(count):
            core_view = tree.infoset_view(color, index)
            legal = core_view.legal_moves()
            first = tree.first_sequence(color, index)
            probs[first : first + len(legal)] = _distribution(ask(View(core_view)), legal, rules)
            queries += 1
        probabilities.append(probs)
    value, br_red, br_blue = tree.evaluate(probabilities[0], probabilities[1])
    return PolicyExploitability(
        rules=rules,
        exploitability=(br_red + br_blue) / 2,
        nash_conv=br_red + br_blue,
        value=value,
        best_response=(br_red, br_blue),
        queries=queries,
        seconds=time.perf_counter() - start,
    )


def _distribution(answer: object, legal: list[int], rules: Rules) -> list[float]:
    """The policy's answer as probabilities over ``legal`` (ascending cell indices)."""
    position = {cell: k for k, cell in enumerate(legal)}
    out = [0.0] * len(legal)
    items = answer.items() if isinstance(answer, Mapping) else [(answer, 1.0)]
    for move, weight in items:
        cell = cell_index(move, rules.rows, rules.cols)
        if cell not in position:
            name = Cell.from_index(cell, rules.cols).name
            raise IllegalMove(
                f"the policy chose {name}, which the player to move may not play (own or found stone)",
                Cell.from_index(cell, rules.cols),
                "policy",
            )
        try:
            p = float(weight)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise ConfigError(f"the probability of {move!r} must be a number, not {weight!r}") from None
        if not math.isfinite(p) or p < 0:
            raise ConfigError(f"the probability of {move!r} must be finite and not negative, not {weight!r}")
        out[position[cell]] += p
    total = sum(out)
    if abs(total - 1.0) > 1e-6:
        raise ConfigError(f"a policy's probabilities must sum to 1, not {total!r}")
    return [p / total for p in out]
