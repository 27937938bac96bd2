"""Bad input when saving lists: a clear 400/413 naming what is wrong and where, never a 500, never a partial write.
What is merely ILLEGAL (unknown card, unknown format, a card of another system) is saved and flagged."""
from __future__ import annotations

import json

import pytest

from builder.models import GameList, ListRevision

from .conftest import hagmi_doc

pytestmark = pytest.mark.django_db

URL = "/api/lists/"


def violation_codes(body: dict) -> set[str]:
    return {violation["code"] for violation in body["validation"]["violations"]}


def assert_nothing_saved() -> None:
    assert GameList.objects.count() == 0 and ListRevision.objects.count() == 0


def test_malformed_json_is_400(catalogs, owner_client):
    response = owner_client.post(URL, '{"document": {', content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "parse_error" and "JSON" in response.json()["error"]["message"]
    assert_nothing_saved()


@pytest.mark.parametrize("body", ["[]", '"text"', "42"])
def test_a_body_that_is_not_an_object_is_400(catalogs, owner_client, body):
    response = owner_client.post(URL, body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["message"]
    assert_nothing_saved()


def test_a_document_that_is_not_an_object_is_400(catalogs, owner_client):
    response = owner_client.post(URL, {"document": 5}, format="json")
    assert response.status_code == 400
    assert "document" in response.json()["error"]["message"]
    assert_nothing_saved()


@pytest.mark.parametrize("qty", [0, -1, 10**9, "two", True])
def test_bad_quantity_is_400_naming_the_path(catalogs, owner_client, qty):
    document = hagmi_doc()
    document["sections"]["tactics"][2]["qty"] = qty
    response = owner_client.post(URL, {"document": document}, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "list.invalid"
    assert error["issues"][0]["path"] == "sections.tactics[2].qty"
    assert "sections.tactics[2].qty" in error["message"]
    assert_nothing_saved()


def test_unknown_section_is_400_naming_it_and_the_valid_ones(catalogs, owner_client):
    document = hagmi_doc()
    document["sections"]["sideboard"] = [{"card": "HT-001", "qty": 1}]
    response = owner_client.post(URL, {"document": document}, format="json")
    assert response.status_code == 400
    message = response.json()["error"]["message"]
    assert "sideboard" in message and "secret" in message
    assert_nothing_saved()


def test_unknown_card_is_saved_and_flagged(catalogs, owner_client):
    document = hagmi_doc()
    document["sections"]["weapons"].append({"card": "ZZ-404", "qty": 1})
    response = owner_client.post(URL, {"document": document}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["legal"] is False and "list.unknown_card" in violation_codes(body)
    assert {"card": "ZZ-404", "qty": 1} in body["document"]["sections"]["weapons"]


def test_unknown_format_is_saved_and_flagged(catalogs, owner_client):
    response = owner_client.post(URL, {"document": hagmi_doc(fmt="tactics-v99")}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["format"] == "tactics-v99" and "list.unknown_format" in violation_codes(body)


def test_a_card_of_another_system_is_saved_and_flagged(catalogs, owner_client):
    document = hagmi_doc()
    document["sections"]["weapons"].append({"card": "MT-001", "qty": 1})  # an MWDA unit in a HAGMI deck
    response = owner_client.post(URL, {"document": document}, format="json")
    assert response.status_code == 201
    assert "list.wrong_system" in violation_codes(response.json())


def test_unknown_system_is_400(catalogs, owner_client):
    response = owner_client.post(URL, {"document": {**hagmi_doc(), "system": "chess"}}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["issues"][0]["path"] == "system"
    assert_nothing_saved()


def test_a_system_without_loaded_cards_is_400(db, owner_client):
    response = owner_client.post(URL, {"document": hagmi_doc()}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "list.unknown_system"
    assert_nothing_saved()


def test_a_10_mb_body_is_413_with_a_json_message(catalogs, owner_client):
    body = json.dumps({"document": hagmi_doc(), "notes": "x" * (10 * 1024 * 1024)})
    response = owner_client.post(URL, body, content_type="application/json")
    assert response.status_code == 413
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["error"]["code"] == "request.too_large"
    assert_nothing_saved()


def test_100000_entries_is_one_clear_400(catalogs, owner_client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 50 * 1024 * 1024
    document = hagmi_doc()
    document["sections"]["weapons"] = [{"card": "HT-001", "qty": 1}] * 100_000
    response = owner_client.post(URL, json.dumps({"document": document}), content_type="application/json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert len(error["issues"]) == 1 and "1000" in error["message"]
    assert_nothing_saved()


def test_notes_too_long_is_400(catalogs, owner_client):
    response = owner_client.post(URL, {"document": hagmi_doc(), "notes": "x" * 20_001}, format="json")
    assert response.status_code == 400 and "notes" in response.json()["error"]["message"]
    assert_nothing_saved()


def test_bad_version_on_update_is_400(create_list, owner_client):
    slug = create_list()["slug"]
    response = owner_client.patch(f"{URL}{slug}/", {"notes": "x"}, format="json", HTTP_IF_MATCH="abc")
    assert response.status_code == 400 and "version" in response.json()["error"]["message"]
    assert GameList.objects.get(slug=slug).version == 1


def test_bad_document_on_update_changes_nothing(create_list, owner_client):
    data = create_list()
    document = hagmi_doc()
    document["sections"]["weapons"][0]["qty"] = "two"
    response = owner_client.put(f"{URL}{data['slug']}/", {"document": document, "version": 1}, format="json")
    assert response.status_code == 400
    after = owner_client.get(f"{URL}{data['slug']}/").json()
    assert after["version"] == 1 and after["document"] == data["document"]


def test_the_size_limit_middleware_answers_413_for_any_api_path(catalogs, owner_client, settings):
    """builder.middleware.RequestSizeLimitMiddleware (for MIDDLEWARE): the same JSON 413 outside the lists API."""
    settings.MIDDLEWARE = ["builder.middleware.RequestSizeLimitMiddleware", *settings.MIDDLEWARE]
    response = owner_client.post("/api/cards/", "x" * (3 * 1024 * 1024), content_type="application/json")
    assert response.status_code == 413 and response.json()["error"]["code"] == "request.too_large"


def test_validate_accepts_only_json(catalogs, anon_client):
    response = anon_client.post("/api/validate/", {"system": "hagmi"})  # multipart form
    assert response.status_code == 415 and response.json()["error"]["message"]


def test_a_lost_database_connection_is_a_json_503_with_retry_after(catalogs, owner_client, monkeypatch):
    """A database restart mid-request (a fault) answers 503 + Retry-After in the API's error shape, and the
    pages a short 503 text, never a 500 page."""
    from django.db import OperationalError

    from builder.api import views

    def database_gone(**kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(views.selectors, "list_search", database_gone)
    response = owner_client.get("/api/lists/")
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert response.json()["error"]["code"] == "service.database_unavailable"
    assert "nothing was changed" in response.json()["error"]["message"]
