"""Arc, void gates and deployment: charging and recalling arc (W10 phase 2), deploying a reserve unit through a
gate (W10 phase 6), placing a gate (W10 phase 7), the spots gates may stand on, and what the set-up event says of
each side.

Arc [interpretation]: each player owns `arc_pool` arc. Charging moves 1 arc from the pool onto a unit or gate;
recalling, deploying (gate arc), spending on attacks (power dice) and abilities return arc to the pool. A gate
takes `gate_start_arc` from the pool when placed.
"""
from __future__ import annotations

from typing import Any

from rules_engine.warcaster import cyphers, movement
from rules_engine.warcaster.state import Gate, Table, Unit

_GATE_SPOTS: dict[float, tuple[list[tuple[float, float]], list[tuple[float, float]]]] = {}


def gate_spots(table: Table, player: int) -> list[tuple[float, float]]:
    """Where a player may place a void gate: 3 spots on its deployment line and 3 further forward (a shared
    list, worked out once per table size: never mutate it)."""
    s = table.size
    found = _GATE_SPOTS.get(s)
    if found is None:
        rows = (round(s * 0.15, 2), round(s * 0.3, 2))
        xs = (round(s * 0.2, 2), round(s / 2, 2), round(s * 0.8, 2))
        found = _GATE_SPOTS[s] = ([(x, y) for y in rows for x in xs], [(x, round(s - y, 2)) for y in rows for x in xs])
    return found[player]


def charge_or_recall(table: Table, kind: str, holder_kind: str, uid: int) -> None:
    """W10 phase 2: `charge` moves 1 arc from the pool onto the unit or gate, `recall` all its arc back."""
    side = table.sides[table.player]
    holder: Unit | Gate = table.units[uid] if holder_kind == "unit" else side.gates[uid]
    if kind == "charge":
        if isinstance(holder, Unit):
            table.put_arc(holder, 1)
        else:
            holder.arc += 1
            side.pool -= 1
    else:
        side.pool += holder.arc
        holder.arc = 0
    table.log(kind, None, {"holder": holder_kind, "uid": uid, "arc": holder.arc, "pool": side.pool})


def deploy(table: Table, unit: Unit, gate_uid: int) -> None:
    """W10 phase 6: the unit's CST is paid from the gate's arc (back to the pool), its models are placed within
    `deploy_range` of the gate, then their `on_deploy` abilities are used."""
    side = table.sides[table.player]
    gate = side.gates[gate_uid]
    gate.arc -= unit.spec.cst
    side.pool += unit.spec.cst
    table.log("gate_paid", None, {"gate": gate.uid, "amount": unit.spec.cst, "arc": gate.arc})
    movement.place(table, unit, gate.x, gate.y, table.options["deploy_range"])
    cyphers.on_deployment(table, unit)


def place_gate(table: Table, spot: int) -> None:
    """W10 phase 7: a void gate on that spot, taking `gate_start_arc` from the pool (at most the gate's limit)."""
    side = table.sides[table.player]
    x, y = gate_spots(table, table.player)[spot]
    arc = min(table.options["gate_start_arc"], side.pool, table.options["gate_arc_limit"])
    side.pool -= arc
    gate = Gate(len(side.gates), table.player, x, y, arc)
    side.gates.append(gate)
    table.log("gate", None, {"gate": gate.uid, "at": [x, y], "arc": arc, "pool": side.pool})


def side_info(table: Table, player: int) -> dict[str, Any]:
    """A side's units and models as the `setup` event gives them."""
    return {"goldfish": table.sides[player].goldfish, "units": [
        {"unit": u.uid, "code": u.spec.code, "name": u.spec.name, "kind": u.spec.kind, "cst": u.spec.cst,
         "models": [{"model": m.uid, "code": m.spec.code, "radius": m.spec.radius, "health": m.spec.health}
                    for m in u.models]}
        for u in (table.units[i] for i in table.sides[player].units)]}
