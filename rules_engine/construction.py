"""Construction validation for all three game systems: the public entry point.

    from rules_engine.construction import validate_list, RULES
    result = validate_list(doc, catalog, lang="en")

`doc` is a `hangar.list/1` document (docs/design.md §2.2) straight from untrusted JSON; `catalog` is the
`rules_engine.core.catalog.Catalog` of the system the caller picked. The result is exactly the docs/design.md §2.3
shape: {"legal", "system", "format", "violations": [{"code", "severity", "rule", "message", "section", "cards"}],
"summary"}. `validate_list` never raises for JSON-shaped input: every malformed part becomes a violation.

`RULES` is the ordered registry of construction rules (`RuleInfo`: id, system, code, title_en, title_ja,
severity), list.* codes first (id and system None), then HAGMI H1–H8, MWDA M1–M4, Warcaster.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, overload

from rules_engine.core.catalog import Catalog
from rules_engine.core.construction import LIST_RULES, RuleInfo, RuleSet
from rules_engine.systems import SYSTEMS

__all__ = ["RULES", "RULESETS", "RULES_VERSION", "RuleInfo", "validate_list"]

# Bump whenever a construction rule or one of its messages changes: lists' stored checks are computed again (the
# web layer keeps each list's check with this version and the catalog's stamp).
RULES_VERSION = "2026.12.1"



class _RuleSets(Mapping[str, RuleSet]):
    """slug -> the game's rule set: a live view of the registry (a game registered later is in it too)."""

    def __getitem__(self, slug: str) -> RuleSet:
        return SYSTEMS[slug].ruleset

    def __iter__(self) -> Iterator[str]:
        return iter(SYSTEMS)

    def __len__(self) -> int:
        return len(SYSTEMS)


class _Rules(Sequence[RuleInfo]):
    """The list.* rules, then every registered game's, in the registry's order (a live view)."""

    def _all(self) -> tuple[RuleInfo, ...]:
        return LIST_RULES + tuple(info for ruleset in RULESETS.values() for info in ruleset.infos())

    @overload
    def __getitem__(self, index: int) -> RuleInfo: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[RuleInfo]: ...

    def __getitem__(self, index):
        return self._all()[index]

    def __len__(self) -> int:
        return len(self._all())

    def __iter__(self) -> Iterator[RuleInfo]:
        return iter(self._all())


RULESETS: Mapping[str, RuleSet] = _RuleSets()  # the registry's rule sets
RULES: Sequence[RuleInfo] = _Rules()


def validate_list(doc: Any, catalog: Catalog, lang: str = "en") -> dict[str, Any]:
    """Check a list against the construction rules of `catalog.system` and its format; messages in `lang`."""
    ruleset = RULESETS.get(catalog.system)
    if ruleset is None:
        raise ValueError(f"no construction rules for system {catalog.system!r}; known: {', '.join(RULESETS)}")
    return ruleset.validate(doc, catalog, lang)
