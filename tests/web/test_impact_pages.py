"""Test every card, on the site: started from the list page, read on the run's page — the measured effects (a chart
with its numbers under a toggle, a verdict per card only after correction) and, labelled apart, the correlation
figures of the list's own games; the plain result page carries the correlation figures too. The API starts the
same run; a private list's cards are tested only for its owner."""
from __future__ import annotations

import html
import re

import pytest

from builder.models import SimulationRun
from tests.support import planted
from tests.support.simulations import play_all, published, small_chunks  # noqa: F401  (records chunk messages)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_chunks")]


def _run(owner_client, game_list, **extra):
    response = owner_client.post(f"/lists/{game_list.slug}/impact/", {
        f"opponent-{planted.OPPONENT}": 1, "policy": "greedy", "games": 1000, "seed": 1, **extra})
    assert response.status_code == 302, re.findall(r"<li>([^<]+)</li>", response.content.decode())
    run = SimulationRun.objects.get()
    assert response["Location"] == f"/simulations/{run.public_id}/"
    play_all(run)
    run.refresh_from_db()
    return run


def test_the_list_page_and_a_result_offer_test_every_card(make_list, owner_client):
    game_list = make_list(planted.strong_army())
    page = owner_client.get(f"/lists/{game_list.slug}/").content.decode()
    assert f'href="/lists/{game_list.slug}/impact/"' in page
    form = owner_client.get(f"/lists/{game_list.slug}/impact/").content.decode()
    assert "Test every card of" in form and "one copy of it out" in form


def test_a_budget_below_the_minimum_is_refused_in_words_and_nothing_starts(make_list, owner_client, published):
    game_list = make_list(planted.strong_army())
    response = owner_client.post(f"/lists/{game_list.slug}/impact/", {
        f"opponent-{planted.OPPONENT}": 1, "policy": "greedy", "games": 500, "seed": 1})
    assert response.status_code == 400 and not SimulationRun.objects.exists()
    assert "needs at least 1000 games in all" in response.content.decode()


def test_the_impact_page_labels_effects_and_correlations_apart_in_english_and_japanese(
        make_list, owner_client, published):
    """Highland Line against the Knight Guard: the grenadiers are confirmed to help; every card has a sentence and
    a row of numbers under the toggle; the chart is an inline SVG; the correlation tables come after, each badged
    "Correlation" and saying it is not an effect."""
    game_list = make_list(planted.strong_army())
    run = _run(owner_client, game_list)
    assert run.kind == "doctor" and run.result["variant"] == "impact"
    page = owner_client.get(f"/simulations/{run.public_id}/").content.decode()
    assert "Test every card: 高地連隊の戦列" in page and "3 cards out against 1 opponent" in page
    effects, correlations = page.split('id="impact-effects"', 1)[1].split('id="impact-correlations"', 1)
    assert '<span class="badge effect">Measured effect</span>' in effects and "Correlation" not in effects
    assert '<svg class="impact-chart"' in effects and "<details" in effects and "<summary>Numbers</summary>" in effects
    sentences = [html.unescape(s) for s in re.findall(r'<span class="sentence">([^<]+)', effects)]
    assert len(sentences) == 3 and sentences[0].startswith("Helps (confirmed): +")
    assert "Highland Grenadiers" in sentences[0] and "Holm" in effects
    assert all(re.match(r"(Helps \(confirmed\)|Hurts \(confirmed\)|No detectable effect): [+-]", s) for s in sentences)
    assert '<span class="badge corr">Correlation</span>' in correlations and "not an effect" in correlations
    assert correlations.count("<tr") == 1 + 3  # heading and one row per unit
    assert "Apply" not in effects  # removing a helping card is never offered
    ja = owner_client.get(f"/simulations/{run.public_id}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "効果あり（確認済み）" in ja and "相関" in ja and "Helps" not in ja and "Correlation" not in ja
    assert "全カードを検証：" in ja and "使ったときの勝率（±95%区間）" in ja and "Win rate" not in ja


def test_the_plain_result_page_shows_the_correlation_figures(make_list, owner_client, published):
    game_list = make_list(planted.strong_army())
    response = owner_client.post(f"/lists/{game_list.slug}/simulate/", {
        "opponent": planted.OPPONENT, "policy": "greedy", "games": 20, "seed": 3})
    run = SimulationRun.objects.get()
    play_all(run)
    page = owner_client.get(response["Location"]).content.decode()
    assert "Win rate when each card was used (a correlation)" in page and "not an effect" in page
    assert "A unit counts as used in a battle when it dealt damage." in page
    assert f'href="/lists/{game_list.slug}/impact/"' in page


def test_the_api_starts_it_and_a_private_list_is_tested_only_for_its_owner(make_list, owner_client, other_client,
                                                                           published):
    game_list = make_list(planted.strong_army())
    body = {"list": game_list.slug, "opponents": [{"opponent": planted.OPPONENT}], "games": 1000, "seed": 1}
    started = owner_client.post("/api/impact/", body, content_type="application/json")
    assert started.status_code == 202, started.content
    run = SimulationRun.objects.get()
    assert run.snapshot["variant"] == "impact"
    assert {leg["change"] for leg in run.snapshot["legs"]} == {
        "baseline", "remove:army:MW-017", "remove:army:MW-019", "remove:army:MW-020"}
    refused = other_client.post("/api/impact/", body, content_type="application/json")
    assert refused.status_code == 404 and SimulationRun.objects.count() == 1
    page = other_client.get(f"/lists/{game_list.slug}/impact/")
    assert page.status_code == 404
    too_few = owner_client.post("/api/impact/", {**body, "games": 999}, content_type="application/json")
    assert too_few.status_code == 400 and too_few.json()["error"]["details"]["minimum"] == 1000
    schema = owner_client.get("/api/schema/").content.decode()
    assert "/api/impact/" in schema


def test_a_hagmi_result_shows_the_games_each_card_was_drawn_in(make_list, owner_client, published):
    from tests.web.conftest import hagmi_legal_doc

    game_list = make_list(hagmi_legal_doc())
    response = owner_client.post(f"/lists/{game_list.slug}/simulate/", {
        "opponent": "sample-vanguard", "policy": "greedy", "games": 10, "seed": 3})
    run = SimulationRun.objects.get()
    play_all(run)
    page = owner_client.get(response["Location"]).content.decode()
    table = page.split('class="card-impact-table"', 1)[1].split("</table>", 1)[0]
    assert "Drawn in" in table and "Win rate when drawn" in table and table.count("<tr") == 1 + 20
    ja = owner_client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "引いたときの勝率" in ja and "Drawn in" not in ja


def test_a_one_unit_army_is_refused_in_words_and_nothing_starts(make_list, owner_client, published):
    army = planted.strong_army()
    army["sections"]["army"] = army["sections"]["army"][:1]
    game_list = make_list(army)
    for language, words in (("en", "has a single card (unit)"), ("ja", "1つだけです")):
        response = owner_client.post(f"/lists/{game_list.slug}/impact/", {
            f"opponent-{planted.OPPONENT}": 1, "policy": "greedy", "games": 1000, "seed": 1},
            HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 400 and words in response.content.decode()
    api = owner_client.post("/api/impact/", {"list": game_list.slug, "opponents": [{"opponent": planted.OPPONENT}],
                                             "games": 1000, "seed": 1}, content_type="application/json")
    assert api.status_code == 400 and api.json()["error"]["code"] == "impact.too_few_cards"
    assert not SimulationRun.objects.exists()
