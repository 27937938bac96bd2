"""Every page renders for the people who may see it (Django test client, the bundled catalog)."""
from __future__ import annotations

import pytest
from django.test import Client

from tests.web.conftest import hagmi_legal_doc

pytestmark = pytest.mark.django_db


def test_home_offers_every_loaded_game(catalog):
    page = Client().get("/").content.decode()
    for slug in ("hagmi", "mwda", "warcaster"):
        assert f'href="/catalog/{slug}/"' in page
        assert f'href="/lists/new/?system={slug}"' in page


@pytest.mark.parametrize("url", [
    "/", "/catalog/hagmi/", "/catalog/mwda/", "/catalog/warcaster/", "/catalog/hagmi/HS-001/",
    "/catalog/mwda/MW-001/", "/catalog/warcaster/WC-001/", "/rules/hagmi/", "/rules/mwda/", "/rules/warcaster/",
    "/lists/gallery/", "/verify/", "/accounts/login/", "/accounts/signup/",
])
def test_reading_pages_work_logged_out(catalog, url):
    response = Client().get(url)
    assert response.status_code == 200, url
    assert b"<script>alert" not in response.content


@pytest.mark.parametrize("url", ["/lists/", "/lists/new/", "/lists/import/", "/simulations/"])
def test_pages_that_need_an_account_send_to_log_in(catalog, url):
    response = Client().get(url)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


def test_pages_of_a_list_render_for_its_owner(catalog, owner_client, make_list):
    game_list = make_list(hagmi_legal_doc())
    for suffix in ("", "edit/", "history/", "sheet/", "simulate/"):
        response = owner_client.get(f"/lists/{game_list.slug}/{suffix}")
        assert response.status_code == 200, suffix


def test_unknown_system_card_and_list_are_404(catalog, owner_client):
    assert Client().get("/catalog/chess/").status_code == 404
    assert Client().get("/catalog/hagmi/HS-999/").status_code == 404
    assert owner_client.get("/lists/nosuchlist00/").status_code == 404


def test_catalog_search_filters_and_htmx_returns_only_the_results(catalog):
    client = Client()
    page = client.get("/catalog/hagmi/", {"q": "紅蓮"}).content.decode()
    assert "HS-001" in page and "HS-002" in page and "HS-029" not in page
    assert "<form" in page  # a GET form: search works without JavaScript
    partial = client.get("/catalog/hagmi/", {"category": "tactic"}, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in partial and "HS-029" in partial and "HS-001" not in partial


def test_hagmi_card_is_drawn_in_its_frame_with_its_stats(catalog):
    page = Client().get("/catalog/hagmi/HS-001/").content.decode()
    assert 'class="hagmi-card frame-black"' in page
    for label in ("Firepower", "Armor", "Range", "Fuel cost"):
        assert label in page
    assert "紅蓮丸" in page and "Guren-maru" in page  # both names where the catalog has them


def test_mwda_unit_shows_its_combat_dial_click_by_click(catalog):
    page = Client().get("/catalog/mwda/MW-001/").content.decode()
    assert "Combat dial" in page
    assert page.count('<th scope="row">') >= 3 + 1  # three clicks of MW-001 plus the primary weapon row


def test_warcaster_model_shows_stat_line_and_weapons(catalog):
    page = Client().get("/catalog/warcaster/WC-001/").content.decode()
    assert "Stat line" in page and "Arc Carbine" in page and "アークカービン" in page


def test_rules_page_lists_rule_ids_and_interpretations(catalog):
    page = Client().get("/rules/hagmi/").content.decode()
    for rule in ("H1", "H2", "H3", "H4", "H5", "H6", "H7", "H8"):
        assert f'<tr id="{rule}">' in page
    assert "interpretation" in page  # H4/H5/H8 are interpretations in docs/rules.md
    assert "secret_per_main" in page or "min_weapons" in page  # the options in force


def test_mwda_rules_page_names_m2_orders_per_round(catalog):
    page = Client().get("/rules/mwda/").content.decode()
    assert '<tr id="M2">' in page and "Orders per round" in page


def test_w11_warcaster_card_page_shows_each_weapons_exact_odds_against_a_chosen_target(catalog):
    """W11: a model's page shows, for each weapon, the exact odds against a target chosen from
    the catalog's models (GET ?target=, default a typical one): to hit and the damage distribution, computed by
    the engine's odds (through the registry) — the same fractions as odds.py."""
    from fractions import Fraction

    from rules_engine.systems import system

    cards = {code: card for code, card in _catalog_cards().items()}
    odds = system("warcaster").weapon_odds
    page = Client().get("/catalog/warcaster/WC-006/?target=WC-011").content.decode()
    assert 'name="target"' in page and '<option value="WC-011" selected>' in page
    exact = odds(cards["WC-006"], cards["WC-006"]["weapons"][0], cards["WC-011"])
    assert f"{float(exact['hit']) * 100:.1f}%" in page and f"{exact['hit'].numerator}/{exact['hit'].denominator}" in page
    assert 0 < exact["hit"] < 1 and sum(exact["damage"]) == Fraction(1)
    assert "To hit" in page and "Damage on a hit" in page
    default = Client().get("/catalog/warcaster/WC-006/").content.decode()
    typical = system("warcaster").typical_target(cards)
    assert f'<option value="{typical}" selected>' in default
    unknown = Client().get("/catalog/warcaster/WC-006/?target=NOPE").content.decode()
    assert "not a model of the catalog" in unknown and f'<option value="{typical}" selected>' in unknown
    cypher = Client().get("/catalog/warcaster/WC-C01/").content.decode()
    assert 'name="target"' not in cypher  # no fixed weapons: no odds


def test_w11_warcaster_card_odds_in_japanese(catalog):
    page = Client(HTTP_ACCEPT_LANGUAGE="ja").get("/catalog/warcaster/WC-006/").content.decode()
    assert "命中率" in page and "命中時のダメージ" in page


def _catalog_cards():
    from builder.web import presenters

    return presenters.catalog("warcaster").cards
