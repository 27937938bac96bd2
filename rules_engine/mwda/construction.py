"""MechWarrior: Dark Age army construction (RULES.md §2.2, rules M1–M4).

Section: `army`. Format options (docs/card-fields.md): point_limit [300], single_faction [false, not enforced].
"""
from __future__ import annotations

from typing import Any, Iterator, Mapping

from rules_engine.core.construction import (
    Gauge,
    ListContext,
    Rule,
    RuleInfo,
    RuleSet,
    SectionSpec,
    Violation,
    card_codes,
    card_name,
    int_field,
)
from rules_engine.core.messages import Label

SYSTEM = "mwda"
ARMY = "army"
POINTS_PER_ORDER = 100  # 100ポイントごとに指令1回

SECTIONS = (SectionSpec(ARMY, Label("army", "アーミー")),)
DEFAULTS: Mapping[str, Any] = {"point_limit": 300, "single_faction": False}


def army_points(ctx: ListContext) -> int:
    return sum(int_field(entry.card, "points") * entry.qty for entry in ctx.entries[ARMY])


def orders_per_round(ctx: ListContext) -> int:
    """M2: ⌈points / 100⌉ plus every unit's order_bonus (移動司令部), once per copy; 0 for an empty army."""
    points = army_points(ctx)
    if points <= 0:
        return 0
    bonus = sum(int_field(entry.card, "order_bonus") * entry.qty for entry in ctx.entries[ARMY])
    return -(-points // POINTS_PER_ORDER) + bonus


class PointLimit(Rule):
    """M1: the army's points are at most the format's point_limit."""

    rule_id, code = "M1", "mwda.points"
    title_en, title_ja = "Army points within the format's limit", "アーミーのポイント上限"

    def check(self, ctx: ListContext) -> Iterator[Violation]:
        points, limit = army_points(ctx), ctx.options["point_limit"]
        if points > limit:
            yield self.violation(section=ARMY, points=points, limit=limit)


class UniqueOnce(Rule):
    """M3: a unique (★) unit appears at most once (copies of one name counted together)."""

    rule_id, code = "M3", "mwda.unique"
    title_en, title_ja = "A unique unit at most once", "ユニークユニットは1体まで"

    def check(self, ctx: ListContext) -> Iterator[Violation]:
        groups: dict[str, tuple[int, set[str]]] = {}
        for entry in ctx.entries[ARMY]:
            if entry.card.get("unique") is True:
                name = card_name(entry.card, entry.code)
                count, codes = groups.get(name, (0, set()))
                groups[name] = (count + entry.qty, codes | {entry.code})
        for count, codes in sorted(((n, card_codes(c)) for n, c in groups.values()), key=lambda group: group[1]):
            if count > 1:
                yield self.violation(section=ARMY, cards=codes, count=count, names=ctx.labels_of(codes))


class NotEmpty(Rule):
    """M4: an army has at least one unit."""

    rule_id, code = "M4", "mwda.empty"
    title_en, title_ja = "At least one unit", "ユニット1体以上"

    def check(self, ctx: ListContext) -> Iterator[Violation]:
        if ctx.totals[ARMY] == 0:
            yield self.violation(section=ARMY)


def summarise(ctx: ListContext) -> dict[str, int]:
    return {
        "points": army_points(ctx),
        "point_limit": ctx.options["point_limit"],
        "orders_per_round": orders_per_round(ctx),
    }


def measure(ctx: ListContext) -> list[Gauge]:
    """Points ≤ point_limit (M1), orders per round (M2, no limit) and at least one unit (M4)."""
    return [
        Gauge("points", army_points(ctx), "M1", maximum=ctx.options["point_limit"]),
        Gauge("orders", orders_per_round(ctx), "M2"),
        Gauge("units", ctx.totals[ARMY], "M4", minimum=1),
    ]


RULESET = RuleSet(
    name=Label("MechWarrior: Dark Age", "メックウォリアー：ダークエイジ"),
    system=SYSTEM,
    sections=SECTIONS,
    defaults=DEFAULTS,
    rules=(PointLimit(), UniqueOnce(), NotEmpty()),
    summarise=summarise,
    measure=measure,
    notes=(
        RuleInfo(
            "M2", SYSTEM, None,
            "Orders per round: ⌈points / 100⌉ + order bonuses (in the summary)",
            "1ラウンドの指令数：⌈ポイント÷100⌉＋指令ボーナス（サマリーに表示）",
            severity=None,
        ),
    ),
)
