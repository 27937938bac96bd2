"""The Warcaster rules of play, asked and answered as positions (tests/positions/warcaster/): each file is
loaded, its legal actions checked, action ids played (rules_engine.positions.play_ids, as `manage.py position FILE
--play ID` does) and the events and the resulting position checked."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from rules_engine.positions import PositionError, export_position, legal_moves, load_position, play_ids
from tests.rules_engine.warcaster import CARDS

POSITIONS = Path(__file__).resolve().parents[2] / "tests" / "positions" / "warcaster"


def _position(name: str, **options) -> dict:
    doc = json.loads((POSITIONS / f"{name}.position.json").read_text(encoding="utf-8"))
    doc["options"] = {**doc.get("options", {}), **options}
    return doc


def _kinds(events: list[dict]) -> list[str]:
    return [e["kind"] for e in events]


def _turn_events(events: list[dict], player: int) -> list[dict]:
    """The events of `player`'s turn that the played action ends (up to the next turn_start)."""
    end = next(i for i, e in enumerate(events) if e["kind"] == "turn_start")
    return [e for e in events[:end] if e["player"] == player]


# ---- W10 phase 8: one optional discard; the hand limit applies when drawing up -----------------------------------


def test_w10_discard_phase_pass_is_legal_above_the_hand_limit_and_nothing_is_drawn():
    """W10 phase 8 (好きなサイファーカードを1枚、破棄することが出来る): with 7 cyphers, 2 above the hand limit, "pass" is
    legal; passing keeps all 7, and phase 9 draws nothing (the limit applies when drawing up)."""
    doc = _position("W10-discard-optional")
    state = load_position(doc, CARDS)
    ids = [move["id"] for move in legal_moves(state)]
    assert ids[0] == "pass" and {f"discard:{code}" for code in doc["sides"][0]["hand"]} <= set(ids)
    events = play_ids(state, ["pass"])
    mine = _turn_events(events, 0)
    assert _kinds(mine) == ["draw"] and mine[0]["data"] == {"count": 0, "hand": 7}
    after = export_position("warcaster", state)
    assert after["sides"][0]["hand"] == doc["sides"][0]["hand"] and after["sides"][0]["discard"] == []
    assert after["sides"][0]["deck"] == doc["sides"][0]["deck"]
    assert (after["turn"]["player"], after["turn"]["phase"], after["turn"]["number"]) == (0, "charge", 3)


def test_w10_discard_phase_is_one_discard_even_above_the_hand_limit():
    """W10 phase 8: one card at most. After one discard the hand (6) is still above the limit, yet the turn goes on
    to the draw (which draws nothing) and the next player's turn."""
    state = load_position(_position("W10-discard-optional"), CARDS)
    events = play_ids(state, ["discard:WC-C04"])
    mine = _turn_events(events, 0)
    assert _kinds(mine) == ["discard", "draw"]
    assert mine[0]["data"] == {"card": "WC-C04"} and mine[1]["data"] == {"count": 0, "hand": 6}
    after = export_position("warcaster", state)
    assert after["sides"][0]["discard"] == ["WC-C04"] and len(after["sides"][0]["hand"]) == 6
    assert "WC-C04" not in after["sides"][0]["hand"]


def test_w10_draw_up_to_the_hand_limit_from_the_top_of_the_deck():
    """W10 phase 9: a hand below the limit draws up to it, from the top of the deck (a position's deck is written
    top card first)."""
    doc = _position("W10-discard-optional")
    doc["sides"][0]["hand"] = doc["sides"][0]["hand"][:3]
    state = load_position(doc, CARDS)
    mine = _turn_events(play_ids(state, ["pass"]), 0)
    assert mine[0]["data"] == {"count": 2, "hand": 5}
    after = export_position("warcaster", state)
    assert after["sides"][0]["hand"] == doc["sides"][0]["hand"] + ["WC-C17", "WC-C21"]
    assert after["sides"][0]["deck"] == ["WC-C22", "WC-C24", "WC-C25"]


