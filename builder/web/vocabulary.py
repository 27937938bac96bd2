"""Words for the values of card fields (docs/card-fields.md): 兵装 / Unit for HAGMI's `unit`, 鉄星同盟 / Iron Star
Alliance for `iron-star-alliance`, ... in the UI language (Django i18n, locale/ja), so no page shows a slug.

    label("hagmi", "category", "unit")      -> "Unit" / "兵装"
    choices("warcaster", "suit", ["fury"])  -> [("fury", "Fury")]

A faction this table does not know is shown by the name the package that declares it gives (its "factions", ja/en
names: a BattleScribe import declares one per catalogue). Any other value a package uses but this table does not know
is shown with its hyphens and underscores turned into spaces, never as a raw slug.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import get_language, pgettext_lazy

from rules_engine.core.messages import Label
from rules_engine.core.naming import END_REASON_WORDS
from rules_engine.core.words import humanise as _humanise
from rules_engine.systems import SYSTEMS

# The words every game shares: ("*", field) -> value -> label. A game's own words (its card fields' values, its
# policies) are in its package (rules_engine/<game>/vocabulary.py), read through its presentation: `words()`.
LABELS: Mapping[tuple[str, str], Mapping[str, Any]] = {
    ("*", "visibility"): {  # builder.models.Visibility
        "private": pgettext_lazy("visibility", "Private"),
        "unlisted": pgettext_lazy("visibility", "Unlisted"),
        "public": pgettext_lazy("visibility", "Public"),
    },
    ("*", "diff_field"): {  # a list's own fields in a history diff (builder.selectors.DIFF_FIELDS)
        "name": pgettext_lazy("list field", "Name"),
        "format": pgettext_lazy("list field", "Format"),
        "notes": pgettext_lazy("list field", "Notes"),
        "visibility": pgettext_lazy("list field", "Visibility"),
    },
    ("*", "sort"): {  # the catalog's and the picker's orders (cards.selectors.CARD_ORDERINGS)
        "code": pgettext_lazy("sort", "Code"),
        "name": pgettext_lazy("sort", "Name"),
        "cost": pgettext_lazy("sort", "Cost"),
        "-code": pgettext_lazy("sort", "Code, descending"),
        "-name": pgettext_lazy("sort", "Name, descending"),
        "-cost": pgettext_lazy("sort", "Cost, descending"),
    },
    ("*", "end_reason"): END_REASON_WORDS,  # rules_engine/core/outcome.py, worded in rules_engine/core/naming.py
}

# The fields of a card, in words (a package version's diff names the fields that changed).
CARD_FIELDS: Mapping[str, Any] = {
    "code": pgettext_lazy("card field", "Code"), "name": pgettext_lazy("card field", "Name"),
    "name_en": pgettext_lazy("card field", "English name"), "text": pgettext_lazy("card field", "Text"),
    "text_en": pgettext_lazy("card field", "English text"), "release": pgettext_lazy("card field", "Release"),
    "category": pgettext_lazy("card field", "Category"), "subtype": pgettext_lazy("card field", "Kind of tactic"),
    "frame": pgettext_lazy("card field", "Frame"), "cost": pgettext_lazy("card field", "Cost"),
    "pilot": pgettext_lazy("card field", "Pilot"), "types": pgettext_lazy("card field", "Types"),
    "firepower": pgettext_lazy("card field", "Firepower"), "armor": pgettext_lazy("card field", "Armor"),
    "range": pgettext_lazy("card field", "Range"), "fuel_cost": pgettext_lazy("card field", "Fuel cost"),
    "targets": pgettext_lazy("card field", "Targets"), "durability": pgettext_lazy("card field", "Durability"),
    "equip": pgettext_lazy("card field", "Equip condition"), "skills": pgettext_lazy("card field", "Skills"),
    "usable_from_secret": pgettext_lazy("card field", "Used from Secret"),
    "energy": pgettext_lazy("card field", "Energy"), "life_cores": pgettext_lazy("card field", "Life cores"),
    "action_order": pgettext_lazy("card field", "Action order"), "bounty": pgettext_lazy("card field", "Bounty"),
    "cores": pgettext_lazy("card field", "Cores"), "terrain": pgettext_lazy("card field", "Terrain"),
    "attrition": pgettext_lazy("card field", "Core attrition"), "kind": pgettext_lazy("card field", "Kind"),
    "points": pgettext_lazy("card field", "Points"), "unique": pgettext_lazy("card field", "Unique"),
    "faction": pgettext_lazy("card field", "Faction"), "rank": pgettext_lazy("card field", "Rank"),
    "order_bonus": pgettext_lazy("card field", "Order bonus"), "base": pgettext_lazy("card field", "Base"),
    "abilities": pgettext_lazy("card field", "Abilities"),
    "primary": pgettext_lazy("card field", "Primary weapon"),
    "secondary": pgettext_lazy("card field", "Secondary weapon"),
    "dial": pgettext_lazy("card field", "Combat dial"), "heat_dial": pgettext_lazy("card field", "Heat dial"),
    "vent": pgettext_lazy("card field", "Vent"), "cst": pgettext_lazy("card field", "CST"),
    "stats": pgettext_lazy("card field", "Stats"), "weapons": pgettext_lazy("card field", "Weapons"),
    "weapon_points": pgettext_lazy("card field", "Weapon points"),
    "type": pgettext_lazy("card field", "Weapon type"), "rng": pgettext_lazy("card field", "Range (RNG)"),
    "pow": pgettext_lazy("card field", "Power (POW)"), "qualities": pgettext_lazy("card field", "Qualities"),
    "suit": pgettext_lazy("card field", "Suit"), "cypher_type": pgettext_lazy("card field", "Cypher type"),
    "effects": pgettext_lazy("card field", "Effects"), "attaches_to": pgettext_lazy("card field", "Attaches to"),
    # the parameters of skills, effects, weapons and dial clicks (the card editor's inputs)
    "amount": pgettext_lazy("card field", "Amount"), "at": pgettext_lazy("card field", "At cores"),
    "condition": pgettext_lazy("card field", "Condition"), "count": pgettext_lazy("card field", "Count"),
    "deck": pgettext_lazy("card field", "Deck"), "duration": pgettext_lazy("card field", "Duration"),
    "from": pgettext_lazy("card field", "From"), "how": pgettext_lazy("card field", "How"),
    "into": pgettext_lazy("card field", "Into"), "max_armor": pgettext_lazy("card field", "At most armor"),
    "max_cost": pgettext_lazy("card field", "At most cost"), "max_damage": pgettext_lazy("card field", "At most damage"),
    "max_damage_deck": pgettext_lazy("card field", "Damage deck at most"),
    "min_fuel": pgettext_lazy("card field", "At least fuel"), "min_units": pgettext_lazy("card field", "At least units"),
    "once_per_turn": pgettext_lazy("card field", "Once per turn"), "pay_cost": pgettext_lazy("card field", "Pay its cost"),
    "range_longer": pgettext_lazy("card field", "Only against a longer range"),
    "self_types": pgettext_lazy("card field", "This unit's types"), "source": pgettext_lazy("card field", "Source"),
    "target": pgettext_lazy("card field", "Target"), "target_category": pgettext_lazy("card field", "Target category"),
    "target_types": pgettext_lazy("card field", "Target's types"), "to": pgettext_lazy("card field", "To"),
    "trigger": pgettext_lazy("card field", "Trigger"), "unreducible": pgettext_lazy("card field", "Unreducible"),
    "attack": pgettext_lazy("card field", "Attack"), "damage_type": pgettext_lazy("card field", "Damage type"),
    "defense": pgettext_lazy("card field", "Defense"), "min_range": pgettext_lazy("card field", "Minimum range"),
    "max_range": pgettext_lazy("card field", "Maximum range"), "move": pgettext_lazy("card field", "Move"),
    "primary_damage": pgettext_lazy("card field", "Primary damage"),
    "secondary_damage": pgettext_lazy("card field", "Secondary damage"),
    "shutdown": pgettext_lazy("card field", "Shutdown"), "arc_cost": pgettext_lazy("card field", "Arc cost"),
    "area": pgettext_lazy("card field", "Area"), "cortex": pgettext_lazy("card field", "Cortex"),
    "distance": pgettext_lazy("card field", "Distance"), "effect": pgettext_lazy("card field", "Effect"),
    "hardpoints": pgettext_lazy("card field", "Hardpoints"), "not_modelled": pgettext_lazy("card field", "Not modelled"),
    "other_qualities": pgettext_lazy("card field", "Other qualities"), "place": pgettext_lazy("card field", "Place"),
    "slot": pgettext_lazy("card field", "Slot"), "slug": pgettext_lazy("card field", "Identifier"),
    "stat": pgettext_lazy("card field", "Stat"),
}


def said(word: Any) -> str:
    """A word in the UI language: a translated string, or a game's own `Label` (its words in both languages in its
    package: a game outside rules_engine/ has no lines in the site's catalogue of translations)."""
    if isinstance(word, Label):
        return word.get("ja" if (get_language() or "en").startswith("ja") else "en")
    return str(word)


