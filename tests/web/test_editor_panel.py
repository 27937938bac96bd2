"""The editor's panel: what the format still needs (each counter against the limits of the format's
options, with what is left and its rule ID), the picker's filters and card text, card pages in words, and the exact
HAGMI draw odds with a seeded sample hand."""
from __future__ import annotations

import html
import json
import re
from fractions import Fraction

import pytest
from django.test import Client

from builder import services
from cards.selectors import catalog_for
from rules_engine.construction import RULESETS
from tests.web.conftest import empty_hagmi, hagmi_legal_doc
from tests.web.test_editor import editor_post

pytestmark = pytest.mark.django_db


def mwda_doc(army, fmt="tournament-300"):
    return {"schema": "hangar.list/1", "system": "mwda", "format": fmt, "name": "Army",
            "sections": {"army": [{"card": code, "qty": qty} for code, qty in army]}}


def warcaster_doc(name="isa-starsteel-vanguard"):
    with open(f"cards/packages/warcaster/lists/{name}.json", encoding="utf-8") as handle:
        return json.load(handle)


def hagmi_sample(name="akane-assault"):
    with open(f"cards/packages/hagmi/lists/{name}.json", encoding="utf-8") as handle:
        return json.load(handle)


def gauges(document):
    return [g.as_dict() for g in RULESETS[document["system"]].gauges(document, catalog_for(document["system"]))]


def gauge(document, key, subject=None):
    return next(g for g in gauges(document) if g["key"] == key and (subject is None or g["subject"] == subject))


