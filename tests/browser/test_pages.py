"""List and catalog pages in a real browser at desktop (1280×900) and phone (390×844) widths, with the real pointer and
keyboard: the catalog's filters in the address bar and after a reload or Back, no page wider than a phone, the
tournament sheet's player and event, fork's confirmation, and no 404 for the favicon."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from builder import services
from tests.browser.conftest import log_in
from tests.support.simulations import play_all, published  # noqa: F401  (fixture)

WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
LANCER = json.loads((Path(__file__).resolve().parents[2] / "cards" / "packages" / "warcaster" / "lists"
                     / "isa-starsteel-vanguard.json").read_text(encoding="utf-8"))
HAGMI_LEGAL = {"schema": "hangar.list/1", "system": "hagmi", "format": "tactics-v4", "name": "Blue rush", "sections": {
    "weapons": [{"card": f"HS-{n:03d}", "qty": 2} for n in range(1, 11)],
    "tactics": [{"card": f"HS-{n:03d}", "qty": 2} for n in range(29, 39)], "damage": [], "secret": []}}


@pytest.fixture(params=list(WIDTHS), ids=list(WIDTHS))
def sized(request, new_page):
    """new_page at one of the two widths, in English, or in Japanese with lang="ja"."""
    width, height = WIDTHS[request.param]

    def make(lang: str = "en", site: str = ""):
        page = new_page()
        page.set_viewport_size({"width": width, "height": height})
        if lang == "ja":
            page.context.add_cookies([{"name": "django_language", "value": "ja", "url": site}])
        return page

    make.width = width
    return make


def page_width(page) -> int:
    return page.evaluate("Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")


def assert_fits(page) -> None:
    width, inner = page_width(page), page.evaluate("window.innerWidth")
    assert width <= inner, f"{page.url} is {width} px wide in a {inner} px window"


def shown_codes(page) -> list[str]:
    """The codes of the cards shown, once no search is under way and the last answer is in place."""
    expect(page.locator("form.filters")).not_to_have_class(re.compile(r"\bhtmx-request\b"))
    expect(page.locator("#results")).not_to_have_class(re.compile(r"\bhtmx-(swapping|settling)\b"))
    return page.locator("#results tbody tr td:first-child").all_inner_texts()


# --- 4. the catalog's address bar ------------------------------------------------------------------------------


def test_catalog_filters_are_in_the_address_bar_and_after_a_reload(site, sized):
    page = sized()
    page.goto(f"{site}/catalog/hagmi/")
    page.get_by_label("Category").select_option("unit")
    expect(page).to_have_url(re.compile(r"\?category=unit$"))
    units = shown_codes(page)
    page.get_by_label("Cost to").click()
    page.keyboard.type("2")  # applies as you type: no Tab, no Enter
    expect(page).to_have_url(re.compile(r"\?category=unit&cost_max=2$"))
    cheap = shown_codes(page)
    assert cheap and set(cheap) < set(units)
    page.get_by_label("Search name or code").click()
    page.keyboard.type("HS-00")
    expect(page).to_have_url(re.compile(r"\?q=HS-00&category=unit&cost_max=2$"))
    found = shown_codes(page)
    assert found and all(code.startswith("HS-00") for code in found)

    page.reload()
    assert shown_codes(page) == found
    expect(page.get_by_label("Search name or code")).to_have_value("HS-00")
    expect(page.get_by_label("Category")).to_have_value("unit")
    expect(page.get_by_label("Cost to")).to_have_value("2")

    for url, codes, cost in ((r"\?category=unit&cost_max=2$", cheap, "2"), (r"\?category=unit$", units, "")):
        page.go_back()  # the page of that address, fields and all (htmx keeps no copy of its own: hx-history)
        expect(page).to_have_url(re.compile(url))
        expect(page.locator("header.site")).to_have_count(1)  # the whole page, not the results alone
        expect(page.locator("#results")).to_have_count(1)
        expect(page.get_by_label("Cost to")).to_have_value(cost)
        expect(page.get_by_label("Search name or code")).to_have_value("")
        assert shown_codes(page) == codes
    assert_fits(page)


def test_a_catalog_without_frames_offers_no_frame_filter(site, sized):
    page = sized("ja", site)
    page.goto(f"{site}/catalog/warcaster/")
    expect(page.get_by_label("枠")).to_have_count(0)
    expect(page.get_by_label("勢力")).to_be_visible()
    page.goto(f"{site}/catalog/hagmi/")
    expect(page.get_by_label("勢力")).to_have_count(0)
    expect(page.get_by_label("枠")).to_be_visible()


# --- 6. nothing wider than a phone; 7. loadouts shown --------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_list_page_the_sheet_and_a_result_fit_the_window(site, sized, make_user, published, lang):
    owner = make_user("pilot")
    force = services.list_create(owner=owner, document=LANCER, visibility="unlisted")
    deck = services.list_create(owner=owner, document=HAGMI_LEGAL, visibility="unlisted")
    run = services.simulation_start(user=owner, game_list=deck, opponent_slug="goldfish", policy="greedy", games=2,
                                    seed=5)
    play_all(run)
    page = sized(lang, site)
    log_in(page, site, "pilot")
    page.goto(f"{site}/lists/{force.slug}/")
    loadout = page.locator("dl.entry-loadout").first
    expect(loadout).to_contain_text("戦術コルテックス" if lang == "ja" else "Tactical Cortex")
    expect(loadout).to_contain_text("4 / 4")
    assert_fits(page)
    page.goto(f"{site}/lists/{force.slug}/sheet/")
    expect(page.locator("dl.entry-loadout")).to_have_count(2)
    assert_fits(page)
    page.goto(f"{site}/simulations/{run.public_id}/")
    expect(page.locator("#result-link")).to_be_visible()
    assert_fits(page)
    link = page.locator("#result-link").bounding_box()
    assert link["x"] + link["width"] <= sized.width


# --- the tournament sheet's player and event ------------------------------------------------------------------


def test_the_sheet_prints_the_player_and_event_and_remembers_them_when_asked(site, sized, make_user):
    owner = make_user("sheeter")
    force = services.list_create(owner=owner, document=LANCER, visibility="unlisted")
    page = sized()
    page.goto(f"{site}/lists/{force.slug}/sheet/")
    expect(page.locator(".sheet-head .blank")).to_have_count(2)  # lines to fill in by hand
    page.get_by_label("Player name").click()
    page.keyboard.type("Mika Sato")
    page.get_by_label("Event", exact=True).click()
    page.keyboard.type("Spring Open")
    page.get_by_role("button", name="Show on the sheet").click()
    expect(page.locator("dd.player")).to_have_text("Mika Sato")
    expect(page.locator("dd.event")).to_have_text("Spring Open")
    assert "player=Mika+Sato" in page.url and "csrf" not in page.url
    page.get_by_role("button", name="Remember them for this list").click()
    expect(page.locator(".messages")).to_contain_text("remembers")
    page.goto(f"{site}/lists/{force.slug}/sheet/")
    expect(page.locator("dd.player")).to_have_text("Mika Sato")
    page.emulate_media(media="print")
    expect(page.locator(".sheet-people")).to_be_hidden()  # the form is not printed
    page.emulate_media(media="screen")
    page.get_by_role("button", name="Forget them").click()
    page.goto(f"{site}/lists/{force.slug}/sheet/")
    expect(page.locator(".sheet-head .blank")).to_have_count(2)
    assert_fits(page)


# --- 9. fork, favicon -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang, button, name, said", [
    ("en", "Fork (copy to my lists)", "Copy of Blue rush", "Forked: “Copy of Blue rush” is a private copy"),
    ("ja", None, "Blue rush のコピー", "フォークしました：「Blue rush のコピー」"),
])
def test_fork_says_what_it_did_and_names_the_copy(site, sized, make_user, lang, button, name, said):
    owner = make_user("author")
    make_user("reader")
    original = services.list_create(owner=owner, document=HAGMI_LEGAL, visibility="public")
    page = sized(lang, site)
    log_in(page, site, "reader")
    page.goto(f"{site}/lists/{original.slug}/")
    fork = page.locator(f'form[action="/lists/{original.slug}/fork/"] button')
    if button:
        expect(fork).to_have_text(button)
    fork.click()
    expect(page).to_have_url(re.compile(r"/lists/[^/]+/edit/$"))
    assert original.slug not in page.url
    message = page.locator(".messages")
    expect(message).to_contain_text(said)
    expect(message).to_be_in_viewport()
    expect(page.locator("#id_name")).to_have_value(name)


def test_no_page_load_asks_for_a_missing_favicon(site, sized):
    page = sized()
    missing: list[str] = []
    page.on("response", lambda response: missing.append(response.url) if response.status == 404 else None)
    page.goto(f"{site}/")  # goto waits for the page's load event: everything the page asked for has answered
    page.goto(f"{site}/api/systems/")  # JSON: the browser asks for /favicon.ico itself (not a page's request)
    assert missing == []
    response = page.request.get(f"{site}/favicon.ico")
    assert response.status == 200 and response.headers["content-type"] == "image/x-icon"
