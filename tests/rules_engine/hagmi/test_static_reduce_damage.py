"""H13 reductions: a static (常時) reduce_damage on an armament or a facility (設備) — option `static_reduce_damage`
(docs/rules.md §1.4, an [interpretation]: seed 000 counts armour such as 爆発反応装甲 among the reducing effects but
says nothing of a static one on an armament or a facility). `own_card` (default): only the unit's own card's static
reduction counts; `equipped_and_facilities`: also an armament's (`equipped_unit`) and a facility's
(`all_friendly_units`, with its `target_types`), as static firepower / armor modifications are read. Either way
unreducible damage ignores them. Test-only cards; none in the bundled package has such a skill."""
from __future__ import annotations

import random

import pytest

from rules_engine.core.catalog import Catalog
from rules_engine.hagmi.game import DEFAULT_OPTIONS, HagmiGame
from rules_engine.positions import PositionError, export_position, load_position, play_ids
from tests.rules_engine.hagmi import PACKAGE, TEST_CARDS, act, cards, to_battle, unit

EXTRA = [
    {"code": "T-PLATE", "name": "試験装甲板", "category": "armament", "frame": "black", "cost": 0, "durability": 1,
     "equip": {}, "skills": [{"kind": "reduce_damage", "trigger": "static", "amount": 1, "target": "equipped_unit"}]},
    {"code": "T-DOCK", "name": "試験防壁", "category": "tactic", "subtype": "facility", "frame": "blue", "cost": 0,
     "skills": [{"kind": "reduce_damage", "trigger": "static", "amount": 1, "target": "all_friendly_units",
                 "condition": {"target_types": ["重装"]}}]},
]
CATALOG = Catalog.build("hagmi", PACKAGE["cards"] + TEST_CARDS + EXTRA, PACKAGE["formats"])
BOTH = {"static_reduce_damage": "equipped_and_facilities"}


def duel(options=None):
    opponent = {"kind": "deck", "list": {"sections": {}}}
    return HagmiGame({"sections": {}}, CATALOG, opponent, options).new_initial_state(random.Random(0))


def hit(options, attacker_code, *, plate=True, dock=True, target_code="T-BIG"):
    """Player 0's `attacker_code` attacks player 1's `target_code` (T-BIG: 重装, armor 10), which carries T-PLATE
    and stands behind T-DOCK as asked; no defence. Returns the target."""
    state = duel(options)
    target = unit(state, 1, target_code)
    if plate:
        target.armaments += cards(state, "T-PLATE")
    if dock:
        state.players[1].facilities += cards(state, "T-DOCK")
    attacker = unit(state, 0, attacker_code)
    to_battle(state)
    act(state, ("attack", attacker.uid, (target.uid,)))
    if state.decision and state.decision[0] == "defend":
        act(state, ("no_defend",))
    return target


def test_H13_static_reduce_damage_on_an_armament_or_a_facility_is_not_applied_by_default():
    assert DEFAULT_OPTIONS["static_reduce_damage"] == "own_card"
    assert hit(None, "HS-013").damage == 4  # 4 firepower, neither T-PLATE nor T-DOCK reduces it


def test_H13_option_equipped_and_facilities_applies_the_armaments_and_the_facilitys():
    assert hit(BOTH, "HS-013").damage == 2  # 4 − 1 (T-PLATE) − 1 (T-DOCK)
    assert hit(BOTH, "HS-013", dock=False).damage == 3
    assert hit(BOTH, "HS-013", plate=False).damage == 3


def test_H13_the_facilitys_target_types_still_apply():
    """T-DOCK reduces for 重装 units only: 試験機1 (強襲, armor 3) takes the 2 damage of ハウンド unreduced."""
    assert hit(BOTH, "HS-009", plate=False, target_code="T-U1").damage == 2


def test_H13_the_units_own_static_reduction_counts_under_both_values():
    """鉄壁号 (HS-008, its own static −1, armor 6) hit for 4: 3 either way; with T-PLATE too, 2 under the option."""
    assert hit(None, "HS-013", plate=False, dock=False, target_code="HS-008").damage == 3
    assert hit(BOTH, "HS-013", plate=False, dock=False, target_code="HS-008").damage == 3
    assert hit(BOTH, "HS-013", dock=False, target_code="HS-008").damage == 2


def test_H13_unreducible_damage_ignores_the_static_reductions_under_both_values():
    for options in (None, BOTH):
        assert hit(options, "HS-014").hard_damage == 3  # 軽減できないダメージ, 3 firepower


def test_H13_a_position_with_option_static_reduce_damage_loads_and_plays_it():
    doc = {"format": "hangar.position/1", "system": "hagmi", "opponent": {"kind": "deck"}, "turn": 3,
           "decision": "battle", "options": BOTH,
           "sides": [{"units": [{"card": "HS-013#0", "fuel": ["HS-009#1", "HS-009#2"]}]},
                     {"units": [{"card": "T-BIG#3", "fuel": [], "armaments": [{"card": "T-PLATE#4"}]}],
                      "facilities": ["T-DOCK#5"]}],
           "random": {"seed": 1}}
    state = load_position(doc, CATALOG.cards)
    play_ids(state, ["attack:0:3", "no_defend"])
    assert state.find_unit(3).damage == 2 and export_position("hagmi", state)["options"] == BOTH
    with pytest.raises(PositionError) as refused:
        load_position({**doc, "options": {"static_reduce_damage": "all"}}, CATALOG.cards)
    assert refused.value.path == "options.static_reduce_damage"
    with pytest.raises(ValueError, match='option "static_reduce_damage"'):
        duel({"static_reduce_damage": "all"})
