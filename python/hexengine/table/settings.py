"""Table settings: everything a host chooses when opening a table (docs/rules.md section 6).

>>> import hexengine as hx
>>> settings = hx.TableSettings(variant="dark", size=7, time_limit=30)
>>> settings.rules
Rules(variant='dark', rows=7, cols=7, swap='off')
>>> hx.TableSettings(variant="hex", rows=9, cols=11, swap="pieces")
Traceback (most recent call last):
...
hexengine.errors.RulesError: swap 'pieces' mirrors the first stone ... needs a square board, not 9x11; ...
>>> hx.TableSettings(variant="dark", swap="sides")
Traceback (most recent call last):
...
hexengine.errors.RulesError: swap 'sides' is not available in dark: ...
"""

from __future__ import annotations

import math
from dataclasses import InitVar, asdict, dataclass, field
from typing import Any, Literal

from ..errors import RulesError
from ..records import SEATS, SeatName
from ..records.model import other_seat
from ..rules import Rules, SwapForm, Variant

__all__ = ["LEVELS", "SEATS", "First", "Level", "SeatName", "TableSettings"]

First = Literal["A", "B", "alternate"]
Level = Literal["easy", "medium", "hard"]

LEVELS: tuple[Level, ...] = ("easy", "medium", "hard")

DAY = 86_400.0
MAX_DAYS = 60


