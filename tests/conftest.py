"""Shared test settings.

Hypothesis runs without a deadline: timings on shared CI machines say nothing
about correctness. ``HYPOTHESIS_PROFILE=ci`` also derandomizes, so a CI run
replays the same examples every time.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
