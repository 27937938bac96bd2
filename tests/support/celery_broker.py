"""Point this process's Celery app at another broker for a while (tests of the broker-down path, worker tests)."""
from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hangar.broker import filesystem_transport_options
from hangar.celery import app

CLOSED_PORT_URL = "redis://127.0.0.1:9/0"  # port 9 (discard): nothing listens there


def filesystem_options(folder: Path) -> dict[str, Any]:
    return filesystem_transport_options(folder)


def _reset_pools() -> None:
    """Forget the app's pools so the next publish connects with the new settings (kombu keeps its pools per
    connection URL, so closing one would break the next user of that URL)."""
    app._pool = None
    app.amqp._producer_pool = None


KEYS = ("CELERY_BROKER_URL", "CELERY_BROKER_TRANSPORT_OPTIONS", "CELERY_TASK_DEFAULT_QUEUE")


@contextlib.contextmanager
def use_broker(url: str, transport_options: dict[str, Any] | None = None, queue: str | None = None) -> Iterator[None]:
    """The app was configured from Django settings with the CELERY_ namespace: its keys carry the prefix.
    (Worker processes get their broker from the environment instead: tests.support.workers.worker_env.)"""
    conf = app.conf
    saved = {key: conf[key] for key in KEYS}
    saved_env = os.environ.get("CELERY_BROKER_URL")
    os.environ["CELERY_BROKER_URL"] = url  # Celery reads this variable before its own setting
    conf["CELERY_BROKER_URL"] = url
    conf["CELERY_BROKER_TRANSPORT_OPTIONS"] = transport_options or {}
    if queue:
        conf["CELERY_TASK_DEFAULT_QUEUE"] = queue
    _reset_pools()
    try:
        yield
    finally:
        conf.update(saved)
        if saved_env is None:
            os.environ.pop("CELERY_BROKER_URL", None)
        else:
            os.environ["CELERY_BROKER_URL"] = saved_env
        _reset_pools()
