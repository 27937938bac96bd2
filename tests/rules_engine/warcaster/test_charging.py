"""W10 phase 2, the charging phase (rules_engine/warcaster/charging.py), as seed 003 gives it: charge 1 arc onto one
friendly unit or void gate on the table, or recall any amount of arc from the friendly units and void gates on the
table (盤上の味方ユニットまたはヴォイドゲートのいずれか一つにアークを1点チャージできる。または任意の量のアークを
盤上の味方ユニットとヴォイドゲートから回収することが出来る。); option charging_recall = "one_holder" keeps the
engine's earlier reading (one holder's whole arc, then the phase ends)."""
from __future__ import annotations

import random

import pytest

from rules_engine.core.game import IllegalActionError
from rules_engine.core.policies import get_policy
from rules_engine.warcaster import actions as A
from rules_engine.warcaster.game import WarcasterGame
from rules_engine.warcaster.policies import arc_wanted
from rules_engine.warcaster.state import Gate, invariant_problems
from tests.rules_engine.warcaster import CARDS, LISTS, OPPONENTS, events, table, unit_of

SQUAD = {"card": "WC-004", "qty": 1}  # weapons
MANTLET = {"card": "WC-009", "qty": 1}  # no weapons


def charging(gate_arc=(5, 5), unit_arc=(0, 0), enemy_arc=0, **options):
    """Player 0 in its charging phase: a squad and a mantlet on the table with `unit_arc`, gates holding
    `gate_arc`, the rest of its arc in the pool; the goldfish's heavy warjack holds `enemy_arc`."""
    state = table([(SQUAD, [(5, 5), (6, 5), (7, 5), (5, 6), (6, 6)]), (MANTLET, [(9, 5)])],
                  [("WC-011", [(25, 25)])], options=options or None)
    side = state.sides[0]
    for uid, arc in enumerate(gate_arc):
        side.gates.append(Gate(uid, 0, 6.0 + 9 * uid, 4.5, arc))
        side.pool -= arc
    for index, arc in enumerate(unit_arc):
        unit_of(state, 0, index).arc = arc
        side.pool -= arc
    unit_of(state, 1).arc = enemy_arc
    state.sides[1].pool -= enemy_arc
    state.player, state.phase, state._legal = 0, "charge", None
    assert not invariant_problems(state)
    return state


def recalls(state):
    return [e.data for e in events(state, "recall")]


def test_w10_charging_puts_one_arc_on_one_holder_and_ends_the_phase():
    state = charging(gate_arc=(5,), unit_arc=(1, 0))
    side, squad = state.sides[0], unit_of(state, 0)
    pool = side.pool
    state.apply(A.charge("unit", squad.uid))
    assert (squad.arc, side.pool) == (2, pool - 1)
    assert state.phase not in ("charge", "recall")  # one charge: the phase is over
    assert events(state, "charge")[0].data == {"holder": "unit", "uid": squad.uid, "arc": 2, "pool": pool - 1}
    assert not invariant_problems(state)


def test_w10_charging_respects_the_holders_limits_and_needs_arc_in_the_pool():
    """A unit at `unit_arc_limit` or a gate at `gate_arc_limit` takes no charge; an empty pool charges nothing."""
    state = charging(gate_arc=(8, 2), unit_arc=(3, 0))
    legal = state.legal_actions()
    assert A.charge("unit", unit_of(state, 0).uid) not in legal and A.charge("gate", 0) not in legal
    assert A.charge("unit", unit_of(state, 0, 1).uid) in legal and A.charge("gate", 1) in legal
    empty = charging(gate_arc=(8, 4), unit_arc=(3, 0))  # 8 + 4 + 3 = all 15 arc on the table
    assert empty.sides[0].pool == 0
    assert not [a for a in empty.legal_actions() if a.kind == "charge"]


def test_w10_recalls_from_several_holders_in_one_charging_phase():
    """Any amount from friendly units and gates (units and gates, several of them), into the pool, until END."""
    state = charging(gate_arc=(5, 4), unit_arc=(2, 1))
    side, squad, mantlet = state.sides[0], unit_of(state, 0), unit_of(state, 0, 1)
    pool = side.pool
    for action in [A.recall("gate", 0, 1), A.recall("unit", squad.uid, 1), A.recall("gate", 1, 1),
                   A.recall("gate", 0, 1), A.recall("unit", mantlet.uid, 1)]:
        state.apply(action)
        assert state.phase == "recall"
    assert [g.arc for g in side.gates] == [3, 3] and (squad.arc, mantlet.arc) == (1, 0)
    assert side.pool == pool + 5
    assert [(r["holder"], r["amount"], r["arc"]) for r in recalls(state)] == [
        ("gate", 1, 4), ("unit", 1, 1), ("gate", 1, 3), ("gate", 1, 3), ("unit", 1, 0)]
    assert [r["pool"] for r in recalls(state)] == list(range(pool + 1, pool + 6))
    state.apply(A.END)
    assert state.phase not in ("charge", "recall")
    assert not invariant_problems(state)


def test_w10_recall_a_partial_amount_leaves_the_rest_on_the_holder():
    state = charging(gate_arc=(6,))
    side = state.sides[0]
    pool = side.pool
    state.apply(A.recall("gate", 0, 1))
    state.apply(A.recall("gate", 0, 1))
    state.apply(A.END)
    assert (side.gates[0].arc, side.pool) == (4, pool + 2)
    assert state.phase not in ("charge", "recall")


