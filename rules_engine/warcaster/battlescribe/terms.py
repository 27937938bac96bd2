"""What the reading of the community's Warcaster BattleScribe data maps, by the data's own names: the profile
types, characteristics, hardpoint groups, cypher suits and types, qualities and rules the engine plays, the categories
of a force, and the elements of the published model it never reads (docs/data-packages.md "BattleScribe data"). Read
by the mapper's parts (mapper.py and its mixins) and by the import's preview (MODEL_KINDS_COUNTED)."""
from __future__ import annotations

import re


MODEL_PROFILES = {"Solo": "solo", "Squad": "squad", "Warjack": "warjack", "Vehicle": "vehicle", "Mantlet": "mantlet"}
# BattleScribe characteristic → Hangar stat (DMG is the health boxes, CST the deployment cost)
STAT_KEYS = {"SPD": "spd", "MAT": "mat", "RAT": "rat", "DEF": "def", "ARM": "arm", "FOC": "foc", "NUM": "num",
             "STR": "str", "DMG": "health", "CST": "cst"}
REQUIRED_STATS = {
    "solo": ("SPD", "MAT", "RAT", "DEF", "ARM", "DMG", "CST"), "squad": ("SPD", "MAT", "RAT", "DEF", "ARM", "NUM",
                                                                       "CST"),
    "warjack": ("SPD", "STR", "MAT", "RAT", "DEF", "ARM", "DMG", "CST"), "vehicle": ("SPD", "MAT", "RAT", "DEF", "ARM",
                                                                                     "DMG", "CST"),
    "mantlet": ("DEF", "ARM", "DMG", "CST"), "hero": ("SPD", "MAT", "RAT", "DEF", "ARM", "DMG", "CST"),  # FOC "-": no focus
}
# The community files write a weapon either with RNG and POW only (its type and damage type then come from links to
# the shared rules "Melee"/"Ranged" and "Kinetic", "Energy"...), or with TYP, RNG, POW, DMG (the damage type) and
# Rules (the names of its rules, comma-separated).
WEAPON_CHARS = {"TYP", "RNG", "POW", "Damage Type", "DMG", "Rules"}
# [interpretation] a weapon whose type no TYP nor "Melee"/"Ranged" rule gives is melee at RNG ≤ 2: every melee weapon
# of the community data has RNG 1 or 2, and all but one ranged weapon RNG 6 or more (that one, RNG 1, has TYP Ranged).
# In the community files 3 weapons (Empyrean, RNG 1-2) have neither and are typed by this rule.
MELEE_MAX_RNG = 2
DAMAGE_TYPES = {"kinetic", "energy", "ballistic", "force", "fire", "beam", "explosion", "blast", "cold", "corrosion"}
# [interpretation] a Squad profile without DMG: each model of the squad has 1 damage point (squad models are destroyed
# one by one: the data's rules texts return "one destroyed model" to a squad).
SQUAD_MODEL_HEALTH = 1
CYPHER_CHARS = {"Suit", "Type", "RNG", "POW"}
WEAPON_TYPES = {"ranged": "ranged", "melee": "melee"}
SUITS = {"fury", "geometric", "harmonic", "overdrive"}
CYPHER_TYPES = {"attack", "effect", "geometric", "pulse"}
# Weapon qualities the engine plays (rules_engine/warcaster/models.py QUALITIES), by the shared rule's name.
QUALITIES = {"blast": "blast", "blast weapon": "blast", "spray": "spray", "spray weapon": "spray", "strafe": "strafe",
             "fire": "fire", "corrosion": "corrosion", "lock down": "lockdown", "lockdown": "lockdown",
             "system failure": "system_failure", "armor-piercing": "armor_piercing", "armor piercing": "armor_piercing",
             "armour-piercing": "armor_piercing"}  # Armor-Piercing: W11, the damage roll against ARM − 1
