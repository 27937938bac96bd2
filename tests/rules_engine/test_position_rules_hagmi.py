"""The HAGMI! rules of play, asked and answered as positions (tests/positions/hagmi/): each file is loaded,
its legal action ids checked, ids played (rules_engine.positions.play_ids, as `manage.py position FILE --play ID`
does) and the events and the resulting position checked.

H9 uses only the bundled package's cards (cards/packages/hagmi/core.json). The bundled catalog has no unit with a
緊急 skill (H10) and no card with a refit ability of its own (H22), so those positions load against the bundled cards
plus the fixture cards of tests/rules_engine/hagmi/test_emergency_skills.py and test_refit_abilities.py (a position
loads against `cards`, code → catalog card, as the site's catalog or a run's frozen cards are)."""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from rules_engine.core.catalog import Catalog
from rules_engine.positions import PositionError, export_position, legal_moves, load_position, play_ids
from tests.rules_engine.hagmi import PACKAGE
from tests.rules_engine.hagmi.test_emergency_skills import EMERGENCY_CARDS
from tests.rules_engine.hagmi.test_refit_abilities import REFIT_CARDS

POSITIONS = Path(__file__).resolve().parents[2] / "tests" / "positions" / "hagmi"
BUNDLED = Catalog.build("hagmi", PACKAGE["cards"], PACKAGE["formats"]).cards
WITH_FIXTURES = Catalog.build("hagmi", PACKAGE["cards"] + EMERGENCY_CARDS + REFIT_CARDS, PACKAGE["formats"]).cards
CARDS_OF = {"H9-damage-past-the-last-card": BUNDLED, "H10-emergency-skill": WITH_FIXTURES, "H22-refit": WITH_FIXTURES,
            "H34-attack-the-mothership": BUNDLED}


def _position(name: str, **options: Any) -> dict[str, Any]:
    doc = json.loads((POSITIONS / f"{name}.position.json").read_text(encoding="utf-8"))
    doc["options"] = {**doc.get("options", {}), **options}
    return doc


def _load(name: str, **options: Any):
    return load_position(_position(name, **options), CARDS_OF[name])


def _ids(state) -> list[str]:
    return [move["id"] for move in legal_moves(state)]


def _events(events: list[dict[str, Any]], *kinds: str) -> list[tuple[str, dict[str, Any]]]:
    return [(e["kind"], e["data"]) for e in events if not kinds or e["kind"] in kinds]


def _unit(after: dict[str, Any], player: int, card: str) -> dict[str, Any] | None:
    return next((u for u in after["sides"][player]["units"] if u["card"] == card), None)


# ---- H9: damage past the last damage card is lost; damage with the deck already empty loses ----------------------


def test_H9_a_3_point_attack_on_2_damage_cards_turns_both_up_and_loses_the_third_point():
    """H9 (HAGMI!02: ダメージデッキが存在しない時にダメージを受ける場合): 紅蓮丸 (firepower 3) attacks player 1, who has
    2 damage cards: each point turns one up (top = the end of the list) and resolves its counter skill (a draw); the
    third point finds the deck empty *during* this damage and is lost; the game goes on."""
    state = _load("H9-damage-past-the-last-card")
    assert _ids(state) == ["attack:1:player.1", "attack:4:player.1", "end"]
    events = play_ids(state, ["attack:1:player.1"])
    assert _events(events) == [
        ("attack", {"unit": "HS-001", "uid": 1, "targets": [["player", 1]]}),
        ("damage_player", {"card": "HS-055"}), ("draw", {"deck": "tactics"}),
        ("damage_player", {"card": "HS-049"}), ("draw", {"deck": "weapons"}),
        ("damage_player", {"card": None, "lost": 1})]
    after = export_position("hagmi", state)
    assert after["result"] is None and after["decision"] == {"kind": "battle", "player": 0}
    assert after["sides"][1]["damage_deck"] == [] and after["sides"][1]["discard"] == ["HS-055#11", "HS-049#10"]
    assert _unit(after, 0, "HS-001#1")["attacked"] is True
    assert _unit(after, 0, "HS-001#1")["fuel"] == ["HS-037#2"]  # its 燃料消費 1: the newest fuel card is paid
    assert _ids(state) == ["attack:4:player.1", "end"]


