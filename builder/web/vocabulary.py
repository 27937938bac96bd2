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

from rules_engine.core import outcome
from rules_engine.systems import SYSTEMS

# (system, field) -> value -> label. "*" as the system: the same words for every system.
LABELS: Mapping[tuple[str, str], Mapping[str, Any]] = {
    # --- HAGMI -----------------------------------------------------------------------------------------------
    ("hagmi", "category"): {
        "unit": pgettext_lazy("hagmi category", "Unit"),
        "armament": pgettext_lazy("hagmi category", "Armament"),
        "tactic": pgettext_lazy("hagmi category", "Tactic"),
        "damage": pgettext_lazy("hagmi category", "Damage"),
        "design": pgettext_lazy("hagmi category", "Design unit"),
        "beast": pgettext_lazy("hagmi category", "Beast"),
        "mothership": pgettext_lazy("hagmi category", "Mothership"),
    },
    ("hagmi", "subtype"): {
        "order": pgettext_lazy("hagmi subtype", "Order (one-shot)"),
        "facility": pgettext_lazy("hagmi subtype", "Facility (stays)"),
    },
    ("hagmi", "frame"): {
        "black": pgettext_lazy("hagmi frame", "Black"),
        "blue": pgettext_lazy("hagmi frame", "Blue"),
        "red": pgettext_lazy("hagmi frame", "Red"),
        "white": pgettext_lazy("hagmi frame", "White"),
        "gold": pgettext_lazy("hagmi frame", "Gold"),
        "silver": pgettext_lazy("hagmi frame", "Silver"),
    },
    ("hagmi", "targets"): {
        "single": pgettext_lazy("hagmi targets", "Single target"),
        "all": pgettext_lazy("hagmi targets", "All (the opponent and everything they control)"),
    },
    ("hagmi", "type"): {  # a unit's types (タイプ): the package writes them in Japanese, the words are the values
        "強襲": pgettext_lazy("hagmi type", "Assault"),
        "近接": pgettext_lazy("hagmi type", "Close combat"),
        "狙撃": pgettext_lazy("hagmi type", "Sniper"),
        "砲撃": pgettext_lazy("hagmi type", "Artillery"),
        "重装": pgettext_lazy("hagmi type", "Heavy"),
        "防衛": pgettext_lazy("hagmi type", "Defender"),
        "飛行": pgettext_lazy("hagmi type", "Flying"),
        "機動": pgettext_lazy("hagmi type", "Mobile"),
        "支援": pgettext_lazy("hagmi type", "Support"),
        "電子": pgettext_lazy("hagmi type", "Electronic"),
        "改装": pgettext_lazy("hagmi type", "Refit"),
    },
    # the words of a HAGMI skill (docs/data-packages.md §3.3); builder/web/cardtext.py writes each skill as a sentence
    ("hagmi", "trigger"): {
        "on_enter": pgettext_lazy("hagmi trigger", "When this enters the battlefield"),
        "on_destroyed": pgettext_lazy("hagmi trigger", "When destroyed"),
        "on_attack": pgettext_lazy("hagmi trigger", "On attack"),
        "on_defend": pgettext_lazy("hagmi trigger", "On defence (counter or intercept)"),
        "emergency": pgettext_lazy("hagmi trigger", "Emergency"),
        "counter": pgettext_lazy("hagmi trigger", "Damage counter (when turned up by damage)"),
        "static": pgettext_lazy("hagmi trigger", "Static"),
        "hidden_mechanism": pgettext_lazy("hagmi trigger", "Hidden mechanism (once per turn)"),
        "main": pgettext_lazy("hagmi trigger", "Activate (your main phase)"),
        "on_play": pgettext_lazy("hagmi trigger", "When played"),
        "on_turn_start": pgettext_lazy("hagmi trigger", "At the start of your turn"),
        "on_turn_end": pgettext_lazy("hagmi trigger", "At the end of your turn"),
    },
    ("hagmi", "target"): {
        "self": pgettext_lazy("hagmi target", "this unit"),
        "you": pgettext_lazy("hagmi target", "you"),
        "opponent": pgettext_lazy("hagmi target", "the opponent"),
        "all_opponents": pgettext_lazy("hagmi target", "every opponent"),
        "target": pgettext_lazy("hagmi target", "the target"),
        "attacker": pgettext_lazy("hagmi target", "the attacking unit"),
        "enemy_unit": pgettext_lazy("hagmi target", "an enemy unit"),
        "all_enemy_units": pgettext_lazy("hagmi target", "every enemy unit"),
        "friendly_unit": pgettext_lazy("hagmi target", "a friendly unit"),
        "all_friendly_units": pgettext_lazy("hagmi target", "every friendly unit"),
        "equipped_unit": pgettext_lazy("hagmi target", "the equipped unit"),
        "all_units": pgettext_lazy("hagmi target", "every unit"),
    },
    ("hagmi", "duration"): {
        "attack": pgettext_lazy("hagmi duration", "for this attack"),
        "battle": pgettext_lazy("hagmi duration", "for this battle"),
        "turn": pgettext_lazy("hagmi duration", "until the end of the turn"),
        "permanent": pgettext_lazy("hagmi duration", "permanently (a modification)"),
    },
    ("hagmi", "deck"): {
        "weapons": pgettext_lazy("hagmi deck", "the Weapons deck"),
        "tactics": pgettext_lazy("hagmi deck", "the Tactics deck"),
        "choice": pgettext_lazy("hagmi deck", "the Weapons or Tactics deck (your choice)"),
    },
    ("hagmi", "source"): {
        "weapons_deck": pgettext_lazy("hagmi source", "the top of the Weapons deck"),
        "tactics_deck": pgettext_lazy("hagmi source", "the top of the Tactics deck"),
        "hand": pgettext_lazy("hagmi source", "your hand"),
        "discard": pgettext_lazy("hagmi source", "your discard pile"),
        "secret": pgettext_lazy("hagmi source", "Secret"),
        "beast_deck": pgettext_lazy("hagmi source", "the beast deck"),
        "battlefield": pgettext_lazy("hagmi source", "the battlefield"),
    },
    ("hagmi", "terrain"): {
        "land": pgettext_lazy("hagmi terrain", "Land"),
        "sea": pgettext_lazy("hagmi terrain", "Sea"),
        "air": pgettext_lazy("hagmi terrain", "Air"),
        "space": pgettext_lazy("hagmi terrain", "Space"),
    },
    # --- MechWarrior: Dark Age -------------------------------------------------------------------------------
    ("mwda", "kind"): {
        "mech": pgettext_lazy("mwda kind", "Mech"),
        "vehicle": pgettext_lazy("mwda kind", "Vehicle"),
        "infantry": pgettext_lazy("mwda kind", "Infantry"),
    },
    ("mwda", "faction"): {
        "republic": pgettext_lazy("mwda faction", "Republic of the Sphere"),
        "steel-wolves": pgettext_lazy("mwda faction", "Steel Wolves"),
        "spirit-cats": pgettext_lazy("mwda faction", "Spirit Cats"),
        "highlanders": pgettext_lazy("mwda faction", "Highlanders"),
        "bannson": pgettext_lazy("mwda faction", "Bannson's Raiders"),
        "mercenary": pgettext_lazy("mwda faction", "Mercenary"),
    },
    ("mwda", "rank"): {
        "green": pgettext_lazy("mwda rank", "Green"),
        "veteran": pgettext_lazy("mwda rank", "Veteran"),
        "elite": pgettext_lazy("mwda rank", "Elite"),
        "unique": pgettext_lazy("mwda rank", "Unique"),
    },
    ("mwda", "damage_type"): {
        "ballistic": pgettext_lazy("mwda damage type", "Ballistic"),
        "energy": pgettext_lazy("mwda damage type", "Energy (1 damage to infantry)"),
    },
    ("mwda", "base"): {
        "standard": pgettext_lazy("mwda base", "Standard base (1.25″ round)"),
        "large": pgettext_lazy("mwda base", "Large base"),
    },
    ("mwda", "ability"): {
        "jump": pgettext_lazy("mwda ability", "Jump"),
        "capture": pgettext_lazy("mwda ability", "Capture"),
        "ecm": pgettext_lazy("mwda ability", "ECM"),
        "stealth": pgettext_lazy("mwda ability", "Stealth"),
        "flight": pgettext_lazy("mwda ability", "Flight"),
        "hover": pgettext_lazy("mwda ability", "Hover"),
        "indirect_fire": pgettext_lazy("mwda ability", "Indirect fire"),
        "transport": pgettext_lazy("mwda ability", "Transport"),
        "repair": pgettext_lazy("mwda ability", "Repair"),
    },
    # --- Warcaster -------------------------------------------------------------------------------------------
    ("warcaster", "kind"): {
        "hero": pgettext_lazy("warcaster kind", "Hero"),
        "hero_attachment": pgettext_lazy("warcaster kind", "Hero attachment"),
        "squad_attachment": pgettext_lazy("warcaster kind", "Squad attachment"),
        "squad": pgettext_lazy("warcaster kind", "Squad"),
        "solo": pgettext_lazy("warcaster kind", "Solo"),
        "warjack": pgettext_lazy("warcaster kind", "Warjack"),
        "vehicle": pgettext_lazy("warcaster kind", "Vehicle"),
        "mantlet": pgettext_lazy("warcaster kind", "Mantlet"),
        "cortex": pgettext_lazy("warcaster kind", "Cortex"),
        "weapon": pgettext_lazy("warcaster kind", "Warjack weapon"),
        "cypher": pgettext_lazy("warcaster kind", "Cypher"),
    },
    ("warcaster", "faction"): {
        "iron-star-alliance": pgettext_lazy("warcaster faction", "Iron Star Alliance"),
        "marcher-worlds": pgettext_lazy("warcaster faction", "Marcher Worlds"),
        "aeternus-continuum": pgettext_lazy("warcaster faction", "Aeternus Continuum"),
        "empyreans": pgettext_lazy("warcaster faction", "Empyreans"),
        "mercenary": pgettext_lazy("warcaster faction", "Mercenary"),
        "universal": pgettext_lazy("warcaster faction", "Universal (any faction)"),
    },
    ("warcaster", "suit"): {
        "fury": pgettext_lazy("warcaster suit", "Fury"),
        "geometric": pgettext_lazy("warcaster suit", "Geometric"),
        "harmonic": pgettext_lazy("warcaster suit", "Harmonic"),
        "overdrive": pgettext_lazy("warcaster suit", "Overdrive"),
    },
    ("warcaster", "cypher_type"): {
        "attack": pgettext_lazy("warcaster cypher type", "Attack"),
        "effect": pgettext_lazy("warcaster cypher type", "Effect"),
        "geometric": pgettext_lazy("warcaster cypher type", "Geometric"),
        "pulse": pgettext_lazy("warcaster cypher type", "Pulse"),
    },
    ("warcaster", "weapon_type"): {
        "ranged": pgettext_lazy("warcaster weapon type", "Ranged"),
        "melee": pgettext_lazy("warcaster weapon type", "Melee"),
    },
    ("warcaster", "quality"): {
        "strafe": pgettext_lazy("warcaster quality", "Strafe"),
        "blast": pgettext_lazy("warcaster quality", "Blast"),
        "spray": pgettext_lazy("warcaster quality", "Spray"),
        "armor_piercing": pgettext_lazy("warcaster quality", "Armor-Piercing"),
        "fire": pgettext_lazy("warcaster quality", "Fire"),
        "corrosion": pgettext_lazy("warcaster quality", "Corrosion"),
        "lockdown": pgettext_lazy("warcaster quality", "Lockdown"),
        "system_failure": pgettext_lazy("warcaster quality", "System Failure"),
    },
    ("warcaster", "effect"): {  # continuous effects (W15)
        "fire": pgettext_lazy("warcaster effect", "Fire"),
        "corrosion": pgettext_lazy("warcaster effect", "Corrosion"),
        "lockdown": pgettext_lazy("warcaster effect", "Lockdown"),
        "system_failure": pgettext_lazy("warcaster effect", "System Failure"),
        "tune_up": pgettext_lazy("warcaster effect", "Tune Up"),
    },
    ("warcaster", "stat"): {
        "spd": pgettext_lazy("warcaster stat", "SPD"),
        "mat": pgettext_lazy("warcaster stat", "MAT"),
        "rat": pgettext_lazy("warcaster stat", "RAT"),
        "def": pgettext_lazy("warcaster stat", "DEF"),
        "arm": pgettext_lazy("warcaster stat", "ARM"),
        "foc": pgettext_lazy("warcaster stat", "FOC"),
        "health": pgettext_lazy("warcaster stat", "Health"),
        "num": pgettext_lazy("warcaster stat", "Models"),
        "str": pgettext_lazy("warcaster stat", "STR"),
        "rng": pgettext_lazy("warcaster stat", "RNG"),  # a weapon's range and power
        "pow": pgettext_lazy("warcaster stat", "POW"),
    },
    # the words of a Warcaster effect or ability; builder/web/cardtext.py writes each one as a sentence
    ("warcaster", "target"): {
        "self": pgettext_lazy("warcaster target", "this model"),
        "friendly_model": pgettext_lazy("warcaster target", "a friendly model"),
        "friendly_unit": pgettext_lazy("warcaster target", "a friendly unit"),
        "friendly_warjack": pgettext_lazy("warcaster target", "a friendly warjack"),
        "enemy_model": pgettext_lazy("warcaster target", "an enemy model"),
        "enemy_unit": pgettext_lazy("warcaster target", "an enemy unit"),
        "enemy_warjack": pgettext_lazy("warcaster target", "an enemy warjack"),
        "any_model": pgettext_lazy("warcaster target", "any model"),
        "all_friendly": pgettext_lazy("warcaster target", "every friendly model"),
        "all_enemy": pgettext_lazy("warcaster target", "every enemy model"),
        "all_models": pgettext_lazy("warcaster target", "every model"),
    },
    ("warcaster", "trigger"): {
        "static": pgettext_lazy("warcaster trigger", "Always"),
        "action": pgettext_lazy("warcaster trigger", "Action"),
        "on_activate": pgettext_lazy("warcaster trigger", "When it activates"),
        "on_hit": pgettext_lazy("warcaster trigger", "After it hits"),
        "on_destroyed": pgettext_lazy("warcaster trigger", "When destroyed"),
        "on_deploy": pgettext_lazy("warcaster trigger", "When deployed"),
    },
    ("warcaster", "duration"): {
        "turn": pgettext_lazy("warcaster duration", "this turn"),
        "round": pgettext_lazy("warcaster duration", "this pulse round"),
        "static": pgettext_lazy("warcaster duration", "always"),
    },
    # --- how a side plays (the simulation's policy; rules_engine/<game>/policies.py) ---------------------------
    ("hagmi", "policy"): {
        "greedy": pgettext_lazy("hagmi policy", "Greedy (plays the strongest card it can)"),
        "search": pgettext_lazy("policy", "Search (plays out each option on sampled hands and decks)"),
        "random": pgettext_lazy("policy", "Random legal moves"),
    },
    ("mwda", "policy"): {
        "greedy": pgettext_lazy("mwda policy", "Aggressive (focus fire, keeps out of the enemy's reach first; steps in "
                                               "when level or behind late in the battle)"),
        "defensive": pgettext_lazy("mwda policy", "Defensive (shoots from range, never charges, falls back)"),
        "search": pgettext_lazy("mwda policy", "Search (plays out each option with fresh dice)"),
        "random": pgettext_lazy("policy", "Random legal moves"),
    },
    ("warcaster", "policy"): {
        "greedy": pgettext_lazy("warcaster policy", "Greedy (best attack and cypher each activation)"),
        "search": pgettext_lazy("policy", "Search (plays out each option on sampled hands and decks)"),
        "random": pgettext_lazy("policy", "Random legal moves"),
    },
    # --- every system --------------------------------------------------------------------------------------
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
    ("*", "end_reason"): {  # rules_engine/core/outcome.py
        outcome.DAMAGE_DECK_EMPTY: pgettext_lazy("end reason", "Damage with an empty damage deck"),
        outcome.CORES_DESTROYED: pgettext_lazy("end reason", "The mothership's cores were destroyed"),
        outcome.TURN_LIMIT: pgettext_lazy("end reason", "Turn limit reached (a draw)"),
        outcome.ELIMINATED: pgettext_lazy("end reason", "A side was eliminated"),
        outcome.ROUNDS: pgettext_lazy("end reason", "After the last round, on points"),
        outcome.ANNIHILATION: pgettext_lazy("end reason", "A side was wiped off the table"),
        outcome.STEP_LIMIT: pgettext_lazy("end reason", "Step limit of the simulator (a draw)"),
    },
    # the kinds of a HAGMI skill and of a Warcaster effect or ability (the card editor's selects)
    ("hagmi", "skill_kind"): {
        "deal_damage": pgettext_lazy("hagmi skill kind", "Deal damage"),
        "draw": pgettext_lazy("hagmi skill kind", "Draw cards"),
        "charge": pgettext_lazy("hagmi skill kind", "Charge fuel"),
        "reduce_damage": pgettext_lazy("hagmi skill kind", "Reduce damage"),
        "nullify_damage": pgettext_lazy("hagmi skill kind", "Nullify damage"),
        "no_damage": pgettext_lazy("hagmi skill kind", "Takes no damage"),
        "barrier": pgettext_lazy("hagmi skill kind", "Barrier"),
        "firepower_mod": pgettext_lazy("hagmi skill kind", "Firepower modification"),
        "armor_mod": pgettext_lazy("hagmi skill kind", "Armor modification"),
        "first_strike": pgettext_lazy("hagmi skill kind", "First strike"),
        "pierce": pgettext_lazy("hagmi skill kind", "Pierce"),
        "unreducible": pgettext_lazy("hagmi skill kind", "Unreducible damage"),
        "defend": pgettext_lazy("hagmi skill kind", "Defend"),
        "end_battle_phase": pgettext_lazy("hagmi skill kind", "End the battle phase"),
        "dismantle": pgettext_lazy("hagmi skill kind", "Dismantle"),
        "refit": pgettext_lazy("hagmi skill kind", "Refit"),
        "refuel": pgettext_lazy("hagmi skill kind", "Refuel"),
        "destroy": pgettext_lazy("hagmi skill kind", "Destroy"),
        "down": pgettext_lazy("hagmi skill kind", "Down"),
        "return_to_hand": pgettext_lazy("hagmi skill kind", "Return to hand"),
        "search_secret": pgettext_lazy("hagmi skill kind", "Search for a Secret"),
        "summon_beast": pgettext_lazy("hagmi skill kind", "Summon a beast"),
        "produce": pgettext_lazy("hagmi skill kind", "Produce"),
    },
    ("warcaster", "effect_kind"): {
        "attack": pgettext_lazy("warcaster effect kind", "Attack"),
        "damage": pgettext_lazy("warcaster effect kind", "Damage"),
        "apply_effect": pgettext_lazy("warcaster effect kind", "Apply a continuous effect"),
        "remove_effect": pgettext_lazy("warcaster effect kind", "Remove a continuous effect"),
        "heal": pgettext_lazy("warcaster effect kind", "Heal"),
        "move": pgettext_lazy("warcaster effect kind", "Move"),
        "arc": pgettext_lazy("warcaster effect kind", "Arc"),
        "draw": pgettext_lazy("warcaster effect kind", "Draw cyphers"),
        "shield": pgettext_lazy("warcaster effect kind", "Shield"),
        "stat_mod": pgettext_lazy("warcaster effect kind", "Stat modification"),
        "immunity": pgettext_lazy("warcaster effect kind", "Immunity"),
        "flight": pgettext_lazy("warcaster effect kind", "Flight"),
        "arc_node": pgettext_lazy("warcaster effect kind", "Arc node"),
    },
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


def card_field(field: str) -> str:
    """A card field in words ("fuel_cost" -> "Fuel cost" / 燃料コスト); a Warcaster stat by its abbreviation."""
    known = CARD_FIELDS.get(field) or LABELS[("warcaster", "stat")].get(field)
    return str(known) if known is not None else humanise(field)


# What the picker's "category" filter is called in each system (the same column: HAGMI category, MWDA/Warcaster kind).
CATEGORY_FIELD = {"hagmi": "category", "mwda": "kind", "warcaster": "kind"}


def humanise(value: Any) -> str:
    """An unknown slug in words: "steel-wolves" -> "steel wolves"."""
    return str(value).replace("_", " ").replace("-", " ").strip() or "–"


def label(system: str, field: str, value: Any) -> str:
    """The words for one value of a card field, in the UI language."""
    if field == "category":
        field = CATEGORY_FIELD.get(system, field)
    table = LABELS.get((system, field)) or LABELS.get(("*", field), {})
    known = table.get(value) if isinstance(value, str) else None
    if known is not None:
        return str(known)
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
    field = CATEGORY_FIELD.get(system, field) if field == "category" else field
    table = LABELS.get((system, field)) or LABELS.get(("*", field), {})
    ordered = [value for value in table if value in present] + sorted(present - set(table))
    return [(value, label(system, field, value)) for value in ordered]
