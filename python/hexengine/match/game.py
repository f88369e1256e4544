"""One game of a match: two players from an opening, adjudicated by hexengine's referee.

The referee decides everything: an engine's claim of a win is never asked for
and its moves are checked by the rules. A player that resigns loses; one that
answers an illegal move, crashes, or stays silent past its ``timeout``
forfeits the game (logged; a crashed engine is restarted for the next game).

With a ``clock`` (seconds of main time for each side, sudden death), the
referee's own clock decides time: each decision's wall-clock thinking comes off
the mover's clock, and a side whose clock runs out loses on time (reason
``timeout``), whatever the move it then answers. Each player is told its time
as it can hear it: an HTP engine gets GTP's ``time_settings`` at the start of
each game and ``time_left`` before each ``genmove`` (when it knows the
commands); a bot whose ``choose`` takes ``time_left`` gets the seconds left on
its clock; one whose ``choose`` takes ``seconds`` (``MCTSBot``) gets the share
of its clock that hexengine's HTP engine would give itself
(:meth:`~hexengine.htp.clock.GameClock.move_budget`: what is left over an
eighth of the empty cells, at least five moves, capped by the ``seconds`` and
``simulations`` its spec gives); other bots are only timed.

A game is given as a :class:`GameJob`, which holds only plain values and so can be
played in another process:

>>> from hexengine.match.players import Players, parse_player
>>> specs = (parse_player("random:seed=1"), parse_player("random:seed=2"))
>>> job = GameJob(0, specs, hx.Rules("hex", 3, 3), ("b2",), "A", 0, ("one", "two"))
>>> result = job.play(Players(specs))
>>> result.winner, result.winner_color, result.reason, result.opening
('A', 'red', 'connection', ['b2'])
"""

from __future__ import annotations

import inspect
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import HexError, IllegalMove
from ..game import Game, View
from ..htp.clock import GameClock
from ..records import GameRecord
from ..rules import BLUE, RED, Color, MoveResult, Rules
from .errors import MatchError
from .players import Players, PlayerSpec, Resigned

__all__ = ["GameJob", "GameResult", "check_clock", "play_game"]


@dataclass
class GameResult:
    """One finished game of a match. ``red`` is the seat that played Red first;
    ``reason`` is ``connection``, ``resignation``, ``timeout`` or ``forfeit``
    (with ``detail`` saying why); times are seconds of wall-clock thinking."""

    index: int
    red: str
    winner: str
    winner_color: str
    reason: str
    detail: str
    moves: int
    opening: list[str]
    sgf: str
    time: dict[str, float] = field(default_factory=dict)
    decisions: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class GameJob:
    """One game of a match, fully specified: the players' ``specs`` (seat A, seat B), the
    ``rules``, the ``opening``, the seat that plays ``red`` first, the ``seed``, the
    ``names`` for the record and the ``clock`` (seconds of main time for each side; 0: no
    clock). Plain values only, so it pickles."""

    index: int
    specs: tuple[PlayerSpec, PlayerSpec]
    rules: Rules
    opening: tuple[str, ...]
    red: str
    seed: int
    names: tuple[str, str]
    clock: float = 0.0

    def play(self, players: Players) -> GameResult:
        """Plays the game with ``players``, made from :attr:`specs` (and perhaps kept from
        earlier games, as HTP engines are)."""
        return play_game(
            self.index, players, self.rules, self.opening, self.red, self.seed, self.names, clock=self.clock
        )


