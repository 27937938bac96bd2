"""Plain engine data for a game system's catalog.

The Django layer (cards.selectors.catalog_for) turns database rows into a `Catalog`; the engine never sees a
model. A card is the card's dict exactly as in its data package (`hangar.package/1`), made read-only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping


def freeze(value: Any) -> Any:
    """Deep read-only copy of JSON data: dicts become mappingproxies, lists become tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({key: freeze(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(item) for item in value)
    return value


@dataclass(frozen=True)
class Catalog:
    """Everything the engine needs to know about one system's cards and formats.

    system:         system slug: "hagmi", "mwda" or "warcaster"
    cards:          card code -> card dict (package JSON: code, name, name_en, per-system fields)
    formats:        format slug -> format dict {"slug", "name", "name_en", "default", "options": {...}}
    default_format: slug of the format used when a list names none
    foreign_cards:  card code -> system slug, for codes that exist only in *another* system
                    (lets the validator report list.wrong_system instead of list.unknown_card)
    """

    system: str
    cards: Mapping[str, Mapping[str, Any]]
    formats: Mapping[str, Mapping[str, Any]]
    default_format: str
    foreign_cards: Mapping[str, str] = field(default_factory=dict)
    # Values derived from the cards, computed once per catalog by whoever needs them (e.g. a card's home deck).
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def derived(self, name: str) -> dict[str, Any]:
        """A per-catalog cache named `name` (engines fill it lazily; the catalog itself is read-only)."""
        return self.memo.setdefault(name, {})

    @classmethod
    def build(cls, system: str, cards, formats, default_format: str | None = None, foreign_cards=None) -> "Catalog":
        card_map = {card["code"]: freeze(card) for card in cards}
        format_map = {fmt["slug"]: freeze(fmt) for fmt in formats}
        if default_format is None:
            defaults = [slug for slug, fmt in format_map.items() if fmt.get("default")]
            default_format = defaults[0] if defaults else (next(iter(format_map), ""))
        return cls(
            system=system,
            cards=MappingProxyType(card_map),
            formats=MappingProxyType(format_map),
            default_format=default_format,
            foreign_cards=MappingProxyType(dict(foreign_cards or {})),
        )
