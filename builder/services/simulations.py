"""Simulation runs (docs/design.md §4, docs/simulations.md): submit, play chunks on workers, merge, cancel, watchdog.

Zulip style: `check_*` validates and raises (nothing written), then one transaction writes, and the Celery
messages are published on commit with ids only. A run of G games is cut into chunks of `run.chunk_size` games, chosen
at submit by timing a few of its games (`simulation_chunk_size`: the simulator's size per opponent, smaller when the
games are slow, so that a chunk is about 1–5 s of work); chunk i always plays the same game indices with the same
seeds and summaries merge exactly, so the merged result is byte-identical whatever the chunk size, the number of
workers or the order in which chunks land. A list far beyond any format's size is refused (400
`simulation.list_too_large`).

Exactly-once bookkeeping:
- a chunk's summary is stored once: (run, index) is UNIQUE and the insert is a get_or_create under the run's row
  lock, so a redelivered or re-queued task changes nothing;
- the merge happens once: `simulation_finish` locks the run row and only merges an active run whose chunks are all
  stored, then marks it done.
"""
from __future__ import annotations

import importlib
import logging
import time
from collections.abc import Iterable, Mapping
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from builder import queue, selectors
from builder.services.budget import check_run_work
from builder.models import ACTIVE_STATUSES, GameList, RunKind, RunStatus, SimulationChunk, SimulationRun
from cards.models import Opponent
from cards.selectors import catalog_for
from rules_engine.batch import batch_chunks, gauntlet_result, leg_summaries, play_batch_chunk
from rules_engine import doctor as doctor_engine
from rules_engine import simulation as engine
from rules_engine.core.runner import SimulationError as GameFailed
from rules_engine.core.runner import merge_summaries
from rules_engine.core import seats as seat_modes
from rules_engine.core.stats import Summary

from builder.errors import (
    ListNotFound, SimulationBrokerUnavailable, SimulationInvalid, SimulationLimitExceeded,
    SimulationListTooLarge, SimulationNotActive,
)
from .lists import check_document

logger = logging.getLogger(__name__)

DEFAULT_POLICY = "greedy"
MAX_POLICY = 64
# Publishing a chunk message: a short retry, then the run fails with the reason (never a run stuck in "queued").
CHUNK_PROBE_CLOCK = time.perf_counter  # the clock of the chunk-size probe (simulation_chunk_size); tests fake it


# --- plugin hook --------------------------------------------------------------------------------------------

_LOADED_MODULES: set[str] = set()


def load_simulator_modules() -> None:
    """Import the modules named by settings.HANGAR_SIMULATOR_MODULES (each registers a Simulator when imported).

    Called by the Celery tasks module at worker start and before any run is checked or merged, so the web
    process and every worker know the same simulators. A wrong path fails loudly (ImportError).
    """
    for path in settings.HANGAR_SIMULATOR_MODULES:
        if path not in _LOADED_MODULES:
            importlib.import_module(path)
            _LOADED_MODULES.add(path)


# --- snapshots ----------------------------------------------------------------------------------------------


def check_policy(policy: Any) -> str:
    if policy is None or policy == "":
        return DEFAULT_POLICY
    if not isinstance(policy, str) or len(policy) > MAX_POLICY:
        raise SimulationInvalid(f"policy: expected a policy name such as {DEFAULT_POLICY!r}, got {policy!r}.",
                                details={"path": "policy"})
    return policy


def check_opponent_policy(opponent_policy: Any) -> str | None:
    """Who plays the other side: None or "" = the list's policy plays both sides (kept out of the
    snapshot, so such runs hash as before)."""
    if opponent_policy is None or opponent_policy == "":
        return None
    if not isinstance(opponent_policy, str) or len(opponent_policy) > MAX_POLICY:
        raise SimulationInvalid(
            f"opponent_policy: expected a policy name such as {DEFAULT_POLICY!r}, got {opponent_policy!r}.",
            details={"path": "opponent_policy"},
        )
    return opponent_policy


