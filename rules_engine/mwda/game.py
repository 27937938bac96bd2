"""MechWarrior: Dark Age reference engine (RULES.md §2.3, M2, M10–M17): `MwdaGame` binds the ruleset and its
options to two sides, `MwdaState` plays a battle.

Player 0 plays a list (`hangar.list/1`, section `army`); player 1 is an opponent from a package: `goldfish`
(stationary units that never get an order) or `army` (a sample list, played by a policy). The game's rng picks
the terrain layout, deploys both armies in their zones and rolls who goes first.

Players alternate turns; a round is both players' turns. On its turn a player gives up to its order count
(M2) of orders, at most one per unit (M10), then the turn ends: units not ordered lose their tokens and mechs
vent 1 heat (M12). A `goldfish` side never receives an order (its turns only run M12).

`MwdaState` is a `Table` (state.py: the units and the queries about them) with the state protocol of
rules_engine/core/game.py, the turn flow, the legal actions (the records of actions.py, whose docstring lists
them) and the dispatch of each order to its rule: movement.py (move, charge, death from above, breakaway),
combat.py (shoot, close, damage, heat), orders.py (orders, tokens, pushing, the M12 clean-up). Every action's
effects are in the event log (positions after each move, attacks with origin and target positions, damage,
heat, eliminations), enough to redraw the battle turn by turn.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, cast

from rules_engine.core import outcome
from rules_engine.core.catalog import CardDataError, entries_of
from rules_engine.core.game import TERMINAL, IllegalActionError
from rules_engine.core.outcome import Outcome
from rules_engine.mwda import actions as A
from rules_engine.mwda import combat, movement, orders
from rules_engine.mwda import geometry as geo
from rules_engine.mwda import policies  # noqa: F401  (registers the MWDA policies by name)
from rules_engine.mwda.state import Table, Unit
from rules_engine.mwda.units import UnitSpec, unit_spec

POINTS_PER_ORDER = 100  # M2: 100ポイントごとに命令1回

# Ruleset options (RULES.md interpretations); docs/engine-mwda.md explains each.
DEFAULT_OPTIONS: Mapping[str, Any] = {
    "max_rounds": 10,  # §2.3: game ends after this many rounds, won on points destroyed
    "attack_dice": 3,  # M15: attack + 3D6 ≥ defense
    "hindering_defense": 1,  # hindering terrain on the line of fire: target defense +1
    "breakaway_target": 4,  # M14: 1d6 ≥ 4 to break away
    "breakaway_from": "any",  # M14: roll to leave contact with any other unit (seed: 他のユニット), or "enemy" only
    "run_all_kinds": False,  # M13: ラン is in the mech stat block only (seed 002); True lets vehicles and infantry run
    "bases_block_fire": True,  # a third unit's base blocks line of fire
    "dfa_damage_bonus": 1,  # 急降下攻撃: primary damage +1
    "dfa_miss_damage": 1,  # a missed death from above costs the attacker 1 click
    "first_player": "roll",  # "roll" (the game's rng), 0 or 1
    "mobile_hq_bonus": "kept",  # M2: a 移動司令部's order bonus after it is eliminated: "kept" (fixed count) or "lost"
    "layout": "random",  # "random" or a layout name from geometry.LAYOUTS
}
_OPTION_CHECKS = {
    "max_rounds": (1, 100), "attack_dice": (1, 10), "hindering_defense": (0, 10), "breakaway_target": (1, 7),
    "dfa_damage_bonus": (0, 10), "dfa_miss_damage": (0, 10),
}
ROW = 12  # units per deployment row


class MwdaOptionError(ValueError):
    pass


def check_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The full option set; an unknown option or a bad value raises MwdaOptionError naming it."""
    options = dict(options or {})
    unknown = set(options) - set(DEFAULT_OPTIONS)
    if unknown:
        raise MwdaOptionError(f"unknown MWDA option(s) {', '.join(sorted(unknown))}; known: "
                              f"{', '.join(sorted(DEFAULT_OPTIONS))}")
    merged = {**DEFAULT_OPTIONS, **options}
    for name, (low, high) in _OPTION_CHECKS.items():
        value = merged[name]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise MwdaOptionError(f"option {name!r}: expected an integer from {low} to {high}, got {value!r}")
    if not isinstance(merged["bases_block_fire"], bool):
        raise MwdaOptionError(f"option 'bases_block_fire': expected true or false, got {merged['bases_block_fire']!r}")
    if not isinstance(merged["run_all_kinds"], bool):
        raise MwdaOptionError(f"option 'run_all_kinds': expected true or false, got {merged['run_all_kinds']!r}")
    if merged["breakaway_from"] not in ("any", "enemy"):
        raise MwdaOptionError(f"option 'breakaway_from': expected \"any\" or \"enemy\", got {merged['breakaway_from']!r}")
    if merged["mobile_hq_bonus"] not in ("kept", "lost"):
        raise MwdaOptionError(f"option 'mobile_hq_bonus': expected \"kept\" or \"lost\", got {merged['mobile_hq_bonus']!r}")
    if merged["first_player"] not in ("roll", 0, 1):
        raise MwdaOptionError(f"option 'first_player': expected \"roll\", 0 or 1, got {merged['first_player']!r}")
    names = [layout.name for layout in geo.LAYOUTS]
    if merged["layout"] != "random" and merged["layout"] not in names:
        raise MwdaOptionError(f"option 'layout': expected \"random\" or one of {', '.join(names)}, "
                              f"got {merged['layout']!r}")
    return merged


