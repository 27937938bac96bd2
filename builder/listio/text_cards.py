"""Card words of the text list format (docs/list-formats.md): which card a written code or name means, and "did you
mean" suggestions for a name no card has.

A code matches exactly, then case- and width-insensitively; a name matches the Japanese name, then the English one
(NFKC + casefold, runs of spaces as one); "NAME (CODE)" or "(CODE)" picks the card by code. Suggestions are the
closest catalog names by rapidfuzz, kept to the cards the line's section may hold (the registry's `section_takes`).
A problem with a line is a LineProblem: a message code of builder/listio/messages.py and its parameters.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any, Callable

from rapidfuzz import fuzz, process

from cards.systems import SYSTEMS
from rules_engine.core.catalog import Catalog
from rules_engine.core.messages import Label
from rules_engine.systems import UnknownSystem, system as game_system

from .jsonio import CARD_PATTERN
from .messages import TEMPLATES, quoted, render

SUGGESTION_COUNT = 3
ANY_CARD = "*"  # CardIndex.suggest's section for a card in no section (a warjack's cortex or weapon)
SUGGESTION_MIN_SCORE = 30  # rapidfuzz WRatio 0..100; below this a name is not "close"


def fold(text: str) -> str:
    """Matching key: width- and case-insensitive (NFKC + casefold), runs of spaces as one."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())



def code_suffix(text: str) -> tuple[str, str] | None:
    """(name, code) of "NAME (CODE)" or "(CODE)" (the name stripped at its end, "" when there is none), else None.
    `text` is stripped.

    What `^(?P<name>.*?)\\s*\\((?P<code>[^()]*)\\)$` matched, found without that pattern's backtracking, which was
    quadratic on a long run of spaces.
    """
    if not text.endswith(")"):
        return None
    start = text.rfind("(", 0, len(text) - 1)
    if start < 0 or ")" in text[start + 1:-1]:
        return None
    name = text[:start].rstrip()
    if "\n" in name:  # the pattern's `.` stops at a line break
        return None
    return name, text[start + 1:-1]



class LineProblem(Exception):
    """A problem with one line: its message code and parameters (builder/listio/messages.py; `message` is the
    English sentence); `suggest_for` asks for fuzzy suggestions (computed only while issues are shown)."""

    def __init__(self, code: str, suggest_for: str | None = None, suggestions: list[str] | None = None,
                 **params: Any):
        self.code, self.params = code, params
        self.message = render(code, params, "api")
        super().__init__(self.message)
        self.suggest_for = suggest_for
        self.suggestions = suggestions or []
        self.any_card = False  # a loadout's card (a cortex, a weapon): "did you mean" is not kept to a section


