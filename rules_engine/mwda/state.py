"""The pieces of a MechWarrior: Dark Age battle and the table they stand on (RULES.md §2.3, M13–M16).

`Unit` is one unit on the table (its spec, position, dial click, heat and action tokens). `Table` holds the units,
the terrain layout, the options, the rng, the event log and what the battle has cost each side so far, and answers
the questions the rules ask about them: edge-to-edge distances and base contact (M14), who is engaged, line of
fire and hindering terrain (M15), whether a unit can shoot another (M15 range bands, stealth, the base-contact
rule), the best range a unit keeps. Its caches (distances, lines of fire, contact paths) are cleared whenever a
unit moves or leaves (`table_changed`). `MwdaState` (game.py) is a `Table` with the turn flow; the rules that
change the table are the functions of movement.py, combat.py and orders.py.
"""
from __future__ import annotations

import math
import random
from typing import Any, Mapping

from rules_engine.core.events import EventLog
from rules_engine.mwda import combat
from rules_engine.mwda import geometry as geo
from rules_engine.mwda.units import UnitSpec

STEALTH_RANGE = 8.0  # stealth: cannot be targeted by ranged attacks from more than 8″ away


class Unit:
    """One unit on the table: its spec, where it stands, its dial click, heat and action tokens."""

    __slots__ = ("uid", "side", "spec", "x", "y", "click", "heat", "tokens", "alive")

    def __init__(self, uid: int, side: int, spec: UnitSpec, x: float, y: float) -> None:
        self.uid, self.side, self.spec = uid, side, spec
        self.x, self.y = x, y
        self.click = 0  # index into spec.dial
        self.heat = 0  # heat clicks (mechs)
        self.tokens = 0  # 行動済みマーカー, 0..2
        self.alive = True

    def copy(self) -> Unit:
        twin = Unit(self.uid, self.side, self.spec, self.x, self.y)
        twin.click, twin.heat, twin.tokens, twin.alive = self.click, self.heat, self.tokens, self.alive
        return twin

    @property
    def flying(self) -> bool:
        return "flight" in self.spec.abilities


