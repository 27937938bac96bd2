"""What Toy Duel shows on the site: plain data (rules_engine.system_entry.Presentation). It names no templates of
its own: the site draws its cards with the generic card templates."""
from __future__ import annotations

from rules_engine.system_entry import Presentation

PRESENTATION = Presentation(
    category_field="kind",
    cost_chart="curve",
    curve_sections=("deck",),
    cost_chart_title="cost_curve",
    goldfish="never_plays",
    board="cards",
    has_rounds=True,
)
