"""H22: refit by the source card's own ability and by a 秘策 card straight onto the battlefield.

Seed 000: 通常は「改装元カード」に「改装用カード」を使用することで、手札か秘策から「改装先カード」を出すことができます。
中には直接「改装元カード」が改装する能力を持っていたり、秘策から直接戦場のカードを改装するカードもあります。
The bundled catalog refits only with the order 改装指令 (HS-038, test_refit.py); the cards here are fixtures in the
catalog's shapes: a unit with a `refit` skill whose `source` is `self`, and a 秘策 unit card (`usable_from_secret`)
whose `on_play` refit is `into: self`. Their refit targets are the bundled [改装] cards (紅蓮丸・焔, 蒼穹の眼・改/天,
スワローテイル・改).
"""
from __future__ import annotations

import random

import pytest

from rules_engine.core.catalog import CardDataError, Catalog
from rules_engine.core.game import play_out
from rules_engine.core.policies import get_policy
from rules_engine.hagmi.cards import parse_card
from rules_engine.hagmi.game import HagmiGame
from rules_engine.hagmi.zones import refuel
from tests.rules_engine.hagmi import PACKAGE, TEST_CARDS, act, cards, check_invariants, hand, kinds, to_battle, unit

_UNIT = {"category": "unit", "frame": "black", "range": 1, "fuel_cost": 0, "targets": "single"}
REFIT_CARDS = [
    # 改装元カードが改装する能力: a main skill, once per turn, into a card from hand or 秘策
    {**_UNIT, "code": "T-RS", "name": "紅蓮丸・試", "cost": 2, "pilot": "朱音", "types": ["強襲", "近接"],
     "firepower": "2", "armor": 3,
     "skills": [{"kind": "refit", "trigger": "main", "source": "self", "from": ["hand", "secret"], "once_per_turn": True,
                 "text": "起動：1ターンに1度、このユニットを手札か秘策の改装先カードに改装する。"}]},
    # 秘策から直接戦場のカードを改装するカード: played from 秘策, it refits a friendly unit into itself
    {**_UNIT, "code": "T-RX", "name": "紅蓮丸・極", "frame": "white", "cost": 2, "pilot": "朱音",
     "types": ["強襲", "近接", "改装"], "firepower": "4", "armor": 5, "usable_from_secret": True,
     "skills": [{"kind": "refit", "trigger": "on_play", "into": "self",
                 "text": "秘策から使用できる。自分の戦場の兵装1体をこのカードに改装する。"}]},
    # a 緊急 refit of its own unit, from 秘策 (a refit in the middle of a battle)
    {**_UNIT, "code": "T-RE", "name": "蒼穹の眼・試", "cost": 2, "pilot": "雫", "types": ["狙撃", "重装"],
     "firepower": "1", "armor": 3,
     "skills": [{"kind": "refit", "trigger": "emergency", "source": "self", "from": ["secret"]}]},
    # a triggered refit: at the start of its controller's turn, into a card from hand (chosen automatically)
    {**_UNIT, "code": "T-RT", "name": "スワローテイル・試", "cost": 1, "pilot": "雲雀", "types": ["飛行", "機動"],
     "firepower": "1", "armor": 1,
     "skills": [{"kind": "refit", "trigger": "on_turn_start", "source": "self", "from": ["hand"]}]},
]
CATALOG = Catalog.build("hagmi", PACKAGE["cards"] + TEST_CARDS + REFIT_CARDS, PACKAGE["formats"])


def duel(options=None):
    opponent = {"kind": "deck", "list": {"sections": {}}}
    return HagmiGame({"sections": {}}, CATALOG, opponent, options).new_initial_state(random.Random(0))


def secret(state, player, code):
    uid = cards(state, code)[0]
    state.players[player].secret.append(uid)
    return uid


