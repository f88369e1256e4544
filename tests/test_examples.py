"""The examples people copy from still run and still do what they say."""

from __future__ import annotations

import numpy as np
from _scripts import load_script


def load(name: str):  # type: ignore[no-untyped-def]
    return load_script(f"examples/{name}.py")


def test_the_5x5_training_script_learns_to_beat_the_random_bot() -> None:
    """A short run of examples/train_5x5.py: the trained policy wins clearly more than the
    untrained one (every weight 0, so it always plays the first legal cell: half its games)."""
    example = load("train_5x5")
    untrained = example.LinearPolicy(len(example.hx.PLANES) * 25, np.random.default_rng(0))
    before = example.score_against_random(untrained, 200, seed=1)
    policy = example.train(iterations=30, envs=128, steps=8, lr=0.5, seed=0)
    after = example.score_against_random(policy, 200, seed=1)
    assert after >= 0.75 and after >= before + 0.15, (before, after)
