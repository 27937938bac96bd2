"""MechWarrior: Dark Age's table as a replay draws it (rules_engine/replay.py reaches it through the registry
entry's `table_module`): the table and its pieces written as the events a replay reads, and the table of a setup."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def board_events(state: Any, add: Callable[[str, int | None, dict[str, Any]], None]) -> None:
    add("setup", None, {"table": state.layout.to_dict()})
    for unit in state.units:
        if not unit.alive:  # an eliminated unit is off the table (a position keeps no place for it)
            continue
        spec = unit.spec
        add("deploy", unit.side, {"unit": unit.uid, "code": spec.code, "name": spec.name, "unit_kind": spec.kind,
                                  "points": spec.points, "radius": spec.radius, "clicks": len(spec.dial),
                                  "at": state.position(unit)})
        if unit.click:
            add("damage", unit.side, {"unit": unit.uid, "clicks": len(spec.dial), "click": unit.click})


def table_of(setup: Mapping[str, Any]) -> dict[str, Any]:
    """The 36″×36″ table with one of the terrain layouts (docs/engine-mwda.md)."""
    table = setup.get("table") or {}
    size = float(table.get("size") or 36.0)
    return {"width": size, "height": size, "name": table.get("name", ""),
            "deploy_depth": table.get("deploy_depth"), "terrain": list(table.get("terrain") or []),
            "objective": None}


def ability_names(state: Any) -> dict[int, list[str]]:
    return {}
