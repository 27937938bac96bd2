"""MWDA rules asked and answered as positions: each rule about play has a small hand-written position in
tests/positions/mwda/, loaded with rules_engine.positions, whose legal actions are checked, whose action ids are
played with `play_ids` and whose events and resulting position are checked. The files use the bundled package's
cards (cards/packages/mwda/core-sample.json)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules_engine.positions import PositionError, export_position, legal_moves, load_position, play_ids
from tests.rules_engine.mwda import CARDS

POSITIONS = Path(__file__).resolve().parents[2] / "tests" / "positions" / "mwda"


def position(name: str, **changes: Any) -> dict[str, Any]:
    doc = json.loads((POSITIONS / f"{name}.position.json").read_text(encoding="utf-8"))
    doc.update(changes)
    return doc


def ids(state) -> list[str]:
    return [move["id"] for move in legal_moves(state)]


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [event["kind"] for event in events]


def of_kind(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [event["data"] for event in events if event["kind"] == kind]


def unit_doc(doc: dict[str, Any], uid: int) -> dict[str, Any]:
    for side in doc["sides"]:
        for zone in ("units", "eliminated"):
            for unit in side[zone]:
                if unit["uid"] == uid:
                    return {**unit, "zone": zone}
    raise AssertionError(f"no unit {uid}")


# ---- M13: only mechs run ----------------------------------------------------------------------------------------


def test_m13_only_the_mech_is_offered_a_run():
    """M13: ラン is in the mech stat block only: the mech (uid 0) may run towards the enemy or away; the heavy
    tank (1) and the infantry (2) may only move."""
    state = load_position(position("M13-run-mechs-only"), CARDS)
    legal = ids(state)
    assert {"move:0:3:yes", "move:0:-1:yes", "move:1:3:no", "move:2:3:no"} <= set(legal)
    runs = [i for i in legal if i.endswith(":yes")]  # a run: to its best range, to the edge of a reach, or away
    assert {"move:0:3:yes", "move:0:-1:yes"} <= set(runs) and all(i.split(":")[1] == "0" for i in runs)
    with pytest.raises(PositionError) as refused:
        play_ids(state, ["move:1:3:yes"])
    assert refused.value.path == "actions[0]" and "not a legal action" in refused.value.message


def test_m13_a_running_mech_goes_twice_its_move():
    """M13: the mech's run goes 2 × 移動力 (10″) along its path; the order costs a token (M10/M11)."""
    state = load_position(position("M13-run-mechs-only"), CARDS)
    events = play_ids(state, ["move:0:3:yes"])
    assert kinds(events) == ["order", "move", "token"]
    (move,) = of_kind(events, "move")
    assert move["run"] is True and move["origin"] == [6.0, 4.0] and move["length"] == pytest.approx(20.0)
    after = export_position("mwda", state)
    mech = unit_doc(after, 0)
    assert mech["at"] == pytest.approx(move["to"], abs=1e-3) and mech["at"] != [6.0, 4.0]
    assert (mech["tokens"], mech["ordered"], after["orders_left"], after["active"]) == (1, True, 2, 0)
    assert not any(i.startswith("move:0:") for i in ids(state))  # M10: one order per unit per turn


def test_m13_option_run_all_kinds_lets_the_tank_and_the_infantry_run():
    """M13 [interpretation for other kinds]: option run_all_kinds = true offers every kind a run; the tank runs
    2 × 8″."""
    state = load_position(position("M13-run-mechs-only", options={"run_all_kinds": True}), CARDS)
    assert {"move:1:3:yes", "move:1:-1:yes", "move:2:3:yes", "move:2:-1:yes"} <= set(ids(state))
    (move,) = of_kind(play_ids(state, ["move:1:3:yes"]), "move")
    assert move["unit"] == 1 and move["run"] is True and move["length"] == pytest.approx(16.0)


# ---- M14: breakaway from any unit -------------------------------------------------------------------------------


