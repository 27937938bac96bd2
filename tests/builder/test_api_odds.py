"""POST /api/odds/: exact draw odds for a saved or posted HAGMI! list."""
import json
from pathlib import Path

import pytest
import scipy.stats
from rest_framework.test import APIClient
from tests.support.bundled_catalog import load_bundled_catalog


ROOT = Path(__file__).resolve().parents[2]
DECK = json.loads((ROOT / "cards/packages/hagmi/lists/akane-assault.json").read_text(encoding="utf-8"))


@pytest.fixture
def client(db):
    load_bundled_catalog()
    return APIClient()


def test_odds_for_a_posted_document_match_the_hypergeometric_answer(client):
    group = [entry["card"] for entry in DECK["sections"]["weapons"][:3]]
    response = client.post("/api/odds/", {"document": DECK, "deck": "weapons", "groups": [{"cards": group}]},
                           format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["draws"] == 2 and body["deck_size"] == 20
    expected = scipy.stats.hypergeom(20, body["groups"][0]["copies"], 2).sf(0)
    assert body["probability"] == pytest.approx(expected, abs=1e-9)


def test_odds_for_a_saved_list_respect_its_privacy(client, django_user_model):
    owner = django_user_model.objects.create_user("owner", password="a-long-password-1")
    client.force_authenticate(owner)
    created = client.post("/api/lists/", {"document": DECK}, format="json")
    slug = created.json()["slug"]
    tactic = DECK["sections"]["tactics"][0]["card"]
    question = {"list": slug, "deck": "tactics", "draws": 5, "groups": [{"cards": [tactic], "at_least": 1}]}
    mine = client.post("/api/odds/", question, format="json")
    assert mine.status_code == 200, mine.content
    assert 0 < mine.json()["probability"] < 1
    client.force_authenticate(None)
    assert client.post("/api/odds/", question, format="json").status_code == 404


@pytest.mark.parametrize(
    "body, fragment",
    [
        ({"deck": "weapons", "groups": [{"cards": ["HS-001"]}]}, "Give `list`"),
        ({"document": DECK, "deck": "graveyard", "groups": [{"cards": ["HS-001"]}]}, "deck"),
        ({"document": DECK, "deck": "weapons", "groups": [{"cards": ["HS-999"]}]}, "HS-999"),
        ({"document": {**DECK, "system": "mwda"}, "deck": "weapons", "groups": [{"cards": ["HS-001"]}]}, "HAGMI"),
    ],
)
def test_bad_questions_get_a_400_that_names_the_problem(client, body, fragment):
    response = client.post("/api/odds/", body, format="json")
    assert response.status_code == 400
    assert fragment in response.json()["error"]["message"]
