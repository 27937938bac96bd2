"""Submitting a simulation run (docs/design.md §4, docs/simulations.md).

Zulip style: the `check_*` functions validate and raise (nothing written), then one transaction writes, and the
Celery messages are published on commit with ids only. A run of G games is cut into chunks of `run.chunk_size`
games, chosen at submit by timing a few of its games (`simulation_chunk_size`: the simulator's size per opponent,
smaller when the games are slow, so that a chunk is about 1–5 s of work); chunk i always plays the same game indices
with the same seeds and summaries merge exactly, so the merged result is byte-identical whatever the chunk size, the
number of workers or the order in which chunks land. A list far beyond any format's size is refused (400
`simulation.list_too_large`). An identical stored run is reused instead of played again.

The rest of a run's life: builder.services.runs_chunks (a worker plays and stores a chunk), runs_merge (the last
chunk merges the run), runs_watchdog (stalled runs), runs_stop (fail, cancel).
"""
from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Mapping
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from builder import queue, selectors
from builder.errors import SimulationBrokerUnavailable, SimulationInvalid, SimulationLimitExceeded
from builder.models import GameList, RunKind, RunStatus, SimulationRun
from builder.services.budget import check_run_work
from rules_engine import simulation as engine
from rules_engine.core.runner import SimulationError as GameFailed

from .lists import check_document
from .runs_input import check_snapshot, simulation_snapshot_build
from .runs_stop import simulation_fail

logger = logging.getLogger(__name__)

CHUNK_PROBE_CLOCK = time.perf_counter  # the clock of the chunk-size probe (simulation_chunk_size); tests fake it


# --- checks (raise, write nothing) --------------------------------------------------------------------------


def simulation_chunk_size(snapshot: Mapping[str, Any], *, seed: int) -> int:
    """Games per chunk for a new run of this (checked) snapshot: the simulator's size for the opponent, made smaller
    when the first games of the run, timed here, show that such a chunk would take more than 5 s
    (rules_engine.simulation.measured_chunk_size). The probe stops after 0.2 s or 64 games (at least one game; a
    game of a list within the size limit takes milliseconds), so it costs the request at most about 0.2 s. A game
    that raises is bad input (400): every worker would fail the same way."""
    try:
        return engine.measured_chunk_size(snapshot, seed=seed, clock=CHUNK_PROBE_CLOCK)
    except GameFailed as exc:
        raise SimulationInvalid(f"The first games of this run cannot be played: {exc}.") from exc


def check_concurrent_runs(user) -> None:
    limit = settings.HANGAR_MAX_CONCURRENT_RUNS
    active = selectors.simulation_active_count(user=user)
    if active >= limit:
        raise SimulationLimitExceeded(
            f"You already have {active} simulations queued or running (the limit is {limit}); "
            "wait for one to finish or cancel one.",
            details={"limit": limit, "active": active},
        )


def check_broker() -> None:
    """Refuse the run (503) when the broker cannot be reached, before anything is written."""
    try:
        queue.check_connection(settings.HANGAR_BROKER_CHECK_TIMEOUT)
    except Exception as exc:  # kombu raises OperationalError, OSError, ... depending on the transport
        logger.warning("simulation broker check failed: %s", exc)
        raise SimulationBrokerUnavailable(
            "The simulation queue (message broker) cannot be reached right now, so the run was not started "
            "and nothing was saved. Try again in a minute; if it persists, tell the site operator.",
        ) from exc


# --- submit -------------------------------------------------------------------------------------------------


def _snapshot_from(
    *, snapshot: Any, game_list: GameList | None, document: Any, opponent_slug: Any, policy: Any,
    opponent_policy: Any = None, seats: Any = None,
) -> dict[str, Any]:
    given = [name for name, value in (("snapshot", snapshot), ("list", game_list), ("document", document))
             if value is not None]
    if len(given) != 1:
        raise SimulationInvalid("Give exactly one of 'list' (a saved list id) or 'document' (a hangar.list/1 JSON).",
                                details={"given": given})
    if snapshot is not None:
        return snapshot
    if game_list is not None:
        doc = selectors.list_document(game_list)
    else:
        doc, _system = check_document(document)
    return simulation_snapshot_build(document=doc, opponent_slug=opponent_slug, policy=policy,
                                     opponent_policy=opponent_policy, seats=seats)


def _reuse(user, run: SimulationRun) -> SimulationRun:
    """A stored identical run: the user's own is returned as is; someone else's finished result is copied."""
    if run.owner_id == user.pk:
        return run
    now = timezone.now()
    return SimulationRun.objects.create(
        owner=user, system=run.system, kind=run.kind, snapshot=run.snapshot, snapshot_hash=run.snapshot_hash,
        opponent=run.opponent, policy=run.policy, games=run.games, seed=run.seed,
        engine_version=run.engine_version, status=RunStatus.DONE, chunks_total=run.chunks_total, stages=run.stages,
        chunk_size=run.chunk_size, chunks_done=run.chunks_total, result=run.result, reused_from=run, started_at=now,
        finished_at=now, heartbeat_at=now,
    )


