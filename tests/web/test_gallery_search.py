"""Finding lists and first steps, as pages without JavaScript: the gallery searched by a card ("lists using this
card", linked from each card's page), by game, format and faction, sorted newest or most forked, in a bounded number
of queries; the bundled sample lists on a new site's gallery and on a new player's empty "My lists", copied with one
button; the draw odds and a sample hand on a HAGMI list's shared page; the home page's single link to the API
documentation; the card-correction preview's short wait after typing."""
from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from builder import selectors, services
from builder.errors import ListInputError
from builder.models import GameList
from cards.selectors import card_by_code
from tests.web.conftest import hagmi_legal_doc

PACKAGES = Path(__file__).resolve().parents[2] / "cards" / "packages"


def bundled(system: str, name: str) -> dict:
    return json.loads((PACKAGES / system / "lists" / f"{name}.json").read_text(encoding="utf-8"))


def names_on(page: str) -> list[str]:
    return re.findall(r'<td><a href="/lists/[^/]+/">([^<]+)</a></td>', page)


@pytest.fixture
def shelf(catalog, owner, other):
    """Public lists of each game, one forked twice and one once; a private one that never shows."""
    made = {}
    for system, name in (("hagmi", "sample-vanguard"), ("hagmi", "sample-fortress"), ("mwda", "steel-wolves-pack"),
                         ("mwda", "republic-knight-guard"), ("warcaster", "isa-thunder-lancers"),
                         ("warcaster", "marcher-dust-raiders")):
        made[name] = services.list_create(owner=owner, document=bundled(system, name), visibility="public")
    services.list_create(owner=owner, document=bundled("hagmi", "akane-assault"), visibility="private")
    for _ in range(2):
        services.list_fork(game_list=made["marcher-dust-raiders"], user=other)
    services.list_fork(game_list=made["steel-wolves-pack"], user=other)
    return made


def test_the_gallery_finds_the_lists_using_a_card_by_code_or_name(shelf, client):
    vanguard = bundled("hagmi", "sample-vanguard")
    fortress = bundled("hagmi", "sample-fortress")
    only_vanguard = next(e["card"] for entries in vanguard["sections"].values() for e in entries
                         if all(e["card"] != f["card"] for fs in fortress["sections"].values() for f in fs))
    page = client.get("/lists/gallery/", {"card": only_vanguard}).content.decode()
    assert names_on(page) == [vanguard["name"]]
    card = card_by_code(only_vanguard, system="hagmi")
    assert f"Lists using {card.data.get('name_en') or card.name}" in page  # the card by its name, not its code
    page = client.get("/lists/gallery/", {"card": card.name, "system": "hagmi"}).content.decode()
    assert vanguard["name"] in names_on(page)  # words of its name find it too
    page = client.get("/lists/gallery/", {"card": "no such card anywhere"}).content.decode()
    assert names_on(page) == [] and "No list matches these filters." in page


def test_each_card_page_links_to_the_lists_using_it(shelf, client):
    page = client.get("/catalog/hagmi/HS-001/").content.decode()
    assert 'href="/lists/gallery/?system=hagmi&amp;card=HS-001"' in page and "Lists using this card" in page


def test_the_gallery_filters_by_faction_and_game_and_sorts_by_forks(shelf, client):
    dust = bundled("warcaster", "marcher-dust-raiders")
    lancers = bundled("warcaster", "isa-thunder-lancers")
    page = client.get("/lists/gallery/", {"faction": "marcher-worlds"}).content.decode()
    assert dust["name"] in names_on(page) and lancers["name"] not in names_on(page)
    assert '<option value="marcher-worlds" selected>' in page  # the faction select, in words, keeps the choice
    page = client.get("/lists/gallery/", {"system": "mwda"}).content.decode()
    assert sorted(names_on(page)) == sorted([bundled("mwda", "steel-wolves-pack")["name"],
                                             bundled("mwda", "republic-knight-guard")["name"]])
    page = client.get("/lists/gallery/", {"sort": "forks"}).content.decode()
    order = names_on(page)
    assert order[:2] == [dust["name"], bundled("mwda", "steel-wolves-pack")["name"]]  # 2 forks, then 1
    assert 'class="forks">2</td>' in page
    newest = names_on(client.get("/lists/gallery/").content.decode())
    assert newest[0] == dust["name"] and newest[-1] == bundled("hagmi", "sample-vanguard")["name"]
    assert bundled("hagmi", "akane-assault")["name"] not in newest  # private


@pytest.mark.parametrize("query, words", [
    ({"sort": "best"}, "'sort' must be one of newest, forks"),
    ({"card": "x" * 101}, "'card' must be a card's code or name (at most 100 characters)"),
    ({"faction": "f" * 81}, "'faction' must be a faction's id"),
])
def test_a_bad_gallery_search_says_which_parameter_and_is_never_a_500(shelf, client, query, words):
    response = client.get("/lists/gallery/", query)
    assert response.status_code == 400
    assert words in html.unescape(response.content.decode())


def test_the_gallery_search_takes_the_same_queries_for_50_lists_as_for_6(shelf, owner, client):
    """Paginated, one subquery for the card, one aggregate for the forks: no query per list."""
    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/lists/gallery/", {"card": "HS-001", "sort": "forks"}).status_code == 200
        return len(queries)

    client.get("/lists/gallery/", {"card": "HS-001"})  # the catalog cached
    few = count()
    for number in range(44):
        services.list_create(owner=owner, document=hagmi_legal_doc(f"Rush {number}"), visibility="public")
    client.get("/lists/gallery/", {"card": "HS-001"})  # the new lists' validation cached as the gallery does it
    assert count() <= few


