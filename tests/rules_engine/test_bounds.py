"""Each game's bounds (rules_engine/bounds.py, docs/positions.md "Bounds"): a position past the real maxima of its
game's formats is refused on counts alone, naming the field; the cost factors the budgets read."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules_engine.bounds import check_position_bounds, count_items
from rules_engine.positions import PositionError, load_position
from rules_engine.systems import SYSTEMS

ROOT = Path(__file__).resolve().parents[2]


def example(system: str) -> dict:
    return json.loads((ROOT / "docs" / "positions" / f"{system}.position.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_every_game_declares_its_bounds_and_its_example_is_within_them(system):
    bounds = SYSTEMS[system].bounds
    assert bounds is not None and bounds.game_seconds > 0 and bounds.policy_factors["greedy"] == 1.0
    assert bounds.policy_factors["search"] > 10  # the search policy is counted at its cost
    check_position_bounds(example(system), bounds)


@pytest.mark.parametrize("system, option, value", [("hagmi", "max_turns", 201), ("mwda", "max_rounds", 101),
                                                   ("warcaster", "rounds", 11), ("warcaster", "turns_per_round", 11)])
def test_a_game_longer_than_any_format_is_refused_naming_the_option(system, option, value):
    doc = dict(example(system), options={option: value})
    with pytest.raises(PositionError) as refused:
        check_position_bounds(doc, SYSTEMS[system].bounds)
    assert refused.value.path == f"options.{option}"


def test_load_position_refuses_a_huge_hand_before_reading_a_card():
    doc = example("hagmi")
    doc["sides"][0]["hand"] = ["NOT-A-CARD"] * 31  # no card is looked up: the count alone refuses it
    with pytest.raises(PositionError) as refused:
        load_position(doc, {})
    assert refused.value.path == "sides[0].hand" and "31 items; at most 30" in refused.value.message


def test_a_third_side_is_refused():
    doc = example("mwda")
    doc["sides"] = doc["sides"] * 2
    with pytest.raises(PositionError) as refused:
        check_position_bounds(doc, SYSTEMS["mwda"].bounds)
    assert refused.value.path == "sides"


def test_counting_stops_just_past_the_limit():
    assert count_items({"a": ["x"] * 10, "b": {"c": "y"}}, 100) == 13
    assert count_items(["x"] * 1_000_000, 10) == 11


def test_the_cost_factors():
    hagmi = SYSTEMS["hagmi"].bounds
    assert hagmi.length_factor({"max_turns": 120}) == 2.0 and hagmi.length_factor({"max_turns": 30}) == 1.0
    assert hagmi.policy_factor("hagmi-search") == hagmi.policy_factor("search") == hagmi.policy_factors["search"]
    assert hagmi.policy_factor("first") == 1.0
