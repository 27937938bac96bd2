"""Chunk sizes follow the measured cost of a game, and a list far beyond any format is refused.

Was: a list with a huge deck (960 entries × qty 999) made each chunk of the simulator's fixed size (4 000 HAGMI games
against the goldfish, about 0.9 s a game at that size) run into the 60 s soft limit and fail, and a user could keep
3 workers busy that way. Now:

- a run's chunk size is chosen at submit by timing the first games of its snapshot (`measured_chunk_size`): the
  simulator's size while such a chunk is estimated at 5 s or less, else about 2 s of games (at least one game). It is
  stored on the run (`chunk_size`), so every worker and the watchdog cut the run the same way;
- every stat merges exactly (integer sums), so the result is byte-identical to the in-process `simulate` whatever
  the chunk size and the number of workers;
- a list larger than its system's `max_list_size` is refused before anything is prepared: 400
  `simulation.list_too_large` (API), a form error (page), exit 2 (`manage.py simulate`).

Time is never measured here: a fake clock stands in for the probe's, advanced by each game the probe plays.
"""
from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from builder import services
from builder.models import RunStatus, SimulationChunk, SimulationRun
from builder.services import runs_plan, runs_submit
from rules_engine import simulation as engine
from rules_engine.core.runner import merge_summaries
from rules_engine.core.stats import Mean, Summary
from tests.services.conftest import broker, toy_faults, worker_env_overrides, workers  # noqa: F401  (fixtures)
from tests.support.simulations import assert_run_done_once, hagmi_catalog, play_all, published, toy  # noqa: F401
from tests.support.snapshots import bundled_hagmi_snapshot
from tests.support.toy_simulator import toy_snapshot

from .conftest import hagmi_doc

SEED = 20261213