def orders_per_round(specs: list[UnitSpec]) -> int:
    """M2: ⌈starting points / 100⌉ + order bonuses (移動司令部), fixed for the whole game (option mobile_hq_bonus
    = "lost": a turn's count drops an eliminated unit's bonus, orders.turn_orders)."""
    points = sum(spec.points for spec in specs)
    if points <= 0:
        return 0
    return -(-points // POINTS_PER_ORDER) + sum(spec.order_bonus for spec in specs)


class Side:
    """One side's army as engine data: unit specs in list order, and whether it is a goldfish."""

    __slots__ = ("specs", "goldfish")

    def __init__(self, specs: list[UnitSpec], goldfish: bool) -> None:
        self.specs, self.goldfish = specs, goldfish


class MwdaGame:
    """The MWDA ruleset bound to a list (player 0) and an opponent (player 1)."""

    name = "mwda"
    num_players = 2

    def __init__(self, player_list: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]],
                 opponent: Mapping[str, Any], options: Mapping[str, Any] | None = None) -> None:
        self.options = check_options(options)
        self._cards = cards
        self._specs: dict[str, UnitSpec] = {}
        self.sides = (
            Side(self._army(player_list, "list"), goldfish=False),
            self._opponent(opponent),
        )
        for index, side in enumerate(self.sides):
            if not side.specs:
                raise CardDataError("-", "list" if index == 0 else "opponent", "the army has no units (M4)")
        self.orders = (orders_per_round(self.sides[0].specs), orders_per_round(self.sides[1].specs))

    def spec(self, code: Any, where: str) -> UnitSpec:
        if code not in self._specs:
            if not isinstance(code, str) or code not in self._cards:
                raise CardDataError(str(code), where, "unknown card code (not in the snapshot's cards)")
            self._specs[code] = unit_spec(self._cards[code])
        return self._specs[code]

    def _entries(self, entries: Any, where: str) -> list[UnitSpec]:
        specs = []
        for at, code, qty, _entry in entries_of(entries, where):
            specs += [self.spec(code, f"{at}.card")] * qty
        return specs

    def _army(self, document: Any, where: str) -> list[UnitSpec]:
        sections = document.get("sections") if isinstance(document, Mapping) else None
        if not isinstance(sections, Mapping):
            raise CardDataError("-", f"{where}.sections", "expected an object with an `army` section")
        return self._entries(sections.get("army", []), f"{where}.sections.army")

    def _opponent(self, opponent: Any) -> Side:
        kind = opponent.get("kind") if isinstance(opponent, Mapping) else None
        if kind == "goldfish":
            return Side(self._entries(opponent.get("units"), "opponent.units"), goldfish=True)
        if kind == "army":
            return Side(self._army(opponent.get("list"), "opponent.list"), goldfish=False)
        raise CardDataError("-", "opponent.kind", f"expected goldfish or army, got {kind!r}")

    def new_initial_state(self, rng: random.Random, first_player: int | None = None,
                          setup_rngs: list[random.Random] | tuple[random.Random, ...] | None = None) -> MwdaState:
        """A new battle: `rng` picks the terrain and rolls the dice. `first_player` (0 or 1) takes the first turn of
        every round, else the option `first_player` (a roll by default); `setup_rngs[p]` places player p's army
        (None: `rng`)."""
        options = self.options
        if first_player is not None and first_player not in (0, 1):
            raise MwdaOptionError(f"first_player: expected 0 or 1, got {first_player!r}")
        if options["layout"] == "random":
            layout = geo.choose_layout(rng)
        else:
            layout = next(lay for lay in geo.LAYOUTS if lay.name == options["layout"])
        units: list[Unit] = []
        for player, side in enumerate(self.sides):
            placer = setup_rngs[player] if setup_rngs is not None else rng
            for (x, y), spec in zip(deployment(len(side.specs), player, placer), side.specs):
                units.append(Unit(len(units), player, spec, x, y))
        if first_player is not None:
            first = first_player
        else:
            first = rng.randrange(2) if options["first_player"] == "roll" else options["first_player"]
        state = MwdaState(options=options, layout=layout, units=units, orders=self.orders,
                          goldfish=(self.sides[0].goldfish, self.sides[1].goldfish), first=first, rng=rng)
        state.log("setup", None, {"table": layout.to_dict(), "first": first, "orders": list(self.orders),
                                  "max_rounds": options["max_rounds"]})
        for unit in units:
            state.log("deploy", unit.side, {"unit": unit.uid, "code": unit.spec.code, "name": unit.spec.name,
                                            "unit_kind": unit.spec.kind, "points": unit.spec.points,
                                            "radius": unit.spec.radius, "clicks": len(unit.spec.dial),
                                            "at": state.position(unit)})
        state.start_turn()
        return state


