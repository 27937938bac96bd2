"""/api/lists/: create, read, update (optimistic concurrency), soft delete, restore, fork, index and gallery,
and the permission matrix (anonymous / owner / other user x private / unlisted / public)."""
from __future__ import annotations

import pytest

from builder.models import GameList, ListRevision

from .conftest import client_for, hagmi_doc, mwda_doc

pytestmark = pytest.mark.django_db

VISIBILITIES = ["private", "unlisted", "public"]


def detail(slug: str) -> str:
    return f"/api/lists/{slug}/"


# --- create and read ----------------------------------------------------------------------------------------


def test_create_returns_the_full_representation(create_list, owner):
    data = create_list(visibility="unlisted", notes="my notes")
    assert data["owner"] == "owner"
    assert data["system"] == "hagmi" and data["format"] == "tactics-v4" and data["name"] == "Blue rush"
    assert data["visibility"] == "unlisted" and data["notes"] == "my notes"
    assert data["version"] == 1 and data["deleted"] is False and data["forked_from"] is None
    assert data["document"] == hagmi_doc()
    assert data["legal"] is True and data["validation"]["summary"]["main"] == 40
    assert data["url"].endswith(detail(data["slug"])) and data["share_url"].startswith("http")
    game_list = GameList.objects.get(slug=data["slug"])
    assert game_list.owner == owner and game_list.entries.count() == 22
    assert list(game_list.revisions.values_list("number", flat=True)) == [1]


def test_an_illegal_list_is_saved_and_flagged_H1(create_list):
    """H1: 10 兵器 cards is too few for tactics-v4, but the list is stored with legal=false."""
    data = create_list(hagmi_doc(weapons=10))
    assert data["legal"] is False
    assert "hagmi.deck_size" in {v["code"] for v in data["validation"]["violations"]}
    assert GameList.objects.get(slug=data["slug"]).error_count >= 1


def test_retrieve_sends_the_version_as_etag(create_list, owner_client):
    data = create_list()
    response = owner_client.get(detail(data["slug"]))
    assert response.status_code == 200
    assert response["ETag"] == '"1"'
    assert response.json()["document"] == data["document"]


def test_validation_is_recomputed_when_the_catalog_changes(create_list, owner_client):
    """A card dropped from its package keeps its entry and is then reported as list.unknown_card."""
    from cards.models import Card
    from cards.services import package_import

    from .conftest import hagmi_package

    data = create_list()
    package = hagmi_package()
    package["version"] = "2"
    package["cards"] = [card for card in package["cards"] if card["code"] != "HT-001"]
    package_import(package)
    assert not Card.objects.filter(code="HT-001").exists()
    body = owner_client.get(detail(data["slug"])).json()
    assert body["document"] == data["document"]  # the entry is still there
    assert body["legal"] is False
    unknown = [v for v in body["validation"]["violations"] if v["code"] == "list.unknown_card"]
    assert unknown and unknown[0]["cards"] == ["HT-001"]


# --- permission matrix: read ---------------------------------------------------------------------------------


@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("who", ["anonymous", "owner", "other"])
def test_read_permissions(create_list, owner, other, visibility, who):
    slug = create_list(visibility=visibility)["slug"]
    client = {"anonymous": client_for(None), "owner": client_for(owner), "other": client_for(other)}[who]
    expected = 200 if who == "owner" or visibility != "private" else 404
    for path in ("", "validation/", "export/?as=json", "export/?as=text", "revisions/", "revisions/1/",
                 "diff/?from=1&to=1"):
        response = client.get(detail(slug) + path)
        assert response.status_code == expected, (path, response.content)
    if expected == 404:
        assert response.json()["error"]["code"] == "not_found"


# --- permission matrix: write / delete / restore --------------------------------------------------------------


@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("who", ["anonymous", "other"])
def test_others_cannot_write_404_when_hidden_403_when_visible(create_list, other, visibility, who):
    slug = create_list(visibility=visibility)["slug"]
    client = client_for(other if who == "other" else None)
    expected = 404 if visibility == "private" else 403
    attempts = [
        client.patch(detail(slug), {"notes": "mine now", "version": 1}, format="json"),
        client.put(detail(slug), {"document": hagmi_doc(name="x"), "version": 1}, format="json"),
        client.delete(detail(slug)),
        client.post(detail(slug) + "restore/"),
    ]
    assert [response.status_code for response in attempts] == [expected] * 4
    game_list = GameList.objects.get(slug=slug)
    assert game_list.notes == "" and game_list.name == "Blue rush" and game_list.deleted_at is None
    assert game_list.version == 1


