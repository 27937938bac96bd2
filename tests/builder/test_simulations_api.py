"""/api/simulations/ and /api/health/: shapes, owner-only permissions, limits as 429, broker down as 503
(docs/simulations.md). The real HAGMI simulator on the builder test catalog; no worker process."""
from __future__ import annotations

import pytest

from builder import services
from builder.models import RunStatus, SimulationRun
from tests.support.celery_broker import CLOSED_PORT_URL, filesystem_options, use_broker
from tests.support.simulations import hagmi_catalog, play_all, published, small_chunks  # noqa: F401

from .conftest import hagmi_doc

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("hagmi_catalog", "published", "small_chunks")]

URL = "/api/simulations/"


def body(**fields):
    return {"opponent": "goldfish", "games": 1200, "seed": 7, **fields}


@pytest.fixture
def saved_list(owner):
    return services.list_create(owner=owner, document=hagmi_doc(), visibility="private")


def test_start_from_a_saved_list_is_202_with_the_status_url(owner_client, saved_list):
    response = owner_client.post(URL, body(list=saved_list.slug), format="json")
    assert response.status_code == 202, response.content
    data = response.json()
    assert set(data) == {"id", "status", "status_url", "reused"}
    assert data["status"] == "queued" and data["reused"] is False
    assert data["status_url"] == f"http://testserver/api/simulations/{data['id']}/"
    assert response["Location"] == data["status_url"]

    status = owner_client.get(data["status_url"]).json()
    assert status["status"] == "queued" and status["progress"] == 0 and status["result"] is None
    assert (status["list"], status["opponent"], status["policy"], status["games"], status["seed"]) == (
        saved_list.slug, "goldfish", "greedy", 1200, 7)
    assert status["chunks_total"] == 3 and status["error"] is None


def test_progress_then_result_when_done(owner_client, saved_list):
    run_id = owner_client.post(URL, body(list=saved_list.slug), format="json").json()["id"]
    run = SimulationRun.objects.get(public_id=run_id)
    services.simulation_chunk_play(run_id=run.pk, index=0)
    assert owner_client.get(f"{URL}{run_id}/").json()["progress"] == 33
    play_all(run, order=[1, 2])
    done = owner_client.get(f"{URL}{run_id}/").json()
    assert done["status"] == "done" and done["progress"] == 100
    assert done["result"]["games"] == 1200 and done["result"]["opponent"] == "goldfish"
    again = owner_client.post(URL, body(list=saved_list.slug), format="json").json()
    assert again == {**again, "id": run_id, "status": "done", "reused": True}


def test_start_from_a_posted_document(owner_client):
    response = owner_client.post(URL, body(document=hagmi_doc(), policy="random"), format="json")
    assert response.status_code == 202, response.content
    run = SimulationRun.objects.get(public_id=response.json()["id"])
    assert run.game_list is None and run.policy == "random" and run.snapshot["list"]["name"] == "Blue rush"


def test_a_failed_run_shows_its_reason(owner_client, saved_list):
    run_id = owner_client.post(URL, body(list=saved_list.slug), format="json").json()["id"]
    services.simulation_fail(run_id=SimulationRun.objects.get(public_id=run_id).pk, reason="chunk 1: boom")
    data = owner_client.get(f"{URL}{run_id}/").json()
    assert (data["status"], data["error"], data["result"]) == ("failed", "chunk 1: boom", None)


def test_runs_are_owner_only(owner_client, other_client, anon_client, saved_list):
    run_id = owner_client.post(URL, body(list=saved_list.slug), format="json").json()["id"]
    assert other_client.get(f"{URL}{run_id}/").status_code == 404
    assert other_client.post(f"{URL}{run_id}/cancel/").status_code == 404
    assert other_client.get(URL).json()["results"] == []
    assert [r["id"] for r in owner_client.get(URL).json()["results"]] == [run_id]
    assert anon_client.get(f"{URL}{run_id}/").status_code == 403
    assert anon_client.post(URL, body(list=saved_list.slug), format="json").status_code == 403
    # someone else's private list cannot be simulated either
    assert other_client.post(URL, body(list=saved_list.slug), format="json").status_code == 404