def test_H22_a_source_card_refits_itself_with_its_own_ability():
    state = duel()
    source = unit(state, 0, "T-RS")  # 2 fuel
    source.mods.append(["armor", 1, "permanent"])  # 装甲改修
    unit(state, 0, "HS-001")  # 紅蓮丸 could be refitted into 紅蓮丸・焔 too, but not by T-RS's own ability
    target, = hand(state, 0, "HS-002")  # 紅蓮丸・焔: 朱音, 強襲 近接 改装
    uses = [a for a in state.legal_actions() if a[0] == "skill"]
    assert uses == [("skill", source.uid, 0, (source.uid, target))]
    assert state.describe(uses[0]) == "use 紅蓮丸・試's skill refit: refit 紅蓮丸・試 into 紅蓮丸・焔"
    act(state, uses[0])
    new = state.find_unit(target)
    assert state.find_unit(source.uid) is None and new.stored == [source.uid] and new.fuel == source.fuel
    assert state.armor(new) == 4 + 1 and state.players[0].hand == []
    assert kinds(state, "refit") == [{"source": "T-RS", "card": "HS-002"}]
    assert kinds(state, "skill") == [{"card": "T-RS", "skill": "refit"}]


def test_H22_the_own_ability_is_not_offered_without_a_refit_card():
    state = duel()
    source = unit(state, 0, "T-RS")
    hand(state, 0, "HS-004")  # another pilot's [改装] card
    assert all(a[0] != "skill" for a in state.legal_actions())
    assert source.uid in [u.uid for u in state.players[0].units]


def test_H22_a_secret_card_refits_a_battlefield_unit_directly_paying_its_cost():
    state = duel()
    source = unit(state, 0, "HS-001")  # 紅蓮丸, 2 fuel
    booster, = cards(state, "HS-026")
    source.armaments.append(booster)
    state.players[0].durability[booster] = 1
    kai = secret(state, 0, "T-RX")
    pay = hand(state, 0, "HS-043", "HS-043")
    plays = [a for a in state.legal_actions() if a[0] == "play" and a[1] == kai]
    assert plays == [("play", kai, tuple(pay), (source.uid, kai))]
    assert state.describe(plays[0]) == "play 紅蓮丸・極 paying 電撃戦, 電撃戦: refit 紅蓮丸 into 紅蓮丸・極"
    act(state, plays[0])
    new = state.find_unit(kai)
    assert new is not None and state.players[0].secret == []
    assert new.fuel == source.fuel and new.stored == [source.uid] and new.armaments == [booster]
    assert state.players[0].discard == pay  # its cost paid to discard: it takes over the source's fuel
    assert kinds(state, "refit") == [{"source": "HS-001", "card": "T-RX"}]


def test_H22_option_direct_refit_cost_free_pays_nothing():
    state = duel({"direct_refit_cost": "free"})
    source = unit(state, 0, "HS-001")
    kai = secret(state, 0, "T-RX")
    assert [a for a in state.legal_actions() if a[0] == "play"] == [("play", kai, (), (source.uid, kai))]
    with pytest.raises(ValueError, match="direct_refit_cost"):
        duel({"direct_refit_cost": "half"})


def test_H22_a_direct_refit_card_needs_a_source_and_is_not_played_from_hand():
    state = duel()
    unit(state, 0, "HS-003")  # 雫's unit: another pilot
    kai = secret(state, 0, "T-RX")
    in_hand, _, _ = hand(state, 0, "T-RX", "HS-043", "HS-043")
    assert all(a[1] not in (kai, in_hand) for a in state.legal_actions() if a[0] == "play")  # H20, H22


def test_H22_card_data_for_a_direct_refit_is_checked():
    base = next(c for c in REFIT_CARDS if c["code"] == "T-RX")
    for bad in ({**base, "usable_from_secret": False},
                {**base, "skills": [{"kind": "refit", "trigger": "main", "into": "self"}]},
                {**base, "skills": [{"kind": "refit", "trigger": "on_play", "into": "self", "source": "self"}]}):
        with pytest.raises(CardDataError, match=r"skills\[0\]\.into"):
            parse_card(bad)
    with pytest.raises(CardDataError, match=r"skills\[0\]\.into"):
        parse_card({**base, "skills": [{"kind": "refit", "trigger": "on_play", "into": "other"}]})


