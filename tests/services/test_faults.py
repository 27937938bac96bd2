"""Faults during a background simulation, on real Celery worker processes (docs/simulations.md "Failures and
recovery"): Redis restarted, PostgreSQL restarted, a worker SIGKILLed mid-chunk, a chunk that raises once or always.

Every run either reaches `done` with exactly the in-process `simulate` result (same snapshot, games and seed) and
every chunk stored and merged once, or reaches `failed` with a reason the user sees in the API and on the page and no
partial result. The faults are placed with the toy simulator's fault plan (tests.support.toy_simulator): a worker
raises at the first game of chunk FAULT_CHUNK, or waits before its last game, so a restart or a kill always happens
while a chunk is being played. The watchdog runs as cron would (`manage.py simulations_watchdog`), with a short
stall timeout.

The restart tests need the local PostgreSQL / Redis (phase 2 of .ci/run); on the embedded defaults they skip.
"""
from __future__ import annotations

import json
import time
from datetime import timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import OperationalError as DatabaseOperationalError
from django.db import connection
from django.test import Client
from django.utils import timezone
from django.utils.html import escape

from builder.models import RunStatus, SimulationChunk, SimulationRun
from builder.services import simulation_chunk_play, simulation_start, simulations_requeue_stalled
from hangar.celery import app as celery_app
from rules_engine.simulation import chunks as engine_chunks
from rules_engine.simulation import simulate
from tests.support.services import postgres_restart, redis_restart
from tests.support.simulations import assert_run_done_once, published, toy  # noqa: F401  (fixtures)
from tests.support.toy_simulator import toy_snapshot, write_fault_plan

SNAPSHOT = toy_snapshot(target=2000)  # 500 games a chunk, about 0.25 s on an idle core
GAMES = 4_000  # 8 chunks
SEED = 20261207
FAULT_CHUNK = 2
RUN_TIMEOUT = 90.0
STALL_SECONDS = 3  # the watchdog's HANGAR_SIMULATION_STALL_SECONDS in these tests (300 in production)
ATTEMPTS = 3  # HANGAR_CHUNK_ATTEMPTS (the default)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker_env_overrides() -> dict[str, str]:
    """The production connection settings (kept connections, health-checked), not the workers fixture's default."""
    return {"CONN_MAX_AGE": "60", "HANGAR_CHUNK_ATTEMPTS": str(ATTEMPTS)}


@pytest.fixture(scope="module")
def expected() -> dict:
    """The in-process result of the same snapshot, games and seed: what every completed run must equal."""
    return simulate(SNAPSHOT, games=GAMES, seed=SEED)


@pytest.fixture
def user(transactional_db):
    return get_user_model().objects.create_user(username="faulty", password="x-Test-pw-42")


@pytest.fixture
def watchdog(settings):
    """The watchdog as cron runs it (`manage.py simulations_watchdog`), with a short stall timeout; returns what it
    printed ("requeued: <id>", ...) over the whole test."""
    settings.HANGAR_SIMULATION_STALL_SECONDS = STALL_SECONDS
    settings.HANGAR_SIMULATION_MAX_REQUEUES = 10  # a loaded CI machine must not fail a run that is recovering
    settings.HANGAR_CHUNK_ATTEMPTS = ATTEMPTS
    printed: list[str] = []

    def run_once() -> None:
        out = StringIO()
        call_command("simulations_watchdog", stdout=out)
        printed.extend(out.getvalue().splitlines())

    run_once.printed = printed
    return run_once


def fault_game(*, last: bool = False) -> int:
    """The first (or last) game of chunk FAULT_CHUNK."""
    games = engine_chunks(GAMES, SNAPSHOT)[FAULT_CHUNK]
    return games.stop - 1 if last else games.start


def start_run(user) -> SimulationRun:
    run = simulation_start(user=user, snapshot=SNAPSHOT, games=GAMES, seed=SEED)
    assert run.status == RunStatus.QUEUED and run.chunks_total == 8
    return run


