"""Boards drawn as text: the rhombus a Hex player recognises.

Each row is shifted half a cell to the right of the one above, so the six
neighbours of a cell are the ones that touch it on screen. ``X`` is a red
stone, ``O`` a blue one, ``.`` an empty (or, in a Dark Hex view, unknown) cell:

>>> import numpy as np
>>> board = np.zeros((3, 4), dtype=np.int8)
>>> board[0, 1] = 1; board[1, 2] = 2
>>> print(board_text(board))
    a b c d
 1  . X . .  1
  2  . . O .  2
   3  . . . .  3
      a b c d
X Red joins rows 1 and 3 - O Blue joins columns a and d
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

__all__ = ["board_text"]

SYMBOLS = {0: ".", 1: "X", 2: "O"}


def board_text(board: np.ndarray, marked: Iterable[tuple[int, int]] = ()) -> str:
    """Draws ``board`` (0 empty, 1 red, 2 blue). Cells in ``marked`` are drawn
    in lower case (``x``/``o``) or as ``*`` when empty, e.g. a completed chain."""
    rows, cols = board.shape
    marks = {tuple(cell) for cell in marked}
    letters = " ".join(chr(ord("a") + c) for c in range(cols))
    lines = ["    " + letters]
    for r in range(rows):
        cells = []
        for c in range(cols):
            symbol = SYMBOLS[int(board[r, c])]
            if (r, c) in marks:
                symbol = symbol.lower() if symbol != "." else "*"
            cells.append(symbol)
        lines.append(" " * r + f"{r + 1:>2}  " + " ".join(cells) + f"  {r + 1}")
    lines.append(" " * (rows + 3) + letters)
    last = chr(ord("a") + cols - 1)
    lines.append(f"X Red joins rows 1 and {rows} - O Blue joins columns a and {last}")
    return "\n".join(lines)
