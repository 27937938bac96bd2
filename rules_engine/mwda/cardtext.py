"""MechWarrior: Dark Age's card text in words, in the reader's language (rules_engine/core/words.py): what the
picker's "card text", the card page and the card editor's preview show: a unit's facts (kind, faction, points, rank,
weapons, vent, clicks) with words for every value (vocabulary.py) and its abilities, each with what it does. The
registry carries it as `Presentation.card_text` (CARD_WORDS)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules_engine.core.cardtext import worded
from rules_engine.core.gamewords import CardNames, CardWords
from rules_engine.core.words import _g, _tl, word

from .vocabulary import WORDS

__all__ = ["ABILITY_TEXT", "describe", "CARD_WORDS"]


def _faction(names: CardNames, value: Any) -> str:
    """A faction of the game's words, else the name a loaded package declares for it (the site knows those)."""
    known = WORDS["faction"].get(value) if isinstance(value, str) else None
    return str(known) if known is not None else names.faction(value)


ABILITY_TEXT = {
    "jump": _tl("mwda ability text", "may make death-from-above attacks; moves over other bases and "
                                     "terrain"),
    "capture": _tl("mwda ability text", "may capture an enemy infantry unit in base contact"),
    "ecm": _tl("mwda ability text", "enemy ranged attacks against this unit or friendly units within 6″ "
                                    "get attack −1"),
    "stealth": _tl("mwda ability text", "cannot be targeted by ranged attacks from more than 8″ away"),
    "flight": _tl("mwda ability text", "ignores terrain and bases when moving; in base contact only with "
                                       "other flyers"),
    "hover": _tl("mwda ability text", "moves over water as clear terrain"),
    "indirect_fire": _tl("mwda ability text", "its ranged attacks need no line of fire (range still "
                                              "applies)"),
    "transport": _tl("mwda ability text", "may carry one friendly infantry unit"),
    "repair": _tl("mwda ability text", "an order that turns an adjacent friendly vehicle or mech back one "
                                       "click"),
}


def describe(data: Mapping[str, Any], names: CardNames, page: bool = False) -> dict[str, Any]:
    facts: list[tuple[str, str]] = [(_g("Kind"), word(WORDS["kind"], data.get("kind")))]
    if data.get("faction"):
        facts.append((_g("Faction"), _faction(names, data["faction"])))
    if data.get("points") is not None:
        facts.append((_g("Points"), str(data["points"])))
    if data.get("rank"):
        facts.append((_g("Rank"), word(WORDS["rank"], data["rank"])))
    if data.get("unique"):
        facts.append((_g("Unique"), _g("★ at most one per army (M3)")))
    if data.get("order_bonus"):
        facts.append((_g("Order bonus"), _g("+%(n)s orders per round (M2)") % {"n": data["order_bonus"]}))
    if data.get("base"):
        facts.append((_g("Base"), word(WORDS["base"], data["base"])))
    for slot, label in (("primary", _g("Primary weapon")), ("secondary", _g("Secondary weapon"))):
        weapon = data.get(slot)
        if isinstance(weapon, Mapping):
            facts.append((str(label), _g("range %(min)s–%(max)s″, %(type)s") % {
                "min": weapon.get("min_range"), "max": weapon.get("max_range"),
                "type": word(WORDS["damage_type"], weapon.get("damage_type"))}))
    if data.get("vent") is not None:
        facts.append((_g("Vent"), str(data["vent"])))
    dial = data.get("dial")
    if isinstance(dial, list) and dial:
        facts.append((_g("Clicks"), str(len(dial))))
    lines = [{"title": word(WORDS["ability"], name), "text": worded(ABILITY_TEXT, name)}
             for name in data.get("abilities") or [] if isinstance(name, str)]
    return {"facts": facts, "lines": lines}


CARD_WORDS = CardWords(describe=describe)
