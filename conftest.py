"""Root pytest configuration, loaded before any test module is imported:

- test-safe environment defaults before Django loads its settings;
- the Hypothesis profiles (below). They are registered and loaded here, not in a folder's conftest, because a
  `@settings` made at import time (tests.property.strategies.examples) takes the profile loaded at that moment:
  a test module imported before tests/property/conftest.py (tests/builder/test_roster.py) used to run with
  Hypothesis's own defaults, among them its 200 ms deadline, and failed on a busy machine.

Hypothesis profiles:
- `ci` (the default, and always when the CI variable is set): derandomized, so every run tries the same examples
  and a failure is reproducible from the log alone; no example database; no deadline (the machine is shared, speed
  is measured by benchmarks, never by tests); few enough examples that the whole tests/property directory stays
  within its time budget (about 30 s of CPU).
- `dev`: `HYPOTHESIS_PROFILE=dev pytest tests/property` — random examples, ten times as many, and failing examples
  remembered in `var/hypothesis/examples/` (git-ignored) so they are tried first on the next run.

Each test scales its example count from the loaded profile (`tests.property.strategies.examples`). Hypothesis's
own caches go to `var/hypothesis/`, never to `.hypothesis/` in the repository root.
"""
import os
from pathlib import Path

os.environ.setdefault("HANGAR_INSECURE_DEV_KEY", "1")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hangar.settings")

from hypothesis import HealthCheck, settings  # noqa: E402  (after the environment defaults)
from hypothesis.configuration import set_hypothesis_home_dir  # noqa: E402
from hypothesis.database import DirectoryBasedExampleDatabase  # noqa: E402

ROOT = Path(__file__).resolve().parent

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

pytest_plugins = ["pytester"]  # tests/test_suite.py runs small suites of its own to check the suite's own checks
