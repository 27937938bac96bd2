"""What Toy Duel shows on the site: plain data (rules_engine.system_entry.Presentation). It names no templates of
its own: the site draws its cards with the generic card templates. Its words are its own, in both languages (a
`Label`): the site's catalogue of translations has no line for them."""
from __future__ import annotations

from rules_engine.core.messages import Label
from rules_engine.system_entry import Presentation

PRESENTATION = Presentation(
    category_field="kind",
    cost_chart="curve",
    curve_sections=("deck",),
    cost_chart_title="cost_curve",
    goldfish="never_plays",
    board="cards",
    has_rounds=True,
    words={"kind": {"fighter": Label("Fighter", "戦士")}, "stat": {"power": Label("Power", "パワー")}},
)