def test_w10_ending_the_charging_phase_after_recalls_and_no_charge_once_recalling():
    """Charge *or* recall: once arc is recalled the phase offers only END (first) and more recalls."""
    state = charging(gate_arc=(5, 2), unit_arc=(1, 0))
    first = state.legal_actions()
    assert first[0] == A.PASS and any(a.kind == "charge" for a in first)
    state.apply(A.recall("gate", 1, 1))
    legal = state.legal_actions()
    assert legal[0] == A.END and {a.kind for a in legal[1:]} == {"recall"}
    assert set(legal[1:]) == {A.recall("unit", unit_of(state, 0).uid, 1), A.recall("gate", 0, 1),
                              A.recall("gate", 1, 1)}
    with pytest.raises(IllegalActionError):
        state.apply(A.charge("gate", 0))
    assert state.describe(A.END) == "end the charging phase (recall no more arc)"


def test_w10_recalling_every_arc_ends_the_phase_by_itself():
    """With nothing left to recall, END is the only action and is played automatically."""
    state = charging(gate_arc=(2,))
    state.apply(A.recall("gate", 0, 1))
    state.apply(A.recall("gate", 0, 1))
    assert state.sides[0].gates[0].arc == 0 and state.phase not in ("charge", "recall")


def test_w10_only_friendly_holders_on_the_table_are_recalled_from():
    state = charging(gate_arc=(3,), enemy_arc=2)
    enemy = unit_of(state, 1)
    assert not [a for a in state.legal_actions() if a.kind == "recall" and a.holder == "unit" and a.uid == enemy.uid]
    squad = unit_of(state, 0)
    state.sides[0].pool -= 1
    squad.arc, squad.status, state._legal = 1, "reserve", None  # off the table: not 盤上
    assert A.recall("unit", squad.uid, 1) not in state.legal_actions()
    squad.status, state._legal = "board", None
    assert A.recall("unit", squad.uid, 1) in state.legal_actions()


def test_w10_option_one_holder_recalls_one_holders_whole_arc_and_ends_the_phase():
    state = charging(gate_arc=(5, 4), unit_arc=(2, 0), charging_recall="one_holder")
    side = state.sides[0]
    pool = side.pool
    legal = state.legal_actions()
    assert A.recall("gate", 0, 5) in legal and A.recall("gate", 0, 1) not in legal
    assert A.recall("unit", unit_of(state, 0).uid, 2) in legal
    state.apply(A.recall("gate", 0, 5))
    assert (side.gates[0].arc, side.gates[1].arc, side.pool) == (0, 4, pool + 5)
    assert state.phase not in ("charge", "recall") and len(recalls(state)) == 1


def test_w10_option_charging_recall_is_checked():
    with pytest.raises(ValueError, match="options.charging_recall"):
        WarcasterGame(LISTS["isa-starsteel-vanguard"], CARDS, OPPONENTS["goldfish"], {"charging_recall": "all"})


def test_w10_describe_charging_actions_in_words():
    state = charging(gate_arc=(5,), unit_arc=(1, 0))
    squad = unit_of(state, 0)
    assert state.describe(A.charge("gate", 0)) == "charge 1 arc on void gate 0"
    assert state.describe(A.recall("unit", squad.uid, 1)) == f"recall 1 arc from {squad.spec.name} (unit {squad.uid})"
    assert state.describe(A.recall("gate", 0, 5)) == "recall 5 arc from void gate 0"


def test_w10_greedy_recalls_idle_arc_it_needs_then_ends_the_phase():
    """An empty pool, no reserve left (the gates' arc is idle): the greedy recalls one arc at a time until the pool
    holds what the rest of the game can use, then ends the phase; the arc of the fighting squad stays."""
    state = charging(gate_arc=(5, 5, 4), unit_arc=(1, 0))
    side = state.sides[0]
    assert side.pool == 0 and not state.reserves(0)
    wanted = arc_wanted(state)
    assert wanted == 2  # min(15 turns left, room on the squad 3 - 1; the mantlet has no weapon), no gate to place
    policy, rng = get_policy("warcaster-greedy"), random.Random(0)
    while state.phase in ("charge", "recall"):
        state.apply(policy.choose(state, rng))
    assert side.pool == wanted and unit_of(state, 0).arc == 1
    assert all(r["holder"] == "gate" for r in recalls(state)) and len(recalls(state)) == wanted
    assert not invariant_problems(state)


def test_w10_greedy_charges_rather_than_recalls_and_keeps_gate_arc_for_reserves():
    state = charging(gate_arc=(5, 5), unit_arc=(0, 0))  # arc in the pool and room on the squad: a charge helps
    policy, rng = get_policy("warcaster-greedy"), random.Random(0)
    assert policy.choose(state, rng).kind == "charge"
    waiting = charging(gate_arc=(8, 7), unit_arc=(0, 0))  # pool empty, but a reserve may still need the gates
    unit_of(waiting, 0, 1).status, waiting._legal = "reserve", None
    assert waiting.sides[0].pool == 0 and waiting.reserves(0)
    assert policy.choose(waiting, rng) == A.PASS
