"""H34: in 機獣討滅戦線 the players attack the mothership (母艦) as well as its 機獣, and each hit on it destroys one of
its 機獣核 (docs/rules.md §1.6: the publisher's posts say the players attack 「母艦と、その配下の機獣」 and whittle the
mothership's life cores down, 「母艦のライフコアを削り切った」, and that 「並大抵の攻撃では大きな損害は与えられません」;
a core per hit is the [interpretation], option `mothership_attack` = `hits`; `cores`: a core per point of damage;
`never` is the old reading: the mothership is never a target and only the 機獣 carry its cores away). Played as co-op positions against 鉄殻の揺籃 (HM-001: attrition at
7 cores charge 1, at 4 the 機獣 get +1 firepower, at 1 one damage to every player)."""
from __future__ import annotations

import random

from rules_engine.core.catalog import Catalog
from rules_engine.core.game import play_out
from rules_engine.core.policies import get_policy
from rules_engine.hagmi.game import DEFAULT_OPTIONS, HagmiGame
from rules_engine.hagmi.simulation import game_record
from rules_engine.positions import legal_moves, load_position, play_ids
from tests.rules_engine.hagmi import OPPONENTS, PACKAGE, TEST_CARDS

CARDS = Catalog.build("hagmi", PACKAGE["cards"] + TEST_CARDS, PACKAGE["formats"]).cards


def position(cores: int, *, beast_cores: int = 0, fired=(0,), options=None, units=1):
    """Player 0's battle phase: `units` × 試験機大 (T-BIG: firepower 5, range 1; uids 0, 2, …) face a Scarab (HB-001,
    uid 1) holding `beast_cores`; the mothership holds `cores`; its attrition abilities `fired` have fired already."""
    doc = {"format": "hangar.position/1", "system": "hagmi", "opponent": {"kind": "coop", "mothership": "HM-001"},
           "turn": 3, "decision": "battle",
           "sides": [{"units": [{"card": f"T-BIG#{2 * i}", "fuel": []} for i in range(units)],
                      "damage_deck": ["HS-049"] * 3},
                     {"cores": cores, "attrition_fired": list(fired),
                      "beasts": [{"card": "HB-001#1", "cores": beast_cores}]}],
           "random": {"seed": 1}}
    if options:
        doc["options"] = options
    return load_position(doc, CARDS)


def of_kind(events, kind):
    return [event["data"] for event in events if event["kind"] == kind]


def test_H34_the_mothership_is_an_attack_target_and_each_hit_destroys_a_core():
    """The default: a hit destroys one core whatever its damage (「並大抵の攻撃では大きな損害は与えられません」)."""
    assert DEFAULT_OPTIONS["mothership_attack"] == "hits"
    state = position(7)
    assert [move["id"] for move in legal_moves(state)] == ["attack:0:1", "attack:0:mothership.1", "end"]
    events = play_ids(state, ["attack:0:mothership.1"])
    assert of_kind(events, "mothership_damage") == [{"amount": 1, "left": 6}]
    assert state.beasts.cores == 6 and not state.is_terminal()


def test_H34_option_cores_each_point_of_damage_destroys_a_core():
    state = position(7, options={"mothership_attack": "cores"})
    assert [move["id"] for move in legal_moves(state)] == ["attack:0:1", "attack:0:mothership.1", "end"]
    events = play_ids(state, ["attack:0:mothership.1"])
    assert of_kind(events, "mothership_damage") == [{"amount": 5, "left": 2}]
    assert state.beasts.cores == 2
    # H30 step 8: the cores fell past 4, so that attrition ability fires (at 7 had fired already; at 1 not reached)
    assert [event["at"] for event in of_kind(events, "attrition")] == [4]
    assert not state.is_terminal()


def test_H34_H33_destroying_the_mothership_s_last_core_wins_when_no_beast_holds_one():
    state = position(3, options={"mothership_attack": "cores"})
    events = play_ids(state, ["attack:0:mothership.1"])
    assert of_kind(events, "mothership_damage") == [{"amount": 3, "left": 0}]  # damage past the last core is lost
    assert state.outcome().winner == 0 and state.outcome().reason == "mothership cores destroyed"


def test_H34_H33_a_beast_still_holding_a_core_keeps_the_game_going_and_the_empty_mothership_is_no_target():
    state = position(3, beast_cores=1, units=2, options={"mothership_attack": "cores"})
    assert "attack:2:mothership.1" in [move["id"] for move in legal_moves(state)]
    play_ids(state, ["attack:0:mothership.1"])
    assert not state.is_terminal() and state.beasts.cores == 0
    assert [move["id"] for move in legal_moves(state)] == ["attack:2:1", "end"]  # the beast, not the mothership


def test_H34_option_never_the_mothership_is_not_a_target():
    state = position(7, options={"mothership_attack": "never"})
    assert [move["id"] for move in legal_moves(state)] == ["attack:0:1", "end"]


def test_H34_a_hit_destroys_one_core_whatever_its_damage_and_the_last_one_wins():
    state = position(1)
    events = play_ids(state, ["attack:0:mothership.1"])
    assert of_kind(events, "mothership_damage") == [{"amount": 1, "left": 0}]  # 5 damage, one hit: one core
    assert state.outcome().winner == 0 and state.outcome().reason == "mothership cores destroyed"


def test_H34_a_co_op_game_ends_by_the_rules_and_its_record_counts_the_cores_destroyed_as_damage_dealt():
    """Vanguard against 鉄殻の揺籃, greedy: the game ends by H33 or H9, not at the turn limit, and the run summary's
    damage dealt (game_record) includes the cores the list's attacks destroyed."""
    game = HagmiGame(OPPONENTS["sample-vanguard"]["list"], CARDS, OPPONENTS["coop-ironshell-cradle"])
    policy = get_policy("hagmi-greedy")
    state = play_out(game.new_initial_state(random.Random(4)), [policy, policy], random.Random(4))
    assert state.outcome().reason in ("mothership cores destroyed", "damage with an empty damage deck")
    events = state.events.to_list()
    cores = sum(e["data"]["amount"] for e in events if e["kind"] == "mothership_damage")
    to_beasts = sum(e["data"]["amount"] for e in events if e["kind"] == "damage" and e["player"] == 1)
    assert cores > 0
    assert sum(game_record(state)["damage_by_turn"]) == cores + to_beasts
