"""Attacks, damage, elimination and heat (RULES.md M11, M15–M17), on the units of a `Table` (state.py).

Attack rolls use the state's rng only: hit when attack + `attack_dice`D6 ≥ defense (M15). Damage turns the
combat dial one click per point; the unit is eliminated past its last click (M16). Heat clicks modify the mech's
damage and move; reaching the shutdown click shuts it down (M17, interpretation `shutdown`: heat clears to 0 and
the mech takes 2 action tokens, so it cannot be ordered on its player's next turn). The shoot and close orders
are here (`shoot`, `close`); charge and death from above move first (movement.py) and attack with
`resolve_attack`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.mwda.units import Click, HeatClick, UnitSpec

if TYPE_CHECKING:
    from rules_engine.mwda import actions as A
    from rules_engine.mwda.state import Table, Unit

NO_HEAT = HeatClick(0, 0, 0, False)
ECM_RADIUS = 6.0  # ecm: enemy ranged attacks against units within 6″ of it get attack −1


_HIT_CHANCES: dict[int, tuple[float, ...]] = {}  # a plain dict: a compiled call to an lru_cache wrapper is slow


def hit_chances(dice: int) -> tuple[float, ...]:
    """P(sum of `dice` d6 ≥ k) for k = 0 .. 6·dice + 1 (M15's 3D6 by default)."""
    found = _HIT_CHANCES.get(dice)
    if found is None:
        found = _HIT_CHANCES[dice] = _hit_chances(dice)
    return found


def _hit_chances(dice: int) -> tuple[float, ...]:
    counts = [1]
    for _ in range(dice):
        nxt = [0] * (len(counts) + 6)
        for total, ways in enumerate(counts):
            for face in range(1, 7):
                nxt[total + face] += ways
        counts = nxt
    whole = 6 ** dice
    at_least = []
    running = whole
    for k in range(len(counts) + 1):
        at_least.append(running / whole)
        if k < len(counts):
            running -= counts[k]
    return tuple(at_least)


def chance_to_hit(attack: int, defense: int, dice: int) -> float:
    """P(attack + dice·d6 ≥ defense)."""
    need = defense - attack
    table = hit_chances(dice)
    if need <= 0:
        return 1.0
    return table[need] if need < len(table) else 0.0


def heat_click(unit: Unit) -> HeatClick:
    """The heat click in force (heat N → heat_dial[N-1]); no modifiers at heat 0."""
    heat = unit.heat
    if heat <= 0:
        return NO_HEAT
    dial = unit.spec.heat_dial
    return dial[min(heat, len(dial)) - 1]


def click(unit: Unit) -> Click:
    return unit.spec.dial[unit.click]


def primary_damage(unit: Unit) -> int:
    """M17: the combat click's primary damage plus the heat modifier (never below 0)."""
    return max(0, click(unit).primary_damage + heat_click(unit).primary_damage)


def secondary_damage(unit: Unit) -> int:
    return max(0, click(unit).secondary_damage + heat_click(unit).secondary_damage)


def move_allowance(unit: Unit) -> int:
    """M13/M17: 移動力 of the click plus the heat modifier (never below 0)."""
    return max(0, click(unit).move + heat_click(unit).move)


def weapon_damage(unit: Unit, weapon: int) -> int:
    return primary_damage(unit) if weapon == 0 else secondary_damage(unit)


def damage_against(spec: UnitSpec, target: UnitSpec, weapon: int, amount: int) -> int:
    """M16: an energy weapon deals only 1 damage to infantry."""
    arm = spec.primary if weapon == 0 else spec.secondary
    if arm is not None and arm.energy and target.kind == "infantry" and amount > 1:
        return 1
    return amount


def remaining_clicks(unit: Unit) -> int:
    """Damage the unit can still take before it is eliminated."""
    return len(unit.spec.dial) - unit.click


def apply_damage(state: Table, unit: Unit, amount: int, *, source: int | None, reason: str) -> None:
    """M16: turn the dial one click per point; past the last click the unit is eliminated."""
    if amount <= 0 or not unit.alive:
        return
    taken = min(amount, remaining_clicks(unit))
    unit.click += taken
    if source is not None:
        state.damage_dealt[source] += taken
    state.log("damage", unit.side, {"unit": unit.uid, "amount": amount, "click": unit.click,
                                    "clicks": len(unit.spec.dial), "source": source, "reason": reason})
    if unit.click >= len(unit.spec.dial):
        eliminate(state, unit, by=source)


def eliminate(state: Table, unit: Unit, *, by: int | None) -> None:
    """M16: the unit leaves the table; its points count for the other side whatever eliminated it (§2.3)."""
    unit.alive = False
    unit.tokens = 0
    state.table_changed()
    enemy = 1 - unit.side
    state.points_destroyed[enemy] += unit.spec.points
    state.log("eliminated", unit.side, {"unit": unit.uid, "code": unit.spec.code, "points": unit.spec.points,
                                        "by": by, "at": state.position(unit)})


def add_heat(state: Table, unit: Unit, clicks: int, reason: str) -> None:
    """M11/M17: a mech gains heat; at the shutdown click it shuts down (heat clears, 2 action tokens)."""
    unit.heat += clicks
    state.log("heat", unit.side, {"unit": unit.uid, "heat": unit.heat, "change": clicks, "reason": reason})
    if unit.heat >= unit.spec.shutdown_heat:
        unit.heat = 0
        unit.tokens = 2
        state.shutdowns[unit.side] += 1
        state.log("shutdown", unit.side, {"unit": unit.uid, "heat": 0, "tokens": 2})


def vent(state: Table, unit: Unit, amount: int, reason: str) -> None:
    """冷却: remove up to `amount` heat clicks."""
    before = unit.heat
    unit.heat = max(0, unit.heat - amount)
    if unit.heat != before:
        state.log("vent", unit.side, {"unit": unit.uid, "heat": unit.heat, "change": unit.heat - before,
                                      "reason": reason})


def attack_value(state: Table, attacker: Unit, target: Unit, *, ranged: bool) -> int:
    """攻撃力, with −1 for each ecm unit of the target's side within 6″ of the target (ranged attacks only)."""
    value = click(attacker).attack
    if ranged:
        for other in state.units:
            if other.alive and other.side == target.side and other.spec.has("ecm"):
                if other is target or state.edge(other, target) <= ECM_RADIUS:
                    value -= 1
                    break
    return value


def defense_value(state: Table, attacker: Unit, target: Unit, *, ranged: bool) -> int:
    """防御力, +hindering_defense when a ranged attack's line of fire crosses hindering terrain."""
    value = click(target).defense
    if ranged and state.is_hindered(attacker, target):
        value += state.options["hindering_defense"]
    return value


def resolve_attack(state: Table, attacker: Unit, target: Unit, *, kind: str, weapon: int = 0,
                   bonus_damage: int = 0) -> bool:
    """Roll one attack (M15): attack + dice ≥ defense hits; a hit deals the weapon's damage (M16). Returns hit."""
    ranged = kind == "shoot"
    attack = attack_value(state, attacker, target, ranged=ranged)
    defense = defense_value(state, attacker, target, ranged=ranged)
    dice = state.options["attack_dice"]
    rolled = [state.rng.randint(1, 6) for _ in range(dice)]
    hit = attack + sum(rolled) >= defense
    amount = weapon_damage(attacker, weapon) + bonus_damage
    if ranged:
        amount = damage_against(attacker.spec, target.spec, weapon, amount)
    state.log("attack", attacker.side, {"unit": attacker.uid, "target": target.uid, "attack_kind": kind,
                                        "weapon": "secondary" if weapon else "primary",
                                        "origin": state.position(attacker), "to": state.position(target),
                                        "roll": rolled, "attack": attack, "defense": defense, "hit": hit,
                                        "damage": amount if hit else 0})
    if hit:
        apply_damage(state, target, amount, source=attacker.uid, reason=kind)
    return hit


def shoot(state: Table, unit: Unit, action: A.Shoot) -> None:
    """The shoot order: a ranged attack with the primary (weapon 0) or secondary (1) weapon (M15, M16)."""
    resolve_attack(state, unit, state.units[action.target], kind="shoot", weapon=action.weapon)


def close(state: Table, unit: Unit, action: A.Close) -> None:
    """The close order: close combat 白兵戦 against an enemy in base contact (M16)."""
    resolve_attack(state, unit, state.units[action.target], kind="close")
