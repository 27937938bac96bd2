"""How Warcaster's cards look in the BattleScribe data Hangar exports (`EXPORT`, a Game of
rules_engine/formats/battlescribe/export.py; docs/data-packages.md "BattleScribe data out"): warjack parts and their
groups, the profiles, categories, copies and the force's limits."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules_engine.formats.battlescribe.export import Category, EntryGroup, Game, title_of, value_text, whole_number


def warjack_parts(cards: Iterable[Mapping[str, Any]], jack: Mapping[str, Any]) -> dict[str, list[str]]:
    """{"cortex": codes, "weapons": codes} a warjack's groups link to: the parts of its faction, universal and
    mercenary ones; every part when its faction has none."""
    parts: dict[str, list[str]] = {"cortex": [], "weapons": []}
    every: dict[str, list[str]] = {"cortex": [], "weapons": []}
    for card in cards:
        slot = {"cortex": "cortex", "weapon": "weapons"}.get(str(card.get("kind")))
        if slot is None:
            continue
        every[slot].append(str(card["code"]))
        if card.get("faction") in (jack.get("faction"), "universal", "mercenary"):  # mercenary: any faction (W6)
            parts[slot].append(str(card["code"]))
    return {slot: parts[slot] or every[slot] for slot in parts}


def _option_parts(entry: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, str]]:
    """A warjack's cortex (in its Cortex group) and weapons (in its Weapons group), as its entry's options name them."""
    options = entry.get("options") or {}
    parts = [options["cortex"]] if isinstance(options.get("cortex"), str) else []
    parts += [code for code in options.get("weapons") or [] if isinstance(code, str)]
    return [(code, "cortex" if (cards.get(code) or {}).get("kind") == "cortex" else "weapons") for code in parts]


def _add_option_part(options: dict[str, Any], part: Mapping[str, Any], code: str, copies: int) -> bool:
    """A cortex (the first one) or a warjack weapon chosen inside a warjack's selection, into its options."""
    if part.get("kind") == "cortex" and "cortex" not in options:
        options["cortex"] = code
    elif part.get("kind") == "weapon":
        options.setdefault("weapons", []).extend([code] * copies)
    else:
        return False
    return True


def _warjack_groups(card: Mapping[str, Any], cards: list[Mapping[str, Any]]) -> list[EntryGroup]:
    """A warjack's Cortex group (exactly one) and Weapons group (at most its weapon points of the Weapon Points
    cost), each linking to the parts it may take (warjack_parts)."""
    if card.get("kind") != "warjack":
        return []
    parts = warjack_parts(cards, card)
    return [EntryGroup("cortex", "Cortex", (("min", 1, ""), ("max", 1, "")), tuple(parts["cortex"])),
            EntryGroup("weapons", "Weapons", (("max", whole_number(card.get("weapon_points")), "wp"),),
                       tuple(parts["weapons"]))]


# Models with SPD MAT RAT DEF ARM FOC STR NUM DMG CST, weapons with TYP RNG POW, cyphers with their suit.
WARCASTER_MODEL_CHARS = ("SPD", "MAT", "RAT", "DEF", "ARM", "FOC", "STR", "NUM", "DMG", "CST")
WARCASTER_MODELS = ("hero", "solo", "squad", "warjack", "vehicle", "mantlet", "hero_attachment")
WARCASTER_PRIMARY = {"hero": "Hero", "solo": "Unit", "squad": "Unit", "warjack": "Unit", "vehicle": "Unit",
                     "mantlet": "Mantlet", "hero_attachment": "Attachments", "cypher": "Cyphers"}


def _weapon_values(weapon: Mapping[str, Any]) -> dict[str, str]:
    qualities = [title_of(q) for q in weapon.get("qualities") or []] + list(weapon.get("other_qualities") or [])
    return {"TYP": title_of(weapon.get("type")), "RNG": value_text(weapon.get("rng")), "POW": value_text(weapon.get("pow")),
            "Qualities": value_text(qualities)}


