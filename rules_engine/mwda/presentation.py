"""What MechWarrior: Dark Age shows on the site (rules_engine.system_entry.Presentation), no Django: flags,
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
    cost_chart="per_unit", cost_chart_title="points",  # an army's points per unit
    goldfish="stationary",
    worded_fields=("faction",),
    value_words={"abilities": "ability"},
    card_template="games/mwda/card.html",
    card_body_template="games/mwda/_card_body.html",
)
