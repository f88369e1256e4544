"""Exact answers: who wins a Hex or Rex position with perfect play, and how.

The search runs in C++ with the GIL released: depth-first proof-number search
with a transposition table, virtual connections, must-play regions, and dead
and captured cells (see ``cpp/solver/solver.h`` for what each rule proves). It
either proves the result or says it does not know; it never guesses.

>>> import hexengine as hx
>>> game = hx.Game("hex", size=3, swap="off")
>>> result = hx.solve(game, winning_moves=True)
>>> result
<SolveResult Red wins, Red to move, winning moves c1 a2 b2 c2 a3 (... nodes, ... s, ... MB)>
>>> result.winner, result.best_move in result.winning_moves
(<Color.RED: 1>, True)

Rex without swap: on odd boards the second player wins.

>>> hx.solve(hx.Game("rex", size=3, swap="off")).winner
<Color.BLUE: 2>

Limits give an honest "unknown":

>>> late = hx.solve(hx.Game("hex", size=9, swap="off"), max_nodes=50)
>>> late.winner is None, late.status
(True, 'nodes')
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from . import _core
from ._checks import MAX_COUNT
from ._moves import SWAP, Move, MoveLike, cell_index
from .bots import MCTSBot
from .cells import Cell
from .errors import HexError, IllegalMove
from .game import Game, View
from .rules import Color

__all__ = ["KNOWLEDGE", "SolveError", "SolveResult", "SolveStatus", "solve"]

SolveStatus = Literal["proven", "nodes", "time", "memory", "stopped"]

KNOWLEDGE: tuple[str, ...] = _core.SOLVER_KNOWLEDGE
"""Names of the solver's pieces of knowledge; all are used unless ``knowledge=`` picks some."""

_STATUS_TEXT = {
    "nodes": "node limit",
    "time": "time limit",
    "memory": "memory limit",
    "stopped": "stopped",
}


class SolveError(HexError):
    """A position the solver cannot take (Dark Hex, a finished game, the swap
    still to come) or limits it cannot honour."""


@dataclass(frozen=True)
class SolveResult:
    """What :func:`solve` found.

    ``winner`` is the colour that wins with perfect play, or ``None`` when the
    search stopped at a limit (``status`` says which). ``winning_moves`` lists
    every winning move of the player to move when asked for and proven (empty
    if the player to move loses; it may hold ``"swap"``), else ``None``.
    ``best_move`` is one proven winning move, or ``None``. ``nodes``,
    ``seconds`` and ``memory`` (peak bytes of tables) say what it cost;
    ``counts`` says where the nodes went (positions expanded, how many the
    virtual connections or the must-play region decided, the moves left after
    each pruning, nodes per ply below the root), for measuring the knowledge.
    """

    winner: Color | None
    to_move: Color
    status: SolveStatus
    winning_moves: tuple[Move, ...] | None
    best_move: Move | None
    nodes: int
    seconds: float
    memory: int
    counts: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def proven(self) -> bool:
        """Whether the winner is proven (no limit was hit)."""
        return self.status == "proven"

    @property
    def mover_wins(self) -> bool | None:
        """Whether the player to move wins; ``None`` when unknown."""
        return None if self.winner is None else self.winner == self.to_move

    def __str__(self) -> str:
        if self.winner is None:
            head = f"unknown ({_STATUS_TEXT.get(self.status, self.status)}), {self.to_move} to move"
        else:
            head = f"{self.winner} wins, {self.to_move} to move"
        if self.winning_moves is not None:
            names = " ".join(str(m) for m in self.winning_moves) or "none"
            head += f", winning moves {names}"
        elif self.best_move is not None:
            head += f", winning move {self.best_move}"
        return head

    def __repr__(self) -> str:
        cost = f"{self.nodes} nodes, {self.seconds:.3f} s, {self.memory / 2**20:.1f} MB"
        return f"<SolveResult {self} ({cost})>"


