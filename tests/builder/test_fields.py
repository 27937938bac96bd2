"""Fields (builder.services.fields, builder.selectors.field_*): named sets of weighted opponents that a gauntlet or
the list doctor plays; a private list never enters another player's field nor shows through it; bad input is a
400 naming the path; and a gauntlet or doctor run asked again is answered from the stored result without playing.
No worker process: chunks are played by direct calls (tests.support.simulations.play_all)."""
from __future__ import annotations

import json

import pytest

from builder import selectors, services
from builder.errors import ListInputError, ListNotFound, ListPermissionDenied, SimulationInvalid
from builder.models import FieldEntry, RunStatus, SimulationChunk, SimulationRun
from builder.services.fields import MAX_ENTRIES
from tests.support.simulations import hagmi_catalog, play_all, published  # noqa: F401

from .conftest import hagmi_doc

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("hagmi_catalog")]

SEED = 11


@pytest.fixture
def mine(owner):
    return services.list_create(owner=owner, document=hagmi_doc(name="Mine"), visibility="private")


@pytest.fixture
def secret(owner):
    """The owner's private list: it may sit in the owner's own field, and must never show to anyone else."""
    return services.list_create(owner=owner, document=hagmi_doc(name="Secret plan", weapons=22, tactics=18),
                                visibility="private")


@pytest.fixture
def shared(other):
    return services.list_create(owner=other, document=hagmi_doc(name="By its link", weapons=22, tactics=18),
                                visibility="unlisted")


@pytest.fixture
def field(owner, secret, shared):
    return services.field_create(owner=owner, system="hagmi", name="Spring league", visibility="public", entries=[
        {"opponent": "goldfish", "weight": 2}, {"list": secret.slug, "weight": 1}, {"list": shared.slug}])


def test_a_field_keeps_its_entries_and_weights_in_order(owner, field, secret, shared):
    assert selectors.field_opponents(field, user=owner) == [
        {"opponent": "goldfish", "weight": 2.0}, {"list": secret.slug, "weight": 1.0},
        {"list": shared.slug, "weight": 1.0}]
    assert selectors.field_search(user=owner, scope="mine").get().entry_count == 3
    assert list(selectors.field_search(user=None, scope="public")) == [field]


def test_a_private_list_never_shows_or_plays_through_another_players_field(owner, other, staff, field, secret,
                                                                          shared):
    for reader in (other, staff, None):
        opponents = selectors.field_opponents(field, user=reader)
        assert opponents == [{"opponent": "goldfish", "weight": 2.0}, {"list": shared.slug, "weight": 1.0}]
        assert selectors.field_hidden_count(field, user=reader) == 1
        assert secret.slug not in json.dumps(opponents)
    assert selectors.field_hidden_count(field, user=owner) == 0


def test_an_entry_naming_a_list_the_owner_may_not_see_is_refused(owner, other, mine):
    private = services.list_create(owner=other, document=hagmi_doc(name="Not yours"), visibility="private")
    with pytest.raises(ListInputError, match=private.slug) as info:
        services.field_create(owner=owner, system="hagmi", name="Meta", entries=[{"list": private.slug}])
    assert info.value.details == {"path": "entries[0].list", "list": private.slug}
    assert "Not yours" not in info.value.message
    field = services.field_create(owner=other, system="hagmi", name="Theirs", entries=[{"list": private.slug}])
    with pytest.raises(ListNotFound):  # a private field is a 404 for anyone but its owner
        selectors.field_get(slug=field.slug, user=owner)


@pytest.mark.parametrize("entries, path, message", [
    ("goldfish", "entries", "expected a list"),
    ([{"opponent": "nobody"}], "entries[0].opponent", "no sample opponent"),
    ([{"opponent": "goldfish", "list": "x"}], "entries[0]", "exactly one"),
    ([{"opponent": "goldfish", "weight": 0}], "entries[0].weight", "above 0"),
    ([{"opponent": "goldfish", "weight": True}], "entries[0].weight", "above 0"),
    ([{"opponent": "goldfish", "colour": 1}], "entries[0].colour", "unknown field"),
    ([{"opponent": "goldfish"}, {"opponent": "goldfish"}], "entries[1]", "given twice"),
    ([{"list": "\x00"}], "entries[0].list", "no list"),
    ([{"opponent": "goldfish"}] * (MAX_ENTRIES + 1), "entries", f"at most {MAX_ENTRIES}"),
])
def test_bad_entries_are_a_400_naming_the_path(owner, entries, path, message):
    with pytest.raises(ListInputError, match=message) as info:
        services.field_create(owner=owner, system="hagmi", name="Meta", entries=entries)
    assert info.value.status == 400 and info.value.details["path"] == path
    assert not FieldEntry.objects.exists()


