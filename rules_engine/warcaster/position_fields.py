"""Reading the fields of a Warcaster position (rules_engine/warcaster/position.py): places on the table and uids,
each checked with a PositionError that names its path (the plain values are read with the shared readers of
rules_engine/position_fields.py), and the engine data of the cards a position names, compiled as WarcasterGame
compiles them (models.compile_force, compile_rack) and kept across positions.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from rules_engine.core.catalog import CardDataError
from rules_engine.position_fields import PositionError, key_path, need_list, need_object, shown
from rules_engine.warcaster.models import (
    MODEL_KINDS, Catalog, CypherSpec, UnitSpec, _warjack, cypher_spec, loadout, model_spec,
)


# ---- places and numbering (the plain values: rules_engine/position_fields.py) ----------------------------


def need_point(value: Any, path: str, margin: float, size: float, what: str) -> tuple[float, float]:
    """[x, y] in inches, on the table: the centre at least `margin` (the base's radius) from every edge."""
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in value)):
        raise PositionError(path, f"expected [x, y] in inches, got {shown(value)}")
    x, y = float(value[0]), float(value[1])
    if not (margin - 1e-9 <= x <= size - margin + 1e-9 and margin - 1e-9 <= y <= size - margin + 1e-9):
        base = f" (its base, radius {margin:g}″, stands wholly on the table)" if margin else ""
        raise PositionError(path, f"off the table: {what} needs x and y within {margin:g} … {size - margin:g} "
                                  f"on the {size:g}″ table{base}, got [{x:g}, {y:g}]")
    return x, y


def need_uid(raw: Mapping[str, Any], path: str, expected: int) -> None:
    if "uid" in raw and (isinstance(raw["uid"], bool) or raw["uid"] != expected):
        raise PositionError(key_path(path, "uid"), f"expected {expected} (numbered in order), got {shown(raw['uid'])}")


# ---- the cards


# Engine data compiled from catalog cards, kept across positions (a simulation from a position loads it once a game):
# keyed by the cards' identities, which the entries keep alive; catalog cards are never changed in place.
_COMPILED: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]] = {}
_COMPILED_MAX = 4096


class CardSpecs:
    """The engine data of the position's cards, compiled as WarcasterGame compiles them (once: `_COMPILED`)."""

    def __init__(self, cards: Mapping[str, Mapping[str, Any]]) -> None:
        self.cards = cards
        self.catalog = Catalog(cards)

    def card(self, code: Any, path: str, kinds: Sequence[str], what: str) -> Mapping[str, Any]:
        if not isinstance(code, str):
            raise PositionError(path, f"expected a card code (a string), got {shown(code)}")
        card = self.cards.get(code)
        if not isinstance(card, Mapping):
            raise PositionError(path, f"unknown {what} code {code!r} (not in the cards)")
        if card.get("kind") not in kinds:
            raise PositionError(path, f"card {code!r} is a {card.get('kind')}, not a {what}")
        return card

    def cypher(self, code: Any, path: str) -> CypherSpec:
        card = self.card(code, path, ("cypher",), "cypher")
        key = ("cypher", code, id(card))
        found = _COMPILED.get(key)
        if found is not None:
            spec: CypherSpec = found[1]
            return spec
        spec = _compiled(lambda: cypher_spec(card), path)
        _remember(key, (card,), spec)
        return spec

    def unit(self, given: Mapping[str, Any], raw_models: list[Any], path: str, goldfish: bool) -> UnitSpec:
        """A unit as compile_force makes it: a squad's NUM models, a warjack with its loadout (`options`), a hero
        with the attachment its second model names (ヒーロー・アタッチメント), an attachment on its own a solo."""
        code = given.get("code")
        card = self.card(code, key_path(path, "code"), tuple(sorted(MODEL_KINDS)), "model")
        kind = card["kind"]
        options = given.get("options")
        involved: list[Any] = [card]
        if options is not None:
            if kind != "warjack":
                raise PositionError(key_path(path, "options"), "only a warjack has options (its cortex and weapons)")
            need_object(options, key_path(path, "options"), ("cortex", "weapons"))
            weapons = need_list(options.get("weapons"), key_path(key_path(path, "options"), "weapons"))
            options = {"cortex": options.get("cortex"), "weapons": weapons}
            involved += [self.cards.get(c) if isinstance(c, str) else None for c in [options["cortex"], *weapons]]
        attachment = None
        if kind == "hero" and len(raw_models) == 2:
            second = raw_models[1]
            where = key_path(key_path(key_path(path, "models"), 1), "code")
            if not isinstance(second, Mapping) or "code" not in second:
                raise PositionError(where, "a hero's second model is its attachment: give its code")
            attachment = self.card(second["code"], where, ("hero_attachment",), "hero attachment")
            if code not in (attachment.get("attaches_to") or ()):
                raise PositionError(where, f"{second['code']} does not attach to {code}")
            involved.append(attachment)
        key = ("unit", code, goldfish, None if options is None else repr(options), tuple(id(c) for c in involved))
        found = _COMPILED.get(key)
        if found is not None:
            spec: UnitSpec = found[1]
            return spec
        spec = _compiled(lambda: unit_spec(self.catalog, card, options, path, goldfish, attachment), path)
        _remember(key, tuple(involved), spec)
        return spec


def _remember(key: tuple[Any, ...], cards: tuple[Any, ...], spec: Any) -> None:
    if len(_COMPILED) >= _COMPILED_MAX:
        _COMPILED.clear()
    _COMPILED[key] = (cards, spec)


def _compiled(make: Any, path: str) -> Any:
    try:
        return make()
    except CardDataError as error:  # a bad loadout code (its path is the position's) or bad card data
        if error.field.startswith(path):
            raise PositionError(error.field, f"{error.detail} (card {error.code})") from None
        raise PositionError(path, str(error)) from None


def unit_spec(catalog: Catalog, card: Mapping[str, Any], options: Any, path: str, goldfish: bool,
               attachment: Mapping[str, Any] | None) -> UnitSpec:
    kind = card["kind"]
    if kind == "hero_attachment":  # not attached to a hero: a unit of its own, a solo (models._attach)
        alone = model_spec(card)
        return UnitSpec(alone.code, alone.name, "solo", alone.cst, (alone,), MappingProxyType({}))
    if kind == "warjack":
        spec = _warjack(catalog, card, options, path, loadout_required=not goldfish)
    else:
        spec = model_spec(card)
    num = int((card.get("stats") or {}).get("num", 1) or 1) if kind == "squad" else 1
    unit = UnitSpec(spec.code, spec.name, spec.kind, spec.cst, (spec,) * num, loadout(card, options))
    if attachment is None:
        return unit
    joined = model_spec(attachment)
    return UnitSpec(unit.code, unit.name, unit.kind, unit.cst + joined.cst, unit.models + (joined,), unit.options)
