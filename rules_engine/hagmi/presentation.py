"""What HAGMI! shows on the site (rules_engine.system_entry.Presentation), no Django: flags,
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
    category_field="category",  # 兵器 / 作戦 / ダメージ / 機獣 … (docs/rules.md H1)
    filter_fields=("frame",),  # a card's frame (H3: the frame gives the decks)
    coop_opponent_kinds=("coop",),  # two players against the 機獣 side
    cost_chart="curve", curve_sections=("weapons", "tactics"), cost_chart_title="cost_curve",  # the main deck
    goldfish="never_plays",
    worded_fields=("frame", "targets"),
    field_values={"targets": ("single", "all", "multi-2", "multi-3", "multi-4")},  # a skill's targets
    field_widgets={"firepower": "firepower",  # firepower × attacks (H10)
                   # a unit's types: the known ones as checkboxes, any other typed
                   "types": "known_words", "target_types": "known_words", "self_types": "known_words"},
    value_words={"kind": "skill_kind", "types": "type", "target_types": "type", "self_types": "type",
                 "target_category": "category"},
    picker_also_adds_to="secret",  # any card of the main deck may be kept in 秘策 instead (H5)
    counted_values={"targets": "multi-"},  # "multi-3": up to 3 targets
    board="cards",  # frames and cards, no table
    has_rounds=False,  # turns alternate, no rounds
    card_template="games/hagmi/card.html",
    card_body_template="games/hagmi/_card_body.html",
)
