"""Fixtures shared by the whole suite, the order of the tests and the `services` / `serial` markers' checks."""
import os
from typing import Any, Callable

import pytest
from django.contrib.auth import get_user_model

from cards.selectors import catalog_forget
from tests.support.service_marks import check_service_marks, fail_unmarked

PASSWORD = "hangar-Test-pw-42"  # every test user's password

RESTARTS_A_SERVICE = {"restartable_redis", "restartable_postgres"}  # tests/services/conftest.py


# The longest tests, started first: pytest-xdist's processes then end together on short tests instead of one
# finishing a crawl alone for minutes (`dev.py test` lists the 25 slowest after each run). The fuzz module comes
# first and stays whole in the first process's block: its last test counts the requests that the four before it
# sent in the same process.
SLOW_FIRST = (
    "tests/fuzz/test_api_fuzz.py",
    "tests/browser/test_layout.py",
    "tests/property/test_sheet_import.py",
    "tests/security/test_csrf.py",
    "tests/web/test_every_word.py",
    "tests/rules_engine/test_position_warcaster.py",
    "tests/services/test_simulation_workers.py",
    "tests/browser/",
)


def _slow_rank(item) -> int:
    path = item.nodeid.split("::", 1)[0]
    return next((rank for rank, prefix in enumerate(SLOW_FIRST) if path.startswith(prefix)), len(SLOW_FIRST))


def pytest_collection_modifyitems(session, config, items) -> None:
    """A test that needs the real services must be marked `services` (else CI's second pass, which runs only
    those, would never run it against PostgreSQL and Redis): the collection fails, naming it
    (tests.support.service_marks). Then the slowest files first, in SLOW_FIRST's order; within a file and for
    the rest, the order collected."""
    check_service_marks(items, config)
    items.sort(key=_slow_rank)  # sort is stable


def pytest_runtest_setup(item) -> None:
    """Under pytest-xdist the collection check above fails each unmarked test here, with its message."""
    fail_unmarked(item)


REQUIRE_SERVICES = os.environ.get("HANGAR_REQUIRE_SERVICES") == "1"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """With HANGAR_REQUIRE_SERVICES=1 (CI's second pass) a `services` test never skips: a skip there means a
    service is missing, and it fails instead, with the skip's reason."""
    outcome = yield
    report = outcome.get_result()
    if (REQUIRE_SERVICES and report.skipped and not hasattr(report, "wasxfail")
            and item.get_closest_marker("services") is not None):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"HANGAR_REQUIRE_SERVICES=1: a `services` test may not skip ({reason})"


def pytest_itemcollected(item) -> None:
    """A test that restarts the shared PostgreSQL or Redis is `serial`: `dev.py test` runs it alone, after the
    parallel processes (a restart would cut their connections mid-test)."""
    if RESTARTS_A_SERVICE & set(getattr(item, "fixturenames", ())):
        item.add_marker(pytest.mark.serial)


@pytest.fixture(autouse=True)
def _fresh_catalog_cache():
    """Every test starts with no cached catalog: a rolled-back import in an earlier test must not leak."""
    catalog_forget()
    yield
    catalog_forget()


@pytest.fixture(autouse=True)
def _free_games_for_the_chunk_probe(monkeypatch):
    """At submit a run's chunk size is measured by timing its first games (builder.services.runs_submit
    CHUNK_PROBE_CLOCK): on a loaded test machine a slow moment would cut a run into more chunks than a test counts
    on. Here the probe's games cost nothing, so every run gets its simulator's size; the tests of the probe itself
    (tests/builder/test_simulation_chunk_cost.py) set clocks of their own."""
    from builder.services import runs_submit

    monkeypatch.setattr(runs_submit, "CHUNK_PROBE_CLOCK", lambda: 0.0)


@pytest.fixture(autouse=True)
def _fast_password_hashes(settings):
    """Every test makes and signs in users with a fast hasher: the site's own (PBKDF2) costs 0.4 s a password,
    seconds a test that makes a few players. The hasher is no behaviour under test (docs/testing.md)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def make_user(db) -> Callable[[str], Any]:
    def make(username: str):
        return get_user_model().objects.create_user(username=username, password=PASSWORD)

    return make


@pytest.fixture
def owner(make_user):
    return make_user("owner")


@pytest.fixture
def other(make_user):
    return make_user("other")


@pytest.fixture
def staff(make_user):
    """A staff member (is_staff): the permission matrix's staff actor, the data import page's user."""
    user = make_user("staff")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    return user