def counters_of(page: str) -> dict[str, str]:
    """data-counter key -> the counter's text, tags stripped (several of one key joined with " | ")."""
    found: dict[str, list[str]] = {}
    for key, body in re.findall(r'<li class="counter[^"]*" data-counter="([^"]+)">(.*?)</li>', page, re.S):
        found.setdefault(key, []).append(" ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split()))
    return {key: " | ".join(texts) for key, texts in found.items()}


def ja_client(client: Client) -> Client:
    client.cookies["django_language"] = "ja"
    return client


# --- what the format still needs: the engine's gauges, limits from the format's options -------------------------


def test_hagmi_gauges_read_the_limits_of_the_format_h1_h2_h5_h8(catalog):
    doc = hagmi_legal_doc()
    doc["sections"]["weapons"][0]["qty"] = 0  # 18 兵器
    doc["sections"]["weapons"] = [e for e in doc["sections"]["weapons"] if e["qty"]]
    doc["sections"]["damage"] = []
    doc["sections"]["secret"] = [{"card": "HS-057", "qty": 1}, {"card": "HS-058", "qty": 1}]
    weapons = gauge(doc, "weapons")
    assert (weapons["value"], weapons["min"], weapons["status"], weapons["left"], weapons["rule"]) == (18, 20, "under",
                                                                                                       2, "H1")
    assert (gauge(doc, "tactics")["value"], gauge(doc, "tactics")["status"]) == (20, "ok")
    main = gauge(doc, "main")
    assert (main["value"], main["min"], main["left"], main["rule"]) == (38, 40, 2, "H1, H2")
    secret = gauge(doc, "secret")  # ⌊38 / 20⌋ = 1 allowed
    assert (secret["value"], secret["max"], secret["status"], secret["left"], secret["rule"]) == (2, 1, "over", 1, "H5")
    damage = gauge(doc, "damage")
    assert (damage["status"], damage["severity"], damage["rule"]) == ("under", "warning", "H8")
    assert (gauge(doc, "copies")["value"], gauge(doc, "copies")["max"]) == (2, 2)
    # tactics-v3: no deck minimums, 兵器 + 作戦 ≥ 20 (H2)
    v3 = {**doc, "format": "tactics-v3"}
    assert gauge(v3, "weapons")["min"] is None and gauge(v3, "weapons")["status"] == "ok"
    assert (gauge(v3, "main")["min"], gauge(v3, "main")["rule"], gauge(v3, "main")["status"]) == (20, "H2", "ok")


def test_mwda_gauges_points_left_and_orders_m1_m2_m4(catalog):
    doc = mwda_doc([("MW-004", 1), ("MW-010", 1), ("MW-014", 1)])  # 62 + 124 + 102 = 288 points
    points = gauge(doc, "points")
    assert (points["value"], points["max"], points["left"], points["status"], points["rule"]) == (288, 300, 12, "ok", "M1")
    assert gauge(doc, "orders")["value"] == 4  # ⌈288 / 100⌉ + 1 (移動司令部's order bonus)
    smaller = gauge({**doc, "format": "standard-200"}, "points")
    assert (smaller["max"], smaller["status"], smaller["left"]) == (200, "over", 88)
    assert gauge(mwda_doc([]), "units")["status"] == "under"


def test_warcaster_gauges_heroes_units_rack_suits_and_weapon_points_w1_w2_w3_w5(catalog):
    doc = warcaster_doc()
    doc["sections"]["rack"] = doc["sections"]["rack"][1:]  # 11 cyphers, 2 of them Fury
    assert (gauge(doc, "heroes")["value"], gauge(doc, "heroes")["max"]) == (1, 1)
    assert (gauge(doc, "units")["value"], gauge(doc, "units")["max"], gauge(doc, "units")["left"]) == (6, 8, 2)
    rack = gauge(doc, "cyphers")
    assert (rack["value"], rack["min"], rack["max"], rack["status"], rack["left"]) == (11, 12, 15, "under", 1)
    fury = gauge(doc, "suit", "fury")
    assert (fury["value"], fury["min"], fury["status"], fury["rule"]) == (2, 3, "under", "W3")
    assert gauge(doc, "suit", "harmonic")["status"] == "ok"
    light, heavy = gauge(doc, "weapon_points", "WC-010"), gauge(doc, "weapon_points", "WC-011")
    assert (light["value"], light["max"], light["left"]) == (4, 4, 0)
    assert (heavy["value"], heavy["max"], heavy["left"], heavy["rule"]) == (5, 6, 1, "W5")
    full = {**doc, "format": "full"}
    assert (gauge(full, "heroes")["max"], gauge(full, "units")["max"]) == (3, 15)


# --- the panel on the editor and the list page ---------------------------------------------------------------


def test_the_editor_shows_every_hagmi_counter_with_its_limit_and_what_is_left(make_list, owner_client):
    doc = hagmi_legal_doc()
    doc["sections"]["weapons"] = doc["sections"]["weapons"][1:]  # 18 兵器
    game_list = make_list(doc)
    counters = counters_of(owner_client.get(f"/lists/{game_list.slug}/edit/").content.decode())
    assert counters["weapons"] == "Weapons 18 / 20+ H1 ✗ 2 short"
    assert counters["tactics"] == "Tactics 20 / 20+ H2 ✓ met"
    assert counters["main"] == "main deck 38 / 40+ H1, H2 ✗ 2 short"
    assert counters["secret"] == "Secret 0 / 1 H5 ✓ 1 left"
    assert counters["damage"] == "Damage 2 / 1+ H8 ✓ met"
    assert counters["copies"].endswith("2 / 2 H4 ✓ 0 left")


def test_an_over_or_under_counter_is_marked_with_a_word_and_a_mark_not_colour_alone(catalog, owner, owner_client):
    game_list = services.list_create(owner=owner, document=mwda_doc([("MW-010", 1), ("MW-009", 2), ("MW-012", 1)]))
    page = owner_client.get(f"/lists/{game_list.slug}/edit/").content.decode()  # 124 + 100 + 72 = 296
    assert counters_of(page)["points"] == "points 296 / 300 M1 ✓ 4 left"
    page = editor_post(owner_client, game_list, "inc:army:MW-009", htmx=True).content.decode()  # 346
    assert counters_of(page)["points"] == "points 346 / 300 M1 ✗ 46 over"
    assert '<li class="counter is-over has-error" data-counter="points">' in page
    assert counters_of(page)["orders"] == "orders per round 4 M2"  # ⌈346 / 100⌉, no limit: no mark


def test_the_mwda_counter_says_points_left_in_japanese(catalog, owner, owner_client):
    game_list = services.list_create(owner=owner, document=mwda_doc([("MW-004", 1), ("MW-010", 1), ("MW-014", 1)]))
    counters = counters_of(ja_client(owner_client).get(f"/lists/{game_list.slug}/edit/").content.decode())
    assert counters["points"] == "ポイント 288 / 300 M1 ✓ 残り12"
    assert counters["orders"] == "1ラウンドの指令数 4 M2"


def test_the_warcaster_counters_name_each_suit_and_warjack(catalog, owner, owner_client):
    doc = warcaster_doc()
    doc["sections"]["rack"] = doc["sections"]["rack"][1:]
    game_list = services.list_create(owner=owner, document=doc)
    counters = counters_of(owner_client.get(f"/lists/{game_list.slug}/edit/").content.decode())
    assert counters["heroes"] == "heroes 1 / 1 W1 ✓ 0 left"
    assert counters["units"] == "units 6 / 8 W2 ✓ 2 left"
    assert counters["cyphers"] == "cyphers 11 / 12–15 W3 ✗ 1 short"
    assert counters["suit"].split(" | ") == ["Fury cyphers 2 / 3+ W3 ✗ 1 short", "Geometric cyphers 3 / 3+ W3 ✓ met",
                                            "Harmonic cyphers 3 / 3+ W3 ✓ met", "Overdrive cyphers 3 / 3+ W3 ✓ met"]
    assert counters["weapon_points"].split(" | ") == ["weapon points Hayate Light Warjack 4 / 4 W5 ✓ 0 left",
                                                     "weapon points Iwao Heavy Warjack 5 / 6 W5 ✓ 1 left"]
    japanese = counters_of(ja_client(owner_client).get(f"/lists/{game_list.slug}/edit/").content.decode())
    assert japanese["cyphers"] == "サイファー 11 / 12–15 W3 ✗ 1不足"
    assert japanese["suit"].startswith("フューリーのサイファー 2 / 3+ W3 ✗ 1不足")


def test_the_list_page_and_the_sheet_show_the_same_counters(make_list, client):
    game_list = make_list(hagmi_legal_doc(), visibility="public")
    for url in (f"/lists/{game_list.slug}/", f"/lists/{game_list.slug}/sheet/"):
        counters = counters_of(client.get(url).content.decode())
        assert counters["secret"] == "Secret 0 / 2 H5 ✓ 2 left" and counters["main"] == "main deck 40 / 40+ H1, H2 ✓ met"


# --- picker filters ------------------------------------------------------------------------------------------


def selects(page: str) -> dict[str, list[tuple[str, str]]]:
    """Each pick-* select of the page: name -> [(value, shown text)]."""
    found = {}
    for name, body in re.findall(r'<select name="(pick-[a-z_]+)"[^>]*>(.*?)</select>', page, re.S):
        found[name] = [(value, html.unescape(text)) for value, text in
                       re.findall(r'<option value="([^"]*)"[^>]*>(.*?)</option>', body)]
    return found


@pytest.mark.parametrize("system, expected", [
    ("hagmi", {"pick-category": ["unit", "armament", "tactic", "damage", "design"],
               "pick-frame": ["black", "blue", "red", "white", "gold", "silver"]}),
    ("mwda", {"pick-category": ["mech", "vehicle", "infantry"],
              "pick-faction": ["republic", "steel-wolves", "spirit-cats", "highlanders", "bannson", "mercenary"]}),
    ("warcaster", {"pick-category": ["hero", "hero_attachment", "squad", "solo", "warjack", "vehicle", "mantlet",
                                     "cortex", "weapon", "cypher"],
                   "pick-faction": ["iron-star-alliance", "marcher-worlds", "mercenary", "universal"],
                   "pick-suit": ["fury", "geometric", "harmonic", "overdrive"]}),
])
def test_the_picker_filters_offer_only_what_the_systems_catalog_has_in_words(catalog, owner, owner_client, system,
                                                                            expected):
    document = {"hagmi": empty_hagmi(), "mwda": mwda_doc([]), "warcaster": warcaster_doc()}[system]
    game_list = services.list_create(owner=owner, document=document)
    page = owner_client.get(f"/lists/{game_list.slug}/edit/").content.decode()
    found = selects(page)
    assert {name: [value for value, _ in options[1:]] for name, options in found.items()} == expected
    for options in found.values():
        assert options[0] == ("", "(any)") and len(options) >= 3  # never an "(any)"-only select
        for value, text in options[1:]:
            assert text != value and "-" not in text.split("(")[0] and "_" not in text  # words, not slugs
    assert 'name="pick-cost_min"' in page and 'name="pick-cost_max"' in page


def test_the_filter_labels_are_japanese_in_japanese(catalog, make_list, owner, owner_client):
    client = ja_client(owner_client)
    hagmi = selects(client.get(f"/lists/{make_list(empty_hagmi()).slug}/edit/").content.decode())
    assert [text for _, text in hagmi["pick-category"]] == ["（すべて）", "兵装", "武装", "作戦", "ダメージ", "設計兵装"]
    assert [text for _, text in hagmi["pick-frame"]][1:3] == ["黒枠", "青枠"]
    warcaster = services.list_create(owner=owner, document=warcaster_doc())
    found = selects(client.get(f"/lists/{warcaster.slug}/edit/").content.decode())
    assert [text for _, text in found["pick-suit"]][1:] == ["フューリー", "ジオメトリック", "ハーモニック", "オーバードライブ"]
    assert "鉄星同盟" in [text for _, text in found["pick-faction"]]


def picked(client, game_list, **params) -> list[str]:
    page = client.get(f"/lists/{game_list.slug}/edit/cards/", params).content.decode()
    return re.findall(r'<li data-code="([^"]+)"', page)


def test_the_picker_filters_narrow_the_results(catalog, make_list, owner, owner_client):
    hagmi = make_list(empty_hagmi())
    assert picked(owner_client, hagmi, **{"pick-category": "armament"}) == [f"HS-0{n}" for n in range(23, 29)]
    assert set(picked(owner_client, hagmi, **{"pick-frame": "white"})) == {"HS-057", "HS-058", "HS-059"}
    cheap_units = picked(owner_client, hagmi, **{"pick-category": "unit", "pick-cost_max": "1"})
    assert cheap_units and all(catalog_for("hagmi").cards[c]["cost"] <= 1 for c in cheap_units)
    assert picked(owner_client, hagmi, q="蒼穹", **{"pick-cost_min": "3"}) == ["HS-004", "HS-005"]  # with the search
    mwda = services.list_create(owner=owner, document=mwda_doc([]))
    wolves = picked(owner_client, mwda, **{"pick-faction": "steel-wolves", "pick-category": "mech"})
    assert wolves == ["MW-010", "MW-011"]
    warcaster = services.list_create(owner=owner, document=warcaster_doc())
    fury = picked(owner_client, warcaster, **{"pick-suit": "fury"})
    assert fury == [f"WC-C0{n}" for n in range(1, 8)]
    page = owner_client.get(f"/lists/{warcaster.slug}/edit/cards/", {"pick-suit": "fury", "q": "zzz"}).content.decode()
    assert "No card matches these filters." in page


def test_without_javascript_the_filter_button_posts_the_editor_and_keeps_the_draft(make_list, owner_client):
    game_list = make_list(empty_hagmi())
    draft = {**empty_hagmi(), "sections": {**empty_hagmi()["sections"], "weapons": [{"card": "HS-001", "qty": 2}]}}
    page = editor_post(owner_client, game_list, "search", draft, **{"pick-category": "damage"}).content.decode()
    codes = re.findall(r'<li data-code="([^"]+)"', page)
    assert codes and all(catalog_for("hagmi").cards[c]["category"] == "damage" for c in codes)
    assert '<option value="damage" selected>' in page  # the filter stays chosen
    assert "HS-001" in page and "Unsaved changes" in page  # the draft is still there


def test_a_bad_filter_value_is_ignored_not_an_error(make_list, owner_client):
    game_list = make_list(empty_hagmi())
    response = owner_client.get(f"/lists/{game_list.slug}/edit/cards/", {"pick-category": "beast", "pick-cost_min": "x"})
    assert response.status_code == 200 and "HB-001" not in response.content.decode()  # never a 機獣


# --- card text on demand, and on the card pages ------------------------------------------------------------


def test_each_picker_row_shows_its_card_text_on_demand(make_list, owner_client):
    game_list = make_list(empty_hagmi())
    page = owner_client.get(f"/lists/{game_list.slug}/edit/cards/", {"q": "HS-023"}).content.decode()
    assert '<details class="card-text">' in page and '<summary aria-label="Card text: Explosive Reactive Armor">' in page
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())
    assert "Category Armament" in text and "Durability 2" in text
    assert "Equips a unit with the type Heavy or Defender." in text  # the types in English words too
    assert "On defence (counter or intercept) — Damage dealt to the equipped unit is reduced by 2." in text
    assert "Deal 1 damage to the attacking unit." in text
    japanese = ja_client(owner_client).get(f"/lists/{game_list.slug}/edit/cards/", {"q": "HS-023"}).content.decode()
    assert "装備しているユニットが受けるダメージを2軽減する。" in html.unescape(japanese)
    assert '<summary aria-label="カードテキスト：爆発反応装甲">カードテキスト</summary>' in japanese


