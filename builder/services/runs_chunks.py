"""A run's chunks on the workers (docs/simulations.md): play a chunk and store its summary, exactly once, or fail
the run naming the chunk. The last chunk stored triggers the merge (builder.services.runs_merge).

Exactly-once bookkeeping: a chunk's summary is stored once: (run, index) is UNIQUE and the insert is a get_or_create
under the run's row lock, so a redelivered or re-queued task changes nothing.
"""
from __future__ import annotations

import logging
from collections.abc import Mapping

from django.db import transaction
from django.utils import timezone

from builder.models import RunStatus, SimulationChunk, SimulationRun
from rules_engine import simulation as engine
from rules_engine.batch import play_batch_chunk
from rules_engine.core.runner import SimulationError as GameFailed
from rules_engine.core.stats import Summary

from .runs_input import load_simulator_modules
from .runs_merge import simulation_finish
from .runs_plan import chunk_label, leg_key, run_chunk_seed, run_chunks
from .runs_stop import simulation_fail

logger = logging.getLogger(__name__)


def simulation_chunk_play(
    *, run_id: int, index: int, worker: str = "", attempt: int = 1, last_attempt: bool = True
) -> bool:
    """Play chunk `index` of run `run_id` and store its summary; True when this call stored it.

    Skipped (False) when the run is gone, no longer active, or already has this chunk (then a complete run that
    was never merged, because the task that stored its last chunk died before merging, is merged now). A bad
    snapshot fails the run with the reason at once; a game that raises fails it on the `last_attempt` (naming the
    chunk, the game, the seed and the error), else the error propagates so that the task plays the chunk again.
    """
    run = SimulationRun.objects.filter(pk=run_id).first()
    if run is None or not run.is_active:
        return False
    if run.engine_version != engine.ENGINE_VERSION:
        # An upgrade changed the engine while the run was in flight (docs/deployment.md, "Upgrades"): this worker's
        # games would differ from the ones already stored, and a result must come from one engine only.
        simulation_fail(run_id=run_id, reason=(
            f"The simulation engine was upgraded from {run.engine_version} to {engine.ENGINE_VERSION} while this "
            "run was in progress, and one result cannot mix two engines' games. Start the simulation again."
        ))
        return False
    if SimulationChunk.objects.filter(run_id=run_id, index=index).exists():
        if run.chunks_done >= run.chunks_total:
            simulation_finish(run_id=run_id)  # idempotent: merges only an active, complete run
        return False
    cut = run_chunks(run)
    if not 0 <= index < len(cut):
        logger.error("simulation run %s has no chunk %s (it has %s)", run_id, index, len(cut))
        return False
    if run.status == RunStatus.QUEUED:
        SimulationRun.objects.filter(pk=run_id, status=RunStatus.QUEUED).update(
            status=RunStatus.RUNNING, started_at=timezone.now(), heartbeat_at=timezone.now()
        )
    leg, games = cut[index]
    seed = run_chunk_seed(run, index)
    load_simulator_modules()
    try:
        if leg is None:
            summary = engine.play_chunk(run.snapshot, seed=run.seed, start=games.start, count=len(games),
                                        snapshot_key=run.snapshot_hash)  # stored at submit: not hashed per chunk
        else:  # a gauntlet or doctor run: one leg of its batch (rules_engine.batch)
            summary = play_batch_chunk(run.snapshot, seed=seed, leg=leg, start=games.start,
                                               count=len(games))
    except (engine.SimulationInputError, GameFailed) as exc:
        if type(exc.__cause__).__name__ == "SoftTimeLimitExceeded":
            raise exc.__cause__ from None  # the task layer reports the chunk time limit
        if isinstance(exc, GameFailed) and not last_attempt:
            raise  # the task plays the chunk again (builder/tasks.py, HANGAR_CHUNK_ATTEMPTS)
        tried = f" (tried {attempt} times)" if attempt > 1 else ""
        simulation_fail(run_id=run_id, reason=f"{chunk_label(index, games, leg_key(run, leg))}: {exc}{tried}")
        return False
    return simulation_chunk_store(run_id=run_id, index=index, summary=summary.to_dict(exact=True), worker=worker)


def simulation_chunk_failed(*, run_id: int, index: int, error: BaseException, attempts: int) -> bool:
    """A chunk task raised something else than a game error (a bug, a malformed summary...) on its last attempt:
    the run fails with the chunk and the error, and keeps no partial result. True when the run was active."""
    run = SimulationRun.objects.filter(pk=run_id).only("games", "seed", "snapshot", "chunk_size", "kind", "stages").first()
    if run is None:
        return False
    cut = run_chunks(run)
    leg, games = cut[index] if 0 <= index < len(cut) else (None, None)
    tried = f" (tried {attempts} times)" if attempts > 1 else ""
    return simulation_fail(run_id=run_id, reason=(
        f"{chunk_label(index, games, leg_key(run, leg))} could not be played: {type(error).__name__}: {error}{tried}. "
        "The run was stopped; start it again, and tell the site operator if it fails the same way."
    ))


def simulation_chunk_store(*, run_id: int, index: int, summary: Mapping[str, Any], worker: str = "") -> bool:
    """Store a chunk's exact summary once; True when stored now, False when it was already there (a redelivered
    task) or the run is no longer active. The last chunk triggers the merge."""
    parsed = Summary.from_dict(summary)  # a malformed summary raises ValueError naming the stat
    with transaction.atomic():
        run = SimulationRun.objects.select_for_update().filter(pk=run_id).first()
        if run is None or not run.is_active:
            return False
        if not 0 <= index < run.chunks_total:
            raise ValueError(f"chunk index {index} is outside run {run.public_id} (0..{run.chunks_total - 1})")
        _chunk, created = SimulationChunk.objects.get_or_create(
            run=run, index=index, defaults={"games": parsed.games, "summary": dict(summary), "worker": worker[:200]}
        )
        if created:
            now = timezone.now()
            run.chunks_done = run.chunks.count()
            run.heartbeat_at = now
            run.requeues = 0  # progress: the watchdog counts re-queues WITHOUT progress
            run.status = RunStatus.RUNNING
            run.started_at = run.started_at or now
            run.save(update_fields=["chunks_done", "heartbeat_at", "requeues", "status", "started_at"])
        complete = run.chunks_done >= run.chunks_total
    if complete:
        simulation_finish(run_id=run_id)
    return created
