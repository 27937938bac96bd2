"""A player runs a list doctor and a gauntlet from the list page and applies the confirmed change, with the real
pointer, on a phone and on a desktop, in Japanese and English."""
from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from builder import services
from builder.models import ListRevision, SimulationRun
from tests.browser.conftest import log_in, shoot, wait_for_the_finished_page
from tests.browser.test_editor import assert_nothing_covers_a_control
from tests.browser.test_results import _no_sideways_scroll
from tests.support import planted
from tests.support.showcase import PACKAGES
from tests.support.simulations import play_all, published  # noqa: F401  (chunks played here, not by workers)

WORDS = {
    "en": {"doctor": "List doctor", "gauntlet": "Gauntlet", "start_doctor": "Start the list doctor",
           "start_gauntlet": "Start the gauntlet", "apply": "Apply", "total": "Weighted total",
           "saved": "The change is saved as revision 2 of the list.", "vanguard": "Sample deck: Vanguard",
           "decoy": "Decoy Tank"},
    "ja": {"doctor": "リスト診断", "gauntlet": "ガントレット", "start_doctor": "リスト診断を始める",
           "start_gauntlet": "ガントレットを始める", "apply": "適用", "total": "重みつき合計",
           "saved": "変更をリストの第2版として保存しました。", "vanguard": "見本デッキ：前衛",
           "decoy": "囮戦車"},
}


def _list(owner, visibility: str = "private"):
    document = json.loads((PACKAGES / "hagmi" / "lists" / "akane-assault.json").read_text(encoding="utf-8"))
    return services.list_create(owner=owner, document=document, visibility=visibility)


@pytest.mark.parametrize("language, width", [("ja", 390), ("en", 1280)])  # both widths, both languages
def test_a_player_runs_the_doctor_and_applies_the_confirmed_change(site, new_page, make_user, published, language,
                                                                    width):
    """The planted decoy (tests/support/planted.py): too few games are refused in words next to the field; with
    enough, the result shows the stages, the decoy first among the units to cut, a verdict per change and Apply on
    the confirmed swap back only; applying it saves revision 2."""
    from cards.services import package_import

    package_import(planted.mwda_package(), source="tests/support/planted")
    owner = make_user("doc")
    game_list = services.list_create(owner=owner, document=planted.weak_army(), visibility="private")
    words = WORDS[language]
    page = new_page()
    page.set_viewport_size({"width": width, "height": 844})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(page, site, "doc")
    page.goto(f"{site}/lists/{game_list.slug}/")
    page.get_by_role("link", name=words["doctor"], exact=True).click()
    expect(page.locator("fieldset.weights input").first).to_be_visible()  # the form has loaded: all() does not wait
    for weight in page.locator("fieldset.weights input").all():
        weight.fill("0")
    page.locator(f'input[name="opponent-{planted.OPPONENT}"]').fill("1")
    page.locator('input[name="changes"]').fill("3")
    page.locator('input[name="games"]').fill("40")
    page.get_by_role("button", name=words["start_doctor"]).click()
    expect(page.locator("ul.field-errors")).to_contain_text("1000")
    assert_nothing_covers_a_control(page, f"doctor refusal {language} {width}")
    _no_sideways_scroll(page, f"doctor refusal {language} {width}")
    shoot(page, f"doctor-refusal-{language}-{width}")
    page.locator('input[name="games"]').fill("1000")
    assert_nothing_covers_a_control(page, f"doctor form {language} {width}")
    _no_sideways_scroll(page, f"doctor form {language} {width}")
    shoot(page, f"doctor-form-{language}-{width}")
    page.get_by_role("button", name=words["start_doctor"]).click()
    page.wait_for_url(f"{site}/simulations/**")
    run = SimulationRun.objects.get(kind="doctor")
    play_all(run)
    wait_for_the_finished_page(page)
    changes = page.locator("li.doctor-change")
    expect(changes).to_have_count(3)
    expect(page.locator("table.doctor-stages tbody tr")).to_have_count(2)
    expect(page.locator("ul.doctor-unused")).to_contain_text(words["decoy"])
    expect(page.locator("p.correction")).to_contain_text("Holm")
    expect(page.get_by_role("button", name=words["apply"])).to_have_count(1)
    assert_nothing_covers_a_control(page, f"doctor result {language} {width}")
    _no_sideways_scroll(page, f"doctor result {language} {width}")
    shoot(page, f"doctor-result-{language}-{width}")
    changes.first.get_by_role("button", name=words["apply"]).click()
    page.wait_for_url(f"{site}/lists/{game_list.slug}/")
    expect(page.get_by_text(words["saved"])).to_be_visible()
    assert ListRevision.objects.filter(game_list=game_list).count() == 2


@pytest.mark.parametrize("language, width", [("en", 390), ("ja", 1280)])
def test_a_player_runs_a_gauntlet_and_reads_the_weighted_total(site, new_page, make_user, published, language,
                                                                width):
    owner = make_user("gaunt")
    game_list = _list(owner)
    theirs = _list(make_user("rival"), visibility="public")  # a gallery list of another player: one more row
    words = WORDS[language]
    page = new_page()
    page.set_viewport_size({"width": width, "height": 844})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(page, site, "gaunt")
    page.goto(f"{site}/lists/{game_list.slug}/")
    page.get_by_role("link", name=words["gauntlet"], exact=True).click()
    expect(page.locator("fieldset.weights input").first).to_be_visible()  # the form has loaded: all() does not wait
    fields = page.locator("fieldset.weights input")
    for index in range(fields.count()):
        fields.nth(index).fill("1")
    page.get_by_role("button", name=words["start_gauntlet"]).click()
    page.wait_for_url(f"{site}/simulations/**")
    run = SimulationRun.objects.get(kind="gauntlet")
    play_all(run)
    wait_for_the_finished_page(page)
    expect(page.locator("table.gauntlet tbody tr")).to_have_count(6)
    expect(page.locator("table.gauntlet")).to_contain_text(theirs.name)
    expect(page.locator("table.gauntlet tfoot")).to_contain_text(words["total"])
    expect(page.locator("table.gauntlet")).to_contain_text(words["vanguard"])
    assert_nothing_covers_a_control(page, f"gauntlet result {language} {width}")
    _no_sideways_scroll(page, f"gauntlet result {language} {width}")
    shoot(page, f"gauntlet-result-{language}-{width}")
