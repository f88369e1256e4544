"""Views: what one player, or a spectator, may know about a game.

A view is a value: it holds no reference to the game, and carries no hidden
stone in any field, in its ``repr`` or in its pickled form. Hand views to bots
and clients; keep the :class:`~hexengine.Game` to the referee.

>>> import hexengine as hx
>>> game = hx.Game("dark", size=3)
>>> game.play("b2")
<MoveResult.PLACED: 'placed'>
>>> game.play("b2")                     # Blue tries the same cell: a hit
<MoveResult.HIT: 'hit'>
>>> blue = game.view(hx.BLUE)
>>> int(blue.board[1, 1]) == hx.RED      # Blue has found the red stone
True
>>> red = game.view(hx.RED)
>>> red.hits_received, red.hidden_enemy_stones
(1, 0)
>>> bool(game.spectator_view().board.any())   # spectators see no stone
False
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from . import _core
from ._checks import MAX_SEED, whole_number
from ._moves import SWAP, Move
from .cells import Cell
from .rules import END_REASONS, Action, Color, EndReason, MoveResult, Rules, _color
from .text import board_text

if TYPE_CHECKING:
    from .game import Game

__all__ = ["View"]


class View:
    """A snapshot of a game as one viewer (a colour, or a spectator) knows it."""

    __slots__ = ("_core", "_rules")

    def __init__(self, core: _core.View) -> None:
        self._core = core
        self._rules = Rules(core.variant, core.rows, core.cols, core.swap)  # type: ignore[arg-type]

    @property
    def rules(self) -> Rules:
        """The rule set of the game."""
        return self._rules

    @property
    def viewer(self) -> Color | None:
        """The colour whose view this is; ``None`` for a spectator."""
        return _color(self._core.viewer)

    @property
    def board(self) -> np.ndarray:
        """A fresh ``int8`` array (rows, cols): 0 empty or unknown, 1 red, 2 blue."""
        return self._core.board

    @property
    def to_move(self) -> Color | None:
        """Whose decision it is; ``None`` once the game is over."""
        return _color(self._core.to_move)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._core.end_reason != 0

    @property
    def winner(self) -> Color | None:
        """The winner, once the game is over."""
        return _color(self._core.winner)

    @property
    def end_reason(self) -> EndReason | None:
        """``"connection"``, ``"resignation"``, ``"timeout"``, or ``None``."""
        return END_REASONS[self._core.end_reason]

    @property
    def hidden_enemy_stones(self) -> int:
        """Stones on the board this viewer cannot see.

        For a player: the opponent's stones not yet found (every player can
        deduce this number). For a spectator of Dark Hex: every stone. Zero in
        Hex and Rex, and after a Dark Hex game ends by connection.
        """
        return self._core.hidden_stones

    @property
    def hits_received(self) -> int:
        """How many times the opponent hit one of the viewer's stones (which ones is not told)."""
        return self._core.hits_received

    @property
    def hits(self) -> list[Cell]:
        """Cells where the viewer hit, and so found, an enemy stone, in order."""
        me = self.viewer
        return [
            a.cell
            for a in self.history
            if a.color == me and a.result is MoveResult.HIT and a.cell is not None
        ]

    @property
    def history(self) -> list[Action]:
        """The record as the viewer knows it; cells hidden from the viewer are ``None``."""
        return [Action._from_core(item, self._rules.cols) for item in self._core.history]

    def completed_chain(self) -> list[Cell]:
        """The chain that ended the game, once it ended by connection (then the
        whole board is public): the winner's in Hex and Dark Hex, the loser's in
        Rex. Empty otherwise."""
        return [Cell.from_index(i, self._rules.cols) for i in self._core.completed_chain]

    def legal_moves(self) -> list[Move]:
        """What the viewer may choose now: cells not known to be occupied, plus
        ``"swap"`` when allowed. Empty unless it is the viewer's turn."""
        moves: list[Move] = [Cell.from_index(i, self._rules.cols) for i in self._core.legal_moves()]
        if self._core.swap_available and self.viewer is not None and self.viewer == self.to_move:
            moves.append(SWAP)
        return moves

    def sample_boards(
        self, n: int, *, seed: int = 0, method: Literal["auto", "rejection", "exact"] = "auto"
    ) -> np.ndarray:
        """``n`` complete boards drawn uniformly among those consistent with this
        Dark Hex player's view: an ``int8`` array ``(n, rows, cols)``.

        A consistent board keeps the viewer's stones and found enemy stones,
        puts exactly :attr:`hidden_enemy_stones` enemy stones on cells the
        viewer does not know, and gives the enemy no finished chain (the game
        would be over). Every such board is equally likely. ``method``:
        ``"rejection"`` redraws until the enemy has no chain, ``"exact"`` uses
        the exact counting table (never redraws), ``"auto"`` picks by a short
        probe. Runs in C++ with the GIL released; the same seed gives the same
        boards.

        >>> game = hx.Game("dark", size=3)
        >>> for move in ["b2", "a1", "c1"]:
        ...     _ = game.play(move)
        >>> boards = game.view(hx.BLUE).sample_boards(4, seed=1)
        >>> boards.shape, [int((b == hx.RED).sum()) for b in boards]
        ((4, 3, 3), [2, 2, 2, 2])
        """
        count = whole_number(n, "n")
        return _core.sample_boards(self._core, count, whole_number(seed, "seed", MAX_SEED), str(method))

    def count_boards(self, *, limit: int = 10_000_000) -> int:
        """The exact number of boards consistent with this Dark Hex player's
        view, by enumeration (for small boards; raises :class:`ConfigError`
        when more than ``limit`` candidate placements would be visited).

        >>> game = hx.Game("dark", size=3)
        >>> _ = game.play("b2")
        >>> game.view(hx.BLUE).count_boards()   # one hidden red stone, nine cells
        9
        """
        return _core.count_boards(self._core, whole_number(limit, "limit"))

    def sample_games(self, n: int, *, seed: int = 0) -> list[Game]:
        """``n`` complete games whose record this Dark Hex player's view is:
        each replays the viewer's own moves, and puts the opponent's hidden
        moves on a board drawn as :meth:`sample_boards` does. Give them to
        perfect-information tools (determinization).

        >>> game = hx.Game("dark-abrupt", size=4)
        >>> for move in ["b2", "c3", "c3", "a1"]:
        ...     _ = game.play(move)
        >>> view = game.view(hx.RED)
        >>> all(g.view(hx.RED) == view for g in view.sample_games(5, seed=2))
        True
        """
        from .game import Game

        games = []
        for record in _core.sample_histories(
            self._core, whole_number(n, "n"), whole_number(seed, "seed", MAX_SEED)
        ):
            game = Game(self._rules)
            for _who, cell, _result in record:
                game._core.play(cell)
            games.append(game)
        return games

    def __reduce__(self) -> tuple[Any, ...]:
        return (_view_from_state, (self._core.state(),))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, View) and self._core.state() == other._core.state()

    def __hash__(self) -> int:
        return hash(self._core.state()[5])

    def __str__(self) -> str:
        who = "spectator" if self.viewer is None else str(self.viewer)
        lines = [board_text(self.board, self.completed_chain())]
        if self.is_over:
            lines.append(f"{self.winner} won by {self.end_reason} (view of {who})")
        else:
            lines.append(f"{self.to_move} to move (view of {who})")
        if self._rules.is_dark and self.hidden_enemy_stones:
            lines.append(f"hidden stones: {self.hidden_enemy_stones}")
        return "\n".join(lines)

    def _repr_svg_(self) -> str:
        """The picture of what the viewer sees (see :mod:`hexengine.svg`)."""
        from .svg import svg

        return svg(self)

    def __repr__(self) -> str:
        who = "spectator" if self.viewer is None else str(self.viewer)
        state = f"{self.winner} won" if self.is_over else f"{self.to_move} to move"
        r = self._rules
        return f"<View of {who}: {r.variant} {r.rows}x{r.cols}, {state}, {len(self._core.history)} actions>"


def _view_from_state(state: tuple[Any, ...]) -> View:
    return View(_core.View.from_state(state))