def wait_fired(plan: Path, workers) -> int:
    """Wait until a worker reached the fault (PATH.fired holds its process id); return that worker's number."""
    fired = Path(f"{plan}.fired")
    deadline = time.monotonic() + RUN_TIMEOUT
    while time.monotonic() < deadline:
        text = fired.read_text() if fired.exists() else ""
        if text.endswith("\n"):
            return workers.number_of(int(text.split()[0]))
        time.sleep(0.02)
    pytest.fail(f"no worker reached the fault in chunk {FAULT_CHUNK} in {RUN_TIMEOUT} s:\n{logs(workers)}")


def release(plan: Path) -> None:
    Path(f"{plan}.release").touch()


def logs(workers) -> str:
    return "\n".join(f"--- worker {i}\n{workers.log(i)[-4000:]}" for i in range(len(workers.processes)))


def wait_finished(run: SimulationRun, workers, watchdog) -> SimulationRun:
    """Poll until the run is done, failed or cancelled, running the watchdog every second as beat would."""
    deadline = time.monotonic() + RUN_TIMEOUT
    next_watchdog = 0.0
    while time.monotonic() < deadline:
        run.refresh_from_db()
        if not run.is_active:
            return run
        if time.monotonic() >= next_watchdog:
            watchdog()
            next_watchdog = time.monotonic() + 1.0
        time.sleep(0.2)
    pytest.fail(f"run {run.public_id} not finished after {RUN_TIMEOUT} s: {run.status} "
                f"{run.chunks_done}/{run.chunks_total}; watchdog: {watchdog.printed}\n{logs(workers)}")


def assert_done_exactly_once(run: SimulationRun, expected: dict) -> None:
    """`done` with exactly the in-process result, and every chunk stored once and counted once."""
    assert_run_done_once(run, expected, GAMES)
    assert run.chunks_total == 8


def user_sees(run: SimulationRun, user) -> tuple[dict, str]:
    """What the owner sees: GET /api/simulations/<id>/ and the simulation page."""
    client = Client()
    client.force_login(user)
    api = client.get(f"/api/simulations/{run.public_id}/")
    page = client.get(f"/simulations/{run.public_id}/")
    assert api.status_code == 200 and page.status_code == 200
    return api.json(), page.content.decode()


def test_sigkilled_worker_mid_chunk_its_chunk_is_requeued_and_counted_once(workers, user, toy_faults, watchdog,
                                                                            expected):
    write_fault_plan(toy_faults, game=fault_game(last=True), action="wait")  # never released: hangs mid-chunk
    run = start_run(user)
    victim = wait_fired(toy_faults, workers)
    workers.kill(victim)  # SIGKILL to the worker and its pool child: no warm shutdown, no ack
    run = wait_finished(run, workers, watchdog)
    assert_done_exactly_once(run, expected)
    survivor = workers.names[1 - victim]
    assert SimulationChunk.objects.get(run=run, index=FAULT_CHUNK).worker == survivor
    assert f"requeued: {run.public_id}" in watchdog.printed  # the killed worker's chunk came back through the watchdog


def test_a_chunk_that_raises_once_is_played_again_and_the_run_completes(workers, user, toy_faults, watchdog,
                                                                        expected):
    write_fault_plan(toy_faults, game=fault_game(), action="raise", once=True)
    run = wait_finished(start_run(user), workers, watchdog)
    assert Path(f"{toy_faults}.fired").exists(), "the fault never fired"
    assert_done_exactly_once(run, expected)
    assert f"chunk {FAULT_CHUNK} of simulation run {run.pk} raised on attempt 1, playing it again" in logs(workers)
    api, page = user_sees(run, user)
    assert api["status"] == "done" and api["error"] is None and api["progress"] == 100
    assert api["result"] == json.loads(json.dumps(expected))


