"""Attacks and damage (W11) with the weapon qualities strafe (W12), blast (W13), spray (W14) and the
continuous effects (W15: putting them on, removing them, their roll at the end of a pulse round), damage and
destruction (the points for a destroyed unit, W16), the attack of an activated unit (W10 phase 4) and which enemy
units it can reach, plus the action/power dice and the odds the greedy policy uses.

Dice [public]: an action die (white) shows 0,0,0,1,1,2 strikes, a power die (red) 0,1,1,1,1,2.
W11 [interpretation], option `dice_scale` (odds.py has the exact odds of both readings):
- "pools" (default): the attack roll rolls MAT/RAT action dice + 1 power die per arc spent, the defence roll DEF
  action dice; a hit when the attack's strikes exceed the defence's (option `attack_ties`: "defender", a tie
  misses; "attacker", a tie hits). Damage roll = POW action dice + the same power dice; damage = strikes − ARM
  (minimum 0; Armor-Piercing: ARM − 1), taken from health.
- "stat_plus_dice" (the earlier reading): attack roll = `attack_dice` action dice + the power dice; a hit when
  RAT/MAT + strikes ≥ DEF. Damage roll = `damage_dice` action dice + the same power dice; damage =
  POW + strikes − ARM (minimum 0).
A warjack's melee POW also gains its STR modifiers (e.g. 限界駆動 Redline's STR +2) [interpretation].

"After-attack rules" are what happens once per attack: the `after_attack` event and the attacker's `on_hit`
abilities (e.g. 狩人コルテックス Hunter Cortex); a hit also puts the weapon's effect qualities (fire, corrosion...)
on its target. Strafe's extra attacks are attacks and get both (W12). Blast's victims get neither (W13). Spray's
other models on the line take the weapon's damage roll and its effect qualities, which are the weapon's own, but
no after-attack rules: their hits are not attacks of their own (W14; the qualities: [interpretation]).
"""
from __future__ import annotations

import math
import random
from functools import lru_cache
from typing import Any, Callable, Final

from rules_engine.warcaster import deployment, odds
from rules_engine.warcaster.geometry import extend, gap, norm, segment_distance
from rules_engine.warcaster.models import EFFECT_NAMES, Ability, Weapon
from rules_engine.warcaster.state import Model, Table, Unit

_RANDOM: Final = random.Random  # a static, not a lookup on the random module at every die
ACTION_FACES = (0, 0, 0, 1, 1, 2)  # white action die
POWER_FACES = (0, 1, 1, 1, 1, 2)  # red power die
STRAFE_RANGE = 2  # W12: extra attacks on enemies within 2″ of the target
BLAST_RANGE = 2  # W13
BLAST_VICTIMS = 2  # W13: the 2 nearest models within 2″ of the target


def face(rng: random.Random) -> int:
    """A die face index 0–5: exactly `rng.randrange(6)` (the same number from the same generator, CPython's
    getrandbits rejection sampling) without random.py's Python layers. A subclass of Random (the tests' scripted
    dice) keeps its own randrange."""
    if type(rng) is not _RANDOM:
        return rng.randrange(6)
    index = rng.getrandbits(3)
    while index >= 6:
        index = rng.getrandbits(3)
    return index


def strikes(rng: random.Random, action: int, power: int) -> int:
    total = 0
    for _ in range(action):
        total += ACTION_FACES[face(rng)]
    for _ in range(power):
        total += POWER_FACES[face(rng)]
    return total


@lru_cache(maxsize=None)
def strike_distribution(action: int, power: int) -> tuple[float, ...]:
    """P(strikes = k) for k = 0.. on `action` action dice and `power` power dice (exact)."""
    dist = [1.0]
    for faces in (ACTION_FACES,) * action + (POWER_FACES,) * power:
        nxt = [0.0] * (len(dist) + 2)
        for k, p in enumerate(dist):
            for face in faces:
                nxt[k + face] += p / 6
        dist = nxt
    return tuple(dist)


