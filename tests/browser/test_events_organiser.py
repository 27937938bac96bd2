"""An organiser runs the list side of an event with the real pointer, on a phone and on a desktop, in Japanese and
English: the organiser's page (a legal list, an illegal one, a player without one), the lock, then publication; a
player's sheet and the printable pack."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from builder import event_selectors as events
from builder import services
from builder.models import Event
from builder.services import events as event_services
from tests.browser.conftest import log_in, shoot
from tests.browser.test_editor import assert_nothing_covers_a_control
from tests.browser.test_results import _no_sideways_scroll
from tests.events.conftest import event_data, hagmi_doc

WORDS = {
    "en": {"lock": "Lock the lists now", "lock_yes": "Yes, lock the lists now", "locked": "The lists are locked",
           "publish": "Publish the lists now", "publish_yes": "Yes, publish the lists now",
           "published": "The lists are published", "missing": "Not submitted yet (1)", "pack": "Printable pack"},
    "ja": {"lock": "今すぐリストを締め切る", "lock_yes": "はい、今すぐ締め切ります", "locked": "リストを締め切りました",
           "publish": "今すぐリストを公開する", "publish_yes": "はい、今すぐ公開します",
           "published": "リストを公開しました", "missing": "未提出（1 人）", "pack": "印刷用パック"},
}


def check(page, what: str) -> None:
    assert_nothing_covers_a_control(page, what)
    _no_sideways_scroll(page, what)


@pytest.mark.parametrize("language, width", [("ja", 1280), ("en", 390)])  # both widths, both languages
def test_an_organiser_checks_the_lists_locks_and_publishes(site, new_page, make_user, language, width):
    organiser = make_user("host")
    event = event_services.event_create(organiser=organiser, data=event_data())
    for name, copies in (("alice", 2), ("bob", 3), ("carol", 0)):
        user = make_user(name)
        event_services.event_join(event=event, user=user, display_name=name.title())
        if copies:
            event_services.event_submit(event=event, user=user, game_list=services.list_create(
                owner=user, document=hagmi_doc(f"{name.title()}'s list", copies=copies)))
    words = WORDS[language]
    page = new_page()
    page.set_viewport_size({"width": width, "height": 844})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(page, site, "host")
    page.goto(f"{site}/events/{event.slug}/manage/")
    expect(page.locator("table.event-players tbody tr")).to_have_count(2)
    expect(page.locator("table.event-players .badge.illegal")).to_have_count(1)
    expect(page.locator("table.event-players .rule-id").first).to_have_text("H4")
    expect(page.get_by_role("heading", name=words["missing"])).to_be_visible()
    expect(page.get_by_text(words["publish"])).to_have_count(0)
    check(page, f"manage {language} {width}")
    shoot(page, f"event-manage-{language}-{width}")

    page.get_by_text(words["lock"], exact=True).click()  # the confirmation opens first
    expect(page.get_by_role("button", name=words["lock_yes"])).to_be_visible()
    check(page, f"lock confirmation {language} {width}")
    page.get_by_role("button", name=words["lock_yes"]).click()
    expect(page.locator("ul.messages")).to_contain_text(words["locked"])
    assert events.event_status(Event.objects.get(pk=event.pk)) == "locked"
    check(page, f"locked {language} {width}")

    page.get_by_text(words["publish"], exact=True).click()
    page.get_by_role("button", name=words["publish_yes"]).click()
    expect(page.locator("ul.messages")).to_contain_text(words["published"])
    assert events.event_status(Event.objects.get(pk=event.pk)) == "published"
    check(page, f"published {language} {width}")
    shoot(page, f"event-published-{language}-{width}")

    page.locator("table.event-players a", has_text="Bob's list").click()
    expect(page.locator("code.vcode")).to_have_text(events.submission_code(
        events.entrants_with_lists(event)[1].current))
    check(page, f"sheet {language} {width}")
    shoot(page, f"event-sheet-{language}-{width}")
    page.goto(f"{site}/events/{event.slug}/manage/")
    page.get_by_role("link", name=words["pack"]).first.click()
    expect(page.locator("article.pack-sheet")).to_have_count(2)
    check(page, f"pack {language} {width}")