def test_cancel(owner_client, saved_list):
    run_id = owner_client.post(URL, body(list=saved_list.slug), format="json").json()["id"]
    response = owner_client.post(f"{URL}{run_id}/cancel/")
    assert response.status_code == 200 and response.json()["status"] == "cancelled"
    again = owner_client.post(f"{URL}{run_id}/cancel/")
    assert again.status_code == 409 and again.json()["error"]["code"] == "simulation.not_active"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({}, "exactly one of 'list'"),
        ({"list": "x", "document": hagmi_doc()}, "exactly one of 'list'"),
        ({"document": hagmi_doc(), "games": 0}, "games"),
        ({"document": hagmi_doc(), "seed": -3}, "seed"),
        ({"document": hagmi_doc(), "opponent": "nemesis"}, "opponent: hagmi has no opponent 'nemesis'"),
        ({"document": {"schema": "hangar.list/1", "system": "hagmi", "sections": []}}, "sections"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(owner_client, fields, message):
    response = owner_client.post(URL, {**body(), **fields}, format="json")
    assert response.status_code == 400, response.content
    assert message in response.json()["error"]["message"]
    assert not SimulationRun.objects.exists()


def test_limits_are_429_with_a_clear_message(owner_client, settings):
    settings.HANGAR_MAX_GAMES = 5000
    response = owner_client.post(URL, body(document=hagmi_doc(), games=5001), format="json")
    assert response.status_code == 429
    assert response.json()["error"]["message"].startswith("games: 5001 games is more than the 5000")
    settings.HANGAR_MAX_CONCURRENT_RUNS = 1
    assert owner_client.post(URL, body(document=hagmi_doc(), seed=1), format="json").status_code == 202
    refused = owner_client.post(URL, body(document=hagmi_doc(), seed=2), format="json")
    assert refused.status_code == 429 and "limit is 1" in refused.json()["error"]["message"]


def test_start_is_throttled_per_user(owner_client, monkeypatch):
    from builder.api.simulations import SimulationStartThrottle

    monkeypatch.setattr(SimulationStartThrottle, "THROTTLE_RATES", {"simulations": "2/minute"})
    codes = [owner_client.post(URL, body(document=hagmi_doc(), seed=n), format="json").status_code for n in range(3)]
    assert codes == [202, 202, 429]
    assert owner_client.get(URL).status_code == 200  # reading your runs is not limited by this scope


def test_broker_down_is_a_503_and_writes_nothing(owner_client, saved_list):
    with use_broker(CLOSED_PORT_URL):
        response = owner_client.post(URL, body(list=saved_list.slug), format="json")
    assert response.status_code == 503
    error = response.json()["error"]
    assert error["code"] == "simulation.broker_unavailable" and "nothing was saved" in error["message"]
    assert not SimulationRun.objects.exists()
    assert owner_client.post(URL, body(list=saved_list.slug), format="json").status_code == 202  # broker back


def test_health_reports_database_broker_and_workers(anon_client, settings, tmp_path):
    if settings.CELERY_BROKER_URL.startswith("filesystem"):  # keep the ping's messages out of var/broker
        with use_broker("filesystem://", filesystem_options(tmp_path)):
            response = anon_client.get("/api/health/")
    else:
        response = anon_client.get("/api/health/")
    assert response.status_code == 200, response.content
    data = response.json()
    assert data["database"] == "ok" and data["broker"] == "ok"
    assert data["workers"] == "unknown" or isinstance(data["workers"], list)


def test_health_is_503_when_the_broker_is_down(anon_client):
    with use_broker(CLOSED_PORT_URL):
        response = anon_client.get("/api/health/")
    assert response.status_code == 503
    assert response.json() == {"database": "ok", "broker": "error: OperationalError", "workers": "unknown"}
