"""Replays in a browser: a game of each system (HAGMI, MWDA, Warcaster) steps forward and back with the
real pointer at 1280 and 390 px in English and Japanese; the step label, the board or table and the report follow;
nothing covers a control and the page never scrolls sideways. Without JavaScript the final board shows."""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from builder import services
from tests.browser.conftest import WIDTH_AND_LANGUAGE, WIDTH_AND_LANGUAGE_IDS, log_in
from tests.browser.test_editor import assert_nothing_covers_a_control
from tests.support.simulations import play_all, published  # noqa: F401  (records chunk messages)

pytestmark = pytest.mark.django_db(transaction=True)

PACKAGES = Path(__file__).resolve().parents[2] / "cards" / "packages"
GAMES = {"hagmi": ("akane-assault", "sample-vanguard"), "coop": ("hibari-skirmish", "coop-ironshell-cradle"),
         "mwda": ("highland-line", "steel-wolves-pack"), "warcaster": ("isa-starsteel-vanguard", "marcher-dust-raiders")}
SCREENSHOTS = os.environ.get("HANGAR_SCREENSHOTS", "")
NEXT = {"en": "Next turn", "ja": "次のターン"}
PREVIOUS = {"en": "Previous turn", "ja": "前のターン"}
LAST = {"en": "Last turn", "ja": "最後のターン"}
EVERY = {"en": "Show the report of every turn", "ja": "全ターンの記録を表示"}


def finished_run(owner, game: str):
    list_name, opponent = GAMES[game]
    system = "hagmi" if game == "coop" else game
    document = json.loads((PACKAGES / system / "lists" / f"{list_name}.json").read_text(encoding="utf-8"))
    game_list = services.list_create(owner=owner, document=document)
    run = services.simulation_start(user=owner, game_list=game_list, opponent_slug=opponent, policy="greedy",
                                    games=2, seed=7)
    play_all(run)
    return run


def label(page) -> str:
    return page.locator("#replay-turn-label").inner_text()


def visible_step(page) -> int:
    """The index of the report's turn shown (the one not hidden)."""
    return page.evaluate("""() => [...document.querySelectorAll('.replay-log li[data-frame]')]
                                   .filter((li) => !li.hidden).map((li) => Number(li.dataset.frame))[0]""")


@pytest.mark.parametrize("size, language", WIDTH_AND_LANGUAGE, ids=WIDTH_AND_LANGUAGE_IDS)
@pytest.mark.parametrize("game", ["hagmi", "coop", "mwda", "warcaster"])
def test_a_replay_steps_forward_and_back(site, new_page, make_user, published, game, size, language):  # noqa: F811
    owner = make_user("pilot")
    run = finished_run(owner, game)
    page = new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(page, site, "pilot")
    page.goto(f"{site}/simulations/{run.public_id}/games/1/")
    controls = page.locator(".replay-controls")
    expect(controls).to_be_visible()
    steps = page.locator(".replay-log li[data-frame]").count()
    assert steps >= 3
    first = page.locator('.replay-log li[data-frame="0"] h3').inner_text()
    assert label(page) == f"{first} (1/{steps})" and visible_step(page) == 0
    assert first == ("Setup" if language == "en" else "準備")
    assert_nothing_covers_a_control(page, f"{game} {size[0]} {language}")

    page.get_by_role("button", name=NEXT[language], exact=True).click()
    second = page.locator('.replay-log li[data-frame="1"] h3').inner_text()
    if game in ("hagmi", "coop"):
        assert second.startswith("Turn 1 (" if language == "en" else "ターン1（")
    else:
        assert second.startswith("Round 1 · Turn 1 (" if language == "en" else "ラウンド1・ターン1（")
    expect(page.locator("#replay-turn-label")).to_have_text(f"{second} (2/{steps})")
    assert visible_step(page) == 1
    if game in ("hagmi", "coop"):
        expect(page.locator('[data-board-frame="1"]')).to_be_visible()
        expect(page.locator('[data-board-frame="0"]')).to_be_hidden()
        expect(page.locator(f'[data-board-frame="{steps - 1}"]')).to_be_hidden()
    else:
        expect(page.locator(".replay-table [data-piece]").first).to_be_attached()

    page.get_by_role("button", name=PREVIOUS[language], exact=True).click()
    expect(page.locator("#replay-turn-label")).to_have_text(f"{first} (1/{steps})")
    assert visible_step(page) == 0

    page.get_by_role("button", name=LAST[language], exact=True).click()
    last = page.locator(f'.replay-log li[data-frame="{steps - 1}"] h3').inner_text()
    expect(page.locator("#replay-turn-label")).to_have_text(f"{last} ({steps}/{steps})")
    if game in ("hagmi", "coop"):
        board = page.locator(f'[data-board-frame="{steps - 1}"]')
        expect(board).to_be_visible()
        expect(board.locator(".board-side.side-0 .board-counts")).to_contain_text("Hand" if language == "en" else "手札")
        if game == "coop":
            expect(board).to_contain_text("Mothership cores" if language == "en" else "母艦の機獣核")
    else:  # the table redrawn for the last turn: every piece where the final frame put it
        legend = page.locator(".replay-legend li:not([hidden])")
        assert legend.count() >= 2
        expect(legend.first.locator(".legend-health")).to_have_text(re.compile(r"^\d+/\d+$"))
    page.get_by_role("button", name=PREVIOUS[language], exact=True).click()
    expect(page.locator("#replay-turn-label")).to_contain_text(f"({steps - 1}/{steps})")
    assert_nothing_covers_a_control(page, f"{game} {size[0]} {language} after stepping")
    page.get_by_label(EVERY[language]).check()  # the whole report again, the current turn marked
    expect(page.locator(".replay-log li[data-frame]:not([hidden])")).to_have_count(steps)
    expect(page.locator(".replay-log li.current")).to_have_attribute("data-frame", str(steps - 2))
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SCREENSHOTS) / f"replay-{game}-{size[0]}-{language}.png"), full_page=True)


def test_without_javascript_the_final_board_and_the_whole_report_show(site, new_page, make_user, published):  # noqa: F811
    owner = make_user("pilot")
    run = finished_run(owner, "hagmi")
    page = new_page(java_script_enabled=False)
    log_in(page, site, "pilot")
    page.goto(f"{site}/simulations/{run.public_id}/games/0/")
    steps = page.locator(".replay-log li[data-frame]").count()
    expect(page.locator(".replay-controls")).to_be_hidden()
    expect(page.locator(f'[data-board-frame="{steps - 1}"]')).to_be_visible()
    expect(page.locator('[data-board-frame="0"]')).to_be_hidden()
    for index in range(steps):
        expect(page.locator(f'.replay-log li[data-frame="{index}"]')).to_be_visible()
