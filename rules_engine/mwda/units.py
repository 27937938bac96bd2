"""MechWarrior: Dark Age unit data: package card dicts (docs/card-fields.md) → frozen engine specs.

The catalog validates packages against cards/schemas/mwda.schema.json; the engine checks again what it relies on,
so a snapshot edited by hand fails with `CardDataError` naming the card code and the field, never a crash.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules_engine.core.catalog import CardDataError
from rules_engine.mwda.geometry import BASE_RADIUS

KINDS = ("mech", "vehicle", "infantry")
DAMAGE_TYPES = ("ballistic", "energy")  # 実弾兵器 / エナジー兵器


@dataclass(frozen=True, slots=True)
class Weapon:
    min_range: int
    max_range: int
    energy: bool  # エナジー兵器: 1 damage to infantry (M16)

    def in_range(self, distance: float) -> bool:
        """M15: within max range, and not within a non-zero min range (「近すぎて射撃が当たらない」)."""
        if distance > self.max_range + 1e-9:
            return False
        return self.min_range == 0 or distance > self.min_range


@dataclass(frozen=True, slots=True)
class Click:
    """One click of the combat dial: 主/副ダメージ, 移動力, 攻撃力, 防御力."""

    primary_damage: int
    secondary_damage: int
    move: int
    attack: int
    defense: int


@dataclass(frozen=True, slots=True)
class HeatClick:
    """One click of the heat dial 熱ダイヤル: modifiers, or the shutdown click (M17)."""

    primary_damage: int
    secondary_damage: int
    move: int
    shutdown: bool


@dataclass(frozen=True, slots=True)
class UnitSpec:
    code: str
    name: str
    kind: str
    points: int
    order_bonus: int
    radius: float
    abilities: frozenset[str]
    primary: Weapon
    secondary: Weapon | None
    dial: tuple[Click, ...]
    heat_dial: tuple[HeatClick, ...]
    vent: int  # 放熱能力

    @property
    def is_mech(self) -> bool:
        return self.kind == "mech"

    @property
    def shutdown_heat(self) -> int:
        """Heat at which the mech shuts down: its first shutdown click, else past its last heat click."""
        for index, click in enumerate(self.heat_dial):
            if click.shutdown:
                return index + 1
        return len(self.heat_dial) + 1

    def has(self, ability: str) -> bool:
        return ability in self.abilities


def _int(card: Mapping[str, Any], code: str, field: str, *, minimum: int | None = 0, default: Any = None,
         where: str | None = None) -> int:
    value = card.get(field, default)
    if isinstance(value, bool) or not isinstance(value, int) or (minimum is not None and value < minimum):
        bound = f" ≥ {minimum}" if minimum is not None else ""
        raise CardDataError(code, where or field, f"expected an integer{bound}, got {value!r}")
    return value


def _weapon(card: Mapping[str, Any], code: str, field: str) -> Weapon:
    raw = card.get(field)
    if not isinstance(raw, Mapping):
        raise CardDataError(code, field, "expected an object {min_range, max_range, damage_type}")
    low = _int(raw, code, "min_range", where=f"{field}.min_range")
    high = _int(raw, code, "max_range", where=f"{field}.max_range")
    if high < low:
        raise CardDataError(code, f"{field}.max_range", f"{high} is below min_range {low}")
    damage_type = raw.get("damage_type")
    if damage_type not in DAMAGE_TYPES:
        raise CardDataError(code, f"{field}.damage_type", f"expected ballistic or energy, got {damage_type!r}")
    return Weapon(low, high, damage_type == "energy")


def _dial(card: Mapping[str, Any], code: str, mech: bool) -> tuple[Click, ...]:
    raw = card.get("dial")
    if not isinstance(raw, list) or not raw:
        raise CardDataError(code, "dial", "expected a list of at least one click")
    clicks = []
    for i, click in enumerate(raw):
        where = f"dial[{i}]"
        if not isinstance(click, Mapping):
            raise CardDataError(code, where, "expected an object")
        clicks.append(Click(
            _int(click, code, "primary_damage", where=f"{where}.primary_damage"),
            _int(click, code, "secondary_damage", where=f"{where}.secondary_damage") if mech else 0,
            _int(click, code, "move", where=f"{where}.move"),
            _int(click, code, "attack", where=f"{where}.attack"),
            _int(click, code, "defense", where=f"{where}.defense"),
        ))
    return tuple(clicks)


def _heat_dial(card: Mapping[str, Any], code: str) -> tuple[HeatClick, ...]:
    raw = card.get("heat_dial")
    if not isinstance(raw, list) or not raw:
        raise CardDataError(code, "heat_dial", "a mech needs a heat dial: a list of heat clicks")
    clicks = []
    for i, click in enumerate(raw):
        where = f"heat_dial[{i}]"
        if not isinstance(click, Mapping):
            raise CardDataError(code, where, "expected an object")
        shutdown = click.get("shutdown", False)
        if not isinstance(shutdown, bool):
            raise CardDataError(code, f"{where}.shutdown", f"expected true or false, got {shutdown!r}")
        primary, secondary, move = (_int(click, code, f, minimum=None, default=0, where=f"{where}.{f}")
                                    for f in ("primary_damage", "secondary_damage", "move"))
        clicks.append(HeatClick(primary, secondary, move, shutdown))
    return tuple(clicks)


def unit_spec(card: Mapping[str, Any]) -> UnitSpec:
    """Parse one MWDA card dict; CardDataError names the card code and the bad field."""
    if not isinstance(card, Mapping):
        raise CardDataError("?", "card", f"expected an object, got {type(card).__name__}")
    code = str(card.get("code", "?"))
    kind = card.get("kind")
    if kind not in KINDS:
        raise CardDataError(code, "kind", f"expected mech, vehicle or infantry, got {kind!r}")
    mech = kind == "mech"
    base = card.get("base", "standard")
    if base not in BASE_RADIUS:
        raise CardDataError(code, "base", f"expected standard or large, got {base!r}")
    abilities = card.get("abilities", [])
    if not isinstance(abilities, list) or not all(isinstance(a, str) for a in abilities):
        raise CardDataError(code, "abilities", "expected a list of ability names")
    return UnitSpec(
        code=code,
        name=str(card.get("name", code)),
        kind=kind,
        points=_int(card, code, "points", minimum=1),
        order_bonus=_int(card, code, "order_bonus", default=0),
        radius=BASE_RADIUS[base],
        abilities=frozenset(abilities),
        primary=_weapon(card, code, "primary"),
        secondary=_weapon(card, code, "secondary") if mech else None,
        dial=_dial(card, code, mech),
        heat_dial=_heat_dial(card, code) if mech else (),
        vent=_int(card, code, "vent") if mech else 0,
    )
