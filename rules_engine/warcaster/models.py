"""Warcaster card data → frozen engine data (docs/card-fields.md, docs/data-packages.md "Warcaster").

`compile_force` turns a list's `force` entries (or a goldfish opponent's `units`) into `UnitSpec`s once per
simulation; `compile_rack` turns the `rack` into `CypherSpec`s. A card the engine cannot use raises
`CardDataError` naming the card code and the field, so a bad snapshot fails before any game is played.

Units: a squad has NUM identical models; a hero's attachment (ヒーロー・アタッチメント) joins the hero's unit as a
second model (its CST is added to the unit's); a squad attachment joins one of its squads (the first in the list
without one) as one more model, moving at the squad's SPD (its own SPD is "*"), its CST added to the squad's (the
victory points for destroying the unit, W16); a warjack is its chassis plus the cortex's abilities and the
weapon cards of the list entry's options (W5); a hero, solo or vehicle with weapon choices adds the weapon cards
its entry's options name.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from rules_engine.core.catalog import CardDataError, entries_of

EFFECT_NAMES = frozenset({"fire", "corrosion", "lockdown", "system_failure", "tune_up"})  # W15
QUALITIES = frozenset({"strafe", "blast", "spray", "armor_piercing"}) | EFFECT_NAMES  # armor_piercing: W11
STATS = ("spd", "mat", "rat", "def", "arm", "foc", "str", "health", "num")
STAT_NAMES = ("spd", "mat", "rat", "def", "arm", "foc", "str", "health", "cst")  # what Table.stat reads
_SPEC_FIELD = {"def": "def_", "str": "str_"}  # stat name → ModelSpec field
MODEL_KINDS = frozenset({"hero", "hero_attachment", "squad_attachment", "squad", "solo", "warjack", "vehicle",
                         "mantlet"})
CHOICE_KINDS = frozenset({"hero", "solo", "vehicle"})  # models that may have weapon choices besides warjacks (W5)
TARGETS = frozenset({
    "self", "friendly_model", "friendly_unit", "friendly_warjack", "enemy_model", "enemy_unit", "enemy_warjack",
    "any_model", "all_friendly", "all_enemy", "all_models",
})
EFFECT_KINDS = frozenset({"attack", "damage", "apply_effect", "remove_effect", "heal", "move", "arc", "draw", "shield",
                          "stat_mod"})
CHOSEN_TARGETS = frozenset({"friendly_model", "friendly_unit", "friendly_warjack", "enemy_model", "enemy_unit",
                            "enemy_warjack", "any_model"})  # the player picks the model
AREA_TARGETS = frozenset({"all_friendly", "all_enemy", "all_models"})  # every such model around the arc node
ABILITY_ONLY_KINDS = frozenset({"immunity", "flight", "arc_node"})
TRIGGERS = frozenset({"static", "action", "on_activate", "on_hit", "on_destroyed", "on_deploy"})
# Base radius in inches by kind (30 mm, 40 mm, 50 mm bases): used for overlap, ranges and blast/spray.
BASE_RADIUS = {"warjack": 0.8, "vehicle": 1.0, "mantlet": 1.0}
SMALL_BASE = 0.6
HEAVY_BASE = 1.0  # warjacks with CST 6 or more


class Immutable:
    """Engine data never changes during a game: `State.clone()` shares it instead of copying it."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict) -> Immutable:
        return self

    def __copy__(self) -> Immutable:
        return self


@dataclass(frozen=True, slots=True)
class Weapon(Immutable):
    name: str
    type: str  # "ranged" | "melee"
    rng: float  # inches
    pow: int
    qualities: frozenset[str]


@dataclass(frozen=True, slots=True)
class Effect(Immutable):
    """One effect of the vocabulary (cypher `effects`, or an ability): `kind` plus its parameters."""

    kind: str
    params: dict[str, Any]  # never mutated (a plain dict: read in every listing and scoring, no proxy in between)
    # What it targets (worked out once, read in every legal-action listing): attacks target an enemy model,
    # `arc` defaults to its origin ("self"), effects without a target (draw) give "none".
    target: str = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        target = "enemy_model" if self.kind == "attack" else self.params.get(
            "target", "self" if self.kind == "arc" else "none")
        object.__setattr__(self, "target", target)

    def get(self, key: str, default: Any = None) -> Any:
        return self.params.get(key, default)


@dataclass(frozen=True, slots=True)
class Ability(Immutable):
    """A model or cortex ability: an effect plus `trigger`, `arc_cost` and its name."""

    effect: Effect
    trigger: str
    arc_cost: int
    name: str