# The greedy policy asks these for every attack it weighs: remembered in plain dicts (a compiled call to an
# lru_cache wrapper goes through Python's slow calling path). Few distinct arguments ever occur.
_HIT_CHANCE: dict[tuple[int, int, int, int], float] = {}
_EXPECTED_DAMAGE: dict[tuple[int, int, int, int], float] = {}


def hit_chance(stat: int, defence: int, action: int, power: int) -> float:
    """P(stat + strikes ≥ DEF) on `action` action dice and `power` power dice (W11)."""
    key = (stat, defence, action, power)
    found = _HIT_CHANCE.get(key)
    if found is None:
        found = _HIT_CHANCE[key] = sum(
            p for k, p in enumerate(strike_distribution(action, power)) if stat + k >= defence)
    return found


def expected_damage(pow_: int, arm: int, action: int, power: int) -> float:
    """E[max(0, POW + strikes − ARM)] on `action` action dice and `power` power dice (W11)."""
    key = (pow_, arm, action, power)
    found = _EXPECTED_DAMAGE.get(key)
    if found is None:
        found = _EXPECTED_DAMAGE[key] = sum(
            p * max(0, pow_ + k - arm) for k, p in enumerate(strike_distribution(action, power)))
    return found


def chance_to_hit(options: dict[str, Any], stat: int, defence: int, arc: int) -> float:
    """The greedy policy's P(hit) under the game's `dice_scale` (W11); the earlier reading keeps its own floats,
    so that its games stay the same to the last bit."""
    if options["dice_scale"] == "stat_plus_dice":
        return hit_chance(stat, defence, options["attack_dice"], arc)
    return odds.hit_chance("pools", options["attack_ties"], 0, stat, defence, arc)


def mean_damage(options: dict[str, Any], pow_: int, armour: int, arc: int) -> float:
    """The greedy policy's expected damage of one damage roll under `dice_scale` (W11); `armour` is the ARM the
    roll meets (Armor-Piercing already taken off)."""
    if options["dice_scale"] == "stat_plus_dice":
        return expected_damage(pow_, armour, options["damage_dice"], arc)
    return odds.expected_damage("pools", 0, pow_, armour, arc, False)


def armour_against(board: Table, target: Model, weapon: Weapon, *, ignore_cover: bool = False) -> int:
    """The ARM a weapon's damage roll meets: Armor-Piercing reduces it by 1 (「ARMを1減らして」)."""
    armour = board.stat(target, "arm", ignore_cover=ignore_cover)
    return max(0, armour - 1) if "armor_piercing" in weapon.qualities else armour


def attack_stat(board: Table, model: Model, weapon: Weapon) -> int:
    return board.stat(model, "mat" if weapon.type == "melee" else "rat")


def weapon_pow(board: Table, model: Model, weapon: Weapon) -> int:
    if weapon.type == "melee" and model.spec.kind == "warjack":
        return weapon.pow + board.stat(model, "str") - model.spec.str_
    return weapon.pow


def in_reach(attacker: Model, target: Model, weapon: Weapon) -> bool:
    return gap(attacker.disc, target.disc) <= weapon.rng


def nearest_in(attacker: Model, models: list[Model]) -> tuple[Model | None, float]:
    """The nearest of `models` to `attacker` and its edge-to-edge distance: if it is out of a weapon's reach,
    every other model is too, so one look serves all the attacker's weapons."""
    best, best_gap = None, math.inf
    x, y, r = attacker.x, attacker.y, attacker.spec.radius
    for model in models:
        d = norm(model.x - x, model.y - y) - r - model.spec.radius
        if d < best_gap or d == best_gap and best is not None and model.uid < best.uid:
            best, best_gap = model, d
    return best, max(0.0, best_gap)


