"""Writing a list in the text list format (docs/list-formats.md): headers, then each non-empty section and one
line per entry, every card named so that the reader (builder/listio/text.py) reads it back as the same entry.
"""
from __future__ import annotations

import json
from typing import Any

from cards.systems import SECTION_LABELS
from rules_engine.core.catalog import Catalog

from .jsonio import parse_list_json
from .text import LOADOUT_NONE, LOADOUT_WORDS, MAX_LINE_LENGTH, WEAPON_SEPARATORS, loadout_value, parse_entry
from .text_cards import CardIndex, LineProblem

LANGS = ("ja", "en")



def export_list_text(doc: dict[str, Any], catalog: Catalog, lang: str = "ja") -> str:
    """Write a list in the text format: headers, then each non-empty section and one line per entry.

    Cards are written by name (Japanese; English with lang="en" when the card has one), as "NAME (CODE)" when
    the name alone would not read back as the same card, and as "(CODE)" when the catalog does not know the
    code. Options that are a warjack's loadout (a cortex, weapons) go on indented "Cortex:" / "Weapons:" lines
    under the entry; any other options as JSON at the end of the line.
    parse_list_text(export_list_text(doc, catalog), ...) == the normalised doc.
    """
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, got {lang!r}")
    doc = parse_list_json(doc)
    if catalog.system != doc["system"]:
        raise ValueError(f"the list is for {doc['system']} but the catalog is for {catalog.system}")
    index = CardIndex.of(catalog)
    lines = [f"Name: {doc['name']}"] if doc["name"] else []
    lines.append(f"System: {doc['system']}")
    if doc["format"]:
        lines.append(f"Format: {doc['format']}")
    for section, entries in doc["sections"].items():
        if entries:
            lines += ["", f"[{SECTION_LABELS[section][lang]}]"]
            for entry in entries:
                lines += _entry_lines(entry, index, lang)
    return "\n".join(lines) + "\n"


def _spellings(code: str, index: CardIndex, lang: str) -> list[str]:
    """The ways to name card `code`, shortest first: NAME (in `lang`), "NAME (CODE)", "(CODE)"."""
    card = index.catalog.cards.get(code)
    written: list[str] = []
    if card:
        name = (card.get("name_en") if lang == "en" else None) or card.get("name") or ""
        written = [name, f"{name} ({code})"]
    written.append(f"({code})")
    return written


def _entry_line(entry: dict[str, Any], index: CardIndex, lang: str) -> str:
    """The first of "QTY NAME", "QTY NAME (CODE)", "QTY (CODE)" that reads back as exactly this entry."""
    code = entry["card"]
    options = f" {json.dumps(entry['options'], ensure_ascii=False)}" if "options" in entry else ""
    for words in _spellings(code, index, lang):
        line = f"{entry['qty']} {words}{options}"
        try:
            if parse_entry(line, index) == entry:
                return line
        except LineProblem:
            continue
    raise ValueError(f"card code {code!r} cannot be written in the text format")


def _entry_lines(entry: dict[str, Any], index: CardIndex, lang: str) -> list[str]:
    """The entry's line, then its loadout lines when its options are a cortex and weapons that read back in words;
    otherwise the one line, with any options as JSON."""
    options = entry.get("options")
    loadout = _loadout_lines(options, index, lang) if options else None
    if loadout is None:
        return [_entry_line(entry, index, lang)]
    bare = {key: value for key, value in entry.items() if key != "options"}
    return [_entry_line(bare, index, lang), *loadout]


def _loadout_lines(options: dict[str, Any], index: CardIndex, lang: str) -> list[str] | None:
    """["  Cortex: NAME", "  Weapons: NAME, NAME"] (the keys the options have, in that order, in `lang`), or None
    when the options hold anything else or a card would not read back as the same code."""
    if not set(options) <= set(LOADOUT_WORDS):
        return None
    lines = []
    for key, words in LOADOUT_WORDS.items():
        if key not in options:
            continue
        value = options[key]
        if key == "cortex":
            written = _card_words(value, index, lang) if isinstance(value, str) else None
        elif isinstance(value, list) and all(isinstance(code, str) for code in value):
            parts = [_card_words(code, index, lang, in_list=True) for code in value]
            written = None if None in parts else ", ".join(parts) or "-"
        else:
            written = None
        if written is None or len(written) > MAX_LINE_LENGTH - 20:
            return None
        try:
            if loadout_value(key, written, index) != value:
                return None
        except LineProblem:
            return None
        lines.append(f"  {words[lang]}: {written}")
    return lines


def _card_words(code: str, index: CardIndex, lang: str, in_list: bool = False) -> str | None:
    """How a loadout line names a card: the first of NAME, "NAME (CODE)", "(CODE)" that reads back as `code`
    (in a list of weapons, without a comma), or None."""
    for words in _spellings(code, index, lang):
        if words != words.strip() or (in_list and (WEAPON_SEPARATORS.search(words) or words in LOADOUT_NONE)):
            continue
        try:
            if index.resolve(words) == code:
                return words
        except LineProblem:
            continue
    return None