def test_a_new_sites_gallery_shows_the_bundled_sample_lists(catalog, client, owner):
    assert not GameList.objects.exists()
    page = client.get("/lists/gallery/").content.decode()
    samples = sorted(path.stem for path in PACKAGES.glob("*/lists/*.json"))
    assert page.count('class="sample-name"') == len(samples)
    assert bundled("warcaster", "marcher-frontier-posse")["name"] in page
    assert "Log in to copy a sample list" in page  # not signed in: no copy button, the way to sign in
    page = client.get("/lists/gallery/", {"system": "mwda"}).content.decode()
    assert page.count('class="sample-name"') == len(list(PACKAGES.glob("mwda/lists/*.json")))
    signed = Client()
    signed.force_login(owner)
    page = signed.get("/lists/gallery/").content.decode()
    assert 'action="/lists/samples/hagmi/sample-vanguard/copy/"' in page


def test_an_empty_my_lists_offers_the_first_steps_and_a_sample_is_copied_in_one_click(catalog, owner_client, owner):
    page = owner_client.get("/lists/").content.decode()
    assert "Your first list" in page
    for system in ("hagmi", "mwda", "warcaster"):
        assert f'href="/lists/new/?system={system}"' in page
    assert 'href="/lists/import/"' in page and "BattleScribe / New Recruit roster" in page
    assert 'action="/lists/samples/mwda/highland-line/copy/"' in page
    response = owner_client.post("/lists/samples/mwda/highland-line/copy/")
    copied = GameList.objects.get(owner=owner)
    assert response.status_code == 302 and response["Location"] == f"/lists/{copied.slug}/edit/"
    assert copied.visibility == "private" and copied.name == bundled("mwda", "highland-line")["name"]
    assert selectors.list_cards(selectors.list_document(copied)) == selectors.list_cards(bundled("mwda", "highland-line"))
    page = owner_client.get("/lists/").content.decode()
    assert "Your first list" not in page and copied.name in page
    missing = owner_client.post("/lists/samples/mwda/no-such-list/copy/")
    assert missing.status_code == 404
    assert "There is nothing at /lists/samples/mwda/no-such-list/copy/" in missing.content.decode()


def test_a_hagmi_lists_shared_page_has_the_draw_odds_and_deals_a_sample_hand(make_list, client):
    game_list = make_list(hagmi_legal_doc(), visibility="unlisted")
    page = client.get(f"/lists/{game_list.slug}/").content.decode()
    assert 'id="odds"' in page and "Draw odds" in page and 'class="odds-table"' in page
    assert '<form method="get" action="#odds" class="odds-form">' in page
    dealt = client.get(f"/lists/{game_list.slug}/", {"sample_hand": "42"}).content.decode()
    assert "Sample opening hand (no. 42)" in dealt and dealt.count('<li data-code="') == 4  # 2 + 2 (H3)
    again = client.get(f"/lists/{game_list.slug}/", {"sample_hand": "42"}).content.decode()
    hand = re.findall(r'<li data-code="([^"]+)"', dealt)
    assert hand == re.findall(r'<li data-code="([^"]+)"', again)  # a seed always deals the same hand


def test_an_mwda_lists_shared_page_has_no_draw_odds(make_list, client):
    game_list = make_list(bundled("mwda", "steel-wolves-pack"), visibility="unlisted")
    assert 'id="odds"' not in client.get(f"/lists/{game_list.slug}/").content.decode()


def test_the_home_page_links_the_api_documentation_once(catalog, client):
    page = client.get("/").content.decode()
    assert page.count('href="/api/docs/"') == 1


def test_the_card_correction_preview_waits_at_most_200_ms_after_typing(catalog, owner_client):
    """The checks and the preview follow the typing (htmx `input delay`), not 0.6 s behind it."""
    page = owner_client.get("/catalog/hagmi/HS-001/propose/").content.decode()
    trigger = re.search(r'<form method="post" id="card-form"[^>]*hx-trigger="([^"]+)"', page, re.S).group(1)
    delays = [int(ms) for ms in re.findall(r"delay:(\d+)ms", trigger)]
    assert trigger.startswith("input") and delays and max(delays) <= 200, trigger


def test_the_api_searches_the_gallery_by_card_faction_and_forks(shelf, client):
    dust = bundled("warcaster", "marcher-dust-raiders")
    found = client.get("/api/lists/", {"scope": "public", "faction": "marcher-worlds", "sort": "forks"}).json()
    assert [item["name"] for item in found["results"]] == [dust["name"]]
    found = client.get("/api/lists/", {"scope": "public", "card": "HS-001"}).json()
    assert {item["system"] for item in found["results"]} == {"hagmi"} and found["count"] >= 1
    bad = client.get("/api/lists/", {"scope": "public", "sort": "best"})
    assert bad.status_code == 400 and "'sort' must be one of newest, forks" in bad.json()["error"]["message"]


@pytest.mark.parametrize("key, value", [("card", "HS\x00001"), ("faction", "mar\x00cher")])
def test_a_gallery_search_with_text_no_database_compares_is_a_400(catalog, client, key, value):
    response = client.get("/api/lists/", {"scope": "public", key: value})
    assert response.status_code == 400 and f"'{key}'" in response.json()["error"]["message"]


def test_a_card_search_of_a_lone_surrogate_is_refused_before_the_database(catalog):
    with pytest.raises(ListInputError, match="'card'"):
        selectors.card_codes_matching("\ud800")