def page_text(client, url) -> str:
    response = client.get(url)
    assert response.status_code == 200
    body = response.content.decode()
    body = body[body.index("<main"):body.index("</main>")]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def test_a_cypher_page_says_everything_in_words(catalog, client):
    text = page_text(client, "/catalog/warcaster/WC-C23/")
    for words in ("Kind Cypher", "Faction Universal (any faction)", "Suit Overdrive", "Cypher type Effect",
                  "Effect 1 — A friendly warjack within 8″: STR +1, this turn.",
                  "Effect 2 — 1 damage to a friendly warjack, straight to health (no roll)."):
        assert words in text, words
    for slug in ("overdrive", "universal", "cypher ·", "friendly_warjack", "stat_mod"):
        assert slug not in text
    japanese = page_text(ja_client(Client()), "/catalog/warcaster/WC-C23/")
    assert "スート オーバードライブ" in japanese and "味方ウォージャック1体（8″以内）：筋力 +1（このターン）。" in japanese


@pytest.mark.parametrize("url, words, slugs", [
    ("/catalog/hagmi/HS-029/", ["Category Tactic", "Kind Order (one-shot)", "Frame Blue", "When played"],
     ["tactic", "order", "blue", "refuel"]),
    ("/catalog/hagmi/HS-006/", ["Firepower 1×2", "Targets Single target", "Static — This unit has first strike"],
     ["single", "first_strike", "static"]),
    ("/catalog/hagmi/HM-001/", ["Category Mothership", "Terrain Land", "At 4 cores — Every friendly unit gets "
                                "firepower +1 permanently (a modification)."], ["mothership", "land"]),
    ("/catalog/mwda/MW-004/", ["Kind Vehicle", "Faction Republic of the Sphere", "Order bonus +1 orders per round",
                               "ECM — enemy ranged attacks", "Ballistic"], ["republic", "ballistic", "ecm", "veteran"]),
    ("/catalog/warcaster/WC-001/", ["Kind Hero", "Faction Iron Star Alliance", "Arc Node · Always",
                                    "Tactical Command · Action — A friendly unit within 8″: RAT +1, this turn. "
                                    "(Costs 1 arc.)", "Ranged 12 4"], ["iron-star-alliance", "ranged"]),
    ("/catalog/warcaster/WC-003/", ["Attaches to Commander Aya Kurogane"], ["WC-001"]),
    ("/catalog/warcaster/WC-W03/", ["Kind Warjack weapon", "Weapon points cost 3", "Qualities Blast",
                                    "Blast — on a hit the 2 nearest models"], ["blast", "weapon ·"]),
])
def test_card_pages_show_every_field_in_words(catalog, client, url, words, slugs):
    text = page_text(client, url)
    for expected in words:
        assert expected in text, expected
    for slug in slugs:
        assert f" {slug} " not in f" {text} ", slug


