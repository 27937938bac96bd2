"""The strict check of exported BattleScribe files and rosters: the published schema's element order (vNext
Catalogue.xsd, rules_engine.formats.battlescribe.export.order_problems) and, where Hangar has it, the strict validator against the
published content model (rules_engine.formats.battlescribe.schema.strict_errors). Empty: the file is valid."""
from __future__ import annotations

from xml.etree.ElementTree import Element

from rules_engine.formats.battlescribe.export import order_problems

try:  # the strict validator of the published content model, when this tree has it
    from rules_engine.formats.battlescribe.schema import strict_errors  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - before it lands
    strict_errors = None


def strict_problems(root: Element) -> list[str]:
    problems = order_problems(root)
    if strict_errors is not None:
        problems += strict_errors(root)
    return problems
