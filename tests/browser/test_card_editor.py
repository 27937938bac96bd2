"""The card editor in a browser: a data editor adds a HAGMI unit with a 2×2 firepower and an
on-attack skill — the checks run as they type, the preview draws the card — changes the firepower of a card a
player's list uses, and publishes the draft; the list's page then says the card changed. With the real pointer, at
1280 and 390 px, in English and Japanese: nothing covers a control and no page scrolls sideways
(HANGAR_SCREENSHOTS=/folder keeps a picture of each step)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from builder import services
from cards.drafts import editor_group
from cards.models import Card, PackageVersion
from tests.browser.conftest import WIDTH_AND_LANGUAGE, WIDTH_AND_LANGUAGE_IDS, log_in, shoot
from tests.browser.test_editor import assert_nothing_covers_a_control
from tests.web.conftest import hagmi_legal_doc

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {"nav": "Card editor", "new": "New card", "add_skill": "Add to Skills", "keep": "Keep in the draft",
           "ok": "No problem", "kept": "is in the draft",
           "publish": "Publish as version 2", "published": "Version 2 (2026.12.02) is published",
           "notice": "1 card changed in the catalog since this list was saved", "fired": "On attack"},
    "ja": {"nav": "カードエディタ", "new": "新しいカード", "add_skill": "スキル に追加", "keep": "下書きに保存",
           "ok": "問題はありません", "kept": "を下書きに入れました",
           "publish": "バージョン 2 として公開", "published": "バージョン 2(2026.12.02)を公開しました",
           "notice": "このリストの保存後にカタログで 1 枚のカードが変わりました", "fired": "攻撃時"},
}


def _check_page(page, size, language: str, step: str) -> None:
    assert_nothing_covers_a_control(page, f"card editor {step} {size[0]} {language}")
    shoot(page, f"card-editor-{step}-{size[0]}-{language}")


@pytest.mark.parametrize("size, language", WIDTH_AND_LANGUAGE, ids=WIDTH_AND_LANGUAGE_IDS)
def test_an_editor_adds_a_card_changes_one_a_list_uses_and_publishes(site, new_page, make_user, size, language):
    editor = make_user("curator")
    editor.groups.add(editor_group())
    player = make_user("player")
    game_list = services.list_create(owner=player, document=hagmi_legal_doc("Blue rush"), visibility="private")
    words = WORDS[language]
    page = new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(page, site, "curator")
    if size[0] >= 1000:
        page.get_by_role("link", name=words["nav"], exact=True).click()
    else:  # on a phone the header wraps; the link is there, the test goes straight to it
        page.goto(f"{site}/data/")
    expect(page).to_have_url(f"{site}/data/")
    page.locator("a[href='/data/hagmi/core/']").click()
    expect(page).to_have_url(f"{site}/data/hagmi/core/")
    _check_page(page, size, language, "draft-empty")

    # a new unit: the category first, then its fields
    page.locator("#new-kind").select_option("unit")
    page.get_by_role("button", name=words["new"], exact=True).click()
    expect(page.locator("#f-firepower")).to_be_visible()
    page.locator("#f-code").fill("HS-900")
    page.locator("#f-name").fill("試作機")
    page.locator("#f-name-en").fill("Prototype")
    page.locator("#f-frame").select_option("black")
    page.locator("#f-cost").fill("-1")  # below 0: the live check says so at the field
    page.locator("#f-pilot").fill("テスト")
    page.locator("input[name=types][value='強襲']").check()
    page.locator("#f-firepower").fill("2")
    page.locator("#f-firepower-attacks").fill("2")
    page.locator("#f-armor").fill("2")
    page.locator("#f-range").fill("1")
    page.locator("#f-fuel-cost").fill("1")
    page.locator("#f-targets").select_option("single")
    expect(page.locator("#card-problems a[href='#f-cost']")).to_be_visible()
    expect(page.locator("#f-cost-errors .error")).to_be_visible()
    page.locator("#f-cost").fill("2")
    expect(page.locator("#f-cost-errors .error")).to_have_count(0)
    expect(page.locator("#card-ok")).to_contain_text(words["ok"])
    expect(page.locator(".card-preview")).to_contain_text("2×2")
    # a skill: a row, then its kind (the form draws the kind's parameters), then the parameters
    page.get_by_role("button", name=words["add_skill"], exact=True).click()
    page.locator("#f-skills-0-kind").select_option("deal_damage")
    expect(page.locator("#f-skills-0-amount")).to_be_visible()
    assert page.locator("#f-firepower-attacks").input_value() == "2"  # the redraw kept what was typed
    page.locator("#f-skills-0-trigger").select_option("on_attack")
    page.locator("#f-skills-0-amount").fill("1")
    page.locator("#f-skills-0-target").select_option("opponent")
    expect(page.locator("#card-ok")).to_contain_text(words["ok"])
    expect(page.locator(".card-preview")).to_contain_text(words["fired"])
    _check_page(page, size, language, "new-card")
    page.get_by_role("button", name=words["keep"], exact=True).click()
    expect(page).to_have_url(f"{site}/data/hagmi/core/")
    expect(page.locator("ul.messages")).to_contain_text(words["kept"])
    assert not Card.objects.filter(code="HS-900").exists()  # in the draft, not yet in the catalog

    # a card the player's list uses: firepower 3 becomes 2 × 2
    page.locator("a[href='/data/hagmi/core/cards/HS-001/']").click()
    page.locator("#f-firepower").fill("2")
    page.locator("#f-firepower-attacks").fill("2")
    _check_page(page, size, language, "edit-card")
    page.get_by_role("button", name=words["keep"], exact=True).click()
    expect(page).to_have_url(f"{site}/data/hagmi/core/")
    _check_page(page, size, language, "draft")
    page.locator("#version-label").fill("2026.12.02")
    page.get_by_role("button", name=words["publish"], exact=True).click()
    expect(page).to_have_url(f"{site}/catalog/hagmi/packages/core/")
    expect(page.locator("ul.messages")).to_contain_text(words["published"])
    _check_page(page, size, language, "published")
    assert Card.objects.get(code="HS-900").data["firepower"] == "2x2"
    assert Card.objects.get(code="HS-001").data["firepower"] == "2x2"
    assert PackageVersion.objects.filter(slug="core").order_by("-number").first().published_by_id == editor.pk

    # the player's list says its card changed
    other = new_page()
    other.set_viewport_size({"width": size[0], "height": size[1]})
    other.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(other, site, "player")
    other.goto(f"{site}/lists/{game_list.slug}/")
    expect(other.locator("body")).to_contain_text(words["notice"])
    _check_page(other, size, language, "list-notice")