@pytest.mark.parametrize("kwargs, path", [
    ({"name": ""}, "name"), ({"name": "x" * 101}, "name"), ({"name": "a\x00b"}, "name"),
    ({"description": "x" * 2001}, "description"), ({"visibility": "everyone"}, "visibility"),
    ({"system": "chess"}, "system"),
])
def test_bad_fields_of_a_field_are_a_400_naming_them(owner, kwargs, path):
    with pytest.raises(ListInputError) as info:
        services.field_create(owner=owner, **{"system": "hagmi", "name": "Meta", **kwargs})
    assert info.value.details["path"] == path


def test_only_the_owner_changes_or_deletes_a_field(owner, other, field, shared):
    with pytest.raises(ListPermissionDenied):
        services.field_update(field=field, user=other, name="Mine now")
    with pytest.raises(ListPermissionDenied):
        services.field_delete(field=field, user=other)
    services.field_update(field=field, user=owner, visibility="private")
    with pytest.raises(ListNotFound):
        services.field_update(field=field, user=other, name="Mine now")
    updated = services.field_update(field=field, user=owner, name="Summer", entries=[{"list": shared.slug,
                                                                                       "weight": 3}])
    assert updated.name == "Summer" and selectors.field_opponents(updated, user=owner) == [
        {"list": shared.slug, "weight": 3.0}]
    services.field_delete(field=field, user=owner)
    assert not FieldEntry.objects.exists()


def test_a_gauntlet_against_a_field_plays_its_entries_with_their_weights(owner, other, mine, field, shared, secret,
                                                                        published):
    run = services.gauntlet_start(user=owner, game_list=mine, opponents=[{"field": field.slug}], games=4, seed=SEED)
    assert [leg["key"] for leg in run.snapshot["legs"]] == ["goldfish", f"list:{secret.slug}", f"list:{shared.slug}"]
    theirs = services.list_create(owner=other, document=hagmi_doc(name="Theirs"), visibility="private")
    run = services.gauntlet_start(user=other, game_list=theirs, opponents=[{"field": field.slug}], games=4, seed=SEED)
    assert [leg["key"] for leg in run.snapshot["legs"]] == ["goldfish", f"list:{shared.slug}"]
    assert secret.slug not in json.dumps(run.snapshot) and "Secret plan" not in json.dumps(run.snapshot)
    play_all(run)
    run.refresh_from_db()
    assert [row["weight"] for row in run.result["opponents"]] == [pytest.approx(2 / 3), pytest.approx(1 / 3)]


def test_a_field_in_a_gauntlet_names_its_path_when_refused(owner, other, mine, field, published):
    hidden = services.field_create(owner=other, system="hagmi", name="Hidden", entries=[{"opponent": "goldfish"}])
    for opponents, path in (([{"field": hidden.slug}], "opponents[0].field"),
                            ([{"field": field.slug, "weight": 2}], "opponents[0].weight"),
                            ([{"opponent": "goldfish"}, {"field": field.slug}], "opponents[1].field entries[0]")):
        with pytest.raises(SimulationInvalid) as info:
            services.gauntlet_start(user=owner, game_list=mine, opponents=opponents, games=4, seed=SEED)
        assert info.value.details["path"] == path, info.value.message
    assert not SimulationRun.objects.exists()


def test_the_doctor_takes_a_field(owner, mine, field, published):
    run = services.doctor_start(user=owner, game_list=mine, opponents=[{"field": field.slug}], changes=1,
                                games=5000, seed=SEED)
    assert {leg["opponent"] for leg in run.snapshot["legs"]} >= {"goldfish"}


def test_a_repeated_gauntlet_is_answered_from_the_stored_result_without_playing(
        owner, other, mine, shared, published, monkeypatch, django_capture_on_commit_callbacks):
    field = services.field_create(owner=owner, system="hagmi", name="Open", visibility="public", entries=[
        {"opponent": "goldfish", "weight": 2}, {"list": shared.slug}])
    first = services.gauntlet_start(user=owner, game_list=mine, opponents=[{"field": field.slug}], games=4,
                                    seed=SEED)
    play_all(first)
    first.refresh_from_db()
    assert first.status == RunStatus.DONE
    chunks = SimulationChunk.objects.count()
    monkeypatch.setattr(services.batches, "batch_chunk_size", lambda *a, **k: pytest.fail("a reused run plays no game"))
    with django_capture_on_commit_callbacks(execute=True) as queued:
        again = services.gauntlet_start(user=owner, game_list=mine, opponents=[{"field": field.slug}], games=4,
                                        seed=SEED)
        same = services.list_create(owner=other, document=hagmi_doc(name="Mine"), visibility="private")
        copy = services.gauntlet_start(user=other, game_list=same, opponents=[
            {"opponent": "goldfish", "weight": 2}, {"list": shared.slug}], games=4, seed=SEED)  # the field's entries
    assert again.pk == first.pk  # the owner's own run answers as it is
    assert copy.reused_from_id == first.pk and copy.status == RunStatus.DONE and copy.result == first.result
    assert selectors.simulation_reused_from(copy) == first and selectors.simulation_reused_from(first) is None
    assert queued == [] and published == [] and SimulationChunk.objects.count() == chunks  # nothing queued or played


