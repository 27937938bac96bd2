"""Gauntlet and list doctor runs on the simulation machinery (builder.services.batches): the rows equal
separate plain runs with the same seed, the doctor's baseline equals the plain run, a change is applied as a new
revision, chunks stored twice change nothing, bad input is a 400 naming the field. No worker process: chunks are
played by direct calls (tests.support.simulations.play_all), in any order."""
from __future__ import annotations

import json

import pytest

from builder import selectors, services
from builder.errors import DoctorApplyRefused, ListNotFound, ListPermissionDenied, SimulationInvalid, SimulationLimitExceeded
from builder.models import RunKind, RunStatus, SimulationChunk, SimulationRun
from rules_engine.doctor import minimum_games
from tests.support.simulations import confirm, hagmi_catalog, play_all, published  # noqa: F401

from .conftest import hagmi_doc

pytestmark = pytest.mark.django_db

SEED = 7
GAMES = 12


def budget(changes: int) -> int:
    """The smallest budget of a doctor run of `changes` changes against one opponent (the doctor's minimum)."""
    return minimum_games(changes, 1)


def same(a, b) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def plain(user, games=GAMES, **kwargs):
    run = services.simulation_start(user=user, games=games, seed=SEED, **kwargs)
    play_all(run)
    run.refresh_from_db()
    assert run.status == RunStatus.DONE, run.error
    return run.result


@pytest.fixture
def rival(other, hagmi_catalog):
    """A public list of another user: an opponent from the gallery."""
    return services.list_create(owner=other, document=hagmi_doc(name="Rival", weapons=22, tactics=18),
                                visibility="public")


@pytest.fixture
def mine(owner, hagmi_catalog):
    return services.list_create(owner=owner, document=hagmi_doc(), visibility="private")


def test_a_gauntlet_row_is_the_plain_run_against_that_opponent(owner, mine, rival, published):
    run = services.gauntlet_start(
        user=owner, game_list=mine, games=GAMES, seed=SEED,
        opponents=[{"opponent": "goldfish", "weight": 3}, {"list": rival.slug, "weight": 1}])
    assert run.kind == RunKind.GAUNTLET and run.snapshot["schema"] == "hangar.batch/1"
    assert run.chunks_total == len(services.runs_plan.run_chunks(run)) >= 2
    play_all(run, order=list(reversed(range(run.chunks_total))))
    run.refresh_from_db()
    assert run.status == RunStatus.DONE, run.error
    rows = {row["key"]: row for row in run.result["opponents"]}
    assert set(rows) == {"goldfish", f"list:{rival.slug}"}
    assert rows["goldfish"]["weight"] == 0.75
    assert same(rows["goldfish"]["result"], plain(owner, game_list=mine, opponent_slug="goldfish"))
    # the list opponent's leg: the same snapshot a plain run of that leg would freeze
    leg = run.snapshot["legs"][1]["snapshot"]
    assert same(rows[f"list:{rival.slug}"]["result"], plain(owner, snapshot=leg))
    assert selectors.simulation_progress(run) == 100


def test_a_doctor_run_baseline_is_the_plain_run_and_a_change_applies_as_a_revision(owner, mine, published):
    run = services.doctor_start(user=owner, game_list=mine, opponents=[{"opponent": "goldfish"}], changes=3,
                                games=budget(3), seed=SEED)
    assert run.kind == RunKind.DOCTOR
    play_all(run)
    run.refresh_from_db()
    assert run.status == RunStatus.DONE, run.error
    (row,) = run.result["baseline"]["opponents"]
    screen = run.result["stages"][0]
    assert screen["stage"] == "screen" and screen["seed"] == SEED
    assert same(row["result"], plain(owner, games=screen["games"], game_list=mine, opponent_slug="goldfish"))
    changes = run.result["changes"]
    assert 1 <= len(changes) <= 3 and all(change["sentence"]["en"] and change["sentence"]["ja"] for change in changes)
    key = changes[0]["key"]
    before = mine.revisions.count()
    if not changes[0]["confirmed"]:
        with pytest.raises(DoctorApplyRefused, match="was not confirmed better") as info:
            services.doctor_apply(user=owner, run=run, change_key=key)
        assert info.value.details["reason"] == "not_confirmed" and mine.revisions.count() == before
        confirm(run, key)  # as the confirm stage marks a change that wins on fresh games
    saved, revision = services.doctor_apply(user=owner, run=run, change_key=key)
    assert revision.number == before + 1 and saved.revisions.count() == before + 1
    legs = [leg for leg in run.snapshot["legs"] if leg["change"] == key]
    assert revision.document["sections"] == legs[0]["about"]["document"]["sections"]
    assert selectors.list_document(saved)["sections"] == {
        name: entries for name, entries in legs[0]["about"]["document"]["sections"].items()}