def simulation_start(
    *,
    user,
    snapshot: Mapping[str, Any] | None = None,
    game_list: GameList | None = None,
    document: Any = None,
    opponent_slug: Any = None,
    policy: Any = None,
    opponent_policy: Any = None,
    seats: Any = None,
    games: Any,
    seed: Any,
) -> SimulationRun:
    """Start (or reuse) a run of `games` games seeded `seed` of a saved list, a posted list document, or a ready
    snapshot (then the opponent, policies and seat mode are the snapshot's). `seats`: who goes first, "both"
    (default), "list-first" or "random". Raises SimulationInvalid (400), SimulationLimitExceeded (429) or
    SimulationBrokerUnavailable (503) with nothing written."""
    frozen = dict(_snapshot_from(snapshot=snapshot, game_list=game_list, document=document,
                                 opponent_slug=opponent_slug, policy=policy, opponent_policy=opponent_policy,
                                 seats=seats))
    check_snapshot(frozen, games=games, seed=seed)
    return start_run(
        user=user, kind=RunKind.SIMULATION, frozen=frozen, game_list=game_list, games=games, seed=seed,
        opponent=str((frozen.get("opponent") or {}).get("slug") or ""), policy=str(frozen.get("policy") or ""),
        chunk_size=lambda: simulation_chunk_size(frozen, seed=seed),
        chunks_total=lambda size: len(engine.chunks(games, frozen, size)),
    )


def start_run(
    *, user, kind: str, frozen: dict[str, Any], game_list: GameList | None, games: int, seed: int, opponent: str,
    policy: str, chunk_size, chunks_total, stages: list[dict[str, Any]] | None = None, count_active: bool = True,
) -> SimulationRun:
    """Reuse an identical stored run (same kind, frozen snapshot or batch, games, seed and engine) or create one
    and publish its chunks on commit. `chunk_size()` plays a few games (called outside the transaction) and
    `chunks_total(size)` counts the chunks of that size. `stages`: a doctor run's first stage (its later stages are
    added when a stage's chunks are merged, simulation_finish). The frozen input must be checked already.
    `count_active=False`: the caller checked the user's active runs once for a group of runs (a matchup matrix's
    cells, builder.services.matrices), so this run is not refused for the group's own cells."""
    check_run_work(frozen, games)  # the run budget (builder/services/budget.py): 400 over it, nothing written
    key = {
        "kind": kind,
        "snapshot_hash": engine.snapshot_hash(frozen),
        "opponent": opponent[:64],
        "policy": policy[:64],
        "games": games,
        "seed": seed,
        "engine_version": engine.ENGINE_VERSION,
    }
    stored = selectors.simulation_find_reusable(user=user, **key)
    if stored is not None:
        return _reuse(user, stored)
    size = chunk_size()  # outside the transaction: it plays games
    check_broker()  # before the transaction: never hold a lock while waiting for the broker
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()  # one submit per user at a time
        stored = selectors.simulation_find_reusable(user=user, **key)
        if stored is not None:
            return _reuse(user, stored)
        if count_active:
            check_concurrent_runs(user)
        run = SimulationRun.objects.create(
            owner=user, game_list=game_list, system=frozen["system"], snapshot=frozen, chunk_size=size,
            chunks_total=chunks_total(size), stages=list(stages or []), **key,
        )
        transaction.on_commit(partial(enqueue_chunks, run.pk, range(run.chunks_total)))
    return run


def enqueue_chunks(run_id: int, indices: Iterable[int], *, fail_run: bool = True) -> None:
    """Publish one `simulation_chunk(run_id, index)` message per chunk (builder.queue). If the broker refuses even
    after its retries, the run is marked failed with the reason: never a run stuck in "queued". The watchdog passes
    fail_run=False: its run stays as it is and the next watchdog pass tries again (a broker restart must not fail
    a run that can still finish), until HANGAR_SIMULATION_MAX_REQUEUES fails it."""
    try:
        queue.publish_chunks(run_id, indices)
    except Exception as exc:
        logger.exception("could not publish the chunks of simulation run %s", run_id)
        if not fail_run:
            return
        simulation_fail(run_id=run_id, reason=(
            f"The run could not be handed to the workers: the message broker refused chunk "
            f"{getattr(exc, 'chunk_index', '?')} ({exc}). "
            "Start it again once the broker is back."
        ))
