"""Games on a Ray cluster: :func:`play_on_ray`, an :data:`~hexengine.match.execution.Execution`.

Each game is one Ray task (:func:`hexengine.cluster.run_on_ray`, which says how ``address`` is
read, how a task whose worker dies is run again, and what every node needs) that plays its
:class:`~hexengine.match.game.GameJob` on a worker: the job carries its seed, so the record is
the one a local run gives. The players are made on that worker: an HTP engine given by path is
started there, and kept by the worker process across the games it plays, so every node needs
the program at that path (or on its ``PATH``); a node without it stops the match with an error
naming the node and the program.

Ray is an optional dependency (``pip install 'hexengine[cluster]'``); without it
:func:`ray_execution` raises a :class:`~hexengine.match.errors.MatchError` that says what to
install.
"""

from __future__ import annotations

import contextlib
import functools
import shlex
import shutil
from collections.abc import Generator, Sequence

from ..cluster import ray_module, run_on_ray, worker_name
from .errors import MatchError
from .execution import Execution, play_kept
from .game import GameJob, GameResult

__all__ = ["play_on_ray", "ray_execution"]


def ray_execution(address: str, limit: int | None = None, retries: int = 3) -> Execution:
    """The :data:`~hexengine.match.execution.Execution` that plays on the Ray cluster at
    ``address`` (:func:`play_on_ray`); fails at once if Ray is not installed."""
    ray_module(MatchError)
    return functools.partial(play_on_ray, address=address, limit=limit, retries=retries)


def play_on_ray(
    jobs: Sequence[GameJob], address: str = "ray", limit: int | None = None, retries: int = 3
) -> Generator[GameResult, None, None]:
    """An :data:`~hexengine.match.execution.Execution`: plays each game as a Ray task on the
    cluster at ``address``, at most ``limit`` at a time (default: as many as the cluster runs
    at once), each run again up to ``retries`` times if its worker dies; yields the results as
    games finish. Closing the generator cancels the games not finished."""
    results = run_on_ray(
        play_on_worker,
        jobs,
        address=address,
        limit=limit,
        retries=retries,
        cpus=_cpus,
        label=lambda job: f"game {job.index + 1}",
        error=MatchError,
    )
    with contextlib.closing(results):
        for _, result in results:
            yield result


def play_on_worker(job: GameJob) -> GameResult:
    """The Ray task of a game: checks that this node has the HTP programs the players name,
    then plays ``job`` in this worker process (which keeps its engines for the next games)."""
    for seat, spec in zip("AB", job.specs, strict=True):
        if spec.kind == "htp":
            words = shlex.split(spec.target)
            if not words or shutil.which(words[0]) is None:
                raise MatchError(
                    f"player {seat} ({spec.name}): no program {words[0] if words else ''!r} on "
                    f"{worker_name()}; every node needs the engine at that path or on its PATH"
                )
    return play_kept(job)


def _cpus(job: GameJob) -> int:
    """The CPUs a game asks of the cluster: the most search threads either player uses."""
    return max(int(s.options.get("threads", 1)) if s.kind == "mcts" else 1 for s in job.specs)
