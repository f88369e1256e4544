"""Games on a Ray cluster: :func:`play_on_ray`, an :data:`~hexengine.match.execution.Execution`.

Each game is one Ray task that plays its :class:`~hexengine.match.game.GameJob` on a worker
(the job carries its seed, so the record is the one a local run gives). The players are made
on that worker: an HTP engine given by path is started there, and kept by the worker process
across the games it plays, so every node needs the program at that path (or on its ``PATH``);
a node without it stops the match with an error naming the node and the program. Every node
needs the same hexengine version as the driver, which each task checks.

A task whose worker dies (its process killed, its node lost) is run again by Ray, up to
``retries`` times (``max_retries``), and its result comes back once. Exceptions raised by the
game itself are not retried (``retry_exceptions=False``): a game turns its players' failures
into forfeits, so what escapes it is a setting that would fail again (a missing program, another
version), and it stops the match with its message.

``address`` says which cluster: ``"ray"`` calls ``ray.init()``, which joins the cluster that
``ray start`` runs on this machine or else starts one for the match; ``"auto"`` joins the running
cluster (``ray.init(address="auto")``, which reads ``RAY_ADDRESS``); ``"ray://host:10001"``
connects through the Ray client; ``"host:6379"`` joins the cluster at that address. A Ray
already initialised in this process is used as it is. A cluster started for the match is
stopped after it; one joined is left running.

Ray is an optional dependency (``pip install 'hexengine[cluster]'``), imported only here and
only when a match asks for a cluster; without it :func:`ray_execution` raises a
:class:`~hexengine.match.errors.MatchError` that says what to install.
"""

from __future__ import annotations

import functools
import logging
import shlex
import shutil
import socket
from collections.abc import Generator, Sequence
from typing import Any

from .._version import __version__
from .errors import MatchError
from .execution import Execution, play_kept
from .game import GameJob, GameResult

__all__ = ["INSTALL", "play_on_ray", "ray_execution"]

INSTALL = "pip install 'hexengine[cluster]'"
# Connections tried through the Ray client before giving up (see _connect).
CLIENT_ATTEMPTS = 3


def ray_execution(address: str, limit: int | None = None, retries: int = 3) -> Execution:
    """The :data:`~hexengine.match.execution.Execution` that plays on the Ray cluster at
    ``address`` (:func:`play_on_ray`); fails at once if Ray is not installed."""
    _ray()
    return functools.partial(play_on_ray, address=address, limit=limit, retries=retries)


def play_on_ray(
    jobs: Sequence[GameJob], address: str = "ray", limit: int | None = None, retries: int = 3
) -> Generator[GameResult, None, None]:
    """An :data:`~hexengine.match.execution.Execution`: plays each game as a Ray task on the
    cluster at ``address``, at most ``limit`` at a time (default: as many as the cluster runs
    at once), each run again up to ``retries`` times if its worker dies; yields the results as
    games finish. Closing the generator cancels the games not finished. A worker playing game
    N has the process title ``ray::game N``."""
    ray = _ray()
    started = _connect(ray, address)
    task = ray.remote(_play_on_worker)
    waiting = list(jobs)
    running: dict[Any, GameJob] = {}
    try:
        while waiting or running:
            while waiting and (limit is None or len(running) < limit):
                job = waiting.pop(0)
                options = {
                    "name": f"game {job.index + 1}",
                    "num_cpus": _cpus(job),
                    "max_retries": retries,
                    "retry_exceptions": False,
                }
                running[task.options(**options).remote(job, __version__)] = job
            [done], _ = ray.wait(list(running), num_returns=1)
            job = running.pop(done)
            yield _result(ray, done, job, retries)
    except BaseException:
        for ref in running:
            ray.cancel(ref, force=True)
        raise
    finally:
        if started:
            ray.shutdown()


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise MatchError(f"--cluster needs Ray: {INSTALL}") from None
    return ray


def _connect(ray: Any, address: str) -> bool:
    """Connects this process to the cluster at ``address`` unless it already is; True if it
    did (and so must disconnect)."""
    if ray.is_initialized():
        return False
    _reachable(address)
    attempts = CLIENT_ATTEMPTS if address.startswith("ray://") else 1
    for attempt in range(1, attempts + 1):
        try:
            ray.init(address=None if address == "ray" else address, logging_level=logging.WARNING)
            break
        except Exception as e:
            # The server that the Ray client's proxy starts for each connection sometimes dies
            # as it starts (ray-project/ray#63202); the next connection starts another.
            if attempt < attempts and isinstance(e, ConnectionAbortedError):
                ray.shutdown()
                continue
            raise MatchError(f"cannot reach the Ray cluster {address!r}: {_first_line(e)}") from None
    return True


def _reachable(address: str, seconds: float = 10.0) -> None:
    """Fails at once, rather than after Ray's own wait of many minutes, when nothing answers
    at a ``host:port`` or ``ray://host:port`` address."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout=seconds).close()
    except OSError as e:
        raise MatchError(f"cannot reach the Ray cluster {address!r}: {e.strerror or e}") from None


def _result(ray: Any, ref: Any, job: GameJob, retries: int) -> GameResult:
    """The result of the task ``ref`` that played ``job``; its failure as a MatchError."""
    from ray import exceptions

    try:
        return ray.get(ref)  # type: ignore[no-any-return]
    except exceptions.RayTaskError as e:
        cause = e.cause if isinstance(e.cause, Exception) else e
        raise MatchError(f"game {job.index + 1}: {cause}") from None
    except exceptions.RayError as e:
        raise MatchError(
            f"game {job.index + 1} was lost {retries + 1} times (its worker or node died): {_first_line(e)}"
        ) from None


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def _cpus(job: GameJob) -> int:
    """The CPUs a game asks of the cluster: the most search threads either player uses."""
    return max(int(s.options.get("threads", 1)) if s.kind == "mcts" else 1 for s in job.specs)


def _play_on_worker(job: GameJob, version: str) -> GameResult:
    """The Ray task: checks that this node can play ``job``, then plays it in this worker."""
    if version != __version__:
        raise MatchError(
            f"{_where()} has hexengine {__version__} and the driver {version}: "
            "install the same version on every node"
        )
    for seat, spec in zip("AB", job.specs, strict=True):
        if spec.kind == "htp":
            words = shlex.split(spec.target)
            if not words or shutil.which(words[0]) is None:
                raise MatchError(
                    f"player {seat} ({spec.name}): no program {words[0] if words else ''!r} on {_where()}; "
                    "every node needs the engine at that path or on its PATH"
                )
    return play_kept(job)


def _where() -> str:
    """This worker, as an error message names it: host name and Ray node id."""
    import ray

    return f"Ray node {socket.gethostname()} (node id {ray.get_runtime_context().get_node_id()[:12]})"
