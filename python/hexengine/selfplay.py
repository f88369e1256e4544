"""Self-play data for training networks: :class:`~hexengine.MCTSBot` against itself, every
position recorded with what the search thought of it.

>>> import tempfile
>>> out = tempfile.mkdtemp()
>>> result = hx.selfplay(out, variant="hex", size=4, swap="off", games=3, simulations=50, games_per_shard=2)
>>> result.games, result.shards, result.red_wins + result.blue_wins
(3, 2, 3)
>>> data = hx.read_selfplay(out)
>>> data["planes"].shape[1:], data["policy"].shape[1], sorted(set(data["game"].tolist()))
((9, 4, 4), 17, [0, 1, 2])

Games start from the empty board. Without an evaluator the bot runs its playout
search (no root noise: that search has none); with ``onnx=`` (a model for
:class:`~hexengine.OnnxEvaluator`) or ``evaluator="module:function"`` it runs the
evaluator search (PUCT) with Dirichlet noise at the root: ``noise_fraction`` 0.25
of the priors replaced by noise of ``noise_alpha``, by default 10 divided by the
number of cells (the legal moves of the empty board: 0.2 on 7x7, 0.08 on 11x11),
fixed through the game. For the first ``temperature_moves`` moves (default a third
of the cells, rounded down) the move is drawn in proportion to the root's visits
(temperature 1), afterwards the bot's own choice (the most visited move). A move the
search plays without searching (``Analysis.forced``: a win in one, a block, a proven
win...) is played as it is and recorded as the whole of the distribution; so is the
swap when the playout search takes it (it values the swap without visiting it).

Every searched position becomes a row of these arrays (``A = rows * cols + 1``
actions, the swap last; ``P = len(hx.PLANES)``):

- ``planes`` float32 ``(N, P, rows, cols)``: :meth:`View.planes <hexengine.View.planes>`
  of the player to move (in Dark Hex their own view, never the true board);
- ``mask`` bool ``(N, A)``: the legal actions, :meth:`View.action_mask <hexengine.View.action_mask>`;
- ``policy`` float32 ``(N, A)``: the root's visits over the actions, summing to 1;
- ``outcome`` float32 ``(N,)``: +1 if the player to move won the game, -1 if they lost;
- ``game`` int32 ``(N,)``: the game's id (0, 1, ... in the order played);
- ``move`` int32 ``(N,)``: the move's number in the game (``len(game.history)`` before it);
- ``action`` int32 ``(N,)``: the action played (:func:`hexengine.action_of`);
- ``color`` int8 ``(N,)``: the player to move, 1 Red, 2 Blue.

They go to ``out/shard-00000.npz``, ... (``games_per_shard`` games each, written with
``np.savez_compressed`` to a temporary file that is then renamed), and
``out/manifest.json`` lists the settings, the shards and the games. Running again
with the same ``out`` and settings continues after the games already there: game
``i`` is seeded from ``(seed, i)`` alone, so N games and then a second run to 2N give
the same data as one run of 2N (with ``threads=1``; several search threads make no
two searches alike). Other settings than ``games`` are an error. Ctrl-C (the
search turns it into ``KeyboardInterrupt``) discards the game under way, saves the
finished ones and raises again.

With ``cluster=`` (an address as for matches: ``"ray"``, ``"auto"``, ``"ray://host:port"``
or ``"host:port"``, see :mod:`hexengine.cluster`) each game is a task on a Ray cluster, as many
at once as the cluster runs (each asking for ``threads`` CPUs), and a game whose worker dies
is played again. This process still writes the folder: it takes the games in their order as
they come back, so the shards are those of a local run (the same bytes with ``threads=1``),
and a run stopped is continued in the same way, here or on the cluster (games finished after
one still under way are played again). An ONNX model is read here and sent to the cluster
once; each worker process writes it to a file of its own (in its temporary folder, named by
its SHA-256) and loads it once. An ``evaluator=`` function is imported on the workers, so its
module must be importable on every node. Every node needs hexengine (with ``[nn]`` for ONNX)
at this version.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ._moves import SWAP, action_of
from .bots import MCTSBot
from .cluster import ray_module, run_on_ray, worker_name
from .errors import ConfigError
from .game import PLANES, Game
from .networks import load_evaluator, network_path
from .rules import RED, Rules

__all__ = ["SelfplayResult", "read_selfplay", "selfplay"]

MANIFEST = "manifest.json"
# What the arrays of a shard are called, in the order the module docstring lists them.
ARRAYS = ("planes", "mask", "policy", "outcome", "game", "move", "action", "color")
_FORMAT = 1


@dataclass
class SelfplayResult:
    """What a self-play folder holds: ``games`` finished (``new`` of them by this run, of
    ``planned``), ``positions`` recorded, ``shards`` files, wins by colour, and the seconds
    spent playing (over every run)."""

    out: str
    games: int
    planned: int
    positions: int
    shards: int
    red_wins: int
    blue_wins: int
    seconds: float
    new: int = 0
    settings: dict[str, Any] = field(default_factory=dict, repr=False)

    def summary(self) -> str:
        """One line: games, positions, shards, seconds and wins by colour."""
        new = f" ({self.new} new)" if self.new != self.games else ""
        return (
            f"{self.games} games{new}, {self.positions:,} positions in {self.shards} shards, "
            f"{self.seconds:.1f} s; Red won {self.red_wins}, Blue {self.blue_wins} ({self.out})"
        )


def selfplay(
    out: str | os.PathLike[str],
    *,
    variant: str = "hex",
    size: int = 7,
    rows: int | None = None,
    cols: int | None = None,
    swap: str | None = None,
    games: int = 200,
    simulations: int = 400,
    onnx: str | os.PathLike[str] | None = None,
    evaluator: str | None = None,
    threads: int = 1,
    seed: int = 0,
    temperature_moves: int | None = None,
    noise_fraction: float = 0.25,
    noise_alpha: float | None = None,
    games_per_shard: int = 50,
    progress: Callable[[SelfplayResult], None] | None = None,
    cluster: str | None = None,
) -> SelfplayResult:
    """Plays self-play games into ``out`` until it holds ``games`` (see the module's text).

    ``onnx`` or ``evaluator`` (``"module:function"``) choose the evaluator search;
    ``noise_fraction`` and ``noise_alpha`` are its root noise. ``progress`` is called
    after each game with the folder's totals so far. ``cluster`` plays the games on a Ray
    cluster at that address.
    """
    rules = Rules(variant, rows if rows is not None else size, cols if cols is not None else size, swap)
    cells = rules.rows * rules.cols
    for name, value in (("games", games), ("simulations", simulations), ("games_per_shard", games_per_shard)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ConfigError(f"{name} must be a positive whole number, not {value!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ConfigError(f"seed must be a whole number of at least 0, not {seed!r}")
    if cluster is not None:
        ray_module()  # says what to install, before anything is written
    fn = load_evaluator(onnx=onnx, evaluator=evaluator)
    model = None if onnx is None else Path(network_path(onnx)).read_bytes()
    settings: dict[str, Any] = {
        "format": _FORMAT,
        "variant": str(rules.variant),
        "rows": rules.rows,
        "cols": rules.cols,
        "swap": str(rules.swap),
        "search": "playout" if fn is None else "evaluator",
        "simulations": simulations,
        "threads": threads,
        "seed": seed,
        "temperature_moves": cells // 3 if temperature_moves is None else temperature_moves,
        "games_per_shard": games_per_shard,
        "onnx": None if onnx is None else os.fspath(onnx),
        "onnx_sha256": None if model is None else hashlib.sha256(model).hexdigest(),
        "evaluator": evaluator,
    }
    if fn is not None:
        settings["noise_fraction"] = noise_fraction
        settings["noise_alpha"] = 10.0 / cells if noise_alpha is None else noise_alpha

    def job(game_id: int) -> _Job:
        return _Job(
            game_id,
            rules,
            seed,
            simulations,
            threads,
            settings["temperature_moves"],
            None if fn is None else (settings["noise_fraction"], settings["noise_alpha"]),
            evaluator,
            settings["onnx_sha256"],
        )

    _bot(job(0), fn, 0)  # refuses bad search settings before anything is written
    folder = Path(out)
    manifest = _read_manifest(folder)
    if manifest is None:
        folder.mkdir(parents=True, exist_ok=True)
        manifest = {"settings": settings, "shards": [], "seconds": 0.0}
        _write_json(folder / MANIFEST, manifest)
    else:
        _check_settings(folder, manifest["settings"], settings)
    # The shards written for good, and the games of the open one (perhaps written in part).
    closed: list[dict[str, Any]] = list(manifest["shards"])
    buffer: list[dict[str, np.ndarray]] = []
    if closed and closed[-1]["games"] < games_per_shard and sum(s["games"] for s in closed) < games:
        buffer = _split_games(_read_shard(folder, closed.pop()))  # a shard cut short is completed
    unsaved = 0
    started, spent_before, new = time.perf_counter(), float(manifest["seconds"]), 0

    def result() -> SelfplayResult:
        return SelfplayResult(
            out=os.fspath(out),
            games=sum(s["games"] for s in closed) + len(buffer),
            planned=games,
            positions=sum(s["positions"] for s in closed) + sum(len(g["outcome"]) for g in buffer),
            shards=len(closed) + (1 if buffer else 0),
            red_wins=sum(s["red_wins"] for s in closed) + sum(_won_by_red(g) for g in buffer),
            blue_wins=sum(s["blue_wins"] for s in closed) + sum(1 - _won_by_red(g) for g in buffer),
            seconds=spent_before + time.perf_counter() - started,
            new=new,
            settings=settings,
        )

    def save() -> None:
        nonlocal unsaved
        if not unsaved:
            return
        name = f"shard-{len(closed):05d}.npz"
        arrays = {k: np.concatenate([g[k] for g in buffer]) for k in ARRAYS}
        _write_npz(folder / name, arrays)
        shard = {
            "file": name,
            "first_game": int(arrays["game"][0]),
            "games": len(buffer),
            "positions": len(arrays["outcome"]),
            "red_wins": sum(_won_by_red(g) for g in buffer),
            "blue_wins": sum(1 - _won_by_red(g) for g in buffer),
        }
        manifest["shards"] = [*closed, shard]
        manifest["seconds"] = spent_before + time.perf_counter() - started
        _write_json(folder / MANIFEST, manifest)
        unsaved = 0
        if len(buffer) == games_per_shard:
            closed.append(shard)
            buffer.clear()

    first = sum(s["games"] for s in closed) + len(buffer)
    jobs = [job(game_id) for game_id in range(first, games)]
    if not jobs:
        played: Generator[tuple[_Job, dict[str, np.ndarray]], None, None] = (p for p in ())
    elif cluster is None:
        played = ((j, _play_job(j, fn)) for j in jobs)
    else:
        played = run_on_ray(
            _play_on_worker,
            jobs,
            address=cluster,
            shared=() if model is None else (model,),
            cpus=lambda j: j.threads,
            label=lambda j: f"self-play game {j.game_id}",
        )
    # Games come back in any order from a cluster; they join the shards in their own.
    early: dict[int, dict[str, np.ndarray]] = {}
    try:
        with contextlib.closing(played):
            for finished, arrays in played:
                early[finished.game_id] = arrays
                while first + new in early:
                    buffer.append(early.pop(first + new))
                    new += 1
                    unsaved += 1
                    if len(buffer) == games_per_shard:
                        save()
                    if progress is not None:
                        progress(result())
    finally:
        save()  # after the last game, or after Ctrl-C discarded the games under way
    return result()


@dataclass(frozen=True)
class _Job:
    """One self-play game, fully specified by plain values (so it pickles for a Ray worker):
    ``noise`` is the root noise's fraction and alpha (for the evaluator search), ``evaluator``
    and ``onnx_sha256`` name the evaluator."""

    game_id: int
    rules: Rules
    seed: int
    simulations: int
    threads: int
    temperature_moves: int
    noise: tuple[float, float] | None
    evaluator: str | None
    onnx_sha256: str | None


def _bot(job: _Job, fn: Callable[..., Any] | None, seed: int) -> MCTSBot:
    """The bot of ``job``'s settings with the evaluator ``fn`` (None: the playout search)."""
    if fn is None:
        return MCTSBot(simulations=job.simulations, threads=job.threads, seed=seed)
    assert job.noise is not None
    return MCTSBot(
        evaluator=fn,
        simulations=job.simulations,
        threads=job.threads,
        seed=seed,
        noise_fraction=job.noise[0],
        noise_alpha=job.noise[1],
    )


def _play_job(job: _Job, fn: Callable[..., Any] | None) -> dict[str, np.ndarray]:
    """The rows of ``job``'s game, seeded from ``(seed, game_id)`` alone."""
    rng = np.random.default_rng([job.seed, job.game_id])
    bot = _bot(job, fn, int(rng.integers(2**63)))
    return _play(job.rules, bot, rng, job.temperature_moves, job.game_id)


# A Ray worker process's evaluators, loaded once each, by model digest or function name.
_worker_evaluators: dict[str, Callable[..., Any]] = {}


def _play_on_worker(job: _Job, model: bytes | None = None) -> dict[str, np.ndarray]:
    """The Ray task of a game: plays ``job`` with its evaluator, loaded in this worker process
    from ``model`` (an ONNX model's bytes) or by importing ``job.evaluator``."""
    key = job.onnx_sha256 or job.evaluator
    if key is not None and key not in _worker_evaluators:
        try:
            if model is not None:
                path = Path(tempfile.gettempdir()) / f"hexengine-{job.onnx_sha256}.onnx"
                if not path.exists():
                    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
                    temporary.write_bytes(model)
                    os.replace(temporary, path)
                _worker_evaluators[key] = load_evaluator(onnx=path)  # type: ignore[assignment]
            else:
                _worker_evaluators[key] = load_evaluator(evaluator=job.evaluator)  # type: ignore[assignment]
        except (ConfigError, ModuleNotFoundError, OSError) as e:
            raise ConfigError(f"{worker_name()}: {e}") from None
    return _play_job(job, None if key is None else _worker_evaluators[key])


def read_selfplay(out: str | os.PathLike[str]) -> dict[str, np.ndarray]:
    """Every position of the self-play folder ``out``, its shards' arrays concatenated
    (see the module's text for what each holds)."""
    folder = Path(out)
    manifest = _read_manifest(folder)
    if manifest is None:
        raise ConfigError(f"{os.fspath(out)!r} holds no self-play ({MANIFEST} is missing)")
    parts = [_read_shard(folder, shard) for shard in manifest["shards"]]
    if not parts:
        return _game_arrays([], manifest["settings"]["rows"], manifest["settings"]["cols"])
    return {k: np.concatenate([p[k] for p in parts]) for k in ARRAYS}


def _play(
    rules: Rules, bot: MCTSBot, rng: np.random.Generator, temperature_moves: int, game_id: int
) -> dict[str, np.ndarray]:
    """One self-play game's rows."""
    game = Game(rules)
    cells = rules.rows * rules.cols
    rows: list[tuple[np.ndarray, np.ndarray, np.ndarray, int, int, int]] = []
    while not game.is_over:
        color = game.to_move
        assert color is not None
        view = game.view(color)
        analysis = bot.analyse(view)
        policy = np.zeros(cells + 1, np.float64)
        policy[:cells] = analysis.visits.ravel()
        policy[cells] = analysis.swap_visits
        move_number = len(game.history)
        chosen = action_of(analysis.move, rules)
        if analysis.forced or policy.sum() == 0 or (analysis.move == SWAP and analysis.swap_visits == 0):
            policy[:] = 0.0
            policy[chosen] = 1.0
        policy /= policy.sum()
        if move_number < temperature_moves and policy[chosen] < 1.0:
            chosen = int(rng.choice(cells + 1, p=policy))
        rows.append(
            (view.planes(), view.action_mask(), policy.astype(np.float32), move_number, chosen, int(color))
        )
        game.apply(chosen)
    winner = game.winner
    arrays = _game_arrays(rows, rules.rows, rules.cols)
    arrays["outcome"] = np.where(arrays["color"] == int(winner), 1.0, -1.0).astype(np.float32)  # type: ignore[arg-type]
    arrays["game"][:] = game_id
    return arrays


def _game_arrays(rows: list[tuple[Any, ...]], height: int, width: int) -> dict[str, np.ndarray]:
    """The arrays of one game's rows ``(planes, mask, policy, move, action, color)``."""
    n, actions = len(rows), height * width + 1
    return {
        "planes": np.array([r[0] for r in rows], np.float32).reshape(n, len(PLANES), height, width),
        "mask": np.array([r[1] for r in rows], bool).reshape(n, actions),
        "policy": np.array([r[2] for r in rows], np.float32).reshape(n, actions),
        "outcome": np.zeros(n, np.float32),
        "game": np.zeros(n, np.int32),
        "move": np.array([r[3] for r in rows], np.int32),
        "action": np.array([r[4] for r in rows], np.int32),
        "color": np.array([r[5] for r in rows], np.int8),
    }


def _won_by_red(arrays: dict[str, np.ndarray]) -> int:
    """1 if Red won the game of ``arrays`` (the first mover is Red, and +1 is the mover's win)."""
    return int((arrays["color"][0] == int(RED)) == (arrays["outcome"][0] > 0))


def _split_games(arrays: dict[str, np.ndarray]) -> list[dict[str, np.ndarray]]:
    """One shard's arrays cut into its games, in order."""
    starts = np.flatnonzero(np.diff(arrays["game"], prepend=-1))
    ends = [*starts[1:], len(arrays["game"])]
    return [{k: v[a:b] for k, v in arrays.items()} for a, b in zip(starts, ends, strict=True)]


def _read_shard(folder: Path, shard: dict[str, Any]) -> dict[str, np.ndarray]:
    """A shard's arrays, cut to the games the manifest lists (a file renamed into place
    just before a crash may hold more)."""
    with np.load(folder / shard["file"]) as data:
        arrays = {k: data[k] for k in ARRAYS}
    keep = arrays["game"] < shard["first_game"] + shard["games"]
    return {k: v[keep] for k, v in arrays.items()}


def _read_manifest(folder: Path) -> dict[str, Any] | None:
    path = folder / MANIFEST
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]
    except (OSError, ValueError) as e:
        raise ConfigError(f"cannot read {os.fspath(path)!r}: {e}") from None


def _check_settings(folder: Path, there: dict[str, Any], here: dict[str, Any]) -> None:
    differ = [k for k in sorted(set(there) | set(here)) if there.get(k) != here.get(k)]
    if differ:
        details = "; ".join(f"{k} {there.get(k)!r} there, {here.get(k)!r} here" for k in differ)
        raise ConfigError(
            f"{os.fspath(folder)!r} holds self-play of other settings ({details}): "
            "give the same settings to continue it, or another folder"
        )


def _write_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(temporary, "wb") as f:
        np.savez_compressed(f, **arrays)  # type: ignore[arg-type]
    os.replace(temporary, path)


def _write_json(path: Path, data: dict[str, Any]) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    os.replace(temporary, path)