def test_a_chunk_that_always_raises_fails_the_run_with_the_chunk_and_the_error(workers, user, toy_faults, watchdog):
    game = fault_game()
    write_fault_plan(toy_faults, game=game, action="raise", once=False)
    run = wait_finished(start_run(user), workers, watchdog)
    assert run.status == RunStatus.FAILED
    assert run.error.startswith(f"chunk {FAULT_CHUNK} (games {game}-{game + 499}): game {game} of the run seeded "
                                f"{SEED} failed: RuntimeError: toy fault injected at game {game}"), run.error
    assert run.error.endswith(f"(tried {ATTEMPTS} times)"), run.error
    fired = Path(f"{toy_faults}.fired").read_text().split()
    assert len(fired) >= ATTEMPTS, f"chunk {FAULT_CHUNK} was played {len(fired)} times before the run failed"
    # No partial result: nothing merged, the failing chunk never stored, no chunk stored twice.
    assert run.result is None
    chunks = SimulationChunk.objects.filter(run=run)
    indices = list(chunks.values_list("index", flat=True))
    assert FAULT_CHUNK not in indices and len(indices) == len(set(indices))
    time.sleep(1.0)  # chunks still in flight when the run failed are not stored
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED and run.result is None and run.chunks_done == chunks.count() < 8

    api, page = user_sees(run, user)
    assert api["status"] == "failed" and api["error"] == run.error
    assert api["result"] is None and api["progress"] < 100
    assert f'<p class="error" role="alert">{escape(run.error)}</p>' in page
    assert 'class="winrate"' not in page  # no figures shown for a failed run


def test_redis_restarted_mid_run_lost_chunks_are_requeued_and_counted_once(restartable_redis, workers, user,
                                                                           toy_faults, watchdog, expected):
    write_fault_plan(toy_faults, game=fault_game(last=True), action="wait")
    run = start_run(user)
    gated = wait_fired(toy_faults, workers)  # a worker is inside chunk 2, the queue still holds later chunks
    redis_restart(down_for=1.0)  # SHUTDOWN NOSAVE: every queued and unacknowledged message is lost
    release(toy_faults)
    run = wait_finished(run, workers, watchdog)
    assert_done_exactly_once(run, expected)
    assert SimulationChunk.objects.get(run=run, index=FAULT_CHUNK).worker == workers.names[gated]
    assert f"requeued: {run.public_id}" in watchdog.printed  # the lost messages came back through the watchdog
    # Both workers reconnected by themselves: alive, and answering a broadcast on the restarted Redis.
    assert all(workers.alive(number) for number in range(2))
    # A new connection: the ones this test process pooled before the restart were closed by the old server.
    with celery_app.connection_for_write() as connection:
        replies = celery_app.control.ping(destination=workers.names, timeout=3.0, connection=connection)
    assert sorted(name for reply in replies for name in reply) == sorted(workers.names), (replies, logs(workers))


def test_postgres_restarted_mid_run_the_unsaved_chunk_is_retried_and_counted_once(restartable_postgres, workers,
                                                                                  user, toy_faults, watchdog,
                                                                                  expected):
    write_fault_plan(toy_faults, game=fault_game(last=True), action="wait")
    run = start_run(user)
    gated = wait_fired(toy_faults, workers)  # that worker read the run on a connection the restart will cut
    postgres_restart()
    connection.close()  # this process's connection died with the restart too
    release(toy_faults)
    run = wait_finished(run, workers, watchdog)
    assert_done_exactly_once(run, expected)
    assert all(workers.alive(number) for number in range(2)), logs(workers)
    # The gated chunk's result could not be saved on its dead connection: the task was retried and stored it once.
    gated_log = workers.log(gated)
    assert "OperationalError" in gated_log and "retry: Retry in" in gated_log, gated_log[-4000:]


# --- The bookkeeping the recovery relies on, checked without workers (chunks played by direct calls) ----------


def _stall(run: SimulationRun) -> None:
    SimulationRun.objects.filter(pk=run.pk).update(heartbeat_at=timezone.now() - timedelta(seconds=600))


