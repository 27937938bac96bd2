"""Simulation pages: start a run (services.simulation_start), progress while chunks land, result charts, compare;
the form's opponents and policies in words, and its warning for an illegal list."""
from __future__ import annotations

import json
import re

import pytest

from django.utils import translation

from builder import services
from builder.models import SimulationRun
from builder.web import vocabulary
from tests.support.simulations import play_all, published, small_chunks  # noqa: F401  (records chunk messages)
from tests.web.conftest import hagmi_legal_doc
from tests.web.test_replays import PACKAGES

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_chunks")]


def start(client, game_list, **fields):
    data = {"opponent": "goldfish", "policy": "greedy", "games": 1000, "seed": 7, **fields}
    return client.post(f"/lists/{game_list.slug}/simulate/", data)


def options(page: str, name: str) -> list[tuple[str, str, bool]]:
    """(value, words, selected) of the <select name=...> options, in order."""
    select = re.search(rf'<select name="{name}".*?</select>', page, re.S)
    assert select, name
    return [(value, words.strip(), bool(selected)) for value, selected, words in
            re.findall(r'<option value="([^"]*)"( selected)?>([^<]*)</option>', select.group(0))]


def test_start_a_run_then_progress_moves_in_games_and_the_result_has_charts(make_list, owner_client, published):
    game_list = make_list(hagmi_legal_doc())
    response = start(owner_client, game_list)
    run = SimulationRun.objects.get()
    assert response["Location"] == f"/simulations/{run.public_id}/"
    page = owner_client.get(f"/simulations/{run.public_id}/").content.decode()
    assert '<progress id="progress-bar" max="100" value="0">' in page
    assert "0 of 1,000 games played" in page and "chunk" not in page  # games, never the workers' chunks
    assert 'hx-trigger="every 1s"' in page and 'http-equiv="refresh"' in page  # htmx polling, or a refresh without JS
    services.simulation_chunk_play(run_id=run.pk, index=0, worker="test")
    partial = owner_client.get(f"/simulations/{run.public_id}/progress/", HTTP_HX_REQUEST="true")
    assert 'value="50"' in partial.content.decode() and "HX-Refresh" not in partial
    assert "500 of 1,000 games played" in partial.content.decode()
    services.simulation_chunk_play(run_id=run.pk, index=1, worker="test")
    partial = owner_client.get(f"/simulations/{run.public_id}/progress/", HTTP_HX_REQUEST="true")
    assert partial["HX-Refresh"] == "true"  # done: the page reloads to show the result
    page = owner_client.get(f"/simulations/{run.public_id}/").content.decode()
    assert 'value="100"' in page and 'class="winrate"' in page and "1,000 of 1,000 games played" in page
    for chart in ("win", "outcomes", "turns", "first-unit", "cards", "ended"):
        assert f'<script id="{chart}-{run.public_id}" type="application/json">' in page, chart
    assert f'id="stat-damage-{run.public_id}"' in page  # damage per turn is a mean: a figure, not a one-bar chart
    assert f'id="damage-{run.public_id}"' not in page
    assert f"http://testserver/simulations/{run.public_id}/" in page  # the result link


