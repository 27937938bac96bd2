"""Matchup matrix and "what beats my list" pages: a player chooses lists and a field, sees the heat map fill with a
win rate and its interval per cell, sorts rows and columns by links; "what beats my list" ranks the public lists and
samples against the list (never a private list of another player) with a replay of a loss; both in Japanese."""
from __future__ import annotations

import html
import re

import pytest

from builder import selectors
from builder.models import MatchupMatrix
from tests.support.simulations import play_all, published  # noqa: F401  (records chunk messages)
from tests.web.conftest import hagmi_legal_doc

pytestmark = pytest.mark.django_db


def play(matrix) -> None:
    for cell in selectors.matrix_cells(matrix):
        if cell.run.is_active:
            play_all(cell.run)


def test_a_matrix_is_started_from_the_form_and_drawn_as_a_heat_map_with_numbers(make_list, owner_client, other,
                                                                                 published):
    first = make_list(hagmi_legal_doc("Blue rush"))
    second = make_list(hagmi_legal_doc("Red wall"))
    theirs = make_list(hagmi_legal_doc("Their wall"), visibility="public", user=other)
    hidden = make_list(hagmi_legal_doc("Their secret"), visibility="private", user=other)
    page = owner_client.get("/matrices/?system=hagmi").content.decode()
    assert "Blue rush" in page and "Their wall by other" in page and "Their secret" not in page
    response = owner_client.post("/matrices/", {
        "system": "hagmi", "rows": [first.slug, second.slug], "opponent-sample-vanguard": 1,
        "opponent-goldfish": 0, "opponent-sample-fortress": 0, f"list-{theirs.slug}": 2, "policy": "greedy",
        "games": 4, "seed": 3})
    assert response.status_code == 302, response.content.decode()[:3000]
    matrix = MatchupMatrix.objects.get()
    assert [column["key"] for column in matrix.columns] == ["sample-vanguard", f"list:{theirs.slug}"]
    assert response["Location"] == f"/matrices/{matrix.public_id}/"
    waiting = owner_client.get(response["Location"]).content.decode()
    assert 'hx-get="/matrices/' in waiting and "heat-none" in waiting
    play(matrix)
    page = html.unescape(owner_client.get(response["Location"]).content.decode())
    assert "hx-get" not in page
    assert len(re.findall(r'<td class="heat heat-\d">', page)) == 4  # 2 lists × 2 opponents, each coloured
    assert page.count('class="interval"') == 6  # every cell and each row's weighted total has its interval
    assert "Numbers" in page and "Weighted over the field" in page
    by_name = html.unescape(owner_client.get(f"/matrices/{matrix.public_id}/?rows=name").content.decode())
    assert by_name.index("Blue rush") < by_name.index("Red wall")
    desc = html.unescape(owner_client.get(f"/matrices/{matrix.public_id}/?rows=name-").content.decode())
    assert desc.index("Red wall") < desc.index("Blue rush")
    ja = owner_client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "対戦表" in ja and "数値" in ja
    refused = owner_client.post("/matrices/", {
        "system": "hagmi", "rows": [first.slug], "another_list": hidden.slug, "another_weight": 1,
        "policy": "greedy", "games": 4, "seed": 4})
    assert refused.status_code == 400 and MatchupMatrix.objects.count() == 1


def test_another_players_matrix_is_a_404(make_list, owner_client, other_client, published):
    first = make_list(hagmi_legal_doc("Blue rush"))
    owner_client.post("/matrices/", {"system": "hagmi", "rows": [first.slug], "opponent-sample-vanguard": 1,
                                     "policy": "greedy", "games": 2, "seed": 1})
    matrix = MatchupMatrix.objects.get()
    assert other_client.get(f"/matrices/{matrix.public_id}/").status_code == 404
    assert other_client.get(f"/matrices/{matrix.public_id}/progress/").status_code == 404


