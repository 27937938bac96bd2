"""MechWarrior: Dark Age policies. `random` is the core's; these two are one-ply heuristics that score every
legal action in points of enemy army removed (expected) and pick the best, giving no order (`pass`) when nothing
scores above zero.

- `mwda-greedy`: focus fire (damaged and valuable targets first; a likely kill gets a bonus), keep the best
  range (walk or run towards the nearest enemy until it can shoot), vent when hot, push only when the expected
  damage beats the push's cost (a heat click for a mech — never into a shutdown — a click of damage otherwise).
  It minds the enemy's reach: a move or a charge costs what the enemy could then do to the unit on its next turn
  (`threat_at`: each enemy's best shot from where it stands, or its charge or death from above, its order count of
  them). M10 gives a unit one order a turn, so a unit that ends a move inside an enemy's reach is attacked before
  it can attack: the greedy walks into such a place only for a blow back worth twice as much (`OPPORTUNITY`),
  otherwise holds at the edge of the nearest enemy's reach (`A.Advance`), and falls back, when it has no shot,
  from attacks it cannot answer. §2.3 decides a battle at the round limit on points destroyed, and a draw wins
  nothing: a side level or behind on points loses patience as the game turns run out (`impatience`, `resolve`:
  one uniform draw of the policy's stream per decision) and then counts only a quarter of that threat, so it
  steps in for a 1:1 trade or worse; a side ahead keeps minding the reach. On a side's last turn (the round
  limit's round) no blow back follows, so nothing is worth a step into the reach.
- `mwda-defensive`: shoots from range but never charges or jumps in, falls back when it cannot shoot and an
  enemy threatens it, vents at the first heat click and pushes only for a likely kill.
"""
from __future__ import annotations

import random
from math import sqrt
from typing import TYPE_CHECKING

from rules_engine.core.policies import register_policy
from rules_engine.mwda import actions as A
from rules_engine.mwda import combat
from rules_engine.mwda import geometry as geo

if TYPE_CHECKING:  # typed, so that compiled code reads the state and its units directly (no Python attribute lookup)
    from rules_engine.mwda.game import MwdaState
    from rules_engine.mwda.state import Unit

KILL_BONUS = 0.5  # share of a unit's points added for eliminating it
OPPORTUNITY = 0.5  # share of next turn's best attack counted for a move that makes it possible
RESOLVE_TURNS = 16  # game turns left (both players') from which a side not ahead on points may lose patience
RESOLVE_FLOOR = 0.25  # the share of the added threat an impatient side still counts


def _value_per_click(target: Unit) -> float:
    spec = target.spec
    damaged = target.click / len(spec.dial)
    return spec.points / len(spec.dial) * (1.0 + damaged)


# The scores below run for every legal action at every step: they read the action records (actions.py) by index,
# typed as plain tuples — kind [0], uid [1], target [2] (Move: toward [2]), weapon [3] (Move: run [3]). A named field
# of a NamedTuple is a Python attribute lookup in compiled code: reading them by name here cost ~5 % of the
# compiled engine's game instructions (callgrind, benchmarks/bench_instructions.py: choose 226 M → 259 M of 597 M).


def attack_score(state: MwdaState, action: tuple) -> float:
    """Expected points removed by an attack action (`A.Shoot`, `A.Close`, `A.Charge`, `A.Dfa`)."""
    kind = action[0]
    unit, target = state.units[action[1]], state.units[action[2]]
    ranged = kind == "shoot"
    weapon = action[3] if ranged else 0  # Shoot.weapon
    chance = combat.chance_to_hit(combat.attack_value(state, unit, target, ranged=ranged),
                                  combat.defense_value(state, unit, target, ranged=ranged),
                                  state.options["attack_dice"])
    amount = combat.weapon_damage(unit, weapon)
    if kind == "dfa":
        amount += state.options["dfa_damage_bonus"]
    if ranged:
        amount = combat.damage_against(unit.spec, target.spec, weapon, amount)
    remaining = combat.remaining_clicks(target)
    dealt = min(amount, remaining)
    score = chance * dealt * _value_per_click(target)
    if dealt >= remaining:
        score += chance * KILL_BONUS * target.spec.points
    if kind == "dfa":
        score -= (1 - chance) * state.options["dfa_miss_damage"] * _value_per_click(unit)
    return score


