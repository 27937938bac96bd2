"""The matchup matrix API: start (202 with the cells), read the cells' figures once played, cancel; a matrix past its
size is a 400 naming the bound; what beats my list is the owner's to ask."""
from __future__ import annotations

import pytest

from builder import selectors, services
from tests.support.simulations import hagmi_catalog, play_all, published  # noqa: F401

from .conftest import client_for, hagmi_doc

pytestmark = pytest.mark.django_db


@pytest.fixture
def mine(owner, hagmi_catalog):
    return services.list_create(owner=owner, document=hagmi_doc(), visibility="private")


def test_a_matrix_starts_fills_and_is_the_owners_only(owner, other, mine, published):
    client = client_for(owner)
    response = client.post("/api/matrices/", {"lists": [mine.slug], "opponents": [{"opponent": "goldfish"}],
                                              "games": 4, "seed": 2}, format="json")
    assert response.status_code == 202, response.json()
    body = response.json()
    assert response["Location"] == body["status_url"] and body["status"] == "queued"
    assert body["cells"][0][0]["status"] == "queued" and "win_rate" not in body["cells"][0][0]
    matrix = selectors.matrix_get(public_id=body["id"], user=owner)
    for cell in selectors.matrix_cells(matrix):
        play_all(cell.run)
    done = client.get(f"/api/matrices/{body['id']}/").json()
    cell = done["cells"][0][0]
    assert done["status"] == "done" and done["progress"] == 100
    low, high = cell["win_rate_interval"]
    assert low <= cell["win_rate"] <= high and cell["wins"] + cell["losses"] + cell["draws"] == 4
    run = client.get(f"/api/simulations/{cell['run']}/").json()  # the cell is a plain run
    assert run["kind"] == "simulation" and run["result"]["win_rate"] == cell["win_rate"]
    assert client_for(other).get(f"/api/matrices/{body['id']}/").status_code == 404
    assert [row["id"] for row in client.get("/api/matrices/").json()["results"]] == [body["id"]]


def test_a_matrix_past_its_size_is_a_400_naming_the_bound(owner, mine, settings, published):
    settings.HANGAR_MAX_GAMES = 10
    response = client_for(owner).post("/api/matrices/", {"lists": [mine.slug], "games": 11, "seed": 1,
                                                         "opponents": [{"opponent": "goldfish"}]}, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "matrix.too_large" and error["details"]["path"] == "games"
    assert error["details"]["limit"] == 10 and "1 lists × 1 opponents × 11 games" in error["message"]


def test_what_beats_a_list_is_asked_by_its_owner(owner, other, hagmi_catalog, published):
    public = services.list_create(owner=owner, document=hagmi_doc(), visibility="public")
    response = client_for(other).post("/api/beats/", {"list": public.slug, "games": 2, "seed": 1}, format="json")
    assert response.status_code == 403
    response = client_for(owner).post("/api/beats/", {"list": public.slug, "games": 2, "seed": 1}, format="json")
    assert response.status_code == 202 and response.json()["kind"] == "beats"


def test_a_matrix_and_what_beats_my_list_take_a_named_field(owner, other, mine, hagmi_catalog, published):
    secret = services.list_create(owner=owner, document=hagmi_doc(name="Secret plan", weapons=26, tactics=14),
                                  visibility="private")
    field = services.field_create(owner=owner, system="hagmi", name="League", visibility="public", entries=[
        {"opponent": "goldfish", "weight": 2}, {"list": secret.slug}])
    client = client_for(owner)
    as_entry = client.post("/api/matrices/", {"lists": [mine.slug], "opponents": [{"field": field.slug}],
                                              "games": 4, "seed": 2}, format="json")
    assert as_entry.status_code == 202, as_entry.json()
    assert [column["key"] for column in as_entry.json()["columns"]] == ["goldfish", f"list:{secret.slug}"]
    as_parameter = client.post("/api/matrices/", {"lists": [mine.slug], "field": field.slug, "games": 4, "seed": 2},
                               format="json")
    assert as_parameter.status_code == 202 and as_parameter.json()["columns"] == as_entry.json()["columns"]
    neither = client.post("/api/matrices/", {"lists": [mine.slug], "games": 4, "seed": 2}, format="json")
    assert neither.status_code == 400 and "opponents" in str(neither.json())
    theirs = services.list_create(owner=other, document=hagmi_doc(name="Theirs"), visibility="private")
    beats = client_for(other).post("/api/beats/", {"list": theirs.slug, "field": field.slug, "games": 4, "seed": 2},
                                   format="json")
    assert beats.status_code == 202 and [column["key"] for column in beats.json()["columns"]] == ["goldfish"]
    unknown = client.post("/api/beats/", {"list": mine.slug, "field": "nope", "games": 4, "seed": 2}, format="json")
    assert unknown.status_code == 400 and unknown.json()["error"]["details"]["path"] == "opponents[0].field"