def test_H9_the_next_damage_with_the_deck_already_empty_loses():
    state = _load("H9-damage-past-the-last-card")
    events = play_ids(state, ["attack:1:player.1", "attack:4:player.1"])
    assert _events(events)[-3:] == [
        ("attack", {"unit": "HS-009", "uid": 4, "targets": [["player", 1]]}),
        ("damage_player", {"card": None}),
        ("game_over", {"winner": 0, "reason": "damage with an empty damage deck"})]
    after = export_position("hagmi", state)
    assert after["result"] == {"winner": 0, "reason": "damage with an empty damage deck"}
    assert after["decision"] is None and _ids(state) == []
    with pytest.raises(PositionError) as error:
        play_ids(state, ["end"])
    assert error.value.path == "actions[0]" and "game is over" in error.value.message


def test_H9_option_player_loss_cannot_turn_up_the_same_attack_ends_the_game():
    """Option player_loss = "cannot_turn_up" (HAGMI!01: ダメージを受ける際にダメージデッキからカードが引けない場合):
    the third point of 紅蓮丸's attack finds no card and player 1 loses at once."""
    state = _load("H9-damage-past-the-last-card", player_loss="cannot_turn_up")
    events = play_ids(state, ["attack:1:player.1"])
    assert [data["card"] for kind, data in _events(events, "damage_player")] == ["HS-055", "HS-049", None]
    assert _events(events)[-1] == ("game_over", {"winner": 0, "reason": "damage with an empty damage deck"})
    assert export_position("hagmi", state)["result"]["winner"] == 0 and _ids(state) == []


# ---- H10: a unit's 緊急 skill in every emergency window of a multi-attack -------------------------------------------


def _attack_t_em1(**options: Any):
    """ツインファング (2×2) attacks T-EM1 and player 1 does not defend: the first emergency window opens."""
    state = _load("H10-emergency-skill", **options)
    assert _ids(state) == ["attack:1:10", "attack:1:player.1", "end"]
    play_ids(state, ["attack:1:10"])
    assert _ids(state) == ["counter", "no_defend"]
    play_ids(state, ["no_defend"])
    assert export_position("hagmi", state)["decision"] == {"kind": "emergency", "player": 1}
    return state


def test_H10_the_emergency_window_offers_the_units_skill_before_each_hit_and_using_it_twice_saves_the_unit():
    """H10 (その度に…「緊急」を持ったスキルの使用): the window before the first hit offers `skill:10:0:-` (T-EM1's skill
    0, no target) beside `pass`, though player 1 holds no card; used, it is spent for this window (the hit comes at
    once) and offered again in the window between the hits. Armor 3 + 2 + 2 holds 1 + 2 + 2 damage."""
    state = _attack_t_em1()
    assert _ids(state) == ["skill:10:0:-", "pass"]
    first = play_ids(state, ["skill:10:0:-"])
    assert _events(first) == [("skill", {"card": "T-EM1", "skill": "armor_mod"}),
                              ("damage", {"unit": 10, "amount": 2, "unreducible": False})]
    assert _ids(state) == ["skill:10:0:-", "pass"]  # a new window between the hits: usable again
    second = play_ids(state, ["skill:10:0:-"])
    assert _events(second) == _events(first)
    after = export_position("hagmi", state)
    t_em1 = _unit(after, 1, "T-EM1#10")
    assert t_em1 is not None and t_em1["damage"] == 5 and t_em1["mods"] == []  # "attack" modifications end with it
    assert after["combat"] is None and after["decision"] == {"kind": "battle", "player": 0}


def test_H10_used_in_the_first_window_only_the_second_hit_destroys_the_unit():
    state = _attack_t_em1()
    events = play_ids(state, ["skill:10:0:-", "pass"])
    assert _events(events, "skill", "destroyed") == [("skill", {"card": "T-EM1", "skill": "armor_mod"}),
                                                     ("destroyed", {"card": "T-EM1", "uid": 10})]
    after = export_position("hagmi", state)
    assert _unit(after, 1, "T-EM1#10") is None and "T-EM1#10" in after["sides"][1]["discard"]


