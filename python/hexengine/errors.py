"""Exceptions raised by hexengine.

Every problem with user input is one of these, with a message that names the
cell and the rule involved:

>>> import hexengine as hx
>>> game = hx.Game("hex", size=5)
>>> game.play("c3")
<MoveResult.PLACED: 'placed'>
>>> try:
...     game.play("c3")
... except hx.IllegalMove as e:
...     print(e, "|", e.cell, "|", e.rule)
c3 already holds a Red stone | c3 | occupied
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .cells import Cell

__all__ = ["ConfigError", "HexError", "IllegalMove", "RulesError"]


class HexError(ValueError):
    """Base class of every hexengine error."""


class RulesError(HexError):
    """A rule set no game can have: a bad size, an unknown variant, swap where it does not exist."""


class ConfigError(HexError):
    """A setting or argument no search, solver or table accepts: a bad budget,
    a view of the wrong kind, a view of a player who is not to move."""


class IllegalMove(HexError):
    """A move the rules forbid now.

    ``cell`` is the cell involved (or ``None``), ``rule`` a short name of the
    rule that forbids it, e.g. ``"occupied"``, ``"found-stone"``,
    ``"swap-timing"``, ``"game-over"``, ``"off-board"`` or ``"notation"``.
    """

    def __init__(self, message: str, cell: Cell | None = None, rule: str = "illegal") -> None:
        super().__init__(message)
        self.cell = cell
        self.rule: str = rule
