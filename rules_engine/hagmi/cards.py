"""HAGMI! card data → frozen engine dataclasses (docs/card-fields.md, docs/data-packages.md §2–§3).

The engine never reads a raw package dict during play: `parse_card` turns each catalog card into a `HagmiCard`
once, checking every skill against the registry in `skills.py`, so that a bad card fails here with its code and
field named instead of in the middle of a game.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Iterable, Mapping

from rules_engine.core.catalog import CardDataError
from rules_engine.hagmi.skills import validate_skill

REFIT_TYPE = "改装"  # タイプ：改装 (H21)
_FIREPOWER = re.compile(r"^([0-9]+)(?:x([0-9]+))?$")


@dataclass(frozen=True)
class Skill:
    """One skill or effect: `{"kind", "trigger", params}`. `trigger` is "" for effects (bounty, attrition)."""

    kind: str
    trigger: str
    params: Mapping[str, Any]
    once_per_turn: bool = False
    condition: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def get(self, key: str, default: Any = None) -> Any:
        return self.params.get(key, default)


@dataclass(frozen=True)
class Attrition:
    """機獣核損耗能力: fires once when the mothership's cores drop to `at` or fewer (H30 step 8)."""

    at: int
    effects: tuple[Skill, ...]


@dataclass(frozen=True)
class HagmiCard:
    code: str
    name: str
    category: str
    frame: str = ""
    subtype: str = ""
    cost: int = 0
    pilot: str = ""
    types: tuple[str, ...] = ()
    firepower: int = 0  # 火力 per hit
    hits: int = 1  # 連続攻撃 N×M: M (H10)
    armor: int = 0
    range: int = 0
    fuel_cost: int = 0  # 燃費
    targets: str = "single"  # 攻撃範囲
    durability: int = 0  # 耐久 (armaments)
    equip_types: tuple[str, ...] | None = None  # None: any unit
    skills: tuple[Skill, ...] = ()
    usable_from_secret: bool = False  # 秘策から使用できる (H20)
    energy: int = 0  # 消費エネルギー
    life_cores: int = 0  # ライフコア
    action_order: int = 0  # 行動順序
    bounty: Skill | None = None  # 賞金首
    cores: int = 0  # 機獣核 (mothership)
    attrition: tuple[Attrition, ...] = ()

    # Derived in __post_init__: not arguments, not compared, not shown (equality, hashing and repr are those of
    # the fields above). Declared here so that mypyc gives them native slots.
    _by_trigger: dict[str, tuple[Skill, ...]] = field(init=False, compare=False, repr=False)
    _max_targets: int | None = field(init=False, compare=False, repr=False)
    static_self: tuple[Skill, ...] = field(init=False, compare=False, repr=False)
    static_equipped: tuple[Skill, ...] = field(init=False, compare=False, repr=False)
    static_friendly: tuple[Skill, ...] = field(init=False, compare=False, repr=False)
    type_set: frozenset[str] = field(init=False, compare=False, repr=False)
    play_window: str | None = field(init=False, compare=False, repr=False)
    main_skills: tuple[tuple[int, Skill], ...] = field(init=False, compare=False, repr=False)
    emergency_skills: tuple[tuple[int, Skill], ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        # Performance: the engine asks a card for its skills by trigger (and for its passive static skills)
        # hundreds of thousands of times per run; the card is frozen, so these are computed once here.
        # They are fields with init=False, compare=False: equality, hashing and repr are unchanged.
        by_trigger: dict[str, tuple[Skill, ...]] = {}
        for skill in self.skills:
            by_trigger[skill.trigger] = by_trigger.get(skill.trigger, ()) + (skill,)
        static = by_trigger.get("static", ())
        derived = {
            "_by_trigger": by_trigger,
            # static skills by whom they affect (state.py `_static_skills`)
            "static_self": tuple(s for s in static if s.get("target", "self") == "self"),
            "static_equipped": tuple(s for s in static if s.get("target") == "equipped_unit"),
            "static_friendly": tuple(s for s in static if s.get("target") in ("all_friendly_units", "all_units")),
            "type_set": frozenset(self.types),
            "_max_targets": self._parse_max_targets(),
            # when the card can be played (legal.py `playable_cards`): an order (指令) with a 緊急 skill in an
            # emergency window; other cards but damage and design cards in the main phase — a unit, armament or
            # facility with a 緊急 skill too: it uses that skill from the battlefield (H10, legal.py)
            "play_window": "emergency" if self.category == "tactic" and self.subtype != "facility"
                           and "emergency" in by_trigger
                           else None if self.category in ("damage", "design") else "main",
            "main_skills": tuple((i, s) for i, s in enumerate(self.skills) if s.trigger == "main"),  # (index, skill)
            # 緊急 skills used from the battlefield (H10): (index, skill); none for an order, played from hand
            "emergency_skills": () if self.category == "tactic" and self.subtype != "facility"
                                else tuple((i, s) for i, s in enumerate(self.skills) if s.trigger == "emergency"),
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)

    @property
    def is_unit(self) -> bool:
        return self.category in ("unit", "design")

    @property
    def max_targets(self) -> int | None:
        """How many targets an attack may have: 1, N for `multi-N`, None for `all`."""
        return self._max_targets

    def _parse_max_targets(self) -> int | None:
        if self.targets == "all":
            return None
        if self.targets.startswith("multi-"):
            return int(self.targets.split("-", 1)[1])
        return 1

    def skills_for(self, trigger: str) -> tuple[Skill, ...]:
        return self._by_trigger.get(trigger, ())

    def has_static(self, kind: str) -> bool:
        return any(s.kind == kind for s in self.skills_for("static"))


def _int(card: Mapping[str, Any], key: str, default: int = 0) -> int:
    value = card.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise CardDataError(str(card.get("code", "?")), key, f"expected an integer ≥ 0, got {value!r}")
    return value


def parse_skill(code: str, raw: Mapping[str, Any], where: str, trigger_required: bool = True) -> Skill:
    """Check one skill/effect against the registry (skills.py) and freeze it."""
    if not isinstance(raw, Mapping):
        raise CardDataError(code, where, f"expected a skill object, got {raw!r}")
    validate_skill(code, where, raw, trigger_required=trigger_required)
    params = {k: v for k, v in raw.items() if k not in ("kind", "trigger", "once_per_turn", "condition", "text", "text_en")}
    return Skill(
        kind=raw["kind"],
        trigger=raw.get("trigger") or "",  # an effect's absent (or null) trigger is "" (a str, also when compiled)
        params=MappingProxyType(params),
        once_per_turn=bool(raw.get("once_per_turn", False)),
        condition=MappingProxyType(dict(raw.get("condition", {}))),
    )


def parse_card(card: Mapping[str, Any]) -> HagmiCard:
    """One catalog card dict → `HagmiCard`; raises `CardDataError` naming the code and field."""
    code = str(card.get("code", "?"))
    category = card.get("category")
    if category not in ("unit", "armament", "tactic", "damage", "design", "beast", "mothership"):
        raise CardDataError(code, "category", f"unknown category {category!r}")
    firepower, hits = 0, 1
    if "firepower" in card:
        match = _FIREPOWER.match(str(card["firepower"]))
        if not match:
            raise CardDataError(code, "firepower", f'{card["firepower"]!r} does not match N or NxM')
        firepower, hits = int(match.group(1)), int(match.group(2) or 1)
        if hits < 1:
            raise CardDataError(code, "firepower", "a multi-attack needs at least 1 hit")
    targets = str(card.get("targets", "single"))
    if not re.match(r"^(single|all|multi-[1-9][0-9]*)$", targets):
        raise CardDataError(code, "targets", f"expected single, multi-N or all, got {targets!r}")
    skills = tuple(parse_skill(code, raw, f"skills[{i}]") for i, raw in enumerate(card.get("skills", ())))
    bounty = parse_skill(code, card["bounty"], "bounty", trigger_required=False) if card.get("bounty") else None
    attrition = tuple(
        Attrition(
            at=_at(code, entry, i),
            effects=tuple(
                parse_skill(code, effect, f"attrition[{i}].effects[{j}]", trigger_required=False)
                for j, effect in enumerate(entry.get("effects", ()))
            ),
        )
        for i, entry in enumerate(card.get("attrition", ()))
    )
    for i, skill in enumerate(skills):
        if skill.kind == "refit" and skill.get("into") == "self":
            _check_direct_refit(code, card, skill, i)
        if skill.kind == "defend" and (category != "beast" or skill.trigger != "static"):  # H32
            raise CardDataError(code, f"skills[{i}]", 'a "defend" skill belongs on a 機獣 card, with "trigger": "static"')
    equip = card.get("equip")
    return HagmiCard(
        code=code,
        name=str(card.get("name", code)),
        category=category,
        frame=str(card.get("frame", "")),
        subtype=str(card.get("subtype", "")),
        cost=_int(card, "cost"),
        pilot=str(card.get("pilot", "")),
        types=tuple(card.get("types", ())),
        firepower=firepower,
        hits=hits,
        armor=_int(card, "armor"),
        range=_int(card, "range"),
        fuel_cost=_int(card, "fuel_cost"),
        targets=targets,
        durability=_int(card, "durability"),
        equip_types=tuple(equip["types"]) if isinstance(equip, Mapping) and equip.get("types") else None,
        skills=skills,
        usable_from_secret=bool(card.get("usable_from_secret", False)),
        energy=_int(card, "energy"),
        life_cores=_int(card, "life_cores"),
        action_order=_int(card, "action_order"),
        bounty=bounty,
        cores=_int(card, "cores"),
        attrition=attrition,
    )


def _check_direct_refit(code: str, card: Mapping[str, Any], skill: Skill, index: int) -> None:
    """H22: a refit `into: self` is a 秘策 card that refits a battlefield card directly: a unit card, usable from
    秘策 (H20), whose refit is used when it is played (`on_play`)."""
    where = f"skills[{index}].into"
    if card.get("category") != "unit" or not card.get("usable_from_secret"):
        raise CardDataError(code, where, '"into": "self" needs a unit card with "usable_from_secret": true (H20, H22)')
    if skill.trigger != "on_play" or skill.get("source") == "self":
        raise CardDataError(code, where, '"into": "self" needs "trigger": "on_play" and a friendly unit as its source')


def _at(code: str, entry: Mapping[str, Any], index: int) -> int:
    value = entry.get("at")
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise CardDataError(code, f"attrition[{index}].at", f"expected an integer ≥ 0, got {value!r}")
    return value


def cards_from_catalog(cards: Mapping[str, Mapping[str, Any]] | Iterable[Mapping[str, Any]]) -> dict[str, HagmiCard]:
    """`Catalog.cards` (code → dict) or a list of card dicts → code → `HagmiCard`."""
    items = cards.values() if isinstance(cards, Mapping) else cards
    return {card.code: card for card in (parse_card(raw) for raw in items)}
