"""秘策, refit and design (RULES.md §1.5): H20–H24."""
from __future__ import annotations

from rules_engine.hagmi.cards import parse_card
from rules_engine.hagmi.refit import can_refit
from rules_engine.hagmi.zones import enter_unit, refuel, return_to_hand
from tests.rules_engine.hagmi import act, cards, duel, hand, kinds, unit


def _card(code):
    from tests.rules_engine.hagmi import CATALOG

    return parse_card(CATALOG.cards[code])


def test_H21_refit_needs_same_pilot_and_a_refit_target():
    assert can_refit(_card("HS-001"), _card("HS-002"))
    assert can_refit(_card("HS-003"), _card("HS-005"))
    assert can_refit(_card("HS-004"), _card("HS-005"))  # [改装] cards refit into each other
    assert not can_refit(_card("HS-001"), _card("HS-004"))  # another pilot
    assert not can_refit(_card("HS-004"), _card("HS-003"))  # the target has no [改装]


def test_H22_refit_needs_two_shared_types_other_than_refit():
    one_type = parse_card({"code": "X-R", "name": "x", "category": "unit", "pilot": "朱音", "types": ["強襲", "改装", "飛行"]})
    assert not can_refit(_card("HS-001"), one_type)  # shares only 強襲


def test_H22_refit_takes_over_fuel_modifications_and_armaments():
    state = duel()
    source = unit(state, 0, "HS-005", fuel=3)  # 狙撃 重装 飛行 改装
    source.mods.append(["armor", 2, "permanent"])  # 装甲改修
    booster, wing = cards(state, "HS-026", "T-FLY")
    source.armaments += [booster, wing]
    state.players[0].durability.update({booster: 1, wing: 1})
    order, target, pay = hand(state, 0, "HS-038", "HS-004", "HS-009")
    act(state, ("play", order, (pay,), (source.uid, target)))
    new = state.find_unit(target)
    assert new is not None and state.find_unit(source.uid) is None
    assert len(new.fuel) == 3 and new.stored == [source.uid] and state.armor(new) == 5
    assert new.armaments == [booster] and state.players[0].loose_armaments == [wing]  # 飛行 no longer met


def test_H22_refit_target_may_come_from_secret_and_its_on_enter_fires():
    state = duel()
    state.players[0].weapons = cards(state, "HS-009")
    source = unit(state, 0, "HS-006")
    target = cards(state, "HS-007")[0]
    state.players[0].secret.append(target)
    order, pay = hand(state, 0, "HS-038", "HS-009")
    act(state, ("play", order, (pay,), (source.uid, target)))
    assert state.find_unit(target) is not None and state.players[0].secret == []
    assert len(state.players[0].hand) == 1  # スワローテイル・改 draws a 兵器 card on entering


def test_H23_design_needs_exactly_T_materials_sharing_a_type_with_enough_cost():
    state = duel()
    design = cards(state, "HS-060")[0]  # 強襲 重装: T = 2, cost 6
    state.players[0].secret.append(design)
    heavy, raider, hound = unit(state, 0, "HS-014"), unit(state, 0, "HS-001"), unit(state, 0, "HS-009")
    options = [a for a in state.legal_actions() if a[0] == "design"]
    assert options == [("design", design, (heavy.uid, raider.uid))]  # 4 + 2 ≥ 6; ハウンド shares no type


def test_H23_design_keeps_fuel_above_cost_but_cannot_be_refuelled_above_it():
    state = duel()
    design = cards(state, "HS-060")[0]
    state.players[0].secret.append(design)
    state.players[0].weapons = cards(state, "HS-009", "HS-009")
    goliath, breaker = unit(state, 0, "HS-020"), unit(state, 0, "HS-014")  # fuel 6 + 4
    act(state, ("design", design, (goliath.uid, breaker.uid)))
    made = state.find_unit(design)
    assert len(made.fuel) == 10 and set(made.stored) == {goliath.uid, breaker.uid}
    supply, = hand(state, 0, "HS-029")
    assert all(a[1] != supply for a in state.legal_actions() if a[0] == "play")  # no room for fuel
    refuel(state, 0, made, 2, "weapons_deck")
    assert len(made.fuel) == 10


def test_H23_design_inherits_no_modifications_or_armaments_even_from_one_material():
    state = duel()
    design = cards(state, "T-DES")[0]  # one type: one material
    state.players[0].secret.append(design)
    material = unit(state, 0, "HS-001")
    material.mods.append(["firepower", 2, "permanent"])
    blade = cards(state, "HS-027")[0]
    material.armaments.append(blade)
    act(state, ("design", design, (material.uid,)))
    made = state.find_unit(design)
    assert made.mods == [] and made.armaments == [] and state.players[0].loose_armaments == [blade]
    assert kinds(state, "design")[0]["materials"] == ["HS-001"]


def test_H24_hidden_mechanism_once_per_turn_per_design_unit():
    state = duel()
    state.players[0].weapons = cards(state, *["HS-009"] * 5)
    first, second = unit(state, 0, "T-DES"), unit(state, 0, "T-DES")
    hidden = [a for a in state.legal_actions() if a[0] == "hidden"]
    assert hidden == [("hidden", first.uid, None), ("hidden", second.uid, None)]
    act(state, ("hidden", first.uid, None))
    assert [a for a in state.legal_actions() if a[0] == "hidden"] == [("hidden", second.uid, None)]
    act(state, ("hidden", second.uid, None))
    assert [a for a in state.legal_actions() if a[0] == "hidden"] == []
    assert len(state.players[0].hand) == 2


def test_H24_a_design_that_left_and_came_back_may_use_it_again_the_same_turn():
    state = duel()
    state.players[0].weapons = cards(state, *["HS-009"] * 5)
    design = unit(state, 0, "T-DES")
    act(state, ("hidden", design.uid, None))
    return_to_hand(state, design)
    state.players[0].hand.remove(design.uid)
    enter_unit(state, 0, design.uid, [])
    assert ("hidden", design.uid, None) in state.legal_actions()


def test_H24_hidden_mechanism_is_ready_again_next_turn():
    state = duel()
    state.players[0].weapons = cards(state, *["HS-009"] * 5)
    design = unit(state, 0, "T-DES")
    act(state, ("hidden", design.uid, None))
    for _ in range(2):
        act(state, ("battle",))
        act(state, ("end",))
    assert ("hidden", design.uid, None) in state.legal_actions()


def test_H20_search_secret_moves_a_secret_card_to_hand():
    state = duel()
    secret = cards(state, "HS-057")[0]
    state.players[0].secret.append(secret)
    order, pay = hand(state, 0, "HS-046", "HS-009")
    act(state, ("play", order, (pay,), None))
    assert state.players[0].hand == [secret] and state.players[0].secret == []