def _warcaster_profiles(card: Mapping[str, Any]) -> list[tuple[str, str, dict[str, str]]]:
    kind = card.get("kind")
    name = str(card.get("name_en") or card.get("name"))
    found: list[tuple[str, str, dict[str, str]]] = []
    if kind in WARCASTER_MODELS:
        stats = card.get("stats") or {}
        keys = {"SPD": "spd", "MAT": "mat", "RAT": "rat", "DEF": "def", "ARM": "arm", "FOC": "foc", "STR": "str",
                "NUM": "num", "DMG": "health"}
        values = {char: value_text(stats.get(key)) for char, key in keys.items()}
        values["CST"] = value_text(card.get("cst"))
        found.append(("Model", name, values))
        for weapon in card.get("weapons") or []:
            found.append(("Weapon", str(weapon.get("name_en") or weapon.get("name")), _weapon_values(weapon)))
    elif kind == "weapon":
        found.append(("Weapon", name, _weapon_values(card)))
    elif kind == "cypher":
        attack = next((e for e in card.get("effects") or [] if e.get("kind") == "attack"), {})
        found.append(("Cypher", name, {"Suit": title_of(card.get("suit")), "Type": title_of(card.get("cypher_type")),
                                       "RNG": value_text(attack.get("rng")), "POW": value_text(attack.get("pow"))}))
    return found


def _warcaster_categories(card: Mapping[str, Any]) -> list[Category]:
    primary = WARCASTER_PRIMARY.get(str(card.get("kind")))
    if primary is None:
        return []
    found = [Category(f"kind:{primary.lower()}", primary)]
    if card.get("kind") == "cypher" and card.get("suit"):
        found.append(Category(f"suit:{card.get('suit')}", title_of(card.get("suit"))))
    return found


def _warcaster_copies(card: Mapping[str, Any], options: Mapping[str, Any]) -> int | None:
    value = options.get("max_unit_copies")
    if card.get("kind") in ("solo", "squad", "warjack", "vehicle", "mantlet") and isinstance(value, int):
        return value
    return None


def _warcaster_limits(_system: str, options: Mapping[str, Any]) -> list[tuple[str, str, int]]:
    limits = []
    for key, category, kind in (("max_heroes", "kind:hero", "max"), ("max_units", "kind:unit", "max"),
                                ("max_mantlets", "kind:mantlet", "max"), ("rack_min", "kind:cyphers", "min"),
                                ("rack_max", "kind:cyphers", "max")):
        if isinstance(options.get(key), int):
            limits.append((category, kind, options[key]))
    per_suit = options.get("rack_min_per_suit")
    if isinstance(per_suit, int) and per_suit > 0:
        limits += [(f"suit:{suit}", "min", per_suit) for suit in ("fury", "geometric", "harmonic", "overdrive")]
    return limits


EXPORT = Game(
    cost_types=(("cst", "CST"), ("wp", "Weapon Points")),
    costs=lambda card: {"cst": whole_number(card.get("cst")),
                        "wp": whole_number(card.get("cost")) if card.get("kind") == "weapon" else 0},
    profile_types=(("Model", WARCASTER_MODEL_CHARS), ("Weapon", ("TYP", "RNG", "POW", "Qualities")),
                   ("Cypher", ("Suit", "Type", "RNG", "POW"))),
    profiles=_warcaster_profiles, categories=_warcaster_categories, section_categories=False,
    entry_type=lambda card: {"squad": "unit", "cypher": "upgrade", "cortex": "upgrade", "weapon": "upgrade"}.get(
        str(card.get("kind")), "model"),
    shared=lambda card: card.get("kind") in ("cortex", "weapon"), copies=_warcaster_copies,
    force_limits=_warcaster_limits, entry_groups=_warjack_groups, option_parts=_option_parts,
    add_option_part=_add_option_part)
