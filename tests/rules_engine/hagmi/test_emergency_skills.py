"""H10: 「緊急」を持ったスキル on cards on the battlefield.

Seed 000: 攻撃が連続して発生するので、その度に攻撃されているプレイヤーは「緊急」を持ったスキルの使用や「緊急生産」を
行うことができます — between the hits of a multi-attack (and, in this engine, before the first) the attacked player
may use any skill marked 緊急: an emergency order from hand, and now also the 緊急 skill of a unit, its armament or a
facility they have on the battlefield. The bundled catalog has no such card yet, so the cards here are small
fixtures in the catalog's own shapes (a unit's `skills` entry with `"trigger": "emergency"`, as the 緊急 orders have).
"""
from __future__ import annotations

import random

import pytest

from rules_engine.core.catalog import Catalog
from rules_engine.core.game import play_out
from rules_engine.core.policies import get_policy
from rules_engine.hagmi.game import HagmiGame
from tests.rules_engine.hagmi import (PACKAGE, TEST_CARDS, act, cards, check_invariants, damage_deck, hand, kinds,
                                     to_battle, unit)

_UNIT = {"category": "unit", "frame": "black", "range": 1, "fuel_cost": 0, "targets": "single"}
EMERGENCY_CARDS = [
    # a unit that braces itself in every window: armor +2 for this attack (no limit printed: once per window)
    {**_UNIT, "code": "T-EM1", "name": "緊急試験機", "cost": 1, "pilot": "戊", "types": ["防衛"], "firepower": "1",
     "armor": 3, "skills": [{"kind": "armor_mod", "trigger": "emergency", "amount": 2, "target": "self",
                             "duration": "attack", "text": "緊急：この攻撃の間、このユニットの装甲+2。"}]},
    # a unit whose 緊急 barrier is once per turn and needs 2 fuel
    {**_UNIT, "code": "T-EM2", "name": "緊急障壁機", "cost": 2, "pilot": "己", "types": ["防衛"], "firepower": "1",
     "armor": 3, "skills": [{"kind": "barrier", "trigger": "emergency", "count": 1, "target": "friendly_unit",
                             "once_per_turn": True, "condition": {"min_fuel": 2}}]},
    # an armament and a facility with 緊急 skills
    {"code": "T-EMA", "name": "緊急盾", "category": "armament", "frame": "black", "cost": 0, "durability": 1,
     "equip": {}, "skills": [{"kind": "reduce_damage", "trigger": "emergency", "amount": 1, "target": "equipped_unit"}]},
    {"code": "T-EMF", "name": "緊急指揮所", "category": "tactic", "subtype": "facility", "frame": "blue", "cost": 0,
     "skills": [{"kind": "end_battle_phase", "trigger": "emergency"}]},
]
CATALOG = Catalog.build("hagmi", PACKAGE["cards"] + TEST_CARDS + EMERGENCY_CARDS, PACKAGE["formats"])


def duel(options=None):
    opponent = {"kind": "deck", "list": {"sections": {}}}
    return HagmiGame({"sections": {}}, CATALOG, opponent, options).new_initial_state(random.Random(0))


def attack(state, attacker, target):
    to_battle(state)
    act(state, ("attack", attacker.uid, (target,)))
    if state.decision and state.decision[0] == "defend":
        act(state, ("no_defend",))


def damages(state):
    return [(state.card(d["unit"]).code, d["amount"]) for d in kinds(state, "damage")]


def test_H10_a_units_emergency_skill_is_offered_before_the_first_hit_and_between_hits():
    state = duel()
    fang = unit(state, 0, "HS-016")  # ツインファング 2x2
    brace = unit(state, 1, "T-EM1")  # armor 3; 緊急: armor +2 for this attack
    attack(state, fang, brace.uid)
    assert state.decision == ("emergency", 1)  # before the first hit, though player 1 holds no card
    assert state.legal_actions() == [("skill", brace.uid, 0, None), ("pass",)]
    act(state, ("skill", brace.uid, 0, None))
    assert kinds(state, "skill") == [{"card": "T-EM1", "skill": "armor_mod"}]
    # used once in this window: nothing else to use, so the first hit goes on at once; then the next window
    assert damages(state) == [("T-EM1", 2)] and state.decision == ("emergency", 1)
    assert ("skill", brace.uid, 0, None) in state.legal_actions()  # a new window: usable again
    act(state, ("skill", brace.uid, 0, None))
    assert damages(state) == [("T-EM1", 2), ("T-EM1", 2)]
    assert state.find_unit(brace.uid) is not None  # armor 3 + 2 + 2 holds 4 damage; 3 alone would not have
    assert state.decision == ("battle", 0) and brace.mods == []  # the attack is over, its modifications too


def test_H10_without_the_skill_the_same_attack_destroys_the_unit():
    state = duel()
    fang, brace = unit(state, 0, "HS-016"), unit(state, 1, "T-EM1")
    attack(state, fang, brace.uid)
    act(state, ("pass",))
    act(state, ("pass",))
    assert state.find_unit(brace.uid) is None


