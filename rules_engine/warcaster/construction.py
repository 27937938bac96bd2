"""Warcaster: Neo-Mechanika force construction (RULES.md §3.2, rules W1–W6).

Sections: `force` (heroes, hero attachments, squads, squad attachments, solos, warjacks, vehicles, mantlets) and
`rack` (cyphers). A warjack entry carries `"options": {"cortex": CODE, "weapons": [CODE, ...]}` (W5); a hero, solo
or vehicle with weapon choices (`hardpoints` of slot "weapon") `"options": {"weapons": [CODE, ...]}` (W5 too).
A squad attachment is a force entry of its own that joins one of its squads: no unit slot (W2), at most one per
squad it may join (W4). Format options (docs/card-fields.md): max_heroes, max_units, max_mantlets, rack_min,
rack_max, rack_min_per_suit, max_unit_copies (a card's own `max_copies` first), single_faction.
"""
from __future__ import annotations

from typing import Any, Iterator, Mapping

from rules_engine.core.construction import (
    Entry,
    Gauge,
    ListContext,
    Rule,
    RuleSet,
    SectionSpec,
    Violation,
    int_field,
    is_mapping,
)
from rules_engine.core.messages import Label, describe, plain, short

SYSTEM = "warcaster"
FORCE, RACK = "force", "rack"

SECTIONS = (
    SectionSpec(FORCE, Label("force", "フォース")),
    SectionSpec(RACK, Label("cypher rack", "サイファーラック")),
)

DEFAULTS: Mapping[str, Any] = {
    "max_heroes": 1,
    "max_units": 8,
    "max_mantlets": 4,
    "rack_min": 12,
    "rack_max": 15,
    "rack_min_per_suit": 3,
    "max_unit_copies": 4,
    "single_faction": True,
}

HERO, ATTACHMENT, SQUAD_ATTACHMENT, MANTLET, WARJACK, CORTEX, WEAPON, CYPHER = (
    "hero", "hero_attachment", "squad_attachment", "mantlet", "warjack", "cortex", "weapon", "cypher",
)
SLOT_KINDS = frozenset({"squad", "solo", WARJACK, "vehicle", MANTLET})  # W2: units that take a slot
FORCE_KINDS = SLOT_KINDS | {HERO, ATTACHMENT, SQUAD_ATTACHMENT}  # attachments join a unit: no slot of their own
CHOICE_KINDS = frozenset({HERO, "solo", "vehicle"})  # W5: models other than warjacks that may have weapon choices
SUITS = {
    "fury": Label("Fury", "フューリー"),
    "geometric": Label("Geometric", "ジオメトリック"),
    "harmonic": Label("Harmonic", "ハーモニック"),
    "overdrive": Label("Overdrive", "オーバードライブ"),
}
MERCENARY = "mercenary"
KIND_NAMES = {
    HERO: Label("hero", "ヒーロー"),
    ATTACHMENT: Label("hero attachment", "ヒーローアタッチメント"),
    SQUAD_ATTACHMENT: Label("squad attachment", "スクワッドアタッチメント"),
    "squad": Label("squad", "スクワッド"),
    "solo": Label("solo", "ソロ"),
    WARJACK: Label("warjack", "ウォージャック"),
    "vehicle": Label("vehicle", "ビークル"),
    MANTLET: Label("mantlet", "マントレット"),
    CORTEX: Label("cortex", "コルテックス"),
    WEAPON: Label("weapon", "武器"),
    CYPHER: Label("cypher", "サイファー"),
}
# W6 names the force's faction in words (the same words as the pages: builder/web/vocabulary.py "faction").
FACTION_NAMES = {
    "iron-star-alliance": Label("Iron Star Alliance", "鉄星同盟"),
    "marcher-worlds": Label("Marcher Worlds", "辺境世界"),
    "aeternus-continuum": Label("Aeternus Continuum", "アエテルヌス・コンティニュアム"),
    "empyreans": Label("Empyreans", "エンピリアン"),
    MERCENARY: Label("Mercenary", "傭兵"),
}


def faction_label(faction: str) -> Label:
    """A faction in words; an unknown one with its hyphens as spaces, never as a slug."""
    return FACTION_NAMES.get(faction) or plain(faction.replace("-", " ").replace("_", " "))


PART_FIELDS = {CORTEX: Label("cortex", "コルテックス"), WEAPON: Label("weapon", "武器")}


def kind_of(entry: Entry) -> Any:
    return entry.card.get("kind")


