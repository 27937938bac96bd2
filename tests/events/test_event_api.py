"""The REST API of tournament events (builder/api/events.py, docs/api.md "Tournament events"): every endpoint's
answer and its refusals; nothing of a hidden list in any answer before the lists are shown; the join code and the
cap; the lock; a submission stays the locked snapshot (its list edited later, a package imported after the pins)."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from rest_framework.test import APIClient

from builder import event_selectors as events
from builder import selectors, services
from builder.models import Event, EventSubmission
from builder.services import events as event_services
from cards.models import PackageVersion
from cards.selectors import catalog_forget
from cards.services import package_import
from tests.events.conftest import event_data, hagmi_doc
from tests.support.simulations import published  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db

SECRET = "Secret-Plan-q7"  # the name of the player's list: never in an answer to anyone else before publish


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def error(response, status: int) -> dict:
    assert response.status_code == status, (response.status_code, response.content[:400])
    return response.json()["error"]


def _past(event: Event) -> None:
    Event.objects.filter(pk=event.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    event.refresh_from_db()


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("staffer", password="pw-staff-1", is_staff=True)


@pytest.fixture
def stranger(django_user_model):
    return django_user_model.objects.create_user("stranger", password="pw-stranger-1")


@pytest.fixture
def submitted(event, player, rival):
    """Both players joined; the player submitted a list named SECRET, the rival one of theirs."""
    for user, name in ((player, SECRET), (rival, "Rival list")):
        event_services.event_join(event=event, user=user, display_name=user.username.title())
        event_services.event_submit(event=event, user=user, game_list=services.list_create(
            owner=user, document=hagmi_doc(name)))
    return event


def url(event: Event, tail: str = "") -> str:
    return f"/api/events/{event.slug}/{tail}"


# --- events ---------------------------------------------------------------------------------------------------


def test_an_organiser_makes_an_event_and_reads_it_back(catalog, organiser):
    response = api(organiser).post("/api/events/", event_data(player_cap=16, format="tactics-v4"), format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    event = Event.objects.get(slug=body["slug"])
    assert response["Location"].endswith(f"/api/events/{event.slug}/")
    assert body["url"].endswith(f"/events/{event.slug}/")
    assert body["package_versions"] == event.package_versions and body["package_versions"]
    assert {key: body[key] for key in ("system", "format", "name", "date", "place", "player_cap", "players",
                                       "registration", "join_code", "locked", "locked_at", "lists_shown",
                                       "published", "status", "organiser", "my_role")} == {
        "system": "hagmi", "format": "tactics-v4", "name": "Winter Cup", "date": "2026-12-20", "place": "Akihabara",
        "player_cap": 16, "players": 0, "registration": "open", "join_code": event.join_code, "locked": False,
        "locked_at": None, "lists_shown": "publish", "published": False, "status": "open",
        "organiser": "organiser", "my_role": "organiser"}
    assert api(organiser).get(url(event)).json() == body


def test_making_an_event_names_the_bad_field(catalog, organiser):
    client = api(organiser)
    for changes, path in (({"deadline": "next friday"}, "deadline"), ({"player_cap": 1}, "player_cap"),
                          ({"registration": "invite"}, "registration"), ({"system": "chess"}, "system"),
                          ({"colour": "red"}, "colour"), ({"name": ["x"]}, "name"), ({"name": ""}, "name"),
                          ({"date": "2026-13-40"}, "date")):
        found = error(client.post("/api/events/", event_data(**changes), format="json"), 400)
        assert found["code"] == "event.invalid" and found["details"]["path"] == path, (changes, found)
    assert error(client.post("/api/events/", [1, 2], format="json"), 400)["code"] == "event.invalid"
    assert error(client.post("/api/events/", "name=x", content_type="application/x-www-form-urlencoded"), 415)
    assert error(api().post("/api/events/", event_data(), format="json"), 403)["code"] == "not_authenticated"
    assert not Event.objects.exists()


def test_the_index_shows_open_events_newest_first_and_mine_on_request(catalog, organiser, player, rival):
    older = event_services.event_create(organiser=organiser, data=event_data(name="Autumn", date="2026-10-01"))
    newer = event_services.event_create(organiser=organiser, data=event_data(name="Spring", date="2027-04-01"))
    hidden = event_services.event_create(organiser=organiser, data=event_data(name="Club", registration="code"))
    body = api().get("/api/events/").json()
    assert [row["slug"] for row in body["results"]] == [newer.slug, older.slug]
    assert all(row["join_code"] is None and row["my_role"] == "anonymous" for row in body["results"])
    assert api().get("/api/events/?system=mwda").json()["results"] == []
    assert error(api().get("/api/events/?system=chess"), 400)["details"]["path"] == "system"
    assert error(api().get("/api/events/?mine=1"), 403)["code"] == "not_authenticated"
    assert error(api(player).get("/api/events/?mine=perhaps"), 400)["details"]["path"] == "mine"
    event_services.event_join(event=hidden, user=player, code=hidden.join_code)
    mine = api(player).get("/api/events/?mine=1").json()["results"]
    assert [(row["slug"], row["my_role"]) for row in mine] == [(hidden.slug, "entrant")]
    assert api(rival).get("/api/events/?mine=1").json()["results"] == []
    organised = api(organiser).get("/api/events/?mine=1&system=hagmi").json()["results"]
    assert {row["slug"] for row in organised} == {older.slug, newer.slug, hidden.slug}


def test_a_join_code_event_is_a_404_without_its_code(catalog, organiser, player, rival, staff):
    event = event_services.event_create(organiser=organiser, data=event_data(registration="code"))
    assert error(api(rival).get(url(event)), 404)["code"] == "not_found"
    assert error(api().get(url(event)), 404)
    seen = api(rival).get(url(event), {"code": event.join_code.lower()}).json()
    assert seen["join_code"] is None and seen["my_role"] == "user"
    assert api(staff).get(url(event)).json()["join_code"] == event.join_code
    assert api(staff).get(url(event)).json()["my_role"] == "staff"
    assert error(api(player).post(url(event, "join/"), {"code": "WRONG123"}, format="json"), 404)
    joined = api(player).post(url(event, "join/"), {"code": event.join_code, "display_name": "Aoi"}, format="json")
    assert joined.status_code == 200 and joined.json()["my_role"] == "entrant" and joined.json()["players"] == 1
    assert event.entrants.get().display_name == "Aoi"
    assert api(player).get(url(event)).json()["my_role"] == "entrant"  # a player needs the code no more
    assert error(api().post(url(event, "join/"), {"code": event.join_code}, format="json"), 403)


def test_the_player_cap_refuses_one_more_player_with_409(catalog, organiser, player, rival, stranger):
    event = event_services.event_create(organiser=organiser, data=event_data(player_cap=2))
    for user in (player, rival):
        assert api(user).post(url(event, "join/"), {}, format="json").status_code == 200
    full = error(api(stranger).post(url(event, "join/"), {}, format="json"), 409)
    assert full["code"] == "event.full" and full["details"]["cap"] == 2
    assert api(player).post(url(event, "join/"), {"display_name": "P2"}, format="json").status_code == 200  # again
    assert error(api(player).post(url(event, "join/"), {"display_name": 7}, format="json"), 400)["details"]["path"] \
        == "display_name"


def test_the_organiser_or_staff_change_and_delete_an_event(event, player, rival, staff):
    assert error(api(rival).patch(url(event), {"name": "Mine now"}, format="json"), 403)["code"] == \
        "permission_denied"
    assert error(api().patch(url(event), {"name": "Mine now"}, format="json"), 403)
    assert api(event.organiser).patch(url(event), {"name": "Winter Cup II"}, format="json").json()["name"] == \
        "Winter Cup II"
    assert api(staff).patch(url(event), {"place": "Nakano"}, format="json").json()["place"] == "Nakano"
    bad = error(api(event.organiser).patch(url(event), {"player_cap": "many"}, format="json"), 400)
    assert bad["details"]["path"] == "player_cap"
    event_services.event_lock(event=event, user=event.organiser)
    frozen = error(api(event.organiser).patch(url(event), {"player_cap": 8}, format="json"), 409)
    assert frozen["code"] == "event.locked" and frozen["details"]["path"] == "player_cap"
    assert error(api(rival).delete(url(event)), 403)
    assert api(event.organiser).delete(url(event)).status_code == 204
    assert error(api(event.organiser).get(url(event)), 404)


# --- submissions --------------------------------------------------------------------------------------------


def test_a_player_submits_one_of_their_lists(event, player):
    game_list = services.list_create(owner=player, document=hagmi_doc("Blue rush"))
    client = api(player)
    assert client.post(url(event, "join/"), {"display_name": "Aoi"}, format="json").status_code == 200
    response = client.post(url(event, "submissions/"), {"list": game_list.slug}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    submission = EventSubmission.objects.get()
    assert response["Location"].endswith(url(event, f"submissions/{submission.public_id}/"))
    assert {key: body[key] for key in ("public_id", "number", "player", "source", "list", "list_revision", "legal",
                                       "error_count", "warning_count", "violations", "verification_code",
                                       "package_versions")} == {
        "public_id": submission.public_id, "number": 1, "player": "Aoi", "source": "list", "list": game_list.slug,
        "list_revision": 1, "legal": True, "error_count": 0, "warning_count": 0, "violations": [],
        "verification_code": events.submission_code(submission), "package_versions": event.package_versions}
    assert body["document"]["name"] == "Blue rush" and body["document"]["sections"]["weapons"]
    assert client.get(url(event, f"submissions/{submission.public_id}/")).json() == body
    assert api(event.organiser).get(url(event, f"submissions/{submission.public_id}/")).json()["list"] == \
        game_list.slug


def test_a_text_list_or_a_file_is_submitted_too(event, player):
    client = api(player)
    client.post(url(event, "join/"), {}, format="json")
    text = client.post(url(event, "submissions/"), {"text": "System: hagmi\n[兵器]\n2 HS-001\n"}, format="json")
    assert text.status_code == 201 and text.json()["source"] == "text" and not text.json()["legal"]
    assert text.json()["error_count"] > 0 and text.json()["violations"][0]["message"]
    upload = SimpleUploadedFile("cup.json", json.dumps(hagmi_doc("From a file")).encode(), "application/json")
    filed = client.post(url(event, "submissions/"), {"file": upload}, format="multipart")
    assert filed.status_code == 201, filed.content
    assert filed.json()["number"] == 2 and filed.json()["legal"] and filed.json()["document"]["name"] == "From a file"
    roster = selectors.list_export(hagmi_doc("From a roster"), "ros")
    sent = client.post(url(event, "submissions/"), {"file": SimpleUploadedFile("cup.ros", roster.encode()
                                                                                 if isinstance(roster, str)
                                                                                 else roster)}, format="multipart")
    assert sent.status_code == 201, sent.content
    assert sent.json()["source"] == "roster" and sent.json()["number"] == 3
    wrong = client.post(url(event, "submissions/"), {"file": SimpleUploadedFile("cup.pdf", b"%PDF")},
                        format="multipart")
    assert error(wrong, 400)["details"]["path"] == "file"
    assert EventSubmission.objects.count() == 3


def test_a_submission_is_refused_naming_why(event, player, rival):
    theirs = services.list_create(owner=rival, document=hagmi_doc("Theirs"), visibility="public")
    hidden = services.list_create(owner=rival, document=hagmi_doc("Hidden"))
    mine = services.list_create(owner=player, document=hagmi_doc())
    client = api(player)
    assert error(client.post(url(event, "submissions/"), {"list": mine.slug}, format="json"), 403)  # not joined
    assert error(api().post(url(event, "submissions/"), {"text": "2 HS-001"}, format="json"), 403)
    client.post(url(event, "join/"), {}, format="json")
    for body, path in (({}, "list"), ({"list": mine.slug, "text": "2 HS-001"}, "text"), ({"list": 5}, "list"),
                       ({"file": "cup.ros"}, "file")):
        found = error(client.post(url(event, "submissions/"), body, format="json"), 400)
        assert found["code"] == "event.invalid" and found["details"]["path"] == path, (body, found)
    assert error(client.post(url(event, "submissions/"), {"list": hidden.slug}, format="json"), 404)
    assert error(client.post(url(event, "submissions/"), {"list": theirs.slug}, format="json"), 403)
    assert error(client.post(url(event, "submissions/?lang=fr"), {"list": mine.slug}, format="json"), 400)
    assert not EventSubmission.objects.exists()


def test_locked_lists_refuse_a_submission_with_409(event, player):
    game_list = services.list_create(owner=player, document=hagmi_doc())
    event_services.event_join(event=event, user=player)
    _past(event)
    found = error(api(player).post(url(event, "submissions/"), {"list": game_list.slug}, format="json"), 409)
    assert found["code"] == "event.locked"
    assert error(api(player).post(url(event, "withdraw/")), 409)["code"] == "event.locked"
    assert not EventSubmission.objects.exists()
    assert api(player).get(url(event)).json()["status"] == "locked"


def test_a_hidden_list_is_in_no_answer_before_the_lists_are_shown(submitted, player, rival, stranger, staff):
    event = submitted
    secret = EventSubmission.objects.get(entrant__player=player)
    code = events.submission_code(secret)
    others = {"rival": api(rival), "stranger": api(stranger), "anonymous": api()}

    def answers(client) -> list:
        return [client.get(url(event)), client.get(url(event, "submissions/")),
                client.get(url(event, "submissions/?history=1")),
                client.get(url(event, f"submissions/{secret.public_id}/")), client.get(url(event, "field/")),
                client.get(url(event, "players/")), client.get("/api/events/"), client.get("/api/events/?mine=1")]

    for who, client in others.items():
        for response in answers(client):
            text = response.content.decode()
            assert SECRET not in text and code not in text, (who, response.request["PATH_INFO"])
            if secret.public_id not in response.request["PATH_INFO"]:  # a 404 repeats the id it was asked
                assert secret.public_id not in text, (who, response.request["PATH_INFO"])
    rival_sees = api(rival).get(url(event, "submissions/")).json()["results"]
    assert [row["document"]["name"] for row in rival_sees] == ["Rival list"]  # their own only
    assert api(stranger).get(url(event, "submissions/")).json()["results"] == []
    assert error(api(rival).get(url(event, f"submissions/{secret.public_id}/")), 404)
    assert error(api(rival).get(url(event, "field/")), 404)
    for client in (api(event.organiser), api(staff)):
        names = {row["document"]["name"] for row in client.get(url(event, "submissions/")).json()["results"]}
        assert names == {SECRET, "Rival list"}
        assert client.get(url(event, "field/")).status_code == 200

    event_services.event_lock(event=event, user=event.organiser)
    shown = api(event.organiser).post(url(event, "publish/"))
    assert shown.status_code == 200 and shown.json()["status"] == "published" and shown.json()["published"]
    for who, client in others.items():
        rows = client.get(url(event, "submissions/")).json()["results"]
        assert {row["document"]["name"] for row in rows} == {SECRET, "Rival list"}, who
        assert all(row["list"] is None for row in rows if row["player"] == "Player")  # the list id: player/organiser
        assert client.get(url(event, f"submissions/{secret.public_id}/")).json()["verification_code"] == code


def test_the_organiser_reads_every_submission_with_history(submitted, player, rival):
    event = submitted
    event_services.event_submit(event=event, user=player, text="System: hagmi\n[兵器]\n2 HS-001\n")
    organiser = api(event.organiser)
    current = organiser.get(url(event, "submissions/")).json()["results"]
    assert [(row["player"], row["number"]) for row in current] == [("Player", 2), ("Rival", 1)]
    every = organiser.get(url(event, "submissions/?history=1")).json()["results"]
    assert [(row["player"], row["number"]) for row in every] == [("Player", 2), ("Player", 1), ("Rival", 1)]
    own = api(player).get(url(event, "submissions/?history=1")).json()["results"]
    assert [(row["player"], row["number"]) for row in own] == [("Player", 2), ("Player", 1)]
    event_services.event_lock(event=event, user=event.organiser)
    event_services.event_publish(event=event, user=event.organiser)
    assert [row["player"] for row in api(rival).get(url(event, "submissions/?history=1")).json()["results"]] == \
        ["Rival"]  # another player's earlier lists stay the organiser's


def test_a_list_edited_after_its_submission_changes_neither_the_submission_nor_its_code(event, player):
    game_list = services.list_create(owner=player, document=hagmi_doc("Before"))
    client = api(player)
    client.post(url(event, "join/"), {}, format="json")
    first = client.post(url(event, "submissions/"), {"list": game_list.slug}, format="json").json()
    services.list_update(game_list=game_list, user=player, document=hagmi_doc("After", copies=3), expected_version=1)
    again = client.get(url(event, f"submissions/{first['public_id']}/")).json()
    assert again == first
    assert again["document"]["name"] == "Before" and again["legal"]
    assert client.get(url(event, "submissions/")).json()["results"][0]["verification_code"] == \
        first["verification_code"]


def test_a_package_imported_after_the_pins_does_not_change_legality(event, player):
    client = api(player)
    client.post(url(event, "join/"), {}, format="json")
    game_list = services.list_create(owner=player, document=hagmi_doc())
    first = client.post(url(event, "submissions/"), {"list": game_list.slug}, format="json").json()
    version = PackageVersion.objects.filter(system__slug="hagmi").order_by("-number").first()
    data = dict(version.data)
    data["cards"] = [card for card in data["cards"] if card["code"] != "HS-001"]
    data["version"] = "next"
    package_import(data)  # a new version without HS-001
    catalog_forget()
    assert client.get(url(event, f"submissions/{first['public_id']}/")).json() == first
    second = client.post(url(event, "submissions/"), {"list": game_list.slug}, format="json").json()
    assert second["legal"] and second["package_versions"] == first["package_versions"]
    assert second["verification_code"] != first["verification_code"]  # another submission, another code
    moved = api(event.organiser).post(url(event, "repin/")).json()
    assert moved["package_versions"] != first["package_versions"]
    assert not client.get(url(event, f"submissions/{second['public_id']}/")).json()["legal"]


def test_violations_come_in_the_requests_language(event, player):
    client = api(player)
    client.post(url(event, "join/"), {}, format="json")
    game_list = services.list_create(owner=player, document=hagmi_doc(copies=3))
    made = client.post(url(event, "submissions/?lang=ja"), {"list": game_list.slug}, format="json").json()
    english = client.get(url(event, f"submissions/{made['public_id']}/?lang=en")).json()["violations"]
    japanese = client.get(url(event, f"submissions/{made['public_id']}/"), HTTP_ACCEPT_LANGUAGE="ja").json()
    assert not made["legal"] and made["violations"] == japanese["violations"]
    assert [v["code"] for v in english] == [v["code"] for v in japanese["violations"]]
    assert [v["message"] for v in english] != [v["message"] for v in japanese["violations"]]


# --- players, the organiser's actions, the field ----------------------------------------------------------------


def test_the_organiser_sees_every_player_and_removes_one(submitted, player, rival, stranger, staff):
    event = submitted
    event_services.event_join(event=event, user=stranger)
    rows = api(event.organiser).get(url(event, "players/")).json()["results"]
    assert [(row["display_name"], row["username"], row["submitted"]) for row in rows] == [
        ("Player", "player", True), ("Rival", "rival", True), ("stranger", "stranger", False)]
    current = rows[0]["current"]
    assert current["name"] == SECRET and current["legal"] and current["number"] == 1
    assert current["verification_code"] == events.submission_code(EventSubmission.objects.get(entrant__player=player))
    assert rows[2]["current"] is None and rows[0]["withdrawn_at"] is None
    assert error(api(rival).get(url(event, "players/")), 403)["code"] == "permission_denied"
    assert error(api().get(url(event, "players/")), 403)["code"] == "not_authenticated"
    target = url(event, f"players/{rows[2]['id']}/")
    assert error(api(rival).delete(target), 403)
    assert error(api(rival).delete(url(event, "players/999999/")), 403)  # no hint whether the player exists
    assert api(staff).delete(target).status_code == 204
    assert api(event.organiser).get(url(event)).json()["players"] == 2
    after = api(event.organiser).get(url(event, "players/")).json()["results"]
    assert after[2]["withdrawn_at"] is not None
    assert error(api(event.organiser).delete(url(event, "players/999999/")), 404)
    assert error(api(event.organiser).delete(url(event, "players/99999999999999999999/")), 404)
    event_services.event_lock(event=event, user=event.organiser)
    assert error(api(event.organiser).delete(url(event, f"players/{rows[1]['id']}/")), 409)["code"] == "event.locked"


def test_a_player_withdraws_and_joins_again(submitted, player, stranger):
    event = submitted
    left = api(player).post(url(event, "withdraw/"))
    assert left.status_code == 200 and left.json()["my_role"] == "user" and left.json()["players"] == 1
    assert error(api(stranger).post(url(event, "withdraw/")), 404)
    assert error(api().post(url(event, "withdraw/")), 403)
    assert api(player).post(url(event, "join/"), {}, format="json").json()["players"] == 2
    assert api(player).get(url(event, "submissions/")).json()["results"][0]["document"]["name"] == SECRET


def test_lock_publish_and_repin_belong_to_the_organiser(event, rival, staff):
    for action in ("lock/", "publish/", "repin/"):
        assert error(api(rival).post(url(event, action)), 403)["code"] == "permission_denied"
        assert error(api().post(url(event, action)), 403)["code"] == "not_authenticated"
    organiser = api(event.organiser)
    assert error(organiser.post(url(event, "publish/")), 409)["code"] == "event.not_locked"
    assert organiser.post(url(event, "repin/")).json()["package_versions"] == event.package_versions
    locked = organiser.post(url(event, "lock/")).json()
    assert locked["locked"] and locked["locked_at"] and locked["status"] == "locked"
    assert error(organiser.post(url(event, "repin/")), 409)["code"] == "event.locked"
    assert api(staff).post(url(event, "publish/")).json()["status"] == "published"
    only = event_services.event_create(organiser=event.organiser, data=event_data(lists_shown="organiser"))
    event_services.event_lock(event=only, user=event.organiser)
    assert error(organiser.post(url(only, "publish/")), 409)["code"] == "event.organiser_only"


def test_the_events_field_weighs_each_list_by_its_players(submitted, player, rival, stranger, published):  # noqa: F811
    event = submitted
    event_services.event_join(event=event, user=stranger)
    event_services.event_submit(event=event, user=stranger, game_list=services.list_create(
        owner=stranger, document=hagmi_doc("Same cards as the rival's")))
    gauntlet = {"document": hagmi_doc(), "opponents": [{"event": event.slug}], "games": 2, "seed": 5}
    refused = error(api(stranger).post("/api/gauntlets/", gauntlet, format="json"), 400)
    assert refused["code"] == "simulation.event" and SECRET not in json.dumps(refused)
    event_services.event_lock(event=event, user=event.organiser)
    event_services.event_publish(event=event, user=event.organiser)
    field = api().get(url(event, "field/")).json()
    assert field["event"] == event.slug and field["system"] == "hagmi" and field["players"] == 3
    assert [(row["weight"], sorted(row["players"])) for row in field["lists"]] == [
        (3, ["Player", "Rival", "stranger"])]  # hagmi_doc's cards, whatever the name: one list, three players
    assert field["lists"][0]["share"] == 1.0 and field["lists"][0]["document"]["sections"]["weapons"]
    started = api(stranger).post("/api/gauntlets/", gauntlet, format="json")
    assert started.status_code == 202, started.content


def test_the_schema_documents_every_event_endpoint(db, client):
    schema = client.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    for path, methods in {"/api/events/": {"get", "post"}, "/api/events/{slug}/": {"get", "patch", "delete"},
                          "/api/events/{slug}/join/": {"post"}, "/api/events/{slug}/withdraw/": {"post"},
                          "/api/events/{slug}/submissions/": {"get", "post"},
                          "/api/events/{slug}/submissions/{public_id}/": {"get"},
                          "/api/events/{slug}/players/": {"get"}, "/api/events/{slug}/players/{entrant}/": {"delete"},
                          "/api/events/{slug}/lock/": {"post"}, "/api/events/{slug}/publish/": {"post"},
                          "/api/events/{slug}/repin/": {"post"}, "/api/events/{slug}/field/": {"get"}}.items():
        assert set(paths[path]) == methods, path
    assert {"201", "400", "403"} <= set(paths["/api/events/"]["post"]["responses"])
    assert "409" in paths["/api/events/{slug}/submissions/"]["post"]["responses"]
    assert "multipart/form-data" in paths["/api/events/{slug}/submissions/"]["post"]["requestBody"]["content"]
    components = schema["components"]["schemas"]
    assert components["Event"]["properties"]["join_code"]["nullable"] is True
    assert "event" in components["GauntletOpponentRequest"]["properties"]
    assert "examples" in paths["/api/events/"]["post"]["requestBody"]["content"]["application/json"]


def test_odd_input_is_a_clear_4xx_never_a_500(event, player):
    client = api(event.organiser)
    for body in ({"deadline": "9999-12-31T23:59:59-23:59"}, {"publish_at": "0001-01-01T00:00:00+14:00"},
                 {"date": "0000-01-01"}, {"name": "\x00"}, {"player_cap": 10**30}, {"lists_shown": ["x"]},
                 {"format": {"a": 1}}):
        response = client.patch(url(event), body, format="json")
        assert response.status_code in (200, 400), (body, response.status_code, response.content[:300])
    lone = client.patch(url(event), '{"name": "\\ud800"}', content_type="application/json")  # a lone surrogate
    assert error(lone, 400)["details"]["path"] == "name"
    for path in ("/api/events/%00/", "/api/events/" + "a" * 40 + "/", url(event, "submissions/%C2%84/"),
                 url(event, "players/0/")):
        assert client.get(path).status_code in (404, 405), path
    assert api(player).get(url(event) + "?code=%00").status_code == 200
