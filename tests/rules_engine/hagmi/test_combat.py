"""Battle phase (RULES.md §1.3) and combat details H10–H13 (§1.4)."""
from __future__ import annotations

import pytest

from rules_engine.hagmi.combat import build_schedule
from rules_engine.hagmi.damage import add_modifier
from tests.rules_engine.hagmi import act, cards, damage_deck, duel, hand, kinds, to_battle, unit


def damages(state):
    return [(state.card(d["unit"]).code, d["amount"]) for d in kinds(state, "damage")]


def attack(state, attacker, *targets, defend=("no_defend",)):
    to_battle(state)
    act(state, ("attack", attacker.uid, tuple(targets)))
    if defend is not None and state.decision and state.decision[0] == "defend":
        act(state, defend)


# ---- battle phase basics ------------------------------------------------------------------------------------

def test_attack_pays_fuel_cost_and_each_unit_attacks_once():
    state = duel()
    attacker = unit(state, 0, "HS-001")  # cost 2, 燃費 1
    damage_deck(state, 1, *["HS-049"] * 5)
    attack(state, attacker, ("player", 1))
    assert len(attacker.fuel) == 1 and attacker.attacked
    assert all(a[1] != attacker.uid for a in state.legal_actions() if a[0] == "attack")


def test_unit_without_enough_fuel_cannot_attack_or_defend():
    state = duel()
    attacker = unit(state, 0, "HS-001", fuel=0)
    target = unit(state, 1, "HS-003", fuel=0)
    to_battle(state)
    assert all(a[1] != attacker.uid for a in state.legal_actions() if a[0] == "attack")
    other = unit(state, 0, "HS-009")
    act(state, ("attack", other.uid, (target.uid,)))
    assert state.find_unit(target.uid) is None  # could not counter: no decision, destroyed


def test_a_unit_that_does_not_defend_deals_no_damage():
    state = duel()
    attacker, target = unit(state, 0, "HS-009"), unit(state, 1, "T-BIG")
    attack(state, attacker, target.uid, defend=("no_defend",))
    assert damages(state) == [("T-BIG", 2)]


def test_counter_longer_range_deals_damage_first_and_destroyed_attacker_deals_none():
    state = duel()
    attacker, target = unit(state, 0, "HS-009"), unit(state, 1, "HS-003")  # range 1 vs range 4
    attack(state, attacker, target.uid, defend=("counter",))
    assert damages(state) == [("HS-009", 2)] and state.find_unit(target.uid) is not None


def test_first_strike_deals_damage_before_any_range():
    state = duel()
    attacker, target = unit(state, 0, "HS-022"), unit(state, 1, "HS-003")  # 先制攻撃 range 1 vs range 4
    attack(state, attacker, target.uid, defend=("counter",))
    assert damages(state) == [("HS-003", 3)] and state.find_unit(attacker.uid) is not None


def test_equal_range_deals_damage_simultaneously():
    state = duel()
    attacker, target = unit(state, 0, "HS-009"), unit(state, 1, "HS-009")
    attack(state, attacker, target.uid, defend=("counter",))
    assert state.find_unit(attacker.uid) is None and state.find_unit(target.uid) is None


def test_intercept_pays_fuel_and_becomes_the_target():
    state = duel()
    attacker = unit(state, 0, "HS-009")
    guard = unit(state, 1, "HS-001")
    damage_deck(state, 1, *["HS-049"] * 3)
    attack(state, attacker, ("player", 1), defend=("intercept", guard.uid))
    assert kinds(state, "damage_player") == [] and len(guard.fuel) == 1
    assert state.find_unit(attacker.uid) is None  # the interceptor defends: 3 firepower vs armor 2


def test_pierce_carries_excess_damage_through_an_interceptor_to_the_player():
    state = duel()
    attacker = unit(state, 0, "HS-004")  # 貫通, 3 firepower, range 4
    guard = unit(state, 1, "HS-021")  # armor 2, 燃費 0
    damage_deck(state, 1, *["HS-049"] * 3)
    attack(state, attacker, ("player", 1), defend=("intercept", guard.uid))
    assert state.find_unit(guard.uid) is None and len(kinds(state, "damage_player")) == 1