def kind_label(kind: Any) -> Label:
    return KIND_NAMES.get(kind, plain(kind if isinstance(kind, str) else "unknown"))


def force_units(ctx: ListContext, kinds: frozenset[str] | set[str]) -> list[Entry]:
    """The force's entries of the given kinds (misplaced cards excluded)."""
    return [entry for entry in ctx.entries[FORCE] if kind_of(entry) in kinds]


def rack_cyphers(ctx: ListContext) -> list[Entry]:
    return [entry for entry in ctx.entries[RACK] if kind_of(entry) == CYPHER]


def copies(entries: list[Entry]) -> dict[str, int]:
    counted: dict[str, int] = {}
    for entry in entries:
        counted[entry.code] = counted.get(entry.code, 0) + entry.qty
    return counted


class WrongSection(Rule):
    """Placement: models, heroes, attachments in `force`; cyphers in `rack`; cortexes/weapons in warjack options."""

    rule_id, code = None, "warcaster.wrong_section"
    title_en, title_ja = "Card in the wrong section", "セクション違いのカード"

    def check(self, ctx: ListContext) -> Iterator[Violation]:
        for section, allowed in ((FORCE, FORCE_KINDS), (RACK, {CYPHER})):
            for code in sorted(ctx.by_code[section]):
                kind = ctx.card(code).get("kind")
                if kind in allowed:
                    continue
                home = _home(ctx, kind)
                yield self.violation(
                    "warcaster.wrong_section", section=section, cards=[code], card=ctx.label(code),
                    kind=kind_label(kind), home=home, place=ctx.section_label(section),
                )


def _home(ctx: ListContext, kind: Any) -> Label:
    if kind == CYPHER:
        return ctx.section_label(RACK)
    if kind in FORCE_KINDS:
        return ctx.section_label(FORCE)
    return Label("a warjack's options", "ウォージャックのオプション")


class HeroLimit(Rule):
    """W1: at most max_heroes heroes, each hero at most once; hero attachments take no slot."""

    rule_id, code = "W1", "warcaster.heroes"
    title_en, title_ja = "Heroes: at most 1 (full: 3), each once", "ヒーロー：1体まで（フルは3体）、同じヒーローは1体"

    def check(self, ctx: ListContext) -> Iterator[Violation]:
        heroes = copies(force_units(ctx, {HERO}))
        count, maximum = sum(heroes.values()), ctx.options["max_heroes"]
        if count > maximum:
            yield self.violation(section=FORCE, cards=heroes, count=count, max=maximum)
        for code in sorted(heroes):
            if heroes[code] > 1:
                yield self.violation("W1.twice", section=FORCE, cards=[code], count=heroes[code], names=ctx.label(code))


class UnitLimit(Rule):
    """W2: at most max_units units other than heroes (one per model entry copy), mantlets at most max_mantlets."""

    rule_id, code = "W2", "warcaster.units"
    title_en, title_ja = "Units: at most 8 (full: 15), mantlets at most 4", "ユニット：8体まで（フルは15体）、マントレット4体まで"

    def check(self, ctx: ListContext) -> Iterator[Violation]:
        count, maximum = unit_count(ctx), ctx.options["max_units"]
        if count > maximum:
            yield self.violation(section=FORCE, count=count, max=maximum)
        mantlets = copies(force_units(ctx, {MANTLET}))
        count, maximum = sum(mantlets.values()), ctx.options["max_mantlets"]
        if count > maximum:
            yield self.violation("W2.mantlets", section=FORCE, cards=mantlets, count=count, max=maximum)


class RackSize(Rule):
    """W3: the cypher rack holds rack_min to rack_max cyphers."""

    rule_id, code = "W3", "warcaster.rack_size"
    title_en, title_ja = "Cypher rack: 12 to 15 cyphers", "サイファーラック：12〜15枚"

    def check(self, ctx: ListContext) -> Iterator[Violation]:
        count = cypher_count(ctx)
        low, high = ctx.options["rack_min"], ctx.options["rack_max"]
        if not low <= count <= high:
            yield self.violation("W3.size", section=RACK, count=count, min=low, max=high)


class RackCopies(Rule):
    """W3: each cypher at most once in the rack."""

    rule_id, code = "W3", "warcaster.rack_copies"
    title_en, title_ja = "Cypher rack: each cypher once", "サイファーラック：同じサイファーは1枚"

    def check(self, ctx: ListContext) -> Iterator[Violation]:
        counted = copies(rack_cyphers(ctx))
        for code in sorted(counted):
            if counted[code] > 1:
                yield self.violation(
                    "W3.copies", section=RACK, cards=[code], count=counted[code], names=ctx.label(code)
                )


