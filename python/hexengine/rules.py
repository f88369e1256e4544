"""Colours, variants and rule sets.

>>> import hexengine as hx
>>> hx.Rules("hex", 11, 11)
Rules(variant='hex', rows=11, cols=11, swap='sides')
>>> hx.Rules("dark", 4, 3)
Rules(variant='dark', rows=4, cols=3, swap='off')
>>> hx.Rules("dark", 7, 7, swap="sides")
Traceback (most recent call last):
...
hexengine.errors.RulesError: swap 'sides' is not available in dark: ...
"""

from __future__ import annotations

import enum
import functools
import operator
from dataclasses import dataclass, field
from typing import Literal

from . import _core
from .cells import Cell, core_text
from .errors import RulesError

__all__ = ["BLUE", "RED", "Action", "Color", "EndReason", "MoveResult", "Rules", "SwapForm", "Variant"]

Variant = Literal["hex", "rex", "dark", "dark-abrupt"]
SwapForm = Literal["sides", "pieces", "off"]
EndReason = Literal["connection", "resignation", "timeout"]

END_REASONS: tuple[EndReason | None, ...] = (None, "connection", "resignation", "timeout")


class Color(enum.IntEnum):
    """A side. Red moves first and joins its two red edges (rows 1 and N);
    Blue joins its two blue edges (the first and last columns). The values
    are those of board arrays: 1 red, 2 blue.

    >>> hx.RED.opponent
    <Color.BLUE: 2>
    >>> str(hx.BLUE)
    'Blue'
    """

    RED = 1
    BLUE = 2

    @property
    def opponent(self) -> Color:
        """The other colour."""
        return Color.BLUE if self is Color.RED else Color.RED

    def __str__(self) -> str:
        return self.name.capitalize()


RED = Color.RED
BLUE = Color.BLUE


class MoveResult(enum.Enum):
    """What an action did."""

    PLACED = "placed"
    """A stone was placed on an empty cell."""
    HIT = "hit"
    """Dark Hex: the cell held a hidden enemy stone, which the mover has now found."""
    SWAPPED = "swapped"
    """The swap (pie) rule was used."""


_RESULTS = (MoveResult.PLACED, MoveResult.HIT, MoveResult.SWAPPED)


def _color(value: int | None) -> Color | None:
    return None if value is None else Color(value)


@dataclass(frozen=True)
class Action:
    """One entry of a game record: who acted, on which cell, with what result.

    ``cell`` is ``None`` where the reader of the record may not know it (an
    enemy move in a Dark Hex view). For a swap it is where the swapped stone
    stands afterwards.
    """

    color: Color
    cell: Cell | None
    result: MoveResult

    @classmethod
    def _from_core(cls, item: tuple[int, int, int], cols: int) -> Action:
        # Actions are immutable values, so each one is built once and shared: records
        # and undo hand out the same few thousand objects again and again.
        key = (item, cols)
        action = _ACTIONS.get(key)
        if action is None:
            color, cell, result = item
            action = cls(Color(color), None if cell < 0 else Cell.from_index(cell, cols), _RESULTS[result])
            _ACTIONS[key] = action
        return action

    def __repr__(self) -> str:
        where = "?" if self.cell is None else self.cell.name
        return f"<Action {self.color} {where} {self.result.value}>"

    def __str__(self) -> str:
        where = "?" if self.cell is None else self.cell.name
        if self.result is MoveResult.SWAPPED:
            return f"{self.color} swap ({where})"
        if self.result is MoveResult.HIT:
            return f"{self.color} {where} hit"
        return f"{self.color} {where}"


# Every Action built from the core, by (colour, cell, result) and board width.
_ACTIONS: dict[tuple[tuple[int, int, int], int], Action] = {}


@dataclass(frozen=True)
class Rules:
    """A validated rule set: variant, board size and swap form.

    ``swap=None`` picks the default: ``"sides"`` in Hex and Rex, ``"off"`` in
    Dark Hex. Invalid combinations raise :class:`hexengine.RulesError`.
    """

    variant: Variant = "hex"
    rows: int = 11
    cols: int = 11
    swap: SwapForm | None = field(default=None)

    def __post_init__(self) -> None:
        for name in ("rows", "cols"):
            value = getattr(self, name)
            try:
                number = None if isinstance(value, bool) else operator.index(value)
            except TypeError:
                number = None
            if number is None or not -(2**31) <= number < 2**31:
                raise RulesError(f"{name} must be an integer between 1 and 19, not {value!r}")
            object.__setattr__(self, name, number)
        variant, _rows, _cols, swap = _core.check_rules(
            core_text(str(self.variant)),
            self.rows,
            self.cols,
            "" if self.swap is None else core_text(str(self.swap)),
        )
        object.__setattr__(self, "variant", variant)
        object.__setattr__(self, "swap", swap)

    @property
    def is_dark(self) -> bool:
        """Whether stones are hidden (Dark Hex, classic or abrupt)."""
        return self.variant in ("dark", "dark-abrupt")

    @property
    def is_misere(self) -> bool:
        """Whether completing your own chain loses (Rex)."""
        return self.variant == "rex"

    @property
    def cells(self) -> int:
        """Number of cells on the board."""
        return self.rows * self.cols


def rules_of(
    variant: Variant | Rules = "hex",
    size: int = 11,
    rows: int | None = None,
    cols: int | None = None,
    swap: SwapForm | None = None,
) -> Rules:
    """The rule set that the arguments ``(variant, size, rows=, cols=, swap=)`` of a game, an
    environment or a table name: ``variant`` itself when it is a :class:`Rules`, else a
    ``size`` x ``size`` board unless both ``rows`` and ``cols`` are given.

    >>> rules_of("dark", 5)
    Rules(variant='dark', rows=5, cols=5, swap='off')
    >>> rules_of("hex", rows=3, cols=4, swap="off")
    Rules(variant='hex', rows=3, cols=4, swap='off')
    """
    if isinstance(variant, Rules):
        return variant
    if (rows is None) != (cols is None):
        raise RulesError("give both rows and cols, or only size for a square board")
    args = (variant, size if rows is None else rows, size if cols is None else cols, swap)
    try:
        return _cached_rules(*args)
    except TypeError:  # arguments that cannot be hashed: Rules names what is wrong with them
        return Rules(*args)  # type: ignore[arg-type]


# A game is made per episode in learning loops: each set of arguments is checked once.
@functools.lru_cache(maxsize=256, typed=True)
def _cached_rules(variant: object, rows: object, cols: object, swap: object) -> Rules:
    return Rules(variant, rows, cols, swap)  # type: ignore[arg-type]
