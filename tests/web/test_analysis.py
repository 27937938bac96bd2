"""Positions on the site (docs/positions.md): the analysis page, a replay's step as a position
(download, analyse, simulate from here), `POST /api/positions/` and `manage.py position`."""
from __future__ import annotations

import json
import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from builder.services.positions import position_cards
from rules_engine.positions import FORMAT, legal_moves, load_position
from rules_engine.replay import position_at, replay_events, step_turns
from tests.support.simulations import play_all, published, small_chunks  # noqa: F401
from tests.web.test_replays import sample_run

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_chunks", "catalog")]

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = {system: ROOT / "docs" / "positions" / f"{system}.position.json" for system in ("hagmi", "mwda", "warcaster")}
SYSTEMS = ["hagmi", "mwda", "warcaster"]


def example(system: str) -> dict:
    return json.loads(EXAMPLES[system].read_text(encoding="utf-8"))


def moves_of(page: str) -> list[str]:
    return re.findall(r'<button type="submit" name="action" value="([^"]+)"', page)


def hidden_position(page: str) -> str:
    found = re.search(r'<input type="hidden" name="position" value="([^"]*)"', page)
    assert found, "the position travels in the form"
    import html

    return html.unescape(found.group(1))


# ---- the analysis page -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("system", SYSTEMS)
def test_an_example_position_shows_its_board_and_its_legal_actions_as_buttons(client, published, system):
    page = client.get("/analysis/", {"example": system}).content.decode()
    doc = example(system)
    from cards.selectors import catalog_for

    state = load_position(doc, position_cards(doc))
    assert moves_of(page) == [move["id"] for move in legal_moves(state)]
    if system == "hagmi":
        assert 'class="replay hagmi-board"' in page
    else:
        assert '<svg class="replay-table"' in page and 'data-piece="' in page
    assert "Action " not in page, "every action kind has words"


@pytest.mark.parametrize("system", SYSTEMS)
def test_choosing_an_action_plays_it_and_shows_what_it_did(client, published, system):
    first = client.get("/analysis/", {"example": system}).content.decode()
    action = moves_of(first)[0]
    page = client.post("/analysis/", {"position": hidden_position(first), "action": action})
    assert page.status_code == 200
    body = page.content.decode()
    after = json.loads(hidden_position(body))
    from cards.selectors import catalog_for
    from rules_engine.positions import export_position, find_action

    state = load_position(example(system), position_cards(example(system)))
    state.apply(find_action(state, action))
    assert after["random"] == export_position(system, state)["random"]
    assert {k: v for k, v in after.items() if k not in ("note", "list", "opponent")} == {
        k: v for k, v in export_position(system, state).items() if k not in ("note", "list", "opponent")}


def test_simulating_from_a_position_shows_the_win_rate(client, published):
    first = client.get("/analysis/", {"example": "mwda"}).content.decode()
    page = client.post("/analysis/", {"position": hidden_position(first), "simulate": "1", "games": "3"})
    assert page.status_code == 200
    assert 'class="figures analysis-summary"' in page.content.decode()


def test_a_bad_position_is_refused_with_the_path_of_the_bad_field(client, published):
    doc = example("mwda")
    doc["sides"][0]["units"][0]["code"] = "NO-SUCH-UNIT"
    page = client.post("/analysis/", {"position": json.dumps(doc)})
    assert page.status_code == 400
    body = page.content.decode()
    assert "sides[0].units[0]" in body and "NO-SUCH-UNIT" in body
    broken = client.post("/analysis/", {"position": '{"format": "hangar.position/1",\n "system": }'})
    assert broken.status_code == 400 and "line 2" in broken.content.decode()


def test_a_position_file_can_be_uploaded_and_downloaded(client, published):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("w.position.json", EXAMPLES["warcaster"].read_bytes(), "application/json")
    page = client.post("/analysis/", {"file": upload})
    assert page.status_code == 200 and moves_of(page.content.decode())
    saved = client.post("/analysis/", {"position": hidden_position(page.content.decode()), "download": "1"})
    assert saved["Content-Disposition"].startswith("attachment;")
    assert json.loads(saved.content)["format"] == FORMAT


