"""A player makes a field of the opponents they expect (a sample deck and one of their lists, with weights), reads
its shares, and plays a list against it in a gauntlet, with the real pointer, on a phone and on a desktop, in
Japanese and English."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from builder.models import OpponentField, SimulationRun
from tests.browser.conftest import log_in, shoot, wait_for_the_finished_page
from tests.browser.test_batches import _list
from tests.browser.test_editor import assert_nothing_covers_a_control
from tests.browser.test_results import _no_sideways_scroll
from tests.support.simulations import play_all, published  # noqa: F401  (chunks played here, not by workers)

WORDS = {
    "en": {"fields": "Fields: the opponents you expect to meet, for a gauntlet, the list doctor or a matrix",
           "new": "New field", "game": "HAGMI!", "name": "Field name", "save": "Save the field",
           "vanguard": "Sample deck: Vanguard", "play": "Play one of your lists against this field",
           "gauntlet": "Gauntlet", "start": "Start the gauntlet", "total": "Weighted total", "public": "Public",
           "again": "Answered from an earlier run of the same question", "all": "All fields"},
    "ja": {"fields": "フィールド：ガントレット、リスト診断、対戦表で使う、当たると予想する対戦相手の組",
           "new": "新しいフィールド", "game": "HAGMI!", "name": "フィールド名", "save": "フィールドを保存",
           "vanguard": "見本デッキ：前衛", "play": "自分のリストをこのフィールドと対戦させる",
           "gauntlet": "ガントレット", "start": "ガントレットを始める", "total": "重みつき合計", "public": "公開",
           "again": "同じ問いの以前の実行から答えました", "all": "すべてのフィールド"},
}


def check(page, what: str) -> None:
    assert_nothing_covers_a_control(page, what)
    _no_sideways_scroll(page, what)


@pytest.mark.parametrize("language, width", [("ja", 390), ("en", 1280)])  # both widths, both languages
def test_a_player_makes_a_field_and_plays_a_gauntlet_against_it(site, new_page, make_user, published, language,
                                                                width):
    owner = make_user("meta")
    game_list = _list(owner)
    wall = _list(owner)
    wall.name = "Red wall"
    wall.save(update_fields=["name"])
    words = WORDS[language]
    page = new_page()
    page.set_viewport_size({"width": width, "height": 844})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(page, site, "meta")
    page.goto(f"{site}/simulations/")
    page.get_by_role("link", name=words["fields"]).click()
    page.get_by_role("link", name=words["new"], exact=True).click()
    page.get_by_role("link", name=words["game"]).click()
    page.get_by_label(words["name"]).fill("Store league")
    page.locator("#id_visibility").select_option("public")
    page.get_by_label(words["vanguard"], exact=True).fill("3")
    page.locator(f'input[name="list-{wall.slug}"]').fill("1")
    check(page, f"field form {language} {width}")
    shoot(page, f"field-form-{language}-{width}")
    page.get_by_role("button", name=words["save"]).click()
    field = OpponentField.objects.get()
    page.wait_for_url(f"{site}/fields/{field.slug}/")
    rows = page.locator("table.field-entries tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("75 %")
    expect(rows.nth(1)).to_contain_text("Red wall")
    expect(rows.nth(1)).to_contain_text("25 %")
    check(page, f"field page {language} {width}")
    shoot(page, f"field-page-{language}-{width}")
    page.get_by_text(words["play"]).click()
    page.locator("details.use-field li", has_text=game_list.name).get_by_role(
        "link", name=words["gauntlet"], exact=True).click()
    page.wait_for_url(f"{site}/lists/{game_list.slug}/gauntlet/?field={field.slug}")
    expect(page.locator("#id_field")).to_have_value(field.slug)
    check(page, f"gauntlet with a field {language} {width}")
    shoot(page, f"field-gauntlet-form-{language}-{width}")
    page.get_by_role("button", name=words["start"]).click()
    page.wait_for_url(f"{site}/simulations/**")
    run = SimulationRun.objects.get(kind="gauntlet")
    assert [leg["weight"] for leg in run.snapshot["legs"]] == [3, 1]
    play_all(run)
    wait_for_the_finished_page(page)
    expect(page.locator("table.gauntlet tbody tr")).to_have_count(2)
    expect(page.locator("table.gauntlet")).to_contain_text("Red wall")
    expect(page.locator("table.gauntlet")).to_contain_text(words["vanguard"])
    expect(page.locator("table.gauntlet tfoot")).to_contain_text(words["total"])
    check(page, f"field gauntlet result {language} {width}")
    shoot(page, f"field-gauntlet-result-{language}-{width}")
    # the same question again: answered by that run, nothing queued, and the page says so
    page.goto(f"{site}/lists/{game_list.slug}/gauntlet/?field={field.slug}")
    page.get_by_role("button", name=words["start"]).click()
    page.wait_for_url(f"{site}/simulations/{run.public_id}/")
    expect(page.locator("ul.messages")).to_contain_text(words["again"])
    assert SimulationRun.objects.count() == 1
    check(page, f"answered again {language} {width}")
    shoot(page, f"field-gauntlet-again-{language}-{width}")
    page.goto(f"{site}/fields/{field.slug}/")
    page.get_by_role("link", name=words["all"]).click()
    expect(page.locator("table.fields")).to_contain_text("Store league")
    check(page, f"fields index {language} {width}")
    shoot(page, f"fields-index-{language}-{width}")


@pytest.mark.parametrize("language, width", [("ja", 390), ("en", 1280)])
def test_another_player_plays_a_shared_field_without_its_private_list_and_is_answered_from_a_stored_run(
        site, new_page, make_user, published, language, width):
    """The owner's public field holds their private list: another player sees a note instead of it, and their
    gauntlet against the field asks what the owner's finished run asked, so it is answered from that run at once."""
    from builder import services

    owner, player = make_user("owner1"), make_user("player1")
    secret = _list(owner)
    secret.name = "Secret plan"
    secret.save(update_fields=["name"])
    field = services.field_create(owner=owner, system="hagmi", name="Open league", visibility="public", entries=[
        {"opponent": "sample-vanguard", "weight": 2}, {"list": secret.slug}])
    mine, theirs = _list(owner), _list(player)  # the same cards and name: the same question
    earlier = services.gauntlet_start(user=owner, game_list=mine, games=500, seed=1,
                                      opponents=[{"opponent": "sample-vanguard", "weight": 2}])
    play_all(earlier)
    page = new_page()
    page.set_viewport_size({"width": width, "height": 844})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(page, site, "player1")
    page.goto(f"{site}/fields/{field.slug}/")
    expect(page.locator("#hidden-entries")).to_be_visible()
    expect(page.locator("body")).not_to_contain_text("Secret plan")
    expect(page.locator("table.field-entries tbody tr")).to_have_count(1)
    check(page, f"shared field {language} {width}")
    shoot(page, f"field-shared-{language}-{width}")
    page.get_by_text(WORDS[language]["play"]).click()
    page.locator("details.use-field li").first.get_by_role("link", name=WORDS[language]["gauntlet"],
                                                           exact=True).click()
    page.get_by_role("button", name=WORDS[language]["start"]).click()
    page.wait_for_url(f"{site}/simulations/**")
    copy = SimulationRun.objects.get(owner=player)
    assert copy.reused_from_id == earlier.pk and copy.status == "done"  # nothing queued, nothing played
    expect(page.locator("#reused-from")).to_contain_text(WORDS[language]["again"])
    page.locator("#reused-from a").click()
    page.wait_for_url(f"{site}/simulations/{earlier.public_id}/")
    page.go_back()
    check(page, f"answered from a stored run {language} {width}")
    shoot(page, f"field-reused-{language}-{width}")
    assert theirs.name  # the player's list played the field
