"""hexengine: a fast engine for Hex, Rex and Dark Hex.

>>> import hexengine as hx
>>> game = hx.Game("hex", size=11)
>>> game.play("f6")
<MoveResult.PLACED: 'placed'>
>>> game.to_move
<Color.BLUE: 2>
"""

from __future__ import annotations

from . import htp, records, table
from ._moves import SWAP, Move, MoveLike, MoveList, action_of, move_of
from ._version import __version__
from .bots import Analysis, GreedyBot, MCTSBot, RandomBot
from .cells import Cell
from .darkcfr import (
    DarkEquilibrium,
    DarkGameSize,
    PolicyExploitability,
    dark_equilibrium,
    dark_game_size,
    exploitability,
)
from .errors import ConfigError, HexError, IllegalMove, RulesError
from .game import PLANES, Game, View
from .match import run_tournament
from .networks import OnnxEvaluator
from .records import read_trmph, write_trmph
from .rules import BLUE, RED, Action, Color, EndReason, MoveResult, Rules, SwapForm, Variant
from .selfplay import SelfplayResult, read_selfplay, selfplay
from .solver import KNOWLEDGE, SolveError, SolveResult, SolveStatus, solve
from .svg import svg, write_svg
from .table import (
    Clock,
    FakeClock,
    GameRecord,
    MemoryRatingStore,
    PlayerInfo,
    PlayerRating,
    Ratings,
    RecordError,
    SQLiteRatingStore,
    SystemClock,
    Table,
    TableError,
    TableSettings,
    read_game,
    read_record,
)
from .text import board_text
from .vector_env import VectorEnv

__all__ = [
    "BLUE",
    "KNOWLEDGE",
    "PLANES",
    "RED",
    "SWAP",
    "Action",
    "Analysis",
    "Cell",
    "Clock",
    "Color",
    "ConfigError",
    "DarkEquilibrium",
    "DarkGameSize",
    "EndReason",
    "FakeClock",
    "Game",
    "GameRecord",
    "GreedyBot",
    "HexError",
    "IllegalMove",
    "MCTSBot",
    "MemoryRatingStore",
    "Move",
    "MoveLike",
    "MoveList",
    "MoveResult",
    "OnnxEvaluator",
    "PlayerInfo",
    "PlayerRating",
    "PolicyExploitability",
    "RandomBot",
    "Ratings",
    "RecordError",
    "Rules",
    "RulesError",
    "SQLiteRatingStore",
    "SelfplayResult",
    "SolveError",
    "SolveResult",
    "SolveStatus",
    "SwapForm",
    "SystemClock",
    "Table",
    "TableError",
    "TableSettings",
    "Variant",
    "VectorEnv",
    "View",
    "__version__",
    "action_of",
    "board_text",
    "dark_equilibrium",
    "dark_game_size",
    "exploitability",
    "htp",
    "move_of",
    "read_game",
    "read_record",
    "read_selfplay",
    "read_trmph",
    "records",
    "run_tournament",
    "selfplay",
    "solve",
    "svg",
    "table",
    "write_svg",
    "write_trmph",
]