def test_the_page_is_in_japanese_for_japanese_readers(client, published):
    page = client.get("/analysis/", {"example": "hagmi"}, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "局面" in page
    assert "Attack " not in page and "Play " not in page


# ---- a replay's steps ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_step_of_a_replay_is_a_position_that_plays_on_to_the_game_of_the_run(make_list, owner, published,
                                                                                   system):
    """The position after step k, played on with the run's policy from its exact generator, ends as the run's game."""
    run = sample_run(make_list, owner, system)
    game = replay_events(run.snapshot, run.seed, 1)
    turns = step_turns(game["events"])
    from rules_engine.core.game import play_out
    from rules_engine.simulation import simulator_for

    simulator = simulator_for(system)
    policies = simulator.prepare(run.snapshot).policies
    for step in sorted({0, len(turns) // 2, len(turns) - 1}):
        doc = position_at(run.snapshot, run.seed, 1, step)
        assert "name" not in doc["list"], "a private list's name never travels in a position"
        state = load_position(doc, run.snapshot["cards"])
        play_out(state, policies, state.rng)
        assert simulator.record(state)["outcome"] == game["outcome"], f"step {step}"


def test_a_replay_step_downloads_as_a_position_file(make_list, owner, owner_client, published):
    run = sample_run(make_list, owner, "mwda")
    response = owner_client.get(f"/simulations/{run.public_id}/games/0/position/", {"step": 1})
    assert response.status_code == 200
    name = f"{run.public_id}-game1-step1.position.json"  # the first game is game 1 to whoever reads the name
    assert response["Content-Disposition"] == f"attachment; filename=\"{name}\"; filename*=UTF-8''{name}"
    doc = json.loads(response.content)
    assert doc["format"] == FORMAT and doc["system"] == "mwda"
    missing = owner_client.get(f"/simulations/{run.public_id}/games/0/position/", {"step": 999})
    assert missing.status_code == 400 and "step" in missing.content.decode()


def test_the_replay_page_offers_every_turn_from_here(make_list, owner, owner_client, published):
    run = sample_run(make_list, owner, "warcaster")
    page = owner_client.get(f"/simulations/{run.public_id}/games/0/").content.decode()
    game = replay_events(run.snapshot, run.seed, 0)
    options = re.findall(r'<select id="from-here-step" name="step" data-replay-step>(.*?)</select>', page, re.S)
    assert options and options[0].count("<option") == len(step_turns(game["events"]))
    assert f'action="/simulations/{run.public_id}/games/0/from-here/"' in page


def test_simulate_from_here_shows_the_odds_beside_the_whole_run(make_list, owner, owner_client, published):
    run = sample_run(make_list, owner, "hagmi")
    response = owner_client.post(f"/simulations/{run.public_id}/games/0/from-here/", {"step": 1, "games": 5},
                                 HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    body = response.content.decode()
    assert body.count('class="figures analysis-summary"') == 2, "the games from here and the whole run"
    assert "<html" not in body, "htmx gets the fragment"
    too_many = owner_client.post(f"/simulations/{run.public_id}/games/0/from-here/", {"step": 1, "games": 10 ** 6})
    assert too_many.status_code == 400


def test_a_replay_step_opens_on_the_analysis_page(make_list, owner, owner_client, published):
    run = sample_run(make_list, owner, "mwda")
    page = owner_client.get("/analysis/", {"run": run.public_id, "game": 0, "step": 2}).content.decode()
    assert moves_of(page) or "The game is over." in page
    assert f"/simulations/{run.public_id}/games/0/" in page


# ---- the API ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_api_lists_plays_and_simulates(client, published, system):
    doc = example(system)
    answer = client.post("/api/positions/", {"position": doc}, content_type="application/json")
    assert answer.status_code == 200, answer.content
    moves = answer.json()["moves"]
    played = client.post("/api/positions/", {"position": doc, "actions": [moves[0]["id"]], "games": 2, "seed": 4},
                         content_type="application/json").json()
    assert played["summary"]["games"] == 2 and played["position"]["format"] == FORMAT
    assert played["position"] != answer.json()["position"], "the action was played"


def test_the_api_refuses_a_bad_action_with_its_path(client, published):
    answer = client.post("/api/positions/", {"position": example("mwda"), "actions": ["no:such:action"]},
                         content_type="application/json")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["details"]["path"] == "actions[0]" and "legal:" in error["message"]


# ---- the command ------------------------------------------------------------------------------------------------------


def run_command(*args: str) -> str:
    out = StringIO()
    call_command("position", *args, stdout=out)
    return out.getvalue()


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_command_prints_the_position_and_its_legal_actions(published, system):
    text = run_command(str(EXAMPLES[system]))
    assert "Legal actions (" in text
    from cards.selectors import catalog_for

    for move in legal_moves(load_position(example(system), position_cards(example(system)))):
        assert move["id"] in text


def test_the_command_plays_ids_and_prints_events_and_the_position_as_json(published):
    doc = example("mwda")
    first = json.loads(run_command(str(EXAMPLES["mwda"]), "--json"))["moves"][0]["id"]
    result = json.loads(run_command(str(EXAMPLES["mwda"]), "--json", "--play", first))
    assert result["events"] and result["position"]["format"] == FORMAT and result["position"] != doc
    words = run_command(str(EXAMPLES["mwda"]), "--play", first, "--lang", "ja")
    assert "Events (" in words and "Position after the actions:" in words


def test_the_command_simulates_on_from_the_position(published):
    text = run_command(str(EXAMPLES["warcaster"]), "--simulate", "4", "--seed", "2")
    assert "Simulated on from here:" in text and "4 games, seed 2" in text


def test_the_command_refuses_an_illegal_id_and_a_bad_file(published, tmp_path):
    with pytest.raises(CommandError) as illegal:
        run_command(str(EXAMPLES["hagmi"]), "--play", "no:such")
    assert illegal.value.returncode == 2 and "actions[0]" in str(illegal.value)
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "hangar.position/1", "system": "mwda", "sides": 3}', encoding="utf-8")
    with pytest.raises(CommandError) as refused:
        run_command(str(bad))
    assert "sides" in str(refused.value)
