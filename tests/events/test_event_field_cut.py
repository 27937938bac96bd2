"""An event's field with more distinct lists than a run may play: on the site, the lists brought by most players are
played (the most brought first, then by name), in the room the other opponents leave, and the forms and the result
page say how much of the field is played: never a refusal of the whole field, never a silent cut. A command plays
the whole field or exits 2 saying why."""
from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError

from builder import services
from builder.management.commands import simulate
from builder.services import batches
from builder.services import events as event_services
from builder.services.runs_input import catalog_of
from tests.events.conftest import client_of, hagmi_doc
from tests.support.commands import run as run_command
from tests.support.simulations import play_all, published  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


def variant(name: str, number: int) -> dict:
    """A list of its own cards for each `number` (0-5): the copies of the weapons and of the damage card differ."""
    doc = hagmi_doc(name, copies=1 + number % 2)
    doc["sections"]["damage"] = [{"card": "HS-049", "qty": 1 + number // 2}]
    return doc


@pytest.fixture
def big_event(event, organiser):
    """Five players, four distinct lists: "Dragon" brought by two players, then "Alpha", "Bravo", "Charlie" once."""
    for number, (player, name, cards) in enumerate((("p1", "Dragon", 0), ("p2", "Dragon copy", 0), ("p3", "Charlie", 1),
                                                    ("p4", "Alpha", 2), ("p5", "Bravo", 3))):
        user = User.objects.create_user(player, password=f"pw-{player}-1")
        event_services.event_join(event=event, user=user)
        event_services.event_submit(event=event, user=user, game_list=services.list_create(
            owner=user, document=variant(name, cards)))
    event_services.event_lock(event=event, user=organiser)
    event_services.event_publish(event=event, user=organiser)
    return event


def test_an_events_field_past_the_room_keeps_its_most_brought_lists(big_event, player):
    """The room the other opponents leave (most 3, the goldfish given too: 2 of the event's 4 lists): the list two
    players brought, then the first by name among those brought once."""
    found = batches.check_opponents(player, "hagmi", catalog_of("hagmi"),
                                    [{"event": big_event.slug}, {"opponent": "goldfish"}], most=3)
    assert [(key.split(":")[0], weight) for key, weight, _opponent in found] == [
        ("event", 2.0), ("event", 1.0), ("goldfish", 1.0)]
    assert [opponent["name"] for _key, _weight, opponent in found[:2]] == ["Dragon", "Alpha"]
    whole = batches.check_opponents(player, "hagmi", catalog_of("hagmi"), [{"event": big_event.slug}], most=4)
    assert len(whole) == 4  # room for all: nothing left out


def test_no_room_at_all_for_the_event_is_still_refused_naming_the_limit(big_event, player):
    with pytest.raises(services.SimulationInvalid) as error:
        batches.check_opponents(player, "hagmi", catalog_of("hagmi"),
                                [{"opponent": "goldfish"}, {"event": big_event.slug}], most=1)
    assert error.value.code == "simulation.too_many_opponents" and error.value.details["limit"] == 1


def test_the_result_page_says_how_much_of_the_events_field_was_played(big_event, player, monkeypatch, published):
    """A gauntlet that could play two opponents: the page names the event and says 2 of its 4 lists, 3 of its 5
    players, in English and in Japanese."""
    monkeypatch.setitem(batches.check_opponents.__kwdefaults__, "most", 2)
    mine = services.list_create(owner=player, document=hagmi_doc("Mine"))
    run = services.gauntlet_start(user=player, game_list=mine, opponents=[{"event": big_event.slug}], games=4,
                                  seed=1)
    assert [leg["weight"] for leg in run.snapshot["legs"]] == [2.0, 1.0]
    play_all(run)
    client = client_of(player)
    page = client.get(f"/simulations/{run.public_id}/").content.decode()
    assert ("From the event Winter Cup (Dec. 20, 2026), the 2 lists brought by most players were played, of its 4 "
            "(3 of its 5 players): the others are left out of the weighted total.") in page
    client.cookies["django_language"] = "ja"
    page = client.get(f"/simulations/{run.public_id}/").content.decode()
    assert "持ち込んだ参加者の多いリスト 2 件（全 4 件中）と対戦しました（参加者 5 人のうち 3 人分）" in page


def test_the_gauntlet_and_doctor_forms_say_beforehand_that_only_the_most_brought_lists_fit(big_event, player,
                                                                                           monkeypatch):
    """Beside the event in the form's choice: its number of lists and that those brought by most players are played,
    when it has more than the run may play (here 2, and 1 for the doctor), in both languages."""
    from builder.web import batches as batch_pages

    monkeypatch.setattr(batch_pages, "MAX_LEGS", 2)
    mine = services.list_create(owner=player, document=hagmi_doc("Mine"))
    client = client_of(player)
    for path in ("gauntlet", "doctor"):
        page = client.get(f"/lists/{mine.slug}/{path}/?event={big_event.slug}").content.decode()
        assert ("Event: Winter Cup (Dec. 20, 2026, 5 players): 4 lists, more than this run may play: those brought "
                "by most players are played") in page, path
    client.cookies["django_language"] = "ja"
    page = client.get(f"/lists/{mine.slug}/gauntlet/?event={big_event.slug}").content.decode()
    assert "リスト 4 件はこの実行で対戦できる数を超えるため、持ち込んだ参加者の多いリストと対戦します" in page


def test_a_command_given_an_event_past_the_run_limit_exits_2_saying_so(big_event, player, monkeypatch, tmp_path):
    """The commands play an event's whole field or refuse it (exit 2) naming its lists and the limit; the site plays
    the most brought lists instead."""
    monkeypatch.setattr(simulate, "MAX_LEGS", 3)
    path = tmp_path / "practice.json"
    path.write_text(json.dumps(hagmi_doc("Practice")), encoding="utf-8")
    with pytest.raises(CommandError) as info:
        run_command("simulate", str(path), "--event", big_event.slug, "--opponent", "goldfish", "--games", "4")
    assert info.value.returncode == 2
    assert (f"--event {big_event.slug}: its 4 lists and the 1 other opponents are more than the 3 opponents a run "
            "may play") in str(info.value)