def make_attack(board: Table, attacker: Model, target: Model, weapon: Weapon, arc: int, *,
                stat: int | None = None, origin: str = "weapon") -> None:
    """One attack (the arc already paid): strafe's roll right after the target is chosen (W12), the attack on the
    target, then strafe's extra attacks, each a separate attack with its own after-attack rules."""
    extra: list[Model] = []
    if "strafe" in weapon.qualities:
        rolled = strikes(board.rng, 0, 1)
        near = sorted((m for m in board.on_board(target.player) if m is not target
                       and gap(m.disc, target.disc) <= STRAFE_RANGE), key=lambda m: (gap(m.disc, target.disc), m.uid))
        extra = near[:rolled]
        board.log("strafe", attacker.player, {"attacker": attacker.uid, "target": target.uid, "strikes": rolled,
                                              "extra": [m.uid for m in extra]})
    single_attack(board, attacker, target, weapon, arc, stat=stat, kind=origin)
    for other in extra:
        if other.alive and attacker.alive:
            single_attack(board, attacker, other, weapon, 0, stat=stat, kind="strafe")


def single_attack(board: Table, attacker: Model, target: Model, weapon: Weapon, arc: int, *,
                  stat: int | None = None, kind: str = "weapon") -> bool:
    """Roll to hit (W11) and resolve one attack with blast (W13) and spray (W14). Returns True on a hit."""
    options = board.options
    spray = "spray" in weapon.qualities
    value = attack_stat(board, attacker, weapon) if stat is None else stat
    defence = board.stat(target, "def", ignore_cover=spray)  # W14: spray ignores cover
    data: dict[str, Any] = {"attacker": attacker.uid, "unit": attacker.unit, "target": target.uid,
                            "target_unit": target.unit, "weapon": weapon.name, "origin": kind, "arc": arc,
                            "stat": value, "defence": defence}
    if options["dice_scale"] == "pools":  # W11: MAT/RAT action dice + power dice against DEF action dice
        rolled = strikes(board.rng, value, arc)
        defended = strikes(board.rng, defence, 0)
        hit = rolled > defended or (rolled == defended and options["attack_ties"] == "attacker")
        data.update(strikes=rolled, defence_strikes=defended)
    else:  # W11 "stat_plus_dice": stat + strikes on `attack_dice` action dice + power dice ≥ DEF
        rolled = strikes(board.rng, options["attack_dice"], arc)
        hit = value + rolled >= defence
        data["strikes"] = rolled
    data.update(hit=hit, to=[target.x, target.y])
    data["from"] = [attacker.x, attacker.y]
    board.log("attack", attacker.player, data)
    pow_ = weapon_pow(board, attacker, weapon)
    if hit:
        damage_roll(board, attacker, target, pow_, arc, ignore_cover=spray, source=kind, weapon=weapon)
        apply_qualities(board, attacker, target, weapon, kind)
    if "blast" in weapon.qualities:
        blast(board, attacker, target, weapon, hit)
    if spray:
        spray_line(board, attacker, target, weapon)
    after_attack(board, attacker, target, hit)
    return hit


def damage_roll(board: Table, attacker: Model, target: Model, pow_: int, arc: int, *, ignore_cover: bool,
                source: str, weapon: Weapon) -> int:
    """W11's damage roll: "pools", POW action dice + power dice − ARM; "stat_plus_dice", POW + strikes − ARM."""
    armour = armour_against(board, target, weapon, ignore_cover=ignore_cover)
    if board.options["dice_scale"] == "pools":
        rolled = strikes(board.rng, pow_, arc)
        amount = max(0, rolled - armour)
    else:
        rolled = strikes(board.rng, board.options["damage_dice"], arc)
        amount = max(0, pow_ + rolled - armour)
    board.log("damage_roll", attacker.player, {"target": target.uid, "pow": pow_, "strikes": rolled, "arm": armour,
                                               "amount": amount})
    return deal_damage(board, target, amount, source, attacker.player)


def apply_qualities(board: Table, attacker: Model, target: Model, weapon: Weapon, source: str) -> None:
    if not target.alive:
        return
    for effect in sorted(weapon.qualities & EFFECT_NAMES):
        apply_effect(board, target, effect, attacker.player, f"{source}:{weapon.name}")


BLAST_READINGS = ("damage_roll", "half_pow", "half_pow_minus_arm")  # W13, option blast_damage


