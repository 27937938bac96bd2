"""Warcaster: Neo-Mechanika reference engine: `WarcasterGame` and its `WarcasterState` (RULES.md §3.3, W10–W16).

Player 0 plays the list; player 1 is the opponent: a `force` (another list, played by a policy) or the
`goldfish` (its units stand on the table from the start and never activate or play cyphers).

W10 turn, in order: 1 ready (automatic) → 2 charging → 3 cypher → 4 activation (a unit, then one solo) →
5 cypher → 6 deployment → 7 gate placement → 8 discard → 9 draw up to the hand limit (automatic). Players
alternate turns; a pulse round ends when both have had `turns_per_round` turns; the game lasts `rounds` pulse
rounds (W16), or ends when a side has no model on the table and none in reserve.

Actions (small tuples; a phase with a single legal action is played automatically):

- charging: ("charge", "unit"|"gate", uid), ("recall", "unit"|"gate", uid) (all its arc back to the pool), ("pass",)
- cypher phases: ("cypher", code, choice) (choice: a model uid, an arc node uid, or None), ("pass",)
- activation: ("activate", unit_uid), ("pass",); then ("move", "advance"|"objective"|"hold");
  then ("attack", target_unit_uid, arc), ("ability", model_uid, ability_index, choice), ("wait",)
- extra solo: ("activate", unit_uid), ("pass",)
- deployment: ("deploy", unit_uid, gate_uid) (pays the unit's CST from the gate's arc), ("end",)
- gate placement: ("gate", spot_index), ("pass",)
- discard: ("discard", code), ("pass",) (no pass while the hand is above its limit)

Arc [interpretation]: each player owns `arc_pool` arc. Charging moves 1 arc from the pool onto a unit or gate;
recalling, deploying (gate arc), spending on attacks (power dice) and abilities return arc to the pool. A gate
takes `gate_start_arc` from the pool when placed.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules_engine.core import outcome
from rules_engine.core.outcome import Outcome
from rules_engine.core.game import TERMINAL, IllegalActionError
from rules_engine.warcaster import combat, cyphers
from rules_engine.warcaster import policies  # noqa: F401  (registers warcaster-greedy)
from rules_engine.warcaster.combat import ACTION_FACES
from rules_engine.warcaster.geometry import free_spot, gap, norm
from rules_engine.warcaster.models import Catalog, CypherSpec, UnitSpec, compile_force, compile_rack
from rules_engine.warcaster.state import Board, Gate, Model, Side, Unit

DEFAULT_OPTIONS: Mapping[str, Any] = {  # the game's options (a simulation's `options` may set any of them)
    "attack_dice": 3,  # W11: action dice in an attack roll
    "damage_dice": 3,  # W11: action dice in a damage roll
    "blast_damage": "half_pow",  # W13: ⌈POW/2⌉ straight to health; or "half_pow_minus_arm"
    "table_size": 30,  # inches, square
    "objective_radius": 3,  # W16: centre objective, within 3″ of the table centre
    "objective_points": 2,  # W16: per pulse round end
    "rounds": 3,  # pulse rounds in a game
    "turns_per_round": 5,  # turns per player per pulse round
    "hand_limit": 5,  # W10 phase 9
    "arc_pool": 15,  # arc a player owns: on units, on gates or in the pool
    "gates": 3,  # void gates a player can place (W10 phase 7)
    "gate_arc_limit": 8,  # arc a gate can hold
    "gate_start_arc": 5,  # arc a gate takes from the pool when placed
    "unit_arc_limit": 3,  # arc a non-hero unit can hold (a hero: its FOC)
    "max_arc_per_attack": 3,  # power dice a single attack may buy
    "deploy_range": 3,  # deployed models are placed within this of their gate
    "cypher_attack_stat": "foc",  # stat of the arc node used for a cypher attack roll ("foc" or "rat")
}
PASS = ("pass",)
MOVE_MODES = ("advance", "objective", "hold")


class WarcasterGame:
    """The Warcaster ruleset bound to a list (player 0) and an opponent (player 1)."""

    name = "warcaster"
    num_players = 2

    def __init__(self, player_list: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]],
                 opponent: Mapping[str, Any] | None = None, options: Mapping[str, Any] | None = None) -> None:
        unknown = set(options or {}) - set(DEFAULT_OPTIONS)
        if unknown:
            raise ValueError(f"options: unknown Warcaster option(s) {', '.join(sorted(unknown))}; "
                             f"known: {', '.join(sorted(DEFAULT_OPTIONS))}")
        self.options: dict[str, Any] = {**DEFAULT_OPTIONS, **(options or {})}
        for key, value in self.options.items():
            if isinstance(DEFAULT_OPTIONS[key], int) and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
                raise ValueError(f"options.{key}: expected an integer ≥ 0, got {value!r}")
        if self.options["blast_damage"] not in ("half_pow", "half_pow_minus_arm"):
            raise ValueError(f"options.blast_damage: expected 'half_pow' or 'half_pow_minus_arm', "
                             f"got {self.options['blast_damage']!r}")
        if self.options["cypher_attack_stat"] not in ("foc", "rat"):
            raise ValueError(f"options.cypher_attack_stat: expected 'foc' or 'rat', got {self.options['cypher_attack_stat']!r}")
        catalog = Catalog(cards)
        sections = (player_list or {}).get("sections") or {}
        self.sides: list[tuple[list[UnitSpec], list[CypherSpec], bool]] = [
            (compile_force(catalog, sections.get("force", []), "list.sections.force"),
             compile_rack(catalog, sections.get("rack", []), "list.sections.rack"), False),
        ]
        opponent = opponent or {"kind": "goldfish", "units": []}
        kind = opponent.get("kind")
        if kind == "goldfish":
            units = compile_force(catalog, opponent.get("units", []), "opponent.units", goldfish=True)
            self.sides.append((units, [], True))
        elif kind == "force":
            osections = (opponent.get("list") or {}).get("sections") or {}
            self.sides.append((compile_force(catalog, osections.get("force", []), "opponent.list.sections.force"),
                               compile_rack(catalog, osections.get("rack", []), "opponent.list.sections.rack"), False))
        else:
            raise ValueError(f"opponent.kind: expected 'goldfish' or 'force', got {kind!r}")
        if not self.sides[0][0]:
            raise ValueError("list.sections.force: the force has no models to play")
        # Identical units are interchangeable reserves (one deploy action for them all): by unit uid (the order the
        # state creates units in), the uid of the first unit with an equal spec, worked out once per game.
        self.spec_class = _spec_classes([spec for units, _, _ in self.sides for spec in units])

    def new_initial_state(self, rng: random.Random) -> WarcasterState:
        return WarcasterState(self, rng)


_GATE_SPOTS: dict[float, tuple[list[tuple[float, float]], list[tuple[float, float]]]] = {}


def _gate_spots(s: float) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    found = _GATE_SPOTS.get(s)
    if found is None:
        rows = (round(s * 0.15, 2), round(s * 0.3, 2))
        xs = (round(s * 0.2, 2), round(s / 2, 2), round(s * 0.8, 2))
        found = _GATE_SPOTS[s] = ([(x, y) for y in rows for x in xs], [(x, round(s - y, 2)) for y in rows for x in xs])
    return found


def _spec_classes(specs: list[UnitSpec]) -> list[int]:
    first: list[int] = []
    for index, spec in enumerate(specs):
        first.append(next(j for j in range(index + 1) if specs[j] == spec))
    return first


class WarcasterState(Board):
    def __init__(self, game: WarcasterGame | None, rng: random.Random, copy_of: WarcasterState | None = None) -> None:
        """A new game of `game`, set up and played up to the first choice; or, with `copy_of`, a copy of that
        state (`clone`: compiled classes cannot be deep-copied by `copy`)."""
        source = copy_of
        super().__init__(source.options if source is not None else game.options if game is not None else {}, rng,
                         copy_of=source)
        self.phase = "setup"
        self.acting: int | None = None
        self.solo_activation = False
        self.turns_taken = [0, 0]
        self.winner: int | None = None
        self.end_reason: str | None = None
        self._legal: list[Any] | None = None
        self._targets: dict[int, list[Unit]] = {}
        self.first = 0
        self.spec_class: list[int] = source.spec_class if source is not None else game.spec_class if game else []
        if source is not None:
            self.phase, self.acting, self.solo_activation = source.phase, source.acting, source.solo_activation
            self.turns_taken, self.winner = list(source.turns_taken), source.winner
            self.end_reason, self.first = source.end_reason, source.first
            return
        assert game is not None, "WarcasterState needs a game (or copy_of)"
        for player, (units, rack, goldfish) in enumerate(game.sides):
            side = Side(player, goldfish, [], int(self.options["arc_pool"]), list(rack))
            self.sides.append(side)
            for spec in units:
                unit = Unit(len(self.units), player, spec, [])
                for mspec in spec.models:
                    model = Model(len(self.models), unit.uid, player, mspec, mspec.health)
                    unit.models.append(model)
                    self.models.append(model)
                self.units.append(unit)
                side.units.append(unit.uid)
        self.index_auras()
        self.first = rng.randrange(2)
        self.log_game("setup", {"table": [self.size, self.size], "objective": list(self.centre),
                                "objective_radius": self.options["objective_radius"], "first_player": self.first,
                                "sides": [self._side_info(p) for p in (0, 1)]})
        for side in self.sides:
            rng.shuffle(side.deck)
            self.draw(side.player, int(self.options["hand_limit"]))
            if side.goldfish:
                self._set_up_goldfish(side)
        self._start_turn(self.first)
        self._settle()

    def _side_info(self, player: int) -> dict[str, Any]:
        return {"goldfish": self.sides[player].goldfish, "units": [
            {"unit": u.uid, "code": u.spec.code, "name": u.spec.name, "kind": u.spec.kind, "cst": u.spec.cst,
             "models": [{"model": m.uid, "code": m.spec.code, "radius": m.spec.radius, "health": m.spec.health}
                        for m in u.models]}
            for u in (self.units[i] for i in self.sides[player].units)]}

    def _set_up_goldfish(self, side: Side) -> None:
        """The goldfish's units stand in its half from the start (stationary targets)."""
        units = [self.units[u] for u in side.units]
        y = self.size - 7 if side.player == 1 else 7.0
        for i, unit in enumerate(units):
            x = self.size * (i + 1) / (len(units) + 1)
            self._place(unit, x, y, 2.5)

    def _place(self, unit: Unit, x: float, y: float, within: float) -> None:
        unit.status = "board"
        self.invalidate()
        facing = (x, self.size - y)
        others = [m.disc for m in self.on_board() if m.unit != unit.uid]
        placed = []
        for model in unit.models:
            spot = (free_spot(x, y, model.spec.radius, within, others, self.size, facing)
                    or free_spot(x, y, model.spec.radius, within * 2, others, self.size, facing) or (x, y))
            model.x, model.y = spot
            others.append(model.disc)
            placed.append([model.uid, model.x, model.y])
        self.log("deploy", unit.player, {"unit": unit.uid, "code": unit.spec.code, "models": placed, "at": [x, y]})

    # ------------------------------------------------------------------ protocol
    def current_player(self) -> int:
        return TERMINAL if self.phase == "over" else self.player

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def outcome(self) -> Outcome | None:
        """How the game ended (None while it goes on)."""
        return Outcome(self.winner, self.end_reason or outcome.STEP_LIMIT) if self.phase == "over" else None

    def returns(self) -> tuple[float, float]:
        if self.winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.winner == 0 else (-1.0, 1.0)

    def clone(self) -> WarcasterState:
        """An independent copy: the table, hands, decks, log and the random generator's state."""
        twin = random.Random()
        twin.setstate(self.rng.getstate())
        return WarcasterState(None, twin, copy_of=self)

    def legal_actions(self) -> list[Any]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def apply(self, action: Any) -> None:
        legal = self._legal if self._legal is not None else self.legal_actions()
        if action not in legal:  # the one check of legality (the policies read the same cached list)
            raise IllegalActionError(f"round {self.round}: illegal action {action!r} for player {self.player}")
        self._apply(action)
        self._settle()

    def describe(self, action: Any) -> str:
        kind = action[0]
        if kind in ("charge", "recall"):
            return f"{kind} arc {'on' if kind == 'charge' else 'from'} {action[1]} {action[2]}"
        if kind == "activate":
            return f"activate {self.units[action[1]].spec.name}"
        if kind == "attack":
            return f"attack {self.units[action[1]].spec.name} spending {action[2]} arc"
        if kind == "cypher":
            return f"play cypher {action[1]}" + ("" if action[2] is None else f" on model {action[2]}")
        if kind == "deploy":
            return f"deploy {self.units[action[1]].spec.name} from gate {action[2]}"
        return " ".join(str(part) for part in action)

    # ------------------------------------------------------------------ legal actions per phase
    def _compute_legal(self) -> list[Any]:
        if self.phase == "over":
            return []
        side = self.sides[self.player]
        if side.goldfish:
            return [PASS]
        phase = self.phase  # a plain chain, not getattr(f"_legal_{phase}"): this runs after every action
        if phase == "cypher1" or phase == "cypher2":
            return self._legal_cypher(side)
        if phase == "charge":
            return self._legal_charge(side)
        if phase == "activate":
            return self._legal_activate(side)
        if phase == "move":
            return self._legal_move(side)
        if phase == "act":
            return self._legal_act(side)
        if phase == "solo":
            return self._legal_solo(side)
        if phase == "deploy":
            return self._legal_deploy(side)
        if phase == "gate":
            return self._legal_gate(side)
        if phase == "discard":
            return self._legal_discard(side)
        raise ValueError(f"unknown Warcaster phase {phase!r}")

    def _legal_charge(self, side: Side) -> list[Any]:
        actions: list[Any] = [PASS]
        for unit in self.units_on_board(side.player):
            if side.pool and unit.arc < self.arc_limit(unit):
                actions.append(("charge", "unit", unit.uid))
        for gate in side.gates:
            if side.pool and gate.arc < self.options["gate_arc_limit"]:
                actions.append(("charge", "gate", gate.uid))
        for unit in self.units_on_board(side.player):
            if unit.arc:
                actions.append(("recall", "unit", unit.uid))
        for gate in side.gates:
            if gate.arc:
                actions.append(("recall", "gate", gate.uid))
        return actions

    def _legal_cypher(self, side: Side) -> list[Any]:
        actions: list[Any] = [PASS]
        seen = set()
        shared: dict[tuple, Any] = {}  # the table is still: cyphers with the same kind of target share one look
        for cypher in side.hand:
            if cypher.code in seen:
                continue
            seen.add(cypher.code)
            actions += [("cypher", cypher.code, choice)
                        for choice in cyphers.cypher_options(self, side.player, cypher, shared)]
        return actions

    def _legal_activate(self, side: Side) -> list[Any]:
        return [PASS] + [("activate", u.uid) for u in self.units_on_board(side.player)
                         if u.spec.can_activate and not u.activated]

    def _legal_solo(self, side: Side) -> list[Any]:
        return [PASS] + [("activate", u.uid) for u in self.units_on_board(side.player)
                         if u.spec.is_solo and not u.activated]

    def _legal_move(self, side: Side) -> list[Any]:
        unit = self.acting_unit
        if all(self.stat(m, "spd") == 0 for m in unit.alive_models):
            return [("move", "hold")]
        return [("move", mode) for mode in MOVE_MODES]

    def _legal_act(self, side: Side) -> list[Any]:
        unit = self.acting_unit
        actions: list[Any] = [("wait",)]
        max_arc = min(unit.arc, self.options["max_arc_per_attack"])
        for target in self.attack_targets(unit):
            actions += [("attack", target.uid, arc) for arc in range(max_arc + 1)]
        for model in unit.alive_models:
            for index, ability in enumerate(model.spec.abilities):
                if ability.trigger != "action" or ability.arc_cost > unit.arc:
                    continue
                if ability.effect.kind == "attack" and self.blocked(model, ability.effect.get("type", "ranged")):
                    continue
                actions += [("ability", model.uid, index, choice)
                            for choice in cyphers.ability_options(self, model, ability)]
        return actions

    def _legal_deploy(self, side: Side) -> list[Any]:
        actions: list[Any] = [("end",)]
        if len(self.spec_class) != len(self.units):  # units added by hand (tests): work the classes out again
            self.spec_class = _spec_classes([u.spec for u in self.units])
        seen: set[int] = set()
        for unit in self.reserves(side.player):
            kind = self.spec_class[unit.uid]
            if kind in seen:  # identical reserve units are interchangeable
                continue
            seen.add(kind)
            actions += [("deploy", unit.uid, gate.uid) for gate in side.gates if gate.arc >= unit.spec.cst]
        return actions

    def _legal_gate(self, side: Side) -> list[Any]:
        if len(side.gates) >= self.options["gates"]:
            return [PASS]
        taken = {(g.x, g.y) for g in side.gates}
        return [PASS] + [("gate", i) for i, spot in enumerate(self.gate_spots(side.player)) if spot not in taken]

    def _legal_discard(self, side: Side) -> list[Any]:
        codes = sorted({c.code for c in side.hand})
        discards = [("discard", code) for code in codes]
        if len(side.hand) > self.options["hand_limit"]:
            return discards  # W10 phase 8 [interpretation]: down to the hand limit before drawing
        return [PASS] + discards

    # ------------------------------------------------------------------ helpers used by policies too
    @property
    def acting_unit(self) -> Unit:
        """The unit being activated (phases `move` and `act`)."""
        assert self.acting is not None, f"no unit is being activated in phase {self.phase}"
        return self.units[self.acting]

    def attack_targets(self, unit: Unit) -> list[Unit]:
        """Enemy units that at least one of `unit`'s models can reach with a usable weapon (cached until the
        next action changes the table)."""
        found = self._targets.get(unit.uid)
        if found is None:
            found = self._targets[unit.uid] = self._find_targets(unit)
        return found

    def _find_targets(self, unit: Unit) -> list[Unit]:
        shooters = []
        for model in unit.alive_models:
            reach = model.spec.reach
            if model.effects:  # W15 system failure may forbid some of its weapons
                reach = max((w.rng for w in model.spec.weapons if not self.blocked(model, w.type)), default=-1)
            if reach >= 0:
                shooters.append((model.x, model.y, model.spec.radius + reach))
        found: list[Unit] = []
        if not shooters:
            return found
        seen = set()
        for target in self.on_board(1 - unit.player):
            if target.unit in seen:
                continue
            tx, ty, tr = target.x, target.y, target.spec.radius
            for x, y, reach in shooters:
                if norm(x - tx, y - ty) - tr <= reach:
                    seen.add(target.unit)
                    found.append(self.units[target.unit])
                    break
        found.sort(key=lambda u: u.uid)
        return found

    def gate_spots(self, player: int) -> list[tuple[float, float]]:
        """Where a player may place a void gate: 3 spots on its deployment line and 3 further forward (a shared
        list, worked out once per table size: never mutate it)."""
        return _gate_spots(self.size)[player]

    # ------------------------------------------------------------------ applying actions
    def _settle(self) -> None:
        """Play forced moves (a phase whose only legal action is to pass) until a real choice or the end."""
        while self.phase != "over":
            self._legal = None
            legal = self.legal_actions()
            if len(legal) != 1:
                return
            self._apply(legal[0])
        self._legal = None
        self._targets = {}

    def _apply(self, action: Any) -> None:
        self._legal = None
        self._targets = {}
        phase = self.phase
        if phase == "cypher1" or phase == "cypher2":
            self._do_cypher(action)
        elif phase == "charge":
            self._do_charge(action)
        elif phase == "activate":
            self._do_activate(action)
        elif phase == "move":
            self._do_move(action)
        elif phase == "act":
            self._do_act(action)
        elif phase == "solo":
            self._do_solo(action)
        elif phase == "deploy":
            self._do_deploy(action)
        elif phase == "gate":
            self._do_gate(action)
        elif phase == "discard":
            self._do_discard(action)
        else:
            raise ValueError(f"unknown Warcaster phase {phase!r}")
        if self.phase != "over":
            self._check_annihilation()

    def _do_charge(self, action: Any) -> None:
        if action[0] != "pass":
            side = self.sides[self.player]
            holder: Unit | Gate = self.units[action[2]] if action[1] == "unit" else side.gates[action[2]]
            if action[0] == "charge":
                if isinstance(holder, Unit):
                    self.put_arc(holder, 1)
                else:
                    holder.arc += 1
                    side.pool -= 1
            else:
                side.pool += holder.arc
                holder.arc = 0
            self.log(action[0], None, {"holder": action[1], "uid": action[2], "arc": holder.arc, "pool": side.pool})
        self.phase = "cypher1"

    def _do_cypher(self, action: Any) -> None:
        if action[0] == "cypher":
            side = self.sides[self.player]
            cypher = side.take_from_hand(action[1])
            cyphers.play_cypher(self, self.player, cypher, action[2])
            side.discard.append(cypher)
        self.phase = "activate" if self.phase == "cypher1" else "deploy"

    def _do_activate(self, action: Any) -> None:
        if action[0] == "pass":
            self.phase = "cypher2"
            return
        self._begin_activation(self.units[action[1]], solo=False)

    def _do_solo(self, action: Any) -> None:
        if action[0] == "pass":
            self.phase = "cypher2"
            return
        self._begin_activation(self.units[action[1]], solo=True)

    def _begin_activation(self, unit: Unit, *, solo: bool) -> None:
        unit.activated = True
        self.acting = unit.uid
        self.solo_activation = solo
        self.log("activate", None, {"unit": unit.uid, "code": unit.spec.code, "solo": solo})
        for model in unit.alive_models:
            for ability in model.spec.triggered("on_activate"):
                if ability.arc_cost <= unit.arc:
                    self.spend_unit_arc(unit, ability.arc_cost)
                    cyphers.use_ability(self, model, ability, None)
        self.phase = "move" if unit.status == "board" else self._after_activation()

    def _do_move(self, action: Any) -> None:
        unit = self.acting_unit
        mode = action[1]
        if mode != "hold":
            moved = []
            for model in unit.alive_models:
                spd = self.stat(model, "spd")
                if spd <= 0:
                    continue
                if mode == "advance":
                    changed = self.advance(model, spd)
                else:
                    changed = self.move_model(model, self.centre, spd, self.options["objective_radius"] / 2)
                if changed:
                    moved.append([model.uid, model.x, model.y])
            self.log("move", None, {"unit": unit.uid, "mode": mode, "models": moved})
        self.phase = "act"

    def _do_act(self, action: Any) -> None:
        unit = self.acting_unit
        kind = action[0]
        if kind == "attack":
            self._attack_with_unit(unit, self.units[action[1]], action[2])
        elif kind == "ability":
            model = self.models[action[1]]
            ability = model.spec.abilities[action[2]]
            self.spend_unit_arc(unit, ability.arc_cost)
            cyphers.use_ability(self, model, ability, action[3])
        self.phase = self._after_activation()

    def _attack_with_unit(self, unit: Unit, target_unit: Unit, arc: int) -> None:
        """Every model of the unit attacks with each usable weapon that reaches the target unit, each at the
        nearest model of it; the arc spent buys power dice for the first attack (W11)."""
        self.spend_unit_arc(unit, arc)
        for model in list(unit.alive_models):
            for weapon in model.spec.weapons:
                if not model.alive or target_unit.status != "board" or self.blocked(model, weapon.type):
                    continue
                target, distance = combat.nearest_in(model, target_unit.alive_models)
                if target is not None and distance <= weapon.rng:
                    combat.make_attack(self, model, target, weapon, arc)
                    arc = 0

    def _after_activation(self) -> str:
        self.acting = None
        return "cypher2" if self.solo_activation else "solo"

    def _do_deploy(self, action: Any) -> None:
        if action[0] in ("end", "pass"):
            self.phase = "gate"
            return
        unit = self.units[action[1]]
        side = self.sides[self.player]
        gate = side.gates[action[2]]
        gate.arc -= unit.spec.cst
        side.pool += unit.spec.cst
        self.log("gate_paid", None, {"gate": gate.uid, "amount": unit.spec.cst, "arc": gate.arc})
        self._place(unit, gate.x, gate.y, self.options["deploy_range"])
        for model in unit.alive_models:
            for ability in model.spec.triggered("on_deploy"):
                cyphers.use_ability(self, model, ability, None)

    def _do_gate(self, action: Any) -> None:
        if action[0] == "gate":
            side = self.sides[self.player]
            x, y = self.gate_spots(self.player)[action[1]]
            arc = min(self.options["gate_start_arc"], side.pool, self.options["gate_arc_limit"])
            side.pool -= arc
            gate = Gate(len(side.gates), self.player, x, y, arc)
            side.gates.append(gate)
            self.log("gate", None, {"gate": gate.uid, "at": [x, y], "arc": arc, "pool": side.pool})
        self.phase = "discard"

    def _do_discard(self, action: Any) -> None:
        side = self.sides[self.player]
        if action[0] == "discard":
            cypher = side.take_from_hand(action[1])
            side.discard.append(cypher)
            self.log("discard", None, {"card": cypher.code})
            if len(side.hand) > self.options["hand_limit"]:
                return  # still above the limit: discard again
        self._end_turn()

    # ------------------------------------------------------------------ turns and rounds
    def _start_turn(self, player: int) -> None:
        self.player = player
        self.turn += 1
        self.log("turn_start", player, {"round": self.round, "turn_in_round": self.turns_taken[player] + 1})
        units = [u for u in self.units_on_board(player) if u.spec.can_activate]
        if units and all(u.activated for u in units):  # W10 phase 1: ready
            for unit in units:
                unit.activated = False
            self.log("ready", player, {"units": [u.uid for u in units]})
        self.phase = "charge"

    def _end_turn(self) -> None:
        side = self.sides[self.player]
        if not side.goldfish:  # W10 phase 9: draw up to the hand limit, reshuffling when the deck runs out
            drawn = self.draw(self.player, int(self.options["hand_limit"]) - len(side.hand))
            self.log("draw", None, {"count": drawn, "hand": len(side.hand)})
        for model in self.models:
            if model.mods:
                model.mods = [m for m in model.mods if m[2] != "turn"]
        self.turns_taken[self.player] += 1
        limit = self.options["turns_per_round"]
        if self.turns_taken[0] >= limit and self.turns_taken[1] >= limit:
            self._end_round()
            if self.phase == "over":
                return
        self._start_turn(1 - self.player)

    def _end_round(self) -> None:
        self.log_game("round_end", {"round": self.round})
        self._roll_continuous_effects()
        self._score_objective()
        for model in self.models:
            model.shield = 0
            if model.mods:
                model.mods = [m for m in model.mods if m[2] == "static"]
        self.turns_taken = [0, 0]
        if self.round >= self.options["rounds"]:
            self._finish(outcome.ROUNDS)
            return
        self.round += 1
        self._check_annihilation()

    def _roll_continuous_effects(self) -> None:
        """W15: one action die per effect per model (lockdown: per unit): a strike keeps it for the next round
        (fire and corrosion then deal the strikes as damage straight to health); no strike ends it."""
        for unit in self.units:
            if unit.status != "board":
                continue
            if unit.lockdown:
                rolled = ACTION_FACES[combat.face(self.rng)]
                unit.lockdown = rolled > 0
                self.log("effect", unit.player, {"effect": "lockdown", "unit": unit.uid, "roll": rolled,
                                                 "change": "kept" if rolled else "ended"})
            for model in unit.alive_models:
                for effect in sorted(model.effects):
                    rolled = ACTION_FACES[combat.face(self.rng)]
                    self.log("effect", model.player, {"effect": effect, "model": model.uid, "unit": unit.uid,
                                                      "roll": rolled, "change": "kept" if rolled else "ended"})
                    if not rolled:
                        del model.effects[effect]
                    elif effect in ("fire", "corrosion"):
                        self.deal_damage(model, rolled, effect, None)
                    if not model.alive:
                        break

    def _score_objective(self) -> None:
        """W16: 2 points to the side with a model within 3″ of the centre and no enemy model there."""
        radius = self.options["objective_radius"]
        cx, cy = self.centre
        present = [False, False]
        for model in self.on_board():
            if gap(model.disc, (cx, cy, 0.0)) <= radius:
                present[model.player] = True
        for player in (0, 1):
            if present[player] and not present[1 - player]:
                self.sides[player].vp += self.options["objective_points"]
                self.log("score", player, {"points": self.options["objective_points"], "reason": "objective",
                                           "vp": self.sides[player].vp})

    def _check_annihilation(self) -> None:
        for player in (0, 1):
            if not self.on_board(player) and not self.reserves(player):
                self._finish(outcome.ANNIHILATION)
                return

    def _finish(self, reason: str) -> None:
        vp = [self.sides[0].vp, self.sides[1].vp]
        self.winner = 0 if vp[0] > vp[1] else 1 if vp[1] > vp[0] else None
        self.end_reason = reason
        self.phase = "over"
        self.acting = None
        self.log_game("game_over", {"reason": reason, "vp": vp, "winner": self.winner, "round": self.round})

    # ------------------------------------------------------------------ checks (tests, debugging)
    def invariant_problems(self) -> list[str]:
        """Broken invariants: negative or excess arc, arc not conserved, too many gates, health out of range."""
        problems = []
        for side in self.sides:
            total = side.pool + sum(g.arc for g in side.gates)
            total += sum(self.units[u].arc for u in side.units)
            if side.pool < 0 or total != self.options["arc_pool"]:
                problems.append(f"player {side.player}: arc pool {side.pool}, total {total}")
            if len(side.gates) > self.options["gates"]:
                problems.append(f"player {side.player}: {len(side.gates)} gates")
            for gate in side.gates:
                if not 0 <= gate.arc <= self.options["gate_arc_limit"]:
                    problems.append(f"gate {side.player}/{gate.uid}: arc {gate.arc}")
        for unit in self.units:
            if not 0 <= unit.arc <= self.arc_limit(unit):
                problems.append(f"unit {unit.uid}: arc {unit.arc}")
        for model in self.models:
            if not 0 <= model.health <= model.spec.health or model.alive != (model.health > 0):
                problems.append(f"model {model.uid}: health {model.health}")
        return problems
