"""Moving units (RULES.md M13, M14, M16): the move order, breakaway, and the two orders that move into base
contact before attacking, charge (突撃) and death from above (急降下攻撃).

Plain functions of the table (`Table`, state.py; the running `MwdaState` of game.py is one). A move follows a
path of at most the move allowance (run: 2×) found by geometry.py (M13); a unit in base contact with an enemy
first rolls to break away (M14).
Charge and death-from-above paths are planned when the legal actions are listed (`plan_contact`) and followed
when the order is given; their attacks are combat.py's.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Sequence

from rules_engine.mwda import actions as A
from rules_engine.mwda import combat
from rules_engine.mwda import geometry as geo

if TYPE_CHECKING:
    from rules_engine.mwda.state import Table, Unit


def plan_contact(state: Table, unit: Unit, enemy: Unit, allowance: float, *, free: bool, key: tuple) -> bool:
    """Find (and remember until something moves) a path into base contact with `enemy` (charge, dfa: M16)."""
    plan_key = (*key, allowance)
    plans = state.contact_plans
    if plan_key not in plans:
        plans[plan_key] = None
        others = state.obstacles(unit)
        for point in geo.contact_points((enemy.x, enemy.y), enemy.spec.radius, (unit.x, unit.y),
                                        unit.spec.radius):
            path = geo.find_path((unit.x, unit.y), point, unit.spec.radius, allowance, state.layout, others,
                                 free=free)
            if path is not None:
                plans[plan_key] = path
                break
    path = plans[plan_key]
    if path is not None:
        state.contact_paths[key] = path
    return path is not None


def breakaway(state: Table, unit: Unit) -> bool:
    """M14: a unit in base contact with another unit (seed: 他のユニット; option `breakaway_from` = "enemy": with an
    enemy only) rolls 1d6 and moves only on `breakaway_target`+."""
    if not (state.engaged(unit) if state.options["breakaway_from"] == "enemy" else state.touching_any(unit)):
        return True
    roll = state.rng.randint(1, 6)
    success = roll >= state.options["breakaway_target"]
    state.log("breakaway", unit.side, {"unit": unit.uid, "roll": roll, "success": success})
    return success


def move_to(state: Table, unit: Unit, path: Sequence[geo.Point], *, run: bool, order: str) -> None:
    """Put the unit at the end of `path` and log the move (M13)."""
    origin = state.position(unit)
    unit.x, unit.y = path[-1]
    state.table_changed()
    state.log("move", unit.side, {"unit": unit.uid, "order": order, "run": run, "origin": origin,
                                  "to": state.position(unit), "path": [[round(x, 3), round(y, 3)] for x, y in path],
                                  "length": round(geo.path_length(path), 3)})


def move(state: Table, unit: Unit, action: A.Move) -> None:
    """The move order (M13): towards enemy `toward` to the unit's best range, or away from the nearest enemy;
    run doubles the allowance; `jump` and `flight` units move over bases and terrain. Breakaway first (M14)."""
    toward = action.toward
    travel = state.approach_travel(unit, state.units[toward]) if toward >= 0 else -1.0
    walk(state, unit, toward, travel, action.run)


def advance(state: Table, unit: Unit, action: A.Advance) -> None:
    """The move order (M13) to the edge of an enemy's reach: towards (or back from) enemy `toward` to stand ½″
    outside it (`Table.reach`). Breakaway first (M14)."""
    walk(state, unit, action.toward, state.advance_travel(unit, state.units[action.toward]), action.run)


def walk(state: Table, unit: Unit, toward: int, travel: float, run: bool) -> None:
    """Move `travel` inches towards enemy `toward` (negative: away from it), or, when `toward` is -1, the whole
    allowance away from the nearest enemy (M13, M14)."""
    if not breakaway(state, unit):
        return
    allowance = combat.move_allowance(unit) * (2 if run else 1)
    if toward >= 0:
        enemy = state.units[toward]
        dx, dy = enemy.x - unit.x, enemy.y - unit.y
    else:
        enemy = min(state.enemies(unit), key=lambda e: (state.edge(unit, e), e.uid))
        travel = float(allowance)
        dx, dy = unit.x - enemy.x, unit.y - enemy.y
    norm = math.hypot(dx, dy) or 1.0
    direction = (dx / norm, dy / norm)
    if travel < 0:
        direction, travel = (-direction[0], -direction[1]), -travel
    travel = min(travel, allowance)
    path = geo.move_towards((unit.x, unit.y), direction, travel, unit.spec.radius, allowance, state.layout,
                            state.obstacles(unit), free=unit.flying or unit.spec.has("jump"))
    if path is None:
        state.log("move", unit.side, {"unit": unit.uid, "order": "move", "run": run, "origin": state.position(unit),
                                      "to": state.position(unit), "path": [state.position(unit)], "length": 0.0,
                                      "blocked": True})
        return
    move_to(state, unit, path, run=run, order="move")


def charge(state: Table, unit: Unit, action: A.Charge) -> None:
    """突撃 (M16): breakaway (M14), follow the planned path into base contact, then a close-combat attack."""
    if not breakaway(state, unit):
        return
    move_to(state, unit, state.contact_paths[action], run=False, order="charge")
    combat.resolve_attack(state, unit, state.units[action.target], kind="charge")


def dfa(state: Table, unit: Unit, action: A.Dfa) -> None:
    """急降下攻撃 (M16, jump units): land in base contact over anything, close combat with +`dfa_damage_bonus`
    damage; a miss costs the attacker `dfa_miss_damage` clicks."""
    if not breakaway(state, unit):
        return
    move_to(state, unit, state.contact_paths[action], run=False, order="dfa")
    hit = combat.resolve_attack(state, unit, state.units[action.target], kind="dfa",
                                bonus_damage=state.options["dfa_damage_bonus"])
    if not hit:
        combat.apply_damage(state, unit, state.options["dfa_miss_damage"], source=None, reason="dfa_miss")
