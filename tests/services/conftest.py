"""Real-worker fixtures: two `celery -A hangar worker` processes against the test database and a broker.

Embedded default (`python3 dev.py test`): kombu's filesystem transport in a temporary folder + the SQLite test
database FILE (settings: DATABASES["default"]["TEST"]["NAME"]). With CELERY_BROKER_URL=redis://... the workers use
that Redis; with HANGAR_REQUIRE_SERVICES=1 (.ci/run): Redis + the PostgreSQL test database, and a missing service
FAILS, never skips. Each test gets its own queue name, so other processes on the same Redis never take its messages.

Fault tests (test_faults.py): `restartable_redis` / `restartable_postgres` skip on the embedded defaults (with the
reason), fail under HANGAR_REQUIRE_SERVICES=1 when the local service cannot be restarted, and always leave the
service running. `toy_faults` is the fault plan file every worker reads (tests.support.toy_simulator).
"""
from __future__ import annotations

import os
import uuid

import pytest
from django.conf import settings
from django.db import connection

from tests.support.celery_broker import filesystem_options, use_broker
from tests.support.services import ensure_postgres_up, ensure_redis_up, postgres_unavailable, redis_unavailable
from tests.support.snapshots import bundled_hagmi_snapshot
from tests.support.toy_simulator import FAULTS_ENV, toy_snapshot  # noqa: F401  (toy_snapshot: see below)
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
    url = settings.CELERY_BROKER_URL
    if REQUIRE_SERVICES:
        assert url.startswith("redis://"), "HANGAR_REQUIRE_SERVICES=1 needs CELERY_BROKER_URL=redis://..."
    if url.startswith("redis://"):
        with use_broker(url, {}, queue):
            yield url, None, queue
        return
    folder = tmp_path / "broker"
    with use_broker("filesystem://", filesystem_options(folder), queue):
        yield "filesystem://", folder, queue


@pytest.fixture
def toy_faults(tmp_path):
    """The fault plan file of this test's workers (HANGAR_TOY_FAULTS): absent = no fault; write it with
    tests.support.toy_simulator.write_fault_plan before starting a run."""
    return tmp_path / "toy-faults.json"


@pytest.fixture
def worker_env_overrides() -> dict[str, str]:
    """Extra environment for the workers (a test module may override this fixture)."""
    return {}


@pytest.fixture
def workers(transactional_db, broker, tmp_path, settings, toy_faults, worker_env_overrides):
    """Two running workers (more with `workers.start(n)`); stopped (process group) whatever the test does."""
    if REQUIRE_SERVICES:
        assert connection.vendor == "postgresql", "HANGAR_REQUIRE_SERVICES=1 needs DATABASE_URL=postgres://..."
    settings.HANGAR_SIMULATOR_MODULES = ["tests.support.toy_simulator"]
    url, folder, queue = broker
    env = worker_env(database=database_url(connection.settings_dict), broker_url=url, broker_dir=folder, queue=queue,
                     extra={FAULTS_ENV: str(toy_faults), **worker_env_overrides})
    pool = Workers(env, tmp_path)
    try:
        pool.start(2)
        yield pool
    finally:
        pool.stop()


def _cannot_run(reason: str) -> None:
    if REQUIRE_SERVICES:
        pytest.fail(f"HANGAR_REQUIRE_SERVICES=1 but this fault test cannot run: it {reason}")
    pytest.skip(f"restart test: it {reason}")


@pytest.fixture
def restartable_redis(broker):
    """The broker is the local Redis and this process can restart it; Redis is running again after the test."""
    reason = redis_unavailable(broker[0])
    if reason:
        _cannot_run(reason)
    yield
    ensure_redis_up()


@pytest.fixture
def restartable_postgres(transactional_db):
    """The database is the local PostgreSQL and this process can restart it; it is running again after the test,
    and this process's connection is a fresh one (one from before a restart is dead)."""
    reason = postgres_unavailable(connection.settings_dict)
    if reason:
        _cannot_run(reason)
    yield
    ensure_postgres_up()
    connection.close()
