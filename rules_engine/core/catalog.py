"""Plain engine data for a game system's catalog.

The Django layer (cards.selectors.catalog_for) turns database rows into a `Catalog`; the engine never sees a
model. A card is the card's dict exactly as in its data package (`hangar.package/1`), made read-only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Iterator, Mapping


class CardDataError(ValueError):
    """A card, opponent or list entry that an engine cannot use (every engine's card reader raises it): the
    message names the card code and the field, and says what was expected."""

    def __init__(self, code: str, field_name: str, message: str) -> None:
        self.code, self.field, self.detail = code, field_name, message
        super().__init__(f'card {code}, field "{field_name}": {message}')


# The most copies one list entry may have, in a list (validation) and in a snapshot (the engines' readers): the
# JSON list schema's limit (builder/listio/list.schema.json). A format's own limits are construction rules.
MAX_QTY = 999


def entries_of(entries: Any, where: str) -> Iterator[tuple[str, Any, int, Mapping[str, Any]]]:
    """Read the `{card, qty, ...}` entries of a list section or an opponent's units, as every engine does:
    (where of the entry, its card code as given, its quantity 0..MAX_QTY, the entry). The caller checks the code
    (each game knows its cards); a malformed entry raises CardDataError naming the entry and field."""
    if not isinstance(entries, (list, tuple)):
        raise CardDataError("-", where, f"expected a list of {{card, qty}} entries, got {type(entries).__name__}")
    for i, entry in enumerate(entries):
        at = f"{where}[{i}]"
        if not isinstance(entry, Mapping):
            raise CardDataError("-", at, f"expected an entry object {{card, qty}}, got {type(entry).__name__}")
        code, qty = entry.get("card"), entry.get("qty", 1)
        if isinstance(qty, bool) or not isinstance(qty, int) or not 0 <= qty <= MAX_QTY:
            raise CardDataError(str(code), f"{at}.qty", f"expected an integer from 0 to {MAX_QTY}, got {qty!r}")
        yield at, code, qty, entry


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
