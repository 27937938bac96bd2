"""Exact draw odds: checked against scipy.stats.hypergeom and against the engine's own shuffles."""
import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
import scipy.stats

from rules_engine.core.catalog import Catalog
from rules_engine.core.rng import game_rng
from rules_engine.hagmi.game import HagmiGame
from rules_engine.hagmi.odds import OddsError, draw_odds

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = json.loads((ROOT / "cards/packages/hagmi/core.json").read_text(encoding="utf-8"))
DECK = json.loads((ROOT / "cards/packages/hagmi/lists/akane-assault.json").read_text(encoding="utf-8"))


def weapons_codes(n: int) -> list[str]:
    return [entry["card"] for entry in DECK["sections"]["weapons"][:n]]


@pytest.mark.parametrize("draws", [1, 2, 5, 10])
@pytest.mark.parametrize("at_least", [1, 2])
def test_single_group_matches_scipy_hypergeom(draws, at_least):
    group = weapons_codes(3)
    result = draw_odds(DECK, deck="weapons", groups=[{"cards": group, "at_least": at_least}], draws=draws)
    copies = result["groups"][0]["copies"]
    expected = scipy.stats.hypergeom(result["deck_size"], copies, draws).sf(at_least - 1)
    assert result["probability"] == pytest.approx(expected, abs=1e-9)
    assert float(Fraction(result["exact"])) == pytest.approx(expected, abs=1e-12)


def test_two_groups_need_both():
    first, second = weapons_codes(2), weapons_codes(5)[3:5]
    both = draw_odds(DECK, deck="weapons", draws=5,
                     groups=[{"cards": first, "at_least": 1}, {"cards": second, "at_least": 1}])
    alone = draw_odds(DECK, deck="weapons", draws=5, groups=[{"cards": first, "at_least": 1}])
    assert 0 < both["probability"] < alone["probability"]


def test_opening_hand_odds_match_the_engines_shuffles_within_three_standard_errors():
    """The opening hand draws 2 from 兵器 (opening_split 2/2): the engine's games agree with the exact answer."""
    group = weapons_codes(3)
    exact = draw_odds(DECK, deck="weapons", groups=[{"cards": group, "at_least": 1}])["probability"]
    catalog = Catalog.build("hagmi", PACKAGE["cards"], PACKAGE["formats"])
    game = HagmiGame(DECK, catalog, {"kind": "goldfish", "damage_deck": []})
    games, hits = 4000, 0
    for index in range(games):
        state = game.new_initial_state(game_rng(2026, index))
        opening = state.players[0].hand[:2]  # the first two draws are the 兵器 half of the opening hand
        hits += any(state.card(uid).code in group for uid in opening)
    standard_error = math.sqrt(exact * (1 - exact) / games)
    assert abs(hits / games - exact) <= 3 * standard_error


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"deck": "damage", "groups": [{"cards": ["HS-001"]}]}, "deck"),
        ({"deck": "weapons", "groups": []}, "groups"),
        ({"deck": "weapons", "groups": [{"cards": ["HS-999"]}]}, "not in the 兵器"),
        ({"deck": "weapons", "groups": [{"cards": ["HS-001"], "at_least": -1}]}, "at_least"),
        ({"deck": "weapons", "groups": [{"cards": ["HS-001"]}], "draws": 1000}, "draws"),
        ({"deck": "weapons", "groups": [{"cards": ["HS-001"]}, {"cards": ["HS-001"]}]}, "must not share"),
    ],
)
def test_bad_questions_name_the_field(kwargs, message):
    with pytest.raises(OddsError, match=message):
        draw_odds(DECK, **kwargs)
