"""A gauntlet's and a doctor's pages say every game they play: the total, and how it is shared out (per opponent, per
change), on the run's page, its progress line and the list of runs."""
from __future__ import annotations

import html
import re

import pytest

from builder.models import SimulationRun
from builder import services
from tests.support import planted
from tests.support.simulations import published, small_chunks  # noqa: F401  (records chunk messages)
from tests.web.conftest import hagmi_legal_doc
from tests.web.test_batch_pages import decoy_catalog  # noqa: F401  (the planted army's catalog)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_chunks")]


def words(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_a_gauntlet_says_its_total_and_the_games_against_each_opponent(make_list, owner_client, published):
    game_list = make_list(hagmi_legal_doc("Blue rush"))
    other = make_list(hagmi_legal_doc("Red wall"))
    response = owner_client.post(f"/lists/{game_list.slug}/gauntlet/", {
        "opponent-sample-vanguard": 1, "opponent-goldfish": 1, f"list-{other.slug}": 1, "policy": "greedy",
        "games": 100, "seed": 4})
    assert response.status_code == 302
    run = SimulationRun.objects.get()
    page = words(owner_client.get(f"/simulations/{run.public_id}/").content.decode())
    assert "300 games, seed 4 (100 against each of 3 opponents)" in page
    assert "0 of 300 games played · 100 against each of 3 opponents" in page
    services.simulation_chunk_play(run_id=run.pk, index=0, worker="test@host")  # the first opponent's 100 games
    progress = words(owner_client.get(f"/simulations/{run.public_id}/progress/").content.decode())
    assert "100 of 300 games played" in progress
    for index in range(1, run.chunks_total):
        services.simulation_chunk_play(run_id=run.pk, index=index, worker="test@host")
    page = words(owner_client.get(f"/simulations/{run.public_id}/").content.decode())
    assert "300 of 300 games played" in page and "100 of 100" not in page
    listed = owner_client.get("/simulations/").content.decode()
    assert re.findall(r'<td data-label="Games">([^<]*)</td>', listed) == ["300"]
    ja = words(owner_client.get(f"/simulations/{run.public_id}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode())
    assert "300戦、シード 4 (3件の相手それぞれと100戦)" in ja and "300戦中 300戦 完了" in ja


def test_a_doctor_says_its_budget_and_how_it_is_shared_between_the_changes(make_list, owner_client, published,
                                                                          decoy_catalog):  # noqa: F811
    game_list = make_list(planted.weak_army())
    response = owner_client.post(f"/lists/{game_list.slug}/doctor/", {
        f"opponent-{planted.OPPONENT}": 1, "policy": "greedy", "games": 1000, "seed": 2, "changes": 3})
    assert response.status_code == 302
    run = SimulationRun.objects.get()
    screen = run.stages[0]["games"]
    page = words(owner_client.get(f"/simulations/{run.public_id}/").content.decode())
    assert (f"0 of 1,000 games played · the list and 3 changes against 1 opponent, {screen} games each to screen "
            "them, the rest to confirm the best") in page
    ja = words(owner_client.get(f"/simulations/{run.public_id}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode())
    assert f"リストと3件の変更を1件の相手とそれぞれ{screen}戦ずつ試し" in ja
