"""What a new player reads, with the real pointer, at 1280 and 390 px: a private list's page offers to make it
unlisted before it shows a link; the "cards changed" notice is at the top of the list page and the editor, naming
the cards; "did you mean" offers only cards the section can take."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from builder import services
from tests.browser.conftest import log_in, shoot
from tests.browser.test_editor import COVER_CHECK
from tests.browser.test_flows import legal_hagmi



def looks_right(page) -> None:
    assert page.evaluate(COVER_CHECK) == []


def open_page(new_page, site: str, width: int, height: int, lang: str):
    page = new_page()
    page.set_viewport_size({"width": width, "height": height})
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": site}])
    return page


@pytest.mark.parametrize("width, height, lang", [(390, 844, "ja"), (1280, 900, "en")])  # both widths, both languages
def test_a_private_list_offers_to_become_unlisted_before_it_shows_a_link(site, new_page, make_user, width, height,
                                                                         lang):
    owner = make_user("pilot")
    game_list = services.list_create(owner=owner, document=legal_hagmi("非公開のデッキ"), visibility="private")
    page = open_page(new_page, site, width, height, lang)
    log_in(page, site, "pilot")
    page.goto(f"{site}/lists/{game_list.slug}/")
    expect(page.locator("#share-url")).to_have_count(0)  # no link that would give anyone else a 404
    note = page.locator("#share-private")
    expect(note).to_contain_text("非公開" if lang == "ja" else "private")
    looks_right(page)
    shoot(page, f"private-list-{lang}-{width}")
    page.get_by_role("button", name="限定公開にしてリンクを表示" if lang == "ja" else "Make it unlisted and show its link").click()
    link = page.locator("#share-url")
    expect(link).to_be_visible()
    expect(page.locator("#share-private")).to_have_count(0)
    looks_right(page)
    shoot(page, f"unlisted-list-{lang}-{width}")
    other = open_page(new_page, site, width, height, lang)  # anyone with the link, signed out
    response = other.goto(link.input_value())
    assert response.status == 200
    expect(other.locator("h1")).to_have_text("非公開のデッキ")


@pytest.mark.parametrize("width, height, lang", [(390, 844, "ja"), (1280, 900, "en")])  # both widths, both languages
def test_the_cards_changed_notice_is_in_view_at_the_top_and_opens_the_card(site, new_page, make_user, width,
                                                                           height, lang):
    from tests.web.test_card_changes import _new_version

    owner = make_user("pilot")
    game_list = services.list_create(owner=owner, document=legal_hagmi("変わったデッキ"), visibility="unlisted")
    _new_version()
    page = open_page(new_page, site, width, height, lang)
    log_in(page, site, "pilot")
    for address in (f"/lists/{game_list.slug}/edit/", f"/lists/{game_list.slug}/"):
        page.goto(f"{site}{address}")
        notice = page.locator("#card-changes")
        expect(notice).to_be_in_viewport()  # seen without scrolling, not folded at the bottom of the legality box
        expect(notice.get_by_role("heading")).to_contain_text("2")
        looks_right(page)
        shoot(page, f"card-changes-{address.count('/') == 4 and 'editor' or 'page'}-{lang}-{width}")
    notice.get_by_role("link", name="紅蓮丸" if lang == "ja" else "Guren-maru").first.click()
    expect(page).to_have_url(f"{site}/catalog/hagmi/HS-001/")


@pytest.mark.parametrize("width, height, lang", [(390, 844, "ja"), (1280, 900, "en")])  # both widths, both languages
def test_did_you_mean_offers_the_unit_the_deck_can_take_first_and_never_the_beast(site, new_page, make_user,
                                                                                 width, height, lang):
    from tests.browser.test_editor import draft, empty, open_editor, wait_idle

    page, _game_list = open_editor(new_page, site, make_user, empty("hagmi"), size=(width, height), language=lang)
    hint = page.locator("#quick-hint")
    expect(hint).to_contain_text("紅蓮" if lang == "ja" else "Guren")  # this game's own card, not "Supply"
    expect(page.locator("#paste-box label")).to_contain_text("紅蓮丸" if lang == "ja" else "Guren-maru")
    page.locator("#paste").click()
    page.locator("#paste").fill("1 ホウンド")
    page.locator('#paste-box button[value="paste"]').click()
    fixes = page.locator(".paste-problems button")
    expect(fixes.first).to_have_text("1 ハウンド (HS-009) にする" if lang == "ja" else "Use 1 ハウンド (HS-009)")
    for text in fixes.all_inner_texts():
        assert "双頭ハウンド" not in text
    looks_right(page)
    shoot(page, f"did-you-mean-{lang}-{width}")
    fixes.first.click()
    expect(page.locator(".paste-problems")).to_have_count(0)
    wait_idle(page)
    assert draft(page)["sections"]["weapons"] == [{"card": "HS-009", "qty": 1}]
