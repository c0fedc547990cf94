"""Shared test settings: Hypothesis profiles.

The property tests play hundreds of whole games, so the number of examples
is kept modest by default and can be raised for a thorough run:
``HYPOTHESIS_PROFILE=thorough .venv/bin/pytest``. The ``ci`` profile is
derandomized, so a CI run is repeatable and never flaky, and keeps no
example database; it is chosen by itself where ``CI`` is set, as CI sets it.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# Whole games are slow examples by Hypothesis' standards; a deadline would
# only measure how busy the shared machine is.
settings.register_profile(
    "default",
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    max_examples=200,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    max_examples=2_000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default"))
