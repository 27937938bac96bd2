"""Celery tasks of the catalog: a data source's "check for updates" (cards.datasources), asked for here
(`source_check_request`) and fetched in a worker so that no page ever waits on another site. Found by the Celery
app's autodiscovery (hangar/celery.py)."""
from __future__ import annotations

import logging

import secrets

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.utils import timezone

from cards import datasources
from cards.models import DataSource

logger = logging.getLogger(__name__)

SOFT_TIME_LIMIT = 150  # seconds: every download is bounded (HANGAR_DATA_SOURCE_TIMEOUT); this bounds a whole check
TIME_LIMIT = 180


@shared_task(name="cards.data_source_check", acks_late=True, ignore_result=True, soft_time_limit=SOFT_TIME_LIMIT,
             time_limit=TIME_LIMIT)
def data_source_check(source_id: int, token: str) -> str:
    """Check data source `source_id` for the check `token` (a stale token does nothing)."""
    try:
        return datasources.source_check_run(source_id, token)
    except SoftTimeLimitExceeded:
        return datasources.source_check_failed(source_id, token, "stopped",
                                               f"the check took longer than {SOFT_TIME_LIMIT} s (its time limit)")
    except Exception as error:  # noqa: BLE001  (a bug must not leave the page "checking" for ever)
        logger.exception("data source %s check failed", source_id)
        return datasources.source_check_failed(source_id, token, "failed", f"the check failed ({error!r})")


def source_check_request(source: DataSource) -> DataSource:
    """Mark the source "checking" and queue its check (data_source_check, above). A check already in flight is
    replaced: its result will be dropped (the token differs). A queue that cannot be reached fails the check."""
    token = secrets.token_hex(16)
    DataSource.objects.filter(pk=source.pk).update(status=DataSource.Status.CHECKING, check_token=token,
                                                   check_requested_at=timezone.now(), error_code="", error={})
    try:
        data_source_check.apply_async((source.pk, token), queue=settings.CELERY_TASK_DEFAULT_QUEUE, retry=True,
                                      retry_policy={"max_retries": 2, "interval_start": 0, "interval_step": 0.5,
                                                    "interval_max": 1})
    except Exception as error:  # noqa: BLE001  (any broker error: the check is not running, and the page says so)
        datasources.source_check_failed(source.pk, token, "queue", f"the task queue cannot be reached ({error})")
    source.refresh_from_db()
    return source