class Table:
    """The units on the table and the queries about them; the base of `MwdaState` (game.py)."""

    def __init__(self, *, options: Mapping[str, Any], layout: geo.Layout, units: list[Unit],
                 rng: random.Random) -> None:
        self.options = options
        self.layout = layout
        self.units = units
        self.rng = rng
        self.events = EventLog()
        self.turn = 0
        self.points_destroyed = [0, 0]  # by side: points of enemy units it eliminated
        self.shutdowns = [0, 0]
        self.damage_dealt = [0] * len(units)  # by unit uid
        self._edges: dict[tuple[int, int], float] = {}  # caches, cleared whenever a unit moves or leaves
        self._fire: dict[tuple[int, int], bool] = {}
        self.contact_plans: dict[tuple, list[geo.Point] | None] = {}  # movement.plan_contact's paths
        self.contact_paths: dict[tuple, list[geo.Point]] = {}  # the legal charge/dfa actions' paths, by action

    def log(self, kind: str, player: int | None, data: dict[str, Any]) -> None:
        """Log an event (EventLog.record)."""
        self.events.record(kind, self.turn, player, data)

    def place(self, unit: Unit, x: float, y: float) -> None:
        """Set a unit's position directly (scenario set-up and tests); the next legal_actions() recomputes."""
        unit.x, unit.y = x, y
        self.table_changed()

    def table_changed(self) -> None:
        """A unit moved or left: forget the cached distances, lines of fire and paths."""
        self._edges.clear()
        self._fire.clear()
        self.contact_plans.clear()

    @staticmethod
    def position(unit: Unit) -> list[float]:
        return [round(unit.x, 3), round(unit.y, 3)]

    def edge(self, a: Unit, b: Unit) -> float:
        """Edge-to-edge distance of two bases (cached until something moves)."""
        key = (a.uid, b.uid) if a.uid < b.uid else (b.uid, a.uid)
        found = self._edges.get(key)
        if found is None:
            found = self._edges[key] = math.hypot(a.x - b.x, a.y - b.y) - a.spec.radius - b.spec.radius
        return found

    def in_contact(self, a: Unit, b: Unit) -> bool:
        """Base contact; a flyer is only ever in contact with other flyers (ability `flight`)."""
        return a.flying == b.flying and self.edge(a, b) <= geo.CONTACT

    def enemies(self, unit: Unit) -> list[Unit]:
        return [u for u in self.units if u.alive and u.side != unit.side]

    def engaged(self, unit: Unit) -> bool:
        """M14 with `breakaway_from` = "enemy": in base contact with an enemy."""
        return any(self.in_contact(unit, e) for e in self.units if e.alive and e.side != unit.side)

    def touching_any(self, unit: Unit) -> bool:
        """M14: in base contact with another unit, of either side."""
        return any(self.in_contact(unit, u) for u in self.units if u.alive and u is not unit)

    def obstacles(self, *exclude: Unit) -> list[tuple[float, float, float]]:
        return [(u.x, u.y, u.spec.radius) for u in self.units if u.alive and u not in exclude]

    def has_line_of_fire(self, shooter: Unit, target: Unit) -> bool:
        key = (shooter.uid, target.uid) if shooter.uid < target.uid else (target.uid, shooter.uid)
        found = self._fire.get(key)
        if found is None:
            others = self.obstacles(shooter, target) if self.options["bases_block_fire"] else ()
            found = self._fire[key] = geo.line_of_fire(shooter.x, shooter.y, target.x, target.y, self.layout, others)
        return found

    def is_hindered(self, shooter: Unit, target: Unit) -> bool:
        return geo.hindered(shooter.x, shooter.y, target.x, target.y, self.layout)

    def can_shoot(self, shooter: Unit, target: Unit, weapon: int) -> bool:
        """M15: range band, stealth, the base-contact rule, line of fire (unless indirect fire)."""
        arm = shooter.spec.primary if weapon == 0 else shooter.spec.secondary
        if arm is None:
            return False
        distance = self.edge(shooter, target)
        if not arm.in_range(max(distance, 0.0)) or combat.weapon_damage(shooter, weapon) <= 0:
            return False
        if target.spec.has("stealth") and distance > STEALTH_RANGE:
            return False
        if not self.in_contact(shooter, target) and any(
            u.alive and u.side == shooter.side and u is not shooter and self.in_contact(u, target) for u in self.units
        ):
            return False  # M15: an enemy in base contact with our side may only be shot by units touching it
        return shooter.spec.has("indirect_fire") or self.has_line_of_fire(shooter, target)

    @staticmethod
    def best_range(unit: Unit) -> float:
        """The edge distance a unit keeps from its target: ½″ inside its primary's max range (and outside a
        non-zero min range)."""
        arm = unit.spec.primary
        wanted = max(arm.max_range - 0.5, 0.0)
        if arm.min_range:
            wanted = max(wanted, arm.min_range + 0.5)
        return wanted

    @staticmethod
    def reach(unit: Unit) -> float:
        """How far from its base edge a unit can attack on its next order without moving first: the longest max
        range of its weapons, or its move allowance when it can charge (primary damage above 0) and that is longer."""
        arm = unit.spec.primary
        reach = float(arm.max_range)
        second = unit.spec.secondary
        if second is not None and second.max_range > reach:
            reach = float(second.max_range)
        if combat.primary_damage(unit) > 0:
            move = float(combat.move_allowance(unit))
            if move > reach:
                reach = move
        return reach

    def advance_travel(self, unit: Unit, enemy: Unit) -> float:
        """Inches to go towards `enemy` (negative: away) to stand ½″ outside its reach."""
        return self.edge(unit, enemy) - (self.reach(enemy) + 0.5)

    def approach_travel(self, unit: Unit, enemy: Unit) -> float:
        """Inches to go towards `enemy` (negative: away) to stand at the best range."""
        return self.edge(unit, enemy) - self.best_range(unit)
