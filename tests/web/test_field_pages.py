"""Field pages: a player makes a field of the opponents they expect (sample opponents and lists, each with a
weight), reads it with each opponent's share, shares it, and plays a list against it in a gauntlet; another player
never sees a private list through it; a run answered from an earlier one says so, in Japanese and English."""
from __future__ import annotations

import re

import pytest
from django.test import Client

from builder import services
from builder.models import OpponentField, SimulationRun
from tests.support.simulations import play_all, published, small_chunks  # noqa: F401  (records chunk messages)
from tests.web.conftest import hagmi_legal_doc

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_chunks")]


def test_a_player_makes_a_field_from_the_real_form_and_reads_its_shares(make_list, owner_client):
    wall = make_list(hagmi_legal_doc("Red wall"))
    assert "?system=hagmi" in owner_client.get("/fields/new/").content.decode()
    page = owner_client.get("/fields/new/?system=hagmi").content.decode()
    assert f'name="list-{wall.slug}"' in page and 'name="opponent-goldfish"' in page and 'name="name"' in page
    response = owner_client.post("/fields/new/?system=hagmi", {
        "system": "hagmi", "name": "Store league", "description": "Fridays", "visibility": "public",
        "opponent-goldfish": "3", f"list-{wall.slug}": "1"})
    assert response.status_code == 302, response.content.decode()[:2000]
    field = OpponentField.objects.get()
    assert response["Location"] == f"/fields/{field.slug}/"
    page = owner_client.get(f"/fields/{field.slug}/").content.decode()
    assert "Store league" in page and "Red wall" in page and "75 %" in page and "25 %" in page
    assert "goldfish" not in re.sub(r"<[^>]+>", "", page)  # the opponent by its name, never its slug
    ja = owner_client.get(f"/fields/{field.slug}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "フィールド" in ja and "75 %" in ja
    index = Client().get("/fields/").content.decode()
    assert "Store league" in index  # public: in everyone's index


def test_the_field_form_says_what_is_wrong_next_to_it(make_list, owner_client, other):
    hidden = make_list(hagmi_legal_doc("Their secret"), visibility="private", user=other)
    response = owner_client.post("/fields/new/", {"system": "hagmi", "name": "Meta", "visibility": "private",
                                                  "opponent-goldfish": "1", "another_list": hidden.slug})
    assert response.status_code == 400
    page = response.content.decode()
    assert "There is no list" in page and "Their secret" not in page
    response = owner_client.post("/fields/new/", {"system": "hagmi", "name": "", "visibility": "private"})
    assert response.status_code == 400 and not OpponentField.objects.exists()


def test_another_player_never_sees_a_private_list_through_a_field(make_list, owner, owner_client, other_client):
    secret = make_list(hagmi_legal_doc("Secret plan"), visibility="private")
    field = services.field_create(owner=owner, system="hagmi", name="Open meta", visibility="unlisted",
                                  entries=[{"opponent": "goldfish"}, {"list": secret.slug}])
    assert "Secret plan" in owner_client.get(f"/fields/{field.slug}/").content.decode()
    for client in (other_client, Client()):
        page = client.get(f"/fields/{field.slug}/").content.decode()
        assert "Secret plan" not in page and secret.slug not in page and 'id="hidden-entries"' in page
        assert "100 %" in page
    assert other_client.get(f"/fields/{field.slug}/edit/").status_code == 403
    assert other_client.post(f"/fields/{field.slug}/delete/").status_code == 403
    assert "Open meta" not in Client().get("/fields/").content.decode()  # unlisted: only by its link


def test_a_gauntlet_plays_a_field_chosen_on_its_form(make_list, owner, owner_client, published):
    game_list = make_list(hagmi_legal_doc("Blue rush"))
    wall = make_list(hagmi_legal_doc("Red wall"))
    field = services.field_create(owner=owner, system="hagmi", name="Spring", entries=[
        {"opponent": "goldfish", "weight": 2}, {"list": wall.slug}])
    page = owner_client.get(f"/fields/{field.slug}/").content.decode()
    assert f"/lists/{game_list.slug}/gauntlet/?field={field.slug}" in page
    form = owner_client.get(f"/lists/{game_list.slug}/gauntlet/?field={field.slug}").content.decode()
    assert re.search(rf'<option value="{field.slug}" selected>Spring \(yours, 2 opponents\)</option>', form)
    assert 'name="opponent-goldfish" value="0"' in form  # a field chosen: no sample opponent added by default
    response = owner_client.post(f"/lists/{game_list.slug}/gauntlet/", {
        "field": field.slug, "policy": "greedy", "games": 4, "seed": 1})
    assert response.status_code == 302, response.content.decode()[:3000]
    run = SimulationRun.objects.get()
    assert [(leg["key"], leg["weight"]) for leg in run.snapshot["legs"]] == [("goldfish", 2), (f"list:{wall.slug}", 1)]
    twice = owner_client.post(f"/lists/{game_list.slug}/gauntlet/", {
        "field": field.slug, "opponent-goldfish": 1, "policy": "greedy", "games": 4, "seed": 2})
    assert twice.status_code == 400 and "also has a weight below" in twice.content.decode()


def test_a_run_answered_from_an_earlier_one_says_so_and_links_it(make_list, owner, other, other_client,
                                                                owner_client, published):
    body = {"opponent-goldfish": 1, "policy": "greedy", "games": 4, "seed": 9}
    mine = make_list(hagmi_legal_doc("Blue rush"))
    owner_client.post(f"/lists/{mine.slug}/gauntlet/", body)
    first = SimulationRun.objects.get()
    play_all(first)
    again = owner_client.post(f"/lists/{mine.slug}/gauntlet/", body, follow=True).content.decode()
    assert "Answered from an earlier run of the same question" in again and SimulationRun.objects.count() == 1
    theirs = make_list(hagmi_legal_doc("Blue rush"), user=other)
    response = other_client.post(f"/lists/{theirs.slug}/gauntlet/", body)
    copy = SimulationRun.objects.exclude(pk=first.pk).get()
    assert response["Location"] == f"/simulations/{copy.public_id}/" and copy.reused_from_id == first.pk
    page = other_client.get(f"/simulations/{copy.public_id}/").content.decode()
    assert 'id="reused-from"' in page and f'href="/simulations/{first.public_id}/"' in page
    ja = other_client.get(f"/simulations/{copy.public_id}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "同じ問い" in ja


def test_an_unlisted_field_opened_by_its_link_is_offered_on_the_gauntlet(make_list, other, owner_client, published):
    game_list = make_list(hagmi_legal_doc("Blue rush"))
    theirs = services.field_create(owner=other, system="hagmi", name="Their league", visibility="unlisted",
                                   entries=[{"opponent": "goldfish"}])
    plain = owner_client.get(f"/lists/{game_list.slug}/gauntlet/").content.decode()
    assert "Their league" not in plain  # unlisted: not offered to everyone
    page = owner_client.get(f"/lists/{game_list.slug}/gauntlet/?field={theirs.slug}").content.decode()
    assert re.search(rf'<option value="{theirs.slug}" selected>Their league by other \(1 opponent\)</option>', page)
    response = owner_client.post(f"/lists/{game_list.slug}/gauntlet/", {
        "field": theirs.slug, "policy": "greedy", "games": 4, "seed": 1})
    assert response.status_code == 302
    hidden = services.field_create(owner=other, system="hagmi", name="Their secret", visibility="private",
                                   entries=[{"opponent": "goldfish"}])
    page = owner_client.get(f"/lists/{game_list.slug}/gauntlet/?field={hidden.slug}").content.decode()
    assert "Their secret" not in page


def test_the_doctor_refuses_a_field_past_its_limit_in_the_readers_language(make_list, owner, owner_client,
                                                                          published):
    game_list = make_list(hagmi_legal_doc("Blue rush"))
    lists = [make_list(hagmi_legal_doc(f"Wall {number}")) for number in range(33)]
    field = services.field_create(owner=owner, system="hagmi", name="Big meta",
                                  entries=[{"list": other.slug} for other in lists])
    page = owner_client.get(f"/lists/{game_list.slug}/doctor/").content.decode()  # said before the form is sent
    assert "Big meta (yours, 33 opponents): more than the 32 opponents this run may play" in page
    ja = owner_client.get(f"/lists/{game_list.slug}/doctor/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "この実行で対戦できる相手 32 を超えています" in ja
    gauntlet = owner_client.get(f"/lists/{game_list.slug}/gauntlet/").content.decode()
    assert "Big meta (yours, 33 opponents)<" in gauntlet  # a gauntlet plays up to 64
    form = {"field": field.slug, "policy": "greedy", "games": 6000, "changes": 1, "seed": 1}
    response = owner_client.post(f"/lists/{game_list.slug}/doctor/", form)
    page = response.content.decode()
    assert response.status_code == 400 and not SimulationRun.objects.exists()
    assert "These are 33 opponents with the field&#x27;s entries; at most 32 opponents may be played here" in page
    ja = owner_client.post(f"/lists/{game_list.slug}/doctor/", form, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "フィールドの相手を含めると相手は 33 です" in ja and "opponents here" not in ja


def test_test_every_card_plays_a_field_chosen_on_its_form(make_list, owner, owner_client, published):
    from tests.support import planted

    game_list = make_list(planted.strong_army())
    field = services.field_create(owner=owner, system="mwda", name="Knights",
                                  entries=[{"opponent": planted.OPPONENT, "weight": 1}])
    form = owner_client.get(f"/lists/{game_list.slug}/impact/?field={field.slug}").content.decode()
    assert re.search(rf'<option value="{field.slug}" selected>Knights \(yours, 1 opponent\)</option>', form)
    response = owner_client.post(f"/lists/{game_list.slug}/impact/", {
        "field": field.slug, "policy": "greedy", "games": 1000, "seed": 1})
    assert response.status_code == 302, re.findall(r"<li>([^<]+)</li>", response.content.decode())
    run = SimulationRun.objects.get()
    assert {leg["opponent"] for leg in run.snapshot["legs"]} == {planted.OPPONENT}