def test_H10_without_the_skill_the_first_hit_destroys_the_unit():
    state = _attack_t_em1()
    events = play_ids(state, ["pass"])
    assert _events(events) == [("damage", {"unit": 10, "amount": 2, "unreducible": False}),
                               ("destroyed", {"card": "T-EM1", "uid": 10})]
    assert _unit(export_position("hagmi", state), 1, "T-EM1#10") is None and _ids(state) == ["end"]


def test_H10_option_emergency_skill_limit_turn_offers_the_skill_once_per_turn():
    """Option emergency_skill_limit = "turn": used before the first hit, the skill is spent for the turn, so no window
    opens between the hits (player 1 has nothing else to use) and both hits land on armor 5: destroyed."""
    state = _attack_t_em1(emergency_skill_limit="turn")
    assert _ids(state) == ["skill:10:0:-", "pass"]
    events = play_ids(state, ["skill:10:0:-"])
    assert [kind for kind, _ in _events(events)] == ["skill", "damage", "damage", "destroyed"]
    assert _unit(export_position("hagmi", state), 1, "T-EM1#10") is None and _ids(state) == ["end"]


# ---- H22: a unit refitted by its own ability; a 秘策 card refitting a battlefield unit directly --------------------


def test_H22_the_main_phase_offers_the_own_refit_ability_and_the_direct_refit_with_their_pairs():
    """The ids carry the (source unit, refit card) pair: `skill:1:0:1+20` is T-RS's skill 0 refitting T-RS (uid 1)
    into 紅蓮丸・焔 (20) from hand, `skill:1:0:1+23` into 紅蓮丸・極 (23) from 秘策; `play:23:PAY:5+23` plays 紅蓮丸・極
    from 秘策, paying 2 cards, onto 紅蓮丸 (5) — or onto T-RS (1), which shares its pilot and two types."""
    state = _load("H22-refit")
    assert _ids(state) == ["play:21:22:-", "play:21:20:-", "play:23:21+22:1+23", "play:23:21+22:5+23",
                           "play:23:21+20:1+23", "play:23:21+20:5+23", "skill:1:0:1+20", "skill:1:0:1+23", "battle"]
    assert not any(i.startswith("skill:5:") for i in _ids(state))  # 紅蓮丸 has no refit ability of its own


def test_H22_a_units_own_refit_ability_refits_it_and_the_refit_card_takes_over_everything():
    """「改装元カード」が改装する能力: 紅蓮丸・焔 enters over T-RS (stored under it) and takes over its 2 fuel, the
    ブースターパック with its 耐久, the permanent armor +1 and the 1 damage, in T-RS's place on the battlefield."""
    state = _load("H22-refit")
    events = play_ids(state, ["skill:1:0:1+20"])
    assert _events(events) == [("skill", {"card": "T-RS", "skill": "refit"}),
                               ("refit", {"source": "T-RS", "card": "HS-002"})]
    after = export_position("hagmi", state)
    assert _unit(after, 0, "T-RS#1") is None
    homura = _unit(after, 0, "HS-002#20")
    assert homura is not None and after["sides"][0]["units"][0] is homura  # in the source's place
    assert (homura["stored"], homura["fuel"], homura["armaments"], homura["mods"], homura["damage"]) == (
        ["T-RS#1"], ["HS-037#2", "HS-045#3"], [{"card": "HS-026#4", "durability": 1}], [["armor", 1, "permanent"]], 1)
    assert after["sides"][0]["hand"] == ["HS-043#21", "HS-043#22"] and after["sides"][0]["discard"] == []
    assert state.armor(state.find_unit(20)) == 4 + 1
    assert "skill:1:0:1+23" not in _ids(state)  # T-RS is gone: its ability with it


