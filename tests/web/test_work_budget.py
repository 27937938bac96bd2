"""Bounded work for every entry that plays games (docs/api.md "Engine work budgets", docs/positions.md "Bounds"):
positions past a game's real bounds are refused with the field's path before the engine reads them; work over the
request's budget (estimated engine seconds: games × the game's cost × the policy's × the length × the size) is a
400 naming the limit; runs and commands have a larger budget; quotas count engine work, not requests; every string
of a position is storable text."""
from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from builder.services import budget
from builder.services import positions as service
from rules_engine import positions as engine_positions
from tests.support.simulations import published, small_chunks  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalog")]

ROOT = Path(__file__).resolve().parents[2]
URL = "/api/positions/"


def example(system: str) -> dict:
    return json.loads((ROOT / "docs" / "positions" / f"{system}.position.json").read_text(encoding="utf-8"))


def deck() -> dict:
    return json.loads((ROOT / "cards" / "packages" / "hagmi" / "lists" / "akane-assault.json").read_text("utf-8"))


def post(client, body, **extra):
    return client.post(URL, json.dumps(body), content_type="application/json", **extra)


@pytest.fixture
def no_engine(monkeypatch):
    """Fail the test if the engine is asked to read or play the position."""
    def refuse(*args, **kwargs):
        raise AssertionError("the engine was asked to load or play a refused position")

    monkeypatch.setattr(engine_positions, "simulate_position", refuse)
    monkeypatch.setattr(service, "simulate_position", refuse)
    monkeypatch.setattr(service, "load_position", refuse)


def error_of(response, status=400):
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    return response.json()["error"]


# ---- bounds: refused before the engine reads the position ------------------------------------------------------


def test_a_turn_limit_past_any_real_game_is_refused_naming_the_option(client, no_engine):
    doc = dict(example("hagmi"), options={"max_turns": 90000})
    error = error_of(post(client, {"position": doc, "games": 3}))
    assert error["details"]["path"] == "options.max_turns"
    assert "1 … 200" in error["message"] and "90000" in error["message"]


def test_a_warcaster_game_of_many_rounds_is_refused(client, no_engine):
    doc = dict(example("warcaster"), options={"rounds": 1000})
    assert error_of(post(client, {"position": doc}))["details"]["path"] == "options.rounds"


def test_a_huge_hand_is_refused_without_being_dealt(client, no_engine):
    doc = example("hagmi")
    doc["sides"][0]["hand"] = ["HS-013"] * 50_000
    error = error_of(post(client, {"position": doc, "games": 5}))
    assert error["details"]["path"] == "sides[0].hand"
    assert "50000 items; at most 30" in error["message"]


def test_ten_thousand_extra_units_are_refused(client, no_engine):
    doc = example("warcaster")
    doc["sides"][1]["units"] += [{"uid": 8 + i, "code": "WC-017"} for i in range(10_000)]
    error = error_of(post(client, {"position": doc}))
    assert error["details"]["path"] == "sides[1].units" and "at most 40" in error["message"]


def test_a_side_past_its_items_is_refused_even_spread_over_fields(client, no_engine):
    doc = example("mwda")
    doc["sides"][0]["note"] = ["x"] * 5_000  # no zone of its own: counted with the side
    assert error_of(post(client, {"position": doc}))["details"]["path"] == "sides[0]"


def test_a_position_within_the_bounds_still_plays(client):
    doc = example("hagmi")
    doc["sides"][0]["hand"] = ["HS-013"] * 30
    response = post(client, {"position": doc, "games": 2})
    assert response.status_code == 200, response.content
    assert response.json()["summary"]["games"] == 2


# ---- the request's budget --------------------------------------------------------------------------------------


def test_the_search_policy_is_counted_at_its_cost(client, no_engine):
    error = error_of(post(client, {"position": example("warcaster"), "games": 20, "policy": "search"}))
    assert error["code"] == "budget.exceeded" and error["details"]["path"] == "policy"
    assert error["details"]["limit_seconds"] == 1.0 and error["details"]["estimate_seconds"] > 1.0
    assert "limit of 1 s" in error["message"] and "/api/simulations/" in error["message"]


def test_the_same_games_by_greedy_are_within_the_budget(client):
    response = post(client, {"position": example("warcaster"), "games": 20})
    assert response.status_code == 200, response.content


def test_the_budget_is_a_setting(client, settings, no_engine):
    settings.HANGAR_WEB_BUDGET_SECONDS = 0.05
    error = error_of(post(client, {"position": example("hagmi"), "games": 200}))
    assert error["code"] == "budget.exceeded" and error["details"]["path"] == "games"
    assert error["details"]["limit_seconds"] == 0.05


def test_the_analysis_page_shows_the_refusal_on_its_form(client, no_engine, monkeypatch):
    monkeypatch.setattr(service, "load_position", engine_positions.load_position)  # the board is shown again
    page = client.post("/analysis/", {"position": json.dumps(example("warcaster")), "simulate": "1",
                                      "games": "50", "policy": "search"})
    assert page.status_code == 400
    content = page.content.decode()
    assert "more than the 1 s a page may play" in content and "These games were not played." in content
    assert 'class="analysis-actions"' in content  # the position stays on the page, to simulate fewer games
    assert '<span class="line-no">policy</span>' not in content  # the API's field name is no word of the page