# --- HAGMI draw odds -----------------------------------------------------------------------------------------


def cheap_units(document) -> list[str]:
    cards = catalog_for("hagmi").cards
    return sorted({e["card"] for e in document["sections"]["weapons"]
                   if cards[e["card"]]["category"] == "unit" and cards[e["card"]]["cost"] <= 2})


def panel_rows(page: str) -> dict[int, float]:
    return {int(turn): float(p) for turn, p in re.findall(r'<tr data-turn="(\d+)" data-probability="([0-9.e-]+)">', page)}


def test_the_odds_panel_shows_the_apis_exact_figures(catalog, make_list, owner_client, client):
    document = hagmi_sample()
    game_list = make_list(document)
    rows = panel_rows(owner_client.get(f"/lists/{game_list.slug}/edit/").content.decode())
    assert sorted(rows) == [0, 1, 2, 3]
    group = [{"cards": cheap_units(document), "at_least": 1}]
    for turn, shown in rows.items():
        answer = client.post("/api/odds/", {"document": document, "deck": "weapons", "groups": group, "turn": turn},
                             content_type="application/json").json()
        assert shown == answer["probability"] and answer["turn"] == turn
    opening = client.post("/api/odds/", {"document": document, "deck": "weapons", "groups": group},
                          content_type="application/json").json()
    assert rows[0] == opening["probability"]  # the opening hand: the first 2 cards of 兵器
    assert rows[0] < rows[1] < rows[2] < rows[3] < 1