def test_H22_a_secret_card_with_into_self_refits_a_battlefield_unit_directly_paying_its_cost():
    """秘策から直接戦場のカードを改装する: 紅蓮丸・極 leaves 秘策 onto 紅蓮丸, its cost 2 paid with the two 電撃戦 (to the
    discard: it takes over 紅蓮丸's fuel instead of the payment)."""
    state = _load("H22-refit")
    events = play_ids(state, ["play:23:21+22:5+23"])
    assert _events(events) == [("play", {"card": "T-RX", "paid": 2}),
                               ("refit", {"source": "HS-001", "card": "T-RX"})]
    after = export_position("hagmi", state)
    kiwami = _unit(after, 0, "T-RX#23")
    assert _unit(after, 0, "HS-001#5") is None and after["sides"][0]["units"][1] is kiwami
    assert (kiwami["stored"], kiwami["fuel"]) == (["HS-001#5"], ["HS-018#6", "HS-041#7"])
    assert after["sides"][0]["secret"] == [] and after["sides"][0]["discard"] == ["HS-043#21", "HS-043#22"]
    assert _ids(state) == ["skill:1:0:1+20", "battle"]  # T-RS may still refit into the card in hand


def test_H22_option_direct_refit_cost_free_offers_the_direct_refit_without_payment():
    """Option direct_refit_cost = "free": the payment is empty (`()` in an id)."""
    state = _load("H22-refit", direct_refit_cost="free")
    assert [i for i in _ids(state) if i.startswith("play:23:")] == ["play:23:_:1+23", "play:23:_:5+23"]
    play_ids(state, ["play:23:_:5+23"])
    after = export_position("hagmi", state)
    assert after["sides"][0]["discard"] == [] and after["sides"][0]["hand"] == ["HS-002#20", "HS-043#21", "HS-043#22"]


@pytest.mark.parametrize("name", sorted(CARDS_OF))
def test_the_rule_positions_load_and_export_back_to_themselves(name):
    """A hand-written position exports (every field written out) to one that loads to the same position."""
    written = export_position("hagmi", _load(name))
    again = export_position("hagmi", load_position(copy.deepcopy(written), CARDS_OF[name]))
    assert again == written


def test_the_fixture_positions_need_the_fixture_cards():
    """Against the bundled catalog alone the H10 and H22 positions are refused, naming the fixture card."""
    with pytest.raises(PositionError) as error:
        load_position(_position("H10-emergency-skill"), BUNDLED)
    assert error.value.path.startswith("sides[1].units[0]") and "T-EM1" in error.value.message


# ---- H34: in 機獣討滅戦線 the players attack the mothership, a core per hit ---------------------------------------------


def test_H34_an_attack_on_the_mothership_destroys_a_core_per_hit_and_its_attrition_fires():
    """H34: 紅蓮丸 (firepower 3) may attack the スカラベ or the mothership; on the mothership its hit destroys one of
    its 8 cores (a core per hit, whatever its 3 points of damage), so the attrition ability at 7 (charge 1) fires:
    the revealed スパイクローチ (cost 1, no charger yet) becomes a charger (H30 step 2)."""
    state = _load("H34-attack-the-mothership")
    assert _ids(state) == ["attack:1:10", "attack:1:mothership.1", "end"]
    events = play_ids(state, ["attack:1:mothership.1"])
    assert _events(events) == [
        ("attack", {"unit": "HS-001", "uid": 1, "targets": [["mothership", 1]]}),
        ("mothership_damage", {"amount": 1, "left": 7}),  # a core per hit (H34, option mothership_attack)
        ("attrition", {"at": 7, "cores": 7}),
        ("charge", {"amount": 1}),
        ("charge_reveal", {"card": "HB-004", "cost": 1, "chargers": 0, "result": "charger"}),
    ]
    after = export_position("hagmi", state)["sides"][1]
    assert (after["cores"], after["chargers"], after["attrition_fired"]) == (7, ["HB-004#21"], [0])


def test_H34_option_never_the_mothership_is_no_target():
    state = _load("H34-attack-the-mothership", mothership_attack="never")
    assert _ids(state) == ["attack:1:10", "end"]