def check_seats(seats: Any) -> str:
    """The run's seat mode (rules_engine.core.seats): None or "" = "both"; else one of both, list-first, random
    (400 naming `seats` otherwise)."""
    try:
        return seat_modes.check_seats(seats)
    except ValueError as exc:
        raise SimulationInvalid(f"seats: {exc}.", details={"path": "seats", "choices": list(seat_modes.SEAT_MODES)}
                                ) from None


def catalog_of(system: str):
    catalog = catalog_for(system)
    if catalog is None:
        raise SimulationInvalid(f"system: no cards are loaded for {system!r}.", details={"path": "system"})
    return catalog


def opponent_of(system: str, opponent_slug: Any, *, path: str = "opponent") -> dict[str, Any]:
    """The opponent dict a snapshot freezes for sample opponent `opponent_slug` ({"slug", **its package data})."""
    if not isinstance(opponent_slug, str) or not opponent_slug:
        raise SimulationInvalid(
            f"{path}: required, the slug of a sample opponent (GET /api/systems/{system}/opponents/).",
            details={"path": path},
        )
    opponent = Opponent.objects.filter(system__slug=system, slug=opponent_slug).first()
    if opponent is None:
        known = sorted(Opponent.objects.filter(system__slug=system).values_list("slug", flat=True))
        raise SimulationInvalid(
            f"{path}: {system} has no opponent {opponent_slug!r}; expected one of: {', '.join(known) or 'none'}.",
            details={"path": path},
        )
    return {"slug": opponent.slug, **opponent.data}


def check_list_cards(document: Mapping[str, Any], catalog, *, path: str = "") -> None:
    """Every card of a normalised list document is in the catalog (else 400 naming the section and position)."""
    system = document["system"]
    for section, entries in document["sections"].items():
        for position, entry in enumerate(entries):
            if entry["card"] not in catalog.cards:
                where = f"{path}sections.{section}[{position}]"
                raise SimulationInvalid(
                    f"{where}: card {entry['card']!r} is not in the {system} catalog.",
                    code="list.unknown_card", details={"path": where, "card": entry["card"]},
                )


def simulation_snapshot_build(
    *, document: dict[str, Any], opponent_slug: Any, policy: Any = None, opponent_policy: Any = None,
    seats: Any = None,
) -> dict[str, Any]:
    """The hangar.snapshot/1 of a normalised list document against the current catalog (rules_engine.simulation.
    build_snapshot: the list, every card it and the opponent use, the opponent's dict, the policy, the seat mode,
    the options)."""
    system = document["system"]
    catalog = catalog_of(system)
    opponent = opponent_of(system, opponent_slug)
    policy, opponent_policy = check_policy(policy), check_opponent_policy(opponent_policy)
    seats = check_seats(seats)
    check_list_cards(document, catalog)
    load_simulator_modules()
    try:  # the same snapshot as `manage.py simulate` builds, so both share stored results
        return engine.build_snapshot(document, catalog.cards, opponent, policy=policy, opponent_policy=opponent_policy,
                                     seats=seats)
    except engine.SimulationInputError as exc:
        raise SimulationInvalid(str(exc)) from exc


# --- checks (raise, write nothing) --------------------------------------------------------------------------


def check_games_limit(games: Any) -> None:
    """Past settings.HANGAR_MAX_GAMES (and the engine's MAX_GAMES): 429 with the limit in the message."""
    limit = min(settings.HANGAR_MAX_GAMES, engine.MAX_GAMES)
    if isinstance(games, int) and not isinstance(games, bool) and games > limit:
        raise SimulationLimitExceeded(
            f"games: {games} games is more than the {limit} a run may play; split it into smaller runs.",
            details={"path": "games", "limit": limit},
        )


