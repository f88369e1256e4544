"""The referee of one game of Hex, Rex or Dark Hex.

>>> import hexengine as hx
>>> game = hx.Game("hex", size=3)
>>> game.play("b2")
<MoveResult.PLACED: 'placed'>
>>> game.play("swap")        # Blue takes over Red's first stone (the 'sides' swap)
<MoveResult.SWAPPED: 'swapped'>
>>> game.to_move             # same board, Blue (now the other person) moves next
<Color.BLUE: 2>
>>> for move in ["a3", "b1", "c1", "b3"]:
...     _ = game.play(move)
>>> game.is_over, game.winner, game.end_reason
(True, <Color.RED: 1>, 'connection')
>>> game.completed_chain()
[Cell.parse('b1'), Cell.parse('b2'), Cell.parse('b3')]
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from . import _core
from ._checks import whole_number
from ._moves import SWAP, Move, MoveLike, cell_index
from .cells import Cell
from .errors import IllegalMove, RulesError
from .rules import (
    _RESULTS,
    END_REASONS,
    Action,
    Color,
    EndReason,
    MoveResult,
    Rules,
    SwapForm,
    Variant,
    _color,
)
from .text import board_text
from .view import View

__all__ = ["Game"]


class Game:
    """A game in progress: the referee, who knows every stone.

    ``Game("hex", size=11)``, ``Game("rex", size=7, swap="pieces")``,
    ``Game("dark", rows=4, cols=3)`` or ``Game(rules)``. Give bots and clients
    :meth:`view` objects, never the game itself: in Dark Hex the game knows
    every hidden stone.
    """

    __slots__ = ("_core", "_rules")

    def __init__(
        self,
        variant: Variant | Rules = "hex",
        size: int = 11,
        *,
        rows: int | None = None,
        cols: int | None = None,
        swap: SwapForm | None = None,
    ) -> None:
        if isinstance(variant, Rules):
            rules = variant
        else:
            if (rows is None) != (cols is None):
                raise RulesError("give both rows and cols, or only size for a square board")
            rules = Rules(variant, size if rows is None else rows, size if cols is None else cols, swap)
        self._rules = rules
        self._core = _core.Game(rules.variant, rules.rows, rules.cols, rules.swap or "")

    @property
    def rules(self) -> Rules:
        """The rule set (frozen)."""
        return self._rules

    @property
    def to_move(self) -> Color | None:
        """Whose decision it is; ``None`` once the game is over."""
        return _color(self._core.to_move)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._core.is_over

    @property
    def winner(self) -> Color | None:
        """The winner, once the game is over."""
        return _color(self._core.winner)

    @property
    def end_reason(self) -> EndReason | None:
        """``"connection"``, ``"resignation"``, ``"timeout"``, or ``None`` while the game runs."""
        return END_REASONS[self._core.end_reason]

    def play(self, move: MoveLike) -> MoveResult:
        """Plays ``move`` for the player to move and says what it did.

        ``move`` is a cell name (``"f6"``), a ``(row, col)`` pair, an index
        ``row * cols + col``, or ``"swap"``. Raises :class:`IllegalMove`
        naming the cell and the rule when the move is not allowed.
        """
        if isinstance(move, str) and move.strip().lower() == SWAP:
            return _RESULTS[self._core.swap()]
        return _RESULTS[self._core.play(cell_index(move, self._rules.rows, self._rules.cols))]

    def legal_moves(self) -> list[Move]:
        """What the player to move may choose: cells, plus ``"swap"`` when allowed.

        In Dark Hex these are the cells the mover does not know to be
        occupied, as the mover's own view would give them.
        """
        moves: list[Move] = [Cell.from_index(i, self._rules.cols) for i in self._core.legal_moves()]
        if self._core.swap_available:
            moves.append(SWAP)
        return moves

    def completed_chain(self) -> list[Cell]:
        """The chain that ended the game, from its owner's first edge to the second.

        The winner's chain in Hex and Dark Hex, the loser's in Rex; no stone of
        it can be removed without breaking it. Empty unless the game ended by
        a connection.
        """
        return [Cell.from_index(i, self._rules.cols) for i in self._core.completed_chain()]

    def resign(self, color: Color) -> None:
        """``color`` resigns, at any time, also out of turn; the opponent wins."""
        self._core.resign(_checked_color(color))

    def timeout(self, color: Color) -> None:
        """``color``, the player to move, ran out of time and loses."""
        self._core.timeout(_checked_color(color))

    @property
    def history(self) -> list[Action]:
        """Every action so far with its colour, cell and result: the full record."""
        return [Action._from_core(item, self._rules.cols) for item in self._core.history()]

    @property
    def board(self) -> np.ndarray:
        """The true board as an ``int8`` array (rows, cols): 0 empty, 1 red, 2 blue."""
        return self._core.board()

    def board_after(self, actions: int) -> np.ndarray:
        """The true board after the first ``actions`` actions of the record
        (0 to ``len(history)``); raises IndexError otherwise."""
        count = len(self._core.history())
        if isinstance(actions, bool) or not isinstance(actions, int) or not 0 <= actions <= count:
            raise IndexError(f"board_after({actions!r}): the record has {count} actions")
        return self._core.board_after(actions)

    def replay(self) -> Iterator[tuple[Action | None, np.ndarray]]:
        """The full record step by step: ``(None, empty board)``, then each
        action with the true board after it, whatever the end reason."""
        yield None, self.board_after(0)
        for k, action in enumerate(self.history, start=1):
            yield action, self.board_after(k)

    def random_playouts(self, n: int, *, seed: int = 0, threads: int = 1) -> dict[Color, int]:
        """Plays ``n`` random games from the true position and counts the wins.

        Runs in C++ with the GIL released. Hex and Rex fill the board at
        random (the player to move gets the odd cell); Dark Hex plays the real
        dark rules, each side choosing among the cells it does not know to be
        occupied. Random players never swap. The same ``n``, ``seed`` and
        ``threads`` give the same counts.

        >>> game = hx.Game("hex", size=3)
        >>> _ = game.play("b2")
        >>> wins = game.random_playouts(1000, seed=1)
        >>> wins[hx.RED] + wins[hx.BLUE], wins[hx.RED] > wins[hx.BLUE]
        (1000, True)
        """
        count, workers = whole_number(n, "n"), whole_number(threads, "threads", _core.MAX_THREADS, least=1)
        red, blue = _core.random_playouts(self._core, count, _seed(seed), workers)
        return {Color.RED: red, Color.BLUE: blue}

    def view(self, color: Color) -> View:
        """What ``color`` may know; the only thing to hand to that player's bot or client."""
        return View(self._core.view(_checked_color(color)))

    def spectator_view(self) -> View:
        """What a spectator may know (in Dark Hex: no stone until a chain is completed)."""
        return View(self._core.spectator_view())

    def copy(self) -> Game:
        """An independent copy of this game."""
        clone = Game.__new__(Game)
        clone._rules = self._rules
        clone._core = self._core.copy()
        return clone

    def __copy__(self) -> Game:
        return self.copy()

    def __deepcopy__(self, memo: dict) -> Game:
        return self.copy()

    def status(self) -> str:
        """One line: whose turn it is, or who won and how."""
        if self.is_over:
            return f"{self.winner} wins by {self.end_reason}"
        return f"{self.to_move} to move"

    def __str__(self) -> str:
        return board_text(self.board, self.completed_chain()) + "\n" + self.status()

    def _repr_svg_(self) -> str:
        """The picture of the true board (see :mod:`hexengine.svg`)."""
        from .svg import svg

        return svg(self)

    def __repr__(self) -> str:
        r = self._rules
        return (
            f"<Game {r.variant} {r.rows}x{r.cols} swap={r.swap}: "
            f"{self.status()} after {len(self._core.history())} actions>"
        )


def _seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an integer, not {seed!r}")
    return seed % (1 << 64)


def _checked_color(color: object) -> int:
    if isinstance(color, Color):
        return int(color)
    raise IllegalMove(f"expected hx.RED or hx.BLUE, not {color!r}", None, "colour")
