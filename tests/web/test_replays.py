"""Replay pages (issues 6 and 7, item 5): one game of a run drawn on the table turn by turn from its event log."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from builder import services
from builder.models import SimulationRun
from rules_engine.replay import replay_events
from tests.support.simulations import play_all, published, small_chunks  # noqa: F401  (records chunk messages)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_chunks")]

PACKAGES = Path(__file__).resolve().parents[2] / "cards" / "packages"
SAMPLES = {"mwda": ("steel-wolves-pack", "highland-line"), "warcaster": ("isa-thunder-lancers", "marcher-frontier-posse")}


def sample_run(make_list, owner, system: str, *, name: str = "Sample", finish: bool = True) -> SimulationRun:
    list_name, opponent = SAMPLES[system]
    document = json.loads((PACKAGES / system / "lists" / f"{list_name}.json").read_text(encoding="utf-8"))
    game_list = make_list({**document, "name": name})
    run = services.simulation_start(user=owner, game_list=game_list, opponent_slug=opponent, policy="greedy",
                                    games=4, seed=11)
    if finish:
        play_all(run)
        run.refresh_from_db()
    return run


def drawing_of(page: str) -> dict:
    found = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', page, re.S)
    assert found, "the drawing data is embedded with json_script"
    return json.loads(found.group(1))


@pytest.mark.parametrize("system", ["mwda", "warcaster"])
def test_the_replay_draws_the_game_the_run_counted(make_list, owner, owner_client, published, system):
    run = sample_run(make_list, owner, system)
    assert run.status == "done"
    outcomes = []
    for index in range(run.games):
        response = owner_client.get(f"/simulations/{run.public_id}/games/{index}/")
        assert response.status_code == 200
        page = response.content.decode()
        game = replay_events(run.snapshot, run.seed, index)
        outcomes.append(game["outcome"])
        assert f'class="outcome-{game["outcome"]}"' in page
        drawing = drawing_of(page)
        turns = len({event["turn"] for event in game["events"]})
        assert len(drawing["frames"]) == turns and page.count("<li data-frame=") == turns  # one step per turn
        final = drawing["frames"][-1]
        for piece_id, x, y, health, alive in final["at"]:  # the final positions, drawn without JavaScript too
            assert f'data-piece="{piece_id}" transform="translate({x} {y})"' in page
            assert 0 <= x <= drawing["table"]["width"] and 0 <= y <= drawing["table"]["height"]
        eliminated = [e for e in game["events"] if e["kind"] in ("eliminated", "destroyed")]
        assert sum(1 for row in final["at"] if not row[4]) == len(eliminated)
        attacks = sum(len(frame["attacks"]) for frame in drawing["frames"])
        assert attacks == sum(1 for e in game["events"] if e["kind"] == "attack")
    result = run.result
    assert (outcomes.count("win"), outcomes.count("loss"), outcomes.count("draw")) == (
        result["wins"], result["losses"], result["draws"])


def test_the_mwda_table_has_its_terrain_and_the_warcaster_table_its_objective(make_list, owner, owner_client,
                                                                              published):
    mwda = owner_client.get(f"/simulations/{sample_run(make_list, owner, 'mwda').public_id}/games/0/").content
    assert b'viewBox="0 0 36.0 36.0"' in mwda and b'class="terrain ' in mwda
    warcaster = sample_run(make_list, owner, "warcaster")
    page = owner_client.get(f"/simulations/{warcaster.public_id}/games/1/").content.decode()
    assert 'viewBox="0 0 30.0 30.0"' in page and '<circle class="objective" cx="15.0" cy="15.0" r="3">' in page
    assert 'class="gate side-' in page  # W10 gates placed during the game


def test_a_finished_run_replays_for_anyone_with_its_link(make_list, owner, other_client, client, published):
    run = sample_run(make_list, owner, "mwda")
    for visitor in (other_client, client):
        assert visitor.get(f"/simulations/{run.public_id}/games/2/").status_code == 200


def test_an_unfinished_run_replays_for_its_owner_only(make_list, owner, owner_client, other_client, published):
    run = sample_run(make_list, owner, "mwda", finish=False)
    assert run.status != "done"
    assert owner_client.get(f"/simulations/{run.public_id}/games/0/").status_code == 200
    assert other_client.get(f"/simulations/{run.public_id}/games/0/").status_code == 404


def test_a_game_outside_the_run_is_a_404_saying_which_games_exist(make_list, owner, owner_client, published):
    run = sample_run(make_list, owner, "mwda")
    response = owner_client.get(f"/simulations/{run.public_id}/games/4/")
    assert response.status_code == 404 and "games 0 to 3" in response.content.decode()
    assert owner_client.get(f"/simulations/{run.public_id}/games/-1/").status_code == 404  # not even a route
    assert owner_client.get("/simulations/nosuchrun/games/0/").status_code == 404


def test_the_run_page_links_to_its_replays(make_list, owner, owner_client, published):
    run = sample_run(make_list, owner, "warcaster")
    page = owner_client.get(f"/simulations/{run.public_id}/").content.decode()
    assert f'action="/simulations/{run.public_id}/games/0/"' in page and 'name="game"' in page
    response = owner_client.get(f"/simulations/{run.public_id}/games/0/", {"game": "3"})
    assert response.status_code == 302 and response["Location"] == f"/simulations/{run.public_id}/games/3/"
    bad = owner_client.get(f"/simulations/{run.public_id}/games/0/", {"game": "three"})
    assert bad.status_code == 400 and "expected a game number" in bad.content.decode()


def test_user_text_is_escaped(make_list, owner, owner_client, published):
    run = sample_run(make_list, owner, "mwda", name='<script>alert("x")</script>')
    page = owner_client.get(f"/simulations/{run.public_id}/games/0/").content.decode()
    assert '<script>alert("x")</script>' not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page


def test_the_page_is_in_japanese_for_japanese_readers(make_list, owner, owner_client, published):
    run = sample_run(make_list, owner, "mwda")
    page = owner_client.get(f"/simulations/{run.public_id}/games/0/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "第0戦のリプレイ" in page and "イベントログ" in page