def check_snapshot(snapshot: Any, *, games: Any, seed: Any) -> None:
    """The engine's own check of the run and a full `prepare` of the snapshot, here, so bad input is a 400 now
    rather than a failed run later."""
    load_simulator_modules()
    check_games_limit(games)
    try:
        simulator = engine.check_run(snapshot, games=games, seed=seed)  # the list's size first: cheap
        simulator.prepare(snapshot)
    except engine.ListTooLargeToSimulate as exc:
        raise SimulationListTooLarge(
            str(exc), details={"path": "list", "system": exc.system, "size": exc.size, "limit": exc.limit}
        ) from exc
    except engine.SimulationInputError as exc:
        raise SimulationInvalid(str(exc)) from exc


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
    policy: str, chunk_size, chunks_total, stages: list[dict[str, Any]] | None = None,
) -> SimulationRun:
    """Reuse an identical stored run (same kind, frozen snapshot or batch, games, seed and engine) or create one
    and publish its chunks on commit. `chunk_size()` plays a few games (called outside the transaction) and
    `chunks_total(size)` counts the chunks of that size. `stages`: a doctor run's first stage (its later stages are
    added when a stage's chunks are merged, simulation_finish). The frozen input must be checked already."""
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


# --- chunks -------------------------------------------------------------------------------------------------


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
        simulation_fail(run_id=run_id, reason=f"{_chunk_label(index, games, _leg_key(run, leg))}: {exc}{tried}")
        return False
    return simulation_chunk_store(run_id=run_id, index=index, summary=summary.to_dict(exact=True), worker=worker)


def run_chunks(run: SimulationRun) -> list[tuple[int | None, range]]:
    """(leg, game indices) of every chunk of the run, by global chunk index: leg None for a plain run, cut by the
    chunk size stored at submit (the simulator's default for a run stored before chunk sizes were measured); for a
    gauntlet or doctor run, the batch's legs one after the other (rules_engine.batch.batch_chunks), every leg cut by
    the run's one stored chunk size, so every worker and the watchdog cut it the same way; a doctor run's stages one
    after the other (rules_engine.doctor.stage_chunks: its screen's chunks are the batch's, its confirm stage's come
    after them once the screen is merged)."""
    if run.kind == RunKind.DOCTOR:
        return [(leg, games) for _stage, leg, games in _doctor_plan(run)]
    if run.kind == RunKind.GAUNTLET:
        return [(leg, games) for leg, games in batch_chunks(run.snapshot, run.games, run.chunk_size)]
    return [(None, games) for games in engine.chunks(run.games, run.snapshot, run.chunk_size)]


def doctor_stages(run: SimulationRun) -> list[dict[str, Any]]:
    """A doctor run's stages as stored; a doctor run stored before stages were: one stage of every leg on the run
    seed (what it played)."""
    if run.stages:
        return list(run.stages)
    return [{"stage": doctor_engine.SCREEN, "round": 0, "seed": run.seed, "games": run.games,
             "legs": list(range(len((run.snapshot or {}).get("legs") or [])))}]


def _doctor_plan(run: SimulationRun) -> list[tuple[int, int, range]]:
    return doctor_engine.stage_chunks(run.snapshot, doctor_stages(run), run.chunk_size)


def run_chunk_seed(run: SimulationRun, index: int) -> int:
    """The seed chunk `index` plays on: the run seed, or for a doctor run the seed of the chunk's stage."""
    if run.kind != RunKind.DOCTOR:
        return run.seed
    stage, _leg, _games = _doctor_plan(run)[index]
    return int(doctor_stages(run)[stage]["seed"])


def run_chunk_ranges(run: SimulationRun) -> list[range]:
    """The game indices of every chunk of the run (run_chunks without the legs)."""
    return [games for _leg, games in run_chunks(run)]


def _leg_key(run: SimulationRun, leg: int | None) -> str | None:
    if leg is None:
        return None
    try:
        return str(run.snapshot["legs"][leg]["key"])
    except (KeyError, IndexError, TypeError):
        return None


def _chunk_label(index: int, games: range | None, leg: str | None = None) -> str:
    where = f" of {leg}" if leg else ""
    return f"chunk {index} (games {games.start}-{games.stop - 1}{where})" if games else f"chunk {index}"


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
        f"{_chunk_label(index, games, _leg_key(run, leg))} could not be played: {type(error).__name__}: {error}{tried}. "
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
    plan = _doctor_plan(run)
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
    run.chunks_total = len(_doctor_plan(run))
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


# --- watchdog -----------------------------------------------------------------------------------------------


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
