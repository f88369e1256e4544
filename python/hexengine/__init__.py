"""hexengine: a fast engine for Hex, Rex and Dark Hex.

>>> import hexengine as hx
>>> game = hx.Game("hex", size=11)
>>> game.play("f6")
<MoveResult.PLACED: 'placed'>
>>> game.to_move
<Color.BLUE: 2>
"""

from __future__ import annotations

from ._moves import SWAP, Move, MoveLike
from .cells import Cell
from .errors import HexError, IllegalMove, RulesError
from .game import Game
from .rules import BLUE, RED, Action, Color, EndReason, MoveResult, Rules, SwapForm, Variant
from .solver import KNOWLEDGE, SolveError, SolveResult, SolveStatus, solve
from .text import board_text
from .view import View

__version__ = "0.1.0"

__all__ = [
    "BLUE",
    "KNOWLEDGE",
    "RED",
    "SWAP",
    "Action",
    "Cell",
    "Color",
    "EndReason",
    "Game",
    "HexError",
    "IllegalMove",
    "Move",
    "MoveLike",
    "MoveResult",
    "Rules",
    "RulesError",
    "SolveError",
    "SolveResult",
    "SolveStatus",
    "SwapForm",
    "Variant",
    "View",
    "__version__",
    "board_text",
    "solve",
]