def play_game(
    index: int,
    players: Players,
    rules: Rules,
    opening: Sequence[str],
    red: str,
    seed: int,
    names: tuple[str, str],
    *,
    clock: float = 0.0,
    timer: Callable[[], float] = time.perf_counter,
) -> GameResult:
    """Plays one game; the referee adjudicates, failures forfeit. ``clock``: seconds of main
    time for each side (0: no clock); ``timer``: the referee's clock in seconds."""
    check_clock(clock)
    game = Game(rules)
    for move in opening:
        game.play(move)
    seats: dict[Color, str] = {RED: red, BLUE: "B" if red == "A" else "A"}
    for action in game.history:
        if action.result is MoveResult.SWAPPED and rules.swap == "sides":
            seats = {RED: seats[BLUE], BLUE: seats[RED]}
    bots: dict[str, Any] = {}
    spent = {"A": 0.0, "B": 0.0}
    decisions = {"A": 0, "B": 0}
    reason, detail = "", ""
    clocks = GameClock()
    if clock:
        clocks.settings(clock, 0, 0)
    for seat in "AB":
        try:
            bots[seat] = players.for_game(seat, rules, seed * 2 + "AB".index(seat), clock=clock)
        except Exception as e:
            color = RED if seats[RED] == seat else BLUE
            game.resign(color)
            reason, detail = "forfeit", f"{seat} ({color}) could not start: {_short(e)}"
            break
    while not game.is_over:
        color = game.to_move
        assert color is not None
        seat = seats[color]
        view = game.view(color)
        started = timer()
        failure: Exception | None = None
        try:
            move = _ask(bots[seat], view, clocks, players.limits(seat))
            decisions[seat] += 1
        except Resigned:
            game.resign(color)
            reason, detail = "resignation", f"{seat} ({color}) resigned"
            break
        except Exception as e:
            failure = e
        took = timer() - started
        spent[seat] += took
        clocks.spend(color, took)
        if clocks.active and clocks.left(color)[0] < 0:  # flagged, whatever it answered
            game.timeout(color)
            reason, detail = "timeout", _flag(seat, color, clock, spent[seat])
            break
        if failure is not None:
            from ..htp.client import EngineTimeout

            (game.timeout if isinstance(failure, EngineTimeout) else game.resign)(color)
            reason, detail = "forfeit", f"{seat} ({color}) failed: {_short(failure)}"
            break
        try:
            result = game.play(move)
        except IllegalMove as e:
            game.resign(color)
            reason, detail = "forfeit", f"{seat} ({color}) played an illegal move {move!s}: {e}"
            break
        except HexError as e:
            game.resign(color)
            reason, detail = "forfeit", f"{seat} ({color}) answered {move!r}, which is not a move: {e}"
            break
        if result is MoveResult.SWAPPED and rules.swap == "sides":
            seats = {RED: seats[BLUE], BLUE: seats[RED]}
    winner_color = game.winner
    assert winner_color is not None
    if not reason:
        reason = str(game.end_reason)
    record = GameRecord.from_game(game, players=names, red_seat=red)
    comment = f"game {index + 1}; A: {names[0]}; B: {names[1]}"
    if opening:
        comment += f"; opening: {' '.join(opening)}"
    if detail:
        comment += f"; {detail}"
    return GameResult(
        index=index,
        red=red,
        winner=seats[winner_color],
        winner_color=str(winner_color).lower(),
        reason=reason,
        detail=detail,
        moves=len(game.history),
        opening=list(opening),
        sgf=record.to_sgf(comment=comment),
        time={k: round(v, 4) for k, v in spent.items()},
        decisions=decisions,
    )


def check_clock(clock: float) -> None:
    """Raises :class:`~hexengine.match.errors.MatchError` unless ``clock`` is a number of
    seconds (0: no clock)."""
    if isinstance(clock, bool) or not isinstance(clock, (int, float)) or not math.isfinite(clock):
        raise MatchError(f"the clock must be a number of seconds (0: no clock), not {clock!r}")
    if clock < 0 or clock > 1e6:
        raise MatchError(f"the clock must be between 0 and 1,000,000 seconds a side, not {clock:g}")


def _ask(bot: Any, view: View, clocks: GameClock, limits: tuple[int | None, float | None]) -> Any:
    """``bot``'s move, the player told its time as it can hear it (see the module docstring);
    ``limits``: the simulations and seconds its spec gives, which cap the clock's share."""
    if not clocks.active:
        return bot.choose(view)
    assert view.to_move is not None
    try:
        takes = inspect.signature(bot.choose).parameters
    except (TypeError, ValueError):
        takes = {}
    if "time_left" in takes:
        return bot.choose(view, time_left=clocks.left(view.to_move)[0])
    if "seconds" in takes:
        budget = clocks.move_budget(view.to_move, int((view.board == 0).sum()), *limits)
        if "simulations" not in takes:
            budget.pop("simulations")
        return bot.choose(view, **budget)
    return bot.choose(view)


def _flag(seat: str, color: Color, clock: float, spent: float) -> str:
    return f"{seat} ({color}) ran out of time: {spent:.2f} s thought, {clock:g} s on its clock"


def _short(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    return " ".join(text.split())[:400]