def blast_damage(board: Table, attacker: Model, model: Model, weapon: Weapon) -> None:
    """W13's blast damage to one victim (option `blast_damage`) [interpretation]. "damage_roll" (default): a damage
    roll of the weapon's POW against the victim's ARM (W11, Armor-Piercing applies; no power dice: the arc bought
    the attack's own rolls), as spray's other models take it (W14); seed 003 has blast on a miss finish off "高DEF
    低ARM" models, so blast damage passes DEF but meets ARM. "half_pow": ⌈POW/2⌉ straight to health (the reading
    made for the stat_plus_dice scale, where a hit did about that much); "half_pow_minus_arm": ⌈POW/2⌉ − ARM."""
    reading = board.options["blast_damage"]
    if reading == "damage_roll":
        damage_roll(board, attacker, model, weapon_pow(board, attacker, weapon), 0, ignore_cover=False,
                    source="blast", weapon=weapon)
        return
    amount = math.ceil(weapon.pow / 2)
    if reading == "half_pow_minus_arm":
        amount = max(0, amount - board.stat(model, "arm"))
    deal_damage(board, model, amount, "blast", attacker.player)


def blast(board: Table, attacker: Model, target: Model, weapon: Weapon, hit: bool) -> None:
    """W13: on a hit the 2 nearest models within 2″ of the target (friend or foe, the attacker included) take
    blast damage; on a miss the target does. Blast damage is not an attack: no after-attack rules."""
    if hit:
        victims = blast_victims_on_a_hit(board, target)
    else:
        victims = [target] if target.alive else []
    board.log("blast", attacker.player, {"attacker": attacker.uid, "target": target.uid, "hit": hit,
                                         "victims": [m.uid for m in victims], "at": [target.x, target.y]})
    for model in victims:
        if model.alive:
            blast_damage(board, attacker, model, weapon)


def spray_line(board: Table, attacker: Model, target: Model, weapon: Weapon) -> None:
    """W14: every other model on the line from the attacker through the target and on to the weapon's range is
    hit (friend or foe, cover ignored): a damage roll and the weapon's effect qualities each; these hits are not
    attacks of their own (個別の攻撃とは見なされない), so no after-attack rules (after_attack, on_hit) for them."""
    hit, (ex, ey) = spray_victims(board, attacker, target, weapon)
    board.log("spray", attacker.player, {"attacker": attacker.uid, "target": target.uid,
                                         "models": [m.uid for m in hit],
                                         "line": [[attacker.x, attacker.y], [round(ex, 2), round(ey, 2)]]})
    for model in hit:
        if model.alive:
            damage_roll(board, attacker, model, weapon.pow, 0, ignore_cover=True, source="spray",
                        weapon=weapon)
            apply_qualities(board, attacker, model, weapon, "spray")


def spray_victims(board: Table, attacker: Model, target: Model,
                  weapon: Weapon) -> tuple[list[Model], tuple[float, float]]:
    """W14: the other models a spray from `attacker` through `target` hits (nearest first) and the line's end."""
    length = attacker.spec.radius + weapon.rng
    ax, ay = attacker.x, attacker.y
    ex, ey = extend(ax, ay, target.x, target.y, max(length, norm(target.x - ax, target.y - ay)))
    hit = [m for m in board.on_board() if m is not attacker and m is not target
           and segment_distance(m.x, m.y, ax, ay, ex, ey) <= m.spec.radius]
    hit.sort(key=lambda m: (norm(m.x - ax, m.y - ay), m.uid))
    return hit, (ex, ey)


def blast_victims_on_a_hit(board: Table, target: Model) -> list[Model]:
    """W13: the 2 nearest models within 2″ of the target (friend or foe, the attacker included)."""
    centre = target.disc
    near = sorted((m for m in board.on_board() if m is not target and gap(m.disc, centre) <= BLAST_RANGE),
                  key=lambda m: (gap(m.disc, centre), m.uid))
    return near[:BLAST_VICTIMS]


def expected_blast_damage(board: Table, attacker: Model, model: Model, weapon: Weapon) -> float:
    """The mean blast damage one victim takes under the option `blast_damage` (W13), for the greedy policy."""
    reading = board.options["blast_damage"]
    if reading == "damage_roll":
        return mean_damage(board.options, weapon_pow(board, attacker, weapon), armour_against(board, model, weapon), 0)
    amount = math.ceil(weapon.pow / 2)
    if reading == "half_pow_minus_arm":
        amount = max(0, amount - board.stat(model, "arm"))
    return float(amount)