@dataclass
class CardIndex:
    """Name and code lookup over one catalog."""

    catalog: Catalog
    by_code: dict[str, str] = field(default_factory=dict)  # folded code -> code
    by_name: dict[str, list[str]] = field(default_factory=dict)  # folded Japanese name -> codes
    by_name_en: dict[str, list[str]] = field(default_factory=dict)  # folded English name -> codes
    choices: list[tuple[str, str, str]] = field(default_factory=list)  # (folded name, shown name, code)

    @classmethod
    def of(cls, catalog: Catalog) -> "CardIndex":
        index = cls(catalog)
        for code, card in catalog.cards.items():
            index.by_code.setdefault(fold(code), code)
            for names, key in ((index.by_name, "name"), (index.by_name_en, "name_en")):
                shown = card.get(key)
                if isinstance(shown, str) and fold(shown):
                    names.setdefault(fold(shown), []).append(code)
                    index.choices.append((fold(shown), shown, code))
        return index

    @property
    def system_name(self) -> Label:
        return system_words(self.catalog.system)

    def code_of(self, text: str) -> str | None:
        """The catalog code written as `text`: exact first, then case/width-insensitive."""
        return text if text in self.catalog.cards else self.by_code.get(fold(text))

    def resolve(self, text: str) -> str:
        """The card code that `text` (a code, a name, or "NAME (CODE)") means; LineProblem if none or several."""
        key = fold(text)
        if not key:
            raise LineProblem("text.missing_card")
        code = self.code_of(text.strip())
        if code:
            return code
        for names in (self.by_name, self.by_name_en):
            codes = names.get(key, [])
            if len(codes) == 1:
                return codes[0]
            if codes:
                return self._explicit_code(text) or self._ambiguous(text.strip(), codes)
        explicit = self._explicit_code(text)
        if explicit:
            return explicit
        raise LineProblem("text.no_card", suggest_for=key, name=quoted(text.strip()), system=self.system_name,
                           empty=self._empty_note())

    def _explicit_code(self, text: str) -> str | None:
        """The code of "NAME (CODE)" / "(CODE)". A bare "(CODE)" is taken exactly as written: a catalog code, or
        one the catalog does not know (kept; validation reports it), so that any list's codes can be written."""
        match = code_suffix(text.strip())
        if not match:
            return None
        written, name = match[1].strip(), match[0].strip()
        code = self.code_of(written) if name else (written if written in self.catalog.cards else None)
        if code:
            return code
        if not CARD_PATTERN.fullmatch(written):
            raise LineProblem("text.not_a_code", written=quoted("(" + written + ")"))
        if not name:
            return written  # unknown to this catalog: kept, reported later by validation (list.unknown_card)
        raise LineProblem("text.no_code", suggest_for=fold(name), written=quoted(written), system=self.system_name,
                           empty=self._empty_note(), bare=written)

    def _ambiguous(self, text: str, codes: list[str]) -> str:
        shown = [f"{text} ({code})" for code in codes]
        raise LineProblem("text.ambiguous", suggestions=shown, count=len(codes), name=quoted(text),
                           system=self.system_name, codes=", ".join(codes), example=shown[0])

    def suggest(self, key: str, section: str | None = None) -> list[str]:
        """Up to SUGGESTION_COUNT closest catalog names, one per card, as "NAME (CODE)", best match first: only
        cards `section` may hold by the game's placement rules (the registry's `section_takes`; with no section,
        cards some section of a list may hold: never an opponent's card). Closeness is the mean of rapidfuzz's
        WRatio (which forgives a partial name) and its plain ratio (which prefers the name as long as the one
        written): "ホウンド" is nearer ハウンド than 双頭ハウンド."""
        takes = self._placement(section)
        allowed = [position for position, (_folded, _shown, code) in enumerate(self.choices) if takes(code)]
        names = [self.choices[position][0] for position in allowed]
        matches = process.extract(key, names, scorer=fuzz.WRatio, processor=None, limit=SUGGESTION_COUNT * 6,
                                  score_cutoff=SUGGESTION_MIN_SCORE)
        ranked = sorted(((-(score + fuzz.ratio(key, names[at])) / 2, order, allowed[at])
                         for order, (_name, score, at) in enumerate(matches)))
        found: list[str] = []
        seen: set[str] = set()
        for _score, _order, position in ranked:
            _, shown, code = self.choices[position]
            if code not in seen and len(found) < SUGGESTION_COUNT:
                seen.add(code)
                found.append(f"{shown} ({code})")
        return found

    def _placement(self, section: str | None) -> Callable[[str], bool]:
        """code -> may `section` (None: some section of a list) hold the card, by the registry's placement rules."""
        if section == ANY_CARD:
            return lambda code: True
        try:
            found = game_system(self.catalog.system)
        except UnknownSystem:
            return lambda code: True
        sections = (section,) if section in found.section_keys else found.section_keys
        cards = self.catalog.cards
        return lambda code: any(found.section_takes(where, cards.get(code) or {}) for where in sections)

    def _empty_note(self) -> Label | str:
        return "" if self.catalog.cards else TEMPLATES["text.empty_catalog"]


def system_words(system: str) -> Label:
    """A game's name in both languages, for a message."""
    info = SYSTEMS[system]
    return Label(info["name"], info.get("name_ja") or info["name"])
