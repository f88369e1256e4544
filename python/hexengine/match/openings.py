"""Match openings: the moves that start a pair of games, given as text or drawn at random.

Every opening is checked by the referee and must leave the game open.

>>> parse_opening("c3, B2", hx.Rules("hex", 5, 5))
['c3', 'b2']
"""

from __future__ import annotations

import os
import random

from .._moves import SWAP
from ..errors import HexError
from ..game import Game
from ..rules import Rules
from .errors import MatchError

__all__ = ["parse_opening", "random_opening", "read_openings"]


def parse_opening(text: str, rules: Rules) -> list[str]:
    """An opening line: moves separated by spaces or commas (``swap`` allowed), or a trmph
    link; checked by the referee (it must not end the game).

    >>> parse_opening("a1 b2", hx.Rules("hex", 5, 5))
    ['a1', 'b2']
    >>> parse_opening("#5,c3c3", hx.Rules("hex", 5, 5))
    ['c3', 'swap']
    """
    text = text.strip()
    if "#" in text or "trmph" in text:
        from ..records import parse_trmph

        rows, cols, cells = parse_trmph(text)
        if (rows, cols) != (rules.rows, rules.cols):
            raise MatchError(f"opening {text!r} is for a {rows}x{cols} board, not {rules.rows}x{rules.cols}")
        moves = ["swap" if k == 1 and c == cells[0] else c for k, c in enumerate(cells)]
    else:
        moves = [m.lower() for m in text.replace(",", " ").split()]
    game = Game(rules)
    for move in moves:
        try:
            game.play(move)
        except HexError as e:
            raise MatchError(f"opening {text!r}: {e}") from None
    if game.is_over:
        raise MatchError(f"opening {text!r} ends the game")
    return moves


def read_openings(path: str | os.PathLike[str], rules: Rules) -> list[list[str]]:
    """The openings in a text file, one a line as :func:`parse_opening` reads them; blank
    lines and lines that start with ``#`` are skipped. A bad line fails with the file's name
    and the line's number."""
    openings = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.strip() and not line.lstrip().startswith("#"):
                try:
                    openings.append(parse_opening(line, rules))
                except HexError as e:
                    raise MatchError(f"{path}:{number}: {e}") from None
    return openings


def random_opening(rules: Rules, plies: int, rng: random.Random) -> list[str]:
    """``plies`` random moves (no swap) that do not end the game."""
    for _ in range(100):
        game = Game(rules)
        moves: list[str] = []
        for _ in range(plies):
            cells = [m for m in game.legal_moves() if m != SWAP]
            if not cells or game.is_over:
                break
            move = rng.choice(cells).name  # type: ignore[union-attr]
            game.play(move)
            moves.append(move)
        if not game.is_over:
            return moves
    raise MatchError(f"cannot find a random opening of {plies} moves that leaves the game open")