def test_multi_target_and_all_attacks_fight_each_target_in_turn():
    state = duel()
    mortar = unit(state, 0, "HS-010")  # multi-2
    a, b = unit(state, 1, "HS-009", fuel=0), unit(state, 1, "HS-009", fuel=0)
    to_battle(state)
    two = [x for x in state.legal_actions() if x[0] == "attack" and x[1] == mortar.uid and len(x[2]) == 2]
    assert (mortar.uid, (a.uid, b.uid)) in [(x[1], x[2]) for x in two]
    act(state, ("attack", mortar.uid, (a.uid, b.uid)))
    act(state, ("no_defend",))  # HS-009's 燃費 is 0: each target may counter
    act(state, ("no_defend",))
    assert state.find_unit(a.uid) is None and state.find_unit(b.uid) is None
    state2 = duel()
    rain = unit(state2, 0, "HS-011")  # all
    c = unit(state2, 1, "HS-022", fuel=0)
    damage_deck(state2, 1, *["HS-049"] * 3)
    to_battle(state2)
    assert [x for x in state2.legal_actions() if x[0] == "attack"] == [("attack", rain.uid, (c.uid, ("player", 1)))]
    act(state2, ("attack", rain.uid, (c.uid, ("player", 1))))
    assert state2.find_unit(c.uid) is None and len(kinds(state2, "damage_player")) == 1


# ---- H10 multi-attack ---------------------------------------------------------------------------------------

def test_H10_target_destroyed_loses_remaining_hits_never_retargeted():
    state = duel()
    fang = unit(state, 0, "HS-016")  # 2x2
    target = unit(state, 1, "HS-022", fuel=0)  # armor 1
    damage_deck(state, 1, *["HS-049"] * 3)
    attack(state, fang, target.uid)
    assert damages(state) == [("HS-022", 2)] and kinds(state, "damage_player") == []


def test_H10_emergency_window_between_hits_and_flare_voids_the_rest_and_ends_battle_phase():
    state = duel()
    fang = unit(state, 0, "HS-016")  # 2x2
    other = unit(state, 0, "HS-009")
    damage_deck(state, 1, *["HS-049"] * 9)
    flare, pay = hand(state, 1, "HS-030", "HS-009")
    attack(state, fang, ("player", 1))
    assert state.decision == ("emergency", 1)  # before the first hit
    act(state, ("pass",))
    assert len(kinds(state, "damage_player")) == 2 and state.decision == ("emergency", 1)  # between hits
    act(state, ("play", flare, (pay,), None))
    assert len(kinds(state, "damage_player")) == 2  # the second hit is void
    assert state.active == 1 and not other.attacked  # the battle phase ended: no more attacks


def test_H10_attacker_destroyed_during_multi_attack_voids_remaining_hits():
    state = duel()
    swallow = unit(state, 0, "HS-006")  # 1x2, armor 1
    damage_deck(state, 1, "HS-049", "HS-049", "HS-052")  # 誘爆 on top: 1 damage to the attacker
    attack(state, swallow, ("player", 1))
    assert state.find_unit(swallow.uid) is None and len(kinds(state, "damage_player")) == 1


def test_H10_attacker_downed_by_emergency_skill_voids_remaining_hits():
    state = duel()
    fang = unit(state, 0, "HS-016")
    damage_deck(state, 1, *["HS-049"] * 9)
    jam, pay = hand(state, 1, "HS-045", "HS-009")
    attack(state, fang, ("player", 1))
    act(state, ("pass",))
    act(state, ("play", jam, (pay,), fang.uid))
    assert len(kinds(state, "damage_player")) == 2 and state.decision == ("battle", 0)


# ---- H11 exchange order -------------------------------------------------------------------------------------

@pytest.mark.parametrize("a, d, first, expected", [
    (2, 1, "=", [[["A", "D"]], [["A"]]]),  # H11 case 1: same range, N×M vs normal
    (2, 1, "A", [[["A"]], [["A"], ["D"]]]),  # H11 case 2: attacker longer
    (2, 2, "=", [[["A", "D"]], [["A", "D"]]]),  # H11 case 3: both multi, same range
    (3, 2, "=", [[["A", "D"]], [["A", "D"]], [["A"]]]),  # case 3, unequal counts: the longer continues alone
    (2, 1, "D", [[["D"], ["A"]], [["A"]]]),  # H11 case 4: defender longer
    (2, 0, "A", [[["A"]], [["A"]]]),  # no defender
])
def test_H11_schedules(a, d, first, expected):
    assert build_schedule(a, d, first) == expected


def test_H11_case1_seed_example_same_range_simultaneous_then_window_then_attacker_alone():
    state = duel()
    fang = unit(state, 0, "HS-016")  # 2x2 range 1 armor 3
    target = unit(state, 1, "T-U1", fuel=1)  # 1 firepower range 1 armor 3
    flare, pay = hand(state, 1, "HS-034", "HS-009")  # 騎士道精神 makes the window visible
    attack(state, fang, target.uid, defend=("counter",))
    act(state, ("pass",))
    assert damages(state) == [("T-U1", 2), ("HS-016", 1)]  # exchange 1: simultaneous
    assert state.decision == ("emergency", 1)  # both still have armor: 緊急
    act(state, ("pass",))
    assert damages(state)[2:] == [("T-U1", 2)] and state.find_unit(target.uid) is None


