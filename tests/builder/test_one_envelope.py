"""Saving a list (POST /api/lists/) and validating one (POST /api/validate/) judge a document's envelope by the
same checks (builder.listio.check_envelope and builder.selectors.system_with_cards): whatever one refuses
before reading the cards, the other refuses too, naming the same place. Inside the envelope they differ on purpose:
validation reports a malformed entry as a violation, a save refuses it (tests/builder/test_api_validate.py)."""
from __future__ import annotations

import json

import pytest

from builder.listio import MAX_ENTRIES
from builder.models import GameList

from .conftest import hagmi_doc

pytestmark = pytest.mark.django_db


def _too_many() -> dict:
    document = hagmi_doc()
    document["sections"]["weapons"] = [{"card": "HT-001", "qty": 1}] * (MAX_ENTRIES + 1)
    return document


def _lone_surrogate() -> str:
    text = json.dumps(hagmi_doc())
    return text.replace('"name": "', '"name": "\\udfff', 1)


def _both(owner_client, body: str) -> tuple[dict, dict]:
    saved = owner_client.post("/api/lists/", '{"document": ' + body + "}", content_type="application/json")
    validated = owner_client.post("/api/validate/", body, content_type="application/json")
    assert saved.status_code == 400 and validated.status_code == 400, (saved.content, validated.content)
    assert GameList.objects.count() == 0
    return saved.json()["error"], validated.json()["error"]


def test_more_entries_than_a_list_holds_is_refused_by_both_with_the_count(catalogs, owner_client):
    saved, validated = _both(owner_client, json.dumps(_too_many()))
    others = sum(len(entries) for name, entries in hagmi_doc()["sections"].items() if name != "weapons")
    total = MAX_ENTRIES + 1 + others
    assert f"{total} entries" in saved["message"] and f"{total} entries" in validated["message"]
    assert validated["code"] == "list.too_many_entries" and saved["code"] == "list.invalid"
    assert saved["issues"][0]["path"] == "sections" == validated["details"]["path"]


@pytest.mark.services  # a lone surrogate: PostgreSQL cannot store it
def test_a_lone_surrogate_is_refused_by_both_at_its_path(catalogs, owner_client):
    saved, validated = _both(owner_client, _lone_surrogate())
    assert saved["issues"][0]["path"] == "name" == validated["issues"][0]["path"]


def test_a_system_without_cards_is_refused_by_both_in_the_same_words(db, owner_client):
    saved, validated = _both(owner_client, json.dumps(hagmi_doc()))
    assert saved["code"] == validated["code"] == "list.unknown_system"
    assert saved["message"] == validated["message"] and "load_packages" in saved["message"]
