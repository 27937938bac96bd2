"""POST /api/gauntlets/, POST /api/doctor/, POST /api/simulations/{id}/apply/ and the `kind` and `opponent_policy`
of /api/simulations/: shapes, 400s with a message naming the field, owner-only apply. No worker process."""
from __future__ import annotations

import pytest

from builder import services
from builder.models import SimulationRun
from tests.support.simulations import confirm, hagmi_catalog, play_all, published  # noqa: F401

from .conftest import hagmi_doc

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("hagmi_catalog", "published")]


@pytest.fixture
def saved_list(owner):
    return services.list_create(owner=owner, document=hagmi_doc(), visibility="private")


def finish(run_id: str) -> SimulationRun:
    run = SimulationRun.objects.get(public_id=run_id)
    play_all(run)
    run.refresh_from_db()
    return run


def test_a_gauntlet_starts_202_and_reads_back_with_its_kind_and_rows(owner_client, saved_list):
    response = owner_client.post("/api/gauntlets/", {
        "list": saved_list.slug, "opponents": [{"opponent": "goldfish", "weight": 2}], "games": 6, "seed": 3,
    }, format="json")
    assert response.status_code == 202, response.content
    data = response.json()
    assert set(data) == {"id", "status", "status_url", "reused"} and response["Location"] == data["status_url"]
    finish(data["id"])
    status = owner_client.get(data["status_url"]).json()
    assert status["kind"] == "gauntlet" and status["status"] == "done" and status["list"] == saved_list.slug
    assert status["result"]["kind"] == "gauntlet"
    assert [row["key"] for row in status["result"]["opponents"]] == ["goldfish"]
    assert owner_client.get("/api/simulations/").json()["results"][0]["kind"] == "gauntlet"


def test_a_doctor_run_then_apply_is_201_with_the_new_revision(owner_client, other_client, saved_list):
    response = owner_client.post("/api/doctor/", {
        "list": saved_list.slug, "opponents": [{"opponent": "goldfish"}], "changes": 2, "games": 900, "seed": 3,
    }, format="json")
    assert response.status_code == 202, response.content
    run_id = response.json()["id"]
    run = finish(run_id)
    status = owner_client.get(f"/api/simulations/{run_id}/").json()
    assert status["kind"] == "doctor" and status["result"]["baseline"]["opponents"][0]["opponent"] == "goldfish"
    result = status["result"]
    assert result["games"] == 900 and result["correction"]["method"] == "holm" and result["stages"][0]["stage"] == "screen"
    for change in result["changes"]:
        assert {"stage", "p_value", "adjusted_p", "confirmed", "verdict", "stats", "sentence"} <= set(change)
    key = result["changes"][0]["key"]
    assert other_client.post(f"/api/simulations/{run_id}/apply/", {"change": key}, format="json").status_code == 404
    bad = owner_client.post(f"/api/simulations/{run_id}/apply/", {"change": "nope"}, format="json")
    assert bad.status_code == 400 and "has no change 'nope'" in bad.json()["error"]["message"]
    missing = owner_client.post(f"/api/simulations/{run_id}/apply/", {}, format="json")
    assert missing.status_code == 400 and "change" in missing.json()["error"]["message"]
    if not result["changes"][0]["confirmed"]:  # a change not confirmed on fresh games is never applied: a 409 saying so
        unconfirmed = owner_client.post(f"/api/simulations/{run_id}/apply/", {"change": key}, format="json")
        assert unconfirmed.status_code == 409, unconfirmed.content
        assert unconfirmed.json()["error"]["details"]["reason"] == "not_confirmed"
        assert saved_list.revisions.count() == 1
        confirm(run, key)  # as the confirm stage would have marked it, to exercise the apply itself
    applied = owner_client.post(f"/api/simulations/{run_id}/apply/", {"change": key}, format="json")
    assert applied.status_code == 201, applied.content
    data = applied.json()
    assert data["list"] == saved_list.slug and data["revision"]["number"] == 2
    assert data["revision"]["document"]["sections"] == next(
        leg for leg in run.snapshot["legs"] if leg["change"] == key)["about"]["document"]["sections"]
    assert data["version"] == owner_client.get(f"/api/lists/{saved_list.slug}/").json()["version"]


def test_apply_before_the_run_is_done_is_a_409_with_the_reason(owner_client, saved_list):
    run_id = owner_client.post("/api/doctor/", {
        "list": saved_list.slug, "opponents": [{"opponent": "goldfish"}], "changes": 1, "games": 800, "seed": 5,
    }, format="json").json()["id"]
    run = SimulationRun.objects.get(public_id=run_id)
    key = next(leg["change"] for leg in run.snapshot["legs"] if leg["change"] != "baseline")
    response = owner_client.post(f"/api/simulations/{run_id}/apply/", {"change": key}, format="json")
    assert response.status_code == 409, response.content
    error = response.json()["error"]
    assert error["code"] == "doctor.cannot_apply" and "is still playing" in error["message"]
    assert saved_list.revisions.count() == 1


def test_apply_on_a_plain_run_is_a_400_saying_why(owner_client, saved_list):
    run_id = owner_client.post("/api/simulations/", {"list": saved_list.slug, "opponent": "goldfish", "games": 2,
                                                     "seed": 1}, format="json").json()["id"]
    response = owner_client.post(f"/api/simulations/{run_id}/apply/", {"change": "x"}, format="json")
    assert response.status_code == 400 and "only a list doctor run" in response.json()["error"]["message"]


