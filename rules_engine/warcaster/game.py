"""Warcaster: Neo-Mechanika reference engine: `WarcasterGame` and its `WarcasterState` (RULES.md §3.3, W10–W16).

Player 0 plays the list; player 1 is the opponent: a `force` (another list, played by a policy) or the
`goldfish` (its units stand on the table from the start and never activate or play cyphers).

W10 turn, in order: 1 ready (automatic) → 2 charging (charging.py: one charge, or recalls until `END`; phases
"charge" and "recall") → 3 cypher → 4 activation (a unit, then one solo) → 5 cypher → 6 deployment → 7 gate
placement → 8 discard → 9 draw up to the hand limit (automatic). Players alternate turns; a pulse round ends
when both have had `turns_per_round` turns (W15 continuous effects rolled, W16 objective scored); the game lasts
`rounds` pulse rounds (W16), or ends when a side has no model on the table and none in reserve.

`WarcasterState` (a `Table`, state.py) holds the state protocol, the turn flow, the legal actions of each phase
(the actions: actions.py) and the dispatch of an action to its rules (charging.py, combat.py, cyphers.py,
movement.py, deployment.py). A phase with a single legal action is played automatically.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules_engine.core import outcome
from rules_engine.core.game import TERMINAL, IllegalActionError
from rules_engine.core.outcome import Outcome
from rules_engine.warcaster import actions as A
from rules_engine.warcaster import charging, combat, cyphers, deployment, movement, odds
from rules_engine.warcaster import policies  # noqa: F401  (registers warcaster-greedy)
from rules_engine.warcaster.actions import MOVE_MODES, PASS
from rules_engine.warcaster.models import Catalog, CypherSpec, UnitSpec, compile_force, compile_rack
from rules_engine.warcaster.state import Side, Table, Unit

DEFAULT_OPTIONS: Mapping[str, Any] = {  # the game's options (a simulation's `options` may set any of them)
    "dice_scale": "pools",  # W11: dice pools of MAT/RAT, DEF and POW (odds.py); or "stat_plus_dice" (stat + dice)
    "attack_ties": "defender",  # W11 "pools": equal strikes miss; or "attacker" (equal strikes hit)
    "attack_dice": 3,  # W11 "stat_plus_dice": action dice in an attack roll
    "damage_dice": 3,  # W11 "stat_plus_dice": action dice in a damage roll
    "blast_damage": "damage_roll",  # W13: a damage roll against ARM; or "half_pow" (⌈POW/2⌉), "half_pow_minus_arm"
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
    "discard_to_hand_limit": False,  # W10 phase 8: one optional discard (seed 003); True: down to the hand limit
    "continuous_damage_direct": True,  # W15: fire/corrosion damage goes straight to health, past shields (seed 003)
    "charging_recall": "any",  # W10 phase 2: recall any amount from several holders (seed 003); or "one_holder"
}


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
            if isinstance(DEFAULT_OPTIONS[key], bool):
                if not isinstance(value, bool):
                    raise ValueError(f"options.{key}: expected true or false, got {value!r}")
            elif isinstance(DEFAULT_OPTIONS[key], int) and (isinstance(value, bool) or not isinstance(value, int)
                                                            or value < 0):
                raise ValueError(f"options.{key}: expected an integer ≥ 0, got {value!r}")
        if self.options["blast_damage"] not in combat.BLAST_READINGS:
            raise ValueError(f"options.blast_damage: expected {' or '.join(map(repr, combat.BLAST_READINGS))}, "
                             f"got {self.options['blast_damage']!r}")
        if self.options["charging_recall"] not in charging.RECALL_READINGS:
            raise ValueError(f"options.charging_recall: expected 'any' or 'one_holder', "
                             f"got {self.options['charging_recall']!r}")
        for key, readings in (("dice_scale", odds.DICE_SCALES), ("attack_ties", odds.ATTACK_TIES)):
            if self.options[key] not in readings:
                raise ValueError(f"options.{key}: expected {' or '.join(map(repr, readings))}, "
                                 f"got {self.options[key]!r}")
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

    def new_initial_state(self, rng: random.Random, first_player: int | None = None,
                          setup_rngs: list[random.Random] | tuple[random.Random, ...] | None = None) -> WarcasterState:
        """A new game: `rng` rolls the dice. `first_player` (0 or 1) takes the first turn of every pulse round, else
        a roll of `rng` says who; `setup_rngs[p]` shuffles player p's cypher deck (None: `rng`)."""
        if first_player is not None and first_player not in (0, 1):
            raise ValueError(f"first_player: expected 0 or 1, got {first_player!r}")
        return WarcasterState(self, rng, first_player=first_player, setup_rngs=setup_rngs)


