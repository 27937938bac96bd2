"""Exact odds of the Warcaster dice (W11), by enumeration: no sampling.

Dice [public]: an action die (white, アクションダイス) shows 0,0,0,1,1,2 strikes, a power die (red, パワーダイス)
0,1,1,1,1,2. The distribution of the strikes of a pool is the convolution of its dice's faces, as exact fractions.

Two readings of W11 (option `dice_scale`):

- "pools" (default) [interpretation]: the attack roll rolls MAT/RAT action dice (+ power dice: arc spent), the
  defence roll DEF action dice (+ power dice an ability adds); the attack hits when its strikes exceed the
  defence's (`attack_ties` = "defender": a tie misses; "attacker": a tie hits). The damage roll rolls POW action
  dice (+ the same power dice); damage = strikes − ARM, minimum 0; Armor-Piercing (アーマーピアシング) reduces
  the target's ARM by 1 for that roll.
- "stat_plus_dice" (the earlier reading, for packages on its scale): `attack_dice` action dice (+ power dice);
  a hit when stat + strikes ≥ DEF; damage = POW + strikes (on `damage_dice` action dice + power dice) − ARM.

`hit_probability` and `damage_distribution` give Fractions (the card pages show them); `hit_chance` and
`expected_damage` give floats for the greedy policy, remembered in plain dicts (few distinct arguments occur).
"""
from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

ACTION_FACES = (0, 0, 0, 1, 1, 2)  # white action die
POWER_FACES = (0, 1, 1, 1, 1, 2)  # red power die
DICE_SCALES = ("pools", "stat_plus_dice")
ATTACK_TIES = ("defender", "attacker")
SIXTH = Fraction(1, 6)


@lru_cache(maxsize=None)
def strike_distribution(action: int, power: int) -> tuple[Fraction, ...]:
    """P(strikes = k) for k = 0.. on `action` action dice and `power` power dice, exact: the dice's faces
    convolved one die at a time."""
    dist = [Fraction(1)]
    for faces in (ACTION_FACES,) * max(0, action) + (POWER_FACES,) * max(0, power):
        nxt = [Fraction(0)] * (len(dist) + 2)
        for k, p in enumerate(dist):
            if p:
                for face in faces:
                    nxt[k + face] += p * SIXTH
        dist = nxt
    return tuple(dist)


def hit_probability(attack: int, defence: int, power: int = 0, *, scale: str = "pools", ties: str = "defender",
                    defence_power: int = 0, attack_dice: int = 3) -> Fraction:
    """P(the attack hits): `attack` the attacker's MAT/RAT, `defence` the target's DEF, `power` the power dice
    the attack buys (arc), `defence_power` power dice added to the defence roll ("pools" only)."""
    if scale == "stat_plus_dice":
        return sum((p for k, p in enumerate(strike_distribution(attack_dice, power)) if attack + k >= defence),
                   Fraction(0))
    rolled = strike_distribution(attack, power)
    against = strike_distribution(defence, defence_power)
    total = Fraction(0)
    below = Fraction(0)  # P(defence strikes < k), then ≤ k for ties to the attacker
    for k, p in enumerate(rolled):
        if ties == "attacker" and k < len(against):
            total += p * (below + against[k])
        else:
            total += p * below
        if k < len(against):
            below += against[k]
    return total


def damage_distribution(pow_: int, arm: int, power: int = 0, *, scale: str = "pools", armor_piercing: bool = False,
                        damage_dice: int = 3) -> tuple[Fraction, ...]:
    """P(damage = d) for d = 0.. of one damage roll of a weapon of POW `pow_` against ARM `arm` (Armor-Piercing:
    ARM − 1, not below 0), with `power` power dice."""
    armour = max(0, arm - 1) if armor_piercing else arm
    if scale == "stat_plus_dice":
        rolled = strike_distribution(damage_dice, power)
        offset = pow_ - armour
    else:
        rolled = strike_distribution(pow_, power)
        offset = -armour
    top = max(0, len(rolled) - 1 + offset)
    dist = [Fraction(0)] * (top + 1)
    for k, p in enumerate(rolled):
        dist[max(0, k + offset)] += p
    return tuple(dist)


