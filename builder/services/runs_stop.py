"""A run stops before its result: it fails with a reason for people, or its owner cancels it (its pending chunks are
then skipped by the workers)."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from builder.errors import ListNotFound, SimulationNotActive
from builder.models import ACTIVE_STATUSES, RunStatus, SimulationRun


def simulation_fail(*, run_id: int, reason: str) -> bool:
    """Mark an active run failed with a reason for people; True when it was active."""
    updated = SimulationRun.objects.filter(pk=run_id, status__in=ACTIVE_STATUSES).update(
        status=RunStatus.FAILED, error=reason, finished_at=timezone.now()
    )
    return bool(updated)


def simulation_cancel(*, run: SimulationRun, user) -> SimulationRun:
    """Cancel one of the user's queued or running runs; its pending chunks are skipped by the workers."""
    with transaction.atomic():
        locked = SimulationRun.objects.select_for_update().get(pk=run.pk)
        if locked.owner_id != user.pk:
            raise ListNotFound(f"No simulation run with id {locked.public_id!r}.")  # runs are owner-only
        if not locked.is_active:
            raise SimulationNotActive(f"Run {locked.public_id} is already {locked.status}; only a queued or "
                                      "running run can be cancelled.")
        locked.status = RunStatus.CANCELLED
        locked.error = "Cancelled by its owner."
        locked.finished_at = timezone.now()
        locked.save(update_fields=["status", "error", "finished_at"])
    return locked
