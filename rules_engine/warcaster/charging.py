"""W10 phase 2, the charging phase (チャージング・フェイズ), as seed 003 gives it:

    盤上の味方ユニットまたはヴォイドゲートのいずれか一つにアークを1点チャージできる。
    または任意の量のアークを盤上の味方ユニットとヴォイドゲートから回収することが出来る。

    (You may charge 1 arc onto any one friendly unit or void gate on the table, or recall any amount of arc from
    the friendly units and void gates on the table.)

So a player does one of three things:
- charge (チャージ): 1 arc from the pool onto one friendly unit on the table or one of its gates, up to the
  holder's limit (`unit_arc_limit`, a hero's FOC; `gate_arc_limit`) and only with arc in the pool; this ends the
  phase;
- recall (回収): any amount of arc from its units on the table and its gates, from as many of them as it likes,
  back to its pool. With option `charging_recall` "any" (the seed) each `Recall` takes 1 arc and the phase goes
  on (phase "recall": only recalls, or `END`); a charge is no longer possible once arc is recalled ("or").
  "one_holder" (the engine's earlier reading): one recall takes all the arc of one holder and ends the phase;
- nothing (`PASS`).

Where recalled arc goes is not in the seed: the engine's arc pool [interpretation, deployment.py], which the
next charges, gate placement and arc cyphers draw on.
"""
from __future__ import annotations

from typing import Any

from rules_engine.warcaster import actions as A
from rules_engine.warcaster import deployment
from rules_engine.warcaster.state import Gate, Side, Table, Unit

RECALL_READINGS = ("any", "one_holder")  # option charging_recall


def legal_actions(table: Table, side: Side, recalling: bool) -> list[Any]:
    """The charging phase's actions in a fixed order: `PASS`, then the charges (units, then gates), then the
    recalls (units, then gates); once recalling (phase "recall"), `END` and the recalls only."""
    actions: list[Any] = [A.END if recalling else A.PASS]
    units = table.units_on_board(side.player)
    if not recalling and side.pool:
        for unit in units:
            if unit.arc < table.arc_limit(unit):
                actions.append(A.charge("unit", unit.uid))
        for gate in side.gates:
            if gate.arc < table.options["gate_arc_limit"]:
                actions.append(A.charge("gate", gate.uid))
    one_at_a_time = table.options["charging_recall"] == "any"
    for unit in units:
        if unit.arc:
            actions.append(A.recall("unit", unit.uid, 1 if one_at_a_time else unit.arc))
    for gate in side.gates:
        if gate.arc:
            actions.append(A.recall("gate", gate.uid, 1 if one_at_a_time else gate.arc))
    return actions


def play(table: Table, action: Any) -> str:
    """Play a legal action of the charging phase; returns the phase that follows ("recall" while recalling
    one arc at a time, else "cypher1")."""
    kind = action.kind
    if kind == "charge":
        charge(table, action.holder, action.uid)
    elif kind == "recall":
        recall(table, action.holder, action.uid, action.amount)
        if table.options["charging_recall"] == "any":
            return "recall"
    return "cypher1"  # PASS, END, a charge, or the one recall of option one_holder


def holder_of(table: Table, holder_kind: str, uid: int) -> Unit | Gate:
    return table.units[uid] if holder_kind == "unit" else table.sides[table.player].gates[uid]


def charge(table: Table, holder_kind: str, uid: int) -> None:
    """1 arc from the pool onto the unit or gate (チャージ)."""
    side = table.sides[table.player]
    holder = holder_of(table, holder_kind, uid)
    if isinstance(holder, Unit):
        deployment.put_arc(table, holder, 1)
    else:
        holder.arc += 1
        side.pool -= 1
    table.log("charge", None, {"holder": holder_kind, "uid": uid, "arc": holder.arc, "pool": side.pool})


def recall(table: Table, holder_kind: str, uid: int, amount: int) -> None:
    """`amount` arc (at most what it holds) off the unit or gate back to the pool (回収)."""
    side = table.sides[table.player]
    holder = holder_of(table, holder_kind, uid)
    amount = min(amount, holder.arc)
    holder.arc -= amount
    side.pool += amount
    table.log("recall", None, {"holder": holder_kind, "uid": uid, "amount": amount, "arc": holder.arc,
                               "pool": side.pool})


def describe(table: Table, action: Any, phase: str) -> str | None:
    """A charging action in words (None: not one)."""
    kind = action[0]  # by position: a caller may describe a bare tuple equal to a record
    if kind == "end" and phase == "recall":
        return "end the charging phase (recall no more arc)"
    if kind != "charge" and kind != "recall":
        return None
    if action[1] == "unit" and 0 <= action[2] < len(table.units):
        name = f"{table.units[action[2]].spec.name} (unit {action[2]})"
    else:
        name = f"void gate {action[2]}" if action[1] == "gate" else f"{action[1]} {action[2]}"
    if kind == "charge":
        return f"charge 1 arc on {name}"
    return f"recall {action[3] if len(action) > 3 else 'all the'} arc from {name}"
