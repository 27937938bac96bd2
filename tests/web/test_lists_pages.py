"""List and catalog pages on the server: the catalog's address bar, warjack loadouts on the list page and the
tournament sheet, the sheet's player and event, filters that filter, the favicon, and fork's confirmation."""
from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client

from builder import services
from builder.listio import parse_list_text
from builder.models import GameList
from builder.web import presenters
from tests.web.conftest import hagmi_legal_doc

pytestmark = pytest.mark.django_db

JA = {"HTTP_ACCEPT_LANGUAGE": "ja"}
HTMX = {"HTTP_HX_REQUEST": "true"}
LANCER = json.loads((Path(__file__).resolve().parents[2] / "cards" / "packages" / "warcaster" / "lists"
                     / "isa-starsteel-vanguard.json").read_text(encoding="utf-8"))


@pytest.fixture
def lancers(make_list):
    """The bundled Starsteel Vanguard force: Hayate (WC-010) with Tactical Cortex, Arc Rifle and Sweep Cannon."""
    return make_list(LANCER, visibility="unlisted")


def page_of(client: Client, url: str, **extra) -> str:
    response = client.get(url, **extra)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


# --- 4. the catalog's address bar -----------------------------------------------------------------------------


def test_a_catalog_search_by_htmx_pushes_the_filters_that_apply_into_the_address_bar(catalog):
    response = Client().get("/catalog/hagmi/", {"q": "", "category": "tactic", "frame": "blue", "cost_min": "",
                                                "cost_max": "2", "ordering": "code"}, **HTMX)
    assert "<html" not in response.content.decode()
    assert response["HX-Push-Url"] == "/catalog/hagmi/?category=tactic&frame=blue&cost_max=2"
    assert "HX-Request" in response["Vary"]
    reloaded = page_of(Client(), response["HX-Push-Url"])  # what a reload or a shared link shows: the same cards
    assert _codes(reloaded) == _codes(response.content.decode()) and _codes(reloaded)


def test_ordering_other_than_the_default_and_the_page_are_in_the_address_bar(catalog):
    response = Client().get("/catalog/hagmi/", {"ordering": "-cost", "page": "2"}, **HTMX)
    assert parse_qs(urlsplit(response["HX-Push-Url"]).query) == {"ordering": ["-cost"], "page": ["2"]}
    assert Client().get("/catalog/hagmi/", {"q": "", "ordering": "code"}, **HTMX)["HX-Push-Url"] == "/catalog/hagmi/"


def test_a_bad_field_drops_only_itself_from_the_search_and_the_address(catalog):
    """A negative cost used to throw every filter away: 'Unit' and a cost of -1 showed every card."""
    response = Client().get("/catalog/hagmi/", {"category": "unit", "cost_min": "-1"}, **HTMX)
    assert response["HX-Push-Url"] == "/catalog/hagmi/?category=unit"
    assert _codes(response.content.decode()) == _codes(page_of(Client(), "/catalog/hagmi/?category=unit"))


def test_a_history_restore_gets_the_whole_page_not_the_results_alone(catalog):
    """htmx asks again with HX-Request when Back finds no cached copy; the answer replaces the whole body."""
    page = page_of(Client(), "/catalog/hagmi/?category=unit", **HTMX, HTTP_HX_HISTORY_RESTORE_REQUEST="true")
    assert "<html" in page and 'id="results"' in page and "HX-Push-Url" not in Client().get(
        "/catalog/hagmi/?category=unit", **HTMX, HTTP_HX_HISTORY_RESTORE_REQUEST="true")


def test_every_catalog_field_applies_as_you_type(catalog):
    page = page_of(Client(), "/catalog/mwda/")
    assert 'hx-trigger="input changed delay:300ms, submit"' in page and 'hx-sync="this:replace"' in page
    assert 'hx-push-url' not in page  # the answer says which address (HX-Push-Url), not the request


def _codes(html: str) -> list[str]:
    return re.findall(r"<tr><td>([A-Z]{2}-\d{3})</td>", html)


# --- 8. filters that do nothing -------------------------------------------------------------------------------


def test_a_filter_with_no_values_in_the_system_is_not_offered(catalog):
    hagmi, mwda, warcaster = (page_of(Client(), f"/catalog/{s}/", **JA) for s in ("hagmi", "mwda", "warcaster"))
    assert 'name="frame"' in hagmi and 'name="faction"' not in hagmi  # HAGMI cards have frames, no factions
    for page in (mwda, warcaster):
        assert 'name="frame"' not in page and 'name="faction"' in page


def test_the_catalog_order_is_in_words(catalog):
    page = page_of(Client(), "/catalog/hagmi/", **JA)
    assert '<option value="-cost">コスト（降順）</option>' in page
    assert ">-cost<" not in page and ">code<" not in page


