"""The collection check behind the `services` marker (docs/testing.md): CI's second pass (`.ci/run` phase 2,
PostgreSQL + Redis + real Celery workers) runs only the tests marked `services`, so a test that needs the real
services and is not marked would never run against them. At collection, `unmarked_service_tests(items)` reads
the source of each test function and of every fixture it uses, and names each test that

- starts Celery worker processes (`Workers(`: the `workers` fixture of tests/services/conftest.py),
- starts, stops or restarts a Redis or PostgreSQL (`OwnRedis(`, `redis_restart(`, `postgres_restart(`, the
  `restartable_redis` / `restartable_postgres` fixtures),
- branches on the database it runs on (`connection.vendor`) or talks to PostgreSQL itself (`psycopg`),
- sends requests in parallel threads (`Barrier(`): row locks (`select_for_update`) do nothing on SQLite,

without the `services` marker. tests/conftest.py fails the collection with that list (tests/test_suite.py
shows that it does). A test that depends on PostgreSQL in another way (NUL or lone-surrogate storage,
exactly-once chunks) is marked by hand: docs/testing.md lists them.
"""
from __future__ import annotations

import inspect
import re
from collections.abc import Iterable
from functools import lru_cache

import pytest

# What a test's (or one of its fixtures') source holds (a regular expression) -> why it needs the real services.
NEEDS_SERVICES = {
    r"\bWorkers\(": "starts Celery worker processes",
    r"\bOwnRedis\(": "starts and stops a Redis server",
    r"\bredis_restart\(": "restarts the shared Redis",
    r"\bredis_unavailable\(": "restarts the shared Redis",
    r"\bpostgres_restart\(": "restarts the shared PostgreSQL",
    r"\bpostgres_unavailable\(": "restarts the shared PostgreSQL",
    r"\bconnection\.vendor\b": "depends on the database it runs on (connection.vendor)",
    r"\bpsycopg": "talks to PostgreSQL directly",
    r"\bBarrier\(": "sends requests in parallel (row locks: select_for_update does nothing on SQLite)",
}
_PATTERNS = [(re.compile(pattern), why) for pattern, why in NEEDS_SERVICES.items()]
MARKER = "services"
_UNMARKED = pytest.StashKey[str]()


@lru_cache(maxsize=None)
def _reasons_in(function) -> tuple[str, ...]:
    try:
        source = inspect.getsource(function)
    except (OSError, TypeError):
        return ()
    return tuple(sorted({why for pattern, why in _PATTERNS if pattern.search(source)}))


def _functions(item) -> Iterable:
    function = getattr(item, "function", None)
    if function is not None:
        yield inspect.unwrap(function)
    info = getattr(item, "_fixtureinfo", None)
    for definitions in (info.name2fixturedefs.values() if info else ()):
        for definition in definitions:
            yield inspect.unwrap(definition.func)


def service_needs(item) -> set[str]:
    """Why `item` needs the real services (empty when it does not)."""
    return {why for function in _functions(item) for why in _reasons_in(function)}


def unmarked_service_tests(items) -> list[str]:
    """One line per test that needs the real services and is not marked `services`."""
    return [line for _item, line in _unmarked(items)]


def _unmarked(items) -> list[tuple]:
    found = []
    for item in items:
        if item.get_closest_marker(MARKER) is None:
            needs = service_needs(item)
            if needs:
                found.append((item, f"{item.nodeid}: {'; '.join(sorted(needs))}"))
    return found


def _message(lines: list[str]) -> str:
    return (f"{len(lines)} test(s) need the real services but are not marked `services`, so CI's second pass "
            "(PostgreSQL, Redis, Celery workers) would not run them. Add @pytest.mark.services (or "
            "pytestmark = pytest.mark.services) — docs/testing.md:\n  " + "\n  ".join(lines))


def check_service_marks(items, config=None) -> None:
    """Fail the collection (pytest.UsageError) when a test needs the real services and is not marked. In a
    pytest-xdist worker, where that error would be an INTERNALERROR without its message, each such test fails
    instead, with the message (`fail_unmarked`, called at its setup)."""

    missing = _unmarked(items)
    if not missing:
        return
    if config is not None and hasattr(config, "workerinput"):
        for item, line in missing:
            item.stash[_UNMARKED] = _message([line])
        return
    raise pytest.UsageError(_message([line for _item, line in missing]))


def fail_unmarked(item) -> None:
    """At a test's setup: fail it when the collection found it needs the services without the marker."""

    message = item.stash.get(_UNMARKED, None)
    if message:
        pytest.fail(message, pytrace=False)
