"""trmph: the move-list notation of trmph.com's Hex board.

A trmph record is the board size and the moves run together, usually as a
link: ``https://trmph.com/hex/board#11,f6e7f5``. The first move is Red's
(Black's in HexGui; it joins rows 1 and N), colours alternate as the rules
say, cells are column letter plus row number. A swap is written as the first
cell played again (``#11,f6f6...``), the way trmph's board records a click on
the first stone.

trmph carries no variant, no swap form, no resignation and no Dark Hex hits:
:func:`~hexengine.read_trmph` takes the variant and swap form as arguments (a record of
a Rex game reads back as Rex only if you say so), and :func:`write_trmph`
refuses Dark Hex. Boards that are not square are written ``#11x9,`` (columns
x rows), as hexworld.org does; trmph.com itself only has square boards.

>>> import hexengine as hx
>>> record = hx.read_trmph("https://trmph.com/hex/board#3,b2a1b1c1b3")
>>> record.winner, [str(a) for a in record.actions][:2]
(<Color.RED: 1>, ['Red b2', 'Blue a1'])
>>> hx.write_trmph(record)
'https://trmph.com/hex/board#3,b2a1b1c1b3'
>>> game = hx.Game("hex", size=5)
>>> for move in ["c3", "swap", "b4"]:
...     _ = game.play(move)
>>> hx.write_trmph(game)
'https://trmph.com/hex/board#5,c3c3b4'
>>> hx.read_trmph("#5,c3c3b4").game().board.tolist() == game.board.tolist()
True
"""

from __future__ import annotations

import re
from typing import Any

from .._moves import SWAP
from ..errors import HexError
from ..game import Game
from ..rules import MoveResult, Rules, SwapForm, Variant
from .model import RecordError

__all__ = ["TRMPH_PREFIX", "parse_trmph", "trmph_moves", "write_trmph"]

TRMPH_PREFIX = "https://trmph.com/hex/board#"
MAX_TRMPH_CHARS = 10_000

_HEADER = re.compile(
    r"\s*(?:(?:https?://)?(?:www\.)?trmph\.com/hex/board)?#?(\d{1,2})(?:\s*x\s*(\d{1,2}))?,", re.I
)
_MOVE = re.compile(r"([a-z])(\d{1,2})")


def parse_trmph(text: str) -> tuple[int, int, list[str]]:
    """``(rows, cols, cells)`` of a trmph link or its ``#size,moves`` part; raises RecordError.

    >>> parse_trmph("#11,a1k11")
    (11, 11, ['a1', 'k11'])
    >>> parse_trmph("#6x4,a1")         # columns x rows
    (4, 6, ['a1'])
    """
    if not isinstance(text, str) or len(text) > MAX_TRMPH_CHARS:
        raise RecordError(f"a trmph record must be a string of at most {MAX_TRMPH_CHARS} characters")
    header = _HEADER.match(text)
    if header is None:
        raise RecordError(
            f"cannot read {text[:40]!r} as trmph: "
            f"expected '{TRMPH_PREFIX}<size>,<moves>' or '#<size>,<moves>'"
        )
    cols = int(header.group(1))
    rows = int(header.group(2)) if header.group(2) else cols
    body = text[header.end() :].strip().lower()
    cells = []
    pos = 0
    while pos < len(body):
        m = _MOVE.match(body, pos)
        if m is None:
            where = body[pos : pos + 8]
            raise RecordError(f"cannot read trmph moves at {where!r}: expected a cell like 'f6'")
        cells.append(m.group(0))
        pos = m.end()
    return rows, cols, cells


def trmph_moves(text: str, variant: Variant = "hex", swap: SwapForm | None = None) -> tuple[Rules, list[str]]:
    """The rules and moves of a trmph record (a repeated first cell is the swap);
    raises RecordError. :func:`~hexengine.read_trmph` replays them into a record.

    >>> trmph_moves("#5,c3c3b4")
    (Rules(variant='hex', rows=5, cols=5, swap='sides'), ['c3', 'swap', 'b4'])
    """
    rows, cols, cells = parse_trmph(text)
    try:
        rules = Rules(variant, rows, cols, swap)
    except HexError as e:
        raise RecordError(f"bad rules for a trmph record: {e}") from None
    if rules.is_dark:
        raise RecordError("trmph has no notation for Dark Hex (hits are not recorded)")
    return rules, [SWAP if k == 1 and cell == cells[0] else cell for k, cell in enumerate(cells)]


def write_trmph(obj: Any, *, link: bool = True) -> str:
    """The trmph record of a :class:`~hexengine.Game` or :class:`~hexengine.GameRecord` (Hex or
    Rex), as a link (or only the ``#size,moves`` part with ``link=False``)."""
    if isinstance(obj, Game):
        rules, actions = obj.rules, [(a.cell, a.result) for a in obj.history]
    elif isinstance(getattr(obj, "actions", None), tuple) and isinstance(getattr(obj, "rules", None), Rules):
        rules, actions = obj.rules, [(a.cell, a.result) for a in obj.actions]
    else:
        raise TypeError(f"write_trmph() takes a hexengine Game or GameRecord, not {type(obj).__name__}")
    if rules.is_dark:
        raise RecordError("trmph has no notation for Dark Hex (hits are not recorded)")
    size = str(rules.cols) if rules.rows == rules.cols else f"{rules.cols}x{rules.rows}"
    first = actions[0][0].name if actions else ""
    moves = "".join(first if result is MoveResult.SWAPPED else cell.name for cell, result in actions)  # type: ignore[union-attr]
    return f"{TRMPH_PREFIX if link else '#'}{size},{moves}"
