"""Words for the values of card fields (docs/card-fields.md): 兵装 / Unit for HAGMI's `unit`, 鉄星同盟 / Iron Star
Alliance for `iron-star-alliance`, ... in the UI language (Django i18n, locale/ja), so no page shows a slug.

    label("hagmi", "category", "unit")      -> "Unit" / "兵装"
    choices("warcaster", "suit", ["fury"])  -> [("fury", "Fury")]

A value a package uses but this table does not know (a new faction) is shown with its hyphens and underscores
turned into spaces, never as a raw slug.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import pgettext_lazy

from rules_engine.core import outcome

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
    },
    # --- how a side plays (the simulation's policy; rules_engine/<game>/policies.py) ---------------------------
    ("hagmi", "policy"): {
        "greedy": pgettext_lazy("hagmi policy", "Greedy (plays the strongest card it can)"),
        "random": pgettext_lazy("policy", "Random legal moves"),
    },
    ("mwda", "policy"): {
        "greedy": pgettext_lazy("mwda policy", "Aggressive (focus fire, closes in to its best range)"),
        "defensive": pgettext_lazy("mwda policy", "Defensive (shoots from range, never charges, falls back)"),
        "random": pgettext_lazy("policy", "Random legal moves"),
    },
    ("warcaster", "policy"): {
        "greedy": pgettext_lazy("warcaster policy", "Greedy (best attack and cypher each activation)"),
        "random": pgettext_lazy("policy", "Random legal moves"),
    },
    # --- every system --------------------------------------------------------------------------------------
    ("*", "end_reason"): {  # rules_engine/core/outcome.py
        outcome.DAMAGE_DECK_EMPTY: pgettext_lazy("end reason", "Damage with an empty damage deck"),
        outcome.CORES_DESTROYED: pgettext_lazy("end reason", "The mothership's cores were destroyed"),
        outcome.TURN_LIMIT: pgettext_lazy("end reason", "Turn limit reached (a draw)"),
        outcome.ELIMINATED: pgettext_lazy("end reason", "A side was eliminated"),
        outcome.ROUNDS: pgettext_lazy("end reason", "After the last round, on points"),
        outcome.ANNIHILATION: pgettext_lazy("end reason", "A side was wiped off the table"),
        outcome.STEP_LIMIT: pgettext_lazy("end reason", "Step limit of the simulator (a draw)"),
    },
}

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
    if system == "hagmi" and field == "targets" and isinstance(value, str) and value.startswith("multi-"):
        count = value.removeprefix("multi-")
        return str(pgettext_lazy("hagmi targets", "Up to %(count)s targets")) % {"count": count}
    return humanise(value)


def choices(system: str, field: str, values: Iterable[Any]) -> list[tuple[str, str]]:
    """(value, words) pairs for a select, in the table's order, then unknown values sorted."""
    present = {str(value) for value in values if value not in (None, "")}
    field = CATEGORY_FIELD.get(system, field) if field == "category" else field
    table = LABELS.get((system, field)) or LABELS.get(("*", field), {})
    ordered = [value for value in table if value in present] + sorted(present - set(table))
    return [(value, label(system, field, value)) for value in ordered]