@pytest.mark.parametrize("url", ["/lists/gallery/", "/lists/"])
def test_the_format_filter_is_a_select_of_the_formats_that_exist_in_the_ui_language(url, make_list, owner_client):
    make_list()  # a player with a list (an empty "My lists" shows the first steps instead of filters)
    page = page_of(owner_client, url, **JA)
    assert 'placeholder="tactics-v4"' not in page
    assert '<select id="f-format" name="format">' in page
    assert '<optgroup label="HAGMI!"><option value="tactics-v4">タクティクス (Ver.4)</option>' in page
    assert '<option value="skirmish">スカーミッシュ</option>' in page


def test_the_format_filter_keeps_the_chosen_format_and_filters(make_list, owner, owner_client):
    make_list(hagmi_legal_doc("Four"), visibility="public")
    services.list_create(owner=owner, visibility="public", document={**hagmi_legal_doc("Three"),
                                                                     "format": "tactics-v3"})
    page = page_of(Client(), "/lists/gallery/?format=tactics-v3")
    assert '<option value="tactics-v3" selected>' in page and "Three" in page and "Four" not in page


# --- 7. loadouts on the list page, the sheet and in the text export -------------------------------------------


@pytest.mark.parametrize("headers, words", [
    ({}, ["Cortex", "Tactical Cortex", "Weapons", "Arc Rifle (2), Sweep Cannon (2)", "weapon points 4 / 4"]),
    (JA, ["コルテックス", "戦術コルテックス", "武器", "アークライフル (2), 掃射機関砲 (2)", "武器ポイント 4 / 4"]),
])
@pytest.mark.parametrize("suffix", ["", "sheet/"])
def test_a_warjacks_loadout_is_shown_in_words_on_the_list_page_and_the_sheet(lancers, suffix, headers, words):
    page = page_of(Client(), f"/lists/{lancers.slug}/{suffix}", **headers)
    loadouts = page.split('<dl class="entry-loadout">')[1:]
    assert len(loadouts) == 2  # Hayate and Iwao
    for word in words:
        assert word in loadouts[0]
    assert "WC-K01" not in page and '"cortex"' not in page and "{&quot;" not in page


def test_the_text_export_writes_the_loadout_in_words_and_reads_back_as_the_same_list(lancers):
    page = page_of(Client(), f"/lists/{lancers.slug}/", **JA)
    assert "1 軽ウォージャック ハヤテ\n  コルテックス: 戦術コルテックス\n  武器: アークライフル, 掃射機関砲\n" in page
    download = Client().get(f"/api/lists/{lancers.slug}/export/?as=text&lang=en").content.decode()
    assert "1 Hayate Light Warjack\n  Cortex: Tactical Cortex\n  Weapons: Arc Rifle, Sweep Cannon\n" in download
    assert "{" not in download
    doc = parse_list_text(download, presenters.catalog_for)
    assert doc["sections"] == json.loads(json.dumps(LANCER["sections"]))


def test_a_warjack_without_a_loadout_says_so(make_list):
    doc = {**LANCER, "sections": {"force": [{"card": "WC-010", "qty": 1}], "rack": []}}
    page = page_of(Client(), f"/lists/{make_list(doc, visibility='unlisted').slug}/")
    loadout = page.split('<dl class="entry-loadout">')[1].split("</dl>")[0]
    assert "<dd>(none)</dd>" in loadout and "weapon points 0 / 4" in loadout


def test_importing_the_text_with_a_loadout_keeps_it(catalog, owner_client):
    text = ("System: warcaster\nFormat: skirmish\n[フォース]\n1 軽ウォージャック ハヤテ\n  コルテックス: 戦術コルテックス\n"
            "  武器: アークライフル、掃射機関砲\n")
    response = owner_client.post("/lists/import/", {"text": text, "name": "Pasted jack", "visibility": "private"})
    assert response.status_code == 302
    entry = GameList.objects.get(name="Pasted jack").entries.get()
    assert entry.options == {"cortex": "WC-K01", "weapons": ["WC-W01", "WC-W02"]}


# --- the tournament sheet's player and event ------------------------------------------------------------------


def test_the_sheet_prints_the_player_and_event_given_and_stores_nothing(lancers, owner):
    page = page_of(Client(), f"/lists/{lancers.slug}/sheet/?player=Mika+Sato&event=Spring+Open+2026")
    assert '<dd class="player">Mika Sato</dd>' in page and '<dd class="event">Spring Open 2026</dd>' in page
    lancers.refresh_from_db()
    assert lancers.version == 1 and "Mika" not in lancers.notes and lancers.revisions.count() == 1


def test_the_sheet_has_blank_lines_to_fill_in_by_hand_and_one_line_each(lancers):
    blank = page_of(Client(), f"/lists/{lancers.slug}/sheet/")
    assert blank.count('<span class="blank">') == 2
    page = page_of(Client(), f"/lists/{lancers.slug}/sheet/", data={"player": "A\nB\tC", "event": "x" * 151})
    assert '<dd class="player">A B C</dd>' in page and '<span class="blank">' in page  # too long: not printed


