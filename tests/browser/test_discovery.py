"""First steps and finding lists, in a real Chromium with the real pointer at 1280 and 390 px, in English and
Japanese (nothing covers a control, no page scrolls sideways):

- after signing up, the empty "My lists" offers a list for each game, the import, and the sample lists: one click
  copies a sample into the player's lists and opens it in the editor;
- a new site's gallery (no public list) shows the bundled sample lists;
- a card's page links to the gallery's lists using it, and the gallery is searched by faction and sorted by forks;
- a HAGMI list's shared page shows the draw odds and deals a sample hand;
- in the editor, a card's text shows on hover, on focus (the keyboard) and on a tap of its name, and Escape hides it.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from builder import services
from tests.browser.conftest import PASSWORD, WIDTH_AND_LANGUAGE, WIDTH_AND_LANGUAGE_IDS, log_in, shoot
from tests.browser.test_editor import assert_nothing_covers_a_control, open_editor

PACKAGES = Path(__file__).resolve().parents[2] / "cards" / "packages"
WORDS = {
    "en": {"username": "Username", "password": "Password", "again": "Password again", "create": "Create my account",
           "first": "Your first list", "copy": "Copy to my lists: {name}", "lists_using": "Lists using this card",
           "filter": "Filter", "faction": "Faction", "sort": "Sort by", "forks": "Most forked",
           "draw": "Draw a sample hand", "another": "Draw another hand"},
    "ja": {"username": "ユーザー名", "password": "パスワード", "again": "パスワード（確認）", "create": "アカウントを作成",
           "first": "最初のリスト", "copy": "マイリストにコピー：{name}", "lists_using": "このカードを使っているリスト",
           "filter": "絞り込み", "faction": "勢力", "sort": "並べ替え", "forks": "フォークの多い順",
           "draw": "手札を試しに引く", "another": "別の手札を引く"},
}


def bundled(system: str, name: str) -> dict:
    return json.loads((PACKAGES / system / "lists" / f"{name}.json").read_text(encoding="utf-8"))


def at(new_page, site, size, language):
    page = new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    return page


@pytest.mark.parametrize("size,language", [((1280, 900), "ja"), ((390, 844), "en")], ids=["1280-ja", "390-en"])
def test_after_sign_up_an_empty_my_lists_offers_first_steps_and_a_sample_is_copied(site, new_page, size, language):
    words = WORDS[language]
    page = at(new_page, site, size, language)
    page.goto(f"{site}/accounts/signup/")
    page.get_by_label(words["username"], exact=True).fill("newpilot")
    page.get_by_label(words["password"], exact=True).fill(PASSWORD)
    page.get_by_label(words["again"], exact=True).fill(PASSWORD)
    page.get_by_role("button", name=words["create"]).click()
    expect(page).to_have_url(f"{site}/lists/")
    steps = page.locator(".first-steps")
    expect(steps.get_by_role("heading")).to_have_text(words["first"])
    for system in ("hagmi", "mwda", "warcaster"):
        expect(steps.locator(f'a[href="/lists/new/?system={system}"]')).to_be_visible()
    expect(steps.locator('a[href="/lists/import/"]')).to_be_visible()
    shoot(page, f"first-steps-{language}-{size[0]}")
    assert_nothing_covers_a_control(page, f"first steps {language} {size[0]}")
    sample = bundled("warcaster", "isa-starsteel-vanguard")
    page.get_by_role("button", name=words["copy"].format(name=sample["name"])).click()
    expect(page).to_have_url(re.compile(r"/lists/[^/]+/edit/$"))
    expect(page.locator("h1")).to_contain_text(sample["name"])
    expect(page.locator("#legality")).to_have_class(re.compile("is-legal"))
    page.goto(f"{site}/lists/")
    expect(page.locator(".first-steps")).to_have_count(0)
    expect(page.get_by_role("link", name=sample["name"])).to_be_visible()


@pytest.mark.parametrize("size, language", WIDTH_AND_LANGUAGE, ids=WIDTH_AND_LANGUAGE_IDS)
def test_a_new_sites_gallery_shows_the_sample_lists(site, new_page, size, language):
    page = at(new_page, site, size, language)
    page.goto(f"{site}/lists/gallery/")
    samples = page.locator(".sample-lists li")
    expect(samples).to_have_count(len(list(PACKAGES.glob("*/lists/*.json"))))
    expect(samples.first).to_contain_text(bundled("hagmi", "akane-assault")["name"])
    shoot(page, f"gallery-samples-{language}-{size[0]}")
    assert_nothing_covers_a_control(page, f"gallery samples {language} {size[0]}")


@pytest.mark.parametrize("size,language", [((1280, 900), "en"), ((390, 844), "ja")], ids=["1280-en", "390-ja"])
def test_from_a_cards_page_to_the_lists_using_it_then_by_faction_and_most_forked(site, new_page, make_user, size,
                                                                                  language):
    words = WORDS[language]
    owner, other = make_user("owner"), make_user("other")
    made = {name: services.list_create(owner=owner, document=bundled(system, name), visibility="public")
            for system, name in (("hagmi", "sample-vanguard"), ("hagmi", "akane-assault"),
                                 ("warcaster", "isa-thunder-lancers"), ("warcaster", "marcher-dust-raiders"))}
    services.list_fork(game_list=made["marcher-dust-raiders"], user=other)
    vanguard, akane = bundled("hagmi", "sample-vanguard"), bundled("hagmi", "akane-assault")
    in_akane = {e["card"] for entries in akane["sections"].values() for e in entries}
    code = next(e["card"] for entries in vanguard["sections"].values() for e in entries if e["card"] not in in_akane)
    page = at(new_page, site, size, language)
    page.goto(f"{site}/catalog/hagmi/{code}/")
    page.get_by_role("link", name=words["lists_using"]).click()
    expect(page).to_have_url(re.compile(rf"/lists/gallery/\?system=hagmi&card={code}$"))
    rows = page.locator("table.lists tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text(vanguard["name"])
    shoot(page, f"gallery-card-{language}-{size[0]}")
    assert_nothing_covers_a_control(page, f"gallery by card {language} {size[0]}")
    page.locator("#f-card").fill("")
    page.locator("#f-system").select_option("warcaster")
    page.get_by_label(words["sort"]).select_option("forks")
    page.get_by_role("button", name=words["filter"], exact=True).click()
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text(bundled("warcaster", "marcher-dust-raiders")["name"])  # forked once
    page.get_by_label(words["faction"]).select_option("iron-star-alliance")
    page.get_by_role("button", name=words["filter"], exact=True).click()
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text(bundled("warcaster", "isa-thunder-lancers")["name"])
    shoot(page, f"gallery-faction-{language}-{size[0]}")
    assert_nothing_covers_a_control(page, f"gallery by faction {language} {size[0]}")


@pytest.mark.parametrize("size,language", [((1280, 900), "ja"), ((390, 844), "en")], ids=["1280-ja", "390-en"])
def test_a_hagmi_lists_shared_page_shows_the_draw_odds_and_deals_a_sample_hand(site, new_page, make_user, size,
                                                                              language):
    words = WORDS[language]
    owner = make_user("owner")
    game_list = services.list_create(owner=owner, document=bundled("hagmi", "sample-vanguard"), visibility="unlisted")
    page = at(new_page, site, size, language)  # someone with the link, not signed in
    page.goto(f"{site}/lists/{game_list.slug}/")
    expect(page.locator("#odds .odds-table tbody tr")).to_have_count(4)
    page.get_by_role("button", name=words["draw"]).click()
    hand = page.locator("#sample-hand .hand li")
    expect(hand).to_have_count(4)
    expect(hand.first).to_be_in_viewport()  # back at the odds, not at the top of the page
    heading = page.locator("#sample-hand h3")
    first = heading.inner_text()  # "Sample opening hand (no. 48213)"
    page.get_by_role("button", name=words["another"]).click()
    expect(heading).not_to_have_text(first)  # a new seed: the next hand
    expect(hand).to_have_count(4)
    shoot(page, f"shared-odds-{language}-{size[0]}")
    assert_nothing_covers_a_control(page, f"shared page odds {language} {size[0]}")


@pytest.mark.parametrize("size,language", [((1280, 900), "en"), ((390, 844), "ja")], ids=["1280-en", "390-ja"])
def test_a_cards_text_shows_on_hover_focus_and_tap_in_the_editor(site, new_page, make_user, size, language):
    page, _ = open_editor(new_page, site, make_user, bundled("hagmi", "sample-vanguard"), size=size,
                          language=language)
    row = page.locator('#picker-results li[data-code="HS-024"]')
    name, tip = row.locator(".card-peek"), row.locator(".card-tip")
    expect(tip).to_be_hidden()
    if size[0] > 800:
        name.hover()  # the pointer over the name
    else:
        name.click()  # a tap on the name
    expect(tip).to_be_visible()
    expect(tip).to_contain_text({"en": "Equips a unit with the type Heavy.", "ja": "重装"}[language])
    shoot(page, f"card-peek-{language}-{size[0]}")
    page.keyboard.press("Escape")
    expect(tip).to_be_hidden()
    page.mouse.move(0, 0)
    entry = page.locator('section[data-section="weapons"] li[data-card="HS-001"]')
    entry.locator(".card-peek").focus()  # the keyboard's focus on a name in the draft
    expect(entry.locator(".card-tip")).to_be_visible()
    expect(entry.locator(".card-tip")).to_contain_text({"en": "Firepower", "ja": "火力"}[language])
    expect(page.locator("#editor-live .card-peek")).to_have_count(
        page.locator("#editor-live li[data-card]").count())
    page.locator("#q").focus()
    expect(entry.locator(".card-tip")).to_be_hidden()
    assert_nothing_covers_a_control(page, f"card text {language} {size[0]}")