def _spec_classes(specs: list[UnitSpec]) -> list[int]:
    first: list[int] = []
    for index, spec in enumerate(specs):
        first.append(next(j for j in range(index + 1) if specs[j] == spec))
    return first


class WarcasterState(Table):
    def __init__(self, game: WarcasterGame | None, rng: random.Random, copy_of: WarcasterState | None = None,
                 first_player: int | None = None,
                 setup_rngs: list[random.Random] | tuple[random.Random, ...] | None = None) -> None:
        """A new game of `game`, set up and played up to the first choice; or, with `copy_of`, a copy of that
        state (`clone`: compiled classes cannot be deep-copied by `copy`); with neither, an empty table.
        `first_player` and `setup_rngs`: see `WarcasterGame.new_initial_state`."""
        source = copy_of
        super().__init__(source.options if source is not None else game.options if game is not None
                         else dict(DEFAULT_OPTIONS), rng, copy_of=source)
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
        if game is None:  # an empty table (default options), which a position fills in (warcaster/position.py)
            return
        deployment.set_out(self, game.sides)
        self.first = first_player if first_player is not None else rng.randrange(2)
        self.log_game("setup", {"table": [self.size, self.size], "objective": list(self.centre),
                                "objective_radius": self.options["objective_radius"], "first_player": self.first,
                                "sides": [deployment.side_info(self, p) for p in (0, 1)]})
        for side in self.sides:
            (setup_rngs[side.player] if setup_rngs is not None else rng).shuffle(side.deck)
            cyphers.draw(self, side.player, int(self.options["hand_limit"]))
            if side.goldfish:
                movement.set_up_goldfish(self, side)
        self._start_turn(self.first)
        self._settle()

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
        """The legal actions (records of actions.py) in a fixed order."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def apply(self, action: Any) -> None:
        """Play a legal action (a record, or a bare tuple equal to one) and every forced move after it."""
        legal = self._legal if self._legal is not None else self.legal_actions()
        try:  # the one check of legality (the policies read the same cached list)
            index = legal.index(action)
        except ValueError:
            raise IllegalActionError(
                f"round {self.round}: illegal action {action!r} for player {self.player}") from None
        self._apply(legal[index])  # the listed record, whatever equal tuple the caller passed
        self._settle()

    def describe(self, action: Any) -> str:
        kind = action[0]  # by position: a caller may describe a bare tuple equal to a record
        words = charging.describe(self, action, self.phase)
        if words is not None:
            return words
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
        if phase == "charge" or phase == "recall":  # W10 phase 2 (charging.py)
            return charging.legal_actions(self, side, phase == "recall")
        if phase == "activate" or phase == "solo":
            return self._legal_activate(side, phase == "solo")
        if phase == "move":
            return self._legal_move(side)
        if phase == "act":
            return self._legal_act(side)
        if phase == "deploy":
            return self._legal_deploy(side)
        if phase == "gate":
            return self._legal_gate(side)
        if phase == "discard":
            return self._legal_discard(side)
        raise ValueError(f"unknown Warcaster phase {phase!r}")

    def _legal_cypher(self, side: Side) -> list[Any]:
        actions: list[Any] = [PASS]
        seen = set()
        shared: dict[tuple, Any] = {}  # the table is still: cyphers with the same kind of target share one look
        for cypher in side.hand:
            if cypher.code in seen:
                continue
            seen.add(cypher.code)
            actions += [A.play_cypher(cypher.code, choice)
                        for choice in cyphers.cypher_options(self, side.player, cypher, shared)]
        return actions

    def _legal_activate(self, side: Side, solo: bool) -> list[Any]:
        """A unit that can activate and has not (the solo phase: a solo)."""
        if solo:
            return [PASS] + [A.activate(u.uid) for u in self.units_on_board(side.player)
                             if u.spec.is_solo and not u.activated]
        return [PASS] + [A.activate(u.uid) for u in self.units_on_board(side.player)
                         if u.spec.can_activate and not u.activated]

    def _legal_move(self, side: Side) -> list[Any]:
        unit = self.acting_unit
        if all(self.stat(m, "spd") == 0 for m in unit.alive_models):
            return [A.move("hold")]
        return [A.move(mode) for mode in MOVE_MODES]

    def _legal_act(self, side: Side) -> list[Any]:
        unit = self.acting_unit
        actions: list[Any] = [A.WAIT]
        max_arc = min(unit.arc, self.options["max_arc_per_attack"])
        for target in self.attack_targets(unit):
            actions += [A.attack(target.uid, arc) for arc in range(max_arc + 1)]
        for model in unit.alive_models:
            for index, ability in enumerate(model.spec.abilities):
                if ability.trigger != "action" or ability.arc_cost > unit.arc:
                    continue
                if ability.effect.kind == "attack" and self.blocked(model, ability.effect.get("type", "ranged")):
                    continue
                actions += [A.use_ability(model.uid, index, choice)
                            for choice in cyphers.ability_options(self, model, ability)]
        return actions

    def _legal_deploy(self, side: Side) -> list[Any]:
        actions: list[Any] = [A.END]
        if len(self.spec_class) != len(self.units):  # units added by hand (tests): work the classes out again
            self.spec_class = _spec_classes([u.spec for u in self.units])
        seen: set[int] = set()
        for unit in self.reserves(side.player):
            kind = self.spec_class[unit.uid]
            if kind in seen:  # identical reserve units are interchangeable
                continue
            seen.add(kind)
            actions += [A.deploy(unit.uid, gate.uid) for gate in side.gates if gate.arc >= unit.spec.cst]
        return actions

    def _legal_gate(self, side: Side) -> list[Any]:
        if len(side.gates) >= self.options["gates"]:
            return [PASS]
        taken = {(g.x, g.y) for g in side.gates}
        return [PASS] + [A.place_gate(i) for i, spot in enumerate(deployment.gate_spots(self, side.player)) if spot not in taken]

    def _legal_discard(self, side: Side) -> list[Any]:
        codes = sorted({c.code for c in side.hand})
        discards = [A.discard(code) for code in codes]
        if self.options["discard_to_hand_limit"] and len(side.hand) > self.options["hand_limit"]:
            return discards  # option: down to the hand limit before drawing (the reading before 2026.12.2)
        return [PASS] + discards  # W10 phase 8: 好きなサイファーカードを1枚、破棄することが出来る (seed 003)

    # ------------------------------------------------------------------ queries used by policies too
    @property
    def acting_unit(self) -> Unit:
        """The unit being activated (phases `move` and `act`)."""
        assert self.acting is not None, f"no unit is being activated in phase {self.phase}"
        return self.units[self.acting]

    def attack_targets(self, unit: Unit) -> list[Unit]:
        """Enemy units that at least one of `unit`'s models can reach with a usable weapon (combat.targets_in_reach,
        cached until the next action changes the table)."""
        found = self._targets.get(unit.uid)
        if found is None:
            found = self._targets[unit.uid] = combat.targets_in_reach(self, unit)
        return found

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
        """Hand a legal action of the current phase to its rules, then move on to the next phase (W10)."""
        self._legal = None
        self._targets = {}
        phase = self.phase
        kind = action.kind
        if phase == "cypher1" or phase == "cypher2":
            if kind == "cypher":
                cyphers.play_from_hand(self, self.player, action.code, action.choice)
            self.phase = "activate" if phase == "cypher1" else "deploy"
        elif phase == "charge" or phase == "recall":
            self.phase = charging.play(self, action)  # W10 phase 2: "recall" again while recalling, else "cypher1"
        elif phase == "activate" or phase == "solo":
            if kind == "pass":
                self.phase = "cypher2"
            else:
                unit = self.units[action.unit]
                unit.activated = True
                self.acting = unit.uid
                self.solo_activation = phase == "solo"
                self.log("activate", None, {"unit": unit.uid, "code": unit.spec.code, "solo": self.solo_activation})
                cyphers.on_activation(self, unit)
                if unit.status == "board":
                    self.phase = "move"
                else:  # destroyed by its own ability: its activation ends
                    self.acting = None
                    self.phase = "cypher2" if self.solo_activation else "solo"
        elif phase == "move":
            movement.move_unit(self, self.acting_unit, action.mode)
            self.phase = "act"
        elif phase == "act":
            unit = self.acting_unit
            if kind == "attack":
                combat.attack_with_unit(self, unit, self.units[action.target_unit], action.arc)
            elif kind == "ability":
                model = self.models[action.model]
                ability = model.spec.abilities[action.ability]
                deployment.spend_unit_arc(self, unit, ability.arc_cost)
                cyphers.use_ability(self, model, ability, action.choice)
            self.acting = None  # on to the extra solo (W10 phase 4), or after it to the second cypher phase
            self.phase = "cypher2" if self.solo_activation else "solo"
        elif phase == "deploy":
            if kind == "end" or kind == "pass":
                self.phase = "gate"
            else:
                unit = self.units[action.unit]
                deployment.deploy(self, unit, action.gate)
                cyphers.on_deployment(self, unit)
        elif phase == "gate":
            if kind == "gate":
                deployment.place_gate(self, action.spot)
            self.phase = "discard"
        elif phase == "discard":
            if kind == "discard":
                cyphers.discard_from_hand(self, self.player, action.code)
            # W10 phase 8: one discard at most (option discard_to_hand_limit: again while above the hand limit);
            # the hand limit applies when drawing up (phase 9)
            if (kind != "discard" or not self.options["discard_to_hand_limit"]
                    or len(self.sides[self.player].hand) <= self.options["hand_limit"]):
                self._end_turn()
        else:
            raise ValueError(f"unknown Warcaster phase {phase!r}")
        if self.phase != "over":
            self._check_annihilation()

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
            drawn = cyphers.draw(self, self.player, int(self.options["hand_limit"]) - len(side.hand))
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
        """The end of a pulse round: continuous effects rolled (W15), the objective scored (W16), shields and
        round-long stat changes gone; after the last round, the game ends."""
        self.log_game("round_end", {"round": self.round})
        combat.roll_continuous_effects(self)
        combat.score_objective(self)
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

    def _check_annihilation(self) -> None:
        """The game ends when a side has no model on the table and none in reserve."""
        for player in (0, 1):
            if not self.on_board(player) and not self.reserves(player):
                self._finish(outcome.ANNIHILATION)
                return

    def _finish(self, reason: str) -> None:
        """Game over: the side with more victory points wins (W16), equal points draw."""
        vp = [self.sides[0].vp, self.sides[1].vp]
        self.winner = 0 if vp[0] > vp[1] else 1 if vp[1] > vp[0] else None
        self.end_reason = reason
        self.phase = "over"
        self.acting = None
        self.log_game("game_over", {"reason": reason, "vp": vp, "winner": self.winner, "round": self.round})
