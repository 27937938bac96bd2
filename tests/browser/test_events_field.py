"""After an event's lists are published, a player opens their list's gauntlet from the event's link (?event=), finds
the event chosen, starts the gauntlet with the real pointer and reads each of the event's lists with the event it
came from and how many players brought it, on a phone and on a desktop, in Japanese and English."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from builder import services
from builder.models import SimulationRun
from builder.services import events as event_services
from tests.browser.conftest import log_in, shoot, wait_for_the_finished_page
from tests.browser.test_editor import assert_nothing_covers_a_control
from tests.browser.test_results import _no_sideways_scroll
from tests.events.conftest import event_data, hagmi_doc
from tests.support.simulations import play_all, published  # noqa: F401  (chunks played here, not by workers)

WORDS = {
    "en": {"event": "Event: Winter Cup (Dec. 20, 2026, 3 players)", "start": "Start the gauntlet",
           "total": "Weighted total", "two": "From the event Winter Cup (Dec. 20, 2026): brought by 2 players",
           "one": "From the event Winter Cup (Dec. 20, 2026): brought by 1 player"},
    "ja": {"event": "イベント：Winter Cup（2026年12月20日、3 人）", "start": "ガントレットを始める",
           "total": "重みつき合計", "two": "イベント「Winter Cup」（2026年12月20日）から：2 人が使用",
           "one": "イベント「Winter Cup」（2026年12月20日）から：1 人が使用"},
}


def check(page, what: str) -> None:
    assert_nothing_covers_a_control(page, what)
    _no_sideways_scroll(page, what)


@pytest.mark.parametrize("language, width", [("en", 1280), ("ja", 390)])  # both widths, both languages
def test_a_player_plays_their_list_against_the_published_events_field(site, new_page, make_user, published,
                                                                       language, width):
    organiser, player, rival, third = (make_user(name) for name in ("organiser", "player", "rival", "third"))
    event = event_services.event_create(organiser=organiser, data=event_data())
    for user, name in ((player, "Blue rush"), (rival, "Red wall"), (third, "Red wall copy")):
        event_services.event_join(event=event, user=user)
        document = hagmi_doc(name, copies=1) if user is player else hagmi_doc(name)
        event_services.event_submit(event=event, user=user, game_list=services.list_create(owner=user,
                                                                                           document=document))
    event_services.event_lock(event=event, user=organiser)
    event_services.event_publish(event=event, user=organiser)
    practice = services.list_create(owner=player, document=hagmi_doc("Practice deck"))
    words = WORDS[language]
    page = new_page()
    page.set_viewport_size({"width": width, "height": 844})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(page, site, "player")
    page.goto(f"{site}/lists/{practice.slug}/gauntlet/?event={event.slug}")
    expect(page.locator("#id_event")).to_have_value(event.slug)
    expect(page.locator("#id_event option:checked")).to_have_text(words["event"])
    page.locator("#id_games").fill("20")
    check(page, f"gauntlet form with the event {language} {width}")
    shoot(page, f"event-field-gauntlet-form-{language}-{width}")
    page.get_by_role("button", name=words["start"]).click()
    page.wait_for_url(f"{site}/simulations/**")
    run = SimulationRun.objects.get(kind="gauntlet")
    assert sorted(leg["weight"] for leg in run.snapshot["legs"]) == [1.0, 2.0]
    play_all(run)
    wait_for_the_finished_page(page)
    rows = page.locator("table.gauntlet tbody tr")
    expect(rows).to_have_count(2)
    table = page.locator("table.gauntlet")
    expect(table).to_contain_text("Red wall")
    expect(table).to_contain_text("Blue rush")
    expect(table).to_contain_text(words["two"])
    expect(table).to_contain_text(words["one"])
    expect(page.locator("table.gauntlet tfoot")).to_contain_text(words["total"])
    expect(page.locator("main")).not_to_contain_text(event.slug)
    check(page, f"gauntlet result of the event {language} {width}")
    shoot(page, f"event-field-gauntlet-result-{language}-{width}")
