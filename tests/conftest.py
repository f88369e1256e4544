"""Shared test settings.

Hypothesis runs without a deadline: timings on shared CI machines say nothing
about correctness. ``HYPOTHESIS_PROFILE=ci`` also derandomizes, so a CI run
replays the same examples every time.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

import hexengine as hx

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def fast_computer_bot(level: str, rules: hx.Rules, seed: int | None = None) -> object:
    """Computer seats for table tests: the real bot on a tiny budget, so sessions
    of many games stay fast (the real levels are tested in test_table)."""
    return hx.MCTSBot(simulations=30, seed=seed or 0, allow_swap=level != "easy")


@pytest.fixture(autouse=True)
def _fast_table_bots(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if request.module.__name__.startswith("test_table") and "real_bots" not in request.keywords:
        monkeypatch.setattr("hexengine.table.table.computer_bot", fast_computer_bot)
