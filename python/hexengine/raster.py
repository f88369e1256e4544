"""Boards as RGB pixel arrays, for ``render_mode="rgb_array"`` and videos of games.

The picture is laid out as :mod:`hexengine.svg` draws it (the rhombus with
each row half a cell right of the one above, pointy-top hexagons) in the same
colours, with red bars along the red edges (rows 1 and N) and blue bars along
the blue ones. Only numpy is used.

>>> import hexengine as hx
>>> game = hx.Game("hex", size=3)
>>> _ = game.play("b2")
>>> image = board_rgb(game.board, cell_size=10)
>>> image.shape, image.dtype
((68, 88, 3), dtype('uint8'))
>>> image[pixel_center(1, 1, 3, 10)].tolist()     # the red stone
[215, 38, 61]
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["board_rgb", "pixel_center"]

RED = (215, 38, 61)
BLUE = (27, 95, 193)
EMPTY = (243, 234, 215)
GRID = (138, 127, 106)
BACKGROUND = (255, 255, 255)
SQRT3 = math.sqrt(3.0)


def _margin(cell_size: int) -> float:
    return 0.9 * cell_size


def pixel_center(row: int, col: int, rows: int, cell_size: int) -> tuple[int, int]:
    """The ``(y, x)`` pixel at the centre of cell ``(row, col)`` in :func:`board_rgb`'s picture."""
    r, w, m = float(cell_size), SQRT3 * cell_size, _margin(cell_size)
    return int(m + r + 1.5 * r * row), int(m + w / 2 + w * (col + row / 2))


def board_rgb(board: np.ndarray, *, cell_size: int = 16) -> np.ndarray:
    """The picture of ``board`` (0 empty, 1 red, 2 blue) as a ``uint8`` array ``(height, width, 3)``;
    ``cell_size`` is a hexagon's radius in pixels (4 to 64)."""
    board = np.asarray(board)
    if board.ndim != 2 or not 1 <= board.shape[0] <= 19 or not 1 <= board.shape[1] <= 19:
        raise ValueError(f"board must be a 2-D array of 1x1 to 19x19 cells, not shape {board.shape}")
    if isinstance(cell_size, bool) or not isinstance(cell_size, int) or not 4 <= cell_size <= 64:
        raise ValueError(f"cell_size must be a whole number of pixels from 4 to 64, not {cell_size!r}")
    rows, cols = (int(n) for n in board.shape)
    r, w, m = float(cell_size), SQRT3 * cell_size, _margin(cell_size)
    height = math.ceil(2 * m + r * (1.5 * rows + 0.5))
    width = math.ceil(2 * m + w * (cols + (rows - 1) / 2))
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    # Pixel -> fractional axial coordinates of pointy-top hexagons, then cube rounding.
    py, px = y - (m + r), x - (m + w / 2)
    q = (SQRT3 / 3 * px - py / 3) / r
    s = (2 / 3 * py) / r
    cq, cs = np.round(q), np.round(s)
    ct = np.round(-q - s)
    dq, ds, dt = np.abs(cq - q), np.abs(cs - s), np.abs(ct + q + s)
    fix_q = (dq > ds) & (dq > dt)
    fix_s = ~fix_q & (ds > dt)
    cq = np.where(fix_q, -cs - ct, cq)
    cs = np.where(fix_s, -cq - ct, cs)
    row, col = cs.astype(int), cq.astype(int)
    inside = (row >= 0) & (row < rows) & (col >= 0) & (col < cols)
    image = np.empty((height, width, 3), dtype=np.uint8)
    image[:] = BACKGROUND
    # The edges: bars just outside the board, red above and below, blue left and right.
    outside_rows = (~inside) & (col >= 0) & (col < cols)
    image[outside_rows & (row == -1)] = RED
    image[outside_rows & (row == rows)] = RED
    outside_cols = (~inside) & (row >= 0) & (row < rows)
    image[outside_cols & (col == -1)] = BLUE
    image[outside_cols & (col == cols)] = BLUE
    colours = np.array([EMPTY, RED, BLUE], dtype=np.uint8)
    cells = board[np.clip(row, 0, rows - 1), np.clip(col, 0, cols - 1)]
    image[inside] = colours[np.clip(cells[inside], 0, 2)]
    # Cell borders: pixels near the edge of their hexagon (the hexagon's own norm,
    # 1 on its boundary, measured from the cell's centre).
    dy, dx = np.abs(py - 1.5 * r * cs), np.abs(px - w * (cq + cs / 2))
    norm = np.maximum(dy + dx / SQRT3, 2 * dx / SQRT3) / r
    image[inside & (norm > 1 - 1.5 / cell_size)] = GRID
    return image
