"""What Warcaster: Neo-Mechanika shows on the site (rules_engine.system_entry.Presentation), no Django: flags,
field names and templates as plain data, its words in report.py, positionwords.py and cardtext.py."""
from __future__ import annotations

from rules_engine.system_entry import Presentation

from .cardtext import CARD_WORDS
from .positionwords import POSITION_WORDS
from .report import REPORT
from .vocabulary import WORDS

PRESENTATION = Presentation(
    words=WORDS,
    report=REPORT, position_words=POSITION_WORDS, card_text=CARD_WORDS,
    category_field="kind",
    cost_chart="per_unit", cost_chart_title="deployment_cost",  # a force's deployment cost (CST) per unit
    goldfish="stationary",
    worded_fields=("faction",),
    value_words={"kind": "effect_kind", "type": "weapon_type", "qualities": "quality", "effects": "effect",
                 "effect": "effect"},
    entry_loadouts=True,  # a warjack's cortex and weapons, a hero's weapon choice (W5)
    field_values={"faction": ("mercenary", "universal")},  # a unit any faction may field, a card of every faction
    card_template="games/warcaster/card.html",
    card_body_template="games/warcaster/_card_body.html",
)