def test_doctor_apply_refuses_unknown_changes_other_users_and_runs_without_a_list(owner, other, mine, published):
    run = services.doctor_start(user=owner, game_list=mine, opponents=[{"opponent": "goldfish"}], changes=2,
                                games=budget(2), seed=SEED)
    play_all(run)
    run.refresh_from_db()
    with pytest.raises(SimulationInvalid, match="has no change 'nope'") as info:
        services.doctor_apply(user=owner, run=run, change_key="nope")
    assert info.value.details["path"] == "change"
    with pytest.raises(SimulationInvalid, match="change"):
        services.doctor_apply(user=owner, run=run, change_key="baseline")
    with pytest.raises(ListNotFound):
        services.doctor_apply(user=other, run=run, change_key=run.result["changes"][0]["key"])
    loose = services.doctor_start(user=owner, document=hagmi_doc(), opponents=[{"opponent": "goldfish"}], changes=2,
                                  games=budget(2), seed=SEED + 1)  # another seed: not the run above, reused
    play_all(loose)
    loose.refresh_from_db()
    with pytest.raises(SimulationInvalid, match="has no saved list"):
        services.doctor_apply(user=owner, run=loose, change_key=loose.result["changes"][0]["key"])
    gauntlet = services.gauntlet_start(user=owner, game_list=mine, opponents=[{"opponent": "goldfish"}], games=4,
                                       seed=SEED)
    with pytest.raises(SimulationInvalid, match="only a list doctor run"):
        services.doctor_apply(user=owner, run=gauntlet, change_key="x")


def test_doctor_apply_waits_for_a_finished_run_and_refuses_a_list_whose_cards_changed(owner, mine, published):
    """Apply stands for the figures: a running run's ranking can still change, a cancelled one's is incomplete, and
    after the list's cards changed the figures are for other cards (409, nothing saved). A new name is no change
    of cards: the applied revision keeps it and takes the change's cards."""
    run = services.doctor_start(user=owner, game_list=mine, opponents=[{"opponent": "goldfish"}], changes=2,
                                games=budget(2), seed=SEED)
    services.simulation_chunk_play(run_id=run.pk, index=0)
    run.refresh_from_db()
    key = doctor_keys(run)[0]
    with pytest.raises(DoctorApplyRefused, match="is still playing") as info:
        services.doctor_apply(user=owner, run=run, change_key=key)
    assert info.value.status == 409 and info.value.details == {"path": "run", "reason": "playing"}
    play_all(run)
    run.refresh_from_db()
    assert services.batches.apply_refusal(run) is None
    renamed = {**selectors.list_document(mine), "name": "Renamed after the run"}
    mine = services.list_update(game_list=mine, user=owner, document=renamed, expected_version=mine.version)
    assert services.batches.apply_refusal(run) is None  # the name is not the cards
    edited = selectors.list_document(mine)
    edited["sections"]["weapons"][-1]["qty"] = 1  # one copy out (an illegal list is saved too)
    mine = services.list_update(game_list=mine, user=owner, document=edited, expected_version=mine.version)
    revisions = mine.revisions.count()
    with pytest.raises(DoctorApplyRefused, match="has changed since run") as info:
        services.doctor_apply(user=owner, run=run, change_key=key)
    assert info.value.details["reason"] == "list_changed" and mine.revisions.count() == revisions
    mine = services.list_update(game_list=mine, user=owner, document=renamed | {"name": "Back"},
                                expected_version=mine.version)  # the cards the run played, again
    confirm(run, key)  # only a change confirmed on fresh games is applied
    saved, revision = services.doctor_apply(user=owner, run=run, change_key=key)
    assert saved.name == "Back" and revision.document["name"] == "Back"
    assert revision.document["sections"] == changed_document(run, key)["sections"]


