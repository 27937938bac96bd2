"""A player chooses lists, starts a matchup matrix and reads the heat map, sorts it by an opponent, opens the numbers;
then asks what beats a list and reads the ranking: with the real pointer, on a phone and on a desktop, in Japanese
and English."""
from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from builder import selectors, services
from builder.models import MatchupMatrix
from tests.browser.conftest import log_in, shoot, wait_for_the_finished_page
from tests.browser.test_editor import assert_nothing_covers_a_control
from tests.browser.test_results import _no_sideways_scroll
from tests.support.showcase import PACKAGES
from tests.support.simulations import play_all, published  # noqa: F401  (chunks played here, not by workers)

WORDS = {
    "en": {"matrix": "Matchup matrix", "start": "Start the matrix", "numbers": "Numbers", "beats": "What beats this list",
           "find": "Find what beats it", "worst": "Opponents, the worst matchup first"},
    "ja": {"matrix": "対戦表", "start": "対戦表を始める", "numbers": "数値", "beats": "このリストの苦手な相手",
           "find": "苦手な相手を調べる", "worst": "対戦相手（苦手な順）"},
}


def _list(owner, filename: str, visibility: str = "private"):
    document = json.loads((PACKAGES / "hagmi" / "lists" / filename).read_text(encoding="utf-8"))
    return services.list_create(owner=owner, document=document, visibility=visibility)


def _play(matrix) -> None:
    for cell in selectors.matrix_cells(matrix):
        if cell.run.is_active:
            play_all(cell.run)


def _checked(page, where: str) -> None:
    assert_nothing_covers_a_control(page, where)
    _no_sideways_scroll(page, where)


@pytest.mark.parametrize("language, width", [("ja", 390), ("en", 1280)])  # both widths, both languages
def test_a_player_starts_a_matrix_and_reads_the_heat_map(site, new_page, make_user, published, language, width):
    owner = make_user("matrix")
    first = _list(owner, "akane-assault.json")
    _list(owner, "hibari-skirmish.json")
    words = WORDS[language]
    page = new_page()
    page.set_viewport_size({"width": width, "height": 844})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(page, site, "matrix")
    page.goto(f"{site}/lists/{first.slug}/")
    page.get_by_role("link", name=words["matrix"], exact=True).click()
    boxes = page.locator('fieldset.matrix-rows input[type="checkbox"]')
    expect(boxes).to_have_count(2)
    for label in page.locator("fieldset.matrix-rows label").all():
        label.click()  # the real pointer, on the words
    expect(page.locator('fieldset.matrix-rows input[type="checkbox"]:checked')).to_have_count(2)
    for weight in page.locator("fieldset.weights input").all():
        weight.fill("0")
    page.locator('input[name="opponent-sample-vanguard"]').fill("2")
    page.locator('input[name="opponent-sample-fortress"]').fill("1")
    page.locator('input[name="games"]').fill("4")
    _checked(page, f"matrix form {language} {width}")
    shoot(page, f"matrix-form-{language}-{width}")
    page.get_by_role("button", name=words["start"]).click()
    page.wait_for_url(f"{site}/matrices/**")
    matrix = MatchupMatrix.objects.get(owner=owner)
    assert len(matrix.rows) == 2 and sorted(c["key"] for c in matrix.columns) == ["sample-fortress", "sample-vanguard"]
    _play(matrix)
    wait_for_the_finished_page(page)
    expect(page.locator("table.heat-map tbody tr")).to_have_count(2)
    expect(page.locator("table.heat-map td.heat small.interval")).to_have_count(6)  # 4 cells and 2 totals
    _checked(page, f"matrix {language} {width}")
    shoot(page, f"matrix-{language}-{width}")
    header = page.locator("table.heat-map thead a.sort").first
    header.click()  # sort the lists by the first opponent, best first
    page.wait_for_url("**rows=rate:*")
    rates = [float(text.rstrip("%")) for text in
             page.locator("table.heat-map tbody tr td:nth-child(2) .rate").all_inner_texts()]
    assert rates == sorted(rates, reverse=True)
    page.get_by_text(words["numbers"], exact=True).click()
    expect(page.locator("details.matrix-numbers tbody tr")).to_have_count(4)
    _checked(page, f"matrix numbers {language} {width}")


