"""Batched environments: hexengine's C++ VectorEnv against pgx, side by side in one run.

    pip install pgx               # optional; without it the pgx rows are skipped
    python bench/vector_env.py [--batch 1024] [--seconds 3] [--rounds 3] [--json out.json]

Steps per second (one step = one move in one game of the batch) of random
11x11 Hex games, the random legal actions drawn inside each timed loop:

- ``pgx``: ``pgx.make("hex")`` (11x11), ``jax.jit(jax.vmap(env.step))`` with
  ``jax.random.categorical`` on the legal-action mask, auto-reset as pgx's
  ``auto_reset`` does it, on the CPU (JAX's default device here), boolean
  observations; measured in a fresh child process each round, so that
  JAX's threads never share the CPUs with our rows: once with XLA's default
  threads (every core), once held to one core (``sched_setaffinity`` and
  XLA's single-thread flags, set before JAX starts); the ratios are against
  pgx on one core;
- ``hexengine, bool``: ``env.step(env.sample_actions())``, the actions drawn
  in C++, boolean observations like pgx's;
- ``hexengine, float32``: the same with float32 observations;
- ``hexengine, numpy picks``: the actions drawn by numpy from
  ``info["action_mask"]`` (a random number per legal action, the argmax per
  game), boolean observations;
- ``hexengine, 2 threads``: ``threads=2``, boolean observations (compare it
  with pgx on every core, the one-thread rows with pgx on one core);
- ``hexengine, dark``: classic Dark Hex 11x11, boolean observations.

The memory rows give the bytes of game state per environment in C++ and the
bytes of one step's outputs per environment (observation, mask, reward,
flags). Each rate is the median of ``--rounds`` timings, the rounds of all
rows interleaved.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import time
from collections.abc import Callable

import numpy as np

import hexengine as hx


def timed(step: Callable[[], None], seconds: float, batch: int) -> float:
    """Environment steps per second of ``step`` (one call steps ``batch`` games) over ``seconds``."""
    step()  # warm up (and compile, for pgx)
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        step()
        calls += 1
    return calls * batch / (time.perf_counter() - start)


def ours(batch: int, variant: str = "hex", **options: object) -> Callable[[], None]:
    env = hx.VectorEnv(variant, size=11, num_envs=batch, seed=1, **options)  # type: ignore[arg-type]
    env.reset()

    def step() -> None:
        env.step(env.sample_actions())

    return step


def ours_numpy(batch: int) -> Callable[[], None]:
    env = hx.VectorEnv("hex", size=11, num_envs=batch, seed=1)
    rng = np.random.default_rng(1)
    _, info = env.reset()
    state = {"mask": info["action_mask"]}

    def step() -> None:
        mask = state["mask"]
        actions = np.argmax(rng.random(mask.shape) * mask, axis=1)
        state["mask"] = env.step(actions)[4]["action_mask"]

    return step


def pgx_step(batch: int) -> Callable[[], None] | None:
    try:
        import jax
        import jax.numpy as jnp
        import pgx
    except ModuleNotFoundError:
        return None
    env = pgx.make("hex")
    init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))

    @jax.jit
    def play(state, key):  # type: ignore[no-untyped-def]
        key, pick, reset = jax.random.split(key, 3)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        actions = jax.random.categorical(pick, logits, axis=-1)
        state = step(state, actions)
        # Auto-reset the games that ended, as pgx.experimental.auto_reset does.
        fresh = init(jax.random.split(reset, batch))
        done = state.terminated | state.truncated
        state = jax.tree_util.tree_map(
            lambda new, old: jnp.where(done.reshape((-1,) + (1,) * (old.ndim - 1)), new, old), fresh, state
        )
        return state, key

    box = {"state": init(jax.random.split(jax.random.PRNGKey(0), batch)), "key": jax.random.PRNGKey(1)}

    def run() -> None:
        box["state"], box["key"] = play(box["state"], box["key"])
        box["state"].observation.block_until_ready()

    return run


def pgx_in_child(batch: int, seconds: float, one_core: bool) -> float | None:
    """pgx's rate measured in a fresh child process (so that JAX's threads never share the
    CPUs with our rows), held to one CPU if ``one_core``; None without pgx."""
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(_pgx_child, (batch, seconds, one_core))


def _pgx_child(batch: int, seconds: float, one_core: bool) -> float | None:
    if one_core:
        if not hasattr(os, "sched_setaffinity"):
            return None
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
        os.environ["XLA_FLAGS"] = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
    step = pgx_step(batch)
    return None if step is None else timed(step, seconds, batch)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--batch", type=int, default=1024, help="games per batch (default 1024)")
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one timing (default 3)")
    parser.add_argument("--rounds", type=int, default=3, help="timings a row, median shown (default 3)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    b = args.batch
    rows: dict[str, Callable[[], None] | None] = {
        "pgx, one core": None,
        "pgx, every core (XLA's threads)": None,
        "hexengine, bool": ours(b),
        "hexengine, float32": ours(b, dtype=np.float32),
        "hexengine, numpy picks": ours_numpy(b),
        "hexengine, 2 threads": ours(b, threads=2),
        "hexengine, dark": ours(b, "dark"),
    }
    rates: dict[str, list[float]] = {name: [] for name in rows}
    for _ in range(args.rounds):
        for name, step in rows.items():
            if step is None:
                rate = pgx_in_child(b, args.seconds, one_core=name == "pgx, one core")
                if rate is not None:
                    rates[name].append(rate)
            else:
                rates[name].append(timed(step, args.seconds, b))
    if not rates["pgx, one core"] and not rates["pgx, every core (XLA's threads)"]:
        print("pgx is not installed (pip install pgx): its rows are skipped")
    rates = {name: r for name, r in rates.items() if r}
    bases = [statistics.median(rates[n]) if n in rates else None for n in list(rows)[:2]]
    title = f"11x11, batch {b}, random legal actions"
    print(f"{title:<40}{'steps per second':>18}{'vs pgx 1 core':>15}{'vs pgx all':>12}")
    out = []
    for name in rates:
        rate = statistics.median(rates[name])
        ratios = [rate / base if base else None for base in bases]
        shown = "".join(
            f"{r:{w - 1}.1f}x" if r else f"{'-':>{w}}" for r, w in zip(ratios, (15, 12), strict=True)
        )
        print(f"{name:<40}{rate:>18,.0f}{shown}", flush=True)
        out.append(
            {"loop": name, "steps_per_second": rate, "vs_pgx_one_core": ratios[0], "vs_pgx_all": ratios[1]}
        )
    env = hx.VectorEnv("hex", size=11, num_envs=b)
    obs, info = env.reset()
    per_step = obs[0].nbytes + info["action_mask"][0].nbytes + info["to_play"][0].nbytes + 4 + 2
    print(
        f"memory per environment: {env.bytes_per_env:,} bytes of game state; "
        f"{per_step:,} bytes of outputs a step"
    )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            figures = {"rows": out, "bytes_per_env": env.bytes_per_env, "output_bytes": per_step}
            json.dump(figures, f, indent=1)


if __name__ == "__main__":
    main()