def card_field(field: str) -> str:
    """A card field in words ("fuel_cost" -> "Fuel cost" / 燃料コスト); a Warcaster stat by its abbreviation."""
    known = CARD_FIELDS.get(field) or next(
        (entry.presentation.words["stat"][field] for entry in SYSTEMS.values()
         if field in entry.presentation.words.get("stat", {})), None)
    return said(known) if known is not None else humanise(field)


def words(system: str, field: str) -> Mapping[str, Any]:
    """value -> word for one field: the game's own (rules_engine/<game>/vocabulary.py, through its presentation),
    else the words every game shares (LABELS), else none."""
    entry = SYSTEMS.get(system) if isinstance(system, str) else None
    own = entry.presentation.words.get(field) if entry is not None else None
    return own or LABELS.get(("*", field), {})


def all_words() -> dict[tuple[str, str], Mapping[str, Any]]:
    """(system, field) -> value -> word for every game's fields and ("*", field) for the shared ones: every
    vocabulary a page may show."""
    tables = {(slug, field): table for slug, entry in SYSTEMS.items() for field, table in entry.presentation.words.items()}
    return {**tables, **LABELS}


def _category_field(system: str, field: str) -> str:
    """The picker's "category" is the game's own column (HAGMI's category, a unit's kind): its presentation says."""
    entry = SYSTEMS.get(system) if isinstance(system, str) else None
    return entry.presentation.category_field if field == "category" and entry is not None else field


