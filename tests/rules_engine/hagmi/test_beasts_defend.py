"""H32: "most beasts never defend" — option `beasts_defend` (docs/rules.md §1.6, an [interpretation]: the public rules
say most 機獣 do not counter or intercept, seed 000 says only that they attack players alone, and neither names
which do). `never` (default): no 機獣 defends. `card`: a 機獣 whose card has a static `defend` skill does, by the
rules (the 機獣 side never chooses): the attacked 機獣 counters (反撃) if it can, otherwise the first that can
intercept (守護) does. Played as co-op positions with test-only 機獣."""
from __future__ import annotations

import random

import pytest

from rules_engine.core.catalog import CardDataError, Catalog
from rules_engine.hagmi.cards import parse_card
from rules_engine.hagmi.game import DEFAULT_OPTIONS, HagmiGame
from rules_engine.positions import PositionError, export_position, legal_moves, load_position, play_ids
from tests.rules_engine.hagmi import PACKAGE, TEST_CARDS


def beast(code, order, skills=(), **extra):
    return {"code": code, "name": code, "category": "beast", "cost": 0, "firepower": "1", "armor": 6,
            "action_order": order, "skills": list(skills), **extra}


BEASTS = [
    beast("T-GUARD", 5, [{"kind": "defend", "trigger": "static", "how": "counter"}]),  # 反撃 only
    beast("T-WALL", 3, [{"kind": "defend", "trigger": "static", "how": "intercept"}]),  # 守護 only
    beast("T-BOTH", 4, [{"kind": "defend", "trigger": "static"}], range=3),  # both; 射程 3 hits first
    beast("T-PLAIN", 1),
]
CARDS = Catalog.build("hagmi", PACKAGE["cards"] + TEST_CARDS + BEASTS, PACKAGE["formats"]).cards


def position(*beasts: str, options=None, down=()):
    """Player 0's battle phase: 試験機大 (T-BIG: firepower 5, armor 10, range 1) faces the given 機獣 (uids 1, 2, …)."""
    doc = {"format": "hangar.position/1", "system": "hagmi", "opponent": {"kind": "coop", "mothership": "HM-001"},
           "turn": 3, "decision": "battle",
           "sides": [{"units": [{"card": "T-BIG#0", "fuel": []}], "damage_deck": ["HS-049"] * 3},
                     {"cores": 7, "beasts": [{"card": f"{code}#{i + 1}", **({"down": True} if code in down else {})}
                                             for i, code in enumerate(beasts)]}],
           "random": {"seed": 1}}
    if options:
        doc["options"] = options
    return load_position(doc, CARDS)


def of_kind(events, kind):
    return [event["data"] for event in events if event["kind"] == kind]


def damage(state, uid):
    return state.find_unit(uid).damage if state.find_unit(uid) is not None else None


def test_H32_no_beast_defends_by_default_even_with_a_defend_skill():
    assert DEFAULT_OPTIONS["beasts_defend"] == "never"
    state = position("T-GUARD", "T-WALL")
    events = play_ids(state, ["attack:0:1"])
    assert of_kind(events, "defend") == []
    assert (damage(state, 1), damage(state, 2), damage(state, 0)) == (5, 0, 0)  # no counter: T-BIG unhurt


def test_H32_option_card_the_attacked_beast_counters_when_its_card_says_so():
    """`card`: T-GUARD (反撃) counters; range 1 each: the hits are simultaneous (H11), 5 to it, 1 to T-BIG."""
    state = position("T-GUARD", options={"beasts_defend": "card"})
    events = play_ids(state, ["attack:0:1"])
    assert of_kind(events, "defend") == [{"how": "counter", "unit": "T-GUARD"}]
    assert (damage(state, 1), damage(state, 0)) == (5, 1)
    assert export_position("hagmi", state)["options"] == {"beasts_defend": "card"}


def test_H32_option_card_another_beast_intercepts_and_takes_the_hit():
    """T-PLAIN (no defend skill) is attacked: T-WALL (守護, action order 3) intercepts before T-BOTH (4)."""
    for options, hurt in ((None, {1: 5, 2: 0, 3: 0}), ({"beasts_defend": "card"}, {1: 0, 2: 5, 3: 0})):
        state = position("T-PLAIN", "T-WALL", "T-BOTH", options=options)
        events = play_ids(state, ["attack:0:1"])
        assert {uid: damage(state, uid) for uid in (1, 2, 3)} == hurt, options
        assert of_kind(events, "defend") == ([{"how": "intercept", "unit": "T-WALL"}] if options else [])


def test_H32_a_counter_only_beast_does_not_intercept_and_a_down_beast_does_not_defend():
    state = position("T-PLAIN", "T-GUARD", options={"beasts_defend": "card"})
    assert of_kind(play_ids(state, ["attack:0:1"]), "defend") == []  # T-GUARD counters only for itself
    state = position("T-BOTH", "T-WALL", options={"beasts_defend": "card"}, down=("T-BOTH", "T-WALL"))
    assert of_kind(play_ids(state, ["attack:0:1"]), "defend") == []  # ダウン: no skills (H32)


def test_H32_a_beast_with_a_longer_range_counters_first():
    """T-BOTH (射程 3) counters before T-BIG (射程 1) hits (H11: the longer range deals damage first)."""
    state = position("T-BOTH", options={"beasts_defend": "card"})
    events = play_ids(state, ["attack:0:1"])
    assert [(d["unit"], d["amount"]) for d in of_kind(events, "damage")] == [(0, 1), (1, 5)]
    assert of_kind(events, "defend") == [{"how": "counter", "unit": "T-BOTH"}]


def test_H32_the_beast_side_never_gets_a_defence_decision():
    state = position("T-GUARD", "T-WALL", options={"beasts_defend": "card"})
    assert [move["id"] for move in legal_moves(state)] == ["attack:0:1", "attack:0:2", "attack:0:mothership.1", "end"]
    play_ids(state, ["attack:0:2"])
    assert state.decision == ("battle", 0)  # the 機獣 side defended (or not) by itself


def test_H32_a_defend_skill_belongs_on_a_beast_with_trigger_static():
    unit = {"code": "X-1", "name": "x", "category": "unit", "skills": [{"kind": "defend", "trigger": "static"}]}
    with pytest.raises(CardDataError, match="skills\\[0\\]"):
        parse_card(unit)
    with pytest.raises(CardDataError, match="skills\\[0\\]"):
        parse_card(beast("X-2", 1, [{"kind": "defend", "trigger": "on_enter"}]))
    with pytest.raises(CardDataError, match="skills\\[0\\].how"):
        parse_card(beast("X-3", 1, [{"kind": "defend", "trigger": "static", "how": "always"}]))


def test_H32_option_beasts_defend_refuses_an_unknown_value_naming_it():
    opponent = {"kind": "coop", "mothership": "HM-001", "beast_deck": [{"card": "T-PLAIN", "qty": 1}]}
    HagmiGame({"sections": {}}, CARDS, opponent, {"beasts_defend": "card"}).new_initial_state(random.Random(0))
    with pytest.raises(ValueError, match='option "beasts_defend"'):
        HagmiGame({"sections": {}}, CARDS, opponent, {"beasts_defend": "seed"})
    with pytest.raises(PositionError) as refused:
        position("T-GUARD", options={"beasts_defend": "seed"})
    assert refused.value.path == "options.beasts_defend" and "never, card" in refused.value.message
