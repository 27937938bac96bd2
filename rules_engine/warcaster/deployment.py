"""Arc, void gates and deployment: the arc on units (put from and spent back to the pool), deploying a reserve unit
through a gate (W10 phase 6), placing a gate (W10 phase 7), the spots gates may stand on; and the set-up: the
pieces of each side, and what the set-up event says of them. Charging and recalling (W10 phase 2): charging.py.

Arc [interpretation]: each player owns `arc_pool` arc. Charging moves 1 arc from the pool onto a unit or gate;
recalling, deploying (gate arc), spending on attacks (power dice) and abilities return arc to the pool. A gate
takes `gate_start_arc` from the pool when placed.
"""
from __future__ import annotations

from typing import Any

from rules_engine.warcaster import movement
from rules_engine.warcaster.models import CypherSpec, UnitSpec
from rules_engine.warcaster.state import Gate, Model, Side, Table, Unit

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


def spend_unit_arc(table: Table, unit: Unit, amount: int) -> None:
    """Arc off a unit (at most what it holds) back to its owner's pool: power dice, abilities, attack cyphers."""
    amount = min(amount, unit.arc)
    unit.arc -= amount
    table.sides[unit.player].pool += amount


def put_arc(table: Table, unit: Unit, amount: int) -> int:
    """Arc from the owner's pool onto a unit, up to its limit; returns the arc put."""
    side = table.sides[unit.player]
    amount = max(0, min(amount, side.pool, table.arc_limit(unit) - unit.arc))
    unit.arc += amount
    side.pool -= amount
    return amount


def deploy(table: Table, unit: Unit, gate_uid: int) -> None:
    """W10 phase 6: the unit's CST is paid from the gate's arc (back to the pool), its models are placed within
    `deploy_range` of the gate (then the state has their `on_deploy` abilities used: cyphers.on_deployment)."""
    side = table.sides[table.player]
    gate = side.gates[gate_uid]
    gate.arc -= unit.spec.cst
    side.pool += unit.spec.cst
    table.log("gate_paid", None, {"gate": gate.uid, "amount": unit.spec.cst, "arc": gate.arc})
    movement.place(table, unit, gate.x, gate.y, table.options["deploy_range"])


def place_gate(table: Table, spot: int) -> None:
    """W10 phase 7: a void gate on that spot, taking `gate_start_arc` from the pool (at most the gate's limit)."""
    side = table.sides[table.player]
    x, y = gate_spots(table, table.player)[spot]
    arc = min(table.options["gate_start_arc"], side.pool, table.options["gate_arc_limit"])
    side.pool -= arc
    gate = Gate(len(side.gates), table.player, x, y, arc)
    side.gates.append(gate)
    table.log("gate", None, {"gate": gate.uid, "at": [x, y], "arc": arc, "pool": side.pool})


def set_out(table: Table, sides: list[tuple[list[UnitSpec], list[CypherSpec], bool]]) -> None:
    """The pieces of a new game: each side (its force, its rack as the deck, whether it is the goldfish) with
    `arc_pool` arc in its pool, its units and their models (uids in this order), all in reserve."""
    for player, (units, rack, goldfish) in enumerate(sides):
        side = Side(player, goldfish, [], int(table.options["arc_pool"]), list(rack))
        table.sides.append(side)
        for spec in units:
            unit = Unit(len(table.units), player, spec, [])
            for mspec in spec.models:
                model = Model(len(table.models), unit.uid, player, mspec, mspec.health)
                unit.models.append(model)
                table.models.append(model)
            table.units.append(unit)
            side.units.append(unit.uid)
    table.index_auras()


def side_info(table: Table, player: int) -> dict[str, Any]:
    """A side's units and models as the `setup` event gives them."""
    return {"goldfish": table.sides[player].goldfish, "units": [
        {"unit": u.uid, "code": u.spec.code, "name": u.spec.name, "kind": u.spec.kind, "cst": u.spec.cst,
         "models": [{"model": m.uid, "code": m.spec.code, "radius": m.spec.radius, "health": m.spec.health}
                    for m in u.models]}
        for u in (table.units[i] for i in table.sides[player].units)]}