def test_what_beats_my_list_ranks_public_lists_and_links_a_lost_game(make_list, owner_client, other_client, other,
                                                                    published):
    mine = make_list(hagmi_legal_doc("Blue rush"))
    theirs = make_list(hagmi_legal_doc("Their wall"), visibility="public", user=other)
    hidden = make_list(hagmi_legal_doc("Their secret"), visibility="private", user=other)
    page = owner_client.get(f"/lists/{mine.slug}/").content.decode()
    assert f'href="/lists/{mine.slug}/beats/"' in page
    assert other_client.get(f"/lists/{mine.slug}/beats/").status_code == 404  # a private list: not found
    assert owner_client.get(f"/lists/{theirs.slug}/beats/").status_code == 403  # only the owner asks
    response = owner_client.post(f"/lists/{mine.slug}/beats/", {"policy": "greedy", "games": 6, "seed": 5})
    assert response.status_code == 302
    matrix = MatchupMatrix.objects.get()
    keys = [column["key"] for column in matrix.columns]
    assert f"list:{theirs.slug}" in keys and f"list:{hidden.slug}" not in keys
    play(matrix)
    page = html.unescape(owner_client.get(response["Location"]).content.decode())
    assert "Opponents, the worst matchup first" in page and f'href="/lists/{theirs.slug}/"' in page
    assert "Their secret" not in page
    rates = [float(rate) for rate in re.findall(r'<td class="winrate">([\d.]+)%</td>', page)]
    assert rates == sorted(rates) and len(rates) == len(keys)
    replay = re.search(r'href="/simulations/([^/]+)/games/(\d+)/">', page)
    if replay:
        assert owner_client.get(replay.group(0)[6:-2]).status_code == 200
    ja = owner_client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "Opponents, the worst matchup first" not in ja


def test_the_owner_cancels_the_cells_still_playing(make_list, owner_client, other_client, published):
    first = make_list(hagmi_legal_doc("Blue rush"))
    owner_client.post("/matrices/", {"system": "hagmi", "rows": [first.slug], "opponent-sample-vanguard": 1,
                                     "opponent-sample-fortress": 1, "policy": "greedy", "games": 2, "seed": 8})
    matrix = MatchupMatrix.objects.get()
    cells = selectors.matrix_cells(matrix)
    play_all(cells[0].run)  # one cell done, one still queued
    page = owner_client.get(f"/matrices/{matrix.public_id}/").content.decode()
    assert f'action="/matrices/{matrix.public_id}/cancel/"' in page
    assert other_client.post(f"/matrices/{matrix.public_id}/cancel/").status_code == 404
    response = owner_client.post(f"/matrices/{matrix.public_id}/cancel/")
    assert response.status_code == 302 and response["Location"] == f"/matrices/{matrix.public_id}/"
    statuses = [cell.run.status for cell in selectors.matrix_cells(matrix)]
    assert statuses == ["done", "cancelled"]
    page = owner_client.get(f"/matrices/{matrix.public_id}/").content.decode()
    assert "/cancel/" not in page and "hx-get" not in page


def test_a_matrix_and_what_beats_my_list_play_a_field_chosen_on_their_forms(make_list, owner, owner_client, other,
                                                                          other_client, published):
    from builder import services

    first = make_list(hagmi_legal_doc("Blue rush"))
    secret = make_list(hagmi_legal_doc("Secret plan"))
    field = services.field_create(owner=owner, system="hagmi", name="Spring", visibility="public", entries=[
        {"opponent": "goldfish", "weight": 2}, {"list": secret.slug}])
    detail = owner_client.get(f"/fields/{field.slug}/").content.decode()
    assert f'href="/matrices/?system=hagmi&amp;field={field.slug}"' in detail
    assert f'href="/lists/{first.slug}/beats/?field={field.slug}"' in detail
    form = owner_client.get(f"/matrices/?system=hagmi&field={field.slug}").content.decode()
    assert re.search(rf'<option value="{field.slug}" selected>Spring \(yours, 2 opponents\)</option>', form)
    assert 'name="opponent-goldfish" value="0"' in form  # a field chosen: no sample opponent added by default
    assert 'href="/fields/"' in form
    response = owner_client.post("/matrices/", {"system": "hagmi", "rows": [first.slug], "field": field.slug,
                                                "policy": "greedy", "games": 4, "seed": 3})
    assert response.status_code == 302, response.content.decode()[:3000]
    matrix = MatchupMatrix.objects.get()
    assert [(c["key"], c["weight"]) for c in matrix.columns] == [("goldfish", 2.0), (f"list:{secret.slug}", 1.0)]
    twice = owner_client.post("/matrices/", {"system": "hagmi", "rows": [first.slug], "field": field.slug,
                                             "opponent-goldfish": 1, "policy": "greedy", "games": 4, "seed": 3})
    assert twice.status_code == 400 and "also has a weight below" in twice.content.decode()
    ja = owner_client.post("/matrices/", {"system": "hagmi", "rows": [first.slug], "field": field.slug,
                                          "opponent-goldfish": 1, "policy": "greedy", "games": 4, "seed": 3},
                           HTTP_ACCEPT_LANGUAGE="ja")
    assert "also has a weight below" not in ja.content.decode()
    # another player's "what beats my list" against the owner's public field: the private list never plays
    theirs = make_list(hagmi_legal_doc("Their wall"), user=other)
    beats_form = other_client.get(f"/lists/{theirs.slug}/beats/?field={field.slug}").content.decode()
    assert re.search(rf'<option value="{field.slug}" selected>', beats_form)
    assert "Every sample opponent and public list of this game" in beats_form and "Spring by owner (1 opponent)" in beats_form  # the private entry: not counted
    response = other_client.post(f"/lists/{theirs.slug}/beats/", {"field": field.slug, "policy": "greedy",
                                                                    "games": 4, "seed": 5})
    assert response.status_code == 302, response.content.decode()[:3000]
    beats = MatchupMatrix.objects.get(owner=other)
    assert [column["key"] for column in beats.columns] == ["goldfish"]
    play(beats)
    page = other_client.get(response["Location"]).content.decode()
    assert "Secret plan" not in page