class RackSuits(Rule):
    """W3: at least rack_min_per_suit cyphers of each of the four suits."""

    rule_id, code = "W3", "warcaster.rack_suits"
    title_en, title_ja = "Cypher rack: at least 3 of each suit", "サイファーラック：各スート3枚以上"

    def check(self, ctx: ListContext) -> Iterator[Violation]:
        per_suit = dict.fromkeys(SUITS, 0)
        for entry in rack_cyphers(ctx):
            suit = entry.card.get("suit")
            if suit in per_suit:
                per_suit[suit] += entry.qty
        minimum = ctx.options["rack_min_per_suit"]
        for suit, count in per_suit.items():
            if count < minimum:
                yield self.violation("W3.suits", section=RACK, count=count, suit=SUITS[suit], min=minimum)


class UnitCopies(Rule):
    """W4: at most max_unit_copies of any one unit (heroes are limited to one by W1); a unit whose card has its own
    limit (`max_copies`, BattleScribe data: the entry's max per roster) at most that many. A squad attachment joins a
    squad: at most one per squad in the force that it may join (`attaches_to`; none given: any squad)."""

    rule_id, code = "W4", "warcaster.unit_copies"
    title_en, title_ja = "At most 4 of one unit", "同じユニットは4体まで"

    def check(self, ctx: ListContext) -> Iterator[Violation]:
        counted = copies(force_units(ctx, FORCE_KINDS - {HERO}))
        squads = copies(force_units(ctx, {"squad"}))
        for code in sorted(counted):
            card = ctx.card(code)
            if card.get("kind") == SQUAD_ATTACHMENT:
                joins = attachment_squads(card, squads)
                if counted[code] > joins:
                    yield self.violation("W4.attachment", section=FORCE, cards=[code], count=counted[code],
                                         max=joins, names=ctx.label(code))
                continue
            maximum = unit_copy_limit(ctx, card)
            if counted[code] > maximum:
                yield self.violation(
                    section=FORCE, cards=[code], count=counted[code], max=maximum, names=ctx.label(code)
                )


def unit_copy_limit(ctx: ListContext, card: Any) -> int:
    """W4: the card's own limit (`max_copies`) if it has one, else the format's max_unit_copies."""
    own = card.get("max_copies") if is_mapping(card) else None
    if isinstance(own, int) and not isinstance(own, bool) and own >= 0:
        return own
    return ctx.options["max_unit_copies"]


def attachment_squads(card: Any, squads: Mapping[str, int]) -> int:
    """W4: how many squads of the force a squad attachment may join (its `attaches_to`; none given: any squad)."""
    allowed = card.get("attaches_to") if is_mapping(card) else None
    if isinstance(allowed, (list, tuple)):
        return sum(count for code, count in squads.items() if code in allowed)
    return sum(squads.values())


