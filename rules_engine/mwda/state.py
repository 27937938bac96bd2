"""The state of one MechWarrior: Dark Age battle (RULES.md §2.3, M10–M17) and its actions.

Players alternate turns; a round is both players' turns. On its turn a player gives up to its order count
(M2) of orders, at most one per unit (M10), then the turn ends: units not ordered lose their tokens and mechs
vent 1 heat (M12). A `goldfish` side never receives an order (its turns only run M12).

Actions (small tuples; `legal_actions()` lists them in a fixed order):

- ("pass",) — give no more orders this turn;
- ("vent", uid) — 冷却: a mech removes `vent` heat clicks; an order, but no action token (M10);
- ("move", uid, toward, run) — move towards enemy `toward` to the unit's best range (primary max range − ½″),
  or away from the nearest enemy when `toward` is -1; `run` doubles the allowance (M13); breakaway first (M14);
- ("shoot", uid, target, weapon) — ranged attack, weapon 0 primary / 1 secondary (M15, M16);
- ("close", uid, target) — close combat 白兵戦 against an enemy in base contact (M16);
- ("charge", uid, target) — 突撃: move up to the move allowance into base contact, then close combat;
- ("dfa", uid, target) — 急降下攻撃 (jump units): land in base contact over anything, close combat with
  +`dfa_damage_bonus` damage; on a miss the attacker takes `dfa_miss_damage`.

Every action's effects are in the event log (positions after each move, attacks with origin and target
positions, damage, heat, eliminations), enough to redraw the battle turn by turn.
"""
from __future__ import annotations

import math
import random
from typing import Any, Mapping, Sequence

from rules_engine.core import outcome
from rules_engine.core.outcome import Outcome
from rules_engine.core.events import EventLog
from rules_engine.core.game import TERMINAL, IllegalActionError
from rules_engine.mwda import combat
from rules_engine.mwda import geometry as geo
from rules_engine.mwda.units import UnitSpec


PASS = ("pass",)
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


