"""Celery tasks for simulations: thin wrappers that take ids, load by id and call the simulation run services
(builder.services.runs_chunks, runs_stop, runs_watchdog).

One task = one chunk of games (about 1–5 s of work: the run's `chunk_size`, chosen at submit from the measured cost
of its games; summaries merge exactly, so results are byte-identical however a run is cut and spread). Measured cost
per chunk: docs/simulations.md.
Delivery: JSON only, acks_late + reject_on_worker_lost (a killed worker's message goes back to the queue where
the transport supports it), prefetch 1, soft/hard time limits, automatic retries with backoff on transient
database/broker errors (a database restart: the chunk is played again, and stored once). Any other error (a game
that raises, a bug) plays the chunk again after a short pause, HANGAR_CHUNK_ATTEMPTS times in all, then fails the run
naming the chunk and the error. A redelivered or re-queued chunk is harmless: the service skips a stored chunk.
"""
from __future__ import annotations

import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError

from builder.services import runs_chunks, runs_input, runs_stop, runs_watchdog

# Worker start: the Celery app autodiscovers this module, so plugin simulators (HANGAR_SIMULATOR_MODULES) are
# registered before the first chunk arrives.
runs_input.load_simulator_modules()

logger = logging.getLogger(__name__)

TRANSIENT_ERRORS = (OperationalError, InterfaceError, BrokerError, ConnectionError)


@shared_task(
    bind=True,
    name="builder.simulation_chunk",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=settings.HANGAR_CHUNK_SOFT_TIME_LIMIT,
    time_limit=settings.HANGAR_CHUNK_TIME_LIMIT,
    autoretry_for=TRANSIENT_ERRORS,
    retry_backoff=1,
    retry_backoff_max=60,
    retry_jitter=True,
    max_retries=8,
    ignore_result=True,
)
def simulation_chunk(self, run_id: int, index: int, attempt: int = 1) -> bool:
    """Play and store chunk `index` of run `run_id`; skipped when the run is not active or has the chunk.
    `attempt` numbers the plays of this chunk: 1 on the first message (and on a watchdog re-queue), one more after
    each play that raised; the play numbered HANGAR_CHUNK_ATTEMPTS is the last."""
    last = attempt >= settings.HANGAR_CHUNK_ATTEMPTS or self.request.retries >= self.max_retries
    try:
        return runs_chunks.simulation_chunk_play(run_id=run_id, index=index, worker=self.request.hostname or "",
                                                 attempt=attempt, last_attempt=last)
    except SoftTimeLimitExceeded:
        runs_stop.simulation_fail(run_id=run_id, reason=(
            f"Chunk {index} took longer than {settings.HANGAR_CHUNK_SOFT_TIME_LIMIT} s (the per-chunk time limit); "
            "the simulation is too slow for this list or the workers are overloaded."
        ))
        return False
    except TRANSIENT_ERRORS:
        raise  # autoretry_for: the same attempt again after a backoff
    except Exception as exc:
        if not last:
            logger.warning("chunk %s of simulation run %s raised on attempt %s, playing it again: %r",
                           index, run_id, attempt, exc)
            raise self.retry(args=(run_id, index), kwargs={"attempt": attempt + 1}, countdown=attempt, exc=exc)
        logger.exception("chunk %s of simulation run %s raised on its last attempt (%s)", index, run_id, attempt)
        runs_chunks.simulation_chunk_failed(run_id=run_id, index=index, error=exc, attempts=attempt)
        return False


@shared_task(name="builder.simulations_watchdog", ignore_result=True)
def simulations_watchdog() -> dict[str, list[str]]:
    """Re-queue the missing chunks of stalled runs (for celery beat; the management command does the same)."""
    return runs_watchdog.simulations_requeue_stalled()
