"""The test suite's own rules (docs/testing.md): a test that needs the real services is marked `services`, or the
collection fails; under HANGAR_REQUIRE_SERVICES=1 such a test never skips; the Hypothesis profile (no deadline)
is loaded before any test module, whichever imports Hypothesis first."""
from __future__ import annotations

import inspect
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from tests.support.service_marks import unmarked_service_tests

ROOT = Path(__file__).resolve().parents[1]

# A small project of its own: the check of tests/conftest.py, and fixtures shaped like the real ones.
CONFTEST = '''
import os
import pytest
from tests.support.service_marks import check_service_marks, fail_unmarked

REQUIRE_SERVICES = os.environ.get("HANGAR_REQUIRE_SERVICES") == "1"

def pytest_collection_modifyitems(config, items):
    check_service_marks(items, config)

def pytest_runtest_setup(item):
    fail_unmarked(item)

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if REQUIRE_SERVICES and report.skipped and item.get_closest_marker("services") is not None:
        report.outcome = "failed"
        report.longrepr = "a services test may not skip"

class Workers:
    def __init__(self, count):
        self.count = count

@pytest.fixture
def workers():
    return Workers(2)  # what tests/services/conftest.py's fixture does: start worker processes
'''
INI = "[pytest]\nmarkers =\n    services: needs the real services\n"


# Test bodies that use a service without a fixture (here, not in a test's own source: the check reads that).
BODIES = [
    ("from django.db import connection\n\ndef test_t():\n    if connection.vendor == 'postgresql':\n        pass\n",
     "depends on the database it runs on"),
    ("from tests.support.services import redis_restart\n\ndef test_t():\n    redis_restart()\n",
     "restarts the shared Redis"),
    ("from tests.support.own_redis import OwnRedis\n\ndef test_t(tmp_path):\n    OwnRedis(tmp_path)\n",
     "starts and stops a Redis server"),
    ("import threading\n\ndef test_t():\n    threading.Barrier(2)\n", "sends requests in parallel"),
]


def project(pytester, source: str) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makeini(INI)
    pytester.makepyfile(test_example=source)
    pytester._monkeypatch.setenv("PYTHONPATH", str(ROOT))


def run(pytester, source: str, *args: str):
    project(pytester, source)
    return pytester.runpytest_inprocess("-p", "no:django", "-p", "no:xdist", "-p", "no:cacheprovider", *args)


def test_an_unmarked_test_that_starts_workers_fails_the_collection_naming_it(pytester):
    result = run(pytester, "def test_plays_on_workers(workers):\n    assert workers.count == 2\n")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*1 test(s) need the real services but are not marked `services`*",
                                 "*test_example.py::test_plays_on_workers: starts Celery worker processes*"])


def test_the_same_test_marked_services_runs(pytester):
    result = run(pytester, "import pytest\n\n@pytest.mark.services\ndef test_plays_on_workers(workers):\n"
                           "    assert workers.count == 2\n")
    result.assert_outcomes(passed=1)


@pytest.mark.parametrize("body,why", BODIES, ids=["vendor", "redis-restart", "own-redis", "parallel"])
def test_an_unmarked_test_that_depends_on_a_service_in_its_body_fails_the_collection(pytester, body, why):
    result = run(pytester, body, "--collect-only")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*test_example.py::test_t: {why}*"])


def test_under_xdist_an_unmarked_test_fails_with_the_message(pytester):
    """In a pytest-xdist process (`dev.py test`) the collection cannot stop with a message: the test fails."""
    project(pytester, BODIES[0][0] + "\ndef test_other():\n    pass\n")
    result = pytester.runpytest_subprocess("-p", "no:django", "-p", "no:cacheprovider", "-n", "1")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*test_example.py::test_t: depends on the database it runs on*"])


def test_a_services_test_that_skips_fails_when_the_services_are_required(pytester):
    source = "import pytest\n\n@pytest.mark.services\ndef test_t():\n    pytest.skip('no Redis here')\n"
    pytester._monkeypatch.delenv("HANGAR_REQUIRE_SERVICES", raising=False)  # CI's second pass sets it
    run(pytester, source).assert_outcomes(skipped=1)
    pytester._monkeypatch.setenv("HANGAR_REQUIRE_SERVICES", "1")
    pytester.makepyfile(test_example=source)
    pytester.runpytest_inprocess("-p", "no:django", "-p", "no:xdist", "-p", "no:cacheprovider").assert_outcomes(
        failed=1)


def test_this_suite_marks_every_test_that_needs_the_services(request):
    """The same check over what this run collected (the whole suite in `dev.py test`)."""
    assert unmarked_service_tests(request.session.items) == []


def test_the_hypothesis_profile_is_loaded_before_any_test_module():
    """tests/builder/test_roster.py is imported before tests/property/: its property test has no deadline either
    (a 200 ms deadline failed it on a busy machine) and the ci profile's example count."""
    from tests.builder import test_roster

    assert settings.default.deadline is None and settings.default.derandomize
    given = [f for f in vars(test_roster).values() if inspect.isfunction(f) and hasattr(f, "hypothesis")]
    assert given
    for function in given:
        assert function._hypothesis_internal_use_settings.deadline is None, function.__name__
    assert "tests.property.conftest" not in sys.modules


def _catalog_rows() -> dict:
    """Every row of the catalog tables, without the times the import stamps (auto_now / auto_now_add) and with
    the package's system and slug instead of the keys (PostgreSQL hands out new ids after a rollback)."""
    from django.db.models import DateTimeField, ForeignKey

    from tests.support.bundled_catalog import MODELS

    rows = {}
    for model in MODELS:
        left_out = {f.attname for f in model._meta.fields
                    if isinstance(f, DateTimeField) and (f.auto_now or f.auto_now_add)}
        left_out |= {model._meta.pk.attname} | {f.attname for f in model._meta.fields if isinstance(f, ForeignKey)}
        named = [name for name in ("system__slug", "package__slug") if name.split("__")[0] in
                 {f.name for f in model._meta.fields}]
        rows[model.__name__] = sorted(
            (sorted((k, repr(v)) for k, v in row.items() if k not in left_out)
             for row in model.objects.values(*[f.attname for f in model._meta.fields], *named)))
    return rows


@pytest.mark.django_db
def test_the_copied_bundled_catalog_is_what_load_packages_writes(monkeypatch):
    """tests.support.bundled_catalog imports the bundled packages once per process and copies the rows into the
    next tests: the copy is row for row what the real command writes, and a second copy raises no key conflict
    (primary keys and, on PostgreSQL, their sequences)."""
    from django.core.management import call_command
    from django.db import transaction

    from cards.models import Card
    from tests.support import bundled_catalog

    monkeypatch.setattr(bundled_catalog, "_copy", {"key": None, "rows": None})
    with transaction.atomic():
        call_command("load_packages", verbosity=0)
        real = _catalog_rows()
        transaction.set_rollback(True)
    copies = []
    for _ in range(3):  # the import, then two copies
        with transaction.atomic():
            bundled_catalog.load_bundled_catalog()
            copies.append(_catalog_rows())
            Card.objects.create(system=Card.objects.first().system, package=Card.objects.first().package,
                                code="ZZ-COPY", name="after the copy", data={})  # the sequence is past the copy
            transaction.set_rollback(True)
    assert real["Card"] and all(copy == real for copy in copies)
    assert bundled_catalog._copy["rows"] is not None
