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
    in lower case (``x``/``o``) or as ``*`` when empty, e.g. a completed chain.

    ``board`` is a 2-D array such as ``game.board`` (``str(game)`` draws a game
    with its status); anything else is a TypeError or ValueError naming the
    problem:

    >>> board_text(np.array([[0, 3]]))
    Traceback (most recent call last):
    ...
    ValueError: board_text: cell b1 holds 3; a board holds 0 (empty), 1 (red) or 2 (blue)
    """
    if not isinstance(board, np.ndarray) and hasattr(board, "board"):
        name = type(board).__name__
        raise TypeError(f"board_text draws a board array: pass {name}.board, or print the object")
    board = np.asarray(board)
    integers = np.issubdtype(board.dtype, np.integer)
    if board.ndim != 2 or 0 in board.shape or board.shape[1] > 26 or not integers:
        raise TypeError(
            "board_text draws a 2-D integer array of at least one cell and at most 26 columns, "
            f"such as game.board; got {board.dtype} of shape {board.shape}"
        )
    outside = np.argwhere((board < 0) | (board > 2))
    if len(outside):
        r, c = (int(x) for x in outside[0])
        raise ValueError(
            f"board_text: cell {chr(ord('a') + c)}{r + 1} holds {int(board[r, c])}; "
            "a board holds 0 (empty), 1 (red) or 2 (blue)"
        )
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
