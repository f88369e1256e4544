"""Cells and their names.

A cell is ``(row, col)``, both 0-based from the top-left corner. Its name is
the column letter and the 1-based row number, as in HexGui and trmph:

>>> from hexengine import Cell
>>> Cell("f6")
Cell('f6')
>>> Cell(0, 2).name
'c1'
>>> Cell("K11") == (10, 10)
True
"""

from __future__ import annotations

from typing import NamedTuple

from . import _core
from .errors import IllegalMove

__all__ = ["Cell"]

MAX_SIDE = 19


def core_text(text: str) -> str:
    """``text`` with anything UTF-8 cannot encode (lone surrogates) escaped, so the core can read it."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


class _RowCol(NamedTuple):
    row: int
    col: int


class Cell(_RowCol):
    """A cell of the board as ``(row, col)``; equal to the plain tuple.

    ``Cell("f6")`` reads a name (as :meth:`parse` does), ``Cell(5, 5)`` takes
    the coordinates.

    >>> Cell("b1") == Cell(0, 1) == (0, 1)
    True
    """

    __slots__ = ()

    def __new__(cls, row: int | str, col: int | None = None) -> Cell:
        if col is None:
            if isinstance(row, str):
                return cls.parse(row)
            raise TypeError(f"Cell takes a name such as 'f6' or a row and a column, not {row!r} alone")
        return super().__new__(cls, row, col)  # type: ignore[arg-type]

    @property
    def name(self) -> str:
        """Column letter plus row number, e.g. ``'f6'``; IllegalMove for a cell off every board."""
        if not self._on_some_board():
            raise IllegalMove(f"{tuple(self)!r} is off every board, so it has no name", None, "off-board")
        return f"{chr(ord('a') + self.col)}{self.row + 1}"

    def _on_some_board(self) -> bool:
        return all(isinstance(x, int) and 0 <= x < MAX_SIDE for x in self)

    def index(self, cols: int) -> int:
        """The cell's index ``row * cols + col`` on a board with ``cols`` columns."""
        return self.row * cols + self.col

    @classmethod
    def from_index(cls, index: int, cols: int) -> Cell:
        """The cell with index ``index`` on a board with ``cols`` columns."""
        return super().__new__(cls, index // cols, index % cols)

    @classmethod
    def parse(cls, text: str) -> Cell:
        """The cell called ``text`` (``'a1'`` to ``'s19'``); raises IllegalMove.

        >>> Cell.parse("c4")
        Cell('c4')
        """
        if not isinstance(text, str):
            raise TypeError(f"Cell.parse takes a cell's name such as 'c4', not {text!r}")
        index = _core.parse_cell(19, 19, core_text(text))
        return super().__new__(cls, index // 19, index % 19)

    def __str__(self) -> str:
        return self.name if self._on_some_board() else repr(tuple(self))

    def __repr__(self) -> str:
        if self._on_some_board():
            return f"Cell({self.name!r})"
        return f"Cell({self.row!r}, {self.col!r})"
