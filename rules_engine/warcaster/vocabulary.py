"""The words for the values of Warcaster: Neo-Mechanika's card fields (docs/card-fields.md) and of its policies, in the
reader's language (rules_engine/core/words.py): the site shows these instead of a slug. The game's presentation
(presentation.py) carries them as `words`; builder/web/vocabulary.py reads them through the registry."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules_engine.core.words import _tl

# field -> value -> its word
WORDS: Mapping[str, Mapping[str, Any]] = {
    "kind": {
        "hero": _tl("warcaster kind", "Hero"),
        "hero_attachment": _tl("warcaster kind", "Hero attachment"),
        "squad_attachment": _tl("warcaster kind", "Squad attachment"),
        "squad": _tl("warcaster kind", "Squad"),
        "solo": _tl("warcaster kind", "Solo"),
        "warjack": _tl("warcaster kind", "Warjack"),
        "vehicle": _tl("warcaster kind", "Vehicle"),
        "mantlet": _tl("warcaster kind", "Mantlet"),
        "cortex": _tl("warcaster kind", "Cortex"),
        "weapon": _tl("warcaster kind", "Warjack weapon"),
        "cypher": _tl("warcaster kind", "Cypher"),
    },
    "faction": {
        "iron-star-alliance": _tl("warcaster faction", "Iron Star Alliance"),
        "marcher-worlds": _tl("warcaster faction", "Marcher Worlds"),
        "aeternus-continuum": _tl("warcaster faction", "Aeternus Continuum"),
        "empyreans": _tl("warcaster faction", "Empyreans"),
        "mercenary": _tl("warcaster faction", "Mercenary"),
        "universal": _tl("warcaster faction", "Universal (any faction)"),
    },
    "suit": {
        "fury": _tl("warcaster suit", "Fury"),
        "geometric": _tl("warcaster suit", "Geometric"),
        "harmonic": _tl("warcaster suit", "Harmonic"),
        "overdrive": _tl("warcaster suit", "Overdrive"),
    },
    "cypher_type": {
        "attack": _tl("warcaster cypher type", "Attack"),
        "effect": _tl("warcaster cypher type", "Effect"),
        "geometric": _tl("warcaster cypher type", "Geometric"),
        "pulse": _tl("warcaster cypher type", "Pulse"),
    },
    "weapon_type": {
        "ranged": _tl("warcaster weapon type", "Ranged"),
        "melee": _tl("warcaster weapon type", "Melee"),
    },
    "quality": {
        "strafe": _tl("warcaster quality", "Strafe"),
        "blast": _tl("warcaster quality", "Blast"),
        "spray": _tl("warcaster quality", "Spray"),
        "armor_piercing": _tl("warcaster quality", "Armor-Piercing"),
        "fire": _tl("warcaster quality", "Fire"),
        "corrosion": _tl("warcaster quality", "Corrosion"),
        "lockdown": _tl("warcaster quality", "Lockdown"),
        "system_failure": _tl("warcaster quality", "System Failure"),
    },
    "effect": {  # continuous effects (W15)
        "fire": _tl("warcaster effect", "Fire"),
        "corrosion": _tl("warcaster effect", "Corrosion"),
        "lockdown": _tl("warcaster effect", "Lockdown"),
        "system_failure": _tl("warcaster effect", "System Failure"),
        "tune_up": _tl("warcaster effect", "Tune Up"),
    },
    "stat": {
        "spd": _tl("warcaster stat", "SPD"),
        "mat": _tl("warcaster stat", "MAT"),
        "rat": _tl("warcaster stat", "RAT"),
        "def": _tl("warcaster stat", "DEF"),
        "arm": _tl("warcaster stat", "ARM"),
        "foc": _tl("warcaster stat", "FOC"),
        "health": _tl("warcaster stat", "Health"),
        "num": _tl("warcaster stat", "Models"),
        "str": _tl("warcaster stat", "STR"),
        "rng": _tl("warcaster stat", "RNG"),  # a weapon's range and power
        "pow": _tl("warcaster stat", "POW"),
    },
    "target": {
        "self": _tl("warcaster target", "this model"),
        "friendly_model": _tl("warcaster target", "a friendly model"),
        "friendly_unit": _tl("warcaster target", "a friendly unit"),
        "friendly_warjack": _tl("warcaster target", "a friendly warjack"),
        "enemy_model": _tl("warcaster target", "an enemy model"),
        "enemy_unit": _tl("warcaster target", "an enemy unit"),
        "enemy_warjack": _tl("warcaster target", "an enemy warjack"),
        "any_model": _tl("warcaster target", "any model"),
        "all_friendly": _tl("warcaster target", "every friendly model"),
        "all_enemy": _tl("warcaster target", "every enemy model"),
        "all_models": _tl("warcaster target", "every model"),
    },
    "trigger": {
        "static": _tl("warcaster trigger", "Always"),
        "action": _tl("warcaster trigger", "Action"),
        "on_activate": _tl("warcaster trigger", "When it activates"),
        "on_hit": _tl("warcaster trigger", "After it hits"),
        "on_destroyed": _tl("warcaster trigger", "When destroyed"),
        "on_deploy": _tl("warcaster trigger", "When deployed"),
    },
    "duration": {
        "turn": _tl("warcaster duration", "this turn"),
        "round": _tl("warcaster duration", "this pulse round"),
        "static": _tl("warcaster duration", "always"),
    },
    "policy": {
        "greedy": _tl("warcaster policy", "Greedy (best attack and cypher each activation)"),
        "search": _tl("policy", "Search (plays out each option on sampled hands and decks)"),
        "random": _tl("policy", "Random legal moves"),
    },
    "effect_kind": {
        "attack": _tl("warcaster effect kind", "Attack"),
        "damage": _tl("warcaster effect kind", "Damage"),
        "apply_effect": _tl("warcaster effect kind", "Apply a continuous effect"),
        "remove_effect": _tl("warcaster effect kind", "Remove a continuous effect"),
        "heal": _tl("warcaster effect kind", "Heal"),
        "move": _tl("warcaster effect kind", "Move"),
        "arc": _tl("warcaster effect kind", "Arc"),
        "draw": _tl("warcaster effect kind", "Draw cyphers"),
        "shield": _tl("warcaster effect kind", "Shield"),
        "stat_mod": _tl("warcaster effect kind", "Stat modification"),
        "immunity": _tl("warcaster effect kind", "Immunity"),
        "flight": _tl("warcaster effect kind", "Flight"),
        "arc_node": _tl("warcaster effect kind", "Arc node"),
    },
}