def test_w10_option_discard_to_hand_limit_refuses_pass_above_the_limit():
    """Option discard_to_hand_limit (the reading before 2026.12.2): above the limit there is no "pass", and the
    player discards until the hand is down to it."""
    state = load_position(_position("W10-discard-optional", discard_to_hand_limit=True), CARDS)
    assert "pass" not in [move["id"] for move in legal_moves(state)]
    with pytest.raises(PositionError) as error:
        play_ids(state, ["pass"])
    assert error.value.path == "actions[0]"
    state = load_position(_position("W10-discard-optional", discard_to_hand_limit=True), CARDS)
    events = play_ids(state, ["discard:WC-C01", "discard:WC-C04"])
    assert _kinds(_turn_events(events, 0)) == ["discard", "discard", "draw"]
    assert len(export_position("warcaster", state)["sides"][0]["hand"]) == 5


# ---- W15: fire and corrosion damage goes straight to health, past a cypher's shield ------------------------------


def test_w15_fire_damage_at_the_round_end_goes_past_the_shield_to_health():
    """W15 (「ヘルスへの直接ダメージ」, seed 003): the round ends with the Iwao burning behind a shield of 3; the action
    die keeps the fire with 2 strikes, and both go to health: no shield_absorbed event, health 5 → 3."""
    doc = _position("W15-fire-past-shield")
    state = load_position(doc, CARDS)
    assert [move["id"] for move in legal_moves(state)][0] == "pass"
    events = play_ids(state, ["pass"])
    end = events[next(i for i, e in enumerate(events) if e["kind"] == "round_end"):]
    fire = [e for e in end if e["kind"] in ("effect", "shield_absorbed", "damage")]
    assert [(e["kind"], e["data"].get("change"), e["data"].get("amount")) for e in fire[:2]] == [
        ("effect", "kept", None), ("damage", None, 2)]
    assert fire[0]["data"]["roll"] == 2 and fire[1]["data"]["source"] == "fire" and fire[1]["data"]["health"] == 3
    assert "shield_absorbed" not in _kinds(events)
    iwao = export_position("warcaster", state)["sides"][1]["units"][0]["models"][0]
    assert iwao["health"] == 3 and iwao["effects"] == ["fire"]
    assert iwao["shield"] == 0  # shields last the pulse round: gone at its end, after the effects' roll


def test_w15_option_continuous_damage_direct_false_lets_the_shield_absorb_it():
    """Option continuous_damage_direct = false (the old reading): the same roll, and the shield takes both points."""
    state = load_position(_position("W15-fire-past-shield", continuous_damage_direct=False), CARDS)
    events = play_ids(state, ["pass"])
    absorbed = [e for e in events if e["kind"] == "shield_absorbed"]
    assert [e["data"] for e in absorbed] == [{"model": 1, "amount": 2}]
    assert not [e for e in events if e["kind"] == "damage" and e["data"]["source"] == "fire"]
    assert export_position("warcaster", state)["sides"][1]["units"][0]["models"][0]["health"] == 5


# ---- W10 phase 2: charge one arc, or recall any amount from several holders -------------------------------------


def _arc(after: dict) -> tuple[list[int], list[int], int]:
    """Player 0's arc: on each unit, on each gate, in the pool."""
    side = after["sides"][0]
    return [unit["arc"] for unit in side["units"]], [gate["arc"] for gate in side["gates"]], side["pool"]


