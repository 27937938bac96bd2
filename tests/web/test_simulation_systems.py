"""Background runs for MWDA (issue 6) and Warcaster (issue 7): the same services and API as HAGMI, each system's
own figures in the result, and the result equal to the in-process `simulate` of the same snapshot and seed."""
from __future__ import annotations

import pytest

from builder.models import SimulationRun
from rules_engine.simulation import simulate
from tests.support.simulations import play_all, published, small_chunks  # noqa: F401
from tests.web.test_replays import sample_run

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_chunks")]

FIGURES = {
    "mwda": ("rounds", "points_destroyed", "points_lost", "units_surviving", "heat_shutdowns", "orders_per_round",
             "unit_damage"),
    "warcaster": ("victory_points", "victory_points_against", "units_destroyed", "units_lost", "cyphers_played",
                  "effects_applied"),
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