def test_opponent_policy_is_accepted_by_simulation_start(owner_client, saved_list):
    response = owner_client.post("/api/simulations/", {"list": saved_list.slug, "opponent": "goldfish", "games": 2,
                                                       "seed": 1, "opponent_policy": "random"}, format="json")
    assert response.status_code == 202, response.content
    assert SimulationRun.objects.get(public_id=response.json()["id"]).snapshot["opponent_policy"] == "random"


@pytest.mark.parametrize("url, fields, words", [
    ("/api/gauntlets/", {"opponents": []}, "opponents"),
    ("/api/gauntlets/", {"opponents": [{"opponent": "nobody"}]}, "no opponent 'nobody'"),
    ("/api/gauntlets/", {"opponents": [{"weight": 1}]}, "opponents[0]"),
    ("/api/gauntlets/", {"opponents": [{"opponent": "goldfish", "weight": -2}]}, "weight"),
    ("/api/gauntlets/", {"opponents": "goldfish"}, "opponents"),
    ("/api/gauntlets/", {"opponents": [{"list": "nosuchlist"}]}, "'nosuchlist'"),
    ("/api/gauntlets/", {"games": 0}, "games"),
    ("/api/doctor/", {"changes": 0}, "changes"),
    ("/api/doctor/", {"changes": 500}, "at most 63 changes"),
    ("/api/doctor/", {"document": hagmi_doc(weapons=4), "list": None}, "the list doctor needs a legal list"),
    ("/api/doctor/", {"opponent_policy": 5}, "opponent_policy"),
    ("/api/doctor/", {"changes": 2, "games": 899}, "needs at least 900 games in all"),
])
def test_bad_input_is_a_400_with_a_message(owner_client, saved_list, url, fields, words):
    payload = {"list": saved_list.slug, "opponents": [{"opponent": "goldfish"}], "games": 4, "seed": 1, **fields}
    payload = {name: value for name, value in payload.items() if value is not None}
    response = owner_client.post(url, payload, format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert words in error["message"] or words in str(error.get("details")), error
    assert not SimulationRun.objects.exists()


def test_a_doctor_budget_below_the_minimum_is_a_400_with_its_code_field_and_minimum(owner_client, saved_list):
    response = owner_client.post("/api/doctor/", {"list": saved_list.slug, "opponents": [{"opponent": "goldfish"}],
                                                  "changes": 2, "games": 40, "seed": 1}, format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "doctor.too_few_games"
    assert error["details"]["path"] == "games" and error["details"]["minimum"] == 900
    assert "could not tell a 5-point change from luck" in error["message"]
    assert not SimulationRun.objects.exists()


def test_a_private_list_of_someone_else_is_a_400_naming_it(owner_client, other, saved_list):
    hidden = services.list_create(owner=other, document=hagmi_doc(name="Hidden"), visibility="private")
    response = owner_client.post("/api/gauntlets/", {"list": saved_list.slug, "opponents": [{"list": hidden.slug}],
                                                     "games": 4, "seed": 1}, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert hidden.slug in error["message"] and error["details"]["path"] == "opponents[0].list"
    assert "Hidden" not in response.content.decode()  # the refusal names the id given, never the list's name


def test_the_batch_endpoints_need_an_account(client):
    for url in ("/api/gauntlets/", "/api/doctor/"):
        assert client.post(url, {}, content_type="application/json").status_code == 403


def test_the_schema_describes_the_new_endpoints(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    text = response.content.decode()
    assert "/api/gauntlets/" in text and "/api/doctor/" in text and "/api/simulations/{public_id}/apply/" in text


@pytest.mark.parametrize("url", ["/api/simulations/", "/api/gauntlets/", "/api/doctor/"])
def test_every_run_endpoint_takes_the_seat_mode_and_refuses_a_bad_one_naming_seats(owner_client, saved_list, url):
    """`seats`: both (default, kept out of the snapshot), list-first or random; another value is a 400 naming it."""
    payload = {"list": saved_list.slug, "games": 2, "seed": 1}
    payload.update({"opponent": "goldfish"} if url == "/api/simulations/" else
                   {"opponents": [{"opponent": "goldfish"}]})
    if url == "/api/doctor/":
        payload.update(changes=2, games=900)  # the doctor's minimum budget for 2 changes against one opponent
    bad = owner_client.post(url, {**payload, "seats": "sometimes"}, format="json")
    assert bad.status_code == 400, bad.content
    error = bad.json()["error"]
    assert "seats" in error["message"] and "both, list-first, random" in error["message"], error
    assert not SimulationRun.objects.exists()
    for seats in ("both", "list-first", "random"):
        response = owner_client.post(url, {**payload, "seats": seats, "seed": len(seats)}, format="json")
        assert response.status_code == 202, response.content
        assert owner_client.get(response.json()["status_url"]).json()["seats"] == seats
        frozen = SimulationRun.objects.get(public_id=response.json()["id"]).snapshot
        snapshots = [leg["snapshot"] for leg in frozen["legs"]] if "legs" in frozen else [frozen]
        for snapshot in snapshots:
            assert snapshot.get("seats", "both") == seats
            assert ("seats" in snapshot) == (seats != "both")
