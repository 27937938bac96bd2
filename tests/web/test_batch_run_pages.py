"""Gauntlet and doctor runs (issue 20) on the existing run pages: "my simulations", a run's page, its progress
fragment, a replay and a comparison answer without a server error (their own pages are the lead's work)."""
from __future__ import annotations

import pytest

from builder import services
from tests.support.simulations import play_all, published  # noqa: F401  (records chunk messages)
from tests.web.conftest import hagmi_legal_doc

pytestmark = pytest.mark.django_db


@pytest.fixture
def runs(make_list, owner, published):
    game_list = make_list(hagmi_legal_doc())
    opponents = [{"opponent": "goldfish", "weight": 1}]
    done_gauntlet = services.gauntlet_start(user=owner, game_list=game_list, opponents=opponents, games=4, seed=1)
    done_doctor = services.doctor_start(user=owner, game_list=game_list, opponents=opponents, changes=2, games=4,
                                        seed=1)
    for run in (done_gauntlet, done_doctor):
        play_all(run)
    queued = services.doctor_start(user=owner, document=hagmi_legal_doc("Loose"), opponents=opponents, changes=1,
                                   games=4, seed=2)
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
    key = doctor.result["changes"][0]["key"]
    response = owner_client.post(f"/simulations/{doctor.public_id}/apply/", {"change": key})
    assert response.status_code == 302 and response["Location"] == f"/lists/{doctor.game_list.slug}/"
    assert doctor.game_list.revisions.count() == 2