def test_H11_case2_seed_example_attacker_longer_hits_alone_then_normal_exchange():
    state = duel()
    barrel = unit(state, 0, "HS-017")  # 2x3 range 2 armor 3
    target = unit(state, 1, "T-BIG")  # 5 firepower range 1 armor 10
    attack(state, barrel, target.uid, defend=("counter",))
    assert damages(state) == [("T-BIG", 2), ("T-BIG", 2), ("T-BIG", 2), ("HS-017", 5)]


def test_H11_case3_both_multi_attack_same_range_exchange_hit_for_hit():
    state = duel()
    a, d = unit(state, 0, "HS-016"), unit(state, 1, "HS-016")
    attack(state, a, d.uid, defend=("counter",))
    assert damages(state) == [("HS-016", 2)] * 4
    assert state.find_unit(a.uid) is None and state.find_unit(d.uid) is None


def test_H11_case4_defender_longer_counter_first_then_attacker_remaining_hits():
    state = duel()
    fang = unit(state, 0, "HS-016")  # 2x2 range 1 armor 3
    eye = unit(state, 1, "HS-003")  # range 4, 2 firepower, armor 2
    attack(state, fang, eye.uid, defend=("counter",))
    assert damages(state) == [("HS-016", 2), ("HS-003", 2)] and state.find_unit(eye.uid) is None


# ---- H12 dismantle ------------------------------------------------------------------------------------------

def test_H12_dismantle_removes_from_game_without_on_destroyed():
    state = duel()
    boom = unit(state, 1, "T-BOOM")
    damage_deck(state, 0, "HS-049")
    salvage, *pay = hand(state, 0, "HS-042", "HS-009", "HS-009")
    act(state, ("play", salvage, tuple(pay), boom.uid))
    assert boom.uid in state.players[1].removed and kinds(state, "damage_player") == []


def test_H12_destroy_by_contrast_triggers_on_destroyed():
    state = duel()
    boom = unit(state, 1, "T-BOOM")
    damage_deck(state, 0, "HS-049")
    focus, *pay = hand(state, 0, "HS-047", "HS-009", "HS-009")
    act(state, ("play", focus, tuple(pay), boom.uid))
    assert boom.uid in state.players[1].discard and len(kinds(state, "damage_player")) == 1


# ---- H13 unreducible damage ---------------------------------------------------------------------------------

def test_H13_static_reduction_applies_to_normal_damage_but_not_unreducible():
    state = duel()
    wall = unit(state, 1, "HS-008")  # reduces by 1, armor 6
    attack(state, unit(state, 0, "HS-013"), wall.uid)  # 4 firepower
    assert wall.damage == 3
    state = duel()
    wall = unit(state, 1, "HS-008")
    attack(state, unit(state, 0, "HS-014"), wall.uid)  # 3 firepower, unreducible
    assert wall.hard_damage == 3


def test_H13_reactive_armor_reduction_ignored_but_its_own_damage_still_happens():
    state = duel()
    wall = unit(state, 1, "HS-008")
    era = cards(state, "HS-023")[0]
    wall.armaments.append(era)
    state.players[1].durability[era] = 2
    breaker = unit(state, 0, "HS-014")  # unreducible, range 2 > 1: hits first
    attack(state, breaker, wall.uid, defend=("counter",))
    assert wall.hard_damage == 3  # not reduced by 1 (static) nor by 2 (爆発反応装甲)
    assert ("HS-014", 1) in damages(state)  # 爆発反応装甲's 1 damage to the attacker


def test_H13_reactive_armor_reduces_normal_damage():
    state = duel()
    wall = unit(state, 1, "HS-008")
    era = cards(state, "HS-023")[0]
    wall.armaments.append(era)
    state.players[1].durability[era] = 2
    attack(state, unit(state, 0, "HS-013"), wall.uid, defend=("counter",))  # 4 − 2 − 1
    assert wall.damage == 1


@pytest.mark.parametrize("attacker, expected", [("HS-003", 0), ("HS-005", 4)])
def test_H13_nullify_armor_to_zero_is_a_reduction(attacker, expected):
    state = duel()
    target = unit(state, 1, "HS-005", fuel=3)  # 重装 carrying 荷電粒子装甲; range 4 like the attacker
    cpa = cards(state, "HS-024")[0]
    target.armaments.append(cpa)
    state.players[1].durability[cpa] = 1
    gun = unit(state, 0, attacker)
    attack(state, gun, target.uid, defend=("counter",))
    if expected == 0:  # 2 damage ≤ 3: nullified
        assert state.find_unit(target.uid) is not None and target.damage == 0
    else:  # unreducible 4 damage: the armor (3) is not protected
        assert state.find_unit(target.uid) is None