# The attacker's on-hit abilities are run by the effect vocabulary's `use_ability`, which cyphers.py (importing this
# module for its attack and damage effects) binds here when it loads; game.py imports cyphers.py.
ABILITY_RUNNER: list[Callable[[Table, Model, Ability, int | None], None]] = []


def after_attack(board: Table, attacker: Model, target: Model, hit: bool) -> None:
    board.log("after_attack", attacker.player, {"attacker": attacker.uid, "target": target.uid, "hit": hit})
    if hit and attacker.alive:
        for ability in attacker.spec.triggered("on_hit"):
            ABILITY_RUNNER[0](board, attacker, ability, None)


# --- the attack of an activated unit (W10 phase 4)
def attack_with_unit(board: Table, unit: Unit, target_unit: Unit, arc: int) -> None:
    """Every model of the unit attacks with each usable weapon that reaches the target unit, each at the
    nearest model of it; the arc spent buys power dice for the first attack (W11)."""
    deployment.spend_unit_arc(board, unit, arc)
    for model in list(unit.alive_models):
        for weapon in model.spec.weapons:
            if not model.alive or target_unit.status != "board" or board.blocked(model, weapon.type):
                continue
            target, distance = nearest_in(model, target_unit.alive_models)
            if target is not None and distance <= weapon.rng:
                make_attack(board, model, target, weapon, arc)
                arc = 0


def targets_in_reach(board: Table, unit: Unit) -> list[Unit]:
    """Enemy units that at least one of `unit`'s models can reach with a usable weapon (W15 system failure may
    forbid some), in uid order."""
    shooters = []
    for model in unit.alive_models:
        reach = model.spec.reach
        if model.effects:  # W15 system failure may forbid some of its weapons
            reach = max((w.rng for w in model.spec.weapons if not board.blocked(model, w.type)), default=-1)
        if reach >= 0:
            shooters.append((model.x, model.y, model.spec.radius + reach))
    found: list[Unit] = []
    if not shooters:
        return found
    seen = set()
    for target in board.on_board(1 - unit.player):
        if target.unit in seen:
            continue
        tx, ty, tr = target.x, target.y, target.spec.radius
        for x, y, reach in shooters:
            if norm(x - tx, y - ty) - tr <= reach:
                seen.add(target.unit)
                found.append(board.units[target.unit])
                break
    found.sort(key=lambda u: u.uid)
    return found


# --- damage and destruction
def deal_damage(board: Table, model: Model, amount: int, source: str, by: int | None, *,
                direct: bool = False) -> int:
    """Damage to health after shields (`direct`: straight to health, no shield absorbs it); logs it and destroys the
    model at 0. Returns damage taken."""
    if amount <= 0 or not model.alive:
        return 0
    if model.shield and not direct:
        absorbed = min(model.shield, amount)
        model.shield -= absorbed
        amount -= absorbed
        board.log("shield_absorbed", model.player, {"model": model.uid, "amount": absorbed})
    if amount <= 0:
        return 0
    taken = min(amount, model.health)
    model.health -= taken
    board.log("damage", model.player, {"model": model.uid, "unit": model.unit, "amount": taken, "source": source,
                                       "by": by, "health": model.health})
    if model.health <= 0:
        destroy_model(board, model, by)
    return taken


def destroy_model(board: Table, model: Model, by: int | None) -> None:
    model.alive = False
    board._board_cache = None  # only the on-table lists: the gaps of the others still hold
    unit = board.units[model.unit]
    unit.forget_alive()
    board.log("destroyed", model.player, {"model": model.uid, "unit": unit.uid, "code": model.spec.code, "by": by})
    if not unit.alive_models:
        destroy_unit(board, unit, by)


