"""Boards as SVG pictures, for notebooks and web pages.

:func:`svg` draws a :class:`~hexengine.Game`, a :class:`~hexengine.View` or a
:class:`~hexengine.GameRecord`; :func:`write_svg` saves the picture to a file.
Games and views show themselves in Jupyter through ``_repr_svg_``. A view
draws only what its viewer may know: its own board, the last move only when
the viewer knows where it was, and the completed chain only once the viewer
sees it.

The rhombus is drawn as on play sites: red edges along rows 1 and N (the
sides with the column letters), blue edges along the first and last columns
(the sides with the row numbers), each row half a cell right of the one
above. The last move has a white dot; the chain that ended the game is
outlined in gold.

>>> import hexengine as hx
>>> game = hx.Game("hex", size=3)
>>> for move in ["b2", "a1", "b1", "c1", "b3"]:
...     _ = game.play(move)
>>> picture = hx.svg(game)
>>> picture.startswith("<svg") and picture.count('class="stone red"')
3
>>> picture.count('class="chain"'), picture.count('class="last"')
(3, 1)
>>> dark = hx.Game("dark", size=3)
>>> _ = dark.play("b2")
>>> hx.svg(dark.view(hx.BLUE)).count('class="stone')     # Blue sees no stone
0
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from html import escape
from typing import Any, NamedTuple

import numpy as np

from .cells import Cell

__all__ = ["Picture", "board_svg", "svg", "write_svg"]

RED_FILL = "#d7263d"
BLUE_FILL = "#1b5fc1"
EMPTY_FILL = "#f3ead7"
GRID = "#8a7f6a"
CHAIN = "#f2b705"
SQRT3 = math.sqrt(3.0)


def board_svg(
    board: np.ndarray,
    *,
    chain: Iterable[tuple[int, int]] = (),
    last: tuple[int, int] | None = None,
    coordinates: bool = True,
    cell_size: float = 24.0,
    title: str | None = None,
) -> str:
    """The SVG picture of ``board`` (an array of 0 empty, 1 red, 2 blue).

    ``chain`` cells are outlined in gold, ``last`` gets a white dot,
    ``coordinates`` adds column letters and row numbers, ``cell_size`` is a
    hexagon's radius in pixels and ``title`` becomes the picture's tooltip.
    """
    board = np.asarray(board)
    if board.ndim != 2 or not 1 <= board.shape[0] <= 19 or not 1 <= board.shape[1] <= 19:
        raise ValueError(f"board must be a 2-D array of 1x1 to 19x19 cells, not shape {board.shape}")
    rows, cols = (int(n) for n in board.shape)
    r = float(cell_size)
    w = SQRT3 * r
    margin = 1.6 * r if coordinates else 0.6 * r
    width = 2 * margin + w * (cols + (rows - 1) / 2)
    height = 2 * margin + r * (1.5 * rows + 0.5)
    marks = {tuple(c) for c in chain}

    def center(row: float, col: float) -> tuple[float, float]:
        return margin + w / 2 + w * (col + row / 2), margin + r + 1.5 * r * row

    def corner(row: int, col: int, k: int) -> tuple[float, float]:
        x, y = center(row, col)
        angle = math.radians(-90 + 60 * k)
        return x + r * math.cos(angle), y + r * math.sin(angle)

    def line(a: tuple[float, float], b: tuple[float, float], color: str) -> str:
        return (
            f'<line x1="{a[0]:.1f}" y1="{a[1]:.1f}" x2="{b[0]:.1f}" y2="{b[1]:.1f}" '
            f'stroke="{color}" stroke-width="{r / 4:.1f}" stroke-linecap="round"/>'
        )

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.1f} {height:.1f}" font-family="sans-serif" font-size="{r * 0.6:.1f}">'
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    # Corners k: 0 top, 1 upper right, 2 lower right, 3 bottom, 4 lower left, 5 upper left.
    edges = []
    bottom = rows - 1
    for c in range(cols):
        for row, k in ((0, 5), (0, 0), (bottom, 2), (bottom, 3)):
            edges.append(line(corner(row, c, k), corner(row, c, k + 1), RED_FILL))
    for row in range(rows):
        edges += [line(corner(row, 0, 4), corner(row, 0, 5), BLUE_FILL)]
        edges += [line(corner(row, cols - 1, 1), corner(row, cols - 1, 2), BLUE_FILL)]
        if row < rows - 1:
            edges += [line(corner(row, 0, 3), corner(row, 0, 4), BLUE_FILL)]
        if row > 0:
            edges += [line(corner(row, cols - 1, 0), corner(row, cols - 1, 1), BLUE_FILL)]
    out += edges
    for row in range(rows):
        for col in range(cols):
            points = " ".join(f"{x:.1f},{y:.1f}" for x, y in (corner(row, col, k) for k in range(6)))
            name = Cell(row, col).name
            out.append(
                f'<polygon points="{points}" fill="{EMPTY_FILL}" stroke="{GRID}" stroke-width="1">'
                f"<title>{name}</title></polygon>"
            )
    for row in range(rows):
        for col in range(cols):
            x, y = center(row, col)
            value = int(board[row, col])
            if value in (1, 2):
                kind, fill = ("red", RED_FILL) if value == 1 else ("blue", BLUE_FILL)
                out.append(
                    f'<circle class="stone {kind}" cx="{x:.1f}" cy="{y:.1f}" '
                    f'r="{r * 0.7:.1f}" fill="{fill}"/>'
                )
            if (row, col) in marks:
                out.append(
                    f'<circle class="chain" cx="{x:.1f}" cy="{y:.1f}" r="{r * 0.78:.1f}" fill="none" '
                    f'stroke="{CHAIN}" stroke-width="{r / 6:.1f}"/>'
                )
            if last is not None and (row, col) == tuple(last):
                out.append(
                    f'<circle class="last" cx="{x:.1f}" cy="{y:.1f}" r="{r * 0.2:.1f}" fill="#ffffff"/>'
                )
    if coordinates:
        for col in range(cols):
            letter = chr(ord("a") + col)
            for row, dy in ((0, -1.35 * r), (rows - 1, 1.35 * r)):
                x, y = center(row, col)
                out.append(
                    f'<text x="{x:.1f}" y="{y + dy:.1f}" text-anchor="middle" dominant-baseline="middle" '
                    f'fill="{RED_FILL}">{letter}</text>'
                )
        for row in range(rows):
            for col, dx in ((0, -1.25 * w), (cols - 1, 1.25 * w)):
                x, y = center(row, col)
                out.append(
                    f'<text x="{x + dx / 1.4:.1f}" y="{y:.1f}" text-anchor="middle" '
                    'dominant-baseline="middle" '
                    f'fill="{BLUE_FILL}">{row + 1}</text>'
                )
    out.append("</svg>")
    return "\n".join(out)


class Picture(NamedTuple):
    """What :func:`svg` draws of an object: its board, the chain that ended the game,
    the last move and a title."""

    board: np.ndarray
    chain: list[Cell]
    last: Cell | None
    title: str


def svg(obj: Any, *, coordinates: bool = True, cell_size: float = 24.0) -> str:
    """The SVG picture of a game (the true board), a view (what its viewer sees) or a record
    (its final position, every stone shown)."""
    picture = getattr(obj, "_picture", None)
    if not callable(picture):
        raise TypeError(f"svg() draws a hexengine Game, View or GameRecord, not {type(obj).__name__}")
    board, chain, last, title = picture()
    return board_svg(board, chain=chain, last=last, coordinates=coordinates, cell_size=cell_size, title=title)


def write_svg(obj: Any, path: str | os.PathLike[str], **options: Any) -> None:
    """Writes :func:`svg` of ``obj`` to ``path`` (UTF-8)."""
    if not isinstance(path, str | os.PathLike):
        # open() would take an integer as a file descriptor: write_svg(game, 1)
        # wrote to standard output and then closed it.
        raise TypeError(f"write_svg writes to a file path, not {path!r}")
    with open(path, "w", encoding="utf-8") as f:
        f.write(svg(obj, **options))
        f.write("\n")
