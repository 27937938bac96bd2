"""What Toy Duel shows on the site: plain data (rules_engine.system_entry.Presentation). It names no templates of
its own: the site draws its cards with the generic card templates. Its words are its own, in both languages (a
`Label`): the site's catalogue of translations has no line for them; so are its replay's sentences (report.py)."""
from __future__ import annotations

from rules_engine.core.messages import Label
from rules_engine.system_entry import Presentation
from tests.toygame.report import REPORT

PRESENTATION = Presentation(
    category_field="kind",
    cost_chart="curve",
    curve_sections=("deck",),
    cost_chart_title="cost_curve",
    goldfish="never_plays",
    board="cards",
    has_rounds=True,
    report=REPORT,
    words={
        "kind": {"fighter": Label("Fighter", "戦士")},
        "stat": {"power": Label("Power", "パワー")},
        "policy": {"greedy": Label("The first card in hand, by code", "手札のコード順で最初のカード"),
                   "random": Label("Random legal moves", "ランダムな合法手")},
    },
)