class WarjackPoints(Rule):
    """W5: a warjack has a cortex, and its weapons' cost fits its chassis' weapon_points. A hero, solo or vehicle
    with weapon choices (`hardpoints` of slot "weapon", BattleScribe data) is checked the same way, without a cortex:
    its chosen weapons (options.weapons) fit its hardpoints and, if it has weapon_points, their cost fits them; one
    without choices takes no weapons option."""

    rule_id, code = "W5", "warcaster.warjack_points"
    title_en, title_ja = "Warjack weapons within weapon points", "ウォージャックの武器はウェポンポイント以内"

    def check(self, ctx: ListContext) -> Iterator[Violation]:
        # Each problem once: "2 Hayate" and "1 Hayate" + "1 Hayate" without a cortex are the same one problem, so
        # the result does not depend on how the list splits its entries.
        seen: set[tuple] = set()
        for entry in force_units(ctx, {WARJACK} | CHOICE_KINDS):
            if kind_of(entry) != WARJACK and not _chooses(entry):
                continue
            for violation in self._check_warjack(ctx, entry):
                key = (violation.message, violation.cards, tuple(sorted(violation.params.items())))
                if key not in seen:
                    seen.add(key)
                    yield violation

    def _check_warjack(self, ctx: ListContext, entry: Entry) -> Iterator[Violation]:
        options = entry.options if is_mapping(entry.options) else {}
        names = ctx.label(entry.code)
        jack = kind_of(entry) == WARJACK
        cortex = options.get("cortex")
        if jack and cortex is None:
            yield self.violation("W5.no_cortex", section=FORCE, cards=[entry.code], names=names)
        elif cortex is not None:
            yield from self._part(ctx, entry, cortex, CORTEX)
        weapons = options.get("weapons", [])
        if not jack and not hardpoint_slots(entry.card) and weapons:
            yield self.violation("W5.no_choice", section=FORCE, cards=[entry.code], names=names)
            return
        if not isinstance(weapons, (list, tuple)):
            yield self.violation(
                "W5.bad_weapons", section=FORCE, cards=[entry.code], names=names, value=describe(weapons)
            )
            return
        cost = 0
        known = []
        for weapon in weapons:
            problems = list(self._part(ctx, entry, weapon, WEAPON))
            yield from problems
            if not problems:
                cost += int_field(ctx.card(weapon), "cost")
                known.append(weapon)
        maximum = int_field(entry.card, "weapon_points") if jack or "weapon_points" in entry.card else cost
        if cost > maximum:
            yield self.violation(section=FORCE, cards=[entry.code], names=names, cost=cost, max=maximum)
        slots = hardpoint_slots(entry.card)
        offered = {code for point in entry.card.get("hardpoints") or () if is_mapping(point)
                   for code in point.get("weapons") or ()}
        if offered and any(code not in offered for code in known):
            # a weapon choice offers its own weapons: one it does not offer fits none of its hardpoints
            yield self.violation("W5.hardpoints", section=FORCE, cards=[entry.code, *known], names=names,
                                 value=plain(", ".join(f"{count} {slot}" for slot, count in slots.items())))
        elif slots and not fits_hardpoints([ctx.card(code).get("hardpoints") for code in known], slots):
            # W5 with hardpoints (BattleScribe data): each weapon takes one free hardpoint it fits
            yield self.violation("W5.hardpoints", section=FORCE, cards=[entry.code, *known], names=names,
                                 value=plain(", ".join(f"{count} {slot}" for slot, count in slots.items())))

    def _part(self, ctx: ListContext, entry: Entry, code: Any, kind: str) -> Iterator[Violation]:
        """A cortex or weapon named in a warjack's options must be a known card of that kind."""
        field = PART_FIELDS[kind]
        names = ctx.label(entry.code)
        card = ctx.catalog.cards.get(code) if isinstance(code, str) else None
        if card is None:
            shown = plain(short(code)) if isinstance(code, str) else describe(code)
            cards = [entry.code, code] if isinstance(code, str) else [entry.code]
            yield self.violation(
                "W5.unknown_part", section=FORCE, cards=cards, names=names, field=field, value=shown,
                kind=kind_label(kind),
            )
        elif card.get("kind") != kind:
            yield self.violation(
                "W5.wrong_kind", section=FORCE, cards=[entry.code, code], names=names, field=field,
                part=ctx.label(code), actual=kind_label(card.get("kind")), kind=kind_label(kind),
            )


def _chooses(entry: Entry) -> bool:
    """A hero, solo or vehicle entry W5 checks: its card has weapon choices, or its options name weapons or a cortex."""
    options = entry.options if is_mapping(entry.options) else {}
    return bool(hardpoint_slots(entry.card)) or bool(options.get("weapons")) or options.get("cortex") is not None


def hardpoint_slots(card: Any) -> dict[str, int]:
    """A chassis' weapon hardpoints (`hardpoints`: [{"slot": "arm", "count": 2}, ...]), cortex slots left out."""
    slots: dict[str, int] = {}
    for point in card.get("hardpoints") or ():
        if is_mapping(point) and point.get("slot") != CORTEX and isinstance(point.get("count"), int):
            slots[str(point.get("slot"))] = slots.get(str(point.get("slot")), 0) + int(point["count"])
    return slots


def fits_hardpoints(fits: list[Any], slots: dict[str, int]) -> bool:
    """Whether each weapon (the slots it fits; none given: any) can take its own free hardpoint."""
    if not fits:
        return True
    allowed = fits[0] if isinstance(fits[0], (list, tuple)) and fits[0] else list(slots)
    for slot in dict.fromkeys(allowed):
        if slots.get(slot, 0) > 0:
            rest = dict(slots)
            rest[slot] -= 1
            if fits_hardpoints(fits[1:], rest):
                return True
    return False