# Model rules the engine plays, as abilities.
RULE_ABILITIES = {"arc node": {"kind": "arc_node", "trigger": "static"}, "flight": {"kind": "flight", "trigger": "static"}}
HARDPOINT_GROUPS = {"cortex": "cortex", "arm": "arm", "arms": "arm", "left arm": "arm", "right arm": "arm",
                    "shoulder": "shoulder", "shoulders": "shoulder", "left shoulder": "shoulder",
                    "right shoulder": "shoulder",
                    # [interpretation] the Empyrean warjacks' Back and Chest hardpoints take what the other factions'
                    # shoulders take (the heavy weapons of 2-4 weapon points): Hangar's slot "shoulder"
                    "back": "shoulder", "chest": "shoulder"}
# A group holding a warjack's hardpoint groups (the community files): its max constraint on the Weapon Points cost is
# the warjack's weapon points.
HARDPOINT_CONTAINERS = {"hardpoints"}
# The community files' cypher rack: a shared selectionEntryGroup per suit holding the cyphers (each an upgrade whose
# rule "-Cypher- Name" has the text "Suit:\n\nPOW(n)\n\n...").
CYPHER_GROUPS = {"furies": "fury", "fury": "fury", "geometrics": "geometric", "geometric": "geometric",
                 "harmonics": "harmonic", "harmonic": "harmonic", "overdrives": "overdrive", "overdrive": "overdrive"}
# [interpretation] a Fury's range is the channelling model's Arc Relay (N); the attack is played at the smallest
# Arc Relay of the community data.
FURY_RNG = 10
FORMAT_CATEGORIES = {"hero": "heroes", "heroes": "heroes", "unit": "units", "units": "units", "mantlet": "mantlets",
                     "mantlets": "mantlets", "cypher": "cyphers", "cyphers": "cyphers"}
# Categories of the community files that need no limit of their own in Hangar: "The Rack" holds the one cypher-rack
# selection (one per roster: a Hangar list always has exactly one rack, whose cyphers W3 counts), "Attachments" the
# squad attachments (max -1, no limit: each attachment's own limit, one per squad it joins, is W4's).
RACK_CATEGORIES = {"the rack"}
ATTACHMENT_CATEGORIES = {"attachments", "attachment"}
UNREAD_CATEGORIES = RACK_CATEGORIES | ATTACHMENT_CATEGORIES
# A squad attachment's CST: "+1" (what it adds to its squad's), a number, or "-" (none given: 0, an [interpretation])
ATTACHMENT_CST = re.compile(r"\+?(\d{1,2})")
# The hardpoint slot of a hero's, solo's or vehicle's own weapon-choice group (its "Hardpoint" group, a hero's weapon
# choice): W5 checks the weapons chosen there as it checks a warjack's
CHOICE_SLOT = "weapon"
# Modifier types that change a number (a cost or a constraint's value); the others ("set-primary", "add", "remove",
# "append"...) change names, categories or visibility, which no rule reads.
NUMBER_MODIFIERS = {"set", "increment", "decrement"}
# Elements of the published model the mapping never reads, by kind, with why (docs/data-packages.md "Not read").
UNREAD_KINDS = {"modifierGroups": "conditional changes", "catalogueLinks": "links between catalogues",
                "publications": "book references", "readme": "the authors' notes", "comment": "the authors' notes",
                "sharedInfoGroups": "shared rule groups", "profileTypes": "the layout of profiles",
                "costLimits": "a roster's limits"}
# An entryLink or infoLink may carry children of its own, added to its target; the mapping reads a link's
# constraints (hardpoint counts) and nothing else it adds.
INFO_ON_LINKS = {"entryLink": "link"}
INFO_ON_LINKS_READ = {"constraints", "modifiers", "modifierGroups", "comment"}  # read, or counted by kind
# The models the mapping makes, as the import's preview counts them by kind (builder/web/dataimport.py).
MODEL_KINDS_COUNTED = ("hero", "solo", "squad", "warjack", "vehicle", "mantlet", "squad_attachment")
FACTION_JA = {"iron-star-alliance": "鉄星同盟", "marcher-worlds": "辺境世界",
              "aeternus-continuum": "アエテルヌス・コンティニュアム", "empyreans": "エンピリアン", "mercenary": "傭兵"}


def _keep_rules(card: dict, text: str, not_modelled: list) -> None:
    """A card's rules text (English: BattleScribe data has no Japanese) and what the simulator plays only in part."""
    if text:
        card["text_en"] = card["text"] = text
    if not_modelled:
        card["not_modelled"] = not_modelled