def test_doctor_apply_refuses_a_cancelled_run(owner, mine, published):
    run = services.doctor_start(user=owner, game_list=mine, opponents=[{"opponent": "goldfish"}], changes=1,
                                games=budget(1), seed=SEED)
    key = doctor_keys(run)[0]
    services.simulation_cancel(run=run, user=owner)
    run.refresh_from_db()
    with pytest.raises(DoctorApplyRefused, match="was cancelled before all its games were played") as info:
        services.doctor_apply(user=owner, run=run, change_key=key)
    assert info.value.details["reason"] == "incomplete" and mine.revisions.count() == 1


def doctor_keys(run) -> list[str]:
    """The changes a doctor run tries, in the order the batch froze them (known before any game is played)."""
    return list(dict.fromkeys(leg["change"] for leg in run.snapshot["legs"] if leg["change"] != "baseline"))


def changed_document(run, key):
    return next(leg["about"]["document"] for leg in run.snapshot["legs"] if leg["change"] == key)


def test_doctor_apply_on_a_public_list_of_someone_else_is_refused(owner, other, hagmi_catalog, published):
    theirs = services.list_create(owner=other, document=hagmi_doc(name="Theirs"), visibility="public")
    run = services.doctor_start(user=owner, game_list=theirs, opponents=[{"opponent": "goldfish"}], changes=1,
                                games=budget(1), seed=SEED)
    play_all(run)
    run.refresh_from_db()
    with pytest.raises(ListPermissionDenied):
        services.doctor_apply(user=owner, run=run, change_key=run.result["changes"][0]["key"])


def test_a_chunk_stored_twice_changes_nothing_and_the_merge_is_once(owner, mine, published):
    run = services.gauntlet_start(user=owner, game_list=mine, opponents=[{"opponent": "goldfish"}], games=GAMES,
                                  seed=SEED)
    assert services.simulation_chunk_play(run_id=run.pk, index=0, worker="a") is True
    assert services.simulation_chunk_play(run_id=run.pk, index=0, worker="b") is False
    stored = SimulationChunk.objects.get(run=run, index=0)
    assert services.simulation_chunk_store(run_id=run.pk, index=0, summary=stored.summary, worker="c") is False
    assert list(SimulationChunk.objects.filter(run=run).values_list("index", "worker")) == [(0, "a")]
    play_all(run)
    run.refresh_from_db()
    first = (run.result, run.finished_at)
    services.simulation_finish(run_id=run.pk)
    play_all(run)
    run.refresh_from_db()
    assert (run.result, run.finished_at) == first and run.status == RunStatus.DONE