def deployment(count: int, player: int, rng: random.Random) -> list[geo.Point]:
    """Base centres in the player's zone (within 8″ of its edge, terrain-free by layout design): rows of up
    to 12 spread across the table, jittered by the rng; player 1 mirrors player 0."""
    rows = [(2.0, min(count, ROW)), (5.5, count - ROW)] if count > ROW else [(2.0, count)]
    if count > 2 * ROW:
        raise CardDataError("-", "army", f"{count} units do not fit a deployment zone (at most {2 * ROW})")
    points = []
    for depth, n in rows:
        gap = geo.TABLE / n
        for i in range(n):
            x = gap * (i + 0.5) + rng.uniform(-0.4, 0.4)
            y = depth + rng.uniform(-0.5, 0.5)
            points.append((x, y if player == 0 else geo.TABLE - y))
    return points


class MwdaState(Table):
    """A battle in progress: the table (state.py) with the turn flow, the legal actions and the dispatch of
    orders. Built by `MwdaGame.new_initial_state`; follows rules_engine.core.game.State."""

    def __init__(self, *, options: Mapping[str, Any], layout: geo.Layout, units: list[Unit],
                 orders: tuple[int, int], goldfish: tuple[bool, bool], first: int, rng: random.Random) -> None:
        super().__init__(options=options, layout=layout, units=units, rng=rng)
        self.orders = orders  # M2: orders per turn, fixed for the game
        self.goldfish = goldfish
        self.first = first
        self.round = 1
        self.active = first
        self.orders_left = 0
        self.ordered: set[int] = set()
        self.over = False
        self.winner: int | None = None
        self.end_reason: str | None = None
        self.orders_given = [0, 0]
        self.turns_taken = [0, 0]
        self._legal: list[A.Action] | None = None
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

    def table_changed(self) -> None:
        """A unit moved or left: the legal actions and the table's caches are out of date."""
        self._legal = None
        super().table_changed()

    # ---- legal actions ----------------------------------------------------------------------------------

    def orderable(self) -> list[Unit]:
        """M10/M11: this player's units not yet ordered this turn and with fewer than 2 tokens."""
        return [u for u in self.units
                if u.alive and u.side == self.active and u.uid not in self.ordered and u.tokens < 2]

    def legal_actions(self) -> list[A.Action]:
        if self.over:
            return []
        if self._legal is None:
            actions: list[A.Action] = [A.PASS]
            self.contact_paths = {}
            for unit in self.orderable():
                actions.extend(self._unit_actions(unit))
            self._legal = actions
            shooters: list[int] = []
            for listed in actions:
                record: tuple = listed  # read by index: hot (policies.py, "The scores below")
                if record[0] == "shoot":
                    shooters.append(record[1])  # Shoot.uid
            self.shooters = frozenset(shooters)
        return list(self._legal)

    def _unit_actions(self, unit: Unit) -> list[A.Action]:
        """One unit's orders, in the fixed order of actions.py: vent; per enemy shoot (M15), close or charge and
        death from above (M16, when a path into contact exists); moves towards each enemy (to its best range, and
        to the edge of that enemy's reach) and away (M13)."""
        uid = unit.uid
        actions: list[A.Action] = []
        if unit.spec.is_mech and unit.heat > 0:
            actions.append(A.vent(uid))
        enemies = self.enemies(unit)
        move = combat.move_allowance(unit)
        for enemy in enemies:
            for weapon in (0, 1) if unit.spec.secondary is not None else (0,):
                if self.can_shoot(unit, enemy, weapon):
                    actions.append(A.shoot(uid, enemy.uid, weapon))
            if self.in_contact(unit, enemy):
                if combat.primary_damage(unit) > 0:
                    actions.append(A.close(uid, enemy.uid))
                continue
            if move <= 0 or combat.primary_damage(unit) <= 0 or unit.flying != enemy.flying:
                continue
            if self.edge(unit, enemy) <= move:
                charge = A.charge(uid, enemy.uid)
                if movement.plan_contact(self, unit, enemy, move, free=unit.flying, key=charge):
                    actions.append(charge)
                if unit.spec.has("jump") and not unit.flying:
                    dfa = A.dfa(uid, enemy.uid)
                    if movement.plan_contact(self, unit, enemy, move, free=True, key=dfa):
                        actions.append(dfa)
        if move > 0 and enemies:
            runs = unit.spec.is_mech or self.options["run_all_kinds"]  # M13: ラン, mechs only by default
            for enemy in enemies:
                travel = self.approach_travel(unit, enemy)
                if abs(travel) >= 0.25:
                    actions.append(A.move(uid, enemy.uid, False))
                    if runs and abs(travel) > move:
                        actions.append(A.move(uid, enemy.uid, True))
                edge = self.advance_travel(unit, enemy)
                if abs(edge) >= 0.25 and abs(edge - travel) >= 0.25:  # the edge of its reach, when that is elsewhere
                    actions.append(A.advance(uid, enemy.uid, False))
                    if runs and abs(edge) > move:
                        actions.append(A.advance(uid, enemy.uid, True))
            actions.append(A.move(uid, -1, False))
            if runs:
                actions.append(A.move(uid, -1, True))
        return actions

    # ---- applying actions -------------------------------------------------------------------------------

    def apply(self, action: tuple) -> None:
        """Play a legal action (a record, or a bare tuple equal to one): pass ends the turn; an order is counted
        (M10), resolved by its rule, costs its token (M11), and the turn ends when no order is left (M10)."""
        if self.over:
            raise IllegalActionError(f"the game is over; cannot apply {action!r}")
        legal = self._legal if self._legal is not None else self.legal_actions()
        try:  # the one check; it also finds the legal record equal to `action` (which may be a bare tuple)
            found = legal[legal.index(action)]  # type: ignore[arg-type]  # a bare tuple equals its record
        except ValueError:
            raise IllegalActionError(f"turn {self.turn}: illegal action {action!r} for player {self.active}") from None
        action = found
        kind = action.kind
        if kind == "pass":
            self._end_turn()
        else:
            unit = self.units[cast(A.Order, action).uid]
            orders.give_order(self, unit, "move" if kind == "advance" else kind)  # M13: a move order
            if kind == "move":  # a plain chain, not getattr(f"_do_{kind}"): native calls once compiled
                movement.move(self, unit, cast(A.Move, action))
            elif kind == "advance":
                movement.advance(self, unit, cast(A.Advance, action))
            elif kind == "shoot":
                combat.shoot(self, unit, cast(A.Shoot, action))
            elif kind == "vent":  # 冷却 (M10, M17): an order without an action token
                combat.vent(self, unit, unit.spec.vent, reason="order")
            elif kind == "close":
                combat.close(self, unit, cast(A.Close, action))
            elif kind == "charge":
                movement.charge(self, unit, cast(A.Charge, action))
            elif kind == "dfa":
                movement.dfa(self, unit, cast(A.Dfa, action))
            else:
                raise ValueError(f"turn {self.turn}: unknown order {kind!r}")
            if kind != "vent":
                orders.take_token(self, unit)
            self._check_end()
            if not self.over and (self.orders_left <= 0 or not self.orderable()):
                self._end_turn()
        self._legal = None

    # ---- turn structure ---------------------------------------------------------------------------------

    def start_turn(self) -> None:
        """Begin the active player's turn; a goldfish side's turn is only its M12 clean-up."""
        while not self.over:
            self.turn += 1
            self.turns_taken[self.active] += 1
            self.ordered = set()
            self.orders_left = orders.turn_orders(self, self.active)  # M2
            self.log("turn_start", self.active, {"round": self.round, "orders": self.orders_left})
            if not self.goldfish[self.active] and self.orderable():
                return
            self._finish_turn()

    def _end_turn(self) -> None:
        self._finish_turn()
        if not self.over:
            self.start_turn()

    def _finish_turn(self) -> None:
        """End the active player's turn (its M12 clean-up); after both players' turns the round ends, and after
        the last round the game (§2.3)."""
        orders.clean_up(self)
        self.log("turn_end", self.active, {"round": self.round,
                                           "orders_used": len(self.ordered)})
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
        """An action in words (a bare tuple is read as the record it equals)."""
        kind = action[0]
        if kind == "pass":
            return "give no more orders this turn"
        order = cast(A.Order, A.record(action))
        unit = self.units[order.uid].spec.name
        if isinstance(order, A.Vent):
            return f"{unit}: vent (冷却)"
        if isinstance(order, A.Advance):
            return (f"{unit}: {'run' if order.run else 'move'} to just outside the reach of "
                    f"{self.units[order.toward].spec.name}")
        if isinstance(order, A.Move):
            where = ("away from the nearest enemy" if order.toward < 0
                     else f"towards {self.units[order.toward].spec.name}")
            return f"{unit}: {'run' if order.run else 'move'} {where}"
        attack = cast(A.Attack, order)
        target = self.units[attack.target].spec.name
        if isinstance(attack, A.Shoot):
            return f"{unit}: shoot {target} with its {'secondary' if attack.weapon else 'primary'} weapon"
        return f"{unit}: {kind} {target}"