def test_owner_put_replaces_the_document_and_bumps_the_version(create_list, owner_client):
    slug = create_list()["slug"]
    new = hagmi_doc(name="Red rush", weapons=22)
    response = owner_client.put(detail(slug), {"document": new, "version": 1}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["version"] == 2 and body["name"] == "Red rush" and body["document"] == new
    assert body["validation"]["summary"]["weapons"] == 22
    assert ListRevision.objects.filter(game_list__slug=slug).count() == 2


def test_patch_with_if_match_changes_only_the_given_fields(create_list, owner_client):
    data = create_list()
    response = owner_client.patch(detail(data["slug"]), {"visibility": "public"}, format="json",
                                  HTTP_IF_MATCH='"1"')
    assert response.status_code == 200, response.content
    assert response.json()["visibility"] == "public" and response.json()["document"] == data["document"]
    assert response["ETag"] == '"2"'


def test_put_without_a_document_is_400(create_list, owner_client):
    slug = create_list()["slug"]
    response = owner_client.put(detail(slug), {"notes": "x", "version": 1}, format="json")
    assert response.status_code == 400
    assert "document" in response.json()["error"]["message"]


def test_update_without_a_version_is_428(create_list, owner_client):
    slug = create_list()["slug"]
    response = owner_client.patch(detail(slug), {"notes": "x"}, format="json")
    assert response.status_code == 428
    assert response.json()["error"]["code"] == "list.version_required"
    assert GameList.objects.get(slug=slug).notes == ""


def test_a_list_cannot_change_system(create_list, owner_client):
    slug = create_list()["slug"]
    response = owner_client.put(detail(slug), {"document": mwda_doc(("MT-001", 1)), "version": 1}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "list.system_change"


# --- optimistic concurrency ----------------------------------------------------------------------------------


def test_stale_version_is_409_with_current_and_submitted_and_nothing_is_overwritten(create_list, owner_client):
    slug = create_list()["slug"]
    first = owner_client.patch(detail(slug), {"document": hagmi_doc(name="Tab A"), "version": 1}, format="json")
    assert first.status_code == 200
    stale = hagmi_doc(name="Tab B", weapons=24)
    response = owner_client.patch(detail(slug), {"document": stale, "version": 1}, format="json")
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "list.conflict"
    assert error["current"]["name"] == "Tab A" and error["current"]["version"] == 2
    assert error["submitted"] == stale  # handed back: nothing the user typed is lost
    game_list = GameList.objects.get(slug=slug)
    assert game_list.name == "Tab A" and game_list.version == 2 and game_list.revisions.count() == 2
    retry = owner_client.patch(detail(slug), {"document": stale, "version": error["current"]["version"]},
                               format="json")
    assert retry.status_code == 200 and retry.json()["name"] == "Tab B"


# --- soft delete and restore ---------------------------------------------------------------------------------


def test_delete_is_soft_and_restore_brings_it_back(create_list, owner_client, other_client):
    slug = create_list(visibility="public")["slug"]
    assert owner_client.delete(detail(slug)).status_code == 204
    assert GameList.objects.filter(slug=slug).exists()
    assert other_client.get(detail(slug)).status_code == 404  # gone for others
    assert owner_client.get(detail(slug)).json()["deleted"] is True
    mine = owner_client.get("/api/lists/").json()["results"]
    trash = owner_client.get("/api/lists/?deleted=1").json()["results"]
    assert slug not in {item["slug"] for item in mine} and slug in {item["slug"] for item in trash}
    gallery = other_client.get("/api/lists/?scope=public").json()["results"]
    assert slug not in {item["slug"] for item in gallery}
    edit = owner_client.patch(detail(slug), {"notes": "x", "version": 2}, format="json")
    assert edit.status_code == 400 and edit.json()["error"]["code"] == "list.deleted"

    restored = owner_client.post(detail(slug) + "restore/")
    assert restored.status_code == 200
    assert restored.json()["deleted"] is False
    assert other_client.get(detail(slug)).status_code == 200
    assert GameList.objects.get(slug=slug).revisions.count() == 2  # restore writes a revision


def test_restore_of_a_list_not_in_the_trash_is_400(create_list, owner_client):
    slug = create_list()["slug"]
    response = owner_client.post(detail(slug) + "restore/")
    assert response.status_code == 400 and response.json()["error"]["code"] == "list.not_deleted"


# --- fork ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("visibility,expected", [("private", 404), ("unlisted", 201), ("public", 201)])
def test_fork_by_another_user(create_list, other, other_client, visibility, expected):
    source = create_list(visibility=visibility, notes="source notes")
    response = other_client.post(detail(source["slug"]) + "fork/")
    assert response.status_code == expected
    if expected == 201:
        fork = response.json()
        assert fork["owner"] == "other" and fork["visibility"] == "private"
        assert fork["forked_from"] == source["slug"] and fork["name"] == f"Copy of {source['name']}"
        assert fork["document"] == {**source["document"], "name": fork["name"]}  # the same list, renamed
        assert fork["slug"] != source["slug"] and fork["version"] == 1
        assert GameList.objects.get(slug=fork["slug"]).revisions.get().author == other


def test_fork_needs_an_account(create_list, anon_client):
    slug = create_list(visibility="public")["slug"]
    response = anon_client.post(detail(slug) + "fork/")
    assert response.status_code == 403
    assert GameList.objects.count() == 1


def test_owner_can_fork_their_own_private_list(create_list, owner_client):
    slug = create_list()["slug"]
    assert owner_client.post(detail(slug) + "fork/").status_code == 201


# --- index, gallery, filters ---------------------------------------------------------------------------------


def test_index_needs_an_account_but_the_gallery_does_not(create_list, anon_client):
    create_list(visibility="public")
    response = anon_client.get("/api/lists/")
    assert response.status_code == 403 and response.json()["error"]["code"] == "not_authenticated"
    gallery = anon_client.get("/api/lists/?scope=public")
    assert gallery.status_code == 200 and gallery.json()["count"] == 1


def test_index_shows_only_own_lists(create_list, owner, other_client):
    create_list(visibility="public")
    assert other_client.get("/api/lists/").json()["count"] == 0


def test_gallery_is_public_only_newest_first_with_filters(create_list, owner_client, anon_client):
    create_list(visibility="private")
    create_list(visibility="unlisted")
    older = create_list(hagmi_doc(name="Old"), visibility="public")["slug"]
    illegal = create_list(hagmi_doc(name="New", weapons=4), visibility="public")["slug"]
    army = create_list(mwda_doc(("MT-001", 1)), visibility="public")["slug"]
    slugs = [item["slug"] for item in anon_client.get("/api/lists/?scope=public").json()["results"]]
    assert slugs == [army, illegal, older]
    hagmi = anon_client.get("/api/lists/?scope=public&system=hagmi").json()["results"]
    assert [item["slug"] for item in hagmi] == [illegal, older]
    legal = anon_client.get("/api/lists/?scope=public&legal=true").json()["results"]
    assert [item["slug"] for item in legal] == [army, older]
    fmt = anon_client.get("/api/lists/?scope=public&format=tournament-300").json()["results"]
    assert [item["slug"] for item in fmt] == [army]
    assert "document" not in hagmi[0] and hagmi[0]["error_count"] >= 1


@pytest.mark.parametrize("query,word", [("legal=maybe", "legal"), ("system=chess", "system"),
                                        ("scope=everyone", "scope"), ("deleted=perhaps", "deleted")])
def test_bad_index_filters_are_400_naming_the_parameter(owner_client, catalogs, query, word):
    response = owner_client.get(f"/api/lists/?{query}")
    assert response.status_code == 400
    assert word in response.json()["error"]["message"]


def test_index_is_paginated_by_50(catalogs, owner, owner_client):
    from cards.models import GameSystem

    hagmi = GameSystem.objects.get(slug="hagmi")
    GameList.objects.bulk_create(GameList(owner=owner, system=hagmi, name=f"L{i}") for i in range(51))
    first = owner_client.get("/api/lists/").json()
    assert first["count"] == 51 and len(first["results"]) == 50 and first["next"]
    second = owner_client.get(first["next"]).json()
    assert len(second["results"]) == 1 and second["previous"]


def test_create_needs_an_account(catalogs, anon_client):
    response = anon_client.post("/api/lists/", {"document": hagmi_doc()}, format="json")
    assert response.status_code == 403
    assert GameList.objects.count() == 0


def test_create_with_bad_visibility_is_400(catalogs, owner_client):
    response = owner_client.post("/api/lists/", {"document": hagmi_doc(), "visibility": "friends"}, format="json")
    assert response.status_code == 400
    assert "visibility" in response.json()["error"]["message"]
    assert GameList.objects.count() == 0


def test_unknown_list_is_404(catalogs, owner_client):
    response = owner_client.get(detail("no-such-list"))
    assert response.status_code == 404 and "no-such-list" in response.json()["error"]["message"]


def test_anonymous_fork_of_a_private_list_is_404(create_list, anon_client):
    slug = create_list()["slug"]
    assert anon_client.post(detail(slug) + "fork/").status_code == 404


def test_a_deleted_public_list_is_404_for_others_on_every_action(create_list, owner_client, other_client):
    slug = create_list(visibility="public")["slug"]
    owner_client.delete(detail(slug))
    responses = [
        other_client.get(detail(slug) + "revisions/"),
        other_client.post(detail(slug) + "fork/"),
        other_client.post(detail(slug) + "restore/"),
        other_client.delete(detail(slug)),
    ]
    assert [response.status_code for response in responses] == [404] * 4