def test_a_cancelled_batch_run_plays_no_more_chunks_and_keeps_no_result(owner, mine, rival, published):
    """Cancelling a gauntlet mid-run: its remaining chunks are skipped by the workers, nothing is merged, the watchdog
    leaves it alone, and the API and page say it was cancelled."""
    from django.test import Client

    run = services.gauntlet_start(user=owner, game_list=mine, games=GAMES, seed=SEED,
                                  opponents=[{"opponent": "goldfish"}, {"list": rival.slug}])
    assert services.simulation_chunk_play(run_id=run.pk, index=0) is True
    services.simulation_cancel(run=run, user=owner)
    for index in range(1, run.chunks_total):
        assert services.simulation_chunk_play(run_id=run.pk, index=index) is False
    assert services.simulations_requeue_stalled(older_than=-1) == {"requeued": [], "failed": [], "finished": []}
    run.refresh_from_db()
    assert run.status == RunStatus.CANCELLED and run.result is None and run.chunks_done == 1
    assert list(SimulationChunk.objects.filter(run=run).values_list("index", flat=True)) == [0]
    client = Client()
    client.force_login(owner)
    api = client.get(f"/api/simulations/{run.public_id}/").json()
    assert api["status"] == "cancelled" and api["result"] is None and api["kind"] == "gauntlet"
    page = client.get(f"/simulations/{run.public_id}/").content.decode()
    assert "Cancelled by its owner." in page and 'class="gauntlet"' not in page


def test_the_watchdog_requeues_the_missing_chunks_of_a_batch_run(owner, mine, published):
    run = services.doctor_start(user=owner, game_list=mine, opponents=[{"opponent": "goldfish"}], changes=2,
                                games=budget(2), seed=SEED)
    services.simulation_chunk_play(run_id=run.pk, index=0)
    assert selectors.simulation_missing_chunks(run) == list(range(1, run.chunks_total))
    report = services.simulations_requeue_stalled(older_than=-1)
    assert report["requeued"] == [run.public_id]
    play_all(run)
    run.refresh_from_db()
    assert run.status == RunStatus.DONE and run.result["kind"] == "doctor"


def test_kind_is_part_of_the_reuse_key(owner, mine, published):
    gauntlet = services.gauntlet_start(user=owner, game_list=mine, opponents=[{"opponent": "goldfish"}], games=4,
                                       seed=SEED)
    assert services.gauntlet_start(user=owner, game_list=mine, opponents=[{"opponent": "goldfish"}], games=4,
                                   seed=SEED).pk == gauntlet.pk
    doctor = services.doctor_start(user=owner, game_list=mine, opponents=[{"opponent": "goldfish"}], changes=1,
                                   games=budget(1), seed=SEED)
    simulation = services.simulation_start(user=owner, game_list=mine, opponent_slug="goldfish", games=4, seed=SEED)
    assert len({gauntlet.pk, doctor.pk, simulation.pk}) == 3
    assert simulation.kind == RunKind.SIMULATION


def test_opponent_policy_reaches_the_snapshot(owner, mine, published):
    run = services.simulation_start(user=owner, game_list=mine, opponent_slug="goldfish", opponent_policy="random",
                                    games=4, seed=SEED)
    assert run.snapshot["opponent_policy"] == "random"
    assert "opponent_policy" not in services.simulation_start(user=owner, game_list=mine, opponent_slug="goldfish",
                                                              games=4, seed=SEED).snapshot


@pytest.mark.parametrize("opponents, path, message", [
    ([], "opponents", "non-empty array"),
    ("goldfish", "opponents", "non-empty array"),
    ([{"opponent": "nobody"}], "opponents[0].opponent", "no opponent 'nobody'"),
    ([{"opponent": "goldfish", "list": "x"}], "opponents[0]", "exactly one"),
    ([{"opponent": "goldfish", "weight": -1}], "opponents[0].weight", "from 0"),
    ([{"opponent": "goldfish", "weight": "heavy"}], "opponents[0].weight", "from 0"),
    ([{"opponent": "goldfish", "weight": 0}], "opponents", "weight above 0"),
    ([{"opponent": "goldfish"}, {"opponent": "goldfish"}], "opponents[1]", "given twice"),
    ([{"opponent": "goldfish", "colour": 1}], "opponents[0].colour", "unknown field"),
    ([{"list": "zzzzzzzz"}], "opponents[0].list", "public"),
])
def test_bad_opponents_name_the_path(owner, mine, published, opponents, path, message):
    with pytest.raises(SimulationInvalid, match=message) as info:
        services.gauntlet_start(user=owner, game_list=mine, opponents=opponents, games=4, seed=SEED)
    assert info.value.details["path"] == path
    assert not SimulationRun.objects.exists()


