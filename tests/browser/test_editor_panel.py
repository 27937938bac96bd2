"""The editor's panel in a real Chromium with the real pointer (locator.click(), never force=True or dispatch_event),
at 1280×900 and 390×844: filter the editor's picker, open a card's text, see the counters and the exact draw odds
follow the draft, draw a sample hand twice and get two hands.

With HANGAR_SCREENSHOTS=/some/folder set, each test saves a screenshot of the editor's panel and picker there.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from builder import services
from tests.browser.conftest import log_in

PACKAGES = Path(__file__).resolve().parents[2] / "cards" / "packages"
WIDTHS = [(1280, 900), (390, 844)]
SCREENSHOTS = os.environ.get("HANGAR_SCREENSHOTS", "")


def bundled(system: str, name: str) -> dict:
    return json.loads((PACKAGES / system / "lists" / f"{name}.json").read_text(encoding="utf-8"))


def open_editor(site, new_page, make_user, document, width, height, lang="en"):
    owner = make_user(f"panel{width}{lang}")
    game_list = services.list_create(owner=owner, document=document)
    page = new_page()
    page.set_viewport_size({"width": width, "height": height})
    if lang != "en":
        page.context.add_cookies([{"name": "django_language", "value": lang, "url": site}])
    log_in(page, site, owner.username)
    page.goto(f"{site}/lists/{game_list.slug}/edit/")
    return page


def shoot(page, name: str) -> None:
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SCREENSHOTS) / f"{name}.png"), full_page=True)


def codes(page) -> list[str]:
    return page.locator("#picker-results li[data-code]").evaluate_all("items => items.map(i => i.dataset.code)")


@pytest.mark.parametrize("width, height", WIDTHS)
def test_filter_the_hagmi_picker_and_open_a_cards_text(site, new_page, make_user, width, height):
    doc = bundled("hagmi", "akane-assault")
    page = open_editor(site, new_page, make_user, doc, width, height)
    filters = page.locator("#picker-filters")
    filters.get_by_label("Category").select_option(label="Armament")
    expect(page.locator("#picker-results li[data-code]")).to_have_count(6)
    assert codes(page) == [f"HS-0{n}" for n in range(23, 29)]
    filters.get_by_label("Cost from").click()
    page.keyboard.type("2")
    expect(page.locator("#picker-results li[data-code]")).to_have_count(2)  # the two armaments of cost 2
    assert codes(page) == ["HS-024", "HS-027"]
    row = page.locator('#picker-results li[data-code="HS-024"]')
    text = row.locator("details.card-text")
    expect(text).not_to_have_attribute("open", "")
    row.locator("summary").click()
    expect(text).to_have_attribute("open", "")
    expect(text).to_contain_text("Damage of 3 or less dealt to the equipped unit becomes 0.")
    expect(text).to_contain_text("Equips a unit with the type Heavy.")
    # the search box and the filters work together
    filters.get_by_label("Category").select_option(label="Unit")
    filters.get_by_label("Cost from").fill("")
    page.locator("#q").click()
    page.keyboard.type("蒼穹")
    expect(page.locator("#picker-results li[data-code]")).to_have_count(3)
    filters.get_by_label("Cost from").click()
    page.keyboard.type("3")
    expect(page.locator("#picker-results li[data-code]")).to_have_count(2)
    assert codes(page) == ["HS-004", "HS-005"]
    shoot(page, f"a2-picker-hagmi-{width}")


@pytest.mark.parametrize("width, height", WIDTHS)
def test_filter_warcaster_cyphers_by_suit_and_read_one(site, new_page, make_user, width, height):
    page = open_editor(site, new_page, make_user, bundled("warcaster", "isa-starsteel-vanguard"), width, height, "ja")
    filters = page.locator("#picker-filters")
    filters.get_by_label("スート").select_option(label="オーバードライブ")
    expect(page.locator("#picker-results li[data-code]")).to_have_count(7)
    assert all(code.startswith("WC-C2") for code in codes(page))
    row = page.locator('#picker-results li[data-code="WC-C23"]')
    row.locator("summary").click()
    expect(row.locator("details.card-text")).to_contain_text("味方ウォージャック1体（8″以内）：筋力 +1（このターン）。")
    expect(row.locator("details.card-text")).to_contain_text("オーバードライブ")
    # the counters name what the rack still needs: remove a Fury cypher
    page.locator('section[data-section="rack"] button[value="remove:rack:WC-C01"]').click()
    counter = page.locator('#legality li[data-counter="suit"]').first
    expect(counter).to_contain_text("フューリーのサイファー")
    expect(counter).to_contain_text("2 / 3+")
    expect(counter).to_contain_text("1不足")
    expect(counter).to_have_class(re.compile("is-under"))
    expect(page.locator('#legality li[data-counter="cyphers"]')).to_contain_text("11 / 12–15")
    shoot(page, f"a2-picker-warcaster-ja-{width}")


@pytest.mark.parametrize("width, height", WIDTHS)
def test_see_the_odds_follow_the_draft_and_draw_a_sample_hand_twice(site, new_page, make_user, width, height):
    doc = bundled("hagmi", "akane-assault")
    page = open_editor(site, new_page, make_user, doc, width, height)
    odds = page.locator("#odds")
    expect(odds).to_contain_text("Draw odds")
    opening = odds.locator('tr[data-turn="0"]')
    expect(opening).to_contain_text("Opening hand")
    for turn in (1, 2, 3):
        expect(odds.locator(f'tr[data-turn="{turn}"]')).to_contain_text(f"By turn {turn}")
    before = float(opening.get_attribute("data-probability"))
    # one more cheap unit (HS-009 is cost 1, already twice): the opening odds rise with the draft
    page.locator("#picker-filters").get_by_label("Cost to").click()
    page.keyboard.type("1")
    add = page.locator('#picker-results li[data-code="HS-009"] button[value="add:weapons:HS-009"]')
    expect(page.locator("#picker-results li[data-code]").first).to_have_attribute("data-code", re.compile("HS-"))
    expect(page.locator('#picker-results li[data-code="HS-020"]')).to_have_count(0)  # cost 6: filtered out
    add.click()
    expect(opening).not_to_have_attribute("data-probability", str(before))
    assert float(opening.get_attribute("data-probability")) > before
    page.get_by_role("button", name="Draw a sample hand").click()
    hand = page.locator("#sample-hand ul.hand li")
    expect(hand).to_have_count(4)
    first = hand.evaluate_all("items => items.map(i => i.dataset.code)")
    heading = page.locator("#sample-hand h3").inner_text()
    page.get_by_role("button", name="Draw another hand").click()
    expect(page.locator("#sample-hand h3")).not_to_have_text(heading)
    expect(hand).to_have_count(4)
    second = hand.evaluate_all("items => items.map(i => i.dataset.code)")
    assert first != second  # a new seed each click: another hand (two equal hands of 2 + 2: about 1 in 10 000)
    expect(page.get_by_role("button", name="Draw another hand")).to_be_focused()  # the editor keeps the focus
    shoot(page, f"a2-odds-{width}")
