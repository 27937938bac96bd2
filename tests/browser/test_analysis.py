"""Positions in a browser: the analysis page loads an example of each game, an action is played with the
real pointer, games are simulated from the position; on a replay, "from this turn on" follows the step control and
"Simulate from here" shows the odds beside the run's. At 1280 and 390 px, in English and Japanese: nothing covers a
control and no page scrolls sideways."""
from __future__ import annotations


import pytest
from playwright.sync_api import expect

from tests.browser.conftest import WIDTH_AND_LANGUAGE, WIDTH_AND_LANGUAGE_IDS, log_in, shoot
from tests.browser.test_editor import assert_nothing_covers_a_control
from tests.browser.test_replays import finished_run
from tests.support.simulations import play_all, published  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

SIMULATE = {"en": "Simulate from here", "ja": "ここからシミュレーション"}
NEXT = {"en": "Next turn", "ja": "次のターン"}


@pytest.mark.parametrize("size, language", WIDTH_AND_LANGUAGE, ids=WIDTH_AND_LANGUAGE_IDS)
@pytest.mark.parametrize("game", ["hagmi", "mwda", "warcaster"])
def test_an_example_position_plays_an_action_and_simulates(site, new_page, published, game, size, language):  # noqa: F811
    page = new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    page.goto(f"{site}/analysis/?example={game}")
    moves = page.locator(".analysis-actions .moves button")
    count = moves.count()
    assert count >= 2
    assert_nothing_covers_a_control(page, f"analysis {game} {size[0]} {language}")
    shoot(page, f"analysis-{game}-{size[0]}-{language}")
    chosen = moves.nth(1).inner_text()  # not the first: a pass or a wait reports nothing
    moves.nth(1).click()  # the real pointer: plays that action
    expect(page.locator(".analysis-events")).to_be_visible()
    expect(page.locator("h2#analysis-title")).to_be_visible()
    assert page.locator(".analysis-events li").count() >= 1, f"{chosen} logged no event worth a sentence"
    page.get_by_role("spinbutton").first.fill("3")
    page.get_by_role("button", name=SIMULATE[language], exact=True).click()
    expect(page.locator(".analysis-summary")).to_be_visible()
    assert_nothing_covers_a_control(page, f"analysis {game} {size[0]} {language} after simulating")
    shoot(page, f"analysis-{game}-{size[0]}-{language}-simulated")


@pytest.mark.parametrize("size, language", WIDTH_AND_LANGUAGE, ids=WIDTH_AND_LANGUAGE_IDS)
def test_simulate_from_a_replays_turn(site, new_page, make_user, published, size, language):  # noqa: F811
    owner = make_user("pilot")
    run = finished_run(owner, "mwda")
    page = new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(page, site, "pilot")
    page.goto(f"{site}/simulations/{run.public_id}/games/1/")
    step = page.locator("#from-here-step")
    expect(step).to_have_value("0")  # the step control starts at the first turn and the form follows it
    page.get_by_role("button", name=NEXT[language], exact=True).click()
    page.get_by_role("button", name=NEXT[language], exact=True).click()
    expect(step).to_have_value("2")
    page.locator("#from-here-games").fill("4")
    page.get_by_role("button", name=SIMULATE[language], exact=True).click()
    result = page.locator("#from-here-result .from-here-compare")
    expect(result).to_be_visible()
    expect(result.locator(".analysis-summary")).to_have_count(2)  # from here, and the whole run
    assert_nothing_covers_a_control(page, f"from here {size[0]} {language}")
    shoot(page, f"from-here-{size[0]}-{language}")
    with page.expect_navigation():
        page.get_by_role("button", name={"en": "Analyse this turn", "ja": "このターンを分析"}[language]).click()
    expect(page.locator(".analysis-actions")).to_be_visible()
    assert_nothing_covers_a_control(page, f"analysis of a replay's turn {size[0]} {language}")


OVER = {"en": "a page may play", "ja": "ページで実行できる上限"}


@pytest.mark.parametrize("size, language", WIDTH_AND_LANGUAGE, ids=WIDTH_AND_LANGUAGE_IDS)
def test_games_over_the_pages_budget_are_refused_on_the_form(site, new_page, size, language):
    """500 Warcaster games are over the 1 s a page may play (docs/api.md "Engine work budgets"): the form says so
    in the page's language, with the position still there to try fewer."""
    page = new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    page.goto(f"{site}/analysis/?example=warcaster")
    page.get_by_role("spinbutton").first.fill("500")
    page.get_by_role("button", name=SIMULATE[language], exact=True).click()
    expect(page.get_by_text(OVER[language])).to_be_visible()
    expect(page.locator(".analysis-actions")).to_be_visible()  # the position stays, to simulate fewer games
    assert_nothing_covers_a_control(page, f"analysis over budget {size[0]} {language}")
    shoot(page, f"analysis-over-budget-{size[0]}-{language}")