@dataclass(frozen=True, slots=True)
class Aura(Immutable):
    """A static `stat_mod` on friendly models within `range` of its bearer; a mantlet's aura is cover."""

    stat: str
    amount: int
    range: int
    cover: bool


@dataclass(frozen=True, slots=True)
class ModelSpec(Immutable):
    code: str
    name: str
    kind: str
    cst: int
    spd: int
    mat: int
    rat: int
    def_: int
    arm: int
    foc: int
    str_: int
    health: int
    radius: float
    weapons: tuple[Weapon, ...]
    abilities: tuple[Ability, ...]  # non-static abilities (action, on_activate, on_hit, ...)
    self_mods: Mapping[str, int]  # static stat_mod on itself (e.g. a cortex's Fire Control)
    auras: tuple[Aura, ...]
    immunities: frozenset[str]
    arc_node: bool
    flight: bool
    # Worked out once (read for every stat and every target listing): printed stats plus the static self mods,
    # by stat name ("def", "str", ...), and the longest weapon range (−1 without weapons).
    # Plain dicts, never mutated: read for every stat, so without a read-only proxy in between.
    base: dict[str, int] = field(init=False, compare=False, repr=False)
    reach: float = field(init=False, compare=False, repr=False)
    by_trigger: dict[str, tuple[Ability, ...]] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        base = {name: getattr(self, _SPEC_FIELD.get(name, name)) + self.self_mods.get(name, 0) for name in STAT_NAMES}
        object.__setattr__(self, "base", base)
        object.__setattr__(self, "reach", max((w.rng for w in self.weapons), default=-1))
        triggers = {a.trigger for a in self.abilities}
        by_trigger = {t: tuple(a for a in self.abilities if a.trigger == t) for t in triggers}
        object.__setattr__(self, "by_trigger", by_trigger)

    def triggered(self, trigger: str) -> tuple[Ability, ...]:
        return self.by_trigger.get(trigger, ())


@dataclass(frozen=True, slots=True)
class UnitSpec(Immutable):
    code: str
    name: str
    kind: str
    cst: int  # deployment cost in arc, and the victory points for destroying it (W16)
    models: tuple[ModelSpec, ...]
    options: Mapping[str, Any]  # a warjack's loadout {"cortex": code, "weapons": (codes)} (`loadout`); else empty
    max_foc: int = field(init=False, compare=False, repr=False)  # a hero unit's arc limit (Table.arc_limit)

    def __post_init__(self) -> None:
        object.__setattr__(self, "max_foc", max((m.foc for m in self.models), default=0))

    @property
    def is_solo(self) -> bool:
        return self.kind == "solo"

    @property
    def can_activate(self) -> bool:
        """Mantlets neither move nor attack: they never activate and do not count for the ready check (W10)."""
        return self.kind != "mantlet"


@dataclass(frozen=True, slots=True)
class CypherSpec(Immutable):
    code: str
    name: str
    suit: str
    cypher_type: str
    effects: tuple[Effect, ...]
    # Worked out once (read in every cypher listing): the effect whose target the player chooses (None when
    # nothing is chosen), and whether the player chooses the arc node instead (area or self effects).
    choice: Effect | None = field(init=False, compare=False, repr=False)
    on_node: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "choice", next((e for e in self.effects if e.target in CHOSEN_TARGETS), None))
        object.__setattr__(self, "on_node", any(e.target in AREA_TARGETS or e.target == "self" for e in self.effects))


