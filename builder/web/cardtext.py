"""A card's text in words, in the UI language: what the picker's "card text" disclosure, the card pages and the
card editor's preview show.

Each game writes its own cards' text (its rules_engine/<game>/cardtext.py: a skill, an effect, an ability as a
sentence, the facts a player needs with words for every value), carried by the registry as
`Presentation.card_text` (rules_engine/core/gamewords.py `CardWords`). This module finds it and gives it what only
the site knows: the other cards' names and the factions the loaded packages declare. A game that declares no card
text still shows its cards: each plain field as a fact, its name and value in words (builder.web.vocabulary), so
that no page shows a slug.

    describe(system, card_data, card_name) -> {"facts": [(label, value)], "lines": [{"title", "text"}],
                                                "text": the card's own rules text or ""}
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _

from rules_engine.core.cardtext import own_text
from rules_engine.core.gamewords import CardNames, CardWords
from rules_engine.core.naming import capfirst

from . import vocabulary
from .presenters import presentation, ui_lang

Names = Callable[[str], str]  # card code -> its name in the UI language

# Fields the card's names and own text already show: never a fact.
_NOT_FACTS = frozenset({"code", "name", "name_en", "text", "text_en", "not_modelled", "other_qualities"})


def _card_words(system: str) -> CardWords | None:
    return presentation(system).card_text


def describe(system: str, data: Mapping[str, Any], card_name: Names | None = None, page: bool = False
             ) -> dict[str, Any]:
    """The card's facts and text in words (see the module docstring). `page`: for the card page, which shows a
    model's stats and weapons as tables of their own (`weapon_rows`, `stat_rows`)."""
    words = _card_words(system)
    names = CardNames(card=card_name or str, faction=lambda slug: vocabulary.label(system, "faction", slug))
    found = words.describe(data, names, page) if words is not None else _fields(system, data)
    found["text"] = own_text(data)
    return found


def _fields(system: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """A card of a game with no card text of its own: each plain field (a word, a number, a yes or no, a list of
    words) as a fact, named and worded by the vocabulary; skills, weapons and other nested data are left out."""
    facts: list[tuple[str, str]] = []
    for field, value in data.items():
        if field in _NOT_FACTS or value in (None, "", [], {}):
            continue
        if isinstance(value, bool):
            shown = _("yes") if value else _("no")
        elif isinstance(value, (int, float)):
            shown = str(value)
        elif isinstance(value, str):
            shown = vocabulary.label(system, field, value)
        elif isinstance(value, list) and all(isinstance(item, (str, int)) and not isinstance(item, bool)
                                             for item in value):
            shown = _(", ").join(vocabulary.label(system, field, item) if isinstance(item, str) else str(item)
                                 for item in value)
        else:
            continue
        facts.append((capfirst(vocabulary.card_field(field)), shown))
    return {"facts": facts, "lines": []}


def weapon_rows(system: str, data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A model's fixed weapons for a table (the game's card text): name, type and qualities in words, RNG, POW, and
    the qualities the simulator does not play (`other_qualities`); [] for a game without weapon tables."""
    words = _card_words(system)
    return words.weapon_rows(data) if words is not None else []


def stat_rows(system: str, data: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """A model's stat line: (stat in words, value); [] for a game without stat lines."""
    words = _card_words(system)
    return words.stat_rows(data) if words is not None else []


def other_qualities(item: Mapping[str, Any]) -> list[str]:
    """A weapon's qualities the engine does not know (a BattleScribe import keeps them by name)."""
    found = item.get("other_qualities")
    return [str(q) for q in found if isinstance(q, str) and q] if isinstance(found, list) else []


def not_modelled(data: Mapping[str, Any]) -> list[str]:
    """The names of the rules, qualities and cypher effects of a card the simulator plays only in part
    (`not_modelled`, the text is kept), then its weapons' unmodelled qualities not named already."""
    found = data.get("not_modelled")
    out = [str(name) for name in found if isinstance(name, str) and name] if isinstance(found, list) else []
    for weapon in [data, *[w for w in data.get("weapons") or [] if isinstance(w, Mapping)]]:
        out += [q for q in other_qualities(weapon) if q not in out]
    return out


def rules_text(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """A card's own rules text as the data gives it (`text`, `text_en`), line by line, in the UI language when the
    data has it, else in the other one: {"lines", "lang": "ja"|"en", "other_language": the page's language is
    missing}. A BattleScribe import keeps the English text in both fields (the data is English only)."""
    ja, en = str(data.get("text") or ""), str(data.get("text_en") or "")
    if not (ja or en):
        return None
    english_only = bool(en) and (not ja or ja == en)
    if ui_lang() == "en":
        shown, lang = (en, "en") if en else (ja, "ja")
    else:
        shown, lang = (en, "en") if english_only else (ja, "ja")
    lines = [line.strip() for line in shown.splitlines() if line.strip()]
    return {"lines": lines, "lang": lang, "other_language": lang != ui_lang()}
