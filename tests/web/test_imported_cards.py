"""Pages of cards imported from BattleScribe data: the rules text kept from the data, the notice of what
the simulator plays only in part, unmodelled weapon qualities, the factions by the names the package declares (the
catalog, the card page, the list editor and the list page), the catalog's marker, and the exact odds of a force
entry's weapons in the list editor (W11), from the same presenter and template as the card page.

The package is the project's own small test data (tests/cards/fixtures/battlescribe/hangar-test.zip); the cards
and factions the tests use are found in it by what they are, not by code."""
from __future__ import annotations

import html
import re
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from builder import services
from builder.web import presenters, vocabulary
from cards.selectors import package_document, packages_list
from rules_engine.systems import system as game_system

pytestmark = pytest.mark.django_db

ZIP = Path(__file__).resolve().parents[1] / "cards" / "fixtures" / "battlescribe" / "hangar-test.zip"


@pytest.fixture
def imported(catalog) -> dict[str, Any]:
    """The bundled packages and the BattleScribe test package, imported by the real command; its document."""
    call_command("import_package", str(ZIP), stdout=StringIO())
    slug = next(pkg.slug for pkg in packages_list("warcaster") if pkg.slug.startswith("bs-"))
    return package_document("warcaster", slug)


def _card(doc: dict[str, Any], test) -> dict[str, Any]:
    return next(card for card in doc["cards"] if test(card))


def _new_faction(doc: dict[str, Any]) -> dict[str, Any]:
    """A faction the package declares that the pages' own table does not know (only the package names it)."""
    known = vocabulary.words("warcaster", "faction")
    return next(f for f in doc["factions"] if f["slug"] not in known)


def _page(url: str, language: str, **headers) -> tuple[int, str]:
    client = Client()
    client.cookies["django_language"] = language
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language, **headers)
    return response.status_code, html.unescape(response.content.decode())


@pytest.mark.parametrize("language", ["en", "ja"])
def test_an_imported_cards_page_shows_its_rules_text_and_what_is_played_only_in_part(imported, language):
    card = _card(imported, lambda c: c.get("not_modelled") and c.get("text_en") and c.get("stats"))
    status, page = _page(f"/catalog/warcaster/{card['code']}/", language)
    assert status == 200
    rules = page.split('id="rules-text-title"', 1)[1]
    for line in card["text_en"].splitlines():  # the data's English text, line by line, as the data gives it
        assert f"<p>{line.strip()}</p>" in rules
    assert 'class="card-text-own" lang="en"' in rules
    notice = page.split('id="not-modelled"', 1)[1].split("</div>", 1)[0]
    names = ("、" if language == "ja" else ", ").join(card["not_modelled"])
    if language == "en":
        assert "Rules text" in page and "in English: the data has no Japanese text" not in page
        assert f"The simulator plays this card only in part: {names} (the text is kept; the effect is not modelled)." \
            in notice
    else:
        assert "ルールテキスト" in page and "英語：データに日本語のテキストはありません" in page
        assert f"このカードはシミュレーターで一部のみ再現されます：{names}（テキストは保持していますが、その効果は再現していません）。" \
            in notice


def test_a_fully_modelled_card_has_no_notice(imported):
    card = _card(imported, lambda c: c.get("kind") == "squad" and not c.get("not_modelled")
                 and not any(w.get("other_qualities") for w in c.get("weapons") or []))
    status, page = _page(f"/catalog/warcaster/{card['code']}/", "en")
    assert status == 200 and 'id="not-modelled"' not in page and "played only in part" not in page.lower()


