"""The event's field on the pages: before the lists are published nothing of it is offered or played (the forms, the
API, the commands); after, a player starts a gauntlet against it from the real form, and the result page names each
list, the event it came from and how many players brought it, in English and Japanese, never a slug."""
from __future__ import annotations

import json
import re

import pytest
from django.core.management import CommandError

from builder import event_selectors
from builder import services
from builder.models import MatchupMatrix, SimulationRun
from builder.services import events as event_services
from tests.events.conftest import client_of, hagmi_doc
from tests.support.commands import run as run_command
from tests.support.simulations import play_all, published, small_chunks  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_chunks", "published")]


def _text(html: str) -> str:
    """What a reader sees: the page without its tags, attributes and scripts."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html, flags=re.S)))


@pytest.fixture
def entered(event, player, rival):
    """The player brings "Blue rush", the rival and a third player the same cards as "Red wall"."""
    from django.contrib.auth.models import User

    third = User.objects.create_user("third", password="pw-third-1")
    for user, name in ((player, "Blue rush"), (rival, "Red wall"), (third, "Red wall copy")):
        event_services.event_join(event=event, user=user)
        document = hagmi_doc(name, copies=1) if user is player else hagmi_doc(name)
        event_services.event_submit(event=event, user=user, game_list=services.list_create(owner=user,
                                                                                           document=document))
    return event


def _publish(event) -> None:
    event_services.event_lock(event=event, user=event.organiser)
    event_services.event_publish(event=event, user=event.organiser)


def test_before_publish_nothing_of_the_events_field_is_offered_or_played(entered, organiser, rival):
    mine = services.list_create(owner=rival, document=hagmi_doc("Practice"))
    client = client_of(rival)
    for path in ("gauntlet", "doctor", "impact", "beats"):
        page = client.get(f"/lists/{mine.slug}/{path}/?event={entered.slug}").content.decode()
        assert "Winter Cup" not in page and f'value="{entered.slug}"' not in page, path
    assert "Winter Cup" not in client.get("/matrices/?system=hagmi").content.decode()
    response = client.post(f"/lists/{mine.slug}/gauntlet/", {"event": entered.slug, "opponent-goldfish": 0,
                                                             "policy": "greedy", "games": 4, "seed": 1})
    assert response.status_code == 400 and not SimulationRun.objects.exists()
    assert "This event is not offered: its lists are not shown to you yet" in response.content.decode()
    assert "Select a valid choice" not in response.content.decode()  # said in words, without its id
    api = client.post("/api/gauntlets/", json.dumps({"list": mine.slug, "opponents": [{"event": entered.slug}],
                                                    "games": 4, "seed": 1}), content_type="application/json")
    assert api.status_code == 400 and api.json()["error"]["code"] == "simulation.event"
    assert "Red wall" not in api.content.decode()
    beats = client.post("/api/beats/", json.dumps({"list": mine.slug, "event": entered.slug, "games": 4, "seed": 1}),
                        content_type="application/json")
    assert beats.status_code == 400 and beats.json()["error"]["code"] == "simulation.event"
    assert not SimulationRun.objects.exists() and not MatchupMatrix.objects.exists()
    # the organiser sees the lists before they are shown: the event is offered to them
    own = services.list_create(owner=organiser, document=hagmi_doc("Judge's deck"))
    page = client_of(organiser).get(f"/lists/{own.slug}/gauntlet/").content.decode()
    assert "Event: Winter Cup (Dec. 20, 2026, 3 players)" in page
    assert [event.slug for event in event_selectors.event_field_choices(user=rival, system="hagmi")] == []


def test_after_publish_a_gauntlet_from_the_real_form_plays_the_event_weighted_by_players(entered, rival):
    _publish(entered)
    mine = services.list_create(owner=rival, document=hagmi_doc("Practice"))
    client = client_of(rival)
    form = client.get(f"/lists/{mine.slug}/gauntlet/?event={entered.slug}").content.decode()
    assert re.search(rf'<option value="{entered.slug}" selected>Event: Winter Cup \(Dec. 20, 2026, 3 players\)'
                     r"</option>", form)
    assert 'name="opponent-goldfish" value="0"' in form  # an event chosen: no sample opponent added by default
    response = client.post(f"/lists/{mine.slug}/gauntlet/", {"event": entered.slug, "policy": "greedy",
                                                             "games": 4, "seed": 1})
    assert response.status_code == 302, _text(response.content.decode())[:2000]
    run = SimulationRun.objects.get()
    assert sorted(leg["weight"] for leg in run.snapshot["legs"]) == [1.0, 2.0]
    play_all(run)
    english = client.get(f"/simulations/{run.public_id}/").content.decode()
    shown = _text(english)
    assert "Red wall" in shown and "Blue rush" in shown
    assert "From the event Winter Cup (Dec. 20, 2026): brought by 2 players" in shown
    assert "From the event Winter Cup (Dec. 20, 2026): brought by 1 player" in shown
    assert entered.slug not in english and "event:" not in shown
    japanese = client.get(f"/simulations/{run.public_id}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    shown = _text(japanese)
    assert "Red wall" in shown and "イベント「Winter Cup」（2026年12月20日）から：2 人が使用" in shown
    assert entered.slug not in japanese and "From the event" not in shown
    form = client.get(f"/lists/{mine.slug}/gauntlet/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "イベント：Winter Cup（2026年12月20日、3 人）" in form


def test_the_doctor_impact_matrix_and_beats_forms_offer_the_event(entered, rival):
    _publish(entered)
    mine = services.list_create(owner=rival, document=hagmi_doc("Practice"))
    client = client_of(rival)
    for path in ("doctor", "impact", "beats"):
        page = client.get(f"/lists/{mine.slug}/{path}/?event={entered.slug}").content.decode()
        assert re.search(rf'<option value="{entered.slug}" selected>Event: Winter Cup', page), path
    page = client.get(f"/matrices/?system=hagmi&event={entered.slug}").content.decode()
    assert re.search(rf'<option value="{entered.slug}" selected>Event: Winter Cup', page)
    response = client.post(f"/lists/{mine.slug}/beats/", {"event": entered.slug, "policy": "greedy", "games": 4,
                                                          "seed": 1})
    assert response.status_code == 302, _text(response.content.decode())[:2000]
    matrix = MatchupMatrix.objects.get()
    assert sorted(column["weight"] for column in matrix.columns) == [1.0, 2.0]
    for cell in matrix.cells.select_related("run"):
        play_all(cell.run)
    page = client.get(f"/matrices/{matrix.public_id}/").content.decode()
    assert "From the event Winter Cup (Dec. 20, 2026): brought by 2 players" in _text(page)
    assert entered.slug not in page
    response = client.post("/matrices/?system=hagmi", {"rows": [mine.slug], "event": entered.slug,
                                                       "policy": "greedy", "games": 4, "seed": 2})
    assert response.status_code == 302, _text(response.content.decode())[:2000]
    matrix = MatchupMatrix.objects.exclude(pk=matrix.pk).get()
    assert len(matrix.columns) == 2 and all(column["key"].startswith("event:") for column in matrix.columns)


def test_an_event_of_another_game_or_without_lists_is_not_offered(catalog, organiser, player):
    from tests.events.conftest import event_data

    empty = event_services.event_create(organiser=organiser, data=event_data(name="Empty cup", lists_shown="open"))
    assert event_selectors.event_field_choices(user=player, system="hagmi") == []
    assert event_selectors.event_field_choice(slug=empty.slug, user=player, system="hagmi") is None
    event_services.event_join(event=empty, user=player)
    event_services.event_submit(event=empty, user=player, game_list=services.list_create(
        owner=player, document=hagmi_doc("Open list")))
    assert [event.slug for event in event_selectors.event_field_choices(user=player, system="hagmi")] == [empty.slug]
    assert event_selectors.event_field_choices(user=player, system="mwda") == []


def test_the_commands_play_the_event_once_published_and_refuse_it_before(entered, rival, tmp_path):
    path = tmp_path / "practice.json"
    path.write_text(json.dumps(hagmi_doc("Practice")), encoding="utf-8")
    for command, extra in (("simulate", ["--games", "4"]), ("matchups", ["--games", "4"]),
                           ("doctor", ["--games", "900", "--changes", "1"])):
        with pytest.raises(CommandError) as info:
            run_command(command, str(path), "--event", entered.slug, "--user", rival.username, *extra)
        assert info.value.returncode == 2 and "--event: no event" in str(info.value), command
    _publish(entered)
    report = json.loads(run_command("simulate", str(path), "--event", entered.slug, "--user", rival.username,
                                    "--games", "4", "--seed", "2", "--json"))
    assert sorted(row["weight"] for row in report["opponents"]) == pytest.approx([1 / 3, 2 / 3], abs=1e-5)
    assert {row["name"] for row in report["opponents"]} == {"Blue rush", "Red wall"}
    matrix = json.loads(run_command("matchups", str(path), "--event", entered.slug, "--user", rival.username,
                                    "--games", "4", "--seed", "2", "--json"))
    assert sorted(column["weight"] for column in matrix["columns"]) == [1.0, 2.0]
    for command in ("simulate", "matchups"):  # the text output names each list, never its key
        text = run_command(command, str(path), "--event", entered.slug, "--user", rival.username,
                           "--games", "4", "--seed", "2")
        assert "Blue rush (event)" in text and "Red wall (event)" in text and "event:" not in text, command
    with pytest.raises(CommandError) as info:
        run_command("simulate", str(path), "--event", entered.slug, "--user", "nobody", "--games", "4")
    assert info.value.returncode == 2 and "--user: no player 'nobody'" in str(info.value)
    with pytest.raises(CommandError) as info:
        run_command("simulate", str(path), "--event", "nope", "--games", "4")
    assert "--event: no event 'nope'" in str(info.value)


def test_the_doctor_plays_the_event_and_its_page_names_each_list_with_its_players(entered, rival):
    _publish(entered)
    mine = services.list_create(owner=rival, document=hagmi_doc("Practice"))
    client = client_of(rival)
    response = client.post(f"/lists/{mine.slug}/doctor/", {"event": entered.slug, "policy": "greedy",
                                                           "games": 1600, "changes": 1, "seed": 1})
    assert response.status_code == 302, _text(response.content.decode())[:2000]
    run = SimulationRun.objects.get()
    play_all(run)
    page = client.get(f"/simulations/{run.public_id}/").content.decode()
    shown = _text(page)
    assert "Red wall" in shown and "From the event Winter Cup (Dec. 20, 2026): brought by 2 players" in shown
    assert entered.slug not in page
