"""Celery tasks of the catalog: a data source's "check for updates" (cards.datasources), fetched in a worker so that
no page ever waits on another site. Found by the Celery app's autodiscovery (hangar/celery.py)."""
from __future__ import annotations

import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded

from cards import datasources

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