def push_cost(unit: Unit, *, careful: bool) -> float:
    """M11: what giving this unit another order costs when it already carries a token."""
    if unit.tokens == 0:
        return 0.0
    if unit.spec.is_mech:
        if unit.heat + 1 >= unit.spec.shutdown_heat:
            return 1000.0  # never push into a shutdown
        return (6.0 if careful else 3.0) * (unit.heat + 1)
    return _value_per_click(unit) * (2.0 if careful else 1.0)


def nearest_enemy(state: MwdaState, unit: Unit) -> Unit:
    """The enemy nearest `unit` (edge to edge; ties: the lower uid)."""
    best: Unit | None = None  # min(key=...) written out: a compiled call to min with a key is slow
    best_edge = 0.0
    for enemy in state.enemies(unit):
        edge = state.edge(unit, enemy)
        if best is None or edge < best_edge or edge == best_edge and enemy.uid < best.uid:
            best, best_edge = enemy, edge
    if best is None:
        raise ValueError(f"unit {unit.uid} has no enemy on the table")
    return best


def threatened(state: MwdaState, unit: Unit) -> bool:
    """Some enemy that acts (not a goldfish) could reach and shoot this unit next turn (move + max range)."""
    return any(not state.goldfish[e.side] and state.edge(unit, e) <= combat.move_allowance(e) + e.spec.primary.max_range
               for e in state.enemies(unit))


def end_point(state: MwdaState, unit: Unit, toward: int, run: bool, advance: bool = False) -> tuple[float, float]:
    """Where an `A.Move` (or with `advance`, an `A.Advance`) would leave the unit if its straight line is clear (M13:
    the engine may detour or stop short)."""
    allowance = combat.move_allowance(unit) * (2.0 if run else 1.0)
    if toward >= 0:
        enemy = state.units[toward]
        travel = state.advance_travel(unit, enemy) if advance else state.approach_travel(unit, enemy)
        dx, dy = enemy.x - unit.x, enemy.y - unit.y
    else:
        enemy = nearest_enemy(state, unit)
        travel = allowance
        dx, dy = unit.x - enemy.x, unit.y - enemy.y
    norm = sqrt(dx * dx + dy * dy)
    if norm <= 0.0:
        return unit.x, unit.y
    if travel < 0:
        dx, dy, travel = -dx, -dy, -travel
    step = travel if travel < allowance else allowance
    x, y = unit.x + dx / norm * step, unit.y + dy / norm * step
    radius = unit.spec.radius
    x = radius if x < radius else geo.TABLE - radius if x > geo.TABLE - radius else x
    y = radius if y < radius else geo.TABLE - radius if y > geo.TABLE - radius else y
    return x, y


def blow_value(state: MwdaState, attacker: Unit, target: Unit, chance: float, amount: int) -> float:
    """Expected points removed from `target` by a blow of `amount` clicks hitting with `chance`."""
    remaining = combat.remaining_clicks(target)
    dealt = amount if amount < remaining else remaining
    score = chance * dealt * _value_per_click(target)
    if dealt >= remaining:
        score += chance * KILL_BONUS * target.spec.points
    return score


def best_blow(state: MwdaState, attacker: Unit, ax: float, ay: float, target: Unit, tx: float, ty: float) -> float:
    """The attacker's best attack on `target` (expected points) with the attacker at (ax, ay) and the target at
    (tx, ty), the attacker given one order and not moving first except for a charge or death from above (M15, M16):
    a shot in its weapon's band with line of fire (or indirect fire), or a close attack within its move allowance."""
    edge = sqrt((ax - tx) ** 2 + (ay - ty) ** 2) - attacker.spec.radius - target.spec.radius
    if edge < 0.0:
        edge = 0.0
    dice = state.options["attack_dice"]
    attack = combat.click(attacker).attack
    defense = combat.click(target).defense
    chance = combat.chance_to_hit(attack, defense, dice)
    best = 0.0
    for weapon in (0, 1):
        arm = attacker.spec.primary if weapon == 0 else attacker.spec.secondary
        if arm is None or not arm.in_range(edge):
            continue
        amount = combat.damage_against(attacker.spec, target.spec, weapon, combat.weapon_damage(attacker, weapon))
        if amount <= 0:
            continue
        if not attacker.spec.has("indirect_fire"):
            others = [(u.x, u.y, u.spec.radius) for u in state.units
                      if u.alive and u is not attacker and u is not target] if state.options["bases_block_fire"] else []
            if not geo.line_of_fire(ax, ay, tx, ty, state.layout, others):
                continue
        value = blow_value(state, attacker, target, chance, amount)
        if value > best:
            best = value
    damage = combat.primary_damage(attacker)
    if damage > 0 and attacker.flying == target.flying and edge <= combat.move_allowance(attacker):
        if attacker.spec.has("jump") and not attacker.flying:
            damage += state.options["dfa_damage_bonus"]
        value = blow_value(state, attacker, target, chance, damage)
        if value > best:
            best = value
    return best