def _int(card: Mapping[str, Any], value: Any, field_name: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise CardDataError(_code(card), field_name, f"expected an integer ≥ {minimum}, got {value!r}")
    return value


def _code(card: Mapping[str, Any]) -> str:
    return str(card.get("code", "?"))


def parse_effect(card: Mapping[str, Any], raw: Any, where: str, *, ability: bool = False) -> Effect:
    if not isinstance(raw, Mapping):
        raise CardDataError(_code(card), where, f"expected an object, got {type(raw).__name__}")
    kind = raw.get("kind")
    allowed = EFFECT_KINDS | (ABILITY_ONLY_KINDS if ability else frozenset())
    if kind not in allowed:
        raise CardDataError(_code(card), f"{where}.kind", f"unknown effect kind {kind!r}; known: {', '.join(sorted(allowed))}")
    params = {k: v for k, v in raw.items() if k not in ("kind", "name", "name_en", "trigger", "arc_cost")}
    target = params.get("target")
    if target is not None and target not in TARGETS:
        raise CardDataError(_code(card), f"{where}.target", f"unknown target {target!r}")
    effect = params.get("effect")
    if kind in ("apply_effect", "remove_effect") and effect is not None and effect not in EFFECT_NAMES:
        raise CardDataError(_code(card), f"{where}.effect", f"unknown continuous effect {effect!r}")
    if kind == "apply_effect" and effect is None:
        raise CardDataError(_code(card), f"{where}.effect", "apply_effect needs an effect")
    if kind == "attack":
        for key in ("rng", "pow"):
            _int(card, params.get(key), f"{where}.{key}")
        unknown = set(params.get("qualities") or ()) - QUALITIES
        if unknown:
            raise CardDataError(_code(card), f"{where}.qualities", f"unknown weapon quality {sorted(unknown)[0]!r}")
    return Effect(kind, params)


def parse_weapon(card: Mapping[str, Any], raw: Any, where: str) -> Weapon:
    if not isinstance(raw, Mapping):
        raise CardDataError(_code(card), where, f"expected an object, got {type(raw).__name__}")
    wtype = raw.get("type", "ranged")
    if wtype not in ("ranged", "melee"):
        raise CardDataError(_code(card), f"{where}.type", f"expected 'ranged' or 'melee', got {wtype!r}")
    qualities = frozenset(raw.get("qualities") or ())
    unknown = qualities - QUALITIES
    if unknown:
        raise CardDataError(_code(card), f"{where}.qualities", f"unknown weapon quality {sorted(unknown)[0]!r}")
    return Weapon(str(raw.get("name_en") or raw.get("name") or _code(card)), wtype,
                  _int(card, raw.get("rng"), f"{where}.rng"), _int(card, raw.get("pow"), f"{where}.pow"), qualities)


def _abilities(card: Mapping[str, Any], where: str) -> list[tuple[Mapping[str, Any], Effect, str]]:
    parsed = []
    for j, raw in enumerate(card.get("abilities") or ()):
        effect = parse_effect(card, raw, f"{where}.abilities[{j}]", ability=True)
        default = "static" if effect.kind in ABILITY_ONLY_KINDS or (
            effect.kind == "stat_mod" and effect.get("duration") == "static") else "action"
        trigger = raw.get("trigger", default)
        if trigger not in TRIGGERS:
            raise CardDataError(_code(card), f"{where}.abilities[{j}].trigger", f"unknown trigger {trigger!r}")
        parsed.append((raw, effect, trigger))
    return parsed


def model_spec(card: Mapping[str, Any], *, extra_weapons: Iterable[Weapon] = (),
               extra_abilities: Iterable[Mapping[str, Any]] = (), where: str = "card") -> ModelSpec:
    code = _code(card)
    stats = card.get("stats") or {}
    if not isinstance(stats, Mapping):
        raise CardDataError(code, "stats", "expected an object")
    kind: Any = card.get("kind")
    value = {name: _int(card, stats.get(name, 0), f"stats.{name}") for name in STATS}
    if value["health"] < 1:
        raise CardDataError(code, "stats.health", "a model needs health ≥ 1")
    weapons = [parse_weapon(card, w, f"weapons[{i}]") for i, w in enumerate(card.get("weapons") or ())]
    weapons += list(extra_weapons)
    merged = dict(card)
    merged["abilities"] = list(card.get("abilities") or ()) + list(extra_abilities)
    self_mods: dict[str, int] = {}
    auras: list[Aura] = []
    immunities: set[str] = set()
    abilities: list[Ability] = []
    arc_node = flight = False
    for raw, effect, trigger in _abilities(merged, where):
        if effect.kind == "arc_node":
            arc_node = True
        elif effect.kind == "flight":
            flight = True
        elif effect.kind == "immunity":
            immunities.update(effect.get("effects") or ())
        elif trigger == "static" and effect.kind == "stat_mod":
            if effect.get("target", "self") == "self":
                self_mods[effect.get("stat")] = self_mods.get(effect.get("stat"), 0) + int(effect.get("amount", 0))
            else:
                auras.append(Aura(effect.get("stat"), int(effect.get("amount", 0)), int(effect.get("range", 0)),
                                  cover=kind == "mantlet"))
        else:
            name = str(raw.get("name_en") or raw.get("name") or effect.kind)
            abilities.append(Ability(effect, trigger, int(raw.get("arc_cost", 0) or 0), name))
    radius = BASE_RADIUS.get(kind, SMALL_BASE)
    if kind == "warjack" and int(card.get("cst", 0) or 0) >= 6:
        radius = HEAVY_BASE
    return ModelSpec(
        code=code, name=str(card.get("name", code)), kind=str(kind), cst=int(card.get("cst", 0) or 0),
        spd=value["spd"], mat=value["mat"], rat=value["rat"], def_=value["def"], arm=value["arm"],
        foc=value["foc"], str_=value["str"], health=value["health"], radius=radius, weapons=tuple(weapons),
        abilities=tuple(abilities), self_mods=MappingProxyType(self_mods), auras=tuple(auras),
        immunities=frozenset(immunities), arc_node=arc_node, flight=flight,
    )


class Catalog:
    """The snapshot's cards by code, with a clear error for a missing code or a card of the wrong kind."""

    def __init__(self, cards: Mapping[str, Mapping[str, Any]]) -> None:
        if not isinstance(cards, Mapping):
            raise CardDataError("?", "cards", "expected an object of card code → card")
        self.cards = cards

    def get(self, code: Any, where: str, kinds: Iterable[str]) -> Mapping[str, Any]:
        card = self.cards.get(code) if isinstance(code, str) else None
        if not isinstance(card, Mapping):
            raise CardDataError(str(code), where, "unknown card code (not in the snapshot's cards)")
        kinds = frozenset(kinds)
        if card.get("kind") not in kinds:
            raise CardDataError(str(code), f"{where}.kind", f"expected one of {', '.join(sorted(kinds))}, got {card.get('kind')!r}")
        return card


def _warjack(catalog: Catalog, card: Mapping[str, Any], options: Any, where: str, *, loadout_required: bool) -> ModelSpec:
    code = _code(card)
    if not isinstance(options, Mapping):
        if loadout_required:
            raise CardDataError(code, f"{where}.options", 'a warjack needs {"cortex": CODE, "weapons": [CODE, ...]}')
        return model_spec(card, where=where)
    cortex = catalog.get(options.get("cortex"), f"{where}.options.cortex", ("cortex",))
    weapon_codes = options.get("weapons")
    if not isinstance(weapon_codes, list) or not weapon_codes:
        raise CardDataError(code, f"{where}.options.weapons", "expected a non-empty list of weapon codes")
    weapons = []
    for i, wcode in enumerate(weapon_codes):
        wcard = catalog.get(wcode, f"{where}.options.weapons[{i}]", ("weapon",))
        weapons.append(parse_weapon(wcard, wcard, "weapon"))
    return model_spec(card, extra_weapons=weapons, extra_abilities=cortex.get("abilities") or (), where=where)


def _chosen(catalog: Catalog, card: Mapping[str, Any], options: Any, where: str) -> ModelSpec:
    """A hero, solo or vehicle with the weapon cards its entry's options name (its weapon choices, W5)."""
    codes = options.get("weapons") if isinstance(options, Mapping) else None
    if not codes:
        return model_spec(card, where=where)
    if not isinstance(codes, list):
        raise CardDataError(_code(card), f"{where}.options.weapons", "expected a list of weapon codes")
    weapons = []
    for i, wcode in enumerate(codes):
        wcard = catalog.get(wcode, f"{where}.options.weapons[{i}]", ("weapon",))
        weapons.append(parse_weapon(wcard, wcard, "weapon"))
    return model_spec(card, extra_weapons=weapons, where=where)


def loadout(card: Mapping[str, Any], options: Any) -> Mapping[str, Any]:
    """What a unit keeps of its list entry's options: a warjack's cortex and weapon codes (read by _warjack), so
    that a position can name them (warcaster/position.py); nothing for other units."""
    if not isinstance(options, Mapping):
        return MappingProxyType({})
    if card.get("kind") in CHOICE_KINDS and options.get("weapons"):
        return MappingProxyType({"weapons": tuple(options.get("weapons") or ())})
    if card.get("kind") != "warjack":
        return MappingProxyType({})
    return MappingProxyType({"cortex": options.get("cortex"), "weapons": tuple(options.get("weapons") or ())})


def compile_force(catalog: Catalog, entries: Any, where: str, *, goldfish: bool = False) -> list[UnitSpec]:
    """The units of a force (list `force` section or goldfish `units`), heroes' attachments joined to them."""
    units: list[UnitSpec] = []
    attachments: list[tuple[Mapping[str, Any], str]] = []
    joining: list[tuple[Mapping[str, Any], str]] = []
    for at, raw_code, qty, entry in entries_of(entries, where):
        card = catalog.get(raw_code, f"{at}.card", MODEL_KINDS)
        code = _code(card)
        for _ in range(qty):
            if card["kind"] == "hero_attachment":
                attachments.append((card, at))
                continue
            if card["kind"] == "squad_attachment":
                joining.append((card, at))
                continue
            if card["kind"] == "warjack":
                spec = _warjack(catalog, card, entry.get("options"), at, loadout_required=not goldfish)
            elif card["kind"] in CHOICE_KINDS and isinstance(entry.get("options"), Mapping):
                spec = _chosen(catalog, card, entry.get("options"), at)
            else:
                spec = model_spec(card, where=at)
            num = int((card.get("stats") or {}).get("num", 1) or 1) if card["kind"] == "squad" else 1
            units.append(UnitSpec(code, spec.name, spec.kind, spec.cst, (spec,) * num,
                                  loadout(card, entry.get("options"))))
    for card, at in attachments:
        units = _attach(units, card, at)
    joined: set[int] = set()
    for card, at in joining:
        units = _join_squad(units, card, at, joined)
    return units


def _join_squad(units: list[UnitSpec], card: Mapping[str, Any], where: str, joined: set[int]) -> list[UnitSpec]:
    """A squad attachment joins the first squad it may join (`attaches_to`; none given: any) that has none yet, as
    one more model at the squad's SPD; its CST is added to the squad's. Without such a squad (a list W4 refuses) it
    is a unit of its own, a solo at its own SPD (0 when it has none)."""
    allowed = card.get("attaches_to")
    for index, unit in enumerate(units):
        if unit.kind == "squad" and index not in joined and (not isinstance(allowed, (list, tuple)) or unit.code in allowed):
            stats = dict(card.get("stats") or {})
            stats["spd"] = unit.models[0].spd  # SPD "*": the squad's
            spec = model_spec({**card, "stats": stats}, where=where)
            count = int((card.get("stats") or {}).get("num", 1) or 1)
            joined.add(index)
            merged = UnitSpec(unit.code, unit.name, unit.kind, unit.cst + spec.cst, unit.models + (spec,) * count,
                              unit.options)
            return units[:index] + [merged] + units[index + 1:]
    spec = model_spec(card, where=where)
    return units + [UnitSpec(spec.code, spec.name, "solo", spec.cst, (spec,), MappingProxyType({}))]


def _attach(units: list[UnitSpec], card: Mapping[str, Any], where: str) -> list[UnitSpec]:
    """A hero attachment joins the first hero it may attach to that has none yet; otherwise it is its own unit."""
    spec = model_spec(card, where=where)
    allowed = set(card.get("attaches_to") or ())
    for index, unit in enumerate(units):
        if unit.kind == "hero" and unit.code in allowed and len(unit.models) == 1:
            joined = UnitSpec(unit.code, unit.name, unit.kind, unit.cst + spec.cst, unit.models + (spec,), unit.options)
            return units[:index] + [joined] + units[index + 1:]
    return units + [UnitSpec(spec.code, spec.name, "solo", spec.cst, (spec,), MappingProxyType({}))]


def compile_rack(catalog: Catalog, entries: Any, where: str) -> list[CypherSpec]:
    if entries is None:
        return []
    rack = []
    for at, raw_code, qty, _entry in entries_of(entries, where):
        rack += [cypher_spec(catalog.get(raw_code, f"{at}.card", ("cypher",)))] * qty
    return rack


def cypher_spec(card: Mapping[str, Any]) -> CypherSpec:
    code = _code(card)
    raw_effects = card.get("effects")
    if not isinstance(raw_effects, list) or not (raw_effects or card.get("not_modelled")):
        # an imported cypher whose effect is not modelled (its text is kept, "not_modelled" names it) plays as none
        raise CardDataError(code, "effects", "a cypher needs a non-empty list of effects")
    effects = tuple(parse_effect(card, e, f"effects[{j}]") for j, e in enumerate(raw_effects))
    return CypherSpec(code, str(card.get("name", code)), str(card.get("suit", "")),
                      str(card.get("cypher_type", "effect")), effects)


def check_card(card: Mapping[str, Any]) -> None:
    """Read one card of a package as the engine will (the registry's card checker; CardDataError names the field):
    models by their stats, weapons, abilities; warjack weapons and cortexes; cyphers by their effects."""
    kind = card.get("kind")
    if kind in MODEL_KINDS:
        model_spec(card)
    elif kind == "weapon":
        parse_weapon(card, card, "weapon")
    elif kind == "cortex":
        _abilities(card, "card")
    elif kind == "cypher":
        cypher_spec(card)
    else:
        raise CardDataError(_code(card), "kind", f"unknown kind {kind!r}")