def test_the_watchdog_fails_a_run_only_after_requeues_without_progress(user, toy, published):
    run = simulation_start(user=user, snapshot=SNAPSHOT, games=1_500, seed=SEED)  # 3 chunks
    for _ in range(2):
        _stall(run)
        assert simulations_requeue_stalled(older_than=300, max_requeues=2)["requeued"] == [run.public_id]
    simulation_chunk_play(run_id=run.pk, index=0)  # a slow worker stored a chunk: the run is progressing
    run.refresh_from_db()
    assert run.requeues == 0 and run.chunks_done == 1
    for _ in range(2):
        _stall(run)
        assert simulations_requeue_stalled(older_than=300, max_requeues=2)["requeued"] == [run.public_id]
    _stall(run)
    assert simulations_requeue_stalled(older_than=300, max_requeues=2)["failed"] == [run.public_id]
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED and run.result is None
    assert run.error.startswith("No progress for 300 s after 2 re-queues: 2 of 3 chunks never finished.")


def test_the_watchdog_keeps_a_run_whose_requeue_the_broker_refused(user, toy, published, monkeypatch):
    from builder import queue

    run = simulation_start(user=user, snapshot=SNAPSHOT, games=1_000, seed=SEED)
    published.clear()
    _stall(run)

    def broker_down(run_id, index):
        raise ConnectionRefusedError("Redis is restarting")

    monkeypatch.setattr(queue, "send_chunk", broker_down)
    assert simulations_requeue_stalled(older_than=300)["requeued"] == [run.public_id]
    run.refresh_from_db()
    assert run.is_active and run.error == "" and run.requeues == 1  # not failed: the next pass tries again
    monkeypatch.setattr(queue, "send_chunk", lambda run_id, index: published.append((run_id, index)))
    _stall(run)
    assert simulations_requeue_stalled(older_than=300)["requeued"] == [run.public_id]
    assert published == [(run.pk, 0), (run.pk, 1)]


def test_a_stored_last_chunk_whose_merge_was_cut_off_is_merged_when_its_task_comes_again(user, toy, published,
                                                                                        monkeypatch):
    from builder.services import runs_chunks

    run = simulation_start(user=user, snapshot=SNAPSHOT, games=1_000, seed=SEED)
    assert simulation_chunk_play(run_id=run.pk, index=0) is True

    def database_gone(*, run_id):
        raise DatabaseOperationalError("server closed the connection unexpectedly")

    with monkeypatch.context() as patch:  # the database went away between storing the last chunk and merging
        patch.setattr(runs_chunks, "simulation_finish", database_gone)
        with pytest.raises(DatabaseOperationalError):
            simulation_chunk_play(run_id=run.pk, index=1)
    run.refresh_from_db()
    assert run.status == RunStatus.RUNNING and run.chunks_done == 2 and run.result is None
    assert simulation_chunk_play(run_id=run.pk, index=1) is False  # the task's retry: stored already, so it merges
    run.refresh_from_db()
    assert run.status == RunStatus.DONE and SimulationChunk.objects.filter(run=run).count() == 2
    assert json.dumps(run.result, sort_keys=True) == json.dumps(simulate(SNAPSHOT, games=1_000, seed=SEED),
                                                                sort_keys=True)


def test_a_chunk_task_that_raises_a_non_game_error_is_retried_then_fails_the_run(user, toy, published, monkeypatch,
                                                                                 settings):
    from builder.services import runs_chunks
    from builder.tasks import simulation_chunk

    settings.HANGAR_CHUNK_ATTEMPTS = 3
    run = simulation_start(user=user, snapshot=SNAPSHOT, games=1_000, seed=SEED)

    def disk_full(**kwargs):
        raise ValueError("could not write the summary")

    monkeypatch.setattr(runs_chunks, "simulation_chunk_store", disk_full)
    with pytest.raises(ValueError):  # attempt 1 of 3: Celery retries it (called directly, the error propagates)
        simulation_chunk.run(run.pk, 1)
    run.refresh_from_db()
    assert run.is_active and run.error == ""
    assert simulation_chunk.run(run.pk, 1, attempt=3) is False
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED and run.result is None
    assert run.error == ("chunk 1 (games 500-999) could not be played: ValueError: could not write the summary "
                         "(tried 3 times). The run was stopped; start it again, and tell the site operator if it "
                         "fails the same way.")
