"""The actions as typed records (rules_engine/warcaster/actions.py): each equals, hashes, sorts and
serialises like the bare tuple it stands for, and the state lists and accepts them."""
from __future__ import annotations

import json
import random

from rules_engine.core.game import play_out
from rules_engine.core.policies import get_policy
from rules_engine.warcaster import actions as A
from rules_engine.warcaster.game import WarcasterGame
from tests.rules_engine.warcaster import CARDS, LISTS, OPPONENTS

RECORDS = [
    (A.PASS, ("pass",)), (A.charge("unit", 2), ("charge", "unit", 2)), (A.recall("gate", 0, 1), ("recall", "gate", 0, 1)),
    (A.play_cypher("c1", None), ("cypher", "c1", None)), (A.play_cypher("c1", 0), ("cypher", "c1", 0)),
    (A.activate(4), ("activate", 4)), (A.move("hold"), ("move", "hold")), (A.attack(3, 1), ("attack", 3, 1)),
    (A.use_ability(5, 0, None), ("ability", 5, 0, None)), (A.use_ability(5, 1, 7), ("ability", 5, 1, 7)),
    (A.WAIT, ("wait",)), (A.deploy(6, 2), ("deploy", 6, 2)), (A.END, ("end",)), (A.place_gate(3), ("gate", 3)),
    (A.discard("c2"), ("discard", "c2")),
]


def test_a_record_is_its_tuple():
    for record, bare in RECORDS:
        assert record == bare and hash(record) == hash(bare) and record[0] == record.kind
        assert json.dumps(record) == json.dumps(bare)
    comparable = [(r, b) for r, b in RECORDS if None not in b]  # None and int do not sort, as tuples
    assert sorted(r for r, _ in comparable) == sorted(b for _, b in comparable)
    assert A.attack(3, 1) is A.attack(3, 1)  # one shared record per distinct action
    assert A.Attack("attack", 3, 1).target_unit == 3 and A.UseAbility("ability", 5, 1, 7).ability == 1


def test_the_state_lists_records_and_takes_a_bare_tuple_too():
    game = WarcasterGame(LISTS["isa-thunder-lancers"], CARDS, OPPONENTS["marcher-frontier-posse"])
    state = game.new_initial_state(random.Random(1))
    legal = state.legal_actions()
    assert all(isinstance(action, tuple) and hasattr(action, "kind") for action in legal)
    twin = state.clone()
    state.apply(legal[-1])
    twin.apply(tuple(legal[-1]))
    assert state.events.to_list() == twin.events.to_list()
    policy = get_policy("warcaster-greedy")
    play_out(state, [policy, policy], random.Random(2))
    assert state.is_terminal()
