"""Layout in a real Chromium with the real pointer, at 1280 and 390 px (docs/testing.md, "Crawls and browser flows"):

- on a phone the list's counters (HAGMI 兵器 20/20+, MWDA points and what is left, Warcaster heroes, units and
  cyphers) stay in the window while cards are added from the picker, and change with each click; at desktop width
  the legality panel's own column does the same; nothing covers a control and no page scrolls sideways;
- the header fits on one line at 1280 px in Japanese for a data editor, and the language switch is one click;
- the editor's cost curve counts whole cards on its axis;
- a Warcaster replay's models are in the window after a step at 1280 × 900 (and 390 × 844);
- "Simulate from here" brings its result into the window (a replay's turn, and the analysis page);
- the card-correction preview follows the typing.

With HANGAR_SCREENSHOTS=/some/folder, the pages are saved there to look at (both languages, both widths).
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from cards.drafts import editor_group
from tests.browser.conftest import WIDTH_AND_LANGUAGE, WIDTH_AND_LANGUAGE_IDS, log_in, shoot
from tests.browser.test_editor import assert_nothing_covers_a_control, empty, open_editor, qty, wait_idle
from tests.browser.test_replays import finished_run
from tests.support.simulations import published  # noqa: F401  (the replays' catalog)

SIZES = [(1280, 900), (390, 844)]

# within the window, to the pixel: Playwright scrolls a button it clicks to the window's edge, where layout's
# fractions of a pixel (a bottom at 844.08 of 844) are not a player's "out of sight"
IN_WINDOW = """(el) => { const r = el.getBoundingClientRect();
                          return r.top >= -1 && r.bottom <= window.innerHeight + 1 && r.height > 0; }"""


def in_window(locator) -> bool:
    return locator.evaluate(IN_WINDOW)


def counter_in_view(page, key: str, width: int):
    """The counter the player reads at this width: the compact bar on a phone, the panel's column at desktop."""
    return page.locator(f'#counter-bar li[data-counter="{key}"]' if width < 800 else
                        f'#legality li[data-counter="{key}"]')


# --- the counters in view while adding ------------------------------------------------------------------------


@pytest.mark.parametrize("size,language", [((390, 844), "ja"), ((390, 844), "en"), ((1280, 900), "ja")],
                         ids=["390-ja", "390-en", "1280-ja"])
def test_the_hagmi_weapons_counter_stays_in_view_while_cards_are_added(site, new_page, make_user, size, language):
    page, _ = open_editor(new_page, site, make_user, empty("hagmi"), size=size, language=language)
    page.locator("#picker-title").scroll_into_view_if_needed()
    cards = ["HS-001", "HS-003", "HS-006", "HS-009"]
    added = 0
    for code in cards:
        for copies in (1, 2):
            add = page.locator(f'#picker-results li[data-code="{code}"] button[value="add:weapons:{code}"]')
            add.click()  # the real pointer: Playwright scrolls the button into view and clicks its centre
            added += 1
            expect(qty(page, "weapons", code)).to_have_value(str(copies))
            counter = counter_in_view(page, "weapons", size[0])
            expect(counter).to_contain_text(f"{added} / 20+")
            assert in_window(counter), f"the weapons counter is out of the window after {added} cards"
            assert in_window(add), "the button pressed is out of the window"
    if size[0] < 800:
        bar = page.locator("#counter-bar")
        expect(bar).to_have_class(re.compile("is-illegal"))
        expect(bar.locator('li[data-counter="weapons"]')).to_have_class(re.compile("is-under"))
        assert page.locator("#legality").evaluate(
            "(el) => el.getBoundingClientRect().bottom < 0 || el.getBoundingClientRect().top > window.innerHeight")
    else:
        expect(page.locator("#counter-bar")).to_be_hidden()  # the panel's own column shows them
    shoot(page, f"counter-bar-hagmi-{language}-{size[0]}")
    wait_idle(page)
    assert_nothing_covers_a_control(page, f"counters while adding {language} {size[0]}")


@pytest.mark.parametrize("system, section, code, keys, words", [
    ("mwda", "army", "MW-001", ["points", "units"], "left"),
    ("warcaster", "force", "WC-001", ["heroes", "units", "cyphers"], None),
], ids=["mwda", "warcaster"])
def test_the_points_and_units_counters_follow_each_click_on_a_phone(site, new_page, make_user, system, section, code,
                                                                      keys, words):
    page, _ = open_editor(new_page, site, make_user, empty(system), size=(390, 844))
    add = page.locator(f'#picker-results li[data-code="{code}"] button[value="add:{section}:{code}"]')
    bar = page.locator("#counter-bar")
    before = bar.inner_text()
    add.click()
    expect(qty(page, section, code)).to_have_value("1")
    expect(bar).not_to_have_text(before)  # the bar was swapped with the draft
    for key in keys:
        expect(bar.locator(f'li[data-counter="{key}"]')).to_be_visible()
    if words:
        expect(bar.locator('li[data-counter="points"]')).to_contain_text(words)  # points left
    assert in_window(bar) and in_window(add)
    wait_idle(page)
    assert_nothing_covers_a_control(page, f"{system} counters on a phone")


# --- the header and the language switch -------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["ja", "en"])
def test_the_header_is_one_line_at_1280_for_a_data_editor(site, new_page, make_user, language):
    editor = make_user("curator")
    editor.groups.add(editor_group())
    page = new_page()
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(page, site, "curator")
    page.goto(f"{site}/")
    expect(page.locator("header.site a[href='/data/']")).to_be_visible()
    tops = page.locator("header.site a, header.site button, header.site .who").evaluate_all(
        "(els) => els.filter((el) => el.offsetParent).map((el) => Math.round(el.getBoundingClientRect().top))")
    assert max(tops) - min(tops) <= 6, f"the header's links are on more than one line: {sorted(set(tops))}"
    shoot(page, f"header-editor-{language}-1280")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}px")
