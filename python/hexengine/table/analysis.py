"""Analysis of a recorded game: the bot's best moves and win rate at any position of a record.

A front end shows it beside a replay. Hidden information stays hidden: a Dark Hex
game is analysed only once it is over (until then its record holds stones that
players and spectators may not know), and the search then sees what the player
to move knew at that point (their own view), as the computer itself would have.
Hex and Rex games, whose board is public, may be analysed while they run.

>>> import hexengine as hx
>>> record = hx.GameRecord.from_moves(hx.Rules("hex", 7, 7), ["d4", "swap", "c5"])
>>> result = analyse_record(record, ply=3, simulations=300)
>>> result["to_move"], result["top"][0]["cell"] == result["move"], 0.0 <= result["value"] <= 1.0
('red', True, True)
>>> analyse_record(record, ply=9, simulations=300)
Traceback (most recent call last):
...
hexengine.table.errors.TableError: ply must be a number of actions from 0 to 3, not 9
"""

from __future__ import annotations

import math
from typing import Any

from .._moves import SWAP, Move
from ..bots import MCTSBot
from ..game import Game
from ..records import GameRecord
from ..rules import MoveResult
from .errors import TableError
from .messages import color_name

__all__ = ["MAX_SIMULATIONS", "analyse_record", "position"]

MAX_SIMULATIONS = 20_000
"""The most simulations one analysis may ask for (a few seconds on one core)."""


def position(record: GameRecord, ply: int) -> Game:
    """The referee after the first ``ply`` actions of ``record``."""
    if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= len(record.actions):
        raise TableError(
            f"ply must be a number of actions from 0 to {len(record.actions)}, not {ply!r}", "bad-ply"
        )
    game = Game(record.rules)
    for action in record.actions[:ply]:
        game.play(SWAP if action.result is MoveResult.SWAPPED else action.cell)  # type: ignore[arg-type]
    return game


def _name(move: Move) -> str:
    return move if move == SWAP else move.name  # type: ignore[return-value, union-attr]


def _number(x: float) -> float | None:
    return None if x is None or not math.isfinite(x) else round(float(x), 4)


def analyse_record(
    record: GameRecord,
    ply: int | None = None,
    *,
    simulations: int = 2_000,
    top: int = 5,
    finished: bool = True,
    seed: int = 0,
) -> dict[str, Any]:
    """The search's view of the position after ``ply`` actions (default: the last one) of
    ``record``: the player to move, their estimated win rate (``value``), the ``top`` moves
    (``cell``, ``visits``, ``value``), the swap's value where it is allowed, and the
    principal variation. ``finished`` says whether the game is over; a Dark Hex game that is
    not is refused (TableError ``hidden``)."""
    if record.rules.is_dark and not finished:
        raise TableError(
            "a Dark Hex game is analysed only after it ends: its record holds hidden stones",
            "hidden",
        )
    whole = isinstance(simulations, int) and not isinstance(simulations, bool)
    if not whole or not 1 <= simulations <= MAX_SIMULATIONS:
        raise TableError(
            f"simulations must be a whole number from 1 to {MAX_SIMULATIONS}, not {simulations!r}",
            "bad-request",
        )
    if isinstance(top, bool) or not isinstance(top, int) or not 1 <= top <= 50:
        raise TableError(f"top must be a whole number from 1 to 50, not {top!r}", "bad-request")
    ply = len(record.actions) if ply is None else ply
    game = position(record, ply)
    if game.is_over:
        raise TableError(f"the game is over after action {ply}: there is no move to analyse", "game-over")
    mover = game.to_move
    assert mover is not None
    analysis = MCTSBot(simulations=simulations, seed=seed).analyse(game.view(mover))
    return {
        "ply": ply,
        "rules": {"variant": record.rules.variant, "rows": record.rules.rows, "cols": record.rules.cols},
        "to_move": color_name(mover),
        "value": _number(analysis.value),  # type: ignore[arg-type]
        "move": _name(analysis.move),
        "top": [
            {"cell": cell.name, "visits": visits, "value": _number(value)}
            for cell, visits, value in analysis.top(top)
        ],
        "swap_value": _number(analysis.swap_value),  # type: ignore[arg-type]
        "pv": [_name(m) for m in analysis.pv[:12]],
        "forced": analysis.forced,
        "simulations": analysis.simulations,
    }
