"""Warcaster: Neo-Mechanika's reading of the community's BattleScribe data, and how its cards look in the BattleScribe
data Hangar exports (docs/data-packages.md "BattleScribe data"): the game's part of the BattleScribe format
(rules_engine/formats/battlescribe/), declared in its registry entry (`data_formats`).

The files are read and checked by the format's game-neutral part (rules_engine/formats/battlescribe/files.py); odd
data in valid files (an unknown profile type, characteristic, hardpoint group, cypher suit or type, weapon TYP, a
value that is not a whole number, a link to an id no file defines, an id used twice, a weapon linked to both Melee
and Ranged...) is a warning (`Conversion.warnings`: file, element path, entry name and id): that entry or link is
read by a documented rule or left out. Elements of the model the mapping never uses are counted by kind in the
report (UNREAD_KINDS). What it reads:

- catalogues → factions (slug from the name; ja/en names, the ja name from FACTION_JA when known);
- `selectionEntry` with a Solo/Squad/Warjack/Vehicle/Mantlet profile → a model card (a category "Hero" → hero),
  its stats from SPD MAT RAT DEF ARM FOC/NUM STR DMG (health) CST, its fixed weapons from the Weapon profiles of the
  entry and of its child entries (TYP, RNG, POW, Damage Type; qualities from the infoLinks to shared rules);
- a warjack's `selectionEntryGroups` Cortex / Arm(s) / Shoulder(s) → its hardpoints; the entries they link to →
  cortex and weapon cards (a weapon's cost in "Weapon Points"); the warjack's weapon points from its max constraint
  on that cost type;
- an entry with a Cypher profile (Suit, Type, RNG, POW) → a cypher card (in the game system: faction "universal");
- the game system's `forceEntries` → formats (categories Hero/Unit/Mantlet/Cypher and their min/max constraints;
  copies per unit from the entries' roster-scoped max constraints).

Rules the engine plays are mapped to its abilities and qualities (RULE_ABILITIES, QUALITIES); every other rule,
quality or cypher effect keeps its text and is named in the card's `not_modelled`. Every card and weapon keeps its
BattleScribe id as `bs_id`.

Below the mapping: how the game's cards look in the BattleScribe data Hangar exports (`EXPORT`, docs/data-packages.md
"BattleScribe data out"), and the community's rosters of such data, read into a list and written from one
(`read_community_roster`, `write_community_roster`, docs/list-formats.md "BattleScribe rosters").

The part is a package, by job: terms.py (what the reading maps, by the data's names), mapper.py (`read_community_data`
and the Mapper: the files' elements, each entry to its card, the report) with the Mapper's parts by concern —
units.py (units and models), weapons.py (weapons), hardpoints.py (warjack hardpoints and other models' weapon
choices, their cortex and weapon cards), rules.py (abilities, cyphers and the rack), modifiers.py (modifiers and the
formats' limits), attachments.py (squad attachments) —, export.py (`EXPORT`), roster_reader.py
(`read_community_roster`) and roster_writer.py (`write_community_roster`). The format registry and its callers use
the names below (rules_engine/formats/__init__.py `game_part`).
"""
from __future__ import annotations

from rules_engine.warcaster.battlescribe.export import (EXPORT, WARCASTER_MODEL_CHARS, WARCASTER_MODELS,
                                                        WARCASTER_PRIMARY, warjack_parts)
from rules_engine.warcaster.battlescribe.mapper import Mapper, read_community_data
from rules_engine.warcaster.battlescribe.roster_reader import ROSTER_MODEL_KINDS, read_community_roster
from rules_engine.warcaster.battlescribe.roster_writer import write_community_roster
from rules_engine.warcaster.battlescribe.terms import (ATTACHMENT_CATEGORIES, ATTACHMENT_CST, CHOICE_SLOT, CYPHER_CHARS,
                                                       CYPHER_GROUPS, CYPHER_TYPES, DAMAGE_TYPES, FACTION_JA,
                                                       FORMAT_CATEGORIES, FURY_RNG, HARDPOINT_CONTAINERS,
                                                       HARDPOINT_GROUPS, INFO_ON_LINKS, INFO_ON_LINKS_READ,
                                                       MELEE_MAX_RNG, MODEL_KINDS_COUNTED, MODEL_PROFILES,
                                                       NUMBER_MODIFIERS, QUALITIES, RACK_CATEGORIES, REQUIRED_STATS,
                                                       RULE_ABILITIES, SQUAD_MODEL_HEALTH, STAT_KEYS, SUITS,
                                                       UNREAD_CATEGORIES, UNREAD_KINDS, WEAPON_CHARS, WEAPON_TYPES)

__all__ = [
    # the format registry's names (rules_engine/formats/battlescribe/, builder/listio/roster.py, the import's preview)
    "EXPORT", "MODEL_KINDS_COUNTED", "read_community_data", "read_community_roster", "write_community_roster",
    # the reading's terms and interpretations, as the module had them
    "ATTACHMENT_CATEGORIES", "ATTACHMENT_CST", "CHOICE_SLOT", "CYPHER_CHARS", "CYPHER_GROUPS", "CYPHER_TYPES",
    "DAMAGE_TYPES", "FACTION_JA", "FORMAT_CATEGORIES", "FURY_RNG", "HARDPOINT_CONTAINERS", "HARDPOINT_GROUPS",
    "INFO_ON_LINKS", "INFO_ON_LINKS_READ", "MELEE_MAX_RNG", "MODEL_PROFILES", "NUMBER_MODIFIERS", "QUALITIES",
    "RACK_CATEGORIES", "REQUIRED_STATS", "ROSTER_MODEL_KINDS", "RULE_ABILITIES", "SQUAD_MODEL_HEALTH", "STAT_KEYS",
    "SUITS", "UNREAD_CATEGORIES", "UNREAD_KINDS", "WARCASTER_MODELS", "WARCASTER_MODEL_CHARS", "WARCASTER_PRIMARY",
    "WEAPON_CHARS", "WEAPON_TYPES", "Mapper", "warjack_parts",
]