def test_remember_keeps_the_player_and_event_for_this_list_in_this_browser_only(lancers, make_list):
    browser, other_browser = Client(), Client()
    response = browser.post(f"/lists/{lancers.slug}/sheet/", {"player": "Mika", "event": "Open", "remember": "1"})
    assert response.status_code == 302 and response["Location"] == f"/lists/{lancers.slug}/sheet/?player=Mika&event=Open"
    assert '<dd class="player">Mika</dd>' in page_of(browser, f"/lists/{lancers.slug}/sheet/")
    assert "Mika" not in page_of(other_browser, f"/lists/{lancers.slug}/sheet/")
    another = make_list(hagmi_legal_doc(), visibility="unlisted")
    assert "Mika" not in page_of(browser, f"/lists/{another.slug}/sheet/")
    assert '<dd class="player">Ren</dd>' in page_of(browser, f"/lists/{lancers.slug}/sheet/?player=Ren")
    browser.post(f"/lists/{lancers.slug}/sheet/", {"forget": "1"})
    assert "Mika" not in page_of(browser, f"/lists/{lancers.slug}/sheet/")


def test_the_sheet_form_is_not_printed_and_its_csrf_token_never_goes_in_the_address(lancers):
    page = page_of(Client(), f"/lists/{lancers.slug}/sheet/?player=Mika")
    get_form = page.split('<form method="get"')[1].split("</form>")[0]
    assert "csrfmiddlewaretoken" not in get_form and 'name="player"' in get_form
    assert '<div class="sheet-people no-print">' in page


def test_a_list_you_cannot_see_has_no_sheet_to_remember(make_list, other_client):
    private = make_list(hagmi_legal_doc("Secret plan"))
    response = other_client.post(f"/lists/{private.slug}/sheet/", {"player": "x", "remember": "1"})
    assert response.status_code == 404 and "Secret plan" not in response.content.decode()


# --- 9. favicon, fork ------------------------------------------------------------------------------------------


def test_favicon_is_served_and_linked(catalog):
    response = Client().get("/favicon.ico")
    assert response.status_code == 200 and response["Content-Type"] == "image/x-icon"
    assert response.content[:4] == b"\x00\x00\x01\x00" and "max-age" in response["Cache-Control"]
    page = page_of(Client(), "/")
    assert '<link rel="icon" href="/static/hangar/favicon.svg" type="image/svg+xml">' in page
    assert Client().get("/static/hangar/favicon.svg").status_code == 200


@pytest.mark.parametrize("headers, name, message", [
    ({}, "Copy of Blue rush", "Forked: “Copy of Blue rush” is a private copy in your lists."),
    (JA, "Blue rush のコピー", "フォークしました：「Blue rush のコピー」はあなたのリストにある非公開のコピーです。"),
])
def test_fork_names_the_copy_and_says_so_on_the_next_page(make_list, other_client, headers, name, message):
    original = make_list(hagmi_legal_doc("Blue rush"), visibility="public")
    response = other_client.post(f"/lists/{original.slug}/fork/", follow=True, **headers)
    fork = GameList.objects.exclude(pk=original.pk).get()
    assert fork.name == name and response.redirect_chain[-1][0] == f"/lists/{fork.slug}/edit/"
    assert message in response.content.decode()
    original.refresh_from_db()
    assert original.name == "Blue rush" and original.version == 1


def test_fork_through_the_api_names_the_copy_in_the_language_asked(make_list, other):
    from rest_framework.test import APIClient

    original = make_list(hagmi_legal_doc("Blue rush"), visibility="public")
    client = APIClient()
    client.force_authenticate(other)
    assert client.post(f"/api/lists/{original.slug}/fork/").json()["name"] == "Copy of Blue rush"
    assert client.post(f"/api/lists/{original.slug}/fork/?lang=ja").json()["name"] == "Blue rush のコピー"
    assert client.post(f"/api/lists/{original.slug}/fork/", HTTP_ACCEPT_LANGUAGE="ja").json()["name"] == \
        "Blue rush のコピー"


def test_a_fork_name_stays_within_the_limit_and_an_untitled_list_gets_one():
    assert services.fork_name("", "en") == "Copy of an untitled list"
    assert services.fork_name("", "ja") == "無題のリストのコピー"
    long = services.fork_name("x" * 200, "ja")
    assert len(long) == 200 and long.endswith("x… のコピー")
    assert len(services.fork_name("y" * 195, "en")) == 200


def test_the_catalog_says_its_categories_frames_and_factions_in_words(catalog):
    hagmi = page_of(Client(), "/catalog/hagmi/", **JA)
    assert '<option value="unit">兵装</option>' in hagmi and ">unit<" not in hagmi and ">black<" not in hagmi
    warcaster = page_of(Client(), "/catalog/warcaster/")
    assert "<td>Hero attachment</td>" in warcaster and "<td>Iron Star Alliance</td>" in warcaster
    assert "hero_attachment<" not in warcaster and "iron-star-alliance<" not in warcaster
