"""The organiser's side of an event in the browser's client: the organiser's page (players, legality, violations,
reminders), lock, publish, moving the pinned data, removing a player; the sheet of a submission and its code;
/verify/ with an event's code."""
from __future__ import annotations

import re

import pytest

from builder import event_selectors as events
from builder import services
from builder.models import Event
from builder.services import events as event_services
from tests.events.conftest import client_of, event_data, hagmi_doc

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(django_user_model):
    """Three more players: one with an e-mail address."""
    return [django_user_model.objects.create_user(name, password="pw-x-12345", email=email)
            for name, email in (("alice", "alice@example.org"), ("bob", ""), ("carol", "carol@example.org"))]


def _submit(event, user, document, name=None):
    event_services.event_join(event=event, user=user, display_name=name)
    game_list = services.list_create(owner=user, document=document)
    return event_services.event_submit(event=event, user=user, game_list=game_list), game_list


def _page(client, url, lang="en"):
    client.cookies["django_language"] = lang
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


@pytest.fixture
def running(event, player, rival, players):
    """A legal list (player), an illegal one (rival: three copies, H4), two players without a list."""
    legal, _ = _submit(event, player, hagmi_doc("Blue rush"), "Player One")
    illegal, rival_list = _submit(event, rival, hagmi_doc("Red wall", copies=3), "Rival Two")
    for user in players[:2]:
        event_services.event_join(event=event, user=user)
    return {"legal": legal, "illegal": illegal, "rival_list": rival_list}


def test_the_organisers_page_shows_players_legality_violations_and_reminders(event, organiser, running):
    client = client_of(organiser)
    html = _page(client, f"/events/{event.slug}/manage/")
    assert "Player One" in html and "Rival Two" in html and "rival" in html  # display name and username
    assert "Blue rush" in html and "Red wall" in html
    assert 'class="badge legal"' in html and 'class="badge illegal"' in html
    assert '<span class="rule-id">H4</span>' in html  # the violation with its rule ID, in words
    assert "Not submitted yet (2)" in html and "alice" in html and "bob" in html
    assert "before" in html and f"/events/{event.slug}/" in html  # the reminder: the deadline and the link
    assert "mailto:?bcc=alice@example.org" in html and "bob@" not in html
    assert "Lock the lists now" in html and "Publish the lists now" not in html  # publish: once locked
    for kind in ("csv", "json", "pdf-pack"):
        assert f"/events/{event.slug}/export/{kind}/" in html
    assert f"/events/{event.slug}/submissions/{running['illegal'].public_id}/sheet/" in html
    japanese = _page(client, f"/events/{event.slug}/manage/", "ja")
    assert '<html lang="ja">' in japanese and "未提出" in japanese and "H4" in japanese
    assert "枚まで" in japanese or "同名" in japanese  # the violation said in Japanese
    assert "Hello!" not in japanese


def test_lock_then_publish_and_a_publish_before_the_lock_is_refused_with_a_message(event, organiser, running):
    client = client_of(organiser)
    response = client.post(f"/events/{event.slug}/publish/", follow=True)
    assert response.status_code == 200 and "Lock the lists before publishing" in response.content.decode()
    event.refresh_from_db()
    assert event.published_at is None
    response = client.post(f"/events/{event.slug}/lock/", follow=True)
    html = response.content.decode()
    assert "The lists are locked" in html and "Publish the lists now" in html
    assert "Hello!" not in html and "can no longer submit one" in html  # no reminder to submit once locked
    assert events.event_status(Event.objects.get(pk=event.pk)) == "locked"
    response = client.post(f"/events/{event.slug}/repin/", follow=True)  # locked: a message, not a 500
    assert response.status_code == 200 and "locked" in response.content.decode()
    response = client.post(f"/events/{event.slug}/publish/", follow=True)
    assert "The lists are published" in response.content.decode()
    assert events.event_status(Event.objects.get(pk=event.pk)) == "published"