def solve(
    position: Game | View,
    *,
    winning_moves: bool = False,
    max_nodes: int | None = None,
    max_seconds: float | None = 60.0,
    max_memory: int = 512 * 2**20,
    knowledge: Iterable[str] | None = None,
    threads: int = 1,
    first: Iterable[MoveLike] = (),
    guess: int = 0,
) -> SolveResult:
    """Solves the current position of a Hex or Rex game (or a Hex or Rex view).

    ``winning_moves=True`` also proves which moves of the player to move win
    (each is solved on its own). The search stops at ``max_nodes`` expanded
    nodes, ``max_seconds`` of wall-clock time (``None``: no limit) or when its
    tables would need more than ``max_memory`` bytes, and then returns a result
    with ``winner=None``; it reads the clock at every node, so it ends within a
    node's work of ``max_seconds`` (milliseconds on 11x11). ``knowledge``
    restricts the search to some of :data:`KNOWLEDGE` (for experiments; ``()``
    is the plain search).
    ``threads`` searches on that many threads at once, all from the root
    over one shared table, each steering away from positions another is in;
    ``max_memory`` and ``max_nodes`` bound them all together.

    ``first`` names moves of the player to move to prove first, in order:
    each one's position is searched on its own (over the same tables) until
    it is proven or refuted, before the search from the root. When one wins,
    it is the best move and the other moves are never searched; a refuted one
    is found solved by the root's search (which, when the player to move
    loses, must refute every move anyway). ``guess`` runs an :class:`MCTSBot`
    of that many simulations (one thread, seed 0) on the position and adds
    the move it would play to ``first``: where the player to move wins, a
    right guess spares the search the other moves (on 8x8, see
    ``docs/solver.md``). Its time counts in ``max_seconds`` (which also stops
    its search) and ``seconds``, and ``counts["guess"]`` names the move
    (``None`` if it was the swap).

    >>> game = hx.Game("hex", size=4, swap="off")
    >>> _ = game.play("a1")
    >>> result = hx.solve(game, guess=2000)
    >>> result.counts["guess"], result.best_move
    (Cell('b3'), Cell('b3'))

    A game where the swap is available now counts the swap as one more move.
    Raises :class:`SolveError` for Dark Hex, a finished game, an empty board
    with the swap still to come, and bad limits.
    """
    nodes = _count("max_nodes", max_nodes)
    seconds = _seconds(max_seconds)
    if isinstance(max_memory, bool) or not isinstance(max_memory, int) or not 0 <= max_memory <= MAX_COUNT:
        raise SolveError(f"max_memory must be a number of bytes from 1 MiB to 2**63 - 1, not {max_memory!r}")
    names = None if knowledge is None else _knowledge(knowledge)
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 64:
        raise SolveError(f"threads must be a whole number from 1 to 64, not {threads!r}")
    if not isinstance(position, Game | View):
        raise SolveError(f"solve() takes a hexengine Game or View, not {type(position).__name__}")
    rules = position.rules
    moves = _first_moves(first, rules.rows, rules.cols)
    guessed: Cell | None = None
    spent = 0.0
    if isinstance(guess, bool) or not isinstance(guess, int) or not 0 <= guess <= MAX_COUNT:
        raise SolveError(f"guess must be a number of simulations (0 for none), not {guess!r}")
    if guess:
        # The position's own errors come before the guess's time is spent.
        if isinstance(position, Game):
            _core.check_solve_game(position, moves)
        else:
            _core.check_solve_view(position._core, moves)
        started = time.perf_counter()
        guessed = _guess(position, guess, seconds)
        spent = time.perf_counter() - started
        if guessed is not None and guessed.index(rules.cols) not in moves:
            moves.append(guessed.index(rules.cols))
        if seconds:
            seconds = max(seconds - spent, 1e-9)
    limits = (bool(winning_moves), nodes, seconds, max_memory, names, threads, moves)
    if isinstance(position, Game):
        raw = _core.solve_game(position, *limits)
    else:
        raw = _core.solve_view(position._core, *limits)
    result = _result(raw, rules.cols)
    if not guess:
        return result
    counts = {**result.counts, "guess": guessed, "guess_seconds": spent}
    return replace(result, seconds=result.seconds + spent, counts=counts)


def _first_moves(first: Iterable[MoveLike], rows: int, cols: int) -> list[int]:
    if isinstance(first, str | Cell) or not isinstance(first, Iterable):
        raise SolveError(f"first must be a collection of moves such as ['d5', 'c6'], not {first!r}")
    try:
        return [cell_index(move, rows, cols) for move in first]
    except IllegalMove as e:
        raise SolveError(f"first: {e}") from None


def _guess(position: Game | View, simulations: int, seconds: float) -> Cell | None:
    """The cell an MCTSBot of ``simulations`` would play for the player to move, its search
    stopped at ``seconds`` (0: no limit) if that comes first."""
    mover = position.to_move
    assert mover is not None  # the core's checks before it refuse a finished game
    view = position.view(mover) if isinstance(position, Game) else position
    if view.viewer != view.to_move:
        raise SolveError(f"guess needs the view of the player to move ({view.to_move}), or the game")
    move = MCTSBot(simulations, seconds or None, threads=1, seed=0).analyse(view).move
    return move if isinstance(move, Cell) else None


def _count(name: str, value: int | None) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_COUNT:
        raise SolveError(f"{name} must be a positive integer (at most 2**63 - 1) or None, not {value!r}")
    return value


def _seconds(value: float | None) -> float:
    if value is None:
        return 0.0
    if isinstance(value, bool) or not isinstance(value, int | float) or not (0 < value < math.inf):
        raise SolveError(f"max_seconds must be a positive number of seconds or None, not {value!r}")
    return float(value)


def _knowledge(names: Iterable[str]) -> list[str]:
    if isinstance(names, str):
        raise SolveError(f"knowledge must be a collection of names such as {list(KNOWLEDGE)}, not a string")
    return [str(n) for n in names]


def _move(index: int, cols: int) -> Move | None:
    if index == -2:
        return SWAP
    if index < 0:
        return None
    return Cell.from_index(index, cols)


def _result(raw: tuple, cols: int) -> SolveResult:
    winner, to_move, status, moves, swap_wins, best, nodes, seconds, memory, _entries, counts = raw
    winning: tuple[Move, ...] | None = None
    if moves is not None:
        winning = tuple(Cell.from_index(i, cols) for i in moves)
        if swap_wins:
            winning += (SWAP,)
    return SolveResult(
        winner=Color(winner) if winner else None,
        to_move=Color(to_move),
        status=status,
        winning_moves=winning,
        best_move=_move(best, cols),
        nodes=nodes,
        seconds=seconds,
        memory=memory,
        counts=counts,
    )