class MwdaState:
    """A battle in progress. Built by `MwdaGame.new_initial_state`; follows rules_engine.core.game.State."""

    def __init__(self, *, options: Mapping[str, Any], layout: geo.Layout, units: list[Unit],
                 orders: tuple[int, int], goldfish: tuple[bool, bool], first: int, rng: random.Random) -> None:
        self.options = options
        self.layout = layout
        self.units = units
        self.orders = orders  # M2: orders per turn, fixed for the game
        self.goldfish = goldfish
        self.first = first
        self.rng = rng
        self.events = EventLog()
        self.turn = 0
        self.round = 1
        self.active = first
        self.orders_left = 0
        self.ordered: set[int] = set()
        self.over = False
        self.winner: int | None = None
        self.end_reason: str | None = None
        self.points_destroyed = [0, 0]  # by side: points of enemy units it eliminated
        self.shutdowns = [0, 0]
        self.orders_given = [0, 0]
        self.turns_taken = [0, 0]
        self.damage_dealt = [0] * len(units)  # by unit uid
        self._legal: list[tuple] | None = None
        self._paths: dict[tuple, list[geo.Point]] = {}
        self._edges: dict[tuple[int, int], float] = {}  # caches, cleared whenever a unit moves or leaves
        self._fire: dict[tuple[int, int], bool] = {}
        self._plans: dict[tuple, list[geo.Point] | None] = {}
        self.shooters: frozenset[int] = frozenset()  # units with a shoot action in the current legal actions

    # ---- protocol ---------------------------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self.over else self.active

    def is_terminal(self) -> bool:
        return self.over

    def outcome(self) -> Outcome | None:
        """How the game ended (None while it goes on)."""
        return Outcome(self.winner, self.end_reason or outcome.STEP_LIMIT) if self.over else None

    def returns(self) -> tuple[float, float]:
        if not self.over or self.winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.winner == 0 else (-1.0, 1.0)

    def clone(self) -> MwdaState:
        """An independent copy (written out: compiled classes cannot be copied by `copy`)."""
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        twin = MwdaState(options=self.options, layout=self.layout, units=[u.copy() for u in self.units],
                         orders=self.orders, goldfish=self.goldfish, first=self.first, rng=rng)
        twin.events = self.events.copy()
        twin.turn, twin.round, twin.active, twin.orders_left = self.turn, self.round, self.active, self.orders_left
        twin.over, twin.winner, twin.end_reason = self.over, self.winner, self.end_reason
        twin.shooters = self.shooters
        twin.ordered = set(self.ordered)
        twin.points_destroyed, twin.shutdowns = list(self.points_destroyed), list(self.shutdowns)
        twin.orders_given, twin.turns_taken = list(self.orders_given), list(self.turns_taken)
        twin.damage_dealt = list(self.damage_dealt)
        return twin

    def log(self, kind: str, player: int | None, data: dict[str, Any]) -> None:
        """Log an event (EventLog.record)."""
        self.events.record(kind, self.turn, player, data)

    def place(self, unit: Unit, x: float, y: float) -> None:
        """Set a unit's position directly (scenario set-up and tests); the next legal_actions() recomputes."""
        unit.x, unit.y = x, y
        self._table_changed()

    def _table_changed(self) -> None:
        self._legal = None
        self._edges.clear()
        self._fire.clear()
        self._plans.clear()

    # ---- geometry helpers -------------------------------------------------------------------------------

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
        """M14: in base contact with an enemy."""
        return any(self.in_contact(unit, e) for e in self.units if e.alive and e.side != unit.side)

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

    # ---- legal actions ----------------------------------------------------------------------------------

    def orderable(self) -> list[Unit]:
        """M10/M11: this player's units not yet ordered this turn and with fewer than 2 tokens."""
        return [u for u in self.units
                if u.alive and u.side == self.active and u.uid not in self.ordered and u.tokens < 2]

    def legal_actions(self) -> list[tuple]:
        if self.over:
            return []
        if self._legal is None:
            actions: list[tuple] = [PASS]
            self._paths = {}
            for unit in self.orderable():
                actions.extend(self._unit_actions(unit))
            self._legal = actions
            self.shooters = frozenset(a[1] for a in actions if a[0] == "shoot")
        return list(self._legal)

    def _unit_actions(self, unit: Unit) -> list[tuple]:
        uid = unit.uid
        actions: list[tuple] = []
        if unit.spec.is_mech and unit.heat > 0:
            actions.append(("vent", uid))
        enemies = self.enemies(unit)
        move = combat.move_allowance(unit)
        for enemy in enemies:
            for weapon in (0, 1) if unit.spec.secondary is not None else (0,):
                if self.can_shoot(unit, enemy, weapon):
                    actions.append(("shoot", uid, enemy.uid, weapon))
            if self.in_contact(unit, enemy):
                if combat.primary_damage(unit) > 0:
                    actions.append(("close", uid, enemy.uid))
                continue
            if move <= 0 or combat.primary_damage(unit) <= 0 or unit.flying != enemy.flying:
                continue
            if self.edge(unit, enemy) <= move:
                if self._plan_contact(unit, enemy, move, free=unit.flying, key=("charge", uid, enemy.uid)):
                    actions.append(("charge", uid, enemy.uid))
                if unit.spec.has("jump") and not unit.flying:
                    if self._plan_contact(unit, enemy, move, free=True, key=("dfa", uid, enemy.uid)):
                        actions.append(("dfa", uid, enemy.uid))
        if move > 0 and enemies:
            for enemy in enemies:
                travel = self.approach_travel(unit, enemy)
                if abs(travel) >= 0.25:
                    actions.append(("move", uid, enemy.uid, False))
                    if abs(travel) > move:
                        actions.append(("move", uid, enemy.uid, True))
            actions.append(("move", uid, -1, False))
            actions.append(("move", uid, -1, True))
        return actions

    def _plan_contact(self, unit: Unit, enemy: Unit, allowance: float, *, free: bool, key: tuple) -> bool:
        """Find (and remember until something moves) a path into base contact with `enemy`."""
        plan_key = (*key, allowance)
        if plan_key not in self._plans:
            self._plans[plan_key] = None
            others = self.obstacles(unit)
            for point in geo.contact_points((enemy.x, enemy.y), enemy.spec.radius, (unit.x, unit.y),
                                            unit.spec.radius):
                path = geo.find_path((unit.x, unit.y), point, unit.spec.radius, allowance, self.layout, others,
                                     free=free)
                if path is not None:
                    self._plans[plan_key] = path
                    break
        path = self._plans[plan_key]
        if path is not None:
            self._paths[key] = path
        return path is not None

    @staticmethod
    def best_range(unit: Unit) -> float:
        """The edge distance a unit keeps from its target: ½″ inside its primary's max range (and outside a
        non-zero min range)."""
        arm = unit.spec.primary
        wanted = max(arm.max_range - 0.5, 0.0)
        if arm.min_range:
            wanted = max(wanted, arm.min_range + 0.5)
        return wanted

    def approach_travel(self, unit: Unit, enemy: Unit) -> float:
        """Inches to go towards `enemy` (negative: away) to stand at the best range."""
        return self.edge(unit, enemy) - self.best_range(unit)

    # ---- applying actions -------------------------------------------------------------------------------

    def apply(self, action: tuple) -> None:
        if self.over:
            raise IllegalActionError(f"the game is over; cannot apply {action!r}")
        if action not in (self._legal if self._legal is not None else self.legal_actions()):  # the one check
            raise IllegalActionError(f"turn {self.turn}: illegal action {action!r} for player {self.active}")
        kind = action[0]
        if kind == "pass":
            self._end_turn()
        else:
            unit = self.units[action[1]]
            self._give_order(unit, kind)
            if kind == "move":  # a plain chain, not getattr(f"_do_{kind}"): native calls once compiled
                self._do_move(unit, action)
            elif kind == "shoot":
                self._do_shoot(unit, action)
            elif kind == "vent":
                self._do_vent(unit, action)
            elif kind == "close":
                self._do_close(unit, action)
            elif kind == "charge":
                self._do_charge(unit, action)
            elif kind == "dfa":
                self._do_dfa(unit, action)
            else:
                raise ValueError(f"turn {self.turn}: unknown order {kind!r}")
            if kind != "vent":
                self._token(unit)
            self._check_end()
            if not self.over and (self.orders_left <= 0 or not self.orderable()):
                self._end_turn()
        self._legal = None

    def _give_order(self, unit: Unit, kind: str) -> None:
        """M10: one order per unit per turn; counts against the player's orders."""
        self.ordered.add(unit.uid)
        self.orders_left -= 1
        self.orders_given[unit.side] += 1
        self.log("order", unit.side, {"unit": unit.uid, "order": kind, "tokens": unit.tokens,
                                      "orders_left": self.orders_left})

    def _token(self, unit: Unit) -> None:
        """M10/M11: an ordered unit takes an action token; pushing (a token from an earlier turn) costs a mech
        1 heat click instead, a vehicle or infantry the second token and 1 damage."""
        if not unit.alive or unit.tokens >= 2:
            return
        if unit.tokens == 0:
            unit.tokens = 1
            self.log("token", unit.side, {"unit": unit.uid, "tokens": 1})
        elif unit.spec.is_mech:
            self.log("push", unit.side, {"unit": unit.uid, "penalty": "heat"})
            combat.add_heat(self, unit, 1, reason="push")
        else:
            unit.tokens = 2
            self.log("push", unit.side, {"unit": unit.uid, "penalty": "damage", "tokens": 2})
            combat.apply_damage(self, unit, 1, source=None, reason="push")

    def _breakaway(self, unit: Unit) -> bool:
        """M14: a unit in base contact with an enemy rolls 1d6 and moves only on `breakaway_target`+."""
        if not self.engaged(unit):
            return True
        roll = self.rng.randint(1, 6)
        success = roll >= self.options["breakaway_target"]
        self.log("breakaway", unit.side, {"unit": unit.uid, "roll": roll, "success": success})
        return success

    def _move_to(self, unit: Unit, path: Sequence[geo.Point], *, run: bool, order: str) -> None:
        origin = self.position(unit)
        unit.x, unit.y = path[-1]
        self._table_changed()
        self.log("move", unit.side, {"unit": unit.uid, "order": order, "run": run, "origin": origin,
                                     "to": self.position(unit), "path": [[round(x, 3), round(y, 3)] for x, y in path],
                                     "length": round(geo.path_length(path), 3)})

    def _do_vent(self, unit: Unit, action: tuple) -> None:
        combat.vent(self, unit, unit.spec.vent, reason="order")

    def _do_move(self, unit: Unit, action: tuple) -> None:
        _, _, toward, run = action
        if not self._breakaway(unit):
            return
        allowance = combat.move_allowance(unit) * (2 if run else 1)
        if toward >= 0:
            enemy = self.units[toward]
            travel = self.approach_travel(unit, enemy)
            dx, dy = enemy.x - unit.x, enemy.y - unit.y
        else:
            enemy = min(self.enemies(unit), key=lambda e: (self.edge(unit, e), e.uid))
            travel = float(allowance)
            dx, dy = unit.x - enemy.x, unit.y - enemy.y
        norm = math.hypot(dx, dy) or 1.0
        direction = (dx / norm, dy / norm)
        if travel < 0:
            direction, travel = (-direction[0], -direction[1]), -travel
        travel = min(travel, allowance)
        path = geo.move_towards((unit.x, unit.y), direction, travel, unit.spec.radius, allowance, self.layout,
                                self.obstacles(unit), free=unit.flying or unit.spec.has("jump"))
        if path is None:
            self.log("move", unit.side, {"unit": unit.uid, "order": "move", "run": run, "origin": self.position(unit),
                                         "to": self.position(unit), "path": [self.position(unit)], "length": 0.0,
                                         "blocked": True})
            return
        self._move_to(unit, path, run=run, order="move")

    def _do_shoot(self, unit: Unit, action: tuple) -> None:
        _, _, target, weapon = action
        combat.resolve_attack(self, unit, self.units[target], kind="shoot", weapon=weapon)

    def _do_close(self, unit: Unit, action: tuple) -> None:
        combat.resolve_attack(self, unit, self.units[action[2]], kind="close")

    def _do_charge(self, unit: Unit, action: tuple) -> None:
        if not self._breakaway(unit):
            return
        self._move_to(unit, self._paths[action], run=False, order="charge")
        combat.resolve_attack(self, unit, self.units[action[2]], kind="charge")

    def _do_dfa(self, unit: Unit, action: tuple) -> None:
        if not self._breakaway(unit):
            return
        self._move_to(unit, self._paths[action], run=False, order="dfa")
        hit = combat.resolve_attack(self, unit, self.units[action[2]], kind="dfa",
                                    bonus_damage=self.options["dfa_damage_bonus"])
        if not hit:
            combat.apply_damage(self, unit, self.options["dfa_miss_damage"], source=None, reason="dfa_miss")

    def eliminate(self, unit: Unit, *, by: int | None) -> None:
        unit.alive = False
        unit.tokens = 0
        self._table_changed()
        enemy = 1 - unit.side
        self.points_destroyed[enemy] += unit.spec.points
        self.log("eliminated", unit.side, {"unit": unit.uid, "code": unit.spec.code, "points": unit.spec.points,
                                           "by": by, "at": self.position(unit)})

    # ---- turn structure ---------------------------------------------------------------------------------

    def start_turn(self) -> None:
        """Begin the active player's turn; a goldfish side's turn is only its M12 clean-up."""
        while not self.over:
            self.turn += 1
            self.turns_taken[self.active] += 1
            self.ordered = set()
            self.orders_left = self.orders[self.active]
            self.log("turn_start", self.active, {"round": self.round, "orders": self.orders_left})
            if not self.goldfish[self.active] and self.orderable():
                return
            self._finish_turn()

    def _end_turn(self) -> None:
        self._finish_turn()
        if not self.over:
            self.start_turn()

    def _finish_turn(self) -> None:
        """M12: the active player's units that got no order lose their tokens; mechs also vent 1 heat."""
        for unit in self.units:
            if unit.alive and unit.side == self.active and unit.uid not in self.ordered:
                if unit.tokens:
                    unit.tokens = 0
                    self.log("tokens_removed", unit.side, {"unit": unit.uid})
                if unit.spec.is_mech and unit.heat > 0:
                    combat.vent(self, unit, 1, reason="automatic")
        self.log("turn_end", self.active, {"round": self.round,
                                           "orders_used": self.orders[self.active] - self.orders_left})
        self.active = 1 - self.active
        if self.active == self.first:
            self.round += 1
            if self.round > self.options["max_rounds"]:
                self._finish_by_points()

    def _check_end(self) -> None:
        """§2.3: the game ends when a side has no units left."""
        alive = [any(u.alive and u.side == side for u in self.units) for side in (0, 1)]
        if all(alive):
            return
        winner = None if not any(alive) else (0 if alive[0] else 1)
        self._finish(winner, outcome.ELIMINATED)

    def _finish_by_points(self) -> None:
        """§2.3 (option `max_rounds`): after the last round, more points destroyed wins; equal is a draw."""
        mine, theirs = self.points_destroyed
        self._finish(0 if mine > theirs else 1 if theirs > mine else None, outcome.ROUNDS)

    def _finish(self, winner: int | None, reason: str) -> None:
        self.over, self.winner, self.end_reason = True, winner, reason
        self.round = min(self.round, self.options["max_rounds"])
        self.log("game_over", None, {"winner": winner, "reason": reason, "rounds": self.round,
                                     "points_destroyed": list(self.points_destroyed)})

    # ---- for people -------------------------------------------------------------------------------------

    def describe(self, action: tuple) -> str:
        kind = action[0]
        if kind == "pass":
            return "give no more orders this turn"
        unit = self.units[action[1]].spec.name
        if kind == "vent":
            return f"{unit}: vent (冷却)"
        if kind == "move":
            where = "away from the nearest enemy" if action[2] < 0 else f"towards {self.units[action[2]].spec.name}"
            return f"{unit}: {'run' if action[3] else 'move'} {where}"
        target = self.units[action[2]].spec.name
        if kind == "shoot":
            return f"{unit}: shoot {target} with its {'secondary' if action[3] else 'primary'} weapon"
        return f"{unit}: {kind} {target}"
