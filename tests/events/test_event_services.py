"""Tournament events, the list side: an event pins the data, a player submits a locked snapshot checked against it,
the deadline locks the lists, and the organiser publishes them as the event's field."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from builder import event_selectors as events
from builder import services
from builder.errors import EventClosed, ListInputError, ListPermissionDenied
from builder.models import Event, EventSubmission
from builder.services import events as event_services
from cards.models import PackageVersion
from cards.selectors import catalog_forget
from cards.services import package_import
from tests.events.conftest import event_data, hagmi_doc
from tests.support.simulations import play_all, published, small_chunks  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


def _past(event: Event) -> None:
    Event.objects.filter(pk=event.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    event.refresh_from_db()


def test_an_event_pins_the_newest_package_versions_when_it_is_made(event):
    newest = PackageVersion.objects.filter(system__slug="hagmi").order_by("-number").first()
    assert event.package_versions == {newest.slug: newest.number}
    assert events.event_status(event) == "open"


def test_a_submission_is_a_locked_snapshot_that_later_edits_do_not_change(event, player):
    game_list = services.list_create(owner=player, document=hagmi_doc())
    event_services.event_join(event=event, user=player)
    submission = event_services.event_submit(event=event, user=player, game_list=game_list)
    code = events.submission_code(submission)
    assert submission.legal and submission.list_revision == 1
    services.list_update(game_list=game_list, user=player, document=hagmi_doc(copies=3), expected_version=1)
    submission.refresh_from_db()
    assert submission.document["sections"]["weapons"][0]["qty"] == 2
    assert events.submission_code(submission) == code
    again = event_services.event_submit(event=event, user=player, game_list=game_list)
    assert again.number == 2 and not again.legal  # three copies: H2 (at most 2 of a card) broken
    assert any(v["rule"] == "H2" for v in again.validation["violations"]) or again.error_count
    entrant = events.entrants_with_lists(event)[0]
    assert entrant.current.pk == again.pk and [s.number for s in entrant.history] == [2, 1]


def test_a_catalog_change_after_the_pins_does_not_change_a_submitted_lists_legality(event, player):
    """The event checks against its pinned versions: a card the catalog drops later stays known to it."""
    event_services.event_join(event=event, user=player)
    submission = event_services.event_submit(event=event, user=player, game_list=services.list_create(
        owner=player, document=hagmi_doc()))
    assert submission.legal
    version = PackageVersion.objects.filter(system__slug="hagmi").order_by("-number").first()
    data = dict(version.data)
    data["cards"] = [card for card in data["cards"] if card["code"] != "HS-001"]
    data["version"] = "next"
    package_import(data)  # the real import of a new version
    catalog_forget()
    assert events.event_validate(event, submission.document)["legal"]
    assert not services.list_create(owner=player, document=hagmi_doc()).legal  # today's catalog: HS-001 is gone
    event_services.event_repin(event=event, user=event.organiser)  # moving the pins checks again
    submission.refresh_from_db()
    assert not submission.legal


def test_the_deadline_locks_the_lists(event, player):
    event_services.event_join(event=event, user=player)
    _past(event)
    assert events.event_is_locked(event) and events.event_status(event) == "locked"
    with pytest.raises(EventClosed):
        event_services.event_submit(event=event, user=player, text="2 HS-001\n")
    assert not EventSubmission.objects.exists()


def test_lists_stay_hidden_until_published(event, player, rival):
    for user in (player, rival):
        event_services.event_join(event=event, user=user)
    event_services.event_submit(event=event, user=player, game_list=services.list_create(
        owner=player, document=hagmi_doc("Mine")))
    assert events.event_field(event, user=rival) == []
    assert len(events.event_field(event, user=event.organiser)) == 1
    with pytest.raises(EventClosed):
        event_services.event_publish(event=event, user=event.organiser)  # not locked yet
    event_services.event_lock(event=event, user=event.organiser)
    with pytest.raises(ListPermissionDenied):
        event_services.event_publish(event=event, user=rival)
    event_services.event_publish(event=event, user=event.organiser)
    field = events.event_field(event, user=rival)
    assert [(group["name"], group["weight"]) for group in field] == [("Mine", 1)]


def test_the_player_cap_and_the_join_code(catalog, organiser, player, rival):
    event = event_services.event_create(organiser=organiser, data=event_data(player_cap=2, registration="code"))
    with pytest.raises(ListInputError):
        event_services.event_join(event=event, user=player, code="WRONG")
    event_services.event_join(event=event, user=player, code=event.join_code.lower())
    event_services.event_join(event=event, user=organiser)
    with pytest.raises(EventClosed):
        event_services.event_join(event=event, user=rival, code=event.join_code)


def test_bad_event_input_names_the_field(catalog, organiser):
    with pytest.raises(ListInputError) as error:
        event_services.event_create(organiser=organiser, data=event_data(deadline="next friday"))
    assert error.value.details["path"] == "deadline"
    with pytest.raises(ListInputError) as error:
        event_services.event_create(organiser=organiser, data=event_data(
            publish_at=(timezone.now() + timedelta(days=1)).isoformat()))
    assert error.value.details["path"] == "publish_at"
    assert not Event.objects.exists()


@pytest.mark.usefixtures("small_chunks")
def test_a_player_plays_a_gauntlet_against_the_events_field_weighted_by_players(event, player, rival, published):
    """The event's field: each distinct list once, weighted by how many players brought it; a list edited after
    its submission plays as it was submitted."""
    third = services.list_create(owner=rival, document=hagmi_doc("Copy"))
    for user, name in ((player, "Mine"), (rival, "Theirs")):
        event_services.event_join(event=event, user=user)
        event_services.event_submit(event=event, user=user, game_list=services.list_create(
            owner=user, document=hagmi_doc(name)))
    from django.contrib.auth.models import User
    late = User.objects.create_user("late", password="pw-late-1")
    event_services.event_join(event=event, user=late)
    event_services.event_submit(event=event, user=late, game_list=services.list_create(
        owner=late, document=hagmi_doc("Same cards")))
    with pytest.raises(services.SimulationInvalid) as error:
        services.gauntlet_start(user=player, game_list=third, opponents=[{"event": event.slug}], games=4, seed=1)
    assert error.value.code == "simulation.event"  # not shown yet: nothing of the lists
    event_services.event_lock(event=event, user=event.organiser)
    event_services.event_publish(event=event, user=event.organiser)
    run = services.gauntlet_start(user=player, game_list=third, opponents=[{"event": event.slug}], games=4, seed=1)
    legs = run.snapshot["legs"]
    assert len(legs) == 1 and legs[0]["weight"] == 3.0  # the same cards three times: one opponent, weight 3
    play_all(run)
    run.refresh_from_db()
    assert run.status == "done"
