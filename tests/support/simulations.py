"""Fixtures and helpers for the simulation unit tests (no worker process: chunks are played by direct calls)."""
from __future__ import annotations

import json

import pytest

from builder import services
from builder.models import RunStatus, SimulationChunk, SimulationRun
from cards.services import package_import
from rules_engine.simulation import chunks as engine_chunks
from tests.builder.conftest import hagmi_package

GOLDFISH = {"slug": "goldfish", "name": "案山子", "name_en": "Goldfish", "kind": "goldfish",
            "damage_deck": [{"card": "HT-021", "qty": 10}]}


@pytest.fixture
def toy(settings):
    """The toy simulator is known to this process (as workers know it through HANGAR_SIMULATOR_MODULES)."""
    settings.HANGAR_SIMULATOR_MODULES = ["tests.support.toy_simulator"]
    services.load_simulator_modules()


@pytest.fixture
def small_chunks(monkeypatch):
    """Cut every run into chunks of CHUNK_SIZE (500) games, whatever the opponent: tests of progress and merging
    need several chunks of a short run (the real sizes, up to 4 000 games, are for 1–5 s of work per task)."""
    import rules_engine.simulation as engine

    monkeypatch.setattr(engine, "chunk_size_for", lambda snapshot: engine.CHUNK_SIZE)


@pytest.fixture
def published(monkeypatch) -> list[tuple[int, int]]:
    """Record the chunk messages instead of publishing them: (run id, chunk index) per message."""
    from builder import queue

    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(queue, "send_chunk", lambda run_id, index: sent.append((run_id, index)))
    return sent


@pytest.fixture
def hagmi_catalog(db):
    """The builder test catalog (tests/builder/conftest.py) plus a goldfish opponent, for the real HAGMI engine."""
    package_import({**hagmi_package(), "opponents": [GOLDFISH]}, source="tests/support")


def play_all(run: SimulationRun, order: list[int] | None = None, worker: str = "test@host") -> None:
    """Play the run's chunks in this process, as the workers would, in the given order. A doctor run's next stage
    (added when its screen is merged, with chunks numbered after the stored ones) is played next, in index order,
    as the workers would receive its messages."""
    known = run.chunks_total
    for index in order if order is not None else range(run.chunks_total):
        services.simulation_chunk_play(run_id=run.pk, index=index, worker=worker)
    while True:
        current = SimulationRun.objects.get(pk=run.pk)
        if not current.is_active or current.chunks_total <= known:
            return
        for index in range(known, current.chunks_total):
            services.simulation_chunk_play(run_id=run.pk, index=index, worker=worker)
        known = current.chunks_total


def assert_run_done_once(run: SimulationRun, expected: dict, games: int) -> None:
    """`done` with exactly the in-process result `expected`, and every chunk of the run stored once and counted once
    (the real-worker and fault tests)."""
    assert run.status == RunStatus.DONE, run.error
    assert json.dumps(run.result, sort_keys=True) == json.dumps(expected, sort_keys=True)
    chunks = SimulationChunk.objects.filter(run=run)
    assert sorted(chunks.values_list("index", flat=True)) == list(range(run.chunks_total))
    cut = engine_chunks(games, run.snapshot, run.chunk_size)  # the chunk size chosen at submit
    assert chunks.count() == run.chunks_total == run.chunks_done == len(cut)
    assert sum(chunks.values_list("games", flat=True)) == games == run.result["games"]


def confirm(run: SimulationRun, key: str) -> None:
    """Mark change `key` of finished doctor run `run` confirmed better, as its confirm stage does when the change wins
    on fresh games: the tests of Apply itself (only a confirmed change is applied) use it on a run too small to
    confirm anything."""
    run.refresh_from_db()
    for change in run.result["changes"]:
        if change["key"] == key:
            change.update(confirmed=True, verdict="better")
    run.save(update_fields=["result"])
