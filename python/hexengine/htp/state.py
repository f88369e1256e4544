"""What the HTP engine plays on: the referee's game, or a set-up position.

A game starts as a :class:`~hexengine.Game` from the empty board, and every
``play`` goes through the referee. GTP lets a controller play either colour
at any time, and HexGui uses that for set-up stones; when such a stone comes
(and the engine's dialect accepts it), or when ``loadsgf`` reads set-up stones,
the game becomes a :class:`~hexengine.records.Position`: stones and a colour
to move, with no swap. Every action is kept, so ``undo`` and a change of rules
replay them from the start.

>>> import hexengine as hx
>>> from hexengine.htp.state import GameState
>>> state = GameState(hx.Rules("hex", 3, 3, "off"))
>>> state.play(hx.RED, "a1"); state.play(hx.RED, "a2", setup=True)
>>> state.position is not None, state.to_move
(True, <Color.BLUE: 2>)
>>> state.undo(); state.game.board.tolist()
[[1, 0, 0], [0, 0, 0], [0, 0, 0]]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._moves import SWAP, Move, cell_index
from ..cells import Cell
from ..errors import HexError
from ..game import Game, View
from ..records import Position
from ..rules import BLUE, RED, Color, MoveResult, Rules, SwapForm

__all__ = ["Failure", "GameState"]


class Failure(Exception):
    """A command the state refuses; the engine answers ``? message``."""


@dataclass(frozen=True)
class _Action:
    color: Color
    move: str  # a cell name or "swap"


class GameState:
    """One game of the HTP engine under ``rules``, from the empty board or from ``base``."""

    def __init__(self, rules: Rules, base: Position | None = None) -> None:
        self.rules = rules
        self.base = base
        self._actions: list[_Action] = []
        self.ended: tuple[Color, str] | None = None  # (loser, "resignation" or "timeout")
        self._game: Game | None = Game(rules) if base is None else None
        self._position: Position | None = base

    # ------------------------------------------------------------------ reading

    @property
    def game(self) -> Game | None:
        """The referee's game, or ``None`` once the state holds a set-up position."""
        return self._game

    @property
    def position(self) -> Position | None:
        """The set-up position, or ``None`` while the state is a game from the empty board."""
        return self._position

    @property
    def moves(self) -> int:
        """How many actions have been played (set-up stones of ``loadsgf`` not counted)."""
        return len(self._actions)

    @property
    def to_move(self) -> Color | None:
        if self.ended is not None:
            return None
        return self._current().to_move

    @property
    def is_over(self) -> bool:
        return self.ended is not None or self._current().is_over

    @property
    def winner(self) -> Color | None:
        if self.ended is not None:
            return self.ended[0].opponent
        return self._current().winner

    @property
    def end_reason(self) -> str | None:
        if self.ended is not None:
            return self.ended[1]
        return self._current().end_reason

    @property
    def board(self) -> np.ndarray:
        return self._current().board

    def completed_chain(self) -> list[Cell]:
        return self._game.completed_chain() if self._game is not None else []

    def swap_available(self) -> bool:
        return self._game is not None and self.ended is None and SWAP in self._game.legal_moves()

    def legal_moves(self) -> list[Move]:
        if self.ended is not None:
            return []
        return list(self._current().legal_moves())

    def view(self, color: Color) -> View:
        """What a bot or the solver is given: the game's view of ``color`` when ``color`` is to
        move, else the position with ``color`` to move."""
        if self._game is not None and self._game.to_move == color:
            return self._game.view(color)
        return self.as_position(color).view()

    def as_position(self, to_move: Color | None = None) -> Position:
        """The board as a :class:`~hexengine.records.Position` (``to_move`` to move)."""
        if self._game is not None:
            return Position.from_game(self._game, to_move)
        assert self._position is not None
        return self._position if to_move is None else self._position.with_to_move(to_move)

    def status(self) -> str:
        if self.is_over:
            return f"{_htp_name(self.winner)} ({self.winner}) won by {self.end_reason}"
        return f"{_htp_name(self.to_move)} ({self.to_move}) to move"

    # ------------------------------------------------------------------ changing

    def play(self, color: Color, move: str, *, setup: bool = False, swap: SwapForm | None = None) -> None:
        """Plays ``move`` (a cell name or ``"swap"``) for ``color``. ``setup`` accepts a stone
        of the colour not to move (the game becomes a position); ``swap`` is the form a
        swap takes (default: the game's)."""
        if self.is_over:
            raise Failure(f"illegal move: the game is over ({self.status()})")
        if move == SWAP:
            self._swap(color, swap or self.rules.swap)
            return
        if self._game is not None:
            game = self._game
            if color == game.to_move:
                try:
                    game.play(move)
                except HexError as e:
                    raise Failure(f"illegal move: {e}") from None
                self._actions.append(_Action(color, game.history[-1].cell.name))  # type: ignore[union-attr]
                return
            if self._hexgui_swap_pieces(color, move):
                return
            if not setup:
                raise Failure(
                    f"illegal move: it is {_htp_name(game.to_move)}'s turn, not {_htp_name(color)}'s"
                )
            self._position = Position.from_game(game)
            self._game = None
        assert self._position is not None
        if not setup and color != self._position.to_move:
            raise Failure(
                f"illegal move: it is {_htp_name(self._position.to_move)}'s turn, not {_htp_name(color)}'s"
            )
        try:
            self._position = self._position.place(color, move)
        except HexError as e:
            raise Failure(f"illegal move: {e}") from None
        r = self.rules
        self._actions.append(_Action(color, Cell.from_index(cell_index(move, r.rows, r.cols), r.cols).name))

    def end(self, loser: Color, reason: str = "resignation") -> None:
        if self.is_over:
            raise Failure(f"the game is over ({self.status()})")
        self.ended = (loser, reason)

    def undo(self) -> None:
        """Takes back the end (a resignation) or the last action."""
        if self.ended is not None:
            self.ended = None
            return
        if not self._actions:
            raise Failure("cannot undo: no move has been played")
        self._replay(self.rules, self._actions[:-1])

    def with_rules(self, rules: Rules) -> None:
        """Replays every action under ``rules`` (refused, and nothing changed, if they break them)."""
        self._replay(rules, list(self._actions), self.ended)

    # ------------------------------------------------------------------ internals

    def _current(self) -> Game | Position:
        return self._game if self._game is not None else self._position  # type: ignore[return-value]

    def _replay(self, rules: Rules, actions: list[_Action], ended: tuple[Color, str] | None = None) -> None:
        base = self.base
        if base is not None and base.rules.variant != rules.variant:
            base = base.with_rules(rules)
        fresh = GameState(rules, base)
        try:
            for action in actions:
                fresh.play(action.color, action.move, setup=True)
            if ended is not None:
                fresh.end(*ended)
        except (Failure, HexError) as e:
            raise Failure(f"the moves played so far do not fit these rules: {e}") from None
        self.__dict__.update(fresh.__dict__)

    def _swap(self, color: Color, form: SwapForm) -> None:
        game = self._game
        if self.rules.swap == "off":
            raise Failure("illegal move: swap is off in this game (param_game swap sides turns it on)")
        if game is not None and not game.is_over and game.to_move != color:
            raise Failure(f"illegal move: it is {_htp_name(game.to_move)}'s turn, not {_htp_name(color)}'s")
        if game is None or SWAP not in game.legal_moves():
            raise Failure("illegal move: swap is allowed only as White's first move, after Black's stone")
        if form != self.rules.swap:
            try:
                rules = Rules(self.rules.variant, self.rules.rows, self.rules.cols, form)
            except HexError as e:
                raise Failure(f"illegal move: {e}") from None
            self._replay(rules, list(self._actions))
            game = self._game
            assert game is not None
        game.play(SWAP)
        self._actions.append(_Action(color, SWAP))

    def _hexgui_swap_pieces(self, color: Color, move: str) -> bool:
        """HexGui 0.10 and later send a swap-pieces as ``clear_board`` and ``play white CELL``:
        read as Black's stone on the mirrored cell, then the pieces swap."""
        r = self.rules
        if color is not BLUE or self._actions or self.base is not None or r.swap == "off" or r.rows != r.cols:
            return False
        try:
            index = cell_index(move, r.rows, r.cols)
        except HexError:
            return False
        row, col = divmod(index, r.cols)
        mirrored = Cell(col, row).name
        try:
            rules = Rules(r.variant, r.rows, r.cols, "pieces")
            game = Game(rules)
            game.play(mirrored)
            if game.play(SWAP) is not MoveResult.SWAPPED:
                return False
        except HexError:
            return False
        self.rules, self._game = rules, game
        self._actions = [_Action(RED, mirrored), _Action(BLUE, SWAP)]
        return True


def _htp_name(color: Color | None) -> str:
    return "Black" if color is RED else "White"