@pytest.mark.parametrize("language, mark", [("en", "(not modelled)"), ("ja", "（未再現）")])
def test_a_weapons_unmodelled_qualities_are_named_and_marked(imported, language, mark):
    card = _card(imported, lambda c: any(w.get("other_qualities") for w in c.get("weapons") or []))
    quality = next(q for w in card["weapons"] for q in w.get("other_qualities") or [])
    _status, page = _page(f"/catalog/warcaster/{card['code']}/", language)
    weapons = page.split('<table class="weapons">', 1)[1].split("</table>", 1)[0]
    assert f'<span class="not-modelled" lang="en">{quality}</span> <small class="not-modelled-mark">{mark}</small>' \
        in weapons
    odds = page.split('class="weapon-odds"', 1)[1]  # the odds say what they leave out
    assert quality in odds and mark in odds


@pytest.mark.parametrize("language", ["en", "ja"])
def test_factions_show_by_the_name_the_package_declares_never_a_slug(imported, language):
    faction = _new_faction(imported)
    name = faction["name"] if language == "ja" else faction.get("name_en", faction["name"])
    card = _card(imported, lambda c: c.get("faction") == faction["slug"] and c.get("kind") == "hero")
    _status, page = _page(f"/catalog/warcaster/{card['code']}/", language)
    assert re.search(rf"<dt>[^<]+</dt><dd>{re.escape(name)}</dd>", page)  # the card page's faction fact
    _status, catalog = _page("/catalog/warcaster/", language)
    assert f'<option value="{faction["slug"]}">{name}</option>' in catalog  # the catalog's filter
    _status, rows = _page(f"/catalog/warcaster/?faction={faction['slug']}", language)
    assert f"<td>{name}</td>" in rows
    humanised = vocabulary.humanise(faction["slug"])
    for text in (page, catalog, rows):
        assert f">{faction['slug']}<" not in text and f">{humanised}<" not in text


def test_the_list_editor_and_the_list_page_name_a_declared_faction(imported, owner):
    faction = _new_faction(imported)
    hero = _card(imported, lambda c: c.get("faction") == faction["slug"] and c.get("kind") == "hero")
    game_list = services.list_create(owner=owner, document=_warcaster_doc([{"card": hero["code"], "qty": 1}]))
    client = Client()
    client.force_login(owner)
    client.cookies["django_language"] = "en"
    editor = html.unescape(client.get(f"/lists/{game_list.slug}/edit/").content.decode())
    assert f'<option value="{faction["slug"]}">{faction["name_en"]}</option>' in editor  # the picker's filter
    picker = html.unescape(client.get(f"/lists/{game_list.slug}/edit/cards/", {"pick-faction": faction["slug"]},
                                      HTTP_HX_REQUEST="true").content.decode())
    assert hero["code"] in picker and f">{faction['slug']}<" not in picker
    detail = html.unescape(client.get(f"/lists/{game_list.slug}/").content.decode())
    assert f">{faction['slug']}<" not in detail and f">{vocabulary.humanise(faction['slug'])}<" not in detail


@pytest.mark.parametrize("language, words", [
    ("en", "The simulator plays this card only in part: "),
    ("ja", "このカードはシミュレーターで一部のみ再現されます："),
])
def test_the_catalog_marks_cards_played_only_in_part_with_a_label(imported, language, words):
    partial = _card(imported, lambda c: c.get("not_modelled"))
    whole = _card(imported, lambda c: c.get("kind") == "squad" and not c.get("not_modelled")
                  and not any(w.get("other_qualities") for w in c.get("weapons") or []))
    _status, page = _page("/catalog/warcaster/?q=" + partial["name_en"].split()[0], language)
    rows = {code: row for code, row in re.findall(r"<tr><td>([A-Z0-9-]+)</td>(.*?)</tr>", page, re.S)}
    label = words + ("、" if language == "ja" else ", ").join(partial["not_modelled"])
    assert f'<span class="partial-mark" role="img" aria-label="{label}" title="{label}">◐</span>' in rows[partial["code"]]
    assert "partial-mark" not in rows.get(whole["code"], "")
    assert 'class="hint partial-key"' in page  # the key says what the mark means
    _status, plain = _page("/catalog/hagmi/", language)
    assert "partial-mark" not in plain


# --- the list editor: the odds of a force entry's weapons (W11) -------------------------------------------------


