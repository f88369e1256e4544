"""Terminal drawing for ``hexengine play``: the coloured rhombus, and line input with a deadline.

The board is drawn from what one viewer may see (a table message's board
rows), never from the referee. Red stones are ``X``, Blue stones ``O``; the
last move is bracketed, ``[X]``; the chain that ended the game is drawn in
lower case (``x``/``o``) and, in colour, on a gold background. Column letters
sit on the red edges and row numbers on the blue edges, so the legend can
name edges by colour:

>>> print(draw_board([[0, 1, 0], [2, 0, 0], [0, 1, 0]], last=(2, 1), color=False))
     a b c
  1  . X .  1
   2  O . .  2
    3  .[X].  3
       a b c
X Red joins its red edges (rows 1 and 3); O Blue joins its blue edges (columns a and c)
"""

from __future__ import annotations

import os
import queue
import sys
import threading
from collections.abc import Iterable, Sequence
from typing import TextIO

__all__ = ["LineReader", "ProgressBar", "clear_screen", "draw_board", "use_color"]

RESET = "\033[0m"
RED = "\033[1;31m"
BLUE = "\033[1;34m"
DIM = "\033[2m"
CHAIN = "\033[43m"
BOLD = "\033[1m"


def use_color(stream: TextIO, choice: str = "auto") -> bool:
    """Whether to colour output on ``stream``: ``always``, ``never``, or ``auto`` (a terminal,
    and ``NO_COLOR`` unset)."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    return bool(getattr(stream, "isatty", lambda: False)()) and not os.environ.get("NO_COLOR")


def draw_board(
    board: Sequence[Sequence[int]],
    *,
    last: tuple[int, int] | None = None,
    chain: Iterable[tuple[int, int]] = (),
    color: bool = False,
) -> str:
    """The board as text (see the module docstring); ``color`` adds ANSI colours."""
    rows, cols = len(board), len(board[0])
    marks = {tuple(c) for c in chain}
    letters = " ".join(chr(ord("a") + c) for c in range(cols))

    def paint(text: str, code: str) -> str:
        return f"{code}{text}{RESET}" if color else text

    lines = [" " * 5 + paint(letters, RED)]
    for r in range(rows):
        slots = []
        for c in range(cols):
            value = int(board[r][c])
            symbol = {0: ".", 1: "X", 2: "O"}[value]
            in_chain = (r, c) in marks
            if in_chain and value:
                symbol = symbol.lower()
            if color:
                code = {0: DIM, 1: RED, 2: BLUE}[value] + (CHAIN if in_chain else "")
                symbol = paint(symbol, code)
            slots += [" ", symbol]
        slots.append(" ")
        if last is not None and last[0] == r:
            # The brackets take the places of the single spaces around the last move.
            slots[2 * last[1]] = paint("[", BOLD)
            slots[2 * last[1] + 2] = paint("]", BOLD)
        label = paint(f"{r + 1:>3}", BLUE)
        lines.append(" " * r + label + " " + "".join(slots) + " " + paint(str(r + 1), BLUE))
    lines.append(" " * (rows + 4) + paint(letters, RED))
    last_col = chr(ord("a") + cols - 1)
    lines.append(
        f"{paint('X', RED)} Red joins its red edges (rows 1 and {rows}); "
        f"{paint('O', BLUE)} Blue joins its blue edges (columns a and {last_col})"
    )
    return "\n".join(lines)


def clear_screen(stream: TextIO, color: bool) -> None:
    """Clears the terminal and its scrollback (nothing of the last player's board stays);
    on a pipe, a separator line instead."""
    if color or getattr(stream, "isatty", lambda: False)():
        stream.write("\033[2J\033[3J\033[H")
    else:
        stream.write("\n" + "-" * 60 + "\n")
    stream.flush()


class LineReader:
    """Lines from ``stream`` read on a helper thread, so a prompt can wait with a deadline.

    :meth:`read` returns a line without its newline, ``None`` at the end of input,
    or raises :class:`TimeoutError` when ``timeout`` seconds pass first.
    """

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream if stream is not None else sys.stdin
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._ended = False
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        try:
            while True:
                line = self._stream.readline()
                if not line:
                    break
                self._lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def read(self, timeout: float | None = None) -> str | None:
        if self._ended:
            return None
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError from None
        if line is None:
            self._ended = True
        return line


class ProgressBar:
    """A progress bar on ``stream`` (default stderr): redrawn in place on a terminal; elsewhere
    one line per update with ``lines``, or nothing.

    >>> import io
    >>> out = io.StringIO()
    >>> ProgressBar(out, width=10, lines=True).show(3, 4, "A 2 - B 1")
    >>> out.getvalue()
    '[#######...] 3/4  A 2 - B 1\\n'
    """

    def __init__(self, stream: TextIO | None = None, *, width: int = 30, lines: bool = False) -> None:
        self._stream = stream if stream is not None else sys.stderr
        self._tty = bool(getattr(self._stream, "isatty", lambda: False)())
        self._width = width
        self._lines = lines
        self._shown = 0

    def show(self, done: int, total: int, text: str = "") -> None:
        """Draws ``done`` of ``total``, followed by ``text``."""
        if not (self._tty or self._lines):
            return
        filled = int(self._width * done / total) if total else self._width
        line = f"[{'#' * filled}{'.' * (self._width - filled)}] {done}/{total}  {text}".rstrip()
        if self._tty:
            self._stream.write("\r" + line.ljust(self._shown))
            self._shown = len(line)
        else:
            self._stream.write(line + "\n")
        self._stream.flush()

    def clear(self) -> None:
        """Removes the bar from a terminal (before other output)."""
        if self._tty and self._shown:
            self._stream.write("\r" + " " * self._shown + "\r")
            self._stream.flush()
            self._shown = 0