def test_by_turn_odds_are_the_exact_mixture_over_the_logistics_dice(catalog, client):
    document = hagmi_sample()
    group = [{"cards": cheap_units(document), "at_least": 1}]

    def api(**question):
        return client.post("/api/odds/", {"document": document, "deck": "weapons", "groups": group, **question},
                           content_type="application/json").json()

    # one 兵站 roll: each die of 4-6 draws 1 from 兵器, doubles draw 1 more from the same deck
    step: dict[int, Fraction] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            drawn = (a >= 4) + (b >= 4) + (a == b and a >= 4)
            step[drawn] = step.get(drawn, Fraction(0)) + Fraction(1, 36)
    dist = {2: Fraction(1)}
    for turn in (1, 2, 3):
        dist = {total: sum((p * step.get(total - before, Fraction(0)) for before, p in dist.items()), Fraction(0))
                for total in range(2, 2 + 3 * turn + 1)}
        expected = sum((p * Fraction(api(draws=n)["exact"]) for n, p in dist.items() if p), Fraction(0))
        assert Fraction(api(turn=turn)["exact"]) == expected


def test_the_api_refuses_a_turn_beyond_its_limit_or_with_draws(catalog, client):
    document = hagmi_sample()
    group = [{"cards": cheap_units(document), "at_least": 1}]
    for question in ({"turn": 11}, {"turn": 2, "draws": 3}, {"turn": -1}, {"turn": 10**30}):
        response = client.post("/api/odds/", {"document": document, "deck": "weapons", "groups": group, **question},
                               content_type="application/json")
        assert response.status_code == 400, question


