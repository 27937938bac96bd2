"""Simulations on real Celery worker processes: same result as in-process, refuses cleanly when the broker
is down. Runs on the embedded default (filesystem broker + SQLite file) and, under .ci/run, on Redis + PostgreSQL.
Faults (a SIGKILLed worker, Redis or PostgreSQL restarted, a chunk that raises): test_faults.py."""
from __future__ import annotations

import json
import time

import pytest
from django.contrib.auth import get_user_model

from builder.models import SimulationChunk, SimulationRun
from builder.services import SimulationBrokerUnavailable, simulation_start, simulations_requeue_stalled
from rules_engine.simulation import simulate
from tests.support.celery_broker import CLOSED_PORT_URL, use_broker
from tests.support.simulations import assert_run_done_once

GAMES = 20_000
SEED = 20261130
RUN_TIMEOUT = 120.0

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module")
def expected_results() -> dict:
    return {}


@pytest.fixture
def expected(simulation_snapshot, expected_results) -> dict:
    """The in-process result of the same snapshot, games and seed (computed once per module)."""
    key = json.dumps(simulation_snapshot, sort_keys=True)
    if key not in expected_results:
        expected_results[key] = simulate(simulation_snapshot, games=GAMES, seed=SEED)
    return expected_results[key]


@pytest.fixture
def user(transactional_db):
    return get_user_model().objects.create_user(username="racer", password="x-Test-pw-42")


def wait_done(run: SimulationRun, workers, *, watchdog_after: float | None = None) -> SimulationRun:
    """Poll until the run is finished; with `watchdog_after`, run the watchdog as an operator's cron would."""
    deadline = time.monotonic() + RUN_TIMEOUT
    while time.monotonic() < deadline:
        run.refresh_from_db()
        if not run.is_active:
            return run
        if watchdog_after is not None:
            simulations_requeue_stalled(older_than=watchdog_after, max_requeues=5)
        time.sleep(0.3)
    logs = "\n".join(workers.log(i)[-3000:] for i in range(len(workers.processes)))
    pytest.fail(f"run {run.public_id} not finished after {RUN_TIMEOUT} s: {run.status} "
                f"{run.chunks_done}/{run.chunks_total}\n{logs}")


def assert_complete_once(run: SimulationRun, expected: dict) -> None:
    assert_run_done_once(run, expected, GAMES)


def test_two_workers_give_the_in_process_result(workers, user, simulation_snapshot, expected):
    run = simulation_start(user=user, snapshot=simulation_snapshot, games=GAMES, seed=SEED)
    run = wait_done(run, workers)
    assert_complete_once(run, expected)
    hosts = set(SimulationChunk.objects.filter(run=run).values_list("worker", flat=True))
    assert len(hosts) == 2, f"both workers should have played chunks, got {hosts}"


def test_broker_down_at_submit_is_a_503_and_writes_nothing_then_works(workers, user, simulation_snapshot, expected):
    with use_broker(CLOSED_PORT_URL):
        with pytest.raises(SimulationBrokerUnavailable) as refused:
            simulation_start(user=user, snapshot=simulation_snapshot, games=GAMES, seed=SEED)
    assert refused.value.status == 503
    assert "broker" in refused.value.message and "nothing was saved" in refused.value.message
    assert SimulationRun.objects.count() == 0
    assert SimulationChunk.objects.count() == 0

    run = simulation_start(user=user, snapshot=simulation_snapshot, games=GAMES, seed=SEED)  # the broker is back
    assert_complete_once(wait_done(run, workers), expected)


def test_a_gauntlet_on_two_workers_gives_the_in_process_result(workers, user):
    """A batch run on real workers: its legs' chunks spread over both and merge into exactly the
    in-process gauntlet_result (rules_engine.batch.run_batch) of the same batch, games and seed."""
    from builder.models import RunKind
    from builder.services import batches as batch_services
    from builder.services.runs_submit import start_run
    from rules_engine.batch import batch_chunks, gauntlet_batch, gauntlet_result, run_batch
    from tests.support.snapshots import bundled_hagmi_snapshot

    games = 3000
    batch = gauntlet_batch([("sample-vanguard", 2, bundled_hagmi_snapshot("sample-fortress", "sample-vanguard")),
                            ("goldfish", 1, bundled_hagmi_snapshot("sample-fortress", "goldfish"))])
    run = start_run(user=user, kind=RunKind.GAUNTLET, frozen=batch, game_list=None, games=games, seed=SEED,
                    opponent="sample-vanguard,goldfish", policy="greedy", chunk_size=lambda: 500,
                    chunks_total=lambda size: len(batch_chunks(batch, games, size)))
    run = wait_done(run, workers)
    assert run.status == "done", run.error
    expected = gauntlet_result(batch, run_batch(batch, games=games, seed=SEED), games=games, seed=SEED)
    assert json.dumps(run.result, sort_keys=True) == json.dumps(expected, sort_keys=True)
    chunks = SimulationChunk.objects.filter(run=run)
    assert chunks.count() == run.chunks_total == 12
    assert len(set(chunks.values_list("worker", flat=True))) == 2
    assert batch_services.MAX_LEGS == 64


def test_a_doctor_run_whose_worker_is_sigkilled_is_finished_by_the_other_with_the_same_result(workers, user):
    """A list doctor run survives a worker killed mid-run: the chunks it held come back through the watchdog, the
    other worker plays them, the confirm stage is published when the screen is merged, and the result is exactly
    the in-process run_doctor of the batch."""
    from builder.models import RunKind
    from builder.services.runs_submit import start_run
    from rules_engine.doctor import candidate_changes, doctor_batch, run_doctor, screen_stage, stage_chunks
    from tests.support.snapshots import bundled_hagmi_catalog, bundled_hagmi_list, bundled_hagmi_snapshot

    games = 2000
    snapshot = bundled_hagmi_snapshot("sample-fortress", "sample-vanguard")
    catalog = bundled_hagmi_catalog()
    changes = candidate_changes(bundled_hagmi_list("sample-fortress"), catalog, limit=2)
    batch = doctor_batch(snapshot, changes, [("sample-vanguard", 1.0, snapshot)], catalog.cards)
    stages = [screen_stage(batch, games=games, seed=SEED)]
    run = start_run(user=user, kind=RunKind.DOCTOR, frozen=batch, game_list=None, games=games, seed=SEED,
                    opponent="sample-vanguard", policy="greedy", chunk_size=lambda: 250,
                    chunks_total=lambda size: len(stage_chunks(batch, stages, size)), stages=stages)
    assert run.chunks_total == 6  # the screen: 3 lists × 333 games, 2 chunks each
    deadline = time.monotonic() + RUN_TIMEOUT
    while SimulationChunk.objects.filter(run=run).count() < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    workers.kill(0)  # SIGKILL mid-run: worker 0's chunk in hand and its prefetched ones are never acked
    run = wait_done(run, workers, watchdog_after=2.0)
    assert run.status == "done", run.error
    expected = run_doctor(batch, games=games, seed=SEED)
    assert json.dumps(run.result, sort_keys=True) == json.dumps(expected, sort_keys=True)
    indices = list(SimulationChunk.objects.filter(run=run).values_list("index", flat=True))
    assert sorted(indices) == list(range(run.chunks_total))  # each chunk stored once, the confirm stage's too
    assert run.chunks_total == len(stage_chunks(batch, run.stages, 250))
    assert SimulationChunk.objects.filter(run=run, worker=workers.names[1]).exists()
