"""What Warcaster: Neo-Mechanika shows on the site (rules_engine.system_entry.Presentation): plain data, no Django."""
from __future__ import annotations

from rules_engine.system_entry import Presentation

from .vocabulary import WORDS

PRESENTATION = Presentation(
    words=WORDS,
    category_field="kind",
    cost_chart="per_unit", cost_chart_title="deployment_cost",  # a force's deployment cost (CST) per unit
    goldfish="stationary",
    worded_fields=("faction",),
    value_words={"kind": "effect_kind", "type": "weapon_type", "qualities": "quality", "effects": "effect",
                 "effect": "effect"},
    entry_loadouts=True,  # a warjack's cortex and weapons, a hero's weapon choice (W5)
    pieces_from="setup",
    side_notes=("victory_points", "cyphers_in_hand", "rack_and_discard"),
    positional_actions=("ability", "end"),
    report_merges=("recall_runs", "damage_destroys_model"),
    field_values={"faction": ("mercenary", "universal")},  # a unit any faction may field, a card of every faction
    card_template="games/warcaster/card.html",
    card_body_template="games/warcaster/_card_body.html",
)