def threat_at(state: MwdaState, unit: Unit, x: float, y: float) -> float:
    """Expected points the enemy could remove from `unit` on its next turn were `unit` standing at (x, y): each
    enemy that may be ordered then (not a goldfish, fewer than 2 tokens) with its best attack from where it stands
    (or a charge), when that is worth what pushing would cost it (M11); the enemy's order count (M2) of the
    largest."""
    values: list[float] = []
    side = 1 - unit.side
    for enemy in state.units:
        if not enemy.alive or enemy.side == unit.side or state.goldfish[enemy.side] or enemy.tokens >= 2:
            continue
        value = best_blow(state, enemy, enemy.x, enemy.y, unit, x, y)
        if value > push_cost(enemy, careful=False):  # worth its push (M11): it attacks, and the blow lands in full
            values.append(value)
    values.sort(reverse=True)
    total = 0.0
    for value in values[:state.orders[side]]:
        total += value
    return total


def chance_at(state: MwdaState, unit: Unit, x: float, y: float) -> float:
    """The best attack `unit` could make on its next turn from (x, y) at the enemies where they stand."""
    best = 0.0
    for enemy in state.units:
        if enemy.alive and enemy.side != unit.side:
            value = best_blow(state, unit, x, y, enemy, enemy.x, enemy.y)
            if value > best:
                best = value
    return best


def impatience(state: MwdaState, side: int) -> float:
    """How likely `side` is to step into the enemy's reach this turn (`resolve`): 0 while it is ahead on points
    destroyed or more than `RESOLVE_TURNS` game turns (both players' turns, this one included) are left, then the
    share of those turns already gone."""
    if state.points_destroyed[side] > state.points_destroyed[1 - side]:
        return 0.0
    left = 2 * (state.options["max_rounds"] - state.round) + (2 if state.active == state.first else 1)
    if left >= RESOLVE_TURNS:
        return 0.0
    return 1.0 - left / RESOLVE_TURNS


def resolve(state: MwdaState, side: int, draw: float) -> float:
    """The share of the added threat (`threat_at`) a side counts against a move, a charge or a death from above.
    §2.3 decides the battle at the round limit on points destroyed, equal points a draw, which wins neither side
    anything: a side ahead keeps minding the enemy's reach (1); a side level or behind loses patience as the game
    turns run out, counting only `RESOLVE_FLOOR` of the threat when `draw` (uniform in [0, 1)) falls below its
    `impatience`. The draw keeps the moment unforeseeable: in a mirror the side that steps into the other's reach
    first is shot first (M10), so a fixed moment would hand the battle to whichever seat reaches it first."""
    return RESOLVE_FLOOR if draw < impatience(state, side) else 1.0