@pytest.mark.parametrize("language, width", [("en", 390), ("ja", 1280)])
def test_a_player_asks_what_beats_a_list(site, new_page, make_user, published, language, width):
    owner = make_user("beaten")
    rival = make_user("rival")
    mine = _list(owner, "akane-assault.json")
    theirs = _list(rival, "shizuku-artillery.json", visibility="public")
    secret = _list(rival, "hibari-skirmish.json", visibility="private")
    words = WORDS[language]
    page = new_page()
    page.set_viewport_size({"width": width, "height": 844})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(page, site, "beaten")
    page.goto(f"{site}/lists/{mine.slug}/")
    page.get_by_role("link", name=words["beats"], exact=True).click()
    page.locator('input[name="games"]').fill("4")
    _checked(page, f"beats form {language} {width}")
    page.get_by_role("button", name=words["find"]).click()
    page.wait_for_url(f"{site}/matrices/**")
    matrix = MatchupMatrix.objects.get(owner=owner)
    keys = [column["key"] for column in matrix.columns]
    assert f"list:{theirs.slug}" in keys and f"list:{secret.slug}" not in keys
    _play(matrix)
    wait_for_the_finished_page(page)
    expect(page.get_by_role("heading", name=words["worst"])).to_be_visible()
    expect(page.locator("table.beats tbody tr")).to_have_count(len(keys))
    expect(page.locator(f'table.beats a[href="/lists/{theirs.slug}/"]')).to_have_count(1)
    _checked(page, f"beats {language} {width}")
    shoot(page, f"beats-{language}-{width}")
    replay = page.locator('table.beats a[href*="/games/"]').first
    if replay.count():
        replay.click()
        page.wait_for_url("**/games/**")


MORE = {
    "en": {"simulations": "Your matchup matrices", "beats": "What beats this list", "find": "Find what beats it",
           "start": "Start the matrix"},
    "ja": {"simulations": "自分の対戦表", "beats": "このリストの苦手な相手", "find": "苦手な相手を調べる",
           "start": "対戦表を始める"},
}


@pytest.mark.parametrize("language, width", [("ja", 390), ("en", 1280)])
def test_a_player_plays_a_named_field_in_a_matrix_and_in_what_beats_a_list(site, new_page, make_user, published,
                                                                         language, width):
    owner = make_user("fielder")
    rival = make_user("rival")
    first = _list(owner, "akane-assault.json")
    secret = _list(rival, "shizuku-artillery.json", visibility="private")
    field = services.field_create(owner=rival, system="hagmi", name="Store meta", visibility="public", entries=[
        {"opponent": "sample-vanguard", "weight": 2}, {"list": secret.slug}])
    words = {**WORDS[language], **MORE[language]}
    page = new_page()
    page.set_viewport_size({"width": width, "height": 844})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(page, site, "fielder")
    page.goto(f"{site}/lists/{first.slug}/")
    page.get_by_role("link", name=words["matrix"], exact=True).click()
    page.locator("fieldset.matrix-rows label").first.click()
    for weight in page.locator("fieldset.weights input").all():
        weight.fill("0")
    select = page.locator('select[name="field"]')
    select.click()  # the real pointer opens it; the option is then chosen as a player does
    select.select_option(field.slug)
    page.keyboard.press("Escape")
    page.locator('input[name="games"]').fill("4")
    _checked(page, f"matrix field form {language} {width}")
    shoot(page, f"matrix-field-form-{language}-{width}")
    page.get_by_role("button", name=words["start"]).click()
    page.wait_for_url(f"{site}/matrices/**")
    matrix = MatchupMatrix.objects.get(owner=owner)
    assert [column["key"] for column in matrix.columns] == ["sample-vanguard"]  # the rival's private list: never
    _play(matrix)
    page.goto(f"{site}/simulations/")
    page.get_by_role("link", name=words["simulations"], exact=True).click()
    page.wait_for_url(f"{site}/matrices/mine/")
    expect(page.locator(f'#my-matrices a[href="/matrices/{matrix.public_id}/"]')).to_have_count(1)
    _checked(page, f"my matrices {language} {width}")
    shoot(page, f"matrices-mine-{language}-{width}")
    page.goto(f"{site}/lists/{first.slug}/")
    page.get_by_role("link", name=words["beats"], exact=True).click()
    select = page.locator('select[name="field"]')
    select.click()
    select.select_option(field.slug)
    page.keyboard.press("Escape")
    page.locator('input[name="games"]').fill("4")
    _checked(page, f"beats field form {language} {width}")
    shoot(page, f"beats-field-form-{language}-{width}")
    page.get_by_role("button", name=words["find"]).click()
    page.wait_for_url(f"{site}/matrices/**")
    beats = MatchupMatrix.objects.filter(owner=owner, kind="beats").get()
    assert [column["key"] for column in beats.columns] == ["sample-vanguard"]
