"""Tournament events, the players' pages (builder/web/events.py): the index, "my events", the event form, the event's
page (join, submit from a list, a text or a file, withdraw), the event's lists and a submission's page, each in
English and Japanese; and the list page's notice when a submitted list has changed since."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone

from builder import services
from builder.models import Event, EventEntrant, EventSubmission
from builder.services import events as event_services
from tests.events.conftest import client_of, event_data, hagmi_doc

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "ja")


def _in(client: Client, language: str) -> Client:
    client.cookies["django_language"] = language
    return client


def _get(client: Client, url: str, language: str = "en"):
    return _in(client, language).get(url, HTTP_ACCEPT_LANGUAGE=language)


def _past(event: Event) -> None:
    Event.objects.filter(pk=event.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    event.refresh_from_db()


def _entered(event: Event, player, document=None):
    event_services.event_join(event=event, user=player)
    game_list = services.list_create(owner=player, document=document or hagmi_doc())
    return game_list, event_services.event_submit(event=event, user=player, game_list=game_list)


def _deadline(days: int = 3) -> str:
    return timezone.localtime(timezone.now() + timedelta(days=days)).strftime("%Y-%m-%dT%H:%M")


def _form(**changes):
    data = {"system": "hagmi", "format": "", "name": "Spring Open", "date": "2027-03-01", "place": "Osaka",
            "player_cap": "", "registration": "open", "deadline": _deadline(), "lists_shown": "publish",
            "publish_at": ""}
    data.update(changes)
    return data


# --- the index and "my events" -------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_events_page_lists_open_events_with_their_state_in_words(event, player, language):
    code_event = event_services.event_create(organiser=event.organiser, data=event_data(
        name="Secret Cup", registration="code"))
    page = _get(Client(), "/events/", language).content.decode()
    assert "Winter Cup" in page and "Secret Cup" not in page
    assert ("Open for lists" if language == "en" else "リスト受付中") in page
    assert "Akihabara" in page and "0" in page
    assert code_event.join_code not in page
    signed = _get(client_of(player), "/events/", language).content.decode()
    assert 'href="/events/mine/"' in signed and 'href="/events/"' in signed  # the navigation's "Events" too


@pytest.mark.parametrize("language", LANGUAGES)
def test_my_events_shows_what_i_organise_and_my_status_in_what_i_entered(event, organiser, player, rival,
                                                                         language):
    _entered(event, player, hagmi_doc(copies=3))  # three copies: illegal
    mine = _get(client_of(player), "/events/mine/", language).content.decode()
    assert "Winter Cup" in mine
    assert ("Submitted with" if language == "en" else "エラー") in mine
    assert f"/events/{event.slug}/manage/" not in mine
    theirs = _get(client_of(organiser), "/events/mine/", language).content.decode()
    assert f"/events/{event.slug}/manage/" in theirs
    event_services.event_join(event=event, user=rival)
    assert ("Not submitted" if language == "en" else "未提出") in _get(client_of(rival), "/events/mine/",
                                                                      language).content.decode()
    assert Client().get("/events/mine/").status_code == 302


# --- the event form -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_making_an_event_through_its_form(catalog, organiser, language):
    client = client_of(organiser)
    page = _get(client, "/events/new/", language).content.decode()
    assert 'type="datetime-local"' in page and "UTC" in page
    response = _in(client, language).post("/events/new/", _form(player_cap="16", registration="code"))
    assert response.status_code == 302
    event = Event.objects.get(name="Spring Open")
    assert response["Location"] == f"/events/{event.slug}/"
    assert event.player_cap == 16 and event.registration == "code" and event.format == "" and event.package_versions
    detail = _get(client, response["Location"], language).content.decode()
    assert event.join_code in detail and f"?code={event.join_code}" in detail  # the organiser's share link


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_forms_errors_are_next_to_their_field(catalog, organiser, language):
    client = _in(client_of(organiser), language)
    bad = client.post("/events/new/", _form(name="", player_cap="1", deadline="tomorrow"))
    assert bad.status_code == 400
    page = bad.content.decode()
    for field in ("name", "player_cap", "deadline"):
        assert f'id="id_{field}-errors"' in page, field
    # the service's refusal (a publish time before the deadline) lands next to its field, in the page's language
    early = client.post("/events/new/", _form(publish_at=_deadline(1)))
    assert early.status_code == 400 and 'id="id_publish_at-errors"' in early.content.decode()
    assert ("before they lock" if language == "en" else "ロック前") in early.content.decode()
    assert not Event.objects.exists()


def test_only_the_organiser_edits_and_deletes(event, organiser, player):
    assert client_of(player).get(f"/events/{event.slug}/edit/").status_code == 403
    assert client_of(player).post(f"/events/{event.slug}/delete/").status_code == 403
    client = client_of(organiser)
    form = client.get(f"/events/{event.slug}/edit/").content.decode()
    assert "Winter Cup" in form
    response = client.post(f"/events/{event.slug}/edit/", _form(name="Winter Cup II", place="Kanda",
                                                                deadline=_deadline(4)))
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.name == "Winter Cup II" and event.place == "Kanda"
    assert "Delete" in client.get(f"/events/{event.slug}/delete/").content.decode()  # the confirmation
    assert client.post(f"/events/{event.slug}/delete/").status_code == 302
    assert not Event.objects.filter(pk=event.pk).exists()


def test_a_locked_event_keeps_its_deadline_but_its_name_may_change(event, organiser):
    _past(event)
    client = client_of(organiser)
    local = timezone.localtime(event.deadline).strftime("%Y-%m-%dT%H:%M")
    same = client.post(f"/events/{event.slug}/edit/", _form(name="Renamed", deadline=local, place="Akihabara",
                                                            date="2026-12-20"))
    assert same.status_code == 302
    moved = client.post(f"/events/{event.slug}/edit/", _form(name="Renamed", deadline=_deadline(9)))
    assert moved.status_code == 400 and 'id="id_deadline-errors"' in moved.content.decode()


# --- joining -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_joining_an_open_event(event, player, language):
    client = client_of(player)
    page = _get(client, f"/events/{event.slug}/", language).content.decode()
    assert 'id="join-form"' in page and 'name="code"' not in page
    assert "Winter Cup" in page and "organiser" in page  # the organiser's name
    response = _in(client, language).post(f"/events/{event.slug}/join/", {"display_name": "Aki"})
    assert response.status_code == 302
    assert EventEntrant.objects.get(event=event, player=player).display_name == "Aki"
    page = _get(client, f"/events/{event.slug}/", language).content.decode()
    assert 'id="submit-list"' in page and 'id="submit-text"' in page and 'id="submit-file"' in page
    assert event.join_code not in page


def test_joining_a_join_code_event_needs_its_code(catalog, organiser, player, rival):
    event = event_services.event_create(organiser=organiser, data=event_data(registration="code"))
    assert client_of(player).get(f"/events/{event.slug}/").status_code == 404
    assert Client().get(f"/events/{event.slug}/").status_code == 404
    page = client_of(player).get(f"/events/{event.slug}/?code={event.join_code}").content.decode()
    assert 'name="code"' in page and 'class="join-code"' not in page and 'id="join-link"' not in page
    wrong = client_of(player).post(f"/events/{event.slug}/join/?code={event.join_code}", {"code": "WRONG123"})
    assert wrong.status_code == 400 and 'id="id_code-errors"' in wrong.content.decode()
    assert client_of(rival).post(f"/events/{event.slug}/join/", {"code": "WRONG123"}).status_code == 404
    ok = client_of(player).post(f"/events/{event.slug}/join/?code={event.join_code}", {"code": event.join_code})
    assert ok.status_code == 302
    assert client_of(player).get(f"/events/{event.slug}/").status_code == 200  # an entrant: no code needed


def test_a_full_event_refuses_a_player(catalog, organiser, player, rival):
    event = event_services.event_create(organiser=organiser, data=event_data(player_cap=2))
    event_services.event_join(event=event, user=organiser)
    event_services.event_join(event=event, user=player)
    response = client_of(rival).post(f"/events/{event.slug}/join/", {"display_name": ""})
    assert response.status_code == 409
    assert "full" in response.content.decode()
    assert not EventEntrant.objects.filter(player=rival).exists()


def test_the_join_form_needs_an_account(event):
    response = Client().post(f"/events/{event.slug}/join/", {})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


# --- submitting ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_submitting_one_of_my_lists_then_another_keeps_the_history(event, player, language):
    event_services.event_join(event=event, user=player)
    legal = services.list_create(owner=player, document=hagmi_doc("Legal one"))
    illegal = services.list_create(owner=player, document=hagmi_doc("Three copies", copies=3))
    client = _in(client_of(player), language)
    assert client.post(f"/events/{event.slug}/submit/", {"way": "list", "list": legal.slug}).status_code == 302
    assert client.post(f"/events/{event.slug}/submit/", {"way": "list", "list": illegal.slug}).status_code == 302
    assert EventSubmission.objects.filter(entrant__player=player).count() == 2
    page = _get(client, f"/events/{event.slug}/", language).content.decode()
    assert "Three copies" in page and "Legal one" in page  # the current one and the history
    assert "H4" in page  # the broken rule's ID (at most 2 copies of a name)
    assert ("Not legal against the event" if language == "en" else "合法ではありません") in page


def test_submitting_a_text_list_and_a_file(event, player):
    event_services.event_join(event=event, user=player)
    client = client_of(player)
    text = client.post(f"/events/{event.slug}/submit/", {"way": "text", "text": "System: hagmi\n[兵器]\n2 HS-001\n"})
    assert text.status_code == 302
    upload = SimpleUploadedFile("blue.json", json.dumps(hagmi_doc("From a file")).encode(), "application/json")
    filed = client.post(f"/events/{event.slug}/submit/", {"way": "file", "file": upload})
    assert filed.status_code == 302
    numbers = list(EventSubmission.objects.filter(entrant__player=player).order_by("number")
                   .values_list("source", "legal"))
    assert numbers == [("text", False), ("text", True)]
    bad = client.post(f"/events/{event.slug}/submit/", {"way": "text", "text": "[兵器]\n2 NO-SUCH-CARD\n"})
    assert bad.status_code == 400 and 'class="error' in bad.content.decode()
    empty = client.post(f"/events/{event.slug}/submit/", {"way": "file"})
    assert empty.status_code == 400 and "Choose a file" in empty.content.decode()


def test_someone_elses_list_cannot_be_submitted(event, player, rival):
    event_services.event_join(event=event, user=player)
    theirs = services.list_create(owner=rival, document=hagmi_doc("Theirs"), visibility="public")
    response = client_of(player).post(f"/events/{event.slug}/submit/", {"way": "list", "list": theirs.slug})
    assert response.status_code == 400 and not EventSubmission.objects.exists()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_locked_event_refuses_and_says_so(event, player, language):
    game_list, _ = _entered(event, player)
    _past(event)
    client = _in(client_of(player), language)
    response = client.post(f"/events/{event.slug}/submit/", {"way": "list", "list": game_list.slug})
    assert response.status_code == 409
    assert EventSubmission.objects.count() == 1
    page = _get(client, f"/events/{event.slug}/", language).content.decode()
    assert 'id="submit-list"' not in page and "locked-note" in page
    assert client.post(f"/events/{event.slug}/withdraw/").status_code == 409


def test_withdrawing_keeps_the_submissions(event, player):
    _entered(event, player)
    client = client_of(player)
    assert client.post(f"/events/{event.slug}/withdraw/").status_code == 302
    page = client.get(f"/events/{event.slug}/").content.decode()
    assert 'id="join-form"' in page and EventSubmission.objects.count() == 1
    assert client.get(f"/events/{event.slug}/withdraw/").status_code == 405


def test_a_non_entrant_cannot_submit(event, rival):
    response = client_of(rival).post(f"/events/{event.slug}/submit/", {"way": "text", "text": "x"})
    assert response.status_code == 403


# --- the event's lists and a submission ---------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_hidden_lists_are_a_404_for_others_before_publish(event, organiser, player, rival, language):
    _, submission = _entered(event, player, hagmi_doc("Hidden plan"))
    lists_url = f"/events/{event.slug}/lists/"
    submission_url = f"/events/{event.slug}/submissions/{submission.public_id}/"
    for client in (client_of(rival), Client()):
        for url in (lists_url, submission_url):
            response = _get(client, url, language)
            assert response.status_code == 404 and "Hidden plan" not in response.content.decode()
    assert "Hidden plan" not in _get(client_of(rival), f"/events/{event.slug}/", language).content.decode()
    assert _get(client_of(player), submission_url, language).status_code == 200  # its player
    organiser_page = _get(client_of(organiser), lists_url, language).content.decode()
    assert "Hidden plan" in organiser_page
    _past(event)
    event_services.event_publish(event=event, user=organiser)
    shown = _get(client_of(rival), lists_url, language)
    assert shown.status_code == 200 and "Hidden plan" in shown.content.decode()
    page = _get(client_of(rival), submission_url, language).content.decode()
    assert "Hidden plan" in page and f"/submissions/{submission.public_id}/sheet/" not in page  # not their sheet
    detail = _get(client_of(rival), f"/events/{event.slug}/", language).content.decode()
    assert f"/events/{event.slug}/lists/" in detail


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_submission_page_shows_the_locked_list_and_its_check(event, player, language):
    _, submission = _entered(event, player, hagmi_doc("Locked plan", copies=3))
    page = _get(client_of(player), f"/events/{event.slug}/submissions/{submission.public_id}/",
                language).content.decode()
    assert "Locked plan" in page and "H4" in page and "HS-001" in page
    assert f"/submissions/{submission.public_id}/sheet/" in page
    assert _get(client_of(player), f"/events/other/submissions/{submission.public_id}/").status_code == 404


def test_an_open_events_lists_offer_a_gauntlet_against_its_field(catalog, organiser, player):
    event = event_services.event_create(organiser=organiser, data=event_data(lists_shown="open"))
    game_list, _ = _entered(event, player)
    page = client_of(player).get(f"/events/{event.slug}/").content.decode()
    assert f"/lists/{game_list.slug}/gauntlet/?event={event.slug}" in page


# --- the list page's notice ---------------------------------------------------------------------------------


def test_the_list_page_says_when_a_submitted_list_changed_since(event, player, rival):
    game_list, submission = _entered(event, player)
    url = f"/lists/{game_list.slug}/"
    assert "event-notice" not in client_of(player).get(url).content.decode()  # the same as submitted
    services.list_update(game_list=game_list, user=player, document=hagmi_doc(copies=3), expected_version=1)
    page = client_of(player).get(url).content.decode()
    assert "event-notice" in page and "Winter Cup" in page
    assert f"/events/{event.slug}/submissions/{submission.public_id}/" in page
    ja = _get(client_of(player), url, "ja").content.decode()
    assert "event-notice" in ja and "提出" in ja
    services.list_update(game_list=game_list, user=player, visibility="public", expected_version=2)
    assert "event-notice" not in client_of(rival).get(url).content.decode()  # the owner's notice only
