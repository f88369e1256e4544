"""Reading moves given as a cell name, a (row, col) pair, an index or "swap"."""

from __future__ import annotations

import operator
from typing import Literal

from . import _core
from .cells import Cell, core_text
from .errors import IllegalMove

__all__ = ["SWAP", "Move", "MoveLike", "cell_index"]

SWAP: Literal["swap"] = "swap"
Move = Cell | Literal["swap"]
MoveLike = str | tuple[int, int] | int | Cell


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


def _clamp(value: int) -> int:
    """Keeps a coordinate within C++ int; anything clamped is still off the board."""
    return max(-(2**31), min(value, 2**31 - 1))
