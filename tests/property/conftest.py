"""Hypothesis profiles for the property tests.

- `ci` (the default, and always when the CI variable is set): derandomized, so every run tries the same examples
  and a failure is reproducible from the log alone; no example database; no deadline (the machine is shared, speed
  is measured by benchmarks, never by tests); few enough examples that the whole tests/property directory stays
  within its time budget (about 30 s of CPU).
- `dev`: `HYPOTHESIS_PROFILE=dev pytest tests/property` — random examples, ten times as many, and failing examples
  remembered in `var/hypothesis/examples/` (git-ignored) so they are tried first on the next run.

The profile is picked once, here, before the test modules are imported; each test scales its example count from
it (`strategies.examples`). Hypothesis's own caches go to `var/hypothesis/`, never to `.hypothesis/` in the
repository root.
"""
from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis.configuration import set_hypothesis_home_dir
from hypothesis.database import DirectoryBasedExampleDatabase

ROOT = Path(__file__).resolve().parents[2]

# Hypothesis also caches unicode tables and source constants on disk: in var/ (git-ignored), not in .hypothesis/
# at the repository root. HYPOTHESIS_STORAGE_DIRECTORY still wins when set.
if not os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
    set_hypothesis_home_dir(ROOT / "var" / "hypothesis")

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=40,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "dev",
    derandomize=False,
    database=DirectoryBasedExampleDatabase(str(ROOT / "var" / "hypothesis" / "examples")),
    deadline=None,
    max_examples=400,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE") or "ci")
