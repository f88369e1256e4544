"""A position given by its stones and the colour to move, with no game behind it.

SGF set-up properties (``AB``, ``AW``, ``AE`` and ``PL``) and HTP controllers
that play stones of either colour (HexGui sends set-up stones as ``play``
commands) describe boards that alternating moves from the empty board may not
reach: three Red stones and one Blue one, or Blue to move on an empty board.
A :class:`~hexengine.Game` cannot hold such a board, since the referee only
plays legal games; a :class:`Position` can. It has no history and no swap, and
it hands bots and the solver a :class:`~hexengine.View` of itself, so
:class:`~hexengine.MCTSBot` and :func:`hexengine.solve` work on it. Whether a
chain is complete is asked of the C++ core, like every rule.

>>> import hexengine as hx
>>> from hexengine.records import Position
>>> position = Position.empty(hx.Rules("hex", 3, 3), to_move=hx.BLUE)
>>> for cell in ["a1", "a2"]:
...     position = position.place(hx.RED, cell)
>>> position.to_move, position.is_over
(<Color.BLUE: 2>, False)
>>> hx.solve(position.view()).winner
<Color.RED: 1>
>>> position.place(hx.RED, "a3").winner           # Red joins its two edges
<Color.RED: 1>
"""

from __future__ import annotations

import numpy as np

from .. import _core
from .._moves import cell_index
from ..cells import Cell
from ..errors import IllegalMove
from ..game import Game, View, _view_from_state
from ..rules import BLUE, RED, Color, Rules
from .model import RecordError

__all__ = ["Position"]


