"""Merging a complete run's chunk summaries into its result (docs/simulations.md), exactly once:
`simulation_finish` locks the run row and only merges an active run whose chunks are all stored, then marks it done.
A doctor run whose engine asks for another stage gets that stage's chunks published instead.
"""
from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone

from builder.models import RunKind, RunStatus, SimulationRun
from rules_engine import doctor as doctor_engine
from rules_engine import simulation as engine
from rules_engine.batch import gauntlet_result, leg_summaries
from rules_engine.core.runner import merge_summaries
from rules_engine.core.stats import Summary

from .runs_input import load_simulator_modules
from .runs_plan import doctor_plan, doctor_stages, run_chunks
from .runs_submit import enqueue_chunks


def simulation_finish(*, run_id: int) -> SimulationRun | None:
    """Merge the chunks of a complete run into its result, exactly once (run row locked; only an active run
    with every chunk stored is merged). Chunks merge in index order, so the result is byte-identical to an
    in-process `rules_engine.simulation.simulate` of the same snapshot, games and seed."""
    load_simulator_modules()
    with transaction.atomic():
        run = SimulationRun.objects.select_for_update().filter(pk=run_id).first()
        if run is None or not run.is_active:
            return run
        summaries = list(run.chunks.order_by("index").values_list("summary", flat=True))
        if len(summaries) != run.chunks_total:
            return run
        parsed = [Summary.from_dict(summary) for summary in summaries]
        if run.kind == RunKind.DOCTOR:
            following = _doctor_next_stage(run, parsed)
            if following is not None:
                return following
        run.result = _run_result(run, parsed)
        run.status = RunStatus.DONE
        run.chunks_done = run.chunks_total
        run.finished_at = run.heartbeat_at = timezone.now()
        run.save(update_fields=["result", "status", "chunks_done", "finished_at", "heartbeat_at"])
    return run


def _doctor_merged(run: SimulationRun, summaries: list[Summary]) -> list[dict[int, Summary]]:
    plan = doctor_plan(run)
    return doctor_engine.stage_summaries(run.snapshot, doctor_stages(run),
                                         [(stage, leg, summary) for (stage, leg, _g), summary in zip(plan, summaries)])


def _doctor_next_stage(run: SimulationRun, summaries: list[Summary]) -> SimulationRun | None:
    """Called under the run's row lock when every chunk of a doctor run's stages so far is stored: when the engine
    (rules_engine.doctor.next_stage) asks for another stage, it is stored with its chunks counted in chunks_total,
    and those chunks only are published on commit (their indices follow the stored ones: a stored chunk never
    changes index, a redelivered old chunk is skipped, the watchdog re-queues the missing new ones, a cancel stops
    them). Returns the run then, None when the run is over (the caller merges it)."""
    stages = doctor_stages(run)
    following = doctor_engine.next_stage(run.snapshot, stages, _doctor_merged(run, summaries), games=run.games,
                                         seed=run.seed)
    if following is None:
        return None
    first = run.chunks_total
    run.stages = [*stages, following]
    run.chunks_total = len(doctor_plan(run))
    run.heartbeat_at = timezone.now()
    run.requeues = 0
    run.save(update_fields=["stages", "chunks_total", "heartbeat_at", "requeues"])
    transaction.on_commit(partial(enqueue_chunks, run.pk, range(first, run.chunks_total)))
    return run


def _run_result(run: SimulationRun, summaries: list[Summary]) -> dict[str, Any]:
    """The report of a complete run from its chunk summaries in index order: a plain run's simulation_result; a
    gauntlet's rows per opponent and weighted total (gauntlet_result); the doctor's baseline and ranked changes
    (doctor_result). Chunk i belongs to the leg run_chunks says, so the merge is the same whatever the workers."""
    if run.kind == RunKind.SIMULATION:
        merged = merge_summaries(summaries)
        return engine.simulation_result(merged, run.snapshot, games=run.games, seed=run.seed)
    if run.kind == RunKind.DOCTOR:
        return doctor_engine.doctor_result(run.snapshot, doctor_stages(run), _doctor_merged(run, summaries),
                                           games=run.games, seed=run.seed)
    legs = [leg for leg, _games in run_chunks(run)]
    per_leg = leg_summaries(run.snapshot, list(zip(legs, summaries)))
    return gauntlet_result(run.snapshot, per_leg, games=run.games, seed=run.seed)
