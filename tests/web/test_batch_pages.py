"""Gauntlet and list doctor pages: a player starts either from the list page, reads the rows per
opponent and the weighted total, reads which change helps most and applies it as a new revision; both sides'
policies can be chosen, the search policy among them."""
from __future__ import annotations

import html
import re

import pytest

from builder.models import ListRevision, SimulationRun
from tests.support import planted
from tests.support.simulations import play_all, published, small_chunks  # noqa: F401  (records chunk messages)
from tests.web.conftest import hagmi_legal_doc

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_chunks")]


def weights(page: str) -> dict[str, str]:
    """name -> label of the form's weight inputs."""
    found = {}
    for for_id, words in re.findall(r'<label for="id_((?:opponent|list)-[^"]+)">([^<]+)</label>', page):
        found[for_id] = words.strip()
    return found


def test_the_list_page_offers_a_gauntlet_and_a_doctor(make_list, owner_client):
    game_list = make_list(hagmi_legal_doc())
    page = owner_client.get(f"/lists/{game_list.slug}/").content.decode()
    assert f'href="/lists/{game_list.slug}/gauntlet/"' in page and f'href="/lists/{game_list.slug}/doctor/"' in page


def test_the_gauntlet_form_names_every_opponent_and_my_other_lists(make_list, owner_client):
    game_list = make_list(hagmi_legal_doc("Blue rush"))
    make_list(hagmi_legal_doc("Red wall"))
    page = owner_client.get(f"/lists/{game_list.slug}/gauntlet/").content.decode()
    labels = weights(page)
    assert "Sample deck: Vanguard" in labels.values() and "Your list: Red wall" in labels.values()
    assert not any("Blue rush" in words for words in labels.values())  # not against itself
    assert 'name="opponent_policy"' in page and "Search (plays out each option" in page
    ja = owner_client.get(f"/lists/{game_list.slug}/gauntlet/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "見本の相手" in ja and "自分のほかのリスト" in ja and "見本デッキ：前衛" in ja and "自分のリスト：Red wall" in ja


def test_the_gauntlet_offers_gallery_lists_and_takes_any_other_by_its_link(make_list, owner_client, other,
                                                                           published):
    """A public list of another player is an opponent: the newest are offered with a weight, any other is given by
    its link (or ID); a private list of someone else, or a list of another game, is refused next to the field."""
    game_list = make_list(hagmi_legal_doc("Blue rush"))
    theirs = make_list(hagmi_legal_doc("Their wall"), visibility="public", user=other)
    hidden = make_list(hagmi_legal_doc("Their secret"), visibility="private", user=other)
    page = owner_client.get(f"/lists/{game_list.slug}/gauntlet/").content.decode()
    assert weights(page)[f"list-{theirs.slug}"] == "Their wall by other"
    assert "Gallery lists" in page and "Their secret" not in page and 'name="another_list"' in page
    response = owner_client.post(f"/lists/{game_list.slug}/gauntlet/", {
        "opponent-goldfish": 1, f"list-{theirs.slug}": 2, "policy": "greedy", "games": 4, "seed": 1})
    assert response.status_code == 302
    run = SimulationRun.objects.get()
    assert [(leg["key"], leg["weight"]) for leg in run.snapshot["legs"]] == [
        ("goldfish", 1), (f"list:{theirs.slug}", 2)]  # weights as given; the result normalises them
    # by its link, with no weight: counts once
    response = owner_client.post(f"/lists/{game_list.slug}/gauntlet/", {
        "another_list": f"https://hangar.example/lists/{theirs.slug}/?tab=cards", "policy": "greedy", "games": 4,
        "seed": 2})
    assert response.status_code == 302
    assert [leg["key"] for leg in SimulationRun.objects.get(seed=2).snapshot["legs"]] == [f"list:{theirs.slug}"]
    for given, words in ((hidden.slug, f"There is no list {hidden.slug} of this game you may play against"),
                         (theirs.slug, "That list is already above with a weight")):
        response = owner_client.post(f"/lists/{game_list.slug}/gauntlet/", {
            "another_list": given, f"list-{theirs.slug}": 1, "policy": "greedy", "games": 4, "seed": 3})
        assert response.status_code == 400
        assert words in html.unescape(response.content.decode())
    assert not SimulationRun.objects.filter(seed=3).exists()
    ja = owner_client.get(f"/lists/{game_list.slug}/gauntlet/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "ギャラリーのリスト" in ja


def test_a_gauntlet_without_any_weight_is_refused_and_nothing_is_started(make_list, owner_client):
    game_list = make_list(hagmi_legal_doc())
    response = owner_client.post(f"/lists/{game_list.slug}/gauntlet/", {
        "opponent-sample-vanguard": 0, "opponent-goldfish": 0, "policy": "greedy", "games": 10, "seed": 1})
    assert response.status_code == 400
    assert "Give at least one opponent a weight above 0." in response.content.decode()
    assert not SimulationRun.objects.exists()


def test_a_gauntlet_run_shows_a_row_per_opponent_and_the_weighted_total(make_list, owner_client, published):
    game_list = make_list(hagmi_legal_doc("Blue rush"))
    response = owner_client.post(f"/lists/{game_list.slug}/gauntlet/", {
        "opponent-sample-vanguard": 3, "opponent-goldfish": 1, "policy": "greedy", "opponent_policy": "random",
        "games": 20, "seed": 4})
    assert response.status_code == 302, re.findall(r"<li>([^<]+)</li>", response.content.decode())
    run = SimulationRun.objects.get()
    assert response["Location"] == f"/simulations/{run.public_id}/"
    assert run.kind == "gauntlet"
    play_all(run)
    page = owner_client.get(f"/simulations/{run.public_id}/").content.decode()
    assert "Gauntlet: Blue rush" in page and "Weighted total" in page
    assert "Sample deck: Vanguard" in page and "75 %" in page and "25 %" in page
    assert f'<script id="gauntlet-{run.public_id}" type="application/json">' in page
    body = page.split('<main id="main">', 1)[1].split('id="result-link"')[0]
    assert "sample-vanguard" not in body and "goldfish" not in body
    ja = owner_client.get(f"/simulations/{run.public_id}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "ガントレット：Blue rush" in ja and "重みつき合計" in ja


@pytest.fixture
def decoy_catalog(catalog):
    """The bundled MWDA package with the planted decoy tank (tests/support/planted.py) in the catalog."""
    from cards.services import package_import

    package_import(planted.mwda_package(), source="tests/support/planted")


def test_the_doctor_page_shows_stages_verdicts_and_apply_only_on_the_confirmed_change(
        make_list, owner_client, published, decoy_catalog):
    """The planted weakness through the form: the stages, the decoy named first as a unit to cut, the correction in
    one sentence, every change with its verdict and interval (never "±"), and Apply only on the confirmed swap back;
    in Japanese too. Apply saves it as a new revision."""
    game_list = make_list(planted.weak_army())
    before = ListRevision.objects.filter(game_list=game_list).count()
    too_few = owner_client.post(f"/lists/{game_list.slug}/doctor/", {
        f"opponent-{planted.OPPONENT}": 1, "policy": "greedy", "games": 40, "seed": 2, "changes": 3})
    assert too_few.status_code == 400 and not SimulationRun.objects.exists()
    assert "needs at least 1000 games in all" in too_few.content.decode()
    ja_refusal = owner_client.post(f"/lists/{game_list.slug}/doctor/", {
        f"opponent-{planted.OPPONENT}": 1, "policy": "greedy", "games": 40, "seed": 2, "changes": 3},
        HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "1000" in ja_refusal and "needs at least" not in ja_refusal
    response = owner_client.post(f"/lists/{game_list.slug}/doctor/", {
        f"opponent-{planted.OPPONENT}": 1, "policy": "greedy", "games": 1000, "seed": 2, "changes": 3})
    run = SimulationRun.objects.get()
    assert response["Location"] == f"/simulations/{run.public_id}/" and run.kind == "doctor"
    play_all(run)
    run.refresh_from_db()
    assert [stage["stage"] for stage in run.stages] == ["screen", "confirm"]
    page = owner_client.get(f"/simulations/{run.public_id}/").content.decode()
    assert "Stages" in page and "Confirm: the list and the leaders, on fresh games" in page
    assert "Cards to cut first" in page and "Decoy Tank" in page.split("Cards to cut first")[1].split("</ul>")[0]
    assert "Holm" in page and "±" not in page
    sentences = [html.unescape(s) for s in re.findall(r'<span class="sentence">(?:<strong>)?([^<]+)', page)]
    assert len(sentences) == 3
    assert all(re.match(r"(Confirmed better|No detectable effect|Worse): [+-]\d+\.\d % \(95 % interval ", s)
               for s in sentences)
    keys = [html.unescape(key) for key in re.findall(r'<input type="hidden" name="change" value="([^"]+)">', page)]
    assert keys == [planted.SWAP_BACK] and sentences[0].startswith("Confirmed better")
    ja = owner_client.get(f"/simulations/{run.public_id}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "リスト診断" in ja and "改善を確認" in ja and "補正後のp値" in ja and "Holm" in ja
    assert "Confirmed better" not in ja and "replace" not in ja and "囮戦車" in ja
    applied = owner_client.post(f"/simulations/{run.public_id}/apply/", {"change": keys[0]})
    assert applied.status_code == 302 and applied["Location"] == f"/lists/{game_list.slug}/"
    assert ListRevision.objects.filter(game_list=game_list).count() == before + 1
    shown = owner_client.get(applied["Location"]).content.decode()
    assert "The change is saved as revision" in shown


def test_apply_with_an_unknown_change_is_a_clear_error(make_list, owner_client, published):
    game_list = make_list(hagmi_legal_doc())
    owner_client.post(f"/lists/{game_list.slug}/doctor/", {
        "opponent-sample-vanguard": 1, "policy": "greedy", "games": 800, "seed": 2, "changes": 1})
    run = SimulationRun.objects.get()
    play_all(run)
    response = owner_client.post(f"/simulations/{run.public_id}/apply/", {"change": "swap:weapons:NOPE>NOPE"})
    assert response.status_code == 400 and "NOPE" in response.content.decode()


def test_the_simulation_form_offers_the_opponent_policy(make_list, owner_client, published):
    game_list = make_list(hagmi_legal_doc())
    page = owner_client.get(f"/lists/{game_list.slug}/simulate/").content.decode()
    assert 'name="opponent_policy"' in page and "The same way as your side" in page
    owner_client.post(f"/lists/{game_list.slug}/simulate/", {
        "opponent": "sample-vanguard", "policy": "greedy", "opponent_policy": "random", "games": 10, "seed": 1})
    run = SimulationRun.objects.get()
    assert run.snapshot["opponent_policy"] == "random"
