"""Issue 14, part B, on the server: warjack loadouts on the list page and the tournament sheet, the sheet's player
and event."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.test import Client

from builder import services
from builder.listio import parse_list_text
from builder.models import GameList
from builder.web import presenters
from tests.web.conftest import hagmi_legal_doc

pytestmark = pytest.mark.django_db

JA = {"HTTP_ACCEPT_LANGUAGE": "ja"}
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


# --- 7. loadouts on the list page, the sheet and in the text export -------------------------------------------


@pytest.mark.parametrize("headers, words", [
    ({}, ["Cortex", "Tactical Cortex", "Weapons", "Arc Rifle (2), Sweep Cannon (2)", "weapon points 4 / 4"]),
    (JA, ["コーテックス", "戦術コルテックス", "武器", "アークライフル (2), 掃射機関砲 (2)", "武器ポイント 4 / 4"]),
])
@pytest.mark.parametrize("suffix", ["", "sheet/"])
def test_a_warjacks_loadout_is_shown_in_words_on_the_list_page_and_the_sheet(lancers, suffix, headers, words):
    page = page_of(Client(), f"/lists/{lancers.slug}/{suffix}", **headers)
    loadouts = page.split('<dl class="loadout">')[1:]
    assert len(loadouts) == 2  # Hayate and Iwao
    for word in words:
        assert word in loadouts[0]
    assert "WC-K01" not in page and '"cortex"' not in page and "{&quot;" not in page


def test_the_text_export_writes_the_loadout_in_words_and_reads_back_as_the_same_list(lancers):
    page = page_of(Client(), f"/lists/{lancers.slug}/", **JA)
    assert "1 軽ウォージャック ハヤテ\n  コーテックス: 戦術コルテックス\n  武器: アークライフル, 掃射機関砲\n" in page
    download = Client().get(f"/api/lists/{lancers.slug}/export/?as=text&lang=en").content.decode()
    assert "1 Hayate Light Warjack\n  Cortex: Tactical Cortex\n  Weapons: Arc Rifle, Sweep Cannon\n" in download
    assert "{" not in download
    doc = parse_list_text(download, presenters.catalog_for)
    assert doc["sections"] == json.loads(json.dumps(LANCER["sections"]))


def test_a_warjack_without_a_loadout_says_so(make_list):
    doc = {**LANCER, "sections": {"force": [{"card": "WC-010", "qty": 1}], "rack": []}}
    page = page_of(Client(), f"/lists/{make_list(doc, visibility='unlisted').slug}/")
    loadout = page.split('<dl class="loadout">')[1].split("</dl>")[0]
    assert "<dd>(none)</dd>" in loadout and "weapon points 0 / 4" in loadout


def test_importing_the_text_with_a_loadout_keeps_it(catalog, owner_client):
    text = ("System: warcaster\nFormat: skirmish\n[フォース]\n1 軽ウォージャック ハヤテ\n  コーテックス: 戦術コルテックス\n"
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


