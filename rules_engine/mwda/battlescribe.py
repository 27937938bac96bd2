"""How MechWarrior: Dark Age's units look in the BattleScribe data Hangar exports
(rules_engine/formats/battlescribe/export.py, docs/data-packages.md "BattleScribe data out"): the game's part of the
BattleScribe format, declared in its registry entry (`data_formats`). One army; a unit's kind and faction are
categories; the dial's first click in the profile.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules_engine.formats.battlescribe.export import Category, Game, title_of, value_text, whole_number


def _mwda_profiles(card: Mapping[str, Any]) -> list[tuple[str, str, dict[str, str]]]:
    dial = card.get("dial") or [{}]
    first = dial[0] if isinstance(dial[0], Mapping) else {}

    def attack(key: str) -> str:
        attack = card.get(key)
        if not isinstance(attack, Mapping):
            return "-"
        return f"{attack.get('min_range', 0)}-{attack.get('max_range', 0)} {attack.get('damage_type', '')}".strip()

    values = {"Kind": title_of(card.get("kind")), "Faction": title_of(card.get("faction")),
              "Rank": title_of(card.get("rank")),
              "Points": value_text(card.get("points")), "Primary": attack("primary"), "Secondary": attack("secondary"),
              "Move": value_text(first.get("move")), "Attack": value_text(first.get("attack")),
              "Defense": value_text(first.get("defense")), "Damage": value_text(first.get("primary_damage")),
              "Clicks": str(len(dial)), "Abilities": value_text([title_of(a) for a in card.get("abilities") or []])}
    return [("Unit", str(card.get("name_en") or card.get("name")), values)]


def _mwda_categories(card: Mapping[str, Any]) -> list[Category]:
    found = [Category(f"kind:{card.get('kind')}", title_of(card.get("kind")))]
    if card.get("faction"):
        found.append(Category(f"faction:{card.get('faction')}", title_of(card.get("faction"))))
    return found


def _mwda_limits(system: str, options: Mapping[str, Any]) -> list[tuple[str, str, int]]:
    limit = options.get("point_limit")
    return [("cost:points", "max", limit)] if isinstance(limit, int) and limit > 0 else []


EXPORT = Game(
    cost_types=(("points", "Points"),), costs=lambda card: {"points": whole_number(card.get("points"))},
    profile_types=(("Unit", ("Kind", "Faction", "Rank", "Points", "Primary", "Secondary", "Move", "Attack",
                             "Defense", "Damage", "Clicks", "Abilities")),),
    profiles=_mwda_profiles, categories=_mwda_categories, section_categories=True,
    entry_type=lambda card: "unit", shared=lambda card: False, copies=lambda card, options: None,
    force_limits=_mwda_limits)