class SingleFaction(Rule):
    """W6 (option single_faction): all force cards of one faction, mercenaries excepted; cyphers are exempt."""

    rule_id, code = "W6", "warcaster.faction"
    title_en, title_ja = "One faction (mercenaries excepted)", "単一勢力（傭兵を除く）"

    def check(self, ctx: ListContext) -> Iterator[Violation]:
        if not ctx.options["single_faction"]:
            return
        members = [
            entry for entry in force_units(ctx, FORCE_KINDS)
            if isinstance(entry.card.get("faction"), str) and entry.card["faction"] != MERCENARY
        ]
        if len({entry.card["faction"] for entry in members}) < 2:
            return
        faction = _leading_faction(members)
        strays = sorted({entry.code for entry in members if entry.card["faction"] != faction})
        yield self.violation(section=FORCE, cards=strays, names=ctx.labels_of(strays),
                             faction=faction_label(faction))


def _leading_faction(members: list[Entry]) -> str:
    """The force's faction: its heroes' faction if it has heroes, else the one with most models (ties: by name)."""
    heroes = [entry for entry in members if entry.card.get("kind") == HERO]
    pool = heroes or members
    weight: dict[str, int] = {}
    for entry in pool:
        weight[entry.card["faction"]] = weight.get(entry.card["faction"], 0) + entry.qty
    return min(weight, key=lambda faction: (-weight[faction], faction))


def hero_count(ctx: ListContext) -> int:
    return sum(entry.qty for entry in force_units(ctx, {HERO}))


def unit_count(ctx: ListContext) -> int:
    return sum(entry.qty for entry in force_units(ctx, SLOT_KINDS))


def cypher_count(ctx: ListContext) -> int:
    return sum(entry.qty for entry in rack_cyphers(ctx))


def summarise(ctx: ListContext) -> dict[str, int]:
    return {"heroes": hero_count(ctx), "units": unit_count(ctx), "cyphers": cypher_count(ctx)}


def warjack_weapon_points(ctx: ListContext, entry: Entry) -> int:
    """The weapon points a warjack entry's loadout spends: the cost of its known weapon cards (as W5 counts them)."""
    options = entry.options if is_mapping(entry.options) else {}
    weapons = options.get("weapons", [])
    if not isinstance(weapons, (list, tuple)):
        return 0
    cards = ctx.catalog.cards
    return sum(int_field(cards[code], "cost") for code in weapons
               if isinstance(code, str) and code in cards and cards[code].get("kind") == WEAPON)


def measure(ctx: ListContext) -> list[Gauge]:
    """Heroes ≤ max_heroes (W1), units ≤ max_units and mantlets ≤ max_mantlets (W2), rack_min–rack_max cyphers and
    rack_min_per_suit of each suit (W3), and each warjack's weapon points (W5)."""
    options = ctx.options
    gauges = [
        Gauge("heroes", hero_count(ctx), "W1", maximum=options["max_heroes"]),
        Gauge("units", unit_count(ctx), "W2", maximum=options["max_units"]),
    ]
    mantlets = sum(entry.qty for entry in force_units(ctx, {MANTLET}))
    if mantlets:
        gauges.append(Gauge("mantlets", mantlets, "W2", maximum=options["max_mantlets"]))
    gauges.append(Gauge("cyphers", cypher_count(ctx), "W3", minimum=options["rack_min"], maximum=options["rack_max"]))
    per_suit = dict.fromkeys(SUITS, 0)
    for entry in rack_cyphers(ctx):
        suit = entry.card.get("suit")
        if suit in per_suit:
            per_suit[suit] += entry.qty
    gauges += [Gauge("suit", count, "W3", minimum=options["rack_min_per_suit"], subject=suit)
               for suit, count in per_suit.items()]
    gauges += [Gauge("weapon_points", warjack_weapon_points(ctx, entry), "W5",
                     maximum=int_field(entry.card, "weapon_points"), subject=entry.code)
               for entry in force_units(ctx, {WARJACK} | CHOICE_KINDS)
               if kind_of(entry) == WARJACK or "weapon_points" in entry.card]
    return gauges


RULESET = RuleSet(
    name=Label("Warcaster: Neo-Mechanika", "ウォーキャスター：ネオメカニカ"),
    system=SYSTEM,
    sections=SECTIONS,
    defaults=DEFAULTS,
    rules=(
        WrongSection(),
        HeroLimit(),
        UnitLimit(),
        RackSize(),
        RackCopies(),
        RackSuits(),
        UnitCopies(),
        WarjackPoints(),
        SingleFaction(),
    ),
    summarise=summarise,
    measure=measure,
)
