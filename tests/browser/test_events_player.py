"""A player finds an event from the site's navigation, joins it, submits one of their lists and sees it flagged
illegal with the broken rule, with the real pointer, on a phone and on a desktop, in Japanese and English."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from builder import services
from builder.models import EventEntrant, EventSubmission
from builder.services import events as event_services
from tests.browser.conftest import log_in, shoot
from tests.browser.test_editor import assert_nothing_covers_a_control
from tests.browser.test_results import _no_sideways_scroll
from tests.events.conftest import event_data, hagmi_doc

WORDS = {
    "en": {"events": "Events", "join": "Join", "name": "Your name as the event shows it (empty: your username)",
           "submit": "Submit this list", "illegal": "Not legal against the event's data", "mine": "My events",
           "status": "Submitted with 10 errors", "lists": "One of your lists of this game",
           "see": "See the submitted list"},
    "ja": {"events": "イベント", "join": "参加する", "name": "イベントでの表示名（空欄：ユーザー名）",
           "submit": "このリストを提出", "illegal": "イベントのデータに照らして合法ではありません", "mine": "マイイベント",
           "status": "提出済み・エラー 10 件", "lists": "このゲームのあなたのリスト",
           "see": "提出したリストを見る"},
}


def check(page, what: str) -> None:
    assert_nothing_covers_a_control(page, what)
    _no_sideways_scroll(page, what)


def _nav_link(page, words):
    """The navigation's "Events" (on a phone the header wraps; the link is still there to tap)."""
    return page.locator("header.site nav").get_by_role("link", name=words["events"], exact=True)


@pytest.mark.parametrize("language, width", [("en", 1280), ("ja", 390)])  # both widths, both languages
def test_a_player_joins_an_event_and_submits_a_list_flagged_illegal(site, new_page, make_user, language, width):
    organiser, player = make_user("host"), make_user("aki")
    event = event_services.event_create(organiser=organiser, data=event_data(name="Winter Cup", place="Akihabara"))
    services.list_create(owner=player, document=hagmi_doc("Blue rush"))
    services.list_create(owner=player, document=hagmi_doc("Three copies", copies=3))  # H4: two of a name at most
    words = WORDS[language]
    page = new_page()
    page.set_viewport_size({"width": width, "height": 844})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(page, site, "aki")
    _nav_link(page, words).click()
    page.wait_for_url(f"{site}/events/")
    check(page, f"events index {language} {width}")
    shoot(page, f"events-index-{language}-{width}")
    page.get_by_role("link", name="Winter Cup").click()
    page.wait_for_url(f"{site}/events/{event.slug}/")
    page.get_by_label(words["name"]).fill("Aki")
    check(page, f"join form {language} {width}")
    shoot(page, f"event-join-{language}-{width}")
    page.get_by_role("button", name=words["join"], exact=True).click()
    page.wait_for_url(f"{site}/events/{event.slug}/")
    assert EventEntrant.objects.get(player=player).display_name == "Aki"
    page.get_by_label(words["lists"]).select_option(label="Three copies")
    check(page, f"submit forms {language} {width}")
    page.get_by_role("button", name=words["submit"], exact=True).click()
    page.wait_for_url(f"{site}/events/{event.slug}/")
    submission = EventSubmission.objects.get()
    assert not submission.legal and submission.document["name"] == "Three copies"
    check_box = page.locator("#submission-check")
    expect(check_box).to_contain_text(words["illegal"])
    expect(check_box.locator(".rule-id").first).to_have_text("H4")
    expect(page.locator("ul.messages")).to_be_visible()
    check(page, f"illegal submission {language} {width}")
    shoot(page, f"event-entrant-illegal-{language}-{width}")
    page.goto(f"{site}/events/")
    page.get_by_role("link", name=words["mine"]).click()
    page.wait_for_url(f"{site}/events/mine/")
    expect(page.locator("table.events")).to_contain_text(words["status"])
    check(page, f"my events {language} {width}")
    shoot(page, f"events-mine-{language}-{width}")
    page.get_by_role("link", name="Winter Cup").click()
    page.wait_for_url(f"{site}/events/{event.slug}/")
    page.get_by_role("link", name=words["see"]).click()
    page.wait_for_url(f"{site}/events/{event.slug}/submissions/{submission.public_id}/")
    expect(page.locator(".violations")).to_contain_text("H4")
    check(page, f"submission page {language} {width}")
    shoot(page, f"event-submission-{language}-{width}")


@pytest.mark.parametrize("language, width", [("ja", 1280), ("en", 390)])
def test_an_organiser_makes_an_event_through_its_form(site, new_page, make_user, language, width):
    make_user("host")
    words = WORDS[language]
    page = new_page()
    page.set_viewport_size({"width": width, "height": 844})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(page, site, "host")
    page.goto(f"{site}/events/new/")
    page.locator("#id_name").fill("Spring Open")
    page.locator("#id_date").fill("2027-03-01")
    page.locator("#id_deadline").fill("2027-02-27T18:00")
    page.locator("#id_player_cap").fill("1")  # below the least cap: said next to the field
    check(page, f"event form {language} {width}")
    shoot(page, f"events-new-{language}-{width}")
    page.locator("#event-form button[type=submit]").click()
    expect(page.locator("#id_player_cap-errors")).to_be_visible()
    check(page, f"event form with an error {language} {width}")
    shoot(page, f"events-new-error-{language}-{width}")
    page.locator("#id_player_cap").fill("16")
    page.locator("#event-form button[type=submit]").click()
    page.wait_for_url(f"{site}/events/*/")
    expect(page.locator("h1")).to_have_text("Spring Open")
    _nav_link(page, words).click()
    expect(page.locator("table.events")).to_contain_text("Spring Open")
