"""The watchdog of simulation runs (docs/simulations.md "Failures and recovery"): a run with no progress has its
missing chunks published again, fails after too many re-queues without progress, or is merged when its chunks are all
stored. Run by `manage.py simulations_watchdog` and the celery beat task builder.simulations_watchdog.
"""
from __future__ import annotations

import logging
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from builder import selectors
from builder.models import RunStatus, SimulationRun

from .runs_merge import simulation_finish
from .runs_submit import enqueue_chunks

logger = logging.getLogger(__name__)


def simulations_requeue_stalled(
    *, older_than: float | None = None, max_requeues: int | None = None
) -> dict[str, list[str]]:
    """Runs queued/running with no progress for `older_than` seconds (default HANGAR_SIMULATION_STALL_SECONDS):
    their MISSING chunks are published again (a worker died, a broker restart or the filesystem broker lost a
    message), or, after `max_requeues` re-queues in a row with no chunk stored in between (default
    HANGAR_SIMULATION_MAX_REQUEUES), the run fails with the reason.
    A run whose chunks are all stored but which was never merged is merged now. Returns the public ids acted on."""
    older_than = settings.HANGAR_SIMULATION_STALL_SECONDS if older_than is None else older_than
    max_requeues = settings.HANGAR_SIMULATION_MAX_REQUEUES if max_requeues is None else max_requeues
    cutoff = timezone.now() - timedelta(seconds=older_than)
    report: dict[str, list[str]] = {"requeued": [], "failed": [], "finished": []}
    for run_id in selectors.simulation_stalled_ids(cutoff=cutoff):
        outcome = _requeue_one(run_id, cutoff=cutoff, older_than=older_than, max_requeues=max_requeues)
        if outcome is not None:
            report[outcome[0]].append(outcome[1])
    return report


def _requeue_one(run_id: int, *, cutoff, older_than: float, max_requeues: int) -> tuple[str, str] | None:
    with transaction.atomic():
        run = SimulationRun.objects.select_for_update().filter(pk=run_id).first()
        if run is None or not run.is_active or (run.heartbeat_at or run.created_at) >= cutoff:
            return None  # finished or progressed meanwhile
        missing = selectors.simulation_missing_chunks(run)
        if not missing:
            complete = True
        elif run.requeues >= max_requeues:
            run.status, run.finished_at = RunStatus.FAILED, timezone.now()
            run.error = (
                f"No progress for {older_than:g} s after {run.requeues} re-queues: {len(missing)} of "
                f"{run.chunks_total} chunks never finished. Are the workers and the message broker running? "
                "Start the run again."
            )
            run.save(update_fields=["status", "finished_at", "error"])
            return ("failed", run.public_id)
        else:
            complete = False
            run.requeues += 1
            run.heartbeat_at = timezone.now()
            run.save(update_fields=["requeues", "heartbeat_at"])
            transaction.on_commit(partial(enqueue_chunks, run.pk, missing, fail_run=False))
    if complete:
        simulation_finish(run_id=run_id)
        return ("finished", run.public_id)
    logger.warning("simulation run %s stalled: re-queued %s missing chunks", run.public_id, len(missing))
    return ("requeued", run.public_id)
