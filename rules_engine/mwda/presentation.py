"""What MechWarrior: Dark Age shows on the site (rules_engine.system_entry.Presentation): plain data, no Django."""
from __future__ import annotations

from rules_engine.system_entry import Presentation

from .vocabulary import WORDS

PRESENTATION = Presentation(
    words=WORDS,
    category_field="kind",
    cost_chart="per_unit", cost_chart_title="points",  # an army's points per unit
    goldfish="stationary",
    worded_fields=("faction",),
    value_words={"abilities": "ability"},
    pieces_from="deploy",
    side_notes=("points_destroyed",),
    orders_per_turn=True,
    report_merges=("hit_with_damage",),
    card_template="games/mwda/card.html",
    card_body_template="games/mwda/_card_body.html",
)
