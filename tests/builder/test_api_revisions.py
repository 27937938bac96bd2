"""Revisions (every create/update/restore/fork saves one) and the diff between two of them."""
from __future__ import annotations

import pytest

from .conftest import hagmi_doc

pytestmark = pytest.mark.django_db


def base(slug: str) -> str:
    return f"/api/lists/{slug}/"


@pytest.fixture
def edited(create_list, owner_client):
    """Revision 1: the legal deck; revision 2: name, notes, visibility and cards changed."""
    data = create_list(notes="first")
    document = hagmi_doc(name="Second")
    weapons = document["sections"]["weapons"]
    weapons[0]["qty"] = 1  # HT-001: 2 -> 1
    del weapons[1]  # HT-002 removed
    document["sections"]["secret"] = []  # HT-022 removed
    document["sections"]["damage"].append({"card": "ZZ-404", "qty": 3})  # added
    response = owner_client.patch(
        base(data["slug"]),
        {"document": document, "notes": "second", "visibility": "unlisted", "version": 1},
        format="json",
    )
    assert response.status_code == 200
    return data["slug"]


def test_revisions_are_listed_newest_first(edited, owner_client):
    body = owner_client.get(base(edited) + "revisions/").json()
    assert body["count"] == 2
    assert [(r["number"], r["name"], r["author"], r["visibility"]) for r in body["results"]] == [
        (2, "Second", "owner", "unlisted"),
        (1, "Blue rush", "owner", "private"),
    ]


def test_a_revision_holds_the_document_as_saved(edited, owner_client):
    first = owner_client.get(base(edited) + "revisions/1/").json()
    assert first["document"] == hagmi_doc() and first["notes"] == "first" and first["visibility"] == "private"
    assert owner_client.get(base(edited) + "revisions/2/").json()["notes"] == "second"


def test_unknown_revision_is_404(edited, owner_client):
    response = owner_client.get(base(edited) + "revisions/9/")
    assert response.status_code == 404 and "9" in response.json()["error"]["message"]


def test_diff_reports_fields_and_cards_per_section(edited, owner_client):
    diff = owner_client.get(base(edited) + "diff/?from=1&to=2").json()
    assert diff["from"] == 1 and diff["to"] == 2
    assert diff["fields"] == {
        "name": {"from": "Blue rush", "to": "Second"},
        "notes": {"from": "first", "to": "second"},
        "visibility": {"from": "private", "to": "unlisted"},
    }
    weapons = diff["sections"]["weapons"]
    assert weapons["added"] == []
    assert weapons["removed"] == [{"card": "HT-002", "qty": 2, "options": None}]
    assert weapons["changed"] == [{"card": "HT-001", "qty": {"from": 2, "to": 1}}]
    assert diff["sections"]["damage"]["added"] == [{"card": "ZZ-404", "qty": 3, "options": None}]
    assert diff["sections"]["secret"]["removed"][0]["card"] == "HT-022"
    assert diff["sections"]["tactics"] == {"added": [], "removed": [], "changed": []}


def test_diff_reports_changed_options(create_list, owner_client):
    document = hagmi_doc()
    document["sections"]["weapons"][0]["options"] = {"loadout": "a"}
    slug = create_list(document)["slug"]
    document["sections"]["weapons"][0]["options"] = {"loadout": "b"}
    owner_client.put(base(slug), {"document": document, "version": 1}, format="json")
    changed = owner_client.get(base(slug) + "diff/?from=1&to=2").json()["sections"]["weapons"]["changed"]
    assert changed == [{"card": "HT-001", "options": {"from": {"loadout": "a"}, "to": {"loadout": "b"}}}]


def test_diff_of_a_format_change(create_list, owner_client):
    slug = create_list()["slug"]
    owner_client.put(base(slug), {"document": hagmi_doc(fmt="tactics-v3"), "version": 1}, format="json")
    fields = owner_client.get(base(slug) + "diff/?from=1&to=2").json()["fields"]
    assert fields == {"format": {"from": "tactics-v4", "to": "tactics-v3"}}


@pytest.mark.parametrize("query", ["", "?from=1", "?from=a&to=2", "?from=-1&to=2"])
def test_diff_needs_two_revision_numbers(edited, owner_client, query):
    response = owner_client.get(base(edited) + "diff/" + query)
    assert response.status_code == 400 and "revision number" in response.json()["error"]["message"]


def test_diff_with_a_missing_revision_is_404(edited, owner_client):
    assert owner_client.get(base(edited) + "diff/?from=1&to=5").status_code == 404


def test_fork_and_restore_add_revisions(edited, owner_client, other_client):
    fork = other_client.post(base(edited) + "fork/").json()
    assert other_client.get(base(fork["slug"]) + "revisions/").json()["count"] == 1
    owner_client.delete(base(edited))
    owner_client.post(base(edited) + "restore/")
    numbers = [r["number"] for r in owner_client.get(base(edited) + "revisions/").json()["results"]]
    assert numbers == [3, 2, 1]