def test_m14_a_unit_touching_only_a_friend_rolls_to_break_away_and_a_failure_spends_the_order():
    """M14: the mech (uid 0) is in base contact with a friendly infantry (1) and no enemy; moving it rolls 1d6
    first (他のユニット: any other unit). With this position's seed the roll is 2: it stays, the order is spent."""
    doc = position("M14-breakaway-from-friend")
    state = load_position(doc, CARDS)
    mech, friend = state.units[0], state.units[1]
    assert state.in_contact(mech, friend) and not state.engaged(mech)  # touching a friend, no enemy
    events = play_ids(state, ["move:0:2:no"])
    assert kinds(events) == ["order", "breakaway", "token"]
    assert of_kind(events, "breakaway") == [{"unit": 0, "roll": 2, "success": False}]
    after = export_position("mwda", state)
    assert unit_doc(after, 0)["at"] == [10.0, 4.0] and unit_doc(after, 0)["tokens"] == 1
    assert after["orders_left"] == 1 and "move:1:2:no" in ids(state)


def test_m14_on_4_to_6_the_unit_breaks_away_and_moves():
    """M14: 1d6 ≥ 4 (option breakaway_target) breaks away: the same position with seed 0 rolls 4 and moves."""
    state = load_position(position("M14-breakaway-from-friend", random={"seed": 0}), CARDS)
    events = play_ids(state, ["move:0:2:no"])
    assert of_kind(events, "breakaway") == [{"unit": 0, "roll": 4, "success": True}]
    (move,) = of_kind(events, "move")
    assert move["origin"] == [10.0, 4.0] and move["to"] == [10.0, 14.0]
    assert unit_doc(export_position("mwda", state), 0)["at"] == pytest.approx([10.0, 14.0])


def test_m14_the_friend_in_contact_rolls_too():
    state = load_position(position("M14-breakaway-from-friend"), CARDS)
    assert [event["unit"] for event in of_kind(play_ids(state, ["move:1:2:no"]), "breakaway")] == [1]


def test_m14_option_breakaway_from_enemy_lets_a_unit_leave_a_friend_without_a_roll():
    """M14 with option breakaway_from = "enemy" (the old reading): contact with a friend needs no roll."""
    state = load_position(position("M14-breakaway-from-friend", options={"breakaway_from": "enemy"}), CARDS)
    events = play_ids(state, ["move:0:2:no"])
    assert kinds(events) == ["order", "move", "token"]
    assert unit_doc(export_position("mwda", state), 0)["at"] == pytest.approx([10.0, 14.0])


# ---- M15: range (min, max] ----------------------------------------------------------------------------------------


def test_m15_a_target_exactly_at_minimum_range_cannot_be_shot_one_at_maximum_range_can():
    """M15: within (min, max] of the weapon: the missile vehicle's range is 4–14; infantry 1 is exactly 4″ away
    (too close), infantry 2 exactly 14″ and infantry 3 4.5″ away."""
    state = load_position(position("M15-minimum-range"), CARDS)
    shooter = state.units[0]
    assert [state.edge(shooter, state.units[uid]) for uid in (1, 2, 3)] == [4.0, 14.0, 4.5]
    shots = [i for i in ids(state) if i.startswith("shoot:")]
    assert shots == ["shoot:0:2:0", "shoot:0:3:0"]
    with pytest.raises(PositionError) as refused:
        play_ids(state, ["shoot:0:1:0"])
    assert refused.value.path == "actions[0]"


def test_m15_the_shot_at_maximum_range_is_rolled_and_its_damage_dealt():
    """M15/M16: attack + 3D6 ≥ defense hits (seed 0 rolls 4, 4, 1: 9 + 9 ≥ 15); 3 damage eliminates the 3-click
    infantry, whose points count for player 0; the vehicle's only order (72 points, M2) ends the turn."""
    state = load_position(position("M15-minimum-range"), CARDS)
    events = play_ids(state, ["shoot:0:2:0"])
    (attack,) = of_kind(events, "attack")
    assert (attack["target"], attack["roll"], attack["attack"], attack["defense"]) == (2, [4, 4, 1], 9, 15)
    assert attack["hit"] and attack["attack"] + sum(attack["roll"]) >= attack["defense"]
    assert of_kind(events, "eliminated") == [{"unit": 2, "code": "MW-001", "points": 20, "by": 0, "at": [2.75, 4.0]}]
    after = export_position("mwda", state)
    assert unit_doc(after, 2)["zone"] == "eliminated" and after["sides"][0]["points_destroyed"] == 20
    assert (after["active"], after["turn"], after["sides"][0]["units"][0]["damage_dealt"]) == (1, 2, 3)