def test_the_position_command_has_the_run_budget(settings, tmp_path):
    path = tmp_path / "p.position.json"
    path.write_text(json.dumps(example("warcaster")), encoding="utf-8")
    out = StringIO()
    call_command("position", str(path), "--simulate", "20", "--policy", "search", "--json", stdout=out)
    assert json.loads(out.getvalue())["summary"]["games"] == 20  # over a request's budget, within a command's
    settings.HANGAR_RUN_BUDGET_SECONDS = 1
    with pytest.raises(CommandError) as refused:
        call_command("position", str(path), "--simulate", "20", "--policy", "search")
    assert refused.value.returncode == 2
    assert "limit of 1 s" in str(refused.value) and "HANGAR_RUN_BUDGET_SECONDS" in str(refused.value)


# ---- quotas count engine work ----------------------------------------------------------------------------------


def test_the_quota_counts_engine_work_not_requests(settings, no_engine, monkeypatch):
    settings.HANGAR_WORK_PER_MINUTE_ANON = 2
    heavy = {"position": example("hagmi"), "games": 400}  # about 0.8 s estimated: within a request's 1 s
    assert 0.6 < budget.position_cost(heavy["position"], games=400) <= 1.0
    monkeypatch.setattr(service, "simulate_position", lambda *a, **k: {"games": 400})
    monkeypatch.setattr(service, "load_position", engine_positions.load_position)
    first = Client(REMOTE_ADDR="203.0.113.5")
    assert post(first, heavy).status_code == 200
    assert post(first, heavy).status_code == 200
    refused = post(first, heavy)
    error = error_of(refused, 429)
    assert "allowance is 2 s of engine work a minute" in error["message"] and int(refused["Retry-After"]) >= 1
    light = Client(REMOTE_ADDR="203.0.113.6")  # another address: its own allowance
    for _ in range(60):
        assert post(light, {"position": example("mwda")}).status_code == 200


# ---- runs and their commands ------------------------------------------------------------------------------------


def test_a_run_of_search_games_past_the_run_budget_is_refused(owner_client, settings):
    from builder.models import SimulationRun

    response = owner_client.post("/api/simulations/", {"document": deck(), "opponent": "goldfish",
                                                       "games": 50_000, "seed": 1, "policy": "search"},
                                 content_type="application/json")
    error = error_of(response)
    assert error["code"] == "budget.exceeded" and error["details"]["path"] == "policy"
    assert error["details"]["limit_seconds"] == 3600
    gauntlet = owner_client.post("/api/gauntlets/", {
        "document": deck(), "opponents": [{"opponent": "goldfish"}], "games": 50_000, "seed": 1,
        "policy": "search"}, content_type="application/json")
    assert error_of(gauntlet)["code"] == "budget.exceeded"
    assert not SimulationRun.objects.exists()


def test_the_simulate_command_refuses_work_past_its_budget(tmp_path, settings):
    from tests.builder.conftest import hagmi_doc

    path = tmp_path / "deck.json"
    path.write_text(json.dumps(deck()), encoding="utf-8")
    settings.HANGAR_RUN_BUDGET_SECONDS = 1
    with pytest.raises(CommandError) as refused:
        call_command("simulate", str(path), "--opponent", "goldfish", "--games", "100", "--policy", "search")
    assert refused.value.returncode == 2 and "policy:" in str(refused.value)
    with pytest.raises(CommandError) as doctor:  # a budget of 2 000 greedy games in all, past the doctor's minimum
        call_command("doctor", str(path), "--opponent", "goldfish", "--games", "2000", "--changes", "3")
    assert doctor.value.returncode == 2 and "games: a list doctor run of 2000 games in all" in str(doctor.value)


# ---- storable text and JSON errors ------------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["note", "name"])
def test_a_lone_surrogate_in_any_string_of_a_position_is_a_400_naming_it(client, where):
    doc = example("mwda")
    if where == "note":
        doc["note"] = "\ud800 broken"
        path = "note"
    else:
        doc["sides"][0]["units"][1]["name"] = "\udfff"
        path = "sides[0].units[1].name"
    body = json.dumps({"position": doc})  # ensure_ascii: the surrogate travels as the escape \ud800
    error = error_of(client.post(URL, body, content_type="application/json"))
    assert error["details"]["path"] == path and "lone surrogate" in error["message"]


def test_simulate_from_a_replays_turn_is_held_to_the_pages_budget(make_list, owner, owner_client, published,
                                                                    settings):
    from tests.web.test_replays import sample_run

    run = sample_run(make_list, owner, "hagmi")
    settings.HANGAR_WEB_BUDGET_SECONDS = 0.005  # 5 greedy HAGMI games are about 0.01 s
    response = owner_client.post(f"/simulations/{run.public_id}/games/0/from-here/", {"step": 1, "games": 5},
                                 HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "more than the 0.005 s a page may play" in response.content.decode()