def test_the_odds_follow_the_draft_and_say_when_no_cheap_unit_is_in_the_deck(make_list, owner_client):
    game_list = make_list(empty_hagmi())
    page = owner_client.get(f"/lists/{game_list.slug}/edit/").content.decode()
    assert "Draw odds" in page and "has no unit of cost 2 or less yet" in page and not panel_rows(page)
    page = editor_post(owner_client, game_list, "add:weapons:HS-001", htmx=True).content.decode()  # 1 of 1 card
    assert panel_rows(page) == {0: 1.0, 1: 1.0, 2: 1.0, 3: 1.0}
    draft = {**empty_hagmi(), "sections": {**empty_hagmi()["sections"],
                                           "weapons": [{"card": "HS-001", "qty": 1}, {"card": "HS-020", "qty": 3}]}}
    rows = panel_rows(editor_post(owner_client, game_list, "refresh", draft, htmx=True).content.decode())
    assert rows[0] == 0.5  # 1 cheap unit among 4: 1 - C(3,2)/C(4,2)


def test_no_odds_panel_for_mwda_or_warcaster(catalog, owner, owner_client):
    for document in (mwda_doc([("MW-001", 1)]), warcaster_doc()):
        game_list = services.list_create(owner=owner, document=document)
        assert 'id="odds"' not in owner_client.get(f"/lists/{game_list.slug}/edit/").content.decode()


def hand_of(page: str) -> list[str]:
    block = page[page.index('<ul class="hand">'):]
    return re.findall(r'<li data-code="([^"]+)"', block[:block.index("</ul>")])


def test_a_sample_hand_is_dealt_from_the_seed_the_button_carries(make_list, owner_client):
    document = hagmi_sample()
    game_list = make_list(document)
    page = owner_client.get(f"/lists/{game_list.slug}/edit/").content.decode()
    button = re.search(r'<button type="submit" id="sample-hand-button" name="sample_hand" value="(\d+)">'
                       r'Draw a sample hand</button>', page)
    assert button and '<ul class="hand">' not in page
    first = editor_post(owner_client, game_list, "", document, sample_hand="101", htmx=True).content.decode()
    again = editor_post(owner_client, game_list, "", document, sample_hand="101", htmx=True).content.decode()
    other = editor_post(owner_client, game_list, "", document, sample_hand="202", htmx=True).content.decode()
    assert "Sample opening hand (no. 101)" in first and "Draw another hand" in first
    assert hand_of(first) == hand_of(again) != hand_of(other)
    weapons = {e["card"] for e in document["sections"]["weapons"]}
    tactics = {e["card"] for e in document["sections"]["tactics"]}
    hand = hand_of(first)
    assert len(hand) == 4 and set(hand[:2]) <= weapons and set(hand[2:]) <= tactics  # 2 from 兵器, 2 from 作戦
    seeds = {re.search(r'name="sample_hand" value="(\d+)"', p).group(1) for p in (first, again, other)}
    assert len(seeds) == 3 and "101" not in seeds  # every answer offers a new seed
    without_js = editor_post(owner_client, game_list, "", document, sample_hand="101")  # a plain form post
    assert without_js.status_code == 200 and hand_of(without_js.content.decode()) == hand_of(first)
