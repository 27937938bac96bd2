"""The Warcaster rules of issue 17 Part 1, asked and answered as positions (tests/positions/warcaster/): each file is
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
    die keeps the fire with 2 strikes, and both go to health: no shield_absorbed event, health 18 → 16."""
    doc = _position("W15-fire-past-shield")
    state = load_position(doc, CARDS)
    assert [move["id"] for move in legal_moves(state)][0] == "pass"
    events = play_ids(state, ["pass"])
    end = events[next(i for i, e in enumerate(events) if e["kind"] == "round_end"):]
    fire = [e for e in end if e["kind"] in ("effect", "shield_absorbed", "damage")]
    assert [(e["kind"], e["data"].get("change"), e["data"].get("amount")) for e in fire[:2]] == [
        ("effect", "kept", None), ("damage", None, 2)]
    assert fire[0]["data"]["roll"] == 2 and fire[1]["data"]["source"] == "fire" and fire[1]["data"]["health"] == 16
    assert "shield_absorbed" not in _kinds(events)
    iwao = export_position("warcaster", state)["sides"][1]["units"][0]["models"][0]
    assert iwao["health"] == 16 and iwao["effects"] == ["fire"]
    assert iwao["shield"] == 0  # shields last the pulse round: gone at its end, after the effects' roll


def test_w15_option_continuous_damage_direct_false_lets_the_shield_absorb_it():
    """Option continuous_damage_direct = false (the old reading): the same roll, and the shield takes both points."""
    state = load_position(_position("W15-fire-past-shield", continuous_damage_direct=False), CARDS)
    events = play_ids(state, ["pass"])
    absorbed = [e for e in events if e["kind"] == "shield_absorbed"]
    assert [e["data"] for e in absorbed] == [{"model": 1, "amount": 2}]
    assert not [e for e in events if e["kind"] == "damage" and e["data"]["source"] == "fire"]
    assert export_position("warcaster", state)["sides"][1]["units"][0]["models"][0]["health"] == 18


@pytest.mark.parametrize("name", ["W10-discard-optional", "W15-fire-past-shield"])
def test_the_rule_positions_load_and_export_back_to_themselves(name):
    """A hand-written position exports (every field written out) to one that loads to the same position."""
    doc = _position(name)
    written = export_position("warcaster", load_position(doc, CARDS))
    again = export_position("warcaster", load_position(copy.deepcopy(written), CARDS))
    assert again == written
    assert written["turn"] == {**written["turn"], **doc["turn"]}