def _warcaster_doc(force: list[dict[str, Any]]) -> dict[str, Any]:
    return {"schema": "hangar.list/1", "system": "warcaster", "name": "Odds test", "sections": {"force": force}}


def _jack_and_weapons(doc: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    jack = _card(doc, lambda c: c.get("kind") == "warjack")
    weapons = [c for c in doc["cards"] if c.get("kind") == "weapon" and c.get("faction") == jack["faction"]][:2]
    return jack, weapons


def test_w11_the_editor_offers_each_force_entrys_weapon_odds_with_its_chosen_weapons(imported, owner):
    """W11: the editor shows the exact odds of a force entry's weapons — a warjack's chosen
    weapons (options.weapons) too — loaded into the entry (htmx), the same numbers as the registry's weapon_odds."""
    jack, weapons = _jack_and_weapons(imported)
    hero = _card(imported, lambda c: c.get("kind") == "hero" and c.get("weapons") and c["faction"] == jack["faction"])
    codes = [w["code"] for w in weapons]
    game_list = services.list_create(owner=owner, document=_warcaster_doc([
        {"card": hero["code"], "qty": 1}, {"card": jack["code"], "qty": 1, "options": {"weapons": codes}}]))
    client = Client()
    client.force_login(owner)
    editor = html.unescape(client.get(f"/lists/{game_list.slug}/edit/").content.decode())
    url = f"/catalog/warcaster/{jack['code']}/odds/?" + "&".join(f"weapon={code}" for code in codes)
    entry = editor.split(f'data-odds="{jack["code"]}"', 1)[1].split("</details>", 1)[0]
    assert f'hx-get="{url}"' in entry and '"panel": "odds-force-1"' in entry and f'href="{url}"' in entry
    assert f'data-odds="{hero["code"]}"' in editor  # a model's own weapons too
    fragment = html.unescape(client.get(f"{url}&panel=odds-force-1&target={hero['code']}",
                                        HTTP_HX_REQUEST="true").content.decode())
    assert "<html" not in fragment and '<section class="weapon-odds" id="odds-force-1"' in fragment
    assert f'<option value="{hero["code"]}" selected>' in fragment
    assert f'hx-get="{url}&panel=odds-force-1" hx-trigger="change" hx-target="#odds-force-1"' in fragment  # reloads
    assert 'form="odds-force-1-no-form"' in fragment and "<form" not in fragment  # no form inside the editor's form
    cards = presenters.catalog("warcaster").cards
    odds = game_system("warcaster").weapon_odds
    for weapon in weapons:
        exact = odds(jack, cards[weapon["code"]], cards[hero["code"]])
        table = fragment.split(f'data-weapon="{weapon["name_en"]}"', 1)[1].split("</table>", 1)[0]
        assert f"{exact['hit'].numerator}/{exact['hit'].denominator}" in table
        assert f"{float(exact['mean']):.2f}" in table
        assert 0 < exact["hit"] < 1


def test_w11_a_warjack_without_weapons_and_a_cypher_have_no_odds_panel(imported, owner):
    jack, _weapons = _jack_and_weapons(imported)
    cypher = _card(imported, lambda c: c.get("kind") == "cypher")
    document = _warcaster_doc([{"card": jack["code"], "qty": 1}])
    document["sections"]["rack"] = [{"card": cypher["code"], "qty": 1}]
    game_list = services.list_create(owner=owner, document=document)
    client = Client()
    client.force_login(owner)
    editor = client.get(f"/lists/{game_list.slug}/edit/").content.decode()
    assert 'class="entry-odds"' not in editor


@pytest.mark.parametrize("language", ["en", "ja"])
def test_w11_the_odds_page_without_javascript_and_its_messages(imported, language):
    jack, weapons = _jack_and_weapons(imported)
    url = f"/catalog/warcaster/{jack['code']}/odds/"
    status, page = _page(f"{url}?weapon={weapons[0]['code']}&weapon=NOPE", language)
    assert status == 200 and f'<html lang="{language}">' in page
    assert f'<form method="get" action="{url}" class="odds-target">' in page  # a real form: works without JS
    assert f'<input type="hidden" name="weapon" value="{weapons[0]["code"]}">' in page
    assert ("「NOPE」はこのカタログのウォージャック武器ではないため、除外しました。" if language == "ja"
            else "“NOPE” is not a warjack weapon of this catalog: left out.") in page
    hero = _card(imported, lambda c: c.get("kind") == "hero" and c.get("weapons"))
    _status, page = _page(f"/catalog/warcaster/{hero['code']}/odds/?weapon={weapons[0]['code']}", language)
    assert ("ウォージャック武器を装備できるのはウォージャックだけです" if language == "ja"
            else "Only a warjack takes warjack weapons") in page
    assert f'data-weapon="{weapons[0]["name_en"]}"' not in page
    cypher = _card(imported, lambda c: c.get("kind") == "cypher")
    status, page = _page(f"/catalog/warcaster/{cypher['code']}/odds/", language)
    assert status == 404 and ("判定する武器がありません" if language == "ja" else "has no weapon to roll") in page
    assert _page("/catalog/warcaster/NO-SUCH/odds/", language)[0] == 404
    status, page = _page(f"{url}?" + "&".join(f"weapon={weapons[0]['code']}" for _ in range(13)), language)
    assert status == 200 and ("一度に指定できる武器は12個まで" if language == "ja" else "At most 12 weapons") in page


def test_w11_the_list_page_links_each_entrys_weapon_odds(imported, owner):
    jack, weapons = _jack_and_weapons(imported)
    game_list = services.list_create(owner=owner, document=_warcaster_doc([
        {"card": jack["code"], "qty": 1, "options": {"weapons": [weapons[0]["code"]]}}]))
    client = Client()
    client.force_login(owner)
    page = html.unescape(client.get(f"/lists/{game_list.slug}/").content.decode())
    assert f'<a class="odds-link" href="/catalog/warcaster/{jack["code"]}/odds/?weapon={weapons[0]["code"]}"' in page
    sheet = client.get(f"/lists/{game_list.slug}/sheet/").content.decode()
    assert "odds-link" not in sheet  # the printed sheet has no links to follow


def test_the_editors_picker_marks_cards_played_only_in_part(imported, owner):
    partial = _card(imported, lambda c: c.get("not_modelled"))
    game_list = services.list_create(owner=owner, document=_warcaster_doc([]))
    client = Client()
    client.force_login(owner)
    client.cookies["django_language"] = "ja"
    picker = html.unescape(client.get(f"/lists/{game_list.slug}/edit/cards/", {"q": partial["code"]},
                                      HTTP_HX_REQUEST="true").content.decode())
    row = picker.split(f'data-code="{partial["code"]}"', 1)[1].split("<li data-code=", 1)[0]  # its text has <li>s
    assert 'aria-label="このカードはシミュレーターで一部のみ再現されます：' + "、".join(partial["not_modelled"]) in row


@pytest.mark.parametrize("language, kind, joins", [("en", "Squad attachment", "Attaches to"),
                                                   ("ja", "スクワッド・アタッチメント", "アタッチ先")])
def test_a_squad_attachments_page_names_its_kind_cost_and_the_squads_it_joins(catalog, language, kind, joins):
    """The card page of a squad attachment read from BattleScribe data (community-shape: Raider Spotter, CST "+1",
    joining Drift Raiders squads): its kind in words, its CST and the squads it joins by name, never by slug."""
    call_command("import_package", str(ZIP.parent / "community-shape"), stdout=StringIO())
    status, page = _page("/catalog/warcaster/BS-CS-SPOTTER/", language)
    assert status == 200
    assert kind in page and "squad_attachment" not in page
    assert re.search(rf"{joins}\s*</dt>\s*<dd>\s*Drift Raiders", page), "the squads it joins, by name"