def test_w10_charging_recalls_from_a_unit_and_void_gates_one_arc_at_a_time_then_end():
    """W10 phase 2 (または任意の量のアークを盤上の味方ユニットとヴォイドゲートから回収): five recalls from the squad,
    the mantlet and both gates in one charging phase, each 1 arc into the pool; the phase goes on ("recall": `end`
    first, then recalls only) until `end`."""
    state = load_position(_position("W10-charging-recall"), CARDS)
    assert [move["id"] for move in legal_moves(state)] == [
        "pass", "charge:unit:0", "charge:unit:1", "charge:gate:0", "charge:gate:1",
        "recall:unit:0:1", "recall:unit:1:1", "recall:gate:0:1", "recall:gate:1:1"]
    recalls = ["recall:gate:0:1", "recall:unit:0:1", "recall:gate:1:1", "recall:gate:0:1", "recall:unit:1:1"]
    events = play_ids(state, recalls[:1])
    assert [move["id"] for move in legal_moves(state)] == [
        "end", "recall:unit:0:1", "recall:unit:1:1", "recall:gate:0:1", "recall:gate:1:1"]  # no charge once recalling
    events += play_ids(state, recalls[1:])
    assert [(e["kind"], e["data"]["holder"], e["data"]["uid"], e["data"]["amount"], e["data"]["arc"], e["data"]["pool"])
            for e in events] == [("recall", "gate", 0, 1, 3, 7), ("recall", "unit", 0, 1, 1, 8),
                                 ("recall", "gate", 1, 1, 1, 9), ("recall", "gate", 0, 1, 2, 10),
                                 ("recall", "unit", 1, 1, 0, 11)]
    after = export_position("warcaster", state)
    assert after["turn"]["phase"] == "recall" and _arc(after) == ([1, 0], [2, 1], 11)
    assert [move["id"] for move in legal_moves(state)] == [
        "end", "recall:unit:0:1", "recall:gate:0:1", "recall:gate:1:1"]  # the empty mantlet is no longer offered
    assert play_ids(state, ["end"]) == []  # ending the phase logs nothing; phase 3 has no cypher to play
    after = export_position("warcaster", state)
    assert after["turn"]["phase"] == "activate" and _arc(after) == ([1, 0], [2, 1], 11)


def test_w10_a_charge_after_a_recall_is_refused():
    """Charge *or* recall: once arc is recalled, `charge:gate:0` is not a legal action."""
    state = load_position(_position("W10-charging-recall"), CARDS)
    with pytest.raises(PositionError) as error:
        play_ids(state, ["recall:unit:0:1", "charge:gate:0"])
    assert error.value.path == "actions[1]" and "not a legal action" in error.value.message


def test_w10_a_charge_puts_one_arc_on_one_holder_and_ends_the_charging_phase():
    state = load_position(_position("W10-charging-recall"), CARDS)
    events = play_ids(state, ["charge:gate:1"])
    assert [(e["kind"], e["data"]) for e in events] == [
        ("charge", {"holder": "gate", "uid": 1, "arc": 3, "pool": 5})]
    after = export_position("warcaster", state)
    assert after["turn"]["phase"] == "activate" and _arc(after) == ([2, 1], [4, 3], 5)


def test_w10_option_charging_recall_one_holder_recalls_a_holders_whole_arc_and_ends_the_phase():
    """Option charging_recall = "one_holder" (the engine's earlier reading): each holder is offered its
    whole arc, and the one recall ends the phase."""
    state = load_position(_position("W10-charging-recall", charging_recall="one_holder"), CARDS)
    assert [move["id"] for move in legal_moves(state)][5:] == [
        "recall:unit:0:2", "recall:unit:1:1", "recall:gate:0:4", "recall:gate:1:2"]
    events = play_ids(state, ["recall:gate:0:4"])
    assert [(e["kind"], e["data"]) for e in events] == [
        ("recall", {"holder": "gate", "uid": 0, "amount": 4, "arc": 0, "pool": 10})]
    after = export_position("warcaster", state)
    assert after["turn"]["phase"] == "activate" and _arc(after) == ([2, 1], [0, 2], 10)


@pytest.mark.parametrize("name", ["W10-charging-recall", "W10-discard-optional", "W15-fire-past-shield"])
def test_the_rule_positions_load_and_export_back_to_themselves(name):
    """A hand-written position exports (every field written out) to one that loads to the same position."""
    doc = _position(name)
    written = export_position("warcaster", load_position(doc, CARDS))
    again = export_position("warcaster", load_position(copy.deepcopy(written), CARDS))
    assert again == written
    assert written["turn"] == {**written["turn"], **doc["turn"]}