class _Heuristic:
    name = "mwda-heuristic"
    careful = False
    melee_factor = 1.0

    def choose(self, state: MwdaState, rng: random.Random) -> A.Action:
        actions = state.legal_actions()
        self._nearest: dict[int, Unit] = {}
        self._here: dict[int, float] = {}
        self._resolve = resolve(state, state.active, rng.random())
        self._later = state.round < state.options["max_rounds"]  # a turn after this one, for a blow back
        best, best_score = actions[0], self.score(state, actions[0])
        for action in actions[1:]:  # the best score; on a tie, the action listed first
            score = self.score(state, action)
            if score > best_score:
                best, best_score = action, score
        return best

    def nearest(self, state: MwdaState, unit: Unit) -> Unit:
        found = self._nearest.get(unit.uid)
        if found is None:
            found = self._nearest[unit.uid] = nearest_enemy(state, unit)
        return found

    def threat_here(self, state: MwdaState, unit: Unit) -> float:
        """`threat_at` where the unit stands (cached for the decision, like `nearest`)."""
        found = self._here.get(unit.uid)
        if found is None:
            found = self._here[unit.uid] = threat_at(state, unit, unit.x, unit.y)
        return found

    def score(self, state: MwdaState, action: tuple) -> float:
        """Expected points removed (or a move's or vent's worth) minus the push's cost; index reads, see above."""
        kind = action[0]
        if kind == "pass":
            return 0.0
        unit = state.units[action[1]]
        if kind == "vent":
            return self.vent_score(unit)
        cost = push_cost(unit, careful=self.careful)
        if kind == "move":
            return self.move_score(state, unit, action) - cost
        if kind == "advance":
            return self.advance_score(state, unit, action) - cost
        score = attack_score(state, action)
        if kind in ("charge", "dfa"):
            score *= self.melee_factor
            path = state.contact_paths.get(action)
            if path:  # the attacker ends in base contact: what the enemy can then do to it (its target included)
                x, y = path[-1]
                score -= self._resolve * (threat_at(state, unit, x, y) - self.threat_here(state, unit))
        return score - cost

    def vent_score(self, unit: Unit) -> float:
        if unit.heat + 1 >= unit.spec.shutdown_heat:
            return 50.0
        return 8.0 * unit.heat if unit.heat >= (1 if self.careful else 2) else -1.0

    def move_score(self, state: MwdaState, unit: Unit, action: tuple) -> float:
        """An `A.Move`: walk (or run) towards the nearest enemy to the best range; retreat_score for away."""
        toward, run = action[2], action[3]  # Move.toward, Move.run
        if unit.uid in state.shooters:
            return -1.0
        if toward < 0:
            return self.retreat_score(state, unit, run)
        nearest = self.nearest(state, unit)
        if state.units[toward] is not nearest:
            return -1.0
        reach = combat.move_allowance(unit)
        travel = state.approach_travel(unit, nearest)
        if run:
            base = 2.0 if travel > reach else -1.0
        else:
            base = 3.0 if travel <= reach else 1.0
        if base < 0:
            return base
        x, y = end_point(state, unit, toward, run)
        danger = self._resolve * (threat_at(state, unit, x, y) - self.threat_here(state, unit))
        blow = OPPORTUNITY * chance_at(state, unit, x, y) if self._later else 0.0
        if danger > 0.0:  # the enemy attacks first (M10): worth it only for a much bigger blow back
            return blow - danger
        return base + blow

    def advance_score(self, state: MwdaState, unit: Unit, action: tuple) -> float:
        """An `A.Advance`: to the edge of the nearest enemy's reach, when nothing else there can attack first."""
        toward, run = action[2], action[3]  # Advance.toward, Advance.run
        if unit.uid in state.shooters or state.units[toward] is not self.nearest(state, unit):
            return -1.0
        reach = combat.move_allowance(unit)
        travel = state.advance_travel(unit, state.units[toward])
        if run and travel <= reach:
            return -1.0
        x, y = end_point(state, unit, toward, run, advance=True)
        danger = self._resolve * (threat_at(state, unit, x, y) - self.threat_here(state, unit))
        blow = OPPORTUNITY * chance_at(state, unit, x, y) if self._later else 0.0
        if danger > 0.0:
            return blow - danger
        return (1.5 if run else 2.5) + blow

    def retreat_score(self, state: MwdaState, unit: Unit, run: bool) -> float:
        """Fall back when it takes the unit out of enemy attacks it cannot answer (it has no shot this turn)."""
        x, y = end_point(state, unit, -1, run)
        gain = self.threat_here(state, unit) - threat_at(state, unit, x, y)
        return gain - (2.0 if run else 1.0) if gain > 0.0 else -5.0


class GreedyPolicy(_Heuristic):
    name = "mwda-greedy"


class DefensivePolicy(_Heuristic):
    name = "mwda-defensive"
    careful = True
    melee_factor = 0.0

    def score(self, state: MwdaState, action: tuple) -> float:
        if action[0] in ("charge", "dfa"):
            return -1.0
        return super().score(state, action)

    def retreat_score(self, state: MwdaState, unit: Unit, run: bool) -> float:
        if threatened(state, unit):
            return 2.5 if run else 2.0
        return -5.0


# Registered after the classes (not with the decorator), so that mypyc compiles them as native classes.
register_policy("mwda-greedy")(GreedyPolicy)
register_policy("mwda-defensive")(DefensivePolicy)