def test_H22_a_unit_refitted_in_a_battle_stays_in_it_with_its_damage():
    state = duel()
    fang = unit(state, 0, "HS-016")  # ツインファング 2x2
    eye = unit(state, 1, "T-RE")  # armor 3; 緊急: refit itself from 秘策
    sky = secret(state, 1, "HS-005")  # 蒼穹の眼・天: 狙撃 重装 飛行 改装, armor 3
    to_battle(state)
    act(state, ("attack", fang.uid, (eye.uid,)))
    act(state, ("no_defend",))
    act(state, ("pass",))  # the first hit: 2 damage to 蒼穹の眼・試
    assert state.legal_actions() == [("skill", eye.uid, 0, (eye.uid, sky)), ("pass",)]
    act(state, ("skill", eye.uid, 0, (eye.uid, sky)))
    assert [(d["unit"], d["amount"]) for d in kinds(state, "damage")] == [(eye.uid, 2), (sky, 2)]  # it goes on
    assert state.find_unit(sky) is None  # its 2 damage came along: 2 + 2 ≥ 3
    assert {eye.uid, sky} <= set(state.players[1].discard)


def test_H22_a_triggered_refit_takes_the_first_choice_automatically():
    state = duel()
    swallow = unit(state, 0, "T-RT")
    kai, = hand(state, 0, "HS-007")  # スワローテイル・改
    for _ in range(2):  # player 0's turn ends, player 1's turn, then player 0's starts: the refit fires
        to_battle(state)
        act(state, ("end",))
    assert state.active == 0 and state.find_unit(kai) is not None and state.find_unit(swallow.uid) is None


def test_H22_the_refit_card_takes_over_down_and_this_turns_effects():
    state = duel()
    source = unit(state, 0, "HS-001")
    source.down, source.flags = True, {"first_strike"}
    order, target, pay = hand(state, 0, "HS-038", "HS-002", "HS-043")
    act(state, ("play", order, (pay,), (source.uid, target)))
    new = state.find_unit(target)
    assert new.down and new.flags == {"first_strike"}  # 「全て改装先の兵装へ移し替えます」


def test_H22_games_with_these_refit_cards_end_and_lose_no_card():
    deck = {"sections": {"weapons": [{"card": code, "qty": 2} for code in
                                     ("T-RS", "HS-001", "HS-002", "T-RE", "HS-003", "HS-004", "T-RT", "HS-007")],
                         "tactics": [{"card": "HS-043", "qty": 2}, {"card": "HS-038", "qty": 2}],
                         "damage": [{"card": "HS-049", "qty": 5}],
                         "secret": [{"card": "T-RX", "qty": 1}, {"card": "HS-005", "qty": 1}]}}
    game = HagmiGame(deck, CATALOG, {"kind": "deck", "list": deck})
    refits = 0
    for seed in range(20):
        for policy in ("hagmi-greedy", "random"):
            rng = random.Random(seed)
            end = play_out(game.new_initial_state(rng), [get_policy(policy)] * 2, rng)
            assert end.is_terminal()
            check_invariants(end, len(end.cards))
            refits += sum(1 for e in end.events if e.kind == "refit")
    assert refits > 0


def test_H22_the_refit_card_keeps_all_the_fuel_even_above_its_cost_but_takes_no_more():
    state = duel({"direct_refit_cost": "free"})
    state.players[0].weapons = cards(state, "HS-009")
    source = unit(state, 0, "HS-002")  # 紅蓮丸・焔, cost 3, 3 fuel
    kai = secret(state, 0, "T-RX")  # cost 2
    act(state, ("play", kai, (), (source.uid, kai)))
    new = state.find_unit(kai)
    assert len(new.fuel) == 3  # 「燃料」...を、全て改装先の兵装へ移し替えます
    refuel(state, 0, new, 1, "weapons_deck")
    assert len(new.fuel) == 3 and len(state.players[0].weapons) == 1  # 補給 never above its cost