def test_a_run_page_is_titled_list_vs_opponent_with_the_policy_in_words(make_list, owner_client, published):
    game_list = make_list(hagmi_legal_doc("Blue rush"))
    start(owner_client, game_list, opponent="sample-vanguard", games=4)
    run = SimulationRun.objects.get()
    play_all(run)
    page = owner_client.get(f"/simulations/{run.public_id}/").content.decode()
    assert "<title>Blue rush vs Sample deck: Vanguard · Hangar</title>" in page
    assert '<h1 class="run-title">Blue rush vs Sample deck: Vanguard</h1>' in page
    assert "Greedy (plays the strongest card it can)" in page
    body = page.split('<main id="main">', 1)[1]
    for slug in ("sample-vanguard", ">greedy<", " greedy ", "hagmi-greedy"):
        assert slug not in body.split('id="result-link"')[0], slug  # (the result link holds the run's id, no slug)
    page = owner_client.get(f"/simulations/{run.public_id}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    with translation.override("ja"):
        policy = vocabulary.label("hagmi", "policy", "greedy")
    assert "Blue rush 対 見本デッキ：前衛" in page and policy in page and "4戦中 4戦 完了" in page
    assert "Greedy" not in page


def test_simulation_pages_link_to_how_the_simulator_plays(make_list, owner_client, published):
    """A player can read the rules the engine plays (and its interpretations) from the form and from a result."""
    game_list = make_list(hagmi_legal_doc())
    form = owner_client.get(f"/lists/{game_list.slug}/simulate/").content.decode()
    assert 'href="/rules/hagmi/#simulator"' in form
    start(owner_client, game_list)
    run = SimulationRun.objects.get()
    assert 'href="/rules/hagmi/#simulator"' in owner_client.get(f"/simulations/{run.public_id}/").content.decode()


@pytest.mark.parametrize("system, document, first, policies", [
    ("hagmi", None, "sample-fortress", ["greedy", "search", "random"]),
    ("mwda", "highland-line", "republic-knight-guard", ["greedy", "defensive", "search", "random"]),
    ("warcaster", "isa-starsteel-vanguard", "isa-thunder-lancers", ["greedy", "search", "random"]),
])
def test_the_form_defaults_to_a_real_opponent_not_a_mirror_and_names_the_goldfish_target_practice(
        make_list, owner_client, published, system, document, first, policies):
    doc = hagmi_legal_doc() if document is None else json.loads(
        (PACKAGES / system / "lists" / f"{document}.json").read_text(encoding="utf-8"))
    game_list = make_list(doc)
    page = owner_client.get(f"/lists/{game_list.slug}/simulate/").content.decode()
    opponents = options(page, "opponent")
    assert opponents[0][0] == first and opponents[0][2], opponents  # a sample deck/army/force, selected
    if document is not None:  # a copy of a sample list: its mirror comes after the other samples, never the default
        samples = [value for value, _words, _selected in opponents]
        assert samples.index(document) > samples.index(first)
    assert opponents[-1][0] == "goldfish" and opponents[-1][1].startswith("Target practice"), opponents
    assert all(value != words for value, words, _selected in opponents)  # names, never slugs
    if system != "hagmi":
        assert opponents[-1][1] == "Target practice: stationary targets"
    shown = options(page, "policy")
    assert [value for value, _words, _selected in shown] == policies
    if system == "hagmi":
        assert shown[0][1] == "Greedy (plays the strongest card it can)"
    else:  # the card game's words are not the miniatures games'
        assert "strongest card" not in page
    if system == "mwda":
        assert shown[1][1] == "Defensive (shoots from range, never charges, falls back)"
    page = owner_client.get(f"/lists/{game_list.slug}/simulate/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    if system != "hagmi":
        assert options(page, "opponent")[-1][1] == "射撃練習：動かない標的"


def test_an_illegal_list_is_simulated_with_a_warning_naming_what_is_wrong(make_list, owner_client, published):
    document = hagmi_legal_doc("Too few")
    document["sections"]["weapons"] = document["sections"]["weapons"][:3]  # 6 兵器, not 20
    game_list = make_list(document)
    assert not game_list.legal
    form = owner_client.get(f"/lists/{game_list.slug}/simulate/").content.decode()
    assert 'class="sim-illegal"' in form and "This list is not legal" in form and "H1" in form
    response = start(owner_client, game_list, games=4)
    run = SimulationRun.objects.get()
    assert response.status_code == 302  # a warning, not a block
    play_all(run)
    page = owner_client.get(f"/simulations/{run.public_id}/").content.decode()
    assert 'class="sim-illegal"' in page and "This list was not legal" in page and "H1" in page
    legal = make_list(hagmi_legal_doc("Fine"))
    assert 'class="sim-illegal"' not in owner_client.get(f"/lists/{legal.slug}/simulate/").content.decode()


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
    game_list = make_list(hagmi_legal_doc("Secret plan"))
    start(owner_client, game_list)
    run = SimulationRun.objects.get()
    play_all(run)
    for visitor in (other_client, client):  # another user, and nobody logged in
        page = visitor.get(f"/simulations/{run.public_id}/")
        assert page.status_code == 200 and 'class="winrate"' in page.content.decode()
        assert "Secret plan" not in page.content.decode()  # a private list's name stays its owner's
        assert "a private list vs" in page.content.decode()
    assert other_client.get(f"/simulations/{run.public_id}/progress/").status_code == 404


def test_two_runs_side_by_side_by_their_names(make_list, owner_client, published):
    game_list = make_list(hagmi_legal_doc("Blue rush"))
    start(owner_client, game_list, seed=1, games=500, opponent="sample-vanguard")
    start(owner_client, game_list, seed=2, games=500)
    runs = list(SimulationRun.objects.order_by("id"))
    for run in runs:
        play_all(run)
    listing = owner_client.get("/simulations/").content.decode()
    assert f'href="/simulations/{runs[0].public_id}/">Blue rush</a>' in listing
    assert "Sample deck: Vanguard" in listing and "Greedy (plays the strongest card it can)" in listing
    assert ">sample-vanguard<" not in listing and ">greedy<" not in listing
    assert f">{runs[0].public_id}<" not in listing  # the run's id is its link, not its name
    page = owner_client.get("/simulations/compare/", {"a": runs[0].public_id, "b": runs[1].public_id}).content
    page = page.decode()
    assert page.count('class="winrate"') == 2 and '<script id="compare" type="application/json">' in page
    assert "A: <a" in page and "Blue rush vs Sample deck: Vanguard</a>" in page
    table = page.split('<table class="compare-figures">', 1)[1].split("</table>", 1)[0]
    rates = [f"{100 * SimulationRun.objects.get(pk=run.pk).result['win_rate']:.1f}%" for run in runs]
    assert f"<th scope=\"row\">Win rate</th><td>{rates[0]}</td><td>{rates[1]}</td>" in table
    assert f">{runs[0].public_id}<" not in page and "sample-vanguard" not in page.split("<main", 1)[1]


def test_an_mwda_army_plays_defensively_when_asked(make_list, owner_client, published):
    document = json.loads((PACKAGES / "mwda" / "lists" / "highland-line.json").read_text(encoding="utf-8"))
    game_list = make_list(document)
    response = start(owner_client, game_list, opponent="steel-wolves-pack", policy="defensive", games=2)
    run = SimulationRun.objects.get()
    assert response.status_code == 302 and run.policy == "defensive"
    play_all(run)
    page = owner_client.get(f"/simulations/{run.public_id}/").content.decode()
    assert "Defensive (shoots from range, never charges, falls back)" in page and 'class="winrate"' in page


def test_a_run_page_shows_the_win_rate_going_first_and_going_second_with_intervals(make_list, owner_client,
                                                                                    published):
    """The form offers the three seat modes in words; the result gives the win rate going first and going second,
    each with its 95 % interval, how the seats were chosen and who played each side, in English and Japanese."""
    game_list = make_list(hagmi_legal_doc("Blue rush"))
    form = owner_client.get(f"/lists/{game_list.slug}/simulate/").content.decode()
    assert [value for value, _words, _selected in options(form, "seats")] == ["both", "list-first", "random"]
    assert options(form, "seats")[0][2], "both seats is the default"
    assert "Going first is worth a lot" in form
    bad = start(owner_client, game_list, opponent="sample-vanguard", games=4, seats="sometimes")
    assert bad.status_code == 400 and not SimulationRun.objects.exists()
    start(owner_client, game_list, opponent="sample-vanguard", games=6, seats="both")
    run = SimulationRun.objects.get()
    play_all(run)
    run.refresh_from_db()
    seats = run.result["seats"]
    page = owner_client.get(f"/simulations/{run.public_id}/").content.decode()
    assert "Win rate going first" in page and "Win rate going second" in page
    for seat in ("first", "second"):
        low, high = seats[seat]["win_rate_interval"]
        figure = re.search(rf'<div id="stat-seat-{seat}-{run.public_id}"><dt>(.*?)</dt><dd>(.*?)</dd>', page)
        assert figure, seat
        assert figure.group(2) == (f"{100 * seats[seat]['win_rate']:.1f}% <span class=\"figure-detail\">95% interval "
                                   f"{100 * low:.1f}% – {100 * high:.1f}%, 3 games</span>")
    assert "Who goes first: Both seats (3 deals, each played going first and going second)" in page
    assert f'<script id="seats-{run.public_id}" type="application/json">' in page
    assert ("Greedy (plays the strongest card it can) for you, Greedy (plays the strongest card it can) for the "
            "opponent") in page
    japanese = owner_client.get(f"/simulations/{run.public_id}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "先攻の勝率" in japanese and "後攻の勝率" in japanese
    assert "先攻・後攻：両方（3通りの配りを先攻と後攻で1回ずつ）" in japanese and "95%信頼区間" in japanese
    assert "Win rate going first" not in japanese


def test_against_the_beasts_the_page_says_the_order_is_fixed_by_the_rules(make_list, owner_client, published):
    game_list = make_list(hagmi_legal_doc("Blue rush"))
    start(owner_client, game_list, opponent="coop-ironshell-cradle", games=2, seats="random")
    run = SimulationRun.objects.get()
    play_all(run)
    page = owner_client.get(f"/simulations/{run.public_id}/").content.decode()
    assert "Fixed by the rules (the players always go first)" in page and "no games in this seat" in page
    assert "for you; the opponent is played by the rules" in page