class Position:
    """Stones on a board and the colour to move (see the module docstring). Immutable:
    :meth:`place` returns a new position.

    ``rules`` keeps the variant and the size; a position has no swap, so its
    swap form is ``"off"``. Once a chain joins its owner's edges the position is
    over: in Hex that player wins, in Rex they lose.
    """

    __slots__ = ("_board", "_joined", "_rules", "_to_move")

    def __init__(self, rules: Rules, board: np.ndarray, to_move: Color) -> None:
        if not isinstance(rules, Rules):
            raise TypeError(f"a position takes hexengine Rules, not {type(rules).__name__}")
        if rules.is_dark:
            raise RecordError("a set-up position has no hidden stones: Dark Hex positions need a game")
        self._rules = Rules(rules.variant, rules.rows, rules.cols, "off")
        cells = np.array(board, dtype=np.int8, copy=True)
        if cells.shape != (rules.rows, rules.cols) or not np.isin(cells, (0, 1, 2)).all():
            raise RecordError(
                f"a {rules.rows}x{rules.cols} position needs a board of that shape holding 0, 1 and 2"
            )
        if to_move not in (RED, BLUE):
            raise RecordError(f"the colour to move must be hx.RED or hx.BLUE, not {to_move!r}")
        cells.setflags(write=False)
        self._board = cells
        self._to_move = Color(to_move)
        self._joined = _joined_colour(self._rules, cells)

    @classmethod
    def empty(cls, rules: Rules, to_move: Color = RED) -> Position:
        """An empty board of ``rules``' size with ``to_move`` to move."""
        return cls(rules, np.zeros((rules.rows, rules.cols), dtype=np.int8), to_move)

    @classmethod
    def from_game(cls, game: Game, to_move: Color | None = None) -> Position:
        """The board of ``game`` (Hex or Rex) with ``to_move`` (default: the game's) to move."""
        color = game.to_move if to_move is None else to_move
        if color is None:
            color = RED if game.winner is BLUE else BLUE
        return cls(game.rules, game.board, color)

    @property
    def rules(self) -> Rules:
        """The variant and size (swap ``"off"``)."""
        return self._rules

    @property
    def board(self) -> np.ndarray:
        """The stones, as a read-only ``(rows, cols)`` array: 0 empty, 1 red, 2 blue."""
        return self._board

    @property
    def to_move(self) -> Color | None:
        """The colour to move, or ``None`` once a chain is complete."""
        return None if self._joined is not None else self._to_move

    @property
    def is_over(self) -> bool:
        """Whether a chain joins its owner's two edges."""
        return self._joined is not None

    @property
    def winner(self) -> Color | None:
        """Who won, once a chain is complete (its owner in Hex, the other colour in Rex)."""
        if self._joined is None:
            return None
        return self._joined.opponent if self._rules.variant == "rex" else self._joined

    @property
    def end_reason(self) -> str | None:
        """``"connection"`` once a chain is complete, else ``None``."""
        return None if self._joined is None else "connection"

    def stones(self, color: Color) -> list[Cell]:
        """The cells holding ``color``'s stones, row by row."""
        rows, cols = np.nonzero(self._board == int(color))
        return [Cell(int(r), int(c)) for r, c in zip(rows, cols, strict=True)]

    def legal_moves(self) -> list[Cell]:
        """The empty cells (none once the position is over)."""
        return [] if self.is_over else _empty_cells(self._board)

    def place(self, color: Color, cell: str | tuple[int, int] | int | Cell) -> Position:
        """The position after a ``color`` stone on ``cell`` (which must be empty); the other
        colour moves next. Raises :class:`~hexengine.IllegalMove`."""
        if color not in (RED, BLUE):
            raise IllegalMove(f"expected hx.RED or hx.BLUE, not {color!r}", None, "colour")
        if self.is_over:
            raise IllegalMove(f"the position is over: {self.status()}", None, "game-over")
        r = self._rules
        index = cell_index(cell, r.rows, r.cols)
        row, col = divmod(index, r.cols)
        where = Cell(row, col)
        held = int(self._board[row, col])
        if held:
            raise IllegalMove(f"{where.name} already holds a {Color(held)} stone", where, "occupied")
        board = self._board.copy()
        board[row, col] = int(color)
        return Position(r, board, Color(color).opponent)

    def with_to_move(self, color: Color) -> Position:
        """The same stones with ``color`` to move."""
        return Position(self._rules, self._board, color)

    def with_rules(self, rules: Rules) -> Position:
        """The same stones and colour to move under ``rules`` (another variant, same size)."""
        return Position(rules, self._board, self._to_move)

    def view(self, color: Color | None = None) -> View:
        """A :class:`~hexengine.View` of the position for ``color`` (default: the colour to
        move), to hand to a bot or to :func:`hexengine.solve`. It has no history."""
        viewer = self.to_move if color is None else color
        r = self._rules
        winner = self.winner
        state = (
            r.variant, r.rows, r.cols, r.swap, None if viewer is None else int(viewer),
            self._board.astype(np.int8).tobytes(), None if self.to_move is None else int(self.to_move),
            None if winner is None else int(winner), 0 if winner is None else 1, 0, False, [], [],
        )  # fmt: skip
        return _view_from_state(state)

    def status(self) -> str:
        """``"Red to move"``, or who won."""
        if self.is_over:
            return f"{self.winner} won by connection"
        return f"{self._to_move} to move"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Position)
            and self._rules == other._rules
            and self._to_move == other._to_move
            and np.array_equal(self._board, other._board)
        )

    def __hash__(self) -> int:
        return hash((self._rules, self._to_move, self._board.tobytes()))

    def __repr__(self) -> str:
        r = self._rules
        counts = ", ".join(f"{int((self._board == int(c)).sum())} {c}" for c in (RED, BLUE))
        return f"<Position {r.variant} {r.rows}x{r.cols}: {counts}, {self.status()}>"


def _empty_cells(board: np.ndarray) -> list[Cell]:
    rows, cols = np.nonzero(board == 0)
    return [Cell(int(r), int(c)) for r, c in zip(rows, cols, strict=True)]


def _joined_colour(rules: Rules, board: np.ndarray) -> Color | None:
    """The colour whose stones join its edges, if one does."""
    joined = _core.joined_colour(rules.rows, rules.cols, [int(x) for x in board.ravel()])
    return Color(joined) if joined else None
