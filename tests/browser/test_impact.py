"""A player tests every card of a list from the list page and reads the result — the measured effects as a chart
with the numbers under a toggle, then the correlation tables, labelled apart — with the real pointer, on a phone
and on a desktop, in Japanese and English."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from builder import services
from builder.models import SimulationRun
from tests.browser.conftest import log_in, shoot, wait_for_the_finished_page
from tests.browser.test_editor import assert_nothing_covers_a_control
from tests.browser.test_results import _no_sideways_scroll
from tests.support import planted
from tests.support.simulations import play_all, published  # noqa: F401  (chunks played here, not by workers)

WORDS = {
    "en": {"test": "Test every card", "numbers": "Numbers", "helps": "Helps (confirmed)", "effect": "Measured effect",
           "correlation": "Correlation", "grenadiers": "Highland Grenadiers"},
    "ja": {"test": "全カードを検証", "numbers": "数値", "helps": "効果あり（確認済み）", "effect": "測定した効果",
           "correlation": "相関", "grenadiers": "高地連隊擲弾兵"},
}


@pytest.mark.parametrize("language, width", [("ja", 390), ("en", 1280)])  # both widths, both languages
def test_a_player_tests_every_card_and_reads_effects_and_correlations_apart(site, new_page, make_user, published,
                                                                             language, width):
    owner = make_user("impact")
    game_list = services.list_create(owner=owner, document=planted.strong_army(), visibility="private")
    words = WORDS[language]
    page = new_page()
    page.set_viewport_size({"width": width, "height": 844})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(page, site, "impact")
    page.goto(f"{site}/lists/{game_list.slug}/")
    page.get_by_role("link", name=words["test"], exact=True).click()
    expect(page.locator("fieldset.weights input").first).to_be_visible()  # the form has loaded: all() does not wait
    for weight in page.locator("fieldset.weights input").all():
        weight.fill("0")
    page.locator(f'input[name="opponent-{planted.OPPONENT}"]').fill("1")
    page.locator('input[name="games"]').fill("1000")
    assert_nothing_covers_a_control(page, f"impact form {language} {width}")
    _no_sideways_scroll(page, f"impact form {language} {width}")
    shoot(page, f"impact-form-{language}-{width}")
    page.get_by_role("button", name=words["test"]).click()
    page.wait_for_url(f"{site}/simulations/**")
    run = SimulationRun.objects.get(kind="doctor")
    play_all(run)
    wait_for_the_finished_page(page)
    effects = page.locator("section.impact-effects")
    expect(effects.locator(".badge.effect")).to_have_text(words["effect"])
    expect(effects.locator("svg.impact-chart g")).to_have_count(3)
    expect(effects.locator("ol.impact-changes li").first).to_contain_text(words["helps"])
    expect(effects.locator("ol.impact-changes li").first).to_contain_text(words["grenadiers"])
    numbers = effects.locator("table.impact-numbers")
    expect(numbers).to_be_hidden()
    effects.get_by_text(words["numbers"], exact=True).click()
    expect(numbers).to_be_visible()
    expect(numbers.locator("tbody tr")).to_have_count(3)
    correlations = page.locator("section.impact-correlations")
    expect(correlations.locator(".badge.corr")).to_have_text(words["correlation"])
    expect(correlations.locator("tbody tr")).to_have_count(3)
    expect(effects.locator(".badge.corr")).to_have_count(0)
    assert_nothing_covers_a_control(page, f"impact result {language} {width}")
    _no_sideways_scroll(page, f"impact result {language} {width}")
    shoot(page, f"impact-result-{language}-{width}")