def destroy_unit(board: Table, unit: Unit, by: int | None) -> None:
    unit.status = "destroyed"
    board._board_cache = None
    board.sides[unit.player].pool += unit.arc  # its arc goes back to its owner's pool
    unit.arc = 0
    scorer = 1 - unit.player  # W16: points go to the destroyed unit's enemy, whatever destroyed it
    board.sides[scorer].vp += unit.spec.cst
    board.log("unit_destroyed", unit.player, {"unit": unit.uid, "code": unit.spec.code, "cst": unit.spec.cst,
                                              "by": by, "vp_to": scorer})


# --- continuous effects (W15)
def apply_effect(board: Table, model: Model, effect: str, source_player: int | None, source: str) -> bool:
    """Put a continuous effect on a model (lockdown: on its unit). False when immune or not applicable."""
    if not model.alive or effect in model.spec.immunities:
        return False
    if effect in ("system_failure", "tune_up") and model.spec.kind != "warjack":
        return False
    if effect == "lockdown":
        board.units[model.unit].lockdown = True
        data: dict[str, Any] = {"unit": model.unit}
    else:
        mode = 1
        if effect == "system_failure":
            roll = board.rng.randint(1, 6)  # W15: 1–3 no melee attacks, 4–6 no ranged attacks
            mode = 1 if roll <= 3 else 2
        model.effects[effect] = mode
        data = {"model": model.uid, "unit": model.unit}
        if effect == "system_failure":
            data["blocks"] = "melee" if mode == 1 else "ranged"
    board.log("effect", model.player, {"effect": effect, "change": "applied", "source": source,
                                       "by": source_player, **data})
    return True


def remove_effect(board: Table, model: Model, effect: str | None) -> None:
    """Remove one continuous effect (None: all of them, lockdown of its unit included)."""
    unit = board.units[model.unit]
    names = [effect] if effect else list(model.effects) + (["lockdown"] if unit.lockdown else [])
    for name in names:
        if name == "lockdown" and unit.lockdown:
            unit.lockdown = False
            board.log("effect", model.player, {"effect": name, "change": "removed", "unit": model.unit})
        elif name in model.effects:
            del model.effects[name]
            board.log("effect", model.player, {"effect": name, "change": "removed", "model": model.uid,
                                               "unit": model.unit})


def roll_continuous_effects(board: Table) -> None:
    """W15, at the end of a pulse round: one action die per effect per model (lockdown: per unit): a strike keeps
    it for the next round (fire and corrosion then deal the strikes as damage straight to health, which a cypher's
    shield does not absorb: seed 003 「ヘルスへの直接ダメージ」; option `continuous_damage_direct`); no strike ends it."""
    for unit in board.units:
        if unit.status != "board":
            continue
        if unit.lockdown:
            rolled = ACTION_FACES[face(board.rng)]
            unit.lockdown = rolled > 0
            board.log("effect", unit.player, {"effect": "lockdown", "unit": unit.uid, "roll": rolled,
                                              "change": "kept" if rolled else "ended"})
        for model in unit.alive_models:
            for effect in sorted(model.effects):
                rolled = ACTION_FACES[face(board.rng)]
                board.log("effect", model.player, {"effect": effect, "model": model.uid, "unit": unit.uid,
                                                   "roll": rolled, "change": "kept" if rolled else "ended"})
                if not rolled:
                    del model.effects[effect]
                elif effect in ("fire", "corrosion"):  # 「ヘルスへの直接ダメージ」 (seed 003): no shield absorbs it
                    deal_damage(board, model, rolled, effect, None,
                                direct=board.options["continuous_damage_direct"])
                if not model.alive:
                    break


# --- victory points (W16; destroyed units: destroy_unit)
def score_objective(board: Table) -> None:
    """W16: 2 points to the side with a model within 3″ of the centre and no enemy model there."""
    radius = board.options["objective_radius"]
    cx, cy = board.centre
    present = [False, False]
    for model in board.on_board():
        if gap(model.disc, (cx, cy, 0.0)) <= radius:
            present[model.player] = True
    for player in (0, 1):
        if present[player] and not present[1 - player]:
            board.sides[player].vp += board.options["objective_points"]
            board.log("score", player, {"points": board.options["objective_points"], "reason": "objective",
                                        "vp": board.sides[player].vp})
