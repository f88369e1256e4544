"""Ctrl-C reaches long C++ calls: a search, a solve or a batch of playouts that
would run for a long time stops early when a signal handler raises, and the
exception propagates.

The C++ core runs with the GIL released on a helper thread while the calling
thread lets Python run its signal handlers every 50 ms (cpp/bindings/bindings.h,
``interruptible``). Each test raises SIGINT from a timer thread with a handler
of its own installed, so pytest's KeyboardInterrupt handling is left alone; the
calls have a 60-second backstop so that a broken interrupt fails the test
instead of hanging it.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator

import pytest

import hexengine as hx
from hexengine import _core


class Interrupted(Exception):
    """Raised by the test's SIGINT handler."""


@pytest.fixture
def interrupt_soon() -> Iterator[Callable[[], None]]:
    """Arms a SIGINT 0.3 s later; the handler raises Interrupted."""

    def handler(signum: int, frame: object) -> None:
        raise Interrupted

    previous = signal.signal(signal.SIGINT, handler)
    timers: list[threading.Timer] = []

    def arm() -> None:
        timer = threading.Timer(0.3, signal.raise_signal, args=(signal.SIGINT,))
        timers.append(timer)
        timer.start()

    yield arm
    for timer in timers:
        timer.join()
    signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize(("variant", "threads"), [("hex", 1), ("hex", 2), ("rex", 2), ("dark", 1)])
def test_a_long_search_stops_on_ctrl_c(
    interrupt_soon: Callable[[], None], variant: str, threads: int
) -> None:
    """The handler's exception comes out of analyse() and choose(), and the bot
    can be asked again (its lock was released)."""
    game = hx.Game(variant, size=11, swap="off")  # type: ignore[arg-type]
    view = game.view(game.to_move)
    bot = hx.MCTSBot(simulations=10**12, seconds=60, threads=threads, seed=1)
    interrupt_soon()
    with pytest.raises(Interrupted):
        bot.analyse(view)
    interrupt_soon()
    with pytest.raises(Interrupted):
        bot.choose(view)
    assert hx.MCTSBot(simulations=200, seed=1).choose(view) in game.legal_moves()


def test_a_long_solve_stops_on_ctrl_c(interrupt_soon: Callable[[], None]) -> None:
    """An 11x11 solve (hours) ends with the handler's exception."""
    game = hx.Game("hex", size=11, swap="off")
    interrupt_soon()
    with pytest.raises(Interrupted):
        hx.solve(game, max_seconds=60)
    interrupt_soon()
    with pytest.raises(Interrupted):
        hx.solve(game.view(hx.RED), max_seconds=60)


@pytest.mark.parametrize("variant", ["hex", "rex", "dark"])
def test_a_long_batch_of_playouts_stops_on_ctrl_c(interrupt_soon: Callable[[], None], variant: str) -> None:
    """A trillion playouts (days) end with the handler's exception, on one
    thread and on two."""
    game = hx.Game(variant, size=11, swap="off")  # type: ignore[arg-type]
    for threads in (1, 2):
        interrupt_soon()
        with pytest.raises(Interrupted):
            game.random_playouts(10**12, seed=1, threads=threads)


def test_calls_that_end_on_their_own_are_untouched() -> None:
    """Without a signal, results come back as before and errors keep their class."""
    seven = hx.Game("hex", size=7, swap="off")
    seven.play("d4")
    seven.play("c5")
    assert seven.random_playouts(10_000, seed=1) == {hx.RED: 5525, hx.BLUE: 4475}  # as in docs/games.md
    game = hx.Game("hex", size=3, swap="off")
    assert hx.solve(game).winner == hx.RED
    view = game.view(hx.RED)
    first, again = (hx.MCTSBot(simulations=300, seed=3).choose(view) for _ in range(2))
    assert first == again
    with pytest.raises(hx.ConfigError, match="not the view of the player to move"):
        hx.MCTSBot(simulations=10).choose(game.view(hx.BLUE))


def test_exact_dark_hex_stops_on_ctrl_c(interrupt_soon: Callable[[], None]) -> None:
    """Building a large Dark Hex game tree (2x4: 83 million histories, seconds)
    and a long CFR+ run both end with the handler's exception; the run stops
    after a whole iteration, so the solver can go on from there."""
    interrupt_soon()
    with pytest.raises(Interrupted):
        hx.dark_equilibrium("dark", 2, 4, iterations=10**6)
    tree = _core.DarkTree("dark", 2, 3)
    cfr = _core.DarkCfr(tree)
    interrupt_soon()
    with pytest.raises(Interrupted):
        cfr.run(10**9)  # about a millisecond an iteration: days
    stopped_at = cfr.iterations
    assert 0 < stopped_at < 10**9
    cfr.run(2)
    assert cfr.iterations == stopped_at + 2
