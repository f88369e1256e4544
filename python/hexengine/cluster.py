"""Work on a Ray cluster: :func:`run_on_ray` runs picklable tasks as Ray tasks, runs a task
again when its worker dies, and yields the results as they finish. Matches and tournaments
(:mod:`hexengine.match.cluster`) and self-play (:func:`hexengine.selfplay`) use it for
``--cluster``.

``address`` says which cluster: ``"ray"`` calls ``ray.init()``, which joins the cluster that
``ray start`` runs on this machine or else starts one for the run; ``"auto"`` joins the running
cluster (``ray.init(address="auto")``, which reads ``RAY_ADDRESS``); ``"ray://host:10001"``
connects through the Ray client; ``"host:6379"`` joins the cluster at that address. A Ray
already initialised in this process is used as it is. A cluster started for the run is stopped
after it; one joined is left running.

A task whose worker dies (its process killed, its node lost) is run again by Ray, up to
``retries`` times (``max_retries``), and its result comes back once. Exceptions raised by the
task itself are not retried (``retry_exceptions=False``): the tasks given here turn what can go
wrong in a game into its result, so what escapes one is a setting that would fail again (a
program missing on a node, another hexengine version there), and it stops the run with its
message. Every node needs the driver's hexengine version, which each task checks first.

Ray is an optional dependency (``pip install 'hexengine[cluster]'``), imported only here and
only when a run asks for a cluster; without it :func:`ray_module` raises an error that says
what to install.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable, Generator, Sequence
from typing import Any, TypeVar

from ._version import __version__
from .errors import ConfigError, HexError

__all__ = ["INSTALL", "ray_module", "run_on_ray", "worker_name"]

INSTALL = "pip install 'hexengine[cluster]'"
# Connections tried through the Ray client before giving up (see _connect).
CLIENT_ATTEMPTS = 3

T = TypeVar("T")
R = TypeVar("R")


def ray_module(error: type[HexError] = ConfigError) -> Any:
    """The ``ray`` module; ``error`` saying what to install if it is missing."""
    try:
        import ray
    except ImportError:
        raise error(f"--cluster needs Ray: {INSTALL}") from None
    return ray


def run_on_ray(
    function: Callable[..., R],
    tasks: Sequence[T],
    *,
    address: str = "ray",
    shared: Sequence[Any] = (),
    limit: int | None = None,
    retries: int = 3,
    cpus: Callable[[T], int] | None = None,
    label: Callable[[T], str] = str,
    error: type[HexError] = ConfigError,
) -> Generator[tuple[T, R], None, None]:
    """Runs ``function(task, *shared)`` for each of ``tasks`` as a Ray task on the cluster at
    ``address`` and yields ``(task, result)`` pairs as they finish, in any order.

    ``function`` and the tasks must pickle (a function of an importable module, plain values);
    each of ``shared`` is sent to the cluster once, not with every task. At most ``limit``
    tasks run at once (default: as many as the cluster runs), each asking for ``cpus(task)``
    CPUs (default 1) and run again up to ``retries`` times if its worker dies. ``label(task)``
    names the task to Ray (its worker's process title is ``ray::`` and the label) and in
    errors: a task that fails, or is lost more often, stops the run with ``error``, its
    message starting with the label. Closing the generator (or an exception, Ctrl-C)
    cancels the tasks not finished.
    """
    ray = ray_module(error)
    started = _connect(ray, address, error)
    remote = ray.remote(_run_task)
    try:
        refs = [ray.put(value) for value in shared]
        waiting = list(tasks)
        waiting.reverse()
        running: dict[Any, T] = {}
        try:
            while waiting or running:
                while waiting and (limit is None or len(running) < limit):
                    task = waiting.pop()
                    options = {
                        "name": label(task),
                        "num_cpus": 1 if cpus is None else cpus(task),
                        "max_retries": retries,
                        "retry_exceptions": False,
                    }
                    running[remote.options(**options).remote(function, task, __version__, *refs)] = task
                [done], _ = ray.wait(list(running), num_returns=1)
                task = running.pop(done)
                yield task, _result(ray, done, label(task), retries, error)
        except BaseException:
            # A connection of our own ends with this run, and Ray then stops the tasks it still
            # runs. On a connection we were given, the unfinished tasks are cancelled; not with
            # force=True, which kills their workers and can crash this process when a task
            # finishes at the same moment (Ray 2.60: "Tried to complete task that was not
            # pending"). A game sees the cancellation between two moves.
            if not started:
                for ref in running:
                    ray.cancel(ref)
            raise
    finally:
        if started:
            ray.shutdown()


def worker_name() -> str:
    """This Ray worker, as an error message names it: its host name and Ray node id."""
    import ray

    return f"Ray node {socket.gethostname()} (node id {ray.get_runtime_context().get_node_id()[:12]})"


def _connect(ray: Any, address: str, error: type[HexError]) -> bool:
    """Connects this process to the cluster at ``address`` unless it already is; True if it
    did (and so must disconnect)."""
    if ray.is_initialized():
        return False
    _reachable(address, error)
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
            raise error(f"cannot reach the Ray cluster {address!r}: {_first_line(e)}") from None
    return True


def _reachable(address: str, error: type[HexError], seconds: float = 10.0) -> None:
    """Fails at once, rather than after Ray's own wait of many minutes, when nothing answers
    at a ``host:port`` or ``ray://host:port`` address."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout=seconds).close()
    except OSError as e:
        raise error(f"cannot reach the Ray cluster {address!r}: {e.strerror or e}") from None


def _result(ray: Any, ref: Any, label: str, retries: int, error: type[HexError]) -> Any:
    """The result of the task ``ref``; its failure as ``error``."""
    from ray import exceptions

    try:
        return ray.get(ref)
    except exceptions.RayTaskError as e:
        cause = e.cause if isinstance(e.cause, Exception) else e
        raise error(f"{label}: {cause}") from None
    except exceptions.RayError as e:
        raise error(
            f"{label} was lost {retries + 1} times (its worker or node died): {_first_line(e)}"
        ) from None


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def _run_task(function: Callable[..., Any], task: Any, version: str, *shared: Any) -> Any:
    """The Ray task: checks that this node has the driver's hexengine, then runs ``function``."""
    if version != __version__:
        raise ConfigError(
            f"{worker_name()} has hexengine {__version__} and the driver {version}: "
            "install the same version on every node"
        )
    return function(task, *shared)