def test_H10_option_emergency_skill_limit_turn_allows_each_skill_once_per_turn():
    state = duel({"emergency_skill_limit": "turn"})
    fang, brace = unit(state, 0, "HS-016"), unit(state, 1, "T-EM1")
    attack(state, fang, brace.uid)
    act(state, ("skill", brace.uid, 0, None))
    # no window between the hits: the skill was used this turn, and player 1 has nothing else to use
    assert len(damages(state)) == 2 and len(kinds(state, "skill")) == 1 and state.decision == ("battle", 0)
    with pytest.raises(ValueError, match="emergency_skill_limit"):
        duel({"emergency_skill_limit": "always"})


def test_H10_once_per_turn_and_condition_as_the_card_says():
    state = duel()
    fang = unit(state, 0, "HS-016")
    wall = unit(state, 1, "T-EM2")  # cost 2, full fuel: the condition (2 fuel) holds
    attack(state, fang, wall.uid)
    assert state.legal_actions() == [("skill", wall.uid, 0, wall.uid), ("pass",)]
    act(state, ("skill", wall.uid, 0, wall.uid))
    # the barrier counter took the first hit; once per turn: no window between the hits, the second one landed
    assert damages(state) == [("T-EM2", 0), ("T-EM2", 2)] and state.decision == ("battle", 0)
    poor = duel()
    fang, wall = unit(poor, 0, "HS-016"), unit(poor, 1, "T-EM2", fuel=1)  # 1 fuel: the condition fails
    attack(poor, fang, wall.uid)
    assert poor.decision == ("battle", 0) and kinds(poor, "skill") == []


def test_H10_a_down_unit_has_no_emergency_skill():
    state = duel()
    fang, brace = unit(state, 0, "HS-016"), unit(state, 1, "T-EM1")
    brace.down = True  # ダウン: it loses all its skills
    attack(state, fang, brace.uid)
    assert state.decision == ("battle", 0) and state.find_unit(brace.uid) is None


def test_H10_armament_and_facility_emergency_skills_are_used_from_the_battlefield():
    state = duel()
    fang = unit(state, 0, "HS-016")
    other = unit(state, 0, "HS-009")
    target = unit(state, 1, "HS-001")  # armor 3
    shield, post = cards(state, "T-EMA", "T-EMF")
    target.armaments.append(shield)
    state.players[1].durability[shield] = 1
    state.players[1].facilities.append(post)
    damage_deck(state, 1, *["HS-049"] * 5)
    attack(state, fang, target.uid)
    assert state.legal_actions() == [("skill", shield, 0, None), ("skill", post, 0, None), ("pass",)]
    act(state, ("skill", shield, 0, None))  # this attack's damage to the equipped unit −1
    assert state.legal_actions() == [("skill", post, 0, None), ("pass",)]  # the same window: the rest
    act(state, ("pass",))
    assert damages(state) == [("HS-001", 1)]
    assert state.legal_actions() == [("skill", shield, 0, None), ("skill", post, 0, None), ("pass",)]  # a new one
    act(state, ("skill", post, 0, None))  # the battle phase ends: the second hit is void
    assert damages(state) == [("HS-001", 1)] and state.active == 1 and not other.attacked


def test_H10_unit_armament_and_facility_cards_with_emergency_skills_are_played_in_the_main_phase():
    state = duel()
    unit(state, 0, "HS-009")
    brace, armour, post, pay = hand(state, 0, "T-EM1", "T-EMA", "T-EMF", "HS-043")
    plays = {a[1] for a in state.legal_actions() if a[0] == "play"}
    assert {brace, armour, post} <= plays
    act(state, ("play", brace, (pay,), None))
    assert state.find_unit(brace).fuel == [pay]
    # and none of them is an emergency card to play from hand in a window
    other = duel()
    fang = unit(other, 0, "HS-016")
    target = unit(other, 1, "HS-001")
    hand(other, 1, "T-EM1", "T-EMA", "T-EMF", "HS-043")
    attack(other, fang, target.uid)
    assert other.decision == ("battle", 0)  # no window opened: nothing usable


def test_H10_describe_says_an_emergency_skill_in_words():
    state = duel()
    fang, brace = unit(state, 0, "HS-016"), unit(state, 1, "T-EM1")
    attack(state, fang, brace.uid)
    assert state.describe(("skill", brace.uid, 0, None)) == "use 緊急試験機's skill armor_mod"


def test_H10_greedy_uses_a_units_emergency_skill_to_save_it_and_games_end():
    state = duel()
    fang, brace = unit(state, 0, "HS-016"), unit(state, 1, "T-EM1")
    attack(state, fang, brace.uid)
    assert get_policy("hagmi-greedy").choose(state, random.Random(0)) == ("skill", brace.uid, 0, None)
    lists = {"sections": {"weapons": [{"card": "T-EM1", "qty": 2}, {"card": "HS-016", "qty": 2},
                                      {"card": "T-EM2", "qty": 2}, {"card": "T-EMA", "qty": 2}],
                          "tactics": [{"card": "T-EMF", "qty": 2}, {"card": "HS-043", "qty": 2}],
                          "damage": [{"card": "HS-049", "qty": 5}]}}
    game = HagmiGame(lists, CATALOG, {"kind": "deck", "list": lists})
    used = 0
    for seed in range(20):
        for policy in ("hagmi-greedy", "random"):
            rng = random.Random(seed)
            end = play_out(game.new_initial_state(rng), [get_policy(policy)] * 2, rng)
            assert end.is_terminal()
            check_invariants(end, len(end.cards))  # every card in exactly one place
            used += sum(1 for e in end.events if e.kind == "skill")
    assert used > 0