def test_a_private_list_of_another_user_is_refused_by_name(owner, other, mine, published):
    hidden = services.list_create(owner=other, document=hagmi_doc(name="Hidden"), visibility="private")
    with pytest.raises(SimulationInvalid, match=hidden.slug) as info:
        services.gauntlet_start(user=owner, game_list=mine, opponents=[{"list": hidden.slug}], games=4, seed=SEED)
    assert info.value.details == {"path": "opponents[0].list", "list": hidden.slug}
    own = services.list_create(owner=owner, document=hagmi_doc(name="Mine too"), visibility="private")
    run = services.gauntlet_start(user=owner, game_list=mine, opponents=[{"list": own.slug}], games=4, seed=SEED)
    assert run.snapshot["legs"][0]["key"] == f"list:{own.slug}"
    shared = services.list_create(owner=other, document=hagmi_doc(name="By its link"), visibility="unlisted")
    run = services.gauntlet_start(user=owner, game_list=mine, opponents=[{"list": shared.slug}], games=4, seed=SEED)
    assert run.snapshot["legs"][0]["key"] == f"list:{shared.slug}"  # an unlisted list: whoever has its link


def test_the_doctor_needs_a_legal_list_and_a_sane_number_of_changes(owner, published, hagmi_catalog):
    with pytest.raises(SimulationInvalid, match="the list doctor needs a legal list") as info:
        services.doctor_start(user=owner, document=hagmi_doc(weapons=4), opponents=[{"opponent": "goldfish"}],
                              games=4, seed=SEED)
    assert info.value.code == "doctor.illegal_list" and info.value.details["path"] == "list"
    for changes, message in ((0, "from 1"), (True, "from 1"), (64, "at most 63")):
        with pytest.raises(SimulationInvalid, match=message):
            services.doctor_start(user=owner, document=hagmi_doc(), opponents=[{"opponent": "goldfish"}],
                                  changes=changes, games=4, seed=SEED)
    with pytest.raises(SimulationInvalid, match="games"):
        services.doctor_start(user=owner, document=hagmi_doc(), opponents=[{"opponent": "goldfish"}], games=0,
                              seed=SEED)
    assert not SimulationRun.objects.exists()


def test_a_batch_run_counts_every_leg_against_the_games_limit(owner, rival, published, hagmi_catalog, settings):
    """A gauntlet's games are per opponent: every leg counts. A doctor's games are its whole budget."""
    settings.HANGAR_MAX_GAMES = 100
    with pytest.raises(SimulationLimitExceeded, match=r"60 games × 2 lists and opponents is 120 games, more than the 100"
                       ) as info:
        services.gauntlet_start(user=owner, document=hagmi_doc(), opponents=[{"opponent": "goldfish"},
                                                                             {"list": rival.slug}], games=60, seed=SEED)
    assert info.value.details["path"] == "games"
    with pytest.raises(SimulationLimitExceeded, match=r"1000 games is more than the 100") as info:
        services.doctor_start(user=owner, document=hagmi_doc(), opponents=[{"opponent": "goldfish"}], changes=3,
                              games=1000, seed=SEED)
    assert info.value.details["path"] == "games"


def test_a_doctor_budget_below_the_minimum_is_refused_naming_games_and_writes_nothing(owner, published, hagmi_catalog):
    """Below (changes + 1) × 100 + 2 × 300 games per opponent the doctor could not tell a 5-point change from luck:
    a 400 doctor.too_few_games naming games, with the minimum; nothing is written, nothing published."""
    with pytest.raises(SimulationInvalid, match="needs at least 1000 games in all") as info:
        services.doctor_start(user=owner, document=hagmi_doc(), opponents=[{"opponent": "goldfish"}], changes=3,
                              games=999, seed=SEED)
    assert info.value.code == "doctor.too_few_games"
    assert info.value.details == {"path": "games", "minimum": 1000, "given": 999, "changes": 3, "opponents": 1}
    assert not SimulationRun.objects.exists() and published == []