def test_a_repeated_doctor_run_is_answered_from_the_stored_result_without_playing(owner, other, published,
                                                                                  django_capture_on_commit_callbacks):
    document = hagmi_doc()
    first = services.doctor_start(user=owner, document=document, opponents=[{"opponent": "goldfish"}], changes=1,
                                  games=800, seed=SEED)
    play_all(first)
    first.refresh_from_db()
    assert first.status == RunStatus.DONE, first.error
    chunks = SimulationChunk.objects.count()
    with django_capture_on_commit_callbacks(execute=True) as queued:
        copy = services.doctor_start(user=other, document=document, opponents=[{"opponent": "goldfish"}],
                                     changes=1, games=800, seed=SEED)
    assert copy.kind == "doctor" and copy.reused_from_id == first.pk and copy.result == first.result
    assert copy.stages == first.stages and copy.chunks_done == copy.chunks_total
    assert queued == [] and published == [] and SimulationChunk.objects.count() == chunks  # nothing queued
    with django_capture_on_commit_callbacks(execute=True) as queued:
        other_seed = services.doctor_start(user=other, document=document, opponents=[{"opponent": "goldfish"}],
                                           changes=1, games=800, seed=SEED + 1)
    assert other_seed.reused_from_id is None and len(published) == other_seed.chunks_total  # another question


def test_the_fields_api(owner_client, other_client, anon_client, owner, field, secret, shared, mine, published):
    body = owner_client.get(f"/api/fields/{field.slug}/").json()
    assert [entry.get("list") or entry.get("opponent") for entry in body["entries"]] == [
        "goldfish", secret.slug, shared.slug]
    assert body["entries"][0]["share"] == 0.5 and body["hidden_entries"] == 0
    theirs = other_client.get(f"/api/fields/{field.slug}/").json()
    assert secret.slug not in json.dumps(theirs) and "Secret plan" not in json.dumps(theirs)
    assert theirs["hidden_entries"] == 1 and [e["share"] for e in theirs["entries"]] == [pytest.approx(2 / 3),
                                                                                         pytest.approx(1 / 3)]
    assert anon_client.get(f"/api/fields/{field.slug}/").status_code == 200
    assert anon_client.get("/api/fields/").status_code == 403
    assert [row["id"] for row in anon_client.get("/api/fields/?scope=public").json()["results"]] == [field.slug]
    assert other_client.patch(f"/api/fields/{field.slug}/", {"name": "x"}, format="json").status_code == 403
    assert other_client.delete(f"/api/fields/{field.slug}/").status_code == 403
    created = owner_client.post("/api/fields/", {"system": "hagmi", "name": "Store", "entries": [
        {"opponent": "goldfish"}, {"list": "nope", "weight": 2}]}, format="json")
    assert created.status_code == 400 and created.json()["error"]["details"]["path"] == "entries[1].list"
    created = owner_client.post("/api/fields/", {"system": "hagmi", "name": "Store", "entries": [
        {"opponent": "goldfish", "weight": 1.5}]}, format="json")
    assert created.status_code == 201 and created["Location"].endswith(f"/api/fields/{created.json()['id']}/")
    patched = owner_client.patch(f"/api/fields/{created.json()['id']}/", {"visibility": "unlisted"}, format="json")
    assert patched.json()["visibility"] == "unlisted"
    started = owner_client.post("/api/gauntlets/", {"list": mine.slug, "field": field.slug, "games": 4,
                                                    "seed": SEED}, format="json")
    assert started.status_code == 202, started.content
    run = SimulationRun.objects.get(public_id=started.json()["id"])
    assert len(run.snapshot["legs"]) == 3
    assert owner_client.post("/api/gauntlets/", {"list": mine.slug, "games": 4, "seed": SEED},
                             format="json").status_code == 400
    assert owner_client.delete(f"/api/fields/{created.json()['id']}/").status_code == 204


def test_the_run_api_says_which_earlier_run_answered(owner_client, other_client, owner, published):
    body = {"document": hagmi_doc(), "opponents": [{"opponent": "goldfish"}], "games": 4, "seed": SEED}
    first = owner_client.post("/api/gauntlets/", body, format="json").json()
    play_all(SimulationRun.objects.get(public_id=first["id"]))
    assert owner_client.get(first["status_url"]).json()["reused_from"] is None
    again = other_client.post("/api/gauntlets/", body, format="json").json()
    assert again["reused"] is True and again["status"] == "done" and published == []
    status = other_client.get(again["status_url"]).json()
    assert status["reused_from"]["id"] == first["id"]
    assert status["reused_from"]["page_url"].endswith(f"/simulations/{first['id']}/")