def test_the_language_switch_is_one_click(site, new_page, size):
    page = new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.context.add_cookies([{"name": "django_language", "value": "ja", "url": site}])
    page.goto(f"{site}/lists/gallery/")
    expect(page.locator("h1")).to_have_text("公開ギャラリー")
    page.get_by_role("button", name="English", exact=True).click()
    expect(page.locator("h1")).to_have_text("Public gallery")
    expect(page).to_have_url(f"{site}/lists/gallery/")
    page.get_by_role("button", name="日本語", exact=True).click()
    expect(page.locator("h1")).to_have_text("公開ギャラリー")
    assert_nothing_covers_a_control(page, f"the language switch {size[0]}")


# --- the cost curve --------------------------------------------------------------------------------------------


def test_the_cost_curve_counts_whole_cards(site, new_page, make_user):
    page, _ = open_editor(new_page, site, make_user, empty("hagmi"))
    page.locator('#picker-results li[data-code="HS-001"] button[value="add:weapons:HS-001"]').click()
    expect(qty(page, "weapons", "HS-001")).to_have_value("1")
    wait_idle(page)
    canvas = page.locator("#editor-side canvas[data-chart]")
    expect(canvas).to_have_attribute("data-drawn", "1")
    ticks = canvas.evaluate("(c) => Chart.getChart(c).scales.y.ticks.map((t) => t.value)")
    assert ticks and all(float(value).is_integer() for value in ticks), ticks


# --- the replay and "simulate from here" -------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}px")
def test_a_warcaster_replays_models_are_in_the_window_after_a_step(site, new_page, make_user, published,  # noqa: F811
                                                                  size):
    owner = make_user("pilot")
    run = finished_run(owner, "warcaster")
    page = new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    log_in(page, site, "pilot")
    page.goto(f"{site}/simulations/{run.public_id}/games/1/")
    pieces = page.locator("#replay .piece")
    for _ in range(4):  # the setup first, then the deployed models
        page.get_by_role("button", name="Next turn", exact=True).click()
    shown = page.locator("#replay .piece:not([style*='display: none'])")
    assert shown.count() > 0 and pieces.count() > 0
    outside = shown.evaluate_all(
        """(els) => els.filter((el) => { const r = el.getBoundingClientRect();
                    return r.top < 0 || r.bottom > window.innerHeight; }).map((el) => el.dataset.piece)""")
    assert outside == [], f"models out of the window: {outside}"
    expect(page.get_by_role("button", name="Next turn", exact=True)).to_be_in_viewport()
    shoot(page, f"replay-warcaster-{size[0]}")
    assert_nothing_covers_a_control(page, f"warcaster replay {size[0]}")


@pytest.mark.parametrize("size, language", WIDTH_AND_LANGUAGE, ids=WIDTH_AND_LANGUAGE_IDS)
def test_simulate_from_here_brings_its_result_into_the_window(site, new_page, make_user, published, size,  # noqa: F811
                                                               language):
    owner = make_user("pilot")
    run = finished_run(owner, "mwda")
    page = new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(page, site, "pilot")
    page.goto(f"{site}/simulations/{run.public_id}/games/1/")
    page.locator("#from-here-games").fill("4")
    page.get_by_role("button", name={"en": "Simulate from here", "ja": "ここからシミュレーション"}[language],
                     exact=True).click()
    result = page.locator("#from-here-result .from-here-compare")
    expect(result).to_be_visible()
    page.wait_for_function("""() => { const r = document.querySelector('#from-here-result').getBoundingClientRect();
                                      return r.top >= -1 && r.top < window.innerHeight - 40; }""")
    shoot(page, f"from-here-result-{language}-{size[0]}")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}px")
def test_simulate_from_here_on_the_analysis_page_shows_its_result_in_the_window(site, new_page, published,  # noqa: F811
                                                                               size):
    page = new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{site}/analysis/?example=mwda")
    page.locator("#analysis-games").fill("3")
    page.get_by_role("button", name="Simulate from here", exact=True).click()
    summary = page.locator("#simulated .analysis-summary")
    expect(summary).to_be_visible()
    page.wait_for_function("""() => { const r = document.querySelector('#simulated').getBoundingClientRect();
                                      return r.top >= -1 && r.top < window.innerHeight - 40; }""")
    assert_nothing_covers_a_control(page, f"analysis simulated {size[0]}")


# --- the card-correction preview ----------------------------------------------------------------------------------


@pytest.mark.parametrize("size,language", [((1280, 900), "ja"), ((390, 844), "en")], ids=["1280-ja", "390-en"])
def test_the_card_correction_preview_follows_the_typing(site, new_page, make_user, size, language):
    make_user("player")
    page = new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(page, site, "player")
    page.goto(f"{site}/catalog/hagmi/HS-001/propose/")
    name = page.locator("#f-name-en")
    name.click()
    name.press("End")
    page.keyboard.type(" Mk II")
    expect(page.locator(".card-preview")).to_contain_text("Guren-maru Mk II")
    page.keyboard.type("I")
    expect(page.locator(".card-preview")).to_contain_text("Guren-maru Mk III")
    shoot(page, f"card-preview-{language}-{size[0]}")
    assert_nothing_covers_a_control(page, f"card correction {language} {size[0]}")