@dataclass(frozen=True, kw_only=True)
class TableSettings:
    """What the host of a table chose. Frozen; invalid combinations raise RulesError.

    - ``variant``: ``"hex"``, ``"rex"``, ``"dark"`` or ``"dark-abrupt"``.
    - ``size``, or ``rows`` and ``cols``: any board from 1x1 to 19x19 (default 11x11).
    - ``swap``: ``"sides"``, ``"pieces"`` or ``"off"``; ``None`` picks the variant's
      default (``"sides"`` in Hex and Rex, ``"off"`` in Dark Hex, where asking for
      swap is an error). Games against the easy computer are played without swap.
    - ``first``: who plays Red in the first game, seat ``"A"`` or ``"B"``; or
      ``"alternate"``: seat A first, then alternating every game.
    - ``alternate``: after each game of a series the other seat plays Red (on by
      default; whoever moves first plays Red).
    - ``time_limit``: seconds per decision, ``None`` (the default) for no limit.
      Running out loses the game. A hit in classic Dark Hex starts a new decision.
    - ``main_time``: seconds each player has for the whole game (``None``: no main
      time), and ``increment``: seconds added to a player's main time each time their
      turn passes to the opponent (Fischer; a hit that lets them move again adds
      nothing). Running out loses. Combines with ``time_limit`` (whichever runs out
      first).
    - ``days_per_move``: correspondence play, days per decision (e.g. ``3``); not
      combined with ``time_limit`` or ``main_time``. Players come and go between moves,
      so the computer never takes over an absent seat (``grace`` does not apply).
    - ``grace``: seconds an absent person has to come back before the computer
      plays their seat (at level ``takeover_level``) until they return.
    - ``rated``: whether finished games change the players' ratings.
    """

    variant: Variant = "hex"
    size: InitVar[int | None] = None
    rows: int = 11
    cols: int = 11
    swap: SwapForm | None = None
    first: First = "A"
    alternate: bool = True
    time_limit: float | None = None
    main_time: float | None = None
    increment: float = 0.0
    days_per_move: float | None = None
    grace: float = 15.0
    takeover_level: Level = "medium"
    rated: bool = False
    rules: Rules = field(init=False, repr=False, compare=False)

    def __post_init__(self, size: int | None) -> None:
        if size is not None:
            object.__setattr__(self, "rows", size)
            object.__setattr__(self, "cols", size)
        object.__setattr__(self, "rules", Rules(self.variant, self.rows, self.cols, self.swap))
        object.__setattr__(self, "variant", self.rules.variant)
        object.__setattr__(self, "swap", self.rules.swap)
        if self.first not in ("A", "B", "alternate"):
            raise RulesError(f"first must be 'A', 'B' or 'alternate', not {self.first!r}")
        if not isinstance(self.alternate, bool):
            raise RulesError(f"alternate must be True or False, not {self.alternate!r}")
        if self.first == "alternate" and not self.alternate:
            raise RulesError(
                "first='alternate' contradicts alternate=False: pick 'A' or 'B' to keep Red fixed"
            )
        if self.time_limit is not None:
            _check_seconds("time_limit", self.time_limit, allow_zero=False)
            object.__setattr__(self, "time_limit", float(self.time_limit))
        if self.main_time is not None:
            _check_seconds("main_time", self.main_time, allow_zero=False)
            object.__setattr__(self, "main_time", float(self.main_time))
        _check_seconds("increment", self.increment, allow_zero=True)
        object.__setattr__(self, "increment", float(self.increment))
        if self.increment and self.main_time is None:
            raise RulesError("increment adds to the main time: set main_time too (e.g. main_time=300)")
        if self.days_per_move is not None:
            _check_seconds("days_per_move", self.days_per_move, allow_zero=False)
            if self.days_per_move > MAX_DAYS:
                raise RulesError(f"days_per_move may be at most {MAX_DAYS}, not {self.days_per_move!r}")
            if self.time_limit is not None or self.main_time is not None:
                raise RulesError(
                    "days_per_move is correspondence play: it cannot be combined with time_limit or main_time"
                )
            object.__setattr__(self, "days_per_move", float(self.days_per_move))
        _check_seconds("grace", self.grace, allow_zero=True)
        object.__setattr__(self, "grace", float(self.grace))
        if self.takeover_level not in LEVELS:
            raise RulesError(
                f"takeover_level must be one of {', '.join(LEVELS)}, not {self.takeover_level!r}"
            )
        if not isinstance(self.rated, bool):
            raise RulesError(f"rated must be True or False, not {self.rated!r}")

    @property
    def move_limit(self) -> float | None:
        """Seconds per decision: ``time_limit``, or ``days_per_move`` in seconds, or ``None``.

        >>> hx.TableSettings(days_per_move=2).move_limit
        172800.0
        """
        if self.days_per_move is not None:
            return self.days_per_move * DAY
        return self.time_limit

    @property
    def correspondence(self) -> bool:
        """Whether this is correspondence play (days per move)."""
        return self.days_per_move is not None

    def red_seat(self, game_number: int) -> SeatName:
        """The seat that plays Red (moves first) in game ``game_number`` (1-based) of a series.

        >>> s = hx.TableSettings(first="B")
        >>> [s.red_seat(n) for n in (1, 2, 3)]
        ['B', 'A', 'B']
        >>> [hx.TableSettings(alternate=False).red_seat(n) for n in (1, 2)]
        ['A', 'A']
        """
        start: SeatName = "B" if self.first == "B" else "A"
        if self.alternate and game_number % 2 == 0:
            return other_seat(start)
        return start

    def game_rules(self, *, easy_computer: bool) -> Rules:
        """The rules of one game: those chosen, with swap off against the easy computer.

        >>> hx.TableSettings(size=5).game_rules(easy_computer=True)
        Rules(variant='hex', rows=5, cols=5, swap='off')
        """
        rules = self.rules
        if easy_computer and rules.swap != "off":
            return Rules(rules.variant, rules.rows, rules.cols, "off")
        return rules

    def to_dict(self) -> dict[str, Any]:
        """The settings as a JSON-ready dict (``TableSettings.from_dict`` reads it back)."""
        data = asdict(self)
        del data["rules"]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableSettings:
        """Settings from :meth:`to_dict` output; unknown keys are an error."""
        if not isinstance(data, dict):
            raise RulesError(f"table settings must be a dict, not {type(data).__name__}")
        known = {f for f in cls.__dataclass_fields__ if f != "rules"} | {"size"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(f"unknown table setting(s): {', '.join(unknown)}")
        return cls(**data)


def _check_seconds(name: str, value: object, *, allow_zero: bool) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RulesError(f"{name} must be a number of seconds, not {value!r}")
    if not math.isfinite(value) or value < 0 or (value == 0 and not allow_zero):
        bound = "zero or more" if allow_zero else "more than zero"
        raise RulesError(f"{name} must be a finite number of seconds, {bound}, not {value!r}")