def humanise(value: Any) -> str:
    """An unknown slug in words: "steel-wolves" -> "steel wolves" (rules_engine/core/words.py, the games' own)."""
    return _humanise(value)


def label(system: str, field: str, value: Any) -> str:
    """The words for one value of a card field, in the UI language."""
    field = _category_field(system, field)
    table = words(system, field)
    known = table.get(value) if isinstance(value, str) else None
    if known is not None:
        return said(known)
    if field == "faction" and isinstance(value, str) and value:
        declared = package_faction(system, value)
        if declared:
            return declared
    prefix = _counted_prefix(system, field)
    if prefix and isinstance(value, str) and value.startswith(prefix):
        count = value.removeprefix(prefix)
        return str(pgettext_lazy("hagmi targets", "Up to %(count)s targets")) % {"count": count}
    return humanise(value)


def _counted_prefix(system: str, field: str) -> str:
    """The prefix of a card field's counted values in the game's presentation ("multi-" of HAGMI's targets), or ""."""
    entry = SYSTEMS.get(system) if isinstance(system, str) else None
    return entry.presentation.counted_values.get(field, "") if entry is not None else ""


def package_faction(system: str, slug: str) -> str:
    """A faction a loaded package declares (Warcaster packages name their factions, a BattleScribe import
    one per catalogue), by its name in the UI language; "" when no package declares it."""
    from cards.selectors import declared_factions  # the catalog's reads; imported here, vocabulary is imported early

    faction = declared_factions(system).get(slug)
    if not faction:
        return ""
    return faction["name"] if (get_language() or "en").startswith("ja") else faction["name_en"]


def choices(system: str, field: str, values: Iterable[Any]) -> list[tuple[str, str]]:
    """(value, words) pairs for a select, in the table's order, then unknown values sorted."""
    present = {str(value) for value in values if value not in (None, "")}
    field = _category_field(system, field)
    table = words(system, field)
    ordered = [value for value in table if value in present] + sorted(present - set(table))
    return [(value, label(system, field, value)) for value in ordered]
