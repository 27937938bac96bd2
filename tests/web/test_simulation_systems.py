"""Background runs of the three games: the same services and API, each system's own figures in the result, the
result equal to the in-process `simulate` of the same snapshot and seed, and EVERY figure of a result shown on its
page (builder/web/results.py)."""
from __future__ import annotations

import json
import re

import pytest
from django.utils import translation

from builder import services
from builder.models import SimulationRun
from builder.web import results, vocabulary
from rules_engine.simulation import simulate
from tests.support.simulations import play_all, published, small_chunks  # noqa: F401
from tests.web.test_replays import PACKAGES, sample_run

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_chunks")]

FIGURES = {
    "mwda": ("rounds", "points_destroyed", "points_lost", "units_surviving", "heat_shutdowns", "orders_per_round",
             "unit_damage"),
    "warcaster": ("victory_points", "victory_points_against", "units_destroyed", "units_lost", "cyphers_played",
                  "effects_applied"),
}
# A list and a real sample opponent of each game, so that every figure has something to count.
RUNS = {
    "hagmi": ("akane-assault", "sample-vanguard"),
    "mwda": ("highland-line", "steel-wolves-pack"),
    "warcaster": ("isa-starsteel-vanguard", "marcher-dust-raiders"),
}


@pytest.mark.parametrize("system", ["mwda", "warcaster"])
def test_a_background_run_reports_the_systems_figures(make_list, owner, owner_client, published, system):
    run = sample_run(make_list, owner, system)
    status = owner_client.get(f"/api/simulations/{run.public_id}/").json()
    assert status["status"] == "done" and status["progress"] == 100
    result = status["result"]
    assert result["wins"] + result["losses"] + result["draws"] == run.games == 4
    low, high = result["win_rate_interval"]
    assert low <= result["win_rate"] <= high
    for figure in FIGURES[system]:
        assert figure in result, figure
    assert result == simulate(SimulationRun.objects.get(pk=run.pk).snapshot, games=run.games, seed=run.seed)


def finished_run(make_list, owner, system: str) -> SimulationRun:
    stem, opponent = RUNS[system]
    document = json.loads((PACKAGES / system / "lists" / f"{stem}.json").read_text(encoding="utf-8"))
    run = services.simulation_start(user=owner, game_list=make_list(document), opponent_slug=opponent,
                                    policy="greedy", games=6, seed=7)
    play_all(run)
    return SimulationRun.objects.get(pk=run.pk)


@pytest.mark.parametrize("system", sorted(RUNS))
def test_every_key_of_a_result_is_shown_on_its_page(make_list, owner, owner_client, published, system):
    """The engine's actual result against builder/web/results.py's figures: a key no figure names (a figure a new
    engine version adds) fails here, and every figure named is on the page, as a number or as a chart with its
    number table."""
    run = finished_run(make_list, owner, system)
    view = results.result_view(system, run.result, run.snapshot, prefix=run.public_id)
    assert results.unshown_paths(run.result, view) == set()
    page = owner_client.get(f"/simulations/{run.public_id}/").content.decode()
    for stat in view["stats"]:  # the figure, and under it its detail (an interval and a count) when it has one
        detail = f' <span class="figure-detail">{stat["detail"]}</span>' if stat.get("detail") else ""
        assert re.search(rf'<div id="{stat["id"]}"[^>]*><dt>[^<]+</dt><dd[^>]*>{re.escape(stat["value"] + detail)}'
                         '</dd>', page), stat
    for note in view["notes"]:  # how the run was played: who went first, who played each side
        assert f'<li id="{note["id"]}">' in page and note["value"].replace("'", "&#x27;") in page, note
    for chart in view["charts"]:
        assert f'id="{chart["id"]}-figure"' in page, chart["id"]
        if not chart.get("empty"):
            assert f'<script id="{chart["id"]}" type="application/json">' in page, chart["id"]
            table = page.split(f'id="{chart["id"]}-figure"', 1)[1].split("</figure>", 1)[0]
            assert table.count('<th scope="row">') == len(chart["labels"]), chart["id"]  # its numbers, row by row


def test_the_coverage_check_catches_a_figure_no_chart_shows():
    """unshown_paths is what makes the test above fail: a new key, or a new key inside a block, is caught."""
    result = {"win_rate": 0.5, "win_rate_interval": [0.4, 0.6], "wins": 1, "losses": 1, "draws": 0,
              "turns": {"mean": 2.0, "histogram": {"2": 2}}, "ended_by": {"turn limit": 2}}
    view = results.result_view("hagmi", result)
    assert results.unshown_paths(result, view) == set()
    assert results.unshown_paths({**result, "shields_broken": {"mean": 1.0}}, view) == {"shields_broken.mean"}
    assert results.unshown_paths({**result, "turns": {**result["turns"], "median": 2}}, view) == {"turns.median"}


@pytest.mark.parametrize("system", sorted(RUNS))
def test_names_on_a_result_page_come_from_the_snapshot_in_the_page_language(make_list, owner, owner_client,
                                                                           published, system):
    run = finished_run(make_list, owner, system)
    page = owner_client.get(f"/simulations/{run.public_id}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    cards = run.snapshot["cards"]
    per_card = {"hagmi": "cards_played", "mwda": "unit_damage", "warcaster": "cyphers_played"}[system]
    rows = run.result[per_card]
    assert rows
    for row in rows:
        assert f'<th scope="row">{cards[row["card"]]["name"]}</th>' in page
    with translation.override("ja"):
        for reason in run.result["ended_by"]:
            assert f'<th scope="row">{vocabulary.label(system, "end_reason", reason)}</th>' in page
    assert f'<th scope="row">{rows[0]["card"]}</th>' not in page  # names, never codes
    english = owner_client.get(f"/simulations/{run.public_id}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    named = [row for row in rows if cards[row["card"]].get("name_en")]
    assert named and all(f'<th scope="row">{cards[row["card"]]["name_en"]}</th>' in english for row in named)
