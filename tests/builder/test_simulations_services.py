"""The simulation run services (builder.services.runs_*) called directly: chunking, exactly-once storage and merge, reuse, limits,
cancel, broker failures and the watchdog (docs/design.md §4). No worker process: chunks are played by
direct calls; tests/services/ runs the same code on real Celery workers."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from builder import selectors, services
from builder.models import RunStatus, SimulationChunk, SimulationRun
from rules_engine.simulation import CHUNK_SIZE, play_chunk, simulate
from tests.support.celery_broker import CLOSED_PORT_URL, use_broker
from tests.support.simulations import hagmi_catalog, play_all, published, toy  # noqa: F401
from tests.support.toy_simulator import toy_snapshot

from .conftest import hagmi_doc

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy")]

SEED = 42


def start(user, games: int = 1234, seed: int = SEED, **snapshot_options):
    return services.simulation_start(user=user, snapshot=toy_snapshot(**snapshot_options), games=games, seed=seed)


def test_a_run_is_cut_into_chunk_size_chunks_published_on_commit_with_ids_only(
    owner, published, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        run = start(owner, games=2 * CHUNK_SIZE + 1)
        assert published == []  # nothing leaves before the transaction commits
    for callback in callbacks:
        callback()
    assert run.chunks_total == 3 and run.status == RunStatus.QUEUED and run.chunks_done == 0
    assert published == [(run.pk, 0), (run.pk, 1), (run.pk, 2)]
    assert json.loads(json.dumps(published)) == [[run.pk, i] for i in range(3)]


def test_chunks_in_any_order_merge_to_the_in_process_result(owner, published):
    run = start(owner, games=1234)
    play_all(run, order=[2, 0, 1])
    run.refresh_from_db()
    assert run.status == RunStatus.DONE and run.finished_at is not None
    assert selectors.simulation_progress(run) == 100
    expected = simulate(toy_snapshot(), games=1234, seed=SEED)
    assert json.dumps(run.result, sort_keys=True) == json.dumps(expected, sort_keys=True)


def test_the_snapshot_is_frozen_at_submit(owner, published, hagmi_catalog):
    game_list = services.list_create(owner=owner, document=hagmi_doc(), visibility="private")
    run = services.simulation_start(user=owner, game_list=game_list, opponent_slug="goldfish", games=10, seed=1)
    services.list_update(game_list=game_list, user=owner, document=hagmi_doc(weapons=22, name="Edited"),
                         expected_version=game_list.version)
    run.refresh_from_db()
    assert run.snapshot["list"] == hagmi_doc()
    assert run.game_list == game_list and run.opponent == "goldfish" and run.policy == "greedy"
    assert set(run.snapshot["cards"]) == {f"HT-{n:03d}" for n in range(1, 23)}  # list + goldfish damage deck
    assert run.snapshot["opponent"]["damage_deck"] == [{"card": "HT-021", "qty": 10}]


@pytest.mark.services  # exactly-once chunks: the row lock is PostgreSQL's
def test_a_redelivered_chunk_changes_nothing(owner, published):
    run = start(owner)
    assert services.simulation_chunk_play(run_id=run.pk, index=0, worker="a") is True
    assert services.simulation_chunk_play(run_id=run.pk, index=0, worker="b") is False
    summary = play_chunk(toy_snapshot(), seed=SEED, start=0, count=CHUNK_SIZE).to_dict(exact=True)
    assert services.simulation_chunk_store(run_id=run.pk, index=0, summary=summary, worker="c") is False
    run.refresh_from_db()
    assert run.chunks_done == 1 and run.status == RunStatus.RUNNING
    assert list(SimulationChunk.objects.filter(run=run).values_list("index", "worker")) == [(0, "a")]
    assert selectors.simulation_progress(run) == 33


@pytest.mark.services
def test_the_merge_happens_exactly_once(owner, published):
    run = start(owner, games=600)
    play_all(run)
    run.refresh_from_db()
    first = (run.result, run.finished_at)
    services.simulation_finish(run_id=run.pk)  # a second "last chunk" or the watchdog: no second merge
    play_all(run)  # late redeliveries
    run.refresh_from_db()
    assert (run.result, run.finished_at) == first
    assert run.result["games"] == 600 and SimulationChunk.objects.filter(run=run).count() == 2


def test_a_stored_summary_must_be_well_formed(owner, published):
    run = start(owner)
    with pytest.raises(ValueError, match=r"summary\.games"):
        services.simulation_chunk_store(run_id=run.pk, index=0, summary={"games": -1, "stats": {}})
    assert not SimulationChunk.objects.exists()


def test_an_identical_request_reuses_the_stored_run(owner, other, published):
    run = start(owner)
    assert start(owner).pk == run.pk  # still queued: the same run
    play_all(run)
    assert start(owner).pk == run.pk  # done: answered at once
    copy = start(other)  # another user gets their own row with the stored result, without playing again
    assert copy.owner == other and copy.status == RunStatus.DONE and copy.reused_from == run
    run.refresh_from_db()
    assert copy.result == run.result
    assert start(owner, seed=SEED + 1).pk != run.pk
    assert start(owner, target=61).pk != run.pk  # a different snapshot
    assert SimulationRun.objects.filter(owner=owner).count() == 3


def test_a_failed_or_cancelled_run_is_not_reused(owner, published):
    run = start(owner)
    services.simulation_cancel(run=run, user=owner)
    assert start(owner).pk != run.pk


def test_too_many_games_is_a_429(owner, published, settings):
    settings.HANGAR_MAX_GAMES = 1000
    with pytest.raises(services.SimulationLimitExceeded, match="1001 games is more than the 1000") as error:
        start(owner, games=1001)
    assert error.value.status == 429 and not SimulationRun.objects.exists()


def test_too_many_runs_at_once_is_a_429(owner, other, published, settings):
    settings.HANGAR_MAX_CONCURRENT_RUNS = 2
    start(owner, seed=1)
    start(owner, seed=2)
    with pytest.raises(services.SimulationLimitExceeded, match="already have 2 simulations") as error:
        start(owner, seed=3)
    assert error.value.status == 429
    start(other, seed=3)  # the limit is per user
    assert SimulationRun.objects.filter(owner=owner).count() == 2


@pytest.mark.parametrize(
    ("snapshot_change", "games", "seed", "message"),
    [
        ({"options": {"target": 60, "dice": 0}}, 10, 1, "options.dice"),
        ({"system": "nosuch"}, 10, 1, "no simulator for 'nosuch'"),
        ({"schema": "hangar.snapshot/0"}, 10, 1, "snapshot.schema"),
        ({}, 0, 1, "games: expected an integer"),
        ({}, 10, -1, "seed: expected an integer"),
    ],
)
def test_bad_input_is_refused_before_anything_is_written(owner, published, snapshot_change, games, seed, message):
    with pytest.raises(services.SimulationInvalid, match=message) as error:
        services.simulation_start(user=owner, snapshot={**toy_snapshot(), **snapshot_change}, games=games, seed=seed)
    assert error.value.status == 400 and not SimulationRun.objects.exists()


def test_an_unknown_card_or_opponent_names_what_is_wrong(owner, published, hagmi_catalog):
    document = hagmi_doc()
    document["sections"]["weapons"][3]["card"] = "HT-999"
    with pytest.raises(services.SimulationInvalid, match=r"sections\.weapons\[3\]: card 'HT-999'"):
        services.simulation_start(user=owner, document=document, opponent_slug="goldfish", games=10, seed=1)
    with pytest.raises(services.SimulationInvalid, match="no opponent 'nemesis'; expected one of: goldfish"):
        services.simulation_start(user=owner, document=hagmi_doc(), opponent_slug="nemesis", games=10, seed=1)
    assert not SimulationRun.objects.exists()


def test_broker_down_at_submit_is_a_503_and_nothing_is_written(owner, published):
    with use_broker(CLOSED_PORT_URL):
        with pytest.raises(services.SimulationBrokerUnavailable, match="nothing was saved") as error:
            start(owner)
    assert error.value.status == 503
    assert not SimulationRun.objects.exists() and published == []


def test_a_publish_failure_after_commit_fails_the_run_with_the_reason(owner, monkeypatch,
                                                                       django_capture_on_commit_callbacks):
    from builder import queue

    def refuse(run_id, index):
        raise ConnectionRefusedError("broker went away")

    monkeypatch.setattr(queue, "send_chunk", refuse)
    with django_capture_on_commit_callbacks(execute=True):
        run = start(owner)
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED
    assert "could not be handed to the workers" in run.error and "broker went away" in run.error


def test_cancel_stops_the_run_and_later_chunks_are_skipped(owner, published):
    run = start(owner)
    services.simulation_chunk_play(run_id=run.pk, index=0)
    cancelled = services.simulation_cancel(run=run, user=owner)
    assert cancelled.status == RunStatus.CANCELLED and cancelled.error == "Cancelled by its owner."
    assert services.simulation_chunk_play(run_id=run.pk, index=1) is False
    assert SimulationChunk.objects.filter(run=run).count() == 1
    with pytest.raises(services.SimulationNotActive, match="already cancelled") as error:
        services.simulation_cancel(run=run, user=owner)
    assert error.value.status == 409


def test_a_game_that_raises_fails_the_run_with_the_game_and_seed(owner, published, monkeypatch):
    from tests.support import toy_simulator

    def broken(self, prepared, game_index, rng):
        raise KeyError("fuel")

    run = start(owner)
    monkeypatch.setattr(toy_simulator.DiceRace, "play_one", broken)
    monkeypatch.setattr("rules_engine.simulation._PREPARED", {})
    services.simulation_chunk_play(run_id=run.pk, index=1)
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED
    assert run.error.startswith("chunk 1 (games 500-999): game 500 of the run seeded 42 failed: KeyError")


def _stall(run, seconds: int = 600) -> None:
    SimulationRun.objects.filter(pk=run.pk).update(heartbeat_at=timezone.now() - timedelta(seconds=seconds))


def test_watchdog_requeues_only_the_missing_chunks_of_a_stalled_run(owner, published,
                                                                    django_capture_on_commit_callbacks):
    run = start(owner, games=3 * CHUNK_SIZE)
    services.simulation_chunk_play(run_id=run.pk, index=1)
    published.clear()
    assert services.simulations_requeue_stalled(older_than=300) == {"requeued": [], "failed": [], "finished": []}
    _stall(run)
    with django_capture_on_commit_callbacks(execute=True):
        report = services.simulations_requeue_stalled(older_than=300)
    assert report["requeued"] == [run.public_id]
    assert published == [(run.pk, 0), (run.pk, 2)]
    run.refresh_from_db()
    assert run.requeues == 1 and run.status == RunStatus.RUNNING


def test_watchdog_fails_a_run_after_max_requeues_with_the_reason(owner, published):
    run = start(owner)
    SimulationRun.objects.filter(pk=run.pk).update(requeues=3, created_at=timezone.now() - timedelta(hours=1))
    report = services.simulations_requeue_stalled(older_than=300, max_requeues=3)
    assert report["failed"] == [run.public_id]
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED
    assert "No progress for 300 s after 3 re-queues: 3 of 3 chunks never finished" in run.error


def test_watchdog_merges_a_complete_run_that_was_never_merged(owner, published):
    run = start(owner, games=CHUNK_SIZE)
    summary = play_chunk(toy_snapshot(), seed=SEED, start=0, count=CHUNK_SIZE).to_dict(exact=True)
    SimulationChunk.objects.create(run=run, index=0, games=CHUNK_SIZE, summary=summary)  # merge never ran
    _stall(run)
    assert services.simulations_requeue_stalled(older_than=300)["finished"] == [run.public_id]
    run.refresh_from_db()
    assert run.status == RunStatus.DONE and run.result["games"] == CHUNK_SIZE


def test_watchdog_command_requeues_and_reports(owner, published, django_capture_on_commit_callbacks):
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import CommandError

    run = start(owner, games=CHUNK_SIZE)
    _stall(run)
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("simulations_watchdog", "--older-than", "60", stdout=out)
    assert out.getvalue() == f"requeued: {run.public_id}\n" and published == [(run.pk, 0)]
    with pytest.raises(CommandError, match="--older-than"):
        call_command("simulations_watchdog", "--older-than", "0")


def test_the_chunk_task_skips_stored_chunks_and_reports_a_time_limit(owner, published, monkeypatch):
    from celery.exceptions import SoftTimeLimitExceeded

    from builder.tasks import simulation_chunk

    run = start(owner)
    assert simulation_chunk.run(run.pk, 0) is True
    assert simulation_chunk.run(run.pk, 0) is False  # redelivered: skipped

    def too_slow(*args, **kwargs):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr("rules_engine.simulation.run_games", too_slow)
    assert simulation_chunk.run(run.pk, 1) is False
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED
    assert run.error.startswith("Chunk 1 took longer than 60 s (the per-chunk time limit)")
    assert SimulationChunk.objects.filter(run=run).count() == 1


def test_chunks_are_published_under_the_chunk_tasks_name():
    """builder.queue publishes a chunk by the task's name (it imports no task): the name is the task's."""
    from builder import queue
    from builder.tasks import simulation_chunk

    assert queue.CHUNK_TASK == simulation_chunk.name
