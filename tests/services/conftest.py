"""Real-worker fixtures: two `celery -A hangar worker` processes against the test database and a broker.

Embedded default (`python3 dev.py test`): kombu's filesystem transport in a temporary folder + the SQLite test
database FILE (settings: DATABASES["default"]["TEST"]["NAME"]). With HANGAR_REQUIRE_SERVICES=1 (.ci/run): Redis
(CELERY_BROKER_URL) + the PostgreSQL test database; a missing service FAILS, never skips.
Each test gets its own queue name, so other processes on the same Redis never take its messages.
"""
from __future__ import annotations

import os
import uuid

import pytest
from django.conf import settings
from django.db import connection

from tests.support.celery_broker import filesystem_options, use_broker
from tests.support.snapshots import bundled_hagmi_snapshot
from tests.support.toy_simulator import toy_snapshot  # noqa: F401  (the engine-free alternative, see below)
from tests.support.workers import Workers, database_url, worker_env

REQUIRE_SERVICES = os.environ.get("HANGAR_REQUIRE_SERVICES") == "1"


@pytest.fixture
def simulation_snapshot() -> dict:
    """The snapshot the real-worker tests play: the real HAGMI engine, a bundled sample deck against another
    (10 chunks of 2 000 games for a 20 000-game run, about 1.3 s each). For an engine-free run, the toy dice race is
    one line away: `return toy_snapshot(target=1000)` (tests.support.toy_simulator, about 0.1 s per chunk)."""
    return bundled_hagmi_snapshot("sample-vanguard", "sample-fortress")


@pytest.fixture
def broker(tmp_path):
    """(broker URL, filesystem folder or None, queue) used by this process and the workers."""
    queue = f"hangar-test-{uuid.uuid4().hex[:10]}"
    if REQUIRE_SERVICES:
        url = settings.CELERY_BROKER_URL
        assert url.startswith("redis://"), "HANGAR_REQUIRE_SERVICES=1 needs CELERY_BROKER_URL=redis://..."
        with use_broker(url, {}, queue):
            yield url, None, queue
        return
    folder = tmp_path / "broker"
    with use_broker("filesystem://", filesystem_options(folder), queue):
        yield "filesystem://", folder, queue


@pytest.fixture
def workers(transactional_db, broker, tmp_path, settings):
    """Two running workers (more with `workers.start(n)`); stopped (process group) whatever the test does."""
    if REQUIRE_SERVICES:
        assert connection.vendor == "postgresql", "HANGAR_REQUIRE_SERVICES=1 needs DATABASE_URL=postgres://..."
    settings.HANGAR_SIMULATOR_MODULES = ["tests.support.toy_simulator"]
    url, folder, queue = broker
    env = worker_env(database=database_url(connection.settings_dict), broker_url=url, broker_dir=folder, queue=queue)
    pool = Workers(env, tmp_path)
    try:
        pool.start(2)
        yield pool
    finally:
        pool.stop()
