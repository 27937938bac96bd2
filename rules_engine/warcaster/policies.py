"""Warcaster policies. `random` is the core's; `warcaster-greedy` is a one-ply heuristic:

- charging: arc onto a gate while a reserve unit is waiting for more gate arc, else onto a warjack or hero
  that fights; when no charge helps (an empty pool, say), recalls idle arc (on gates once no reserve is left, on
  units without weapons), one arc at a time, while the pool holds less than the rest of the game can use
  (`arc_wanted`), then ends the phase;
- cyphers: scores each playable cypher on its chosen target (expected damage of attack cyphers from the
  exact strike distribution, kills, effects put on enemies, healing, arc, cards); buffs that last a turn only
  in the first cypher phase, before the activation they help; a move (or SPD) for a friendly unit is worth the
  attack it brings into reach before the unit activates; keeps the card when nothing scores;
- activation: the unit with the best attack now (late in a pulse round, with the W16 centre's points for a unit
  that can step onto a centre the player does not hold alone); each move is weighed where it leaves the unit
  (movement.preview): the best attack from there, the centre objective if the unit would stand in it, less the
  damage it would walk into when it gets no attack; attacks the target with the best expected damage (kills
  first; an attack's spray and blast count for the other enemy models they hit and against the friendly ones)
  and spends arc when the power dice add enough damage;
- deploys the most expensive affordable reserve; places gates forward, nearest the centre; keeps its cyphers
  (the discard phase is optional, W10 phase 8), discarding the least useful only when a rule makes it.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from rules_engine.core.policies import register_policy
from rules_engine.warcaster import combat, cyphers, deployment, movement
from rules_engine.warcaster.actions import PASS
from rules_engine.warcaster.geometry import gap
from rules_engine.warcaster.models import EFFECT_NAMES, Effect, Weapon
from rules_engine.warcaster.state import Model, Unit

if TYPE_CHECKING:  # game.py imports this module (to register the policy)
    from rules_engine.warcaster.game import WarcasterState

EFFECT_VALUE = {"fire": 6, "corrosion": 6, "lockdown": 4, "system_failure": 7, "tune_up": 5}
CYPHER_KEEP = 2.0  # a cypher must score above this to be played
TYPE_VALUE = {"attack": 3, "effect": 2, "pulse": 2, "geometric": 1}


class WarcasterGreedyPolicy:
    name = "warcaster-greedy"

    def choose(self, state: WarcasterState, rng: random.Random) -> Any:
        actions = state.legal_actions()
        if state.phase == "discard" and actions[0] == PASS:
            return actions[0]  # keep every cypher: the discard is optional (W10 phase 8)
        state.freeze()  # stats and attack plans worked out once for all the actions scored
        try:
            best, best_score = actions[0], self._score(state, actions[0])
            for action in actions[1:]:  # the best score; on a tie, the action listed first
                score = self._score(state, action)
                if score > best_score:
                    best, best_score = action, score
        finally:
            state.thaw()
        return best

    def _score(self, state: WarcasterState, action: Any) -> float:
        phase = state.phase  # a plain chain, not getattr(f"_score_{phase}"): this runs for every action weighed
        if phase == "cypher1" or phase == "cypher2":
            return self._score_cypher(state, action)
        if phase == "act":
            return self._score_act(state, action)
        if phase == "activate" or phase == "solo":
            return self._score_activate(state, action)
        if phase == "charge" or phase == "recall":
            return self._score_charge(state, action)
        if phase == "move":
            return self._score_move(state, action)
        if phase == "deploy":
            return self._score_deploy(state, action)
        if phase == "gate":
            return self._score_gate(state, action)
        if phase == "discard":
            return self._score_discard(state, action)
        raise ValueError(f"warcaster-greedy: no scoring for phase {phase!r}")

    # --- W10 phase 2
    def _score_charge(self, state: WarcasterState, action: Any) -> float:
        kind = action.kind
        if kind == "pass" or kind == "end":
            return 0
        side = state.sides[state.player]
        if kind == "recall":  # below every useful charge (≥ 0.5): recalling gives up this turn's charge
            if action.holder == "gate":
                idle = not state.reserves(state.player)
                arc = side.gates[action.uid].arc
            else:
                unit = state.units[action.uid]
                idle = not _fights(unit)
                arc = unit.arc
            return 0.3 + 0.01 * arc if idle and side.pool < arc_wanted(state) else -5
        if action.holder == "gate":
            gate = side.gates[action.uid]
            waiting = [u.spec.cst for u in state.reserves(state.player) if u.spec.cst > gate.arc]
            return 4 - 0.1 * min(c - gate.arc for c in waiting) if waiting else -1
        unit = state.units[action.uid]
        if not _fights(unit):
            return -1
        return 2 + (1 if unit.spec.kind in ("warjack", "hero") else 0) - 0.5 * unit.arc

    # --- W10 phases 3 and 5
    def _score_cypher(self, state: WarcasterState, action: Any) -> float:
        if action.kind == "pass":
            return CYPHER_KEEP
        side = state.sides[state.player]
        cypher = next(c for c in side.hand if c.code == action.code)
        node, chosen = cyphers.node_and_target(state, state.player, cypher, action.choice)
        score = 0.0
        for effect in cypher.effects:
            score += self._effect_value(state, effect, node, chosen)
        return score

    def _effect_value(self, state: WarcasterState, effect: Effect, node: Model, chosen: Model | None) -> float:
        player = state.player
        kind = effect.kind
        if kind == "attack":
            if chosen is None:
                return 0
            stat = state.stat(node, state.options["cypher_attack_stat"])
            arc = min(state.units[node.unit].arc, state.options["max_arc_per_attack"])
            worth = 3 * _expected(state, stat, effect.get("pow"), chosen, arc) + 2
            qualities = frozenset(effect.get("qualities") or ())
            if "spray" in qualities or "blast" in qualities:  # its spill, as a weapon's (friendly fire included)
                weapon = Weapon("cypher", effect.get("type", "ranged"), effect.get("rng"), effect.get("pow"), qualities)
                worth += 3 * _spill(state, node, chosen, weapon, stat)
            return worth
        affected = cyphers._affected(state, player, effect, node, chosen)
        if kind == "damage":
            return sum(3 * int(effect.get("amount")) * (1 if m.player != player else -1) for m in affected)
        if kind == "apply_effect":
            name = effect.get("effect")
            value = EFFECT_VALUE.get(name, 3)
            return sum(value * (1 if (m.player != player) == (name != "tune_up") else -1)
                       for m in affected if name not in m.effects and name not in m.spec.immunities)
        if kind == "remove_effect":
            return sum(3 * len(m.effects) for m in affected if m.player == player)
        if kind == "heal":
            return sum(2 * min(int(effect.get("amount")), m.spec.health - m.health) for m in affected)
        if kind == "arc":
            target = chosen or node
            unit = state.units[target.unit]
            return 2 * min(int(effect.get("amount")), state.arc_limit(unit) - unit.arc, state.sides[player].pool)
        if kind == "draw":
            return 1.5 * int(effect.get("count"))
        if kind == "shield":
            return sum(1 for m in affected if m.player == player)
        if kind == "stat_mod":
            amount = int(effect.get("amount"))
            if effect.get("duration", "round") == "turn":
                if state.phase != "cypher1":
                    return 0
                if effect.get("stat") == "spd" and chosen is not None and chosen.player == player:
                    return 2 * amount + 3 * _reach_gain(state, state.units[chosen.unit], amount)
                return sum(2 * amount for m in affected
                           if m.player == player and not state.units[m.unit].activated)
            return sum(1.5 * amount * (1 if m.player == player else -1) for m in affected)
        if kind == "move":
            if chosen is not None and chosen.player == player:
                return 1.0 + 3 * _reach_gain(state, state.units[chosen.unit], float(effect.get("distance")))
            return 0.5
        return 0

    # --- W10 phase 4
    def _score_activate(self, state: WarcasterState, action: Any) -> float:
        if action.kind == "pass":
            return -1
        unit = state.units[action.unit]
        best = 0.0
        first = True
        for target in state.attack_targets(unit):  # max(..., default=0.0), written out (a compiled call to max is slow)
            value = _attack_value(state, unit, target, 0)
            if first or value > best:
                best, first = value, False
        return best + 0.1 * unit.spec.cst + 1 + _objective_bonus(state, unit)

    def _score_move(self, state: WarcasterState, action: Any) -> float:
        """Each move is weighed where it leaves the unit (movement.preview): the best attack it can make from
        there, plus the centre objective when the unit would stand in it and the player does not already hold it
        alone (W16: 2 points at each pulse round's end, worth a kill of that many CST; half as much before the
        last two turns of the round, when the other side may still push it off). Without either, advancing
        (closing in) beats going for the centre, which beats holding; on equal scores hold, then advance.
        Before, a unit with a target in reach always held, so a melee unit next to the centre fought from just
        outside it and never contested it (the first player's hero, there first, scored it unopposed)."""
        unit = state.acting_unit
        mode = action.mode
        staying = _threat(state, unit) if mode != "hold" else 0.0
        before = movement.preview(state, unit, mode)
        try:
            exposed = _threat(state, unit) - staying if mode != "hold" else 0.0
            best = 0.0
            for target in combat.targets_in_reach(state, unit):
                value = _attack_value(state, unit, target, 0, remember=False)
                if value > best:
                    best = value
            radius = state.options["objective_radius"]
            centre = (*state.centre, 0.0)
            in_zone = False
            for model in unit.alive_models:
                if gap(model.disc, centre) <= radius:
                    in_zone = True
        finally:
            movement.restore(state, before)
        score = best + (0.02 if mode == "hold" else 0.01 if mode == "advance" else 0.0)
        if in_zone:
            mine, theirs = centre_holders(state, unit.uid)
            if theirs or not mine:
                late = state.turns_taken[state.player] >= state.options["turns_per_round"] - 2
                score += (2.0 if late else 1.0) * state.options["objective_points"]
        elif best == 0 and mode != "hold":
            score += 0.5 if mode == "advance" else 0.25
        if best == 0 and exposed > 0:
            score -= exposed  # walking into the reach of enemies that would shoot first, with no attack of its own
        return score

    def _score_act(self, state: WarcasterState, action: Any) -> float:
        kind = action.kind
        if kind == "wait":
            return 0
        unit = state.acting_unit
        if kind == "attack":
            return _attack_value(state, unit, state.units[action.target_unit], action.arc)
        model = state.models[action.model]
        ability = model.spec.abilities[action.ability]
        chosen = state.models[action.choice] if action.choice is not None else None
        return self._effect_value(state, ability.effect, model, chosen) - ability.arc_cost

    # --- W10 phases 6 to 8
    def _score_deploy(self, state: WarcasterState, action: Any) -> float:
        if action.kind == "end" or action.kind == "pass":
            return 0
        return state.units[action.unit].spec.cst - 0.01 * action.gate

    def _score_gate(self, state: WarcasterState, action: Any) -> float:
        if action.kind == "pass":
            return -100
        x, y = deployment.gate_spots(state, state.player)[action.spot]
        cx, cy = state.centre
        return -abs(x - cx) - abs(y - cy)

    def _score_discard(self, state: WarcasterState, action: Any) -> float:
        if action.kind == "pass":
            return 0
        side = state.sides[state.player]
        cypher = next(c for c in side.hand if c.code == action.code)
        usable = bool(cyphers.cypher_options(state, state.player, cypher))
        return -TYPE_VALUE.get(cypher.cypher_type, 2) - (2 if usable else 0) - 1


register_policy("warcaster-greedy")(WarcasterGreedyPolicy)


def _threat(state: WarcasterState, unit: Unit) -> float:
    """The expected damage the enemy models that could reach the unit where it stands (their SPD plus their
    longest weapon) would do to it, one attack per weapon at its nearest model."""
    total = 0.0
    options = state.options
    mine = unit.alive_models
    for enemy in state.on_board(1 - unit.player):
        if not enemy.spec.weapons:
            continue
        target, distance = combat.nearest_in(enemy, mine)
        if target is None:
            continue
        spd = state.stat(enemy, "spd")
        for weapon in enemy.spec.weapons:
            if distance <= spd + weapon.rng:
                total += combat.chance_to_hit(options, combat.attack_stat(state, enemy, weapon),
                                              state.stat(target, "def"), 0) * combat.mean_damage(
                    options, combat.weapon_pow(state, enemy, weapon), combat.armour_against(state, target, weapon), 0)
    return total


def best_attack_after_advance(state: WarcasterState, unit: Unit, extra: float) -> float:
    """The best attack value the unit would have after advancing its SPD plus `extra` inches (movement.preview)."""
    before = movement.preview(state, unit, "advance", extra)
    best = 0.0
    try:
        for target in combat.targets_in_reach(state, unit):
            value = _attack_value(state, unit, target, 0, remember=False)
            if value > best:
                best = value
    finally:
        movement.restore(state, before)
    return best


def _reach_gain(state: WarcasterState, unit: Unit, extra: float) -> float:
    """What `extra` inches of movement before its activation (a cypher's advance, SPD +1) add to the attack a
    friendly unit can make this turn: nothing once it has activated or in the second cypher phase (after the
    activation). Before, the greedy valued every move cypher at 1, below the threshold to play a card, so a
    melee force never used the cyphers that bring its units into reach."""
    if unit.activated or state.phase != "cypher1" or not unit.spec.can_activate or not unit.alive_models:
        return 0.0
    return max(0.0, best_attack_after_advance(state, unit, extra) - best_attack_after_advance(state, unit, 0.0))


def centre_holders(state: WarcasterState, besides: int = -1) -> tuple[bool, bool]:
    """(the player to act, the other) have a model within the objective's radius of the table centre (W16
    control), the models of unit `besides` left out."""
    radius = state.options["objective_radius"]
    centre = (*state.centre, 0.0)
    mine = theirs = False
    for model in state.on_board():
        if model.unit != besides and gap(model.disc, centre) <= radius:
            if model.player == state.player:
                mine = True
            else:
                theirs = True
    return mine, theirs


def can_reach_centre(state: WarcasterState, unit: Unit) -> bool:
    """The unit's lead model can end its move within the objective's radius of the centre this activation."""
    lead = unit.alive_models[0]
    centre = (*state.centre, 0.0)
    return gap(lead.disc, centre) - state.options["objective_radius"] <= state.stat(lead, "spd")


def _objective_bonus(state: WarcasterState, unit: Unit) -> float:
    """In the last two turns of a pulse round (W16 scores the centre at its end), a unit that can step onto the
    centre when the player does not hold it alone: the points at stake (2 per round end), as a kill of that many
    CST counts in `_attack_value`, so that the unit that can take or contest the centre acts first."""
    if state.turns_taken[state.player] < state.options["turns_per_round"] - 2 or not unit.spec.can_activate:
        return 0.0
    mine, theirs = centre_holders(state, unit.uid)
    if mine and not theirs:
        return 0.0
    in_zone = False
    radius = state.options["objective_radius"]
    centre = (*state.centre, 0.0)
    for model in unit.alive_models:
        if gap(model.disc, centre) <= radius:
            in_zone = True
    if in_zone or not can_reach_centre(state, unit):
        return 0.0
    return 2.0 * state.options["objective_points"]  # not as a decorator: mypyc keeps the class native


def _fights(unit: Unit) -> bool:
    """A model of the unit carries a weapon (its arc buys power dice)."""
    for model in unit.alive_models:
        if model.spec.weapons:
            return True
    return False


def arc_wanted(state: WarcasterState) -> int:
    """The arc the player's pool can still be asked for this game (what the greedy recalls for): a charge each turn
    left, up to the room on its fighting units; the gates it has yet to place; the arc cyphers in its hand."""
    player = state.player
    side = state.sides[player]
    room = 0
    for unit in state.units_on_board(player):
        if _fights(unit):
            room += state.arc_limit(unit) - unit.arc
    turns_left = (state.options["rounds"] - state.round + 1) * state.options["turns_per_round"] - \
        state.turns_taken[player]
    wanted = min(max(0, turns_left), room)
    wanted += max(0, state.options["gates"] - len(side.gates)) * state.options["gate_start_arc"]
    for cypher in side.hand:
        for effect in cypher.effects:
            if effect.kind == "arc":
                wanted += int(effect.get("amount"))
    return wanted


def _expected(state: WarcasterState, stat: int, pow_: int, target: Model, arc: int) -> float:
    chance = combat.chance_to_hit(state.options, stat, state.stat(target, "def"), arc)
    return chance * combat.mean_damage(state.options, pow_, state.stat(target, "arm"), arc)


def _attack_value(state: WarcasterState, unit: Unit, target_unit: Unit, arc: int, remember: bool = True) -> float:
    """Expected damage of `unit` attacking `target_unit` (arc on the first attack), a kill bonus, minus arc
    (`remember`: the plan kept in the state's memo; not for a previewed move, where the models stand elsewhere)."""
    memo = state.memo if remember else None
    key = ("attack", unit.uid, target_unit.uid)
    plan = memo.get(key) if memo is not None else None
    if plan is None:
        plan = _attack_plan(state, unit, target_unit)
        if memo is not None:
            memo[key] = plan
    first, terms, remaining, spill = plan
    total = 0.0
    if first is not None:  # power dice on the first attack only; the others' terms do not depend on `arc`
        stat, defence, pow_, armour = first
        total += combat.chance_to_hit(state.options, stat, defence, arc) * combat.mean_damage(
            state.options, pow_, armour, arc)
        for term in terms:  # in the order the attacks are made, so the sum is the same float every time
            total += term
    bonus = 2 * target_unit.spec.cst if total >= remaining else 0
    return total + bonus - 0.6 * arc + spill


# W15: a fire or corrosion effect is kept at a pulse round's end on a strike (1/2) and then deals the strikes
# (4/3 on average when kept): 2/3 of a box a round.
CONTINUOUS_HARM = 2 / 3
FRIENDLY_FIRE = 1.5  # a box of damage to a friendly model counts this much against an attack (W13 blast, W14 spray)


def _spill(state: WarcasterState, attacker: Model, target: Model, weapon: Weapon, stat: int) -> float:
    """What an attack's spray (W14: every other model on the line takes a damage roll and the weapon's effects)
    and blast (W13: the nearest two on a hit, the target itself on a miss) do besides the target's own damage
    roll, in expected boxes: to enemy models, less `FRIENDLY_FIRE` times to friendly ones."""
    options = state.options
    player = attacker.player
    spill = 0.0
    if "spray" in weapon.qualities:
        burns = len(weapon.qualities & EFFECT_NAMES) * CONTINUOUS_HARM
        victims, _ = combat.spray_victims(state, attacker, target, weapon)
        for other in victims:
            harm = combat.mean_damage(options, weapon.pow, combat.armour_against(
                state, other, weapon, ignore_cover=True), 0) + burns
            spill += harm if other.player != player else -FRIENDLY_FIRE * harm
    if "blast" in weapon.qualities:
        chance = combat.chance_to_hit(options, stat, state.stat(target, "def"), 0)
        spill += (1 - chance) * combat.expected_blast_damage(state, attacker, target, weapon)
        for other in combat.blast_victims_on_a_hit(state, target):
            harm = chance * combat.expected_blast_damage(state, attacker, other, weapon)
            spill += harm if other.player != player else -FRIENDLY_FIRE * harm
    return spill


def _attack_plan(state: WarcasterState, unit: Unit, target_unit: Unit
                 ) -> tuple[tuple[int, int, int, int] | None, list[float], int, float]:
    """The attacks `unit` would make on `target_unit` (each model's weapons at the nearest model of the target, in
    the order they are made): the first as (stat, DEF, POW, ARM), the expected damage of each later one (no power
    dice), the target's health left, and the spill: the expected damage its spray (W14: every other model on the
    line) and blast (W13: the nearest two on a hit, the target on a miss) weapons do to other enemy models, less
    `FRIENDLY_FIRE` times what they do to friendly ones. Before, the greedy ignored the spill, so a squad sprayed
    through its own hero standing between it and the enemy."""
    attacks = []
    spill = 0.0
    options = state.options
    targets = target_unit.alive_models
    for model in unit.alive_models:
        target, distance = combat.nearest_in(model, targets)
        if target is None:
            break
        weapons = [w for w in model.spec.weapons
                   if distance <= w.rng and not (model.effects and state.blocked(model, w.type))]
        if weapons:
            defence = state.stat(target, "def")
            for w in weapons:
                attacks.append((combat.attack_stat(state, model, w), defence, combat.weapon_pow(state, model, w),
                                combat.armour_against(state, target, w)))
                if "spray" in w.qualities or "blast" in w.qualities:
                    spill += _spill(state, model, target, w, combat.attack_stat(state, model, w))
    remaining = sum(m.health for m in targets)
    if not attacks:
        return None, [], remaining, spill
    terms = [combat.chance_to_hit(options, stat, defence, 0) * combat.mean_damage(options, pow_, armour, 0)
             for stat, defence, pow_, armour in attacks[1:]]
    return attacks[0], terms, remaining, spill
