"""The referee of one game of Hex, Rex or Dark Hex, and the views it hands out.

A :class:`Game` knows every stone. A :class:`View` is what one player, or a
spectator, may know about it: a value that holds no reference to the game and
carries no hidden stone in any field, in its ``repr`` or in its pickled form.
Hand views to bots and clients; keep the game to the referee.

>>> import hexengine as hx
>>> game = hx.Game("hex", size=3)
>>> game.play("b2")
<MoveResult.PLACED: 'placed'>
>>> game.play("swap")        # Blue takes over Red's first stone (the 'sides' swap)
<MoveResult.SWAPPED: 'swapped'>
>>> game.to_move             # same board, Blue (now the other person) moves next
<Color.BLUE: 2>
>>> for move in ["a3", "b1", "c1", "b3"]:
...     _ = game.play(move)
>>> game.is_over, game.winner, game.end_reason
(True, <Color.RED: 1>, 'connection')
>>> game.completed_chain()
[Cell('b1'), Cell('b2'), Cell('b3')]
>>> dark = hx.Game("dark", size=3)
>>> dark.play("b2")
<MoveResult.PLACED: 'placed'>
>>> dark.play("b2")                     # Blue tries the same cell: a hit
<MoveResult.HIT: 'hit'>
>>> blue = dark.view(hx.BLUE)
>>> int(blue.board[1, 1]) == hx.RED      # Blue has found the red stone
True
>>> red = dark.view(hx.RED)
>>> red.hits_received, red.hidden_enemy_stones
(1, 0)
>>> bool(dark.spectator_view().board.any())   # spectators see no stone
False
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from numpy.typing import DTypeLike

from . import _core
from ._checks import MAX_SEED, whole_number
from ._moves import SWAP, MoveLike, MoveList, action_of, cell_index
from ._spiel import Family, load_spiel_game, rules_of_spiel
from .cells import Cell
from .errors import ConfigError, IllegalMove, RulesError
from .rules import (
    _RESULTS,
    END_REASONS,
    Action,
    Color,
    EndReason,
    MoveResult,
    Rules,
    SwapForm,
    Variant,
    _color,
    rules_of,
)
from .svg import Picture, svg
from .text import board_text

if TYPE_CHECKING:
    import pyspiel

__all__ = ["PLANES", "Game", "View"]

PLANES: tuple[str, ...] = (
    "own", "opponent", "empty", "to_move", "red", "swap", "hit", "hits_taken", "hidden",
)  # fmt: skip
"""The channels of :meth:`View.planes`, in order."""


class Game(_core.Game):
    """A game in progress: the referee, who knows every stone.

    ``Game("hex", size=11)``, ``Game("rex", size=7, swap="pieces")``,
    ``Game("dark", rows=4, cols=3)`` or ``Game(rules)``. Give bots and clients
    :meth:`view` objects, never the game itself: in Dark Hex the game knows
    every hidden stone.

    The fast path for bots and learning code is integer actions (``row * cols +
    col``, the swap ``rows * cols``; see :func:`hexengine.action_of`):
    :attr:`is_over`, :meth:`legal_actions`, :meth:`action_mask` and
    :meth:`apply` are the C++ core's own methods, with nothing in between, and
    :meth:`undo` takes an action back.

    >>> game = hx.Game("hex", size=3)
    >>> game.apply(4)
    <MoveResult.PLACED: 'placed'>
    >>> game.legal_actions()        # every other cell, and 9: the swap
    [0, 1, 2, 3, 5, 6, 7, 8, 9]
    >>> game.undo(), game.is_over
    (<Action Red b2 placed>, False)
    """

    __slots__ = ("_rules",)

    def __init__(
        self,
        variant: Variant | Rules = "hex",
        size: int = 11,
        *,
        rows: int | None = None,
        cols: int | None = None,
        swap: SwapForm | None = None,
    ) -> None:
        rules = rules_of(variant, size, rows, cols, swap)
        super().__init__(rules.variant, rules.rows, rules.cols, rules.swap or "")
        self._rules = rules

    @property
    def rules(self) -> Rules:
        """The rule set (frozen)."""
        return self._rules

    @property
    def to_move(self) -> Color | None:
        """Whose decision it is; ``None`` once the game is over."""
        return _color(self._to_move)

    @property
    def winner(self) -> Color | None:
        """The winner, once the game is over."""
        return _color(self._winner)

    @property
    def end_reason(self) -> EndReason | None:
        """``"connection"``, ``"resignation"``, ``"timeout"``, or ``None`` while the game runs."""
        return END_REASONS[self._end_reason]

    def play(self, move: MoveLike) -> MoveResult:
        """Plays ``move`` for the player to move and says what it did.

        ``move`` is a cell name (``"f6"``), a ``(row, col)`` pair, an index
        ``row * cols + col``, or ``"swap"``. Raises :class:`IllegalMove`
        naming the cell and the rule when the move is not allowed.
        """
        if isinstance(move, str) and move.strip().lower() == SWAP:
            return _RESULTS[self._swap()]
        return _RESULTS[self._play(cell_index(move, self._rules.rows, self._rules.cols))]

    def legal_moves(self) -> MoveList:
        """What the player to move may choose: cells, plus ``"swap"`` when allowed.

        In Dark Hex these are the cells the mover does not know to be
        occupied, as the mover's own view would give them. The list answers
        ``in`` for a name too: ``"b1" in game.legal_moves()``.
        """
        moves = MoveList(Cell.from_index(i, self._rules.cols) for i in self._legal_moves())
        if self._swap_available:
            moves.append(SWAP)
        return moves

    def is_legal(self, move: object) -> bool:
        """Whether the player to move may play ``move`` now (a name, ``(row, col)``, an
        index or ``"swap"``); never raises: anything that is not a legal move is False.

        >>> game = hx.Game("hex", size=3)
        >>> game.is_legal("b2"), game.is_legal("swap"), game.is_legal("d1"), game.is_legal(None)
        (True, False, False, False)
        """
        return _is_legal(move, self._rules, self.action_mask())

    def undo(self) -> Action:
        """Takes back the last action exactly and returns it: the stone, a Dark Hex hit (the
        stone found again hidden, the mover to move again), a swap, and an end by
        connection. Raises :class:`IllegalMove` when there is nothing to take back, or when
        the game ended by resignation or time-out.

        >>> game = hx.Game("dark-abrupt", size=3)
        >>> _ = game.play("b2"), game.play("b2")      # Blue hits; in abrupt the turn passes
        >>> game.to_move, game.undo(), game.to_move
        (<Color.RED: 1>, <Action Blue b2 hit>, <Color.BLUE: 2>)
        >>> bool(game.view(hx.BLUE).board.any())      # the found stone is hidden again
        False
        """
        return Action._from_core(self._undo(), self._rules.cols)

    def completed_chain(self) -> list[Cell]:
        """The chain that ended the game, from its owner's first edge to the second.

        The winner's chain in Hex and Dark Hex, the loser's in Rex; no stone of
        it can be removed without breaking it. Empty unless the game ended by
        a connection.
        """
        return [Cell.from_index(i, self._rules.cols) for i in self._completed_chain()]

    def resign(self, color: Color) -> None:
        """``color`` resigns, at any time, also out of turn; the opponent wins."""
        self._resign(_checked_color(color))

    def timeout(self, color: Color) -> None:
        """``color``, the player to move, ran out of time and loses."""
        self._timeout(_checked_color(color))

    @property
    def history(self) -> list[Action]:
        """Every action so far with its colour, cell and result: the full record."""
        return [Action._from_core(item, self._rules.cols) for item in self._history()]

    @property
    def board(self) -> np.ndarray:
        """The true board as an ``int8`` array (rows, cols): 0 empty, 1 red, 2 blue."""
        return self._board()

    def board_after(self, actions: int) -> np.ndarray:
        """The true board after the first ``actions`` actions of the record
        (0 to ``len(history)``); raises IndexError otherwise."""
        count = len(self._history())
        if isinstance(actions, bool) or not isinstance(actions, int) or not 0 <= actions <= count:
            raise IndexError(f"board_after({actions!r}): the record has {count} actions")
        return self._board_after(actions)

    def replay(self) -> Iterator[tuple[Action | None, np.ndarray]]:
        """The full record step by step: ``(None, empty board)``, then each
        action with the true board after it, whatever the end reason."""
        yield None, self.board_after(0)
        for k, action in enumerate(self.history, start=1):
            yield action, self.board_after(k)

    def random_playouts(self, n: int, *, seed: int = 0, threads: int = 1) -> dict[Color, int]:
        """Plays ``n`` random games from the true position and counts the wins.

        Runs in C++ with the GIL released. Hex and Rex fill the board at
        random (the player to move gets the odd cell); Dark Hex plays the real
        dark rules, each side choosing among the cells it does not know to be
        occupied. Random players never swap. The same ``n``, ``seed`` and
        ``threads`` give the same counts.

        >>> game = hx.Game("hex", size=3)
        >>> _ = game.play("b2")
        >>> wins = game.random_playouts(1000, seed=1)
        >>> wins[hx.RED] + wins[hx.BLUE], wins[hx.RED] > wins[hx.BLUE]
        (1000, True)
        """
        count, workers = whole_number(n, "n"), whole_number(threads, "threads", _core.MAX_THREADS, least=1)
        red, blue = _core.random_playouts(self, count, _seed(seed), workers)
        return {Color.RED: red, Color.BLUE: blue}

    def actions(self) -> list[int]:
        """The record as integer actions (``row * cols + col``, the swap ``rows * cols``):
        replayed with :meth:`apply` on a new game, they give this position.

        >>> game = hx.Game("hex", size=3)
        >>> _ = game.play("b2"), game.play("swap"), game.play("a1")
        >>> game.actions()
        [4, 9, 0]
        """
        swap = self._rules.cells
        return [
            swap if _RESULTS[result] is MoveResult.SWAPPED else cell for _who, cell, result in self._history()
        ]

    @classmethod
    def from_openspiel(cls, state: pyspiel.State) -> Game:
        """The game at an OpenSpiel state of ``hex``, ``misere(game=hex)``, ``dark_hex`` or
        one of the ``hexengine_*`` games (:mod:`hexengine.openspiel`), by replaying its history.

        OpenSpiel's Hex games are ours on the same board: player 0 (``x``, black)
        moves first and joins the first and last rows (our Red), player 1 (``o``,
        white) the first and last columns (our Blue); actions are the cells
        ``row * num_cols + col`` with our neighbours, and ``hex(swap=True)``'s
        action ``num_rows * num_cols`` is our ``pieces`` swap. ``misere(game=hex)``
        is ``rex``; ``dark_hex``'s ``gameversion`` ``cdh`` is ``dark``, ``adh``
        ``dark-abrupt``. Raises :class:`ConfigError` for a state of another game,
        :class:`RulesError` for a board hexengine does not allow, and :class:`IllegalMove`
        where OpenSpiel played on after the game had ended (it misses the end on boards
        of one row or one column).

        Needs OpenSpiel (``pip install "hexengine[peers]"``); :mod:`hexengine.openspiel`
        shows both directions at work.
        """
        get_game = getattr(state, "get_game", None)
        if not callable(get_game) or not callable(getattr(state, "history", None)):
            raise ConfigError(f"from_openspiel reads a pyspiel.State, not {type(state).__name__}")
        game = cls(rules_of_spiel(get_game()))
        for action in state.history():
            game.apply(action)
        return game

    def to_openspiel(self, games: Family = "openspiel") -> pyspiel.State:
        """This position as an OpenSpiel state, by replaying :meth:`actions` (see
        :meth:`from_openspiel` for how the games correspond).

        ``games="openspiel"`` gives a state of OpenSpiel's own ``hex``,
        ``misere(game=hex)`` or ``dark_hex``; it raises :class:`RulesError` where
        OpenSpiel has no such game (the ``sides`` swap; boards of one row or one
        column, which OpenSpiel gets wrong). ``games="hexengine"`` gives a state of
        the ``hexengine_*`` game, for every rule set (``import hexengine.openspiel``
        first). A game that ended by resignation or time-out has no OpenSpiel state.
        """
        if self.end_reason not in (None, "connection"):
            raise RulesError(f"a game that ended by {self.end_reason} has no OpenSpiel state")
        state = load_spiel_game(self._rules, games).new_initial_state()
        for action in self.actions():
            state.apply_action(action)
        return state

    def view(self, color: Color) -> View:
        """What ``color`` may know; the only thing to hand to that player's bot or client."""
        return View(self._view(_checked_color(color)))

    def spectator_view(self) -> View:
        """What a spectator may know (in Dark Hex: no stone until a chain is completed)."""
        return View(self._spectator_view())

    def copy(self) -> Game:
        """An independent copy of this game."""
        clone = Game.__new__(Game)
        _core.Game.__init__(clone, self)
        clone._rules = self._rules
        return clone

    def __copy__(self) -> Game:
        return self.copy()

    def __deepcopy__(self, memo: dict) -> Game:
        return self.copy()

    def status(self) -> str:
        """One line: whose turn it is, or who won and how."""
        if self.is_over:
            return f"{self.winner} wins by {self.end_reason}"
        return f"{self.to_move} to move"

    def __str__(self) -> str:
        return board_text(self.board, self.completed_chain()) + "\n" + self.status()

    def _repr_svg_(self) -> str:
        """The picture of the true board (see :mod:`hexengine.svg`)."""
        return svg(self)

    def _picture(self) -> Picture:
        history = self.history
        return Picture(
            self.board, self.completed_chain(), history[-1].cell if history else None, self.status()
        )

    def __repr__(self) -> str:
        r = self._rules
        count = len(self._history())
        actions = "1 action" if count == 1 else f"{count} actions"
        return f"<Game {r.variant} {r.rows}x{r.cols} swap={r.swap}: {self.status()} after {actions}>"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickles as the rules, the actions and how the game ended, replayed on loading."""
        end = None
        if self.end_reason in ("resignation", "timeout"):
            loser = Color.BLUE if self.winner == Color.RED else Color.RED
            end = (self.end_reason, int(loser))
        return _game_from_record, (self._rules, self.actions(), end)


def _game_from_record(rules: Rules, actions: list[int], end: tuple[str, int] | None) -> Game:
    """The game of a pickle (see :meth:`Game.__reduce__`)."""
    game = Game(rules)
    for action in actions:
        game.apply(action)
    if end is not None:
        reason, loser = end
        if reason == "resignation":
            game.resign(Color(loser))
        else:
            game.timeout(Color(loser))
    return game


def _is_legal(move: object, rules: Rules, mask: np.ndarray) -> bool:
    """Whether ``move`` reads as an action that ``mask`` allows."""
    try:
        action = action_of(move, rules)  # type: ignore[arg-type]
    except (IllegalMove, TypeError, ValueError):
        return False
    return 0 <= action < len(mask) and bool(mask[action])


def _seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an integer, not {seed!r}")
    return seed % (1 << 64)


def _checked_color(color: object) -> int:
    if isinstance(color, Color):
        return int(color)
    raise IllegalMove(f"expected hx.RED or hx.BLUE, not {color!r}", None, "colour")


class View:
    """A snapshot of a game as one viewer (a colour, or a spectator) knows it."""

    __slots__ = ("_core", "_rules")

    def __init__(self, core: _core.View) -> None:
        self._core = core
        self._rules = rules_of(core.variant, rows=core.rows, cols=core.cols, swap=core.swap)  # type: ignore[arg-type]

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

    def legal_moves(self) -> MoveList:
        """What the viewer may choose now: cells not known to be occupied, plus
        ``"swap"`` when allowed. Empty unless it is the viewer's turn. Answers
        ``in`` for a name too."""
        moves = MoveList(Cell.from_index(i, self._rules.cols) for i in self._core.legal_moves())
        if self._core.swap_available and self.viewer is not None and self.viewer == self.to_move:
            moves.append(SWAP)
        return moves

    def is_legal(self, move: object) -> bool:
        """Whether the viewer may play ``move`` now, as far as the viewer knows (in Dark
        Hex a cell may still hold a hidden stone); never raises."""
        return _is_legal(move, self._rules, self.action_mask())

    def legal_actions(self) -> list[int]:
        """:meth:`legal_moves` as integer actions (see :meth:`Game.legal_actions`)."""
        return self._core.legal_actions()

    def action_mask(self) -> np.ndarray:
        """The legal actions as a ``bool`` array of ``rows * cols + 1`` flags (all False
        unless it is the viewer's turn)."""
        return self._core.action_mask()

    def planes(self, dtype: DTypeLike = np.float32) -> np.ndarray:
        """The view as observation planes for networks: an array ``(C, rows, cols)`` built in
        C++ from this view alone, so two equal views give equal planes. ``C`` is
        ``len(hx.PLANES)``; channel k is ``hx.PLANES[k]``:

        - ``own``: the perspective player's stones (the viewer; for a spectator, the
          player to move, or Red once the game is over);
        - ``opponent``: the opponent's stones the viewer sees (in Dark Hex, found ones);
        - ``empty``: cells empty or unknown to the viewer;
        - ``to_move``: all 1 when the perspective player is to move;
        - ``red``: all 1 when the perspective player is Red (joins rows 1 and N);
        - ``swap``: all 1 when the player to move may use the swap now;
        - ``hit``: Dark Hex: cells where the perspective player hit an enemy stone;
        - ``hits_taken``: all ``hits received / cells`` (how often the opponent hit one of
          the perspective player's stones);
        - ``hidden``: all ``hidden stones / cells`` (stones the viewer cannot see).

        ``dtype`` is any numpy type; ``bool`` gives 0/1 flags (the two counting planes
        are then 1 where the count is not 0).

        >>> game = hx.Game("dark", size=3)
        >>> _ = game.play("b2"), game.play("b2")      # Blue hits Red's stone
        >>> planes = game.view(hx.BLUE).planes()
        >>> planes.shape, hx.PLANES[1], planes[1].tolist()
        ((9, 3, 3), 'opponent', [[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]])
        >>> float(planes[hx.PLANES.index("hits_taken")][0, 0]), game.view(hx.RED).planes(bool)[7].all()
        (0.0, np.True_)
        """
        target = np.dtype(dtype)
        if target == np.float32 or target == np.bool_:
            return self._core.planes(target == np.float32)
        return self._core.planes(True).astype(target)

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
        games = []
        for record in _core.sample_histories(
            self._core, whole_number(n, "n"), whole_number(seed, "seed", MAX_SEED)
        ):
            game = Game(self._rules)
            for _who, cell, _result in record:
                game._play(cell)
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
        return svg(self)

    def _picture(self) -> Picture:
        history = self.history
        last = history[-1].cell if history else None
        who = "spectator" if self.viewer is None else str(self.viewer)
        state = f"{self.winner} won" if self.is_over else f"{self.to_move} to move"
        return Picture(self.board, self.completed_chain(), last, f"{state} (view of {who})")

    def __repr__(self) -> str:
        who = "spectator" if self.viewer is None else str(self.viewer)
        state = f"{self.winner} won" if self.is_over else f"{self.to_move} to move"
        r = self._rules
        count = len(self._core.history)
        actions = "1 action" if count == 1 else f"{count} actions"
        return f"<View of {who}: {r.variant} {r.rows}x{r.cols}, {state}, {actions}>"


def _view_from_state(state: tuple[Any, ...]) -> View:
    return View(_core.View.from_state(state))
