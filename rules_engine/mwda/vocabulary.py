"""The words for the values of MechWarrior: Dark Age's card fields (docs/card-fields.md) and of its policies, in the
reader's language (rules_engine/core/words.py): the site shows these instead of a slug. The game's presentation
(presentation.py) carries them as `words`; builder/web/vocabulary.py reads them through the registry."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules_engine.core.words import _tl

# field -> value -> its word
WORDS: Mapping[str, Mapping[str, Any]] = {
    "kind": {
        "mech": _tl("mwda kind", "Mech"),
        "vehicle": _tl("mwda kind", "Vehicle"),
        "infantry": _tl("mwda kind", "Infantry"),
    },
    "faction": {
        "republic": _tl("mwda faction", "Republic of the Sphere"),
        "steel-wolves": _tl("mwda faction", "Steel Wolves"),
        "spirit-cats": _tl("mwda faction", "Spirit Cats"),
        "highlanders": _tl("mwda faction", "Highlanders"),
        "bannson": _tl("mwda faction", "Bannson's Raiders"),
        "mercenary": _tl("mwda faction", "Mercenary"),
    },
    "rank": {
        "green": _tl("mwda rank", "Green"),
        "veteran": _tl("mwda rank", "Veteran"),
        "elite": _tl("mwda rank", "Elite"),
        "unique": _tl("mwda rank", "Unique"),
    },
    "damage_type": {
        "ballistic": _tl("mwda damage type", "Ballistic"),
        "energy": _tl("mwda damage type", "Energy (1 damage to infantry)"),
    },
    "base": {
        "standard": _tl("mwda base", "Standard base (1.25″ round)"),
        "large": _tl("mwda base", "Large base"),
    },
    "ability": {
        "jump": _tl("mwda ability", "Jump"),
        "capture": _tl("mwda ability", "Capture"),
        "ecm": _tl("mwda ability", "ECM"),
        "stealth": _tl("mwda ability", "Stealth"),
        "flight": _tl("mwda ability", "Flight"),
        "hover": _tl("mwda ability", "Hover"),
        "indirect_fire": _tl("mwda ability", "Indirect fire"),
        "transport": _tl("mwda ability", "Transport"),
        "repair": _tl("mwda ability", "Repair"),
    },
    "policy": {
        "greedy": _tl("mwda policy", "Aggressive (focus fire, keeps out of the enemy's reach first; steps in "
                                               "when level or behind late in the battle)"),
        "defensive": _tl("mwda policy", "Defensive (shoots from range, never charges, falls back)"),
        "search": _tl("mwda policy", "Search (plays out each option with fresh dice)"),
        "random": _tl("policy", "Random legal moves"),
    },
}