class FakeClock:
    """The probe's clock: time passes only when a (monkeypatched) game is played."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def slow_games(monkeypatch, system: str, seconds: float) -> FakeClock:
    """Every game of `system` played in THIS process costs `seconds` on the returned fake clock, which the submit's
    probe reads (worker processes play the real games, at their real speed: only the probe is fooled)."""
    clock = FakeClock()
    simulator = type(engine.simulator_for(system))  # patched on the class: monkeypatch restores it exactly
    play_one = simulator.play_one

    def timed(self, prepared, game_index, rng):
        clock.now += seconds
        return play_one(self, prepared, game_index, rng)

    monkeypatch.setattr(simulator, "play_one", timed)
    monkeypatch.setattr(runs_submit, "CHUNK_PROBE_CLOCK", clock)
    return clock


def huge_hagmi_doc() -> dict:
    """The list of the issue: 960 entries × qty 999 (builder test catalog codes, repeated), plus damage and 秘策."""
    document = hagmi_doc()
    document["name"] = "Huge"
    document["sections"]["weapons"] = [{"card": f"HT-{1 + n % 10:03d}", "qty": 999} for n in range(480)]
    document["sections"]["tactics"] = [{"card": f"HT-{11 + n % 10:03d}", "qty": 999} for n in range(480)]
    return document


HUGE_SIZE = 960 * 999 + 2  # + 1 damage card + 1 秘策


def exact_json(summary: Summary) -> str:
    return json.dumps(summary.to_dict(exact=True), sort_keys=True)


# --- chunk size from the measured cost of a game ------------------------------------------------------------


@pytest.mark.parametrize(
    "seconds_per_game, probe_games, chunk_size",
    [
        (2**-13, engine.PROBE_MAX_GAMES, 500),  # cheap games: the simulator's size (500 × 0.12 ms)
        (2**-7, 26, 500),  # 500 games ≈ 3.9 s: within 5 s, kept
        (2**-6, 13, 128),  # 500 games would be 7.8 s: 128 games ≈ 2 s
        (2**-4, 4, 32),  # 2 s
        (0.5, 1, 4),  # 2 s
        (4.0, 1, 1),  # one game a chunk: 4 s
        (8.0, 1, 1),  # a single game longer than 5 s is a chunk by itself
    ],
)
def test_chunk_size_follows_measured_game_cost(toy, monkeypatch, seconds_per_game, probe_games, chunk_size):
    clock = slow_games(monkeypatch, "toy", seconds_per_game)
    snapshot = toy_snapshot()
    assert engine.chunk_size_for(snapshot) == engine.CHUNK_SIZE == 500  # the simulator's size: the ceiling

    cost = engine.measure_game_cost(snapshot, seed=SEED, clock=clock)
    assert cost.games == probe_games and cost.per_game == seconds_per_game
    assert cost.games == engine.PROBE_MAX_GAMES or cost.seconds >= engine.PROBE_SECONDS  # bounded probe
    clock.now = 0.0
    size = engine.measured_chunk_size(snapshot, seed=SEED, clock=clock)
    assert size == chunk_size
    estimated = size * seconds_per_game
    if size < 500 and size > 1:
        assert 1.0 <= estimated <= 5.0  # the documented 1–5 s of work per chunk
    assert estimated <= 5.0 or size == 1


def test_a_slow_snapshot_run_is_cut_by_its_measured_size_and_equals_the_in_process_result(
    toy, owner, published, monkeypatch, django_capture_on_commit_callbacks
):
    games = 1000
    snapshot = toy_snapshot(target=400)
    expected = engine.simulate(snapshot, games=games, seed=SEED)  # 2 chunks of 500, no probe
    slow_games(monkeypatch, "toy", 2**-4)  # 500 games would take 31 s: 32 games ≈ 2 s

    with django_capture_on_commit_callbacks(execute=True):
        run = services.simulation_start(user=owner, snapshot=snapshot, games=games, seed=SEED)
    assert (run.chunk_size, run.chunks_total) == (32, math.ceil(games / 32))
    assert published == [(run.pk, index) for index in range(run.chunks_total)]
    assert run.chunk_size * 2**-4 <= engine.CHUNK_SECONDS_MAX  # what was wrong: 500 × 0.0625 s = 31 s a chunk

    play_all(run, order=list(reversed(range(run.chunks_total))))  # any order of completion
    run.refresh_from_db()
    assert_run_done_once(run, expected, games)
    stored = SimulationChunk.objects.filter(run=run).order_by("index")
    assert [chunk.games for chunk in stored] == [32] * 31 + [8]


def test_the_stored_chunk_size_is_what_workers_and_the_watchdog_use(
    toy, owner, published, monkeypatch, django_capture_on_commit_callbacks
):
    slow_games(monkeypatch, "toy", 2**-4)
    run = services.simulation_start(user=owner, snapshot=toy_snapshot(), games=100, seed=SEED)
    assert run.chunk_size == 32 and run.chunks_total == 4

    def no_probe(*args, **kwargs):
        raise AssertionError("only the submit measures; workers and the watchdog read run.chunk_size")

    monkeypatch.setattr(engine, "measured_chunk_size", no_probe)
    monkeypatch.setattr(engine, "measure_game_cost", no_probe)
    services.simulation_chunk_play(run_id=run.pk, index=3)
    assert SimulationChunk.objects.get(run=run, index=3).games == 4  # games 96-99
    with django_capture_on_commit_callbacks(execute=True):
        report = services.simulations_requeue_stalled(older_than=-1)
    assert report["requeued"] == [run.public_id]
    assert published == [(run.pk, 0), (run.pk, 1), (run.pk, 2)]


def test_a_reused_result_keeps_the_chunk_size_and_needs_no_probe(toy, owner, other, published, monkeypatch):
    slow_games(monkeypatch, "toy", 2**-4)
    first = services.simulation_start(user=owner, snapshot=toy_snapshot(), games=100, seed=SEED)
    play_all(first)

    def no_probe(*args, **kwargs):
        raise AssertionError("a reused run plays no game")

    monkeypatch.setattr(engine, "measured_chunk_size", no_probe)
    copy = services.simulation_start(user=other, snapshot=toy_snapshot(), games=100, seed=SEED)
    assert copy.status == RunStatus.DONE and copy.reused_from_id == first.pk
    assert (copy.chunk_size, copy.chunks_total) == (32, 4)


def test_a_run_stored_before_measured_sizes_is_cut_as_before(toy, owner, published):
    run = services.simulation_start(user=owner, snapshot=toy_snapshot(), games=1200, seed=SEED)
    SimulationRun.objects.filter(pk=run.pk).update(chunk_size=None)  # as the migration leaves older rows
    run.refresh_from_db()
    assert runs_plan.run_chunk_ranges(run) == engine.chunks(1200, run.snapshot) == [
        range(0, 500), range(500, 1000), range(1000, 1200)]
    play_all(run)
    run.refresh_from_db()
    assert run.status == RunStatus.DONE and run.result == engine.simulate(run.snapshot, games=1200, seed=SEED)


def test_a_first_game_that_raises_is_a_400_at_submit(toy, owner, published, monkeypatch):
    def broken(self, prepared, game_index, rng):
        raise KeyError("speed")

    monkeypatch.setattr(type(engine.simulator_for("toy")), "play_one", broken)
    with pytest.raises(services.SimulationInvalid) as refused:
        services.simulation_start(user=owner, snapshot=toy_snapshot(), games=100, seed=SEED)
    assert refused.value.status == 400
    assert f"game 0 of the run seeded {SEED} failed: KeyError: 'speed'" in refused.value.message
    assert not SimulationRun.objects.exists() and published == []


def test_the_real_probe_costs_the_request_a_fraction_of_a_second():
    """Real clock, real engine: the probe stops after PROBE_SECONDS or PROBE_MAX_GAMES games (no speed asserted)."""
    cost = engine.measure_game_cost(bundled_hagmi_snapshot("sample-vanguard", "goldfish"), seed=SEED)
    assert 1 <= cost.games <= engine.PROBE_MAX_GAMES
    assert cost.games == engine.PROBE_MAX_GAMES or cost.seconds >= engine.PROBE_SECONDS


@pytest.mark.parametrize("ceiling, seconds_per_game, expected", [
    (4000, 0.9, 2),  # the huge HAGMI deck against the goldfish: 2 games ≈ 1.8 s, not 3 600 s
    (4000, 0.0003, 4000),  # a sample deck against the goldfish: 1.2 s, kept
    (500, 0.0103, 194),  # a 24-unit MWDA army (about 10 ms a battle): 5.2 s → 2 s
    (250, 0.002, 250),  # a large Warcaster force: 0.5 s, kept
])
def test_chunk_size_for_cost_of_real_lists(ceiling, seconds_per_game, expected):
    size = engine.chunk_size_for_cost(ceiling, seconds_per_game)
    assert size == expected
    assert size == ceiling or 1.0 <= size * seconds_per_game <= 5.0


# --- exact merging: any chunking, the same bytes ------------------------------------------------------------


def test_means_merge_exactly_whatever_the_chunking():
    rng = random.Random(8)
    values = [rng.gauss(1e6, 3.5) if i % 3 else rng.randint(0, 40) / rng.randint(1, 7) for i in range(3000)]
    results = set()
    for size in (1, 7, 64, 999, 3000):
        parts = []
        for lo in range(0, len(values), size):
            part = Mean()
            for x in values[lo:lo + size]:
                part.add(x)
            parts.append(Mean.from_dict(json.loads(json.dumps(part.to_dict(exact=True)))))  # as stored
        for order in (parts, parts[::-1]):
            merged = Mean()
            for part in order:
                merged.merge(part)
            results.add(json.dumps(merged.to_dict(exact=True)))
    assert len(results) == 1  # Welford's float merge differed in the last bits here
    merged = Mean.from_dict(json.loads(results.pop()))
    exact_mean = sum(map(__import__("fractions").Fraction, values)) / len(values)
    assert merged.mean == float(exact_mean)  # correctly rounded from the exact sum


def test_a_mean_stored_before_exact_sums_is_read_as_its_floats():
    old = {"type": "mean", "count": 3, "mean": 2.5, "m2": 0.5, "stddev": 0.5}  # no "exact": an older chunk row
    mean = Mean.from_dict(old)
    assert (mean.count, mean.mean, mean.m2) == (3, 2.5, 0.5)
    mean.merge(Mean.from_dict(old))
    assert (mean.count, mean.mean, mean.m2) == (6, 2.5, 1.0)
    bad = {**old, "exact": {"sum": 1, "squares": 0, "scale": 0}}  # 3 values summing to 1 need squares ≥ 1/3
    with pytest.raises(ValueError, match=r"mean.exact: the sums do not belong to 3 values"):
        Mean.from_dict(bad)
    with pytest.raises(ValueError, match=r"mean.exact.scale"):
        Mean.from_dict({**old, "exact": {"sum": 1, "squares": 9, "scale": 5000}})


def test_real_games_merge_to_the_same_bytes_whatever_the_chunk_size():
    """HAGMI records a float per game (damage per turn): chunks of any size, merged in any order, are one run."""
    snapshot = bundled_hagmi_snapshot("sample-vanguard", "goldfish")
    games = 300
    whole = engine.play_chunk(snapshot, seed=SEED, start=0, count=games)
    expected = engine.simulate(snapshot, games=games, seed=SEED)
    for size in (1, 7, 64, 299):
        pieces = [engine.play_chunk(snapshot, seed=SEED, start=r.start, count=len(r))
                  for r in engine.chunks(games, snapshot, size)]
        stored = [Summary.from_dict(json.loads(json.dumps(piece.to_dict(exact=True)))) for piece in pieces]
        assert exact_json(merge_summaries(stored)) == exact_json(whole)
        assert exact_json(merge_summaries(reversed(stored))) == exact_json(whole)
        assert engine.simulate(snapshot, games=games, seed=SEED, chunk_size=size) == expected


def test_local_processes_give_the_same_result_with_a_measured_chunk_size():
    snapshot = bundled_hagmi_snapshot("sample-vanguard", "goldfish")
    expected = engine.simulate(snapshot, games=200, seed=SEED)
    assert engine.simulate(snapshot, games=200, seed=SEED, workers=2, chunk_size=30) == expected


# --- a list far beyond any format is refused ----------------------------------------------------------------


@pytest.mark.parametrize("system, section, limit, noun", [
    ("hagmi", "weapons", 400, "cards"),
    ("mwda", "army", 100, "units"),
    ("warcaster", "force", 150, "units and cyphers"),
])
def test_each_system_has_a_list_size_limit_far_beyond_its_formats(system, section, limit, noun):
    assert engine.simulator_for(system).max_list_size == limit

    def snapshot(qty):
        return {"schema": engine.SNAPSHOT_SCHEMA, "system": system, "cards": {}, "opponent": {}, "options": {},
                "list": {"schema": "hangar.list/1", "system": system, "sections": {section: [
                    {"card": "X-1", "qty": qty - 1}, {"card": "X-2", "qty": 1}]}}}

    engine.check_run(snapshot(limit), games=10, seed=1)  # at the limit: passes the size check
    with pytest.raises(engine.ListTooLargeToSimulate) as refused:
        engine.check_run(snapshot(limit + 1), games=10, seed=1)
    assert (refused.value.size, refused.value.limit, refused.value.system) == (limit + 1, limit, system)
    assert f"{limit + 1} {noun}" in str(refused.value) and f"at most {limit} {noun}" in str(refused.value)


def test_huge_deck_is_refused_for_simulation(hagmi_catalog, owner, published, monkeypatch):
    """The issue's list: 400 `simulation.list_too_large` naming the size and the limit; nothing played or written."""
    from tests.builder.conftest import client_for

    def no_game(*args, **kwargs):
        raise AssertionError("a refused list is never prepared or played")

    monkeypatch.setattr(type(engine.simulator_for("hagmi")), "prepare", no_game)
    monkeypatch.setattr(type(engine.simulator_for("hagmi")), "play_one", no_game)
    client = client_for(owner)
    body = {"document": huge_hagmi_doc(), "opponent": "goldfish", "games": 1000, "seed": 7}
    response = client.post("/api/simulations/", body, format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "simulation.list_too_large"
    assert error["message"] == (f"list: {HUGE_SIZE} cards is far more than any HAGMI format allows; a list of at "
                                "most 400 cards can be simulated.")
    assert error["details"] == {"path": "list", "system": "hagmi", "size": HUGE_SIZE, "limit": 400}

    saved = services.list_create(owner=owner, document=huge_hagmi_doc(), visibility="private")  # saving is fine
    body = {"list": saved.slug, "opponent": "goldfish", "games": 1000, "seed": 7}
    response = client.post("/api/simulations/", body, format="json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "simulation.list_too_large"
    assert not SimulationRun.objects.exists() and published == []


def test_huge_deck_is_refused_on_the_simulate_page(hagmi_catalog, owner, published):
    saved = services.list_create(owner=owner, document=huge_hagmi_doc(), visibility="private")
    client = Client()
    client.force_login(owner)
    response = client.post(f"/lists/{saved.slug}/simulate/",
                           {"opponent": "goldfish", "policy": "greedy", "games": 1000, "seed": 7})
    assert response.status_code == 400
    page = response.content.decode()
    assert f"list: {HUGE_SIZE} cards is far more than any HAGMI format allows" in page
    assert "at most 400 cards can be simulated" in page
    assert not SimulationRun.objects.exists()


def test_huge_deck_is_refused_by_the_simulate_command(hagmi_catalog, tmp_path: Path):
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(huge_hagmi_doc()), encoding="utf-8")
    with pytest.raises(CommandError) as refused:
        call_command("simulate", str(path), "--opponent", "goldfish", "--games", "1000", "--seed", "7")
    assert refused.value.returncode == 2
    assert f"list: {HUGE_SIZE} cards is far more than any HAGMI format allows" in str(refused.value)
    assert "at most 400 cards" in str(refused.value)


# --- real Celery workers ------------------------------------------------------------------------------------


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("worker_count", [1, 2])
def test_real_workers_play_a_measured_chunk_size_to_the_in_process_result(
    workers, worker_count, monkeypatch  # noqa: F811  (the real-worker fixture of tests/services/conftest.py)
):
    """A slow snapshot (as the probe sees it) cut into 16 chunks of 64 on 1 and 2 real workers: exactly the
    in-process `simulate` result (one chunk of 1 000 there), every chunk stored once."""
    import time

    from django.contrib.auth import get_user_model

    if worker_count == 1:
        workers.kill(1)
    user = get_user_model().objects.create_user(username="measured", password="x-Test-pw-42")
    snapshot = bundled_hagmi_snapshot("sample-vanguard", "goldfish")
    games = 1000
    expected = engine.simulate(snapshot, games=games, seed=SEED)
    whole = engine.play_chunk(snapshot, seed=SEED, start=0, count=games)
    slow_games(monkeypatch, "hagmi", 2**-5)  # 4 000 games would be 125 s: 64 games ≈ 2 s

    run = services.simulation_start(user=user, snapshot=snapshot, games=games, seed=SEED)
    assert (run.chunk_size, run.chunks_total) == (64, 16)
    deadline = time.monotonic() + 120
    while run.is_active and time.monotonic() < deadline:
        time.sleep(0.2)
        run.refresh_from_db()
    assert_run_done_once(run, expected, games)
    stored = [Summary.from_dict(raw) for raw in run.chunks.order_by("index").values_list("summary", flat=True)]
    assert exact_json(merge_summaries(stored)) == exact_json(whole)  # every bit, not only the rounded report
    hosts = set(run.chunks.values_list("worker", flat=True))
    assert len(hosts) <= worker_count and (worker_count == 2 or hosts == {workers.names[0]})