@pytest.fixture
def decoy_army(owner, db):
    """The planted weakness (tests/support/planted.py) as a saved list, its catalog imported."""
    from cards.services import package_import
    from tests.support import planted

    package_import(planted.mwda_package(), source="tests/support/planted")
    return services.list_create(owner=owner, document=planted.weak_army(), visibility="private")


def test_the_confirm_stage_is_added_once_when_the_screen_is_merged_and_only_its_chunks_are_published(
        owner, decoy_army, published, django_capture_on_commit_callbacks):
    """Through the services as the workers drive them: the screen's chunks, then — when the last one is stored —
    the confirm stage on a seed derived from the run seed, its chunks numbered after the screen's and published on
    commit (only they); a screen chunk delivered again, a second merge and the watchdog change nothing but re-queue
    the missing confirm chunks; the result is byte for byte the in-process run_doctor of the frozen batch, and the
    swap back of the decoy is its one confirmed change."""
    from rules_engine.doctor import confirm_seed, run_doctor
    from tests.support import planted

    with django_capture_on_commit_callbacks(execute=True):
        run = services.doctor_start(user=owner, game_list=decoy_army, opponents=[{"opponent": planted.OPPONENT}],
                                    changes=3, games=budget(3), seed=SEED)
    screen_chunks = run.chunks_total
    assert [index for _run, index in published] == list(range(screen_chunks))
    assert [stage["stage"] for stage in run.stages] == ["screen"]
    published.clear()
    with django_capture_on_commit_callbacks(execute=True):
        for index in range(screen_chunks):
            services.simulation_chunk_play(run_id=run.pk, index=index)
    run.refresh_from_db()
    assert run.status == RunStatus.RUNNING and run.result is None
    assert [stage["stage"] for stage in run.stages] == ["screen", "confirm"]
    assert run.stages[1]["seed"] == confirm_seed(SEED, 1)
    assert run.chunks_total > screen_chunks
    assert [index for _run, index in published] == list(range(screen_chunks, run.chunks_total))
    total = run.chunks_total
    assert services.simulation_chunk_play(run_id=run.pk, index=0) is False  # a redelivered screen chunk
    services.simulation_finish(run_id=run.pk)  # a second merge of the screen: no third stage
    run.refresh_from_db()
    assert len(run.stages) == 2 and run.chunks_total == total
    assert services.simulations_requeue_stalled(older_than=-1)["requeued"] == [run.public_id]
    play_all(run)
    run.refresh_from_db()
    assert run.status == RunStatus.DONE, run.error
    assert sorted(SimulationChunk.objects.filter(run=run).values_list("index", flat=True)) == list(range(total))
    assert same(run.result, run_doctor(run.snapshot, games=budget(3), seed=SEED))
    assert run.result["best"] == planted.SWAP_BACK
    assert [c["key"] for c in run.result["changes"] if c["confirmed"]] == [planted.SWAP_BACK]
    assert selectors.simulation_progress(run) == 100


def test_a_doctor_run_cancelled_in_its_confirm_stage_plays_no_more_and_keeps_no_result(owner, decoy_army, published):
    from tests.support import planted

    run = services.doctor_start(user=owner, game_list=decoy_army, opponents=[{"opponent": planted.OPPONENT}],
                                changes=3, games=budget(3), seed=SEED)
    for index in range(run.chunks_total):
        services.simulation_chunk_play(run_id=run.pk, index=index)
    run.refresh_from_db()
    assert len(run.stages) == 2 and 0 < selectors.simulation_progress(run) < 100
    services.simulation_cancel(run=run, user=owner)
    for index in range(run.chunks_total):
        assert services.simulation_chunk_play(run_id=run.pk, index=index) is False
    run.refresh_from_db()
    assert run.status == RunStatus.CANCELLED and run.result is None