def mean(dist: tuple[Fraction, ...]) -> Fraction:
    return sum((d * p for d, p in enumerate(dist)), Fraction(0))


# The greedy policy's floats: (scale, ties, attack_dice, stat, DEF, power) and (scale, damage_dice, POW, ARM,
# power, armor_piercing) -> value.
_HIT: dict[tuple[str, str, int, int, int, int], float] = {}
_DAMAGE: dict[tuple[str, int, int, int, int, bool], float] = {}


def hit_chance(scale: str, ties: str, attack_dice: int, stat: int, defence: int, power: int) -> float:
    key = (scale, ties, attack_dice, stat, defence, power)
    found = _HIT.get(key)
    if found is None:
        found = _HIT[key] = float(hit_probability(stat, defence, power, scale=scale, ties=ties,
                                                  attack_dice=attack_dice))
    return found


def expected_damage(scale: str, damage_dice: int, pow_: int, arm: int, power: int, armor_piercing: bool) -> float:
    key = (scale, damage_dice, pow_, arm, power, armor_piercing)
    found = _DAMAGE.get(key)
    if found is None:
        found = _DAMAGE[key] = float(mean(damage_distribution(pow_, arm, power, scale=scale,
                                                              armor_piercing=armor_piercing,
                                                              damage_dice=damage_dice)))
    return found


# --- a weapon of a card against a target card (the card pages, through the registry: rules_engine/systems.py)
MODEL_KINDS = ("hero", "hero_attachment", "squad_attachment", "squad", "solo", "vehicle", "warjack", "mantlet")


def _stat(card: Mapping[str, Any], name: str) -> int:
    value = (card.get("stats") or {}).get(name, 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def can_be_targeted(card: Mapping[str, Any]) -> bool:
    return card.get("kind") in MODEL_KINDS and isinstance(card.get("stats"), Mapping)


def weapon_odds(attacker: Mapping[str, Any], weapon: Mapping[str, Any], target: Mapping[str, Any], *,
                scale: str = "pools", ties: str = "defender", arc: int = 0) -> dict[str, Any]:
    """The exact odds of one attack (W11) of `attacker`'s `weapon` (a card's weapon: type, pow, qualities) on
    `target` (a model card), with `arc` power dice: {"stat", "defence", "arm", "hit": Fraction, "damage": (P(0),
    P(1), ...) of the damage roll once it hits, "mean": expected damage of the attack}. Base stats only: no aura,
    cover or effect."""
    stat = _stat(attacker, "mat" if weapon.get("type") == "melee" else "rat")
    defence, arm = _stat(target, "def"), _stat(target, "arm")
    raw_pow = weapon.get("pow")
    pow_ = raw_pow if isinstance(raw_pow, int) and not isinstance(raw_pow, bool) else 0
    hit = hit_probability(stat, defence, arc, scale=scale, ties=ties)
    damage = damage_distribution(pow_, arm, arc, scale=scale,
                                 armor_piercing="armor_piercing" in (weapon.get("qualities") or ()))
    return {"stat": stat, "defence": defence, "arm": arm, "hit": hit, "damage": damage, "mean": hit * mean(damage)}


def typical_target(cards: Mapping[str, Mapping[str, Any]]) -> str | None:
    """The code of the model card nearest the catalog's median DEF and ARM (ties: the lowest code): the target a
    card page shows odds against until one is chosen."""
    models = sorted(code for code, card in cards.items() if can_be_targeted(card))
    if not models:
        return None
    defs = sorted(_stat(cards[c], "def") for c in models)
    arms = sorted(_stat(cards[c], "arm") for c in models)
    mid_def, mid_arm = defs[len(defs) // 2], arms[len(arms) // 2]
    return min(models, key=lambda c: (abs(_stat(cards[c], "def") - mid_def) + abs(_stat(cards[c], "arm") - mid_arm), c))
