"""Reading moves given as a cell name, a (row, col) pair, an index or "swap", and integer actions.

An action is an integer: ``row * cols + col`` for a cell, and ``rows * cols``
for the swap, in every variant and shape (where the swap is off, that action
is never legal). :func:`action_of` and :func:`move_of` convert:

>>> import hexengine as hx
>>> rules = hx.Rules("hex", 3, 4)
>>> hx.action_of("b2", rules), hx.action_of("swap", rules)
(5, 12)
>>> hx.move_of(5, rules), hx.move_of(12, rules)
(Cell('b2'), 'swap')
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Literal

from . import _core
from .cells import Cell, core_text
from .errors import IllegalMove

if TYPE_CHECKING:
    from .rules import Rules

__all__ = ["SWAP", "Move", "MoveLike", "MoveList", "action_of", "cell_index", "move_of"]

SWAP: Literal["swap"] = "swap"
Move = Cell | Literal["swap"]
MoveLike = str | tuple[int, int] | int | Cell


class MoveList(list[Move]):
    """A list of moves that also answers ``in`` for a move written as a name.

    >>> import hexengine as hx
    >>> moves = hx.Game("hex", size=3).legal_moves()
    >>> "b1" in moves, "B1" in moves, (0, 1) in moves, "d1" in moves, "swap" in moves
    (True, True, True, False, False)
    """

    __slots__ = ()

    def __contains__(self, move: object) -> bool:
        if isinstance(move, str):
            name = move.strip().lower()
            if name == SWAP:
                return list.__contains__(self, SWAP)
            try:
                move = Cell.parse(name)
            except IllegalMove:
                return False
        return list.__contains__(self, move)


def cell_index(move: object, rows: int, cols: int) -> int:
    """The index of the cell ``move`` names on a rows x cols board; raises IllegalMove.

    The core checks the range and the notation; this only dispatches on type.
    """
    if isinstance(move, str):
        return _core.parse_cell(rows, cols, core_text(move.strip()))
    if isinstance(move, tuple) and len(move) == 2:
        try:
            row, col = operator.index(move[0]), operator.index(move[1])
        except TypeError:
            raise IllegalMove(
                f"cannot read {move!r} as a cell: row and column must be integers", None, "notation"
            ) from None
        return _core.cell_at(rows, cols, _clamp(row), _clamp(col))
    if not isinstance(move, bool):
        try:
            index = operator.index(move)  # type: ignore[arg-type]
        except TypeError:
            pass
        else:
            if not -(2**62) < index < 2**62:
                raise IllegalMove(f"cell index {index} is off the {rows}x{cols} board", None, "off-board")
            return _core.checked_cell(rows, cols, index)
    raise IllegalMove(
        f"cannot read {move!r} as a move: give a cell name like 'f6', a (row, col) pair, "
        "an index row * cols + col, or 'swap'",
        None,
        "notation",
    )


def action_of(move: MoveLike, rules: Rules) -> int:
    """The integer action of ``move`` (a cell name, ``(row, col)``, an index or ``"swap"``)
    under ``rules``; raises IllegalMove for a cell off the board."""
    if isinstance(move, str) and move.strip().lower() == SWAP:
        return rules.rows * rules.cols
    return cell_index(move, rules.rows, rules.cols)


def move_of(action: int, rules: Rules) -> Move:
    """The move of integer ``action`` under ``rules``: a :class:`Cell`, or ``"swap"`` for
    ``rows * cols``; raises IllegalMove off the range and TypeError for a non-integer."""
    if isinstance(action, bool) or not hasattr(action, "__index__"):
        raise TypeError(
            f"an action is an int (row * cols + col, or rows * cols for the swap), not {action!r}"
        )
    index, cells = operator.index(action), rules.rows * rules.cols
    if index == cells:
        return SWAP
    if not 0 <= index < cells:
        raise IllegalMove(
            f"action {index} is off the {rules.rows}x{rules.cols} board: actions are 0-{cells - 1} "
            f"(the cells, row * cols + col) and {cells} (the swap)",
            None,
            "off-board",
        )
    return Cell.from_index(index, rules.cols)


def _clamp(value: int) -> int:
    """Keeps a coordinate within C++ int; anything clamped is still off the board."""
    return max(-(2**31), min(value, 2**31 - 1))
