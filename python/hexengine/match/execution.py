"""How the games of a match are played: the :data:`Execution` seam and its local implementations.

An execution takes the games as :class:`~hexengine.match.game.GameJob` values, each fully
specified and seeded, and yields their results as games finish: :func:`play_here` plays them
one after the other in this process, :func:`play_in_processes` several at a time in processes
of their own, and :func:`~hexengine.match.cluster.play_on_ray` on a Ray cluster. Since a job
carries its seed, where a game is played does not change its record.

>>> from hexengine.match.players import parse_player
>>> specs = (parse_player("random:seed=1"), parse_player("random"))
>>> job = GameJob(0, specs, hx.Rules("hex", 3, 3), (), "A", 5, ("one", "two"))
>>> [(g.index, g.winner) for g in play_here([job])] == [(g.index, g.winner) for g in play_here([job])]
True
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import multiprocessing
import os
import signal
from collections.abc import Callable, Generator, Sequence
from multiprocessing import util

from .game import GameJob, GameResult
from .players import Players, PlayerSpec, stop_gate

__all__ = ["Execution", "play_here", "play_in_processes", "play_kept"]


Execution = Callable[[Sequence[GameJob]], Generator[GameResult, None, None]]
"""How the games of a match are played: given every game's :class:`~hexengine.match.game.GameJob`,
yield each game's result as it finishes, in any order. The match closes the generator if it
stops early, so an execution cancels what it has not played when it gets ``GeneratorExit``."""


def play_here(jobs: Sequence[GameJob]) -> Generator[GameResult, None, None]:
    """An :data:`Execution`: plays the games one after the other in this process; HTP engines
    live across the games and are stopped at the end."""
    kept: list[Players] = []
    try:
        for job in jobs:
            yield job.play(_seated(kept, job.specs))
    except BaseException:
        # Stopped early: an engine may be thinking over a move, so it is not asked to quit.
        for players in kept:
            players.kill()
        raise
    finally:
        for players in kept:
            players.close()


def play_in_processes(jobs: Sequence[GameJob], processes: int) -> Generator[GameResult, None, None]:
    """An :data:`Execution` once ``processes`` is given: plays the games that many at a time,
    each in a process of its own; a process keeps its HTP engines across the games it plays."""
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(
        max_workers=processes, mp_context=context, initializer=_stop_on_sigterm
    ) as pool:
        futures = [pool.submit(play_kept, job) for job in jobs]
        try:
            for future in concurrent.futures.as_completed(futures):
                yield future.result()
        except BaseException:
            for future in futures:
                future.cancel()
            # The games under way are not waited for: a stopped match plays them again when
            # resumed, and an engine may take minutes over a move.
            _stop_workers(pool)
            raise


def _stop_on_sigterm() -> None:
    """Makes SIGTERM stop this worker process with its HTP engines (which would otherwise
    outlive it, waiting on their input)."""

    def stop(signum: int, frame: object) -> None:
        def now() -> None:
            for players in _kept_in_process:
                players.kill()
            os._exit(128 + signum)

        stop_gate.request(now)

    signal.signal(signal.SIGTERM, stop)


def _stop_workers(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """Sends SIGTERM to the pool's worker processes."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14 and later
    if terminate is not None:
        terminate()
        return
    # Before 3.14 the executor names its workers only in a private attribute.
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        with contextlib.suppress(Exception):
            process.terminate()


_kept_in_process: list[Players] = []


def play_kept(job: GameJob) -> GameResult:
    """Plays ``job`` in a worker process (of a pool or of a cluster) that plays game after game:
    the process keeps its players' HTP engines across the games and stops them when it exits."""
    return job.play(_seated(_kept_in_process, job.specs, until_exit=True))


def _seated(kept: list[Players], specs: tuple[PlayerSpec, PlayerSpec], until_exit: bool = False) -> Players:
    """The players for ``specs`` in ``kept``, made and kept there on first use (with
    ``until_exit``, stopped when this process exits)."""
    for players in kept:
        if players.specs == specs:
            return players
    players = Players(specs)
    kept.append(players)
    if until_exit:
        util.Finalize(players, players.close, exitpriority=10)
    return players