def test_repin_and_remove_a_player(event, organiser, running, rival):
    client = client_of(organiser)
    response = client.post(f"/events/{event.slug}/repin/", follow=True)
    assert response.status_code == 200 and "newest data" in response.content.decode()
    entrant = events.event_entrant(event, rival)
    response = client.post(f"/events/{event.slug}/players/{entrant.pk}/remove/", follow=True)
    html = response.content.decode()
    assert "Rival Two is removed" in html and "Withdrawn (1)" in html
    assert events.event_entrant(event, rival) is None
    again = client.post(f"/events/{event.slug}/players/{entrant.pk}/remove/", follow=True)
    assert again.status_code == 200 and "not in this event" in again.content.decode()
    assert client.post(f"/events/{event.slug}/players/999999/remove/").status_code == 302


def test_only_the_organiser_or_staff_runs_the_event(event, organiser, player, rival, running, django_user_model):
    for user in (player, rival):
        assert client_of(user).get(f"/events/{event.slug}/manage/").status_code == 403
        assert client_of(user).post(f"/events/{event.slug}/lock/").status_code == 403
        assert client_of(user).get(f"/events/{event.slug}/export/csv/").status_code == 403
    hidden = event_services.event_create(organiser=organiser, data=event_data(registration="code", name="Secret"))
    stranger = django_user_model.objects.create_user("stranger", password="pw-x-12345")
    assert client_of(stranger).get(f"/events/{hidden.slug}/manage/").status_code == 404
    assert client_of(stranger).get(f"/events/{hidden.slug}/pack/").status_code == 404
    staff = django_user_model.objects.create_user("judge", password="pw-x-12345", is_staff=True)
    assert client_of(staff).get(f"/events/{event.slug}/manage/").status_code == 200
    assert client_of(organiser).get(f"/events/{event.slug}/export/xlsx/").status_code == 404


def test_the_sheet_shows_the_locked_list_and_a_code_that_a_later_edit_does_not_change(event, organiser, rival,
                                                                                      player, running):
    submission = running["illegal"]
    url = f"/events/{event.slug}/submissions/{submission.public_id}/sheet/"
    code = events.submission_code(submission)
    html = _page(client_of(rival), url)
    assert "Winter Cup" in html and "Akihabara" in html and "Rival Two" in html and code in html
    assert submission.public_id in html and 'class="badge illegal"' in html and "H4" in html
    game_list = running["rival_list"]
    services.list_update(game_list=game_list, user=rival, document=hagmi_doc("Renamed"), expected_version=1)
    after = _page(client_of(organiser), url)
    assert code in after and "Red wall" in after and "Renamed" not in after
    assert client_of(player).get(url).status_code == 404  # lists not shown yet: another player sees nothing
    assert "Red wall" not in client_of(player).get(url).content.decode()
    assert client_of(rival).get(f"/events/nope/submissions/{submission.public_id}/sheet/").status_code == 404


def test_verify_accepts_an_event_code_and_refuses_a_tampered_or_hidden_one(event, organiser, player, rival,
                                                                          running):
    submission = running["illegal"]
    code = events.submission_code(submission)
    link = f"https://hangar.example/events/{event.slug}/submissions/{submission.public_id}/sheet/"
    html = client_of(organiser).get("/verify/", {"list": link, "code": code}).content.decode()
    assert "matches the locked list of submission 1" in html and "Rival Two" in html and "Winter Cup" in html
    tampered = ("0" if code[0] != "0" else "1") + code[1:]
    html = client_of(organiser).get("/verify/", {"list": submission.public_id, "code": tampered}).content.decode()
    assert "does NOT match" in html
    hidden = client_of(player).get("/verify/", {"list": submission.public_id, "code": code}).content.decode()
    unknown = client_of(player).get("/verify/", {"list": "nosuchsubmission", "code": code}).content.decode()
    assert "No such event submission" in hidden and "Red wall" not in hidden and "Rival Two" not in hidden

    def outcome(page: str) -> str:
        return re.sub(r"\s+", " ", page.split('class="outcome', 1)[1].split("</div>", 1)[0])

    assert outcome(hidden) == outcome(unknown)
    later, _ = _submit(event, rival, hagmi_doc("Red wall two"))
    html = client_of(rival).get("/verify/", {"list": submission.public_id, "code": code}).content.decode()
    assert f"now submission {later.number}" in html
