"""The message broker, in one place: whether it can be reached, publishing a run's chunk tasks, and
pinging the workers. The run services (builder.services.runs_submit,
runs_merge, runs_watchdog) and the health check (builder.api.health) call
these; nothing else in builder/ talks to the broker.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hangar.celery import app as celery_app

# Publishing retries on a transient broker error before giving up (kombu's retry policy).
PUBLISH_RETRY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.5, "interval_max": 1}


def check_connection(timeout: float) -> None:
    """Connect to the broker once, waiting at most `timeout` seconds; raises the transport's error if it cannot
    (kombu's OperationalError, OSError, ... depending on the transport)."""
    with celery_app.connection_for_write() as connection:
        connection.ensure_connection(max_retries=1, interval_start=0, interval_step=0.2, timeout=timeout)


# The chunk task's name (builder/tasks.py `simulation_chunk`). Chunks are published by name: the tasks module imports
# the run services, which publish through this module, so this module imports no task.
CHUNK_TASK = "builder.simulation_chunk"


def send_chunk(run_id: int, index: int) -> None:
    """One `simulation_chunk(run_id, index)` message on the default queue (ids only, JSON), retried on a transient
    broker error (PUBLISH_RETRY)."""
    celery_app.send_task(CHUNK_TASK, (run_id, index), queue=celery_app.conf.task_default_queue, retry=True,
                         retry_policy=PUBLISH_RETRY, ignore_result=True)


def publish_chunks(run_id: int, indices: Iterable[int]) -> None:
    """One `simulation_chunk(run_id, index)` message per chunk (send_chunk). Raises the broker's error, with the
    index that failed as `error.chunk_index`, if it refuses after PUBLISH_RETRY."""
    index = None
    try:
        for index in indices:
            send_chunk(run_id, index)
    except Exception as error:
        error.chunk_index = index  # type: ignore[attr-defined]
        raise


class NoBroadcast(Exception):
    """The transport cannot broadcast (kombu's filesystem transport): workers cannot be pinged."""


def ping_workers(timeout: float) -> list[str]:
    """Hostnames of the workers that answered a ping within `timeout` seconds. Raises NoBroadcast on a transport
    without broadcast, the broker's error otherwise."""
    try:
        replies: list[dict[str, Any]] = celery_app.control.ping(timeout=timeout) or []
    except Exception as error:
        if celery_app.conf.broker_url.startswith("filesystem") or isinstance(error, NotImplementedError):
            raise NoBroadcast(str(error)) from error
        raise
    return sorted(name for reply in replies for name in reply)
