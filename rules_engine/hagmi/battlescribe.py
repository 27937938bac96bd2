"""How HAGMI!'s cards look in the BattleScribe data Hangar exports (rules_engine/formats/battlescribe/export.py,
docs/data-packages.md "BattleScribe data out"): the game's part of the BattleScribe format, declared in its registry
entry (`data_formats`). A card's deck is its section; its category (unit, armament, tactic...) a category of its own.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules_engine.formats.battlescribe.export import Category, Game, title_of, value_text, whole_number
from rules_engine.hagmi.system import SYSTEM


def _hagmi_profiles(card: Mapping[str, Any]) -> list[tuple[str, str, dict[str, str]]]:
    values = {"Category": title_of(card.get("category")), "Frame": title_of(card.get("frame")),
              "Cost": value_text(card.get("cost")), "Firepower": value_text(card.get("firepower")),
              "Armor": value_text(card.get("armor")), "Range": value_text(card.get("range")),
              "Durability": value_text(card.get("durability")), "Fuel": value_text(card.get("fuel_cost")),
              "Pilot": value_text(card.get("pilot")), "Types": value_text(card.get("types"))}
    return [("Card", str(card.get("name_en") or card.get("name")), values)]


def _hagmi_categories(card: Mapping[str, Any]) -> list[Category]:
    name = title_of(card.get("category"))
    if name.lower() in {str(label.en).lower() for label in SYSTEM.section_labels.values()}:
        name += " card"  # "Damage" is a deck; the category of its cards is "Damage card"
    return [Category(f"card:{card.get('category')}", name)]


def _hagmi_copies(card: Mapping[str, Any], options: Mapping[str, Any]) -> int | None:
    secret = SYSTEM.default_section(card) == "secret"
    value = options.get("secret_max_copies" if secret else "max_copies")
    return value if isinstance(value, int) and value > 0 else None


def _hagmi_limits(_system: str, options: Mapping[str, Any]) -> list[tuple[str, str, int]]:
    limits = []
    for section, key in (("weapons", "min_weapons"), ("tactics", "min_tactics")):
        if isinstance(options.get(key), int) and options[key] > 0:
            limits.append((f"section:{section}", "min", options[key]))
    return limits


EXPORT = Game(
    cost_types=(("cost", "Cost"),), costs=lambda card: {"cost": whole_number(card.get("cost"))},
    profile_types=(("Card", ("Category", "Frame", "Cost", "Firepower", "Armor", "Range", "Durability", "Fuel",
                             "Pilot", "Types")),),
    profiles=_hagmi_profiles, categories=_hagmi_categories, section_categories=True,
    entry_type=lambda card: "upgrade",
    shared=lambda card: str(card.get("category")) in SYSTEM.opponent_categories,
    copies=_hagmi_copies, force_limits=_hagmi_limits)