def test_every_matrix_of_a_player_is_listed_and_linked_from_my_simulations(make_list, owner_client, other_client,
                                                                           published):
    first = make_list(hagmi_legal_doc("Blue rush"))
    response = owner_client.post("/matrices/", {"system": "hagmi", "rows": [first.slug], "policy": "greedy",
                                                "opponent-goldfish": 1, "games": 2, "seed": 1})
    assert response.status_code == 302
    started = MatchupMatrix.objects.get()
    for seed in range(2, 13):  # more than the form's 10 most recent (the same record again: no run is needed)
        MatchupMatrix.objects.create(owner=started.owner, kind=started.kind, system="hagmi", rows=started.rows,
                                     columns=started.columns, games=2, seed=seed, seats=started.seats,
                                     policy="greedy")
    assert 'href="/matrices/mine/"' in owner_client.get("/simulations/").content.decode()
    assert 'href="/matrices/mine/"' in owner_client.get("/matrices/?system=hagmi").content.decode()
    page = owner_client.get("/matrices/mine/").content.decode()
    assert page.count('href="/matrices/') - page.count('href="/matrices/mine/"') \
        - page.count('href="/matrices/"') == 12
    assert "1 list × 1 opponent<" in page
    assert page.count('<span class="status status-queued">Queued</span> · 0%') == 1  # the one with a cell to play
    play(started)
    page = owner_client.get("/matrices/mine/").content.decode()
    assert page.count('<span class="status status-done">Done</span></td>') == 12
    ja = owner_client.get("/matrices/mine/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "自分の対戦表" in ja and "Games per cell" not in ja
    assert "You have started no matrix yet." in other_client.get("/matrices/mine/").content.decode()


def test_cancelling_a_matrix_says_which_cells_play_on_for_another_matrix(make_list, owner_client, settings,
                                                                          published):
    """A cell shared with another of the player's matrices plays on for it: the page says how many and why in words
    (both languages) and offers no second Cancel; once the other matrix is cancelled too, nothing plays and the page
    says nothing more."""
    settings.HANGAR_MAX_CONCURRENT_RUNS = 10
    first = make_list(hagmi_legal_doc("Blue rush"))
    form = {"system": "hagmi", "rows": [first.slug], "opponent-sample-vanguard": 1, "opponent-sample-fortress": 0,
            "policy": "greedy", "games": 2, "seed": 8}
    owner_client.post("/matrices/", {**form, "opponent-sample-fortress": 1})
    owner_client.post("/matrices/", form)  # the vanguard cell again: the same run
    bigger, smaller = MatchupMatrix.objects.order_by("id")
    response = owner_client.post(f"/matrices/{bigger.public_id}/cancel/", follow=True)
    page = response.content.decode()
    assert ("Cancelled: 1 cell plays on, as its run also answers another of your matrices or simulations; its "
            "result shows here when it is done.") in page
    assert f"/{bigger.public_id}/cancel/" not in page  # no second Cancel
    assert sorted(cell.run.status for cell in selectors.matrix_cells(bigger)) == ["cancelled", "queued"]
    owner_client.cookies["django_language"] = "ja"
    japanese = owner_client.get(f"/matrices/{bigger.public_id}/").content.decode()
    assert "取り消しました。1 マスはあなたの別の対戦表やシミュレーションの答えでもあるため対戦を続け" in japanese
    owner_client.post(f"/matrices/{smaller.public_id}/cancel/")
    page = owner_client.get(f"/matrices/{bigger.public_id}/").content.decode()
    assert "取り消しました。" not in page and "hx-get" not in page
