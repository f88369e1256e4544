"""The examples people copy from still run and still do what they say."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def load(name: str):  # type: ignore[no-untyped-def]
    path = EXAMPLES / f"{name}.py"
    if not path.exists():
        pytest.skip("the examples are not next to the tests (installed without the source tree)")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_5x5_training_script_learns_to_beat_the_random_bot() -> None:
    """A short run of examples/train_5x5.py: the trained policy wins clearly more than the
    untrained one (every weight 0, so it always plays the first legal cell: half its games)."""
    example = load("train_5x5")
    untrained = example.LinearPolicy(len(example.hx.PLANES) * 25, np.random.default_rng(0))
    before = example.score_against_random(untrained, 200, seed=1)
    policy = example.train(iterations=30, envs=128, steps=8, lr=0.5, seed=0)
    after = example.score_against_random(policy, 200, seed=1)
    assert after >= 0.75 and after >= before + 0.15, (before, after)
