"""Gauntlet and doctor runs on the existing run pages: "my simulations", a run's page, its progress
fragment, a replay and a comparison answer without a server error (their own pages are the lead's work)."""
from __future__ import annotations

import pytest

from builder import services
from rules_engine.doctor import minimum_games
from tests.support import planted
from tests.support.simulations import play_all, published  # noqa: F401  (records chunk messages)
from tests.web.conftest import hagmi_legal_doc

pytestmark = pytest.mark.django_db


@pytest.fixture
def runs(make_list, owner, published):
    """A finished gauntlet, a finished doctor run with a confirmed change (the planted decoy of
    tests/support/planted.py: its swap back) and a queued doctor run."""
    from cards.services import package_import

    package_import(planted.mwda_package(), source="tests/support/planted")
    game_list = make_list(hagmi_legal_doc())
    opponents = [{"opponent": "goldfish", "weight": 1}]
    done_gauntlet = services.gauntlet_start(user=owner, game_list=game_list, opponents=opponents, games=4, seed=1)
    army = make_list(planted.weak_army())
    done_doctor = services.doctor_start(user=owner, game_list=army, opponents=[{"opponent": planted.OPPONENT}],
                                        changes=3, games=minimum_games(3, 1), seed=1)
    for run in (done_gauntlet, done_doctor):
        play_all(run)
    queued = services.doctor_start(user=owner, document=hagmi_legal_doc("Loose"), opponents=opponents, changes=1,
                                   games=minimum_games(1, 1), seed=2)
    return [done_gauntlet, done_doctor, queued]


def test_batch_runs_never_break_the_run_pages(owner_client, other_client, runs):
    index = owner_client.get("/simulations/")
    assert index.status_code == 200
    for run in runs:
        assert run.public_id in index.content.decode()
        assert owner_client.get(f"/simulations/{run.public_id}/").status_code == 200
        assert owner_client.get(f"/simulations/{run.public_id}/progress/").status_code == 200
        assert owner_client.get(f"/simulations/{run.public_id}/games/0/").status_code < 500
        assert other_client.get(f"/simulations/{run.public_id}/").status_code in (200, 404)
    a, b = runs[0].public_id, runs[1].public_id
    assert owner_client.get(f"/simulations/compare/?a={a}&b={b}").status_code < 500



def test_the_apply_button_saves_the_change_as_a_revision(owner_client, runs):
    doctor = runs[1]
    doctor.refresh_from_db()
    key = doctor.result["best"]
    assert key == planted.SWAP_BACK
    response = owner_client.post(f"/simulations/{doctor.public_id}/apply/", {"change": key})
    assert response.status_code == 302 and response["Location"] == f"/lists/{doctor.game_list.slug}/"
    assert doctor.game_list.revisions.count() == 2


def test_after_the_lists_cards_change_the_run_page_says_so_and_apply_saves_nothing(owner_client, owner, runs):
    """Apply stands for the run's figures: once the list's cards changed, the page hides Apply and says why, and
    a posted Apply goes back to the run with that message (409 in the API), saving nothing."""
    from django.utils.html import escape

    from builder import selectors

    doctor = runs[1]
    doctor.refresh_from_db()
    key = doctor.result["best"]
    page = owner_client.get(f"/simulations/{doctor.public_id}/").content.decode()
    assert f'value="{escape(key)}"' in page and "have changed since this doctor run" not in page
    game_list = doctor.game_list
    edited = selectors.list_document(game_list)
    edited["sections"]["army"].pop()
    services.list_update(game_list=game_list, user=owner, document=edited, expected_version=game_list.version)
    page = owner_client.get(f"/simulations/{doctor.public_id}/").content.decode()
    assert "have changed since this doctor run" in page and f'value="{escape(key)}"' not in page
    response = owner_client.post(f"/simulations/{doctor.public_id}/apply/", {"change": key}, follow=True)
    assert response.redirect_chain == [(f"/simulations/{doctor.public_id}/", 302)]
    assert "have changed since this doctor run" in response.content.decode()
    assert game_list.revisions.count() == 2  # the edit above; nothing applied


def test_gauntlet_and_doctor_pages_show_the_win_rate_going_first_and_going_second(owner_client, make_list, owner,
                                                                                  published):
    """Each gauntlet row and each row of the doctor's list as it is: the win rate going first and going second,
    each with its 95 % interval, and how the seats were chosen and who played each side."""
    game_list = make_list(hagmi_legal_doc())
    opponents = [{"opponent": "sample-vanguard", "weight": 1}]
    gauntlet = services.gauntlet_start(user=owner, game_list=game_list, opponents=opponents, games=4, seed=1)
    doctor = services.doctor_start(user=owner, game_list=game_list, opponents=opponents, changes=1, games=800,
                                   seed=1)  # the doctor's minimum budget for one change
    for run in (gauntlet, doctor):
        play_all(run)
        run.refresh_from_db()
        page = owner_client.get(f"/simulations/{run.public_id}/").content.decode()
        assert "Going first (95% interval)" in page and "Going second (95% interval)" in page
        row = run.result["opponents"][0]["result"] if run.kind == "gauntlet" else \
            run.result["baseline"]["opponents"][0]["result"]
        for seat in ("first", "second"):
            low, high = row["seats"][seat]["win_rate_interval"]
            assert f"{100 * row['seats'][seat]['win_rate']:.1f}% ({100 * low:.1f}% – {100 * high:.1f}%)" in page
        deals = row["seats"]["pairs"]
        assert deals == (2 if run.kind == "gauntlet" else row["games"] // 2)
        assert f"Who goes first: Both seats ({deals} deals, each played going first and going second)." in page
        japanese = owner_client.get(f"/simulations/{run.public_id}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
        assert "先攻（95%信頼区間）" in japanese and "後攻（95%信頼区間）" in japanese


def test_a_posted_apply_of_a_change_not_confirmed_goes_back_saying_so_and_saves_nothing(owner_client, runs):
    """Only a change confirmed better on fresh games is applied: the page shows no Apply for the others, and a
    crafted POST for one goes back to the run with the reason (409 in the API), saving nothing."""
    from django.utils.html import escape

    doctor = runs[1]
    doctor.refresh_from_db()
    key = next(change["key"] for change in doctor.result["changes"] if not change["confirmed"])
    page = owner_client.get(f"/simulations/{doctor.public_id}/").content.decode()
    assert f'value="{escape(key)}"' not in page
    revisions = doctor.game_list.revisions.count()
    response = owner_client.post(f"/simulations/{doctor.public_id}/apply/", {"change": key}, follow=True)
    assert response.redirect_chain == [(f"/simulations/{doctor.public_id}/", 302)]
    assert "was not confirmed better on fresh games" in response.content.decode()
    japanese = owner_client.post(f"/simulations/{doctor.public_id}/apply/", {"change": key}, follow=True,
                                 HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "was not confirmed better" not in japanese
    assert doctor.game_list.revisions.count() == revisions