@pytest.mark.parametrize("code", ["HS-034", "HS-032"])
def test_H13_no_damage_and_nullify_emergency_cards_do_not_stop_unreducible_damage(code):
    state = duel()
    target = unit(state, 1, "T-BIG")
    card, pay = hand(state, 1, code, "HS-009")
    attack(state, unit(state, 0, "HS-014"), target.uid)
    act(state, ("play", card, (pay,), target.uid))
    assert target.hard_damage == 3
    if code == "HS-032":  # 不退転's firepower modification still happens
        assert state.firepower(target) == 6


@pytest.mark.parametrize("code", ["HS-034", "HS-032"])
def test_H13_the_same_cards_stop_normal_damage(code):
    state = duel()
    target = unit(state, 1, "T-BIG")
    card, pay = hand(state, 1, code, "HS-009")
    attack(state, unit(state, 0, "HS-013"), target.uid)
    act(state, ("play", card, (pay,), target.uid))
    assert target.damage == 0


@pytest.mark.parametrize("attacker, damage", [("HS-013", 0), ("HS-014", 3)])
def test_H13_barrier_counter_is_removed_even_when_unreducible_damage_is_dealt(attacker, damage):
    state = duel()
    target = unit(state, 1, "T-BIG")
    target.barrier = 1
    attack(state, unit(state, 0, attacker), target.uid)
    assert target.barrier == 0 and target.damage + target.hard_damage == damage


@pytest.mark.parametrize("attacker, destroyed", [("HS-001", False), ("HS-014", True)])
def test_H13_unreducible_damage_ignores_plus_armor_modification(attacker, destroyed):
    state = duel()
    target = unit(state, 1, "HS-003", fuel=0)  # armor 2
    add_modifier(state, target, "armor", 2, "permanent")  # what 装甲改修 leaves on it
    assert state.armor(target) == 4
    attack(state, unit(state, 0, attacker), target.uid)  # 3 firepower either way
    assert (state.find_unit(target.uid) is None) is destroyed


def test_armor_refit_order_adds_permanent_armor_to_a_friendly_unit():
    state = duel()
    mine = unit(state, 0, "HS-003", fuel=0)
    armor_refit, pay = hand(state, 0, "HS-031", "HS-009")
    act(state, ("play", armor_refit, (pay,), mine.uid))
    act(state, ("battle",))
    act(state, ("end",))
    assert state.armor(mine) == 4


# ---- skills in battle ---------------------------------------------------------------------------------------

def test_once_per_turn_defend_skill_gives_its_barrier_only_once_per_turn():
    state = duel()
    guardian = unit(state, 1, "HS-015")  # on_defend: barrier 1, once per turn; 燃費 0
    first, second = unit(state, 0, "HS-009"), unit(state, 0, "HS-009")
    attack(state, first, guardian.uid, defend=("counter",))
    assert guardian.damage == 0  # the barrier counter turned the 2 damage to 0
    act(state, ("attack", second.uid, (guardian.uid,)))
    act(state, ("counter",))
    assert guardian.damage == 2


def test_emergency_production_puts_a_unit_from_hand_onto_the_battlefield_paying_its_cost():
    state = duel()
    fang = unit(state, 0, "HS-016")
    damage_deck(state, 1, *["HS-049"] * 9)
    order, hound, pay_order, pay_hound = hand(state, 1, "HS-035", "HS-009", "HS-043", "HS-043")
    attack(state, fang, ("player", 1))
    act(state, ("play", order, (pay_order,), hound))
    produced = state.find_unit(hound)
    assert produced is not None and produced.fuel == [pay_hound] and state.players[1].hand == []


def test_withdrawal_order_returns_the_defending_unit_and_the_remaining_hits_are_lost():
    state = duel()
    fang = unit(state, 0, "HS-016")  # 2x2
    target = unit(state, 1, "T-BIG", fuel=1)
    withdraw, = hand(state, 1, "HS-041")
    attack(state, fang, target.uid)
    act(state, ("pass",))
    act(state, ("play", withdraw, (), target.uid))
    assert target.uid in state.players[1].hand and len(damages(state)) == 1


def test_a_refit_card_cannot_also_pay_for_the_refit_order():
    state = duel()
    unit(state, 0, "HS-001")
    order, _ = hand(state, 0, "HS-038", "HS-002")
    assert all(a[1] != order for a in state.legal_actions() if a[0] == "play")
