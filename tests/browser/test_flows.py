"""A player's main scenarios in a real browser: sign up, build a legal HAGMI deck, share, import, simulate, privacy,
escaping. Each test stands alone (fresh database through the live server)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from builder import services
from cards.services import package_import
from tests.browser.conftest import PASSWORD, log_in

WEAPONS = [f"HS-{n:03d}" for n in range(1, 11)]  # black units: the 兵器 deck (H3)
TACTICS = [f"HS-{n:03d}" for n in range(29, 39)]  # blue tactics: the 作戦 deck (H3)


def empty_hagmi(name: str) -> dict:
    return {"schema": "hangar.list/1", "system": "hagmi", "format": "tactics-v4", "name": name,
            "sections": {"weapons": [], "tactics": [], "damage": [], "secret": []}}


def legal_hagmi(name: str) -> dict:
    doc = empty_hagmi(name)
    doc["sections"]["weapons"] = [{"card": code, "qty": 2} for code in WEAPONS]
    doc["sections"]["tactics"] = [{"card": code, "qty": 2} for code in TACTICS]
    return doc


def test_sign_up(site, page):
    page.goto(f"{site}/accounts/signup/")
    page.get_by_label("Username").fill("newpilot")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    expect(page).to_have_url(f"{site}/lists/")
    expect(page.locator("header .who")).to_have_text("newpilot")


def test_build_a_hagmi_deck_until_the_panel_says_legal_h1_h2(site, page, make_user):
    make_user("builder")
    log_in(page, site, "builder")
    page.goto(f"{site}/lists/new/?system=hagmi")
    page.get_by_label("List name").fill("Browser deck")
    page.get_by_role("button", name="Create and edit").click()
    panel = page.locator("#legality")
    expect(panel).to_have_class(re.compile("is-illegal"))
    assert page.evaluate("typeof htmx") == "object"  # the live parts run through htmx
    for section, codes in (("weapons", WEAPONS), ("tactics", TACTICS)):
        for code in codes:
            for expected in ("1", "2"):
                page.locator(f'#picker-results li[data-code="{code}"] button[value="add:{section}:{code}"]').click()
                expect(page.locator(f'section[data-section="{section}"] li[data-card="{code}"] .qty')).to_have_value(
                    expected)
        if section == "weapons":
            expect(panel).to_have_class(re.compile("is-illegal"))  # 20 兵器 but no 作戦 yet: H2
            expect(panel.locator(".rule-id").first).to_have_text("H2")
    expect(panel).to_have_class(re.compile("is-legal"))
    expect(panel).to_contain_text("0 / 2")  # 秘策 0 / 2 with 40 main-deck cards (H5)
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".status")).to_contain_text("Saved")


def test_share_a_list_and_open_the_link_logged_out(site, new_page, make_user):
    owner = make_user("sharer")
    game_list = services.list_create(owner=owner, document=legal_hagmi("Shared deck"))
    page = new_page()
    log_in(page, site, "sharer")
    page.goto(f"{site}/lists/{game_list.slug}/edit/")
    page.get_by_label("Who can see it").select_option("unlisted")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".status")).to_contain_text("Saved")
    page.goto(f"{site}/lists/{game_list.slug}/")
    link = page.locator("#share-url").input_value()
    stranger = new_page()
    response = stranger.goto(link)
    assert response.status == 200
    expect(stranger.locator("h1")).to_have_text("Shared deck")
    expect(stranger.locator("#legality")).to_have_class(re.compile("is-legal"))
    expect(stranger.locator("#text-export")).to_contain_text("Guren-maru")
    expect(stranger.get_by_role("link", name="Edit")).to_have_count(0)


def test_import_a_text_list_with_one_bad_line_shows_that_line(site, page, make_user):
    make_user("importer")
    log_in(page, site, "importer")
    page.goto(f"{site}/lists/import/")
    page.get_by_label("Paste a list (text format)").fill(
        "System: hagmi\nFormat: tactics-v4\n[兵器]\n2 紅蓮丸\n2 紅蓮丸X\n[作戦]\n2 補給物資\n")
    page.get_by_role("button", name="Import", exact=True).click()
    errors = page.locator(".import-errors")
    expect(errors).to_contain_text("line 5")
    expect(errors).to_contain_text("紅蓮丸")  # the suggestion


@pytest.mark.services  # real Celery workers
def test_start_a_simulation_and_watch_the_progress_bar_reach_charts(site, page, make_user, workers):
    owner = make_user("simmer")
    game_list = services.list_create(owner=owner, document=legal_hagmi("Sim deck"))
    log_in(page, site, "simmer")
    page.goto(f"{site}/lists/{game_list.slug}/simulate/")
    page.get_by_label("Opponent", exact=True).select_option("goldfish")
    page.get_by_label("Games").fill("3000")
    page.get_by_label("Seed (same seed, same result)").fill("11")
    page.get_by_role("button", name="Start the simulation").click()
    expect(page.locator("#progress-bar")).to_be_visible()
    expect(page.locator(".winrate")).to_be_visible(timeout=60_000)
    expect(page.locator("#progress-bar")).to_have_attribute("value", "100")
    expect(page.locator("canvas[data-drawn='1']")).to_have_count(7)  # win rate, outcomes, damage by turn, turns, first unit, cards played, endings


def test_another_user_cannot_see_a_private_list(site, page, make_user):
    owner = make_user("keeper")
    make_user("snoop")
    game_list = services.list_create(owner=owner, document=empty_hagmi("Hidden plan"))
    log_in(page, site, "snoop")
    response = page.goto(f"{site}/lists/{game_list.slug}/")
    assert response.status == 404
    expect(page.locator("body")).not_to_contain_text("Hidden plan")


def test_a_card_name_containing_a_script_tag_shows_as_text(site, page):
    script = "<script>window.hacked = 1</script>"
    package_import({"schema": "hangar.package/1", "system": "hagmi", "slug": "xss", "version": "1", "title": "XSS",
                    "cards": [{"code": "HX-001", "name": script, "name_en": script, "category": "unit",
                               "frame": "black", "cost": 1, "pilot": "X", "types": ["強襲"], "firepower": "1",
                               "armor": 1, "range": 1, "fuel_cost": 1, "targets": "single"}]}, source="tests")
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(f"{site}/catalog/hagmi/HX-001/")
    expect(page.locator("h1 .name")).to_have_text(script)
    page.goto(f"{site}/catalog/hagmi/?q=HX-001")
    expect(page.locator("table.cards .name").first).to_have_text(script)
    assert page.evaluate("window.hacked") is None and dialogs == []


def test_reading_pages_work_with_javascript_off(site, new_page, make_user):
    owner = make_user("reader")
    services.list_create(owner=owner, document=legal_hagmi("Plain deck"), visibility="public")
    page = new_page(java_script_enabled=False)
    page.goto(f"{site}/catalog/hagmi/")
    page.get_by_label("Search name or code").fill("補給物資")
    page.get_by_role("button", name="Search").click()  # a plain GET form
    expect(page.locator("table.cards tbody tr")).to_have_count(1)
    page.goto(f"{site}/lists/gallery/")
    page.get_by_role("link", name="Plain deck").click()
    expect(page.locator("#legality")).to_have_class(re.compile("is-legal"))
    expect(page.locator("details.chart-table")).to_have_count(1)


def test_the_editor_works_from_the_keyboard(site, page, make_user):
    owner = make_user("typist")
    game_list = services.list_create(owner=owner, document=legal_hagmi("Keys"))
    log_in(page, site, "typist")
    page.goto(f"{site}/lists/{game_list.slug}/edit/")
    page.get_by_role("button", name="One fewer Guren-maru", exact=True).focus()
    page.keyboard.press("Enter")
    expect(page.locator('section[data-section="weapons"] li[data-card="HS-001"] .qty')).to_have_value("1")
    expect(page.locator("#legality")).to_have_class(re.compile("is-illegal"))  # 19 兵器 (H1)
    page.get_by_role("button", name="One more Guren-maru", exact=True).press("Enter")
    expect(page.locator("#legality")).to_have_class(re.compile("is-legal"))
