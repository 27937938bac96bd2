"""Simulation pages: start a run (services.simulation_start), progress while chunks land, result charts, compare."""
from __future__ import annotations

import pytest

from builder import services
from builder.models import SimulationRun
from tests.support.simulations import play_all, published, small_chunks  # noqa: F401  (records chunk messages)
from tests.web.conftest import hagmi_legal_doc

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_chunks")]


def start(client, game_list, **fields):
    data = {"opponent": "goldfish", "policy": "greedy", "games": 1000, "seed": 7, **fields}
    return client.post(f"/lists/{game_list.slug}/simulate/", data)


def test_start_a_run_then_progress_moves_and_the_result_has_charts(make_list, owner_client, published):
    game_list = make_list(hagmi_legal_doc())
    response = start(owner_client, game_list)
    run = SimulationRun.objects.get()
    assert response["Location"] == f"/simulations/{run.public_id}/"
    page = owner_client.get(f"/simulations/{run.public_id}/").content.decode()
    assert '<progress id="progress-bar" max="100" value="0">' in page
    assert 'hx-trigger="every 1s"' in page and 'http-equiv="refresh"' in page  # htmx polling, or a refresh without JS
    services.simulation_chunk_play(run_id=run.pk, index=0, worker="test")
    partial = owner_client.get(f"/simulations/{run.public_id}/progress/", HTTP_HX_REQUEST="true")
    assert 'value="50"' in partial.content.decode() and "HX-Refresh" not in partial
    services.simulation_chunk_play(run_id=run.pk, index=1, worker="test")
    partial = owner_client.get(f"/simulations/{run.public_id}/progress/", HTTP_HX_REQUEST="true")
    assert partial["HX-Refresh"] == "true"  # done: the page reloads to show the result
    page = owner_client.get(f"/simulations/{run.public_id}/").content.decode()
    assert 'value="100"' in page and 'class="winrate"' in page
    for chart in (f"win-{run.public_id}", f"turns-{run.public_id}", f"damage-{run.public_id}",
                  f"cards-{run.public_id}"):
        assert f'<script id="{chart}" type="application/json">' in page
    assert f"http://testserver/simulations/{run.public_id}/" in page  # the result link


def test_simulation_pages_link_to_how_the_simulator_plays(make_list, owner_client, published):
    """A player can read the rules the engine plays (and its interpretations) from the form and from a result."""
    game_list = make_list(hagmi_legal_doc())
    form = owner_client.get(f"/lists/{game_list.slug}/simulate/").content.decode()
    assert 'href="/rules/hagmi/#simulator"' in form
    start(owner_client, game_list)
    run = SimulationRun.objects.get()
    assert 'href="/rules/hagmi/#simulator"' in owner_client.get(f"/simulations/{run.public_id}/").content.decode()


def test_bad_simulation_input_is_shown_on_the_form(make_list, owner_client, published):
    game_list = make_list(hagmi_legal_doc())
    response = start(owner_client, game_list, opponent="nobody")
    assert response.status_code == 400 and "nobody" in response.content.decode()
    response = start(owner_client, game_list, games=10**9)
    assert response.status_code == 400 and "100000" in response.content.decode()
    assert not SimulationRun.objects.exists()


def test_an_unfinished_run_is_its_owners_only(make_list, owner_client, other_client, published):
    game_list = make_list(hagmi_legal_doc(), visibility="public")
    start(owner_client, game_list)
    run = SimulationRun.objects.get()
    assert other_client.get(f"/simulations/{run.public_id}/").status_code == 404
    assert other_client.get(f"/simulations/{run.public_id}/progress/").status_code == 404


def test_a_finished_result_opens_for_anyone_with_its_link(make_list, owner_client, other_client, client, published):
    game_list = make_list(hagmi_legal_doc())
    start(owner_client, game_list)
    run = SimulationRun.objects.get()
    play_all(run)
    for visitor in (other_client, client):  # another user, and nobody logged in
        page = visitor.get(f"/simulations/{run.public_id}/")
        assert page.status_code == 200 and 'class="winrate"' in page.content.decode()
    assert other_client.get(f"/simulations/{run.public_id}/progress/").status_code == 404


def test_two_runs_side_by_side(make_list, owner_client, published):
    game_list = make_list(hagmi_legal_doc())
    start(owner_client, game_list, seed=1, games=500)
    start(owner_client, game_list, seed=2, games=500)
    runs = list(SimulationRun.objects.order_by("id"))
    for run in runs:
        play_all(run)
    listing = owner_client.get("/simulations/").content.decode()
    assert runs[0].public_id in listing and runs[1].public_id in listing
    page = owner_client.get("/simulations/compare/", {"a": runs[0].public_id, "b": runs[1].public_id}).content
    page = page.decode()
    assert page.count('class="winrate"') == 2 and '<script id="compare" type="application/json">' in page
