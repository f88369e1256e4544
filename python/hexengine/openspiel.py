"""hexengine's games in OpenSpiel (extra ``hexengine[peers]``).

Importing this module registers four Python games with ``pyspiel``, whose
rules all come from :class:`hexengine.Game` (the referee; nothing is written
again here):

- ``hexengine_hex``: Hex, perfect information;
- ``hexengine_rex``: Rex (completing your own chain loses), perfect information;
- ``hexengine_dark``: classic Dark Hex (a hit moves again), imperfect information;
- ``hexengine_dark_abrupt``: abrupt Dark Hex (a hit ends the turn), imperfect information.

Each takes ``rows`` and ``cols`` (11 by default) and ``swap`` (``"sides"``,
``"pieces"`` or ``"off"``; ``"sides"`` by default in Hex and Rex, ``"off"`` in
Dark Hex, where any other is a :class:`~hexengine.RulesError`). All four are
sequential, deterministic, zero-sum two-player games with terminal rewards
(+1 for the winner, -1 for the loser).

>>> import pyspiel
>>> import hexengine.openspiel
>>> game = pyspiel.load_game("hexengine_dark", {"rows": 2, "cols": 2})
>>> game.num_distinct_actions(), game.observation_tensor_shape()
(5, [9, 2, 2])
>>> state = game.new_initial_state()
>>> state.apply_action(0)                     # Red a1
>>> state.apply_action(0)                     # Blue tries a1 too: a hit, Blue moves again
>>> state.current_player(), state.legal_actions()
(1, [1, 2, 3])
>>> state.information_state_string(1), state.information_state_string(0)
('Red ?, Blue a1 hit', 'Red a1, Blue ? hit')
>>> [state.action_to_string(1, a) for a in state.legal_actions()]
['b1', 'a2', 'b2']

- **Actions** are hexengine's integer actions: ``row * cols + col`` for a cell,
  ``rows * cols`` for the swap (never legal where the swap is off), so there are
  ``rows * cols + 1`` distinct actions. ``action_to_string`` gives cell names
  (``"f6"``) and ``"swap"``. Legal actions are the referee's
  :meth:`~hexengine.Game.legal_actions`: in Dark Hex, the cells the player to
  move does not know to be occupied.
- **Players**: player 0 moves first, as Red (joins rows 1 and N); player 1 is
  Blue. After a ``sides`` swap the two players exchange colours, as they do at
  a table: player 0 plays Blue from then on and moves next, so turns still
  alternate and each player's return is that of the colour it holds at the end.
  (With ``pieces`` the stone moves instead and the colours stay.)
- **Observations** are what that player may know, and nothing else: its
  :class:`~hexengine.View`, never the referee's board. The observation string
  is ``str(view)`` (the board as that player sees it, whose turn it is, the
  number of hidden stones); the information-state string is the record as that
  player knows it, one action after another, with the cells it has not seen as
  ``?`` (so two states give the same string exactly when the player cannot tell
  them apart). Both tensors are :meth:`~hexengine.View.planes` of that view,
  shape ``(len(hx.PLANES), rows, cols)``; they show what the player knows now,
  not the order in which it learned it (the information-state string has that).
  ``pyspiel.IIGObservationType(private_info=pyspiel.PrivateInfoType.NONE)``
  gives the spectator's view.
- **Resampling**: :meth:`HexengineState.resample_from_infostate` draws a whole game
  consistent with one player's view by :meth:`hexengine.View.sample_games`, so
  OpenSpiel's IS-MCTS can search Dark Hex with hexengine's belief sampler.

Positions carry over between these games, OpenSpiel's own ``hex`` and
``dark_hex``, and :class:`hexengine.Game`:

>>> state = pyspiel.load_game("hex(num_rows=3,num_cols=4)").new_initial_state()
>>> state.apply_action(5)
>>> ours = hx.Game.from_openspiel(state)
>>> ours.rules, ours.history
(Rules(variant='hex', rows=3, cols=4, swap='off'), [<Action Red b2 placed>])
>>> ours.to_openspiel("hexengine").get_game().get_type().short_name
'hexengine_hex'

OpenSpiel's algorithms run on them as on its own games (Python games are
slower than C++ ones; wrap a small game in ``cached_tree`` for CFR, which then
walks the tree in C++ after the first pass):

>>> tiny = pyspiel.load_game("cached_tree(game=hexengine_dark(rows=2,cols=2))")
>>> solver = pyspiel.CFRPlusSolver(tiny)
>>> for _ in range(100):
...     solver.evaluate_and_update_policy()
>>> average = solver.average_policy()
>>> pyspiel.exploitability(tiny, average) < 1e-3
True
>>> red, blue = pyspiel.expected_returns(tiny.new_initial_state(), average, -1, True)
>>> round(red, 3), hx.dark_equilibrium("dark", 2, 2).pure_bounds      # Red wins 2x2 for sure
(1.0, (1.0, 1.0))
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import numpy as np

try:
    import pyspiel
except ModuleNotFoundError as e:  # pragma: no cover - depends on the extra
    raise ModuleNotFoundError(
        "hexengine.openspiel needs OpenSpiel: pip install 'hexengine[peers]'", name=e.name
    ) from None

from ._moves import move_of
from ._spiel import GAMES
from .game import PLANES, Game, View
from .rules import Action, Color, MoveResult, Rules, Variant

__all__ = [
    "GAMES",
    "DarkHexAbruptGame",
    "DarkHexGame",
    "HexGame",
    "HexengineGame",
    "HexengineObserver",
    "HexengineState",
    "RexGame",
]

_DEFAULT_SIZE = 11


def _game_type(short_name: str, variant: Variant) -> pyspiel.GameType:
    dark = Rules(variant).is_dark
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"hexengine {variant}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if dark
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "rows": _DEFAULT_SIZE,
            "cols": _DEFAULT_SIZE,
            "swap": "off" if dark else "sides",
        },
    )


def _max_game_length(rules: Rules) -> int:
    """An upper bound on the number of actions: in Dark Hex each action places a stone or
    finds one (never the last stone placed); in Hex and Rex add the swap."""
    if rules.is_dark:
        return 2 * rules.cells - 1
    return rules.cells + (rules.swap != "off")


class HexengineGame(pyspiel.Game):
    """A ``hexengine_*`` game with its parameters (``pyspiel.load_game`` makes them); one
    subclass per variant.

    ``rules`` is the :class:`hexengine.Rules` it plays (validated by hexengine:
    a bad size or a swap in Dark Hex raises :class:`~hexengine.RulesError`).
    """

    short_name: ClassVar[str]

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.rules = Rules(
            GAMES[self.short_name],
            params.get("rows", _DEFAULT_SIZE),
            params.get("cols", _DEFAULT_SIZE),
            params.get("swap"),
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=self.rules.cells + 1,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=_max_game_length(self.rules),
        )
        rules = {"rows": self.rules.rows, "cols": self.rules.cols, "swap": self.rules.swap}
        super().__init__(_GAME_TYPES[self.short_name], info, rules)

    def new_initial_state(self) -> HexengineState:
        """A state at the start of a game."""
        return HexengineState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Mapping[str, Any] | None = None
    ) -> HexengineObserver:
        """What OpenSpiel asks for observations and information states (a :class:`HexengineObserver`)."""
        if params:
            raise ValueError(f"hexengine's observers take no parameters, not {dict(params)!r}")
        return HexengineObserver(self.rules, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class HexengineState(pyspiel.State):
    """A position of a ``hexengine_*`` game: a :class:`hexengine.Game` (the referee) and
    which player holds which colour.

    >>> state = pyspiel.load_game("hexengine_hex", {"rows": 3, "cols": 3}).new_initial_state()
    >>> state.apply_action(4)                # player 0, Red, b2
    >>> state.apply_action(9)                # player 1 swaps: now player 1 is Red, player 0 Blue
    >>> state.current_player(), state.color_of(0), state.color_of(1)
    (0, <Color.BLUE: 2>, <Color.RED: 1>)
    >>> state.referee.history
    [<Action Red b2 placed>, <Action Blue b2 swapped>]
    """

    def __init__(self, game: HexengineGame) -> None:
        super().__init__(game)
        self._referee = Game(game.rules)
        self._swapped = False

    @property
    def referee(self) -> Game:
        """The :class:`hexengine.Game` behind this state, which knows every stone: hand
        players :meth:`view` instead."""
        return self._referee

    def color_of(self, player: int) -> Color:
        """The colour ``player`` (0 or 1) holds now."""
        return Color(1 + (player ^ self._swapped))

    def view(self, player: int) -> View:
        """What ``player`` may know: the :class:`~hexengine.View` of the colour it holds."""
        return self._referee.view(self.color_of(player))

    def current_player(self) -> int:
        """The player to move, or ``pyspiel.PlayerId.TERMINAL`` once the game is over."""
        color = self._referee._to_move
        if color is None:
            return pyspiel.PlayerId.TERMINAL
        return (color - 1) ^ self._swapped

    def _legal_actions(self, player: int) -> list[int]:
        return self._referee.legal_actions()

    def _apply_action(self, action: int) -> None:
        if self._referee.apply(action) is MoveResult.SWAPPED and self._referee.rules.swap == "sides":
            self._swapped = True

    def _action_to_string(self, player: int, action: int) -> str:
        return str(move_of(action, self._referee.rules))

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._referee.is_over

    def returns(self) -> list[float]:
        """+1 for the player holding the winning colour, -1 for the other; zeros until the end."""
        winner = self._referee._winner
        if winner is None:
            return [0.0, 0.0]
        first = 1.0 if winner == 1 + self._swapped else -1.0
        return [first, -first]

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> HexengineState:
        """A state that ``player_id`` cannot tell from this one, drawn from its view alone.

        In Dark Hex the hidden stones are drawn by
        :meth:`hexengine.View.sample_games` (uniform over the boards consistent with
        the view), seeded by one draw of ``probability_sampler``; the same view and
        the same draw give the same state, whatever the hidden stones really are. In
        Hex and Rex nothing is hidden: a copy of this state.

        >>> state = pyspiel.load_game("hexengine_dark", {"rows": 3, "cols": 3}).new_initial_state()
        >>> for action in [4, 0]:                  # Red b2, Blue a1
        ...     state.apply_action(action)
        >>> world = state.resample_from_infostate(0, lambda: 0.25)
        >>> world.information_state_string(0) == state.information_state_string(0)
        True
        >>> world.history()[0], world.history() == state.resample_from_infostate(0, lambda: 0.25).history()
        (4, True)
        """
        if not self._referee.rules.is_dark:
            return self.clone()
        seed = int(float(probability_sampler()) * 2**53)
        (world,) = self.view(player_id).sample_games(1, seed=seed)
        state = self.get_game().new_initial_state()
        for action in world.actions():
            state.apply_action(action)
        return state

    def __str__(self) -> str:
        return str(self._referee)


class HexengineObserver:
    """OpenSpiel's observer for the ``hexengine_*`` games: a player's own view, never the referee's.

    ``string_from`` gives ``str(view)`` (observations) or the record as the
    player knows it (information states, ``perfect_recall``); ``tensor`` is the
    view's planes, ``dict["planes"]`` shaped ``(len(hx.PLANES), rows, cols)``.
    With ``private_info=pyspiel.PrivateInfoType.NONE`` the view is the
    spectator's. ``ALL_PLAYERS`` (the referee's board) is refused in Dark Hex.
    """

    def __init__(self, rules: Rules, iig_obs_type: pyspiel.IIGObservationType) -> None:
        private = iig_obs_type.private_info
        if not iig_obs_type.public_info:
            raise ValueError("hexengine's observers always include public information (public_info=True)")
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS and rules.is_dark:
            raise ValueError("in Dark Hex each player observes only its own view, not every player's")
        self._spectator = private == pyspiel.PrivateInfoType.NONE
        self._perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(len(PLANES) * rules.cells, np.float32)
        self.dict = {"planes": self.tensor.reshape(len(PLANES), rules.rows, rules.cols)}

    def _view(self, state: HexengineState, player: int) -> View:
        return state.referee.spectator_view() if self._spectator else state.view(player)

    def set_from(self, state: HexengineState, player: int) -> None:
        """Writes the planes of ``player``'s view of ``state`` into :attr:`tensor`."""
        self.dict["planes"][...] = self._view(state, player).planes()

    def string_from(self, state: HexengineState, player: int) -> str:
        """``player``'s observation, or its information state, of ``state`` as text."""
        view = self._view(state, player)
        if self._perfect_recall:
            return ", ".join(map(_text, view.history))
        return str(view)


class HexGame(HexengineGame):
    """``hexengine_hex``."""

    short_name = "hexengine_hex"


class RexGame(HexengineGame):
    """``hexengine_rex``."""

    short_name = "hexengine_rex"


class DarkHexGame(HexengineGame):
    """``hexengine_dark``: classic Dark Hex (a hit moves again)."""

    short_name = "hexengine_dark"


class DarkHexAbruptGame(HexengineGame):
    """``hexengine_dark_abrupt``: abrupt Dark Hex (a hit ends the turn)."""

    short_name = "hexengine_dark_abrupt"


@functools.cache
def _text(action: Action) -> str:
    return str(action)


_GAME_TYPES = {name: _game_type(name, variant) for name, variant in GAMES.items()}


def _register() -> None:
    # Classes, not closures: OpenSpiel keeps each creator until the process ends, after
    # Python has shut down, and freeing a closure then aborts the process.
    registered = set(pyspiel.registered_names())
    for cls in (HexGame, RexGame, DarkHexGame, DarkHexAbruptGame):
        if cls.short_name not in registered:
            pyspiel.register_game(_GAME_TYPES[cls.short_name], cls)


_register()
