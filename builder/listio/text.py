"""The readable text list format (docs/list-formats.md), in the spirit of the MTG / Moxfield deck text:

    Name: Blue rush
    System: hagmi
    Format: tactics-v4

    [兵器]
    2 補給物資
    2x Supply Drop
    1 照明弾 (HS-002)
    1 (XX-999)                      # an explicit code, kept even if the catalog does not know it

    [Force]
    1 Titan Chassis
      Cortex: Hound Cortex              # a warjack's loadout: the entry's options, in words
      Weapons: Heavy Cannon, Heavy Cannon
    1 Titan Chassis {"cortex": "WC-030", "weapons": ["WC-040"]}   # the same as a JSON object (any options)

Card words are matched by code (exact, case-insensitive), then the Japanese name, then the English name
(case- and width-insensitive: NFKC + casefold, runs of spaces count as one). A trailing "(CODE)" picks the
card by code. Every problem is collected with its line number and raised as one ListFormatError.

This module reads the format; the card words and "did you mean" suggestions are builder/listio/text_cards.py, the
writer is builder/listio/text_write.py.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from cards.storable_text import surrogate_problem
from cards.systems import SECTION_LABELS, SYSTEMS
from rules_engine.core.catalog import Catalog
from rules_engine.core.messages import Label
from rules_engine.systems import UnknownSystem, system as game_system

from .errors import MAX_ISSUES, ListFormatError, ListIssue
from .messages import TEMPLATES, Worded, both, joined, quoted
from .jsonio import (
    FORMAT_PATTERN,
    MAX_ENTRIES,
    MAX_QTY,
    NAME_MAX,
    NAME_PATTERN,
    canonical_options,
    normalised_document,
)
from .text_cards import ANY_CARD, CardIndex, LineProblem, fold, system_words

MAX_LINE_LENGTH = 4000  # characters; longer lines are refused rather than searched for options
HEADER_KEYS = {  # folded header word -> list key
    "name": "name", "名前": "name", "デッキ名": "name", "リスト名": "name",
    "system": "system", "game": "system", "システム": "system", "ゲーム": "system",
    "format": "format", "フォーマット": "format", "レギュレーション": "format",
}

_BLANK_OR_COMMENT = re.compile(r"^\s*(?:$|#|//)")
_HEADER = re.compile(r"^(?P<key>[^\d\[\](){}:：][^\[\](){}:：]{0,30}?)\s*[:：]\s*(?P<value>.*)$")
# "[兵器]", "[Weapons] 20", "[weapons] (20)"
_BRACKET_SECTION = re.compile(r"^\[(?P<label>[^\[\]]*)\]\s*(?:\d+|\(\s*\d+\s*\))?$")
# "兵器", "兵器 (20)", "Weapons:" (only when the words are a section label of the system): see _bare_label
# "2 補給物資", "2x 補給物資", "2 × 補給物資"; the x must be followed by a space
_ENTRY = re.compile(r"^(?P<qty>[+\-−]?\d+)(?:\s*[xX×])?(?:\s+(?P<rest>\S.*))?$")
# "Cortex: 戦術コルテックス", "武器: アークライフル, 掃射機関砲": a warjack's loadout, under its entry line
LOADOUT_KEYS = {  # folded word -> options key
    "cortex": "cortex", "コーテックス": "cortex", "コルテックス": "cortex",
    "weapons": "weapons", "weapon": "weapons", "武器": "weapons",
}
LOADOUT_WORDS = {"cortex": {"ja": "コルテックス", "en": "Cortex"}, "weapons": {"ja": "武器", "en": "Weapons"}}
LOADOUT_NONE = ("", "-", "–", "—", "－")  # "Weapons: -": no weapons (an empty list)
_LOADOUT = re.compile(r"^(?P<key>[^\s:：]+)\s*[:：]\s*(?P<value>.*)$")
WEAPON_SEPARATORS = re.compile(r"[,、，]")


def _bare_label(line: str) -> str | None:
    """The section label of a bare header line: "兵器 (20)" -> "兵器", "Weapons:" -> "Weapons", "兵器" -> "兵器";
    None when the line starts with a digit or a bracket. `line` is one stripped line (no "\\n").

    What `^(?P<label>[^\\d\\[\\]].*?)\\s*(?:\\(\\s*\\d+\\s*\\)|[:：])?$` matched, found without that pattern's
    backtracking, which was quadratic on a long run of spaces inside a line.
    """
    if not line or line[0].isdecimal() or line[0] in "[]":
        return None
    body = line
    if line.endswith(")"):
        start = line.rfind("(")
        if start >= 0 and line[start + 1:-1].strip().isdecimal():  # "(20)", "( 20 )"
            body = line[:start]
    elif line.endswith((":", "：")):
        body = line[:-1]
    return body.rstrip() or line  # the label has at least one character: "(20)" alone is its own label


# ---------------------------------------------------------------------------------------------------------
# Lines


def example_entry(catalog: Catalog) -> dict[str, str] | None:
    """A one-card entry of this game, from its own cards, for the hints that show the text format: the first card
    (by code) the game's first section may hold (the registry's `section_takes`), 1 of a unit, 2 of a card.
    {"ja", "en": the line in each language, "section_ja", "section_en": the section header's words, "code"};
    None when the catalog has no such card."""
    try:
        game = game_system(catalog.system)
    except UnknownSystem:
        return None
    first = game.section_keys[0]
    codes = sorted(code for code, card in catalog.cards.items() if game.section_takes(first, card))
    if not codes:
        return None
    card = catalog.cards[codes[0]]
    qty = 1 if first in game.unit_sections else 2
    name_ja = str(card.get("name") or codes[0])
    label = game.section_labels.get(first)
    return {"ja": f"{qty} {name_ja}", "en": f"{qty} {card.get('name_en') or name_ja}", "code": codes[0],
            "section_ja": label.ja if label else first, "section_en": label.en if label else first}


def parse_entry(text: str, index: CardIndex) -> dict[str, Any]:
    """One entry line ("2 補給物資", "1 Titan {...}") -> {"card", "qty"[, "options"]}; LineProblem if bad."""
    match = _ENTRY.match(text)
    if not match:
        example = example_entry(index.catalog) or {"ja": "2 (CODE)", "en": "2 (CODE)"}
        raise LineProblem("text.entry_shape", max=MAX_QTY, text=quoted(text),
                           example=Worded(example["ja"], example["en"], example["ja"]))
    qty = _quantity(match["qty"])
    rest = match["rest"]
    if not rest:
        raise LineProblem("text.missing_card")
    words, options = _split_options(rest, index)
    entry: dict[str, Any] = {"card": index.resolve(words), "qty": qty}
    if options is not None:
        try:
            entry["options"] = canonical_options(options)
        except ValueError as problem:  # options_problem's sentence
            raise LineProblem("text.options", problem=both(problem.args[0] if problem.args else str(problem))) from None
    return entry


def _quantity(written: str) -> int:
    digits = written.lstrip("+")
    if len(digits) > 6 or not 1 <= int(digits.replace("−", "-")) <= MAX_QTY:
        shown = written if len(written) <= 12 else written[:12] + "…"
        raise LineProblem("text.quantity", max=MAX_QTY, shown=shown)
    return int(digits)


def loadout_line(text: str) -> tuple[str, str] | None:
    """("cortex" or "weapons", the value) of a loadout line ("Cortex: 戦術コルテックス", "武器: アークライフル"), else
    None. `text` is one stripped line."""
    match = _LOADOUT.match(text)
    key = LOADOUT_KEYS.get(fold(match["key"])) if match else None
    return (key, match["value"].strip()) if key else None


def loadout_value(key: str, value: str, index: CardIndex) -> str | list[str]:
    """What a loadout line puts in the entry's options: the cortex's code, or the weapons' codes in their order
    ("Weapons: A, A, B"; "Weapons: -" is none). Each card is written as an entry's card is (name, "NAME (CODE)",
    "(CODE)"). LineProblem if a card is unknown or missing."""
    if key == "cortex":
        if not value:
            raise LineProblem("text.cortex_missing")
        return index.resolve(value)
    if value in LOADOUT_NONE:
        return []
    words = [word.strip() for word in WEAPON_SEPARATORS.split(value)]
    if "" in words:
        raise LineProblem("text.weapon_missing")
    return [index.resolve(word) for word in words]


def _split_options(rest: str, index: CardIndex) -> tuple[str, dict[str, Any] | None]:
    """Split "NAME {json}" into the card words and the options object (None when there is none).

    The options are the suffix of `rest` that is a JSON object. At most one suffix can be (see _options_start),
    so it is found in one pass and decoded once: a line of many "{" costs no more than any other line.
    """
    if not rest.endswith("}"):
        return rest, None
    position = _options_start(rest)
    if position is not None:
        try:
            value = json.loads(rest[position:], parse_constant=_no_constant)
        except (ValueError, RecursionError):
            value = None
        if isinstance(value, dict):
            return rest[:position].rstrip(), value
    try:  # a name that itself ends with "}"
        index.resolve(rest)
        return rest, None
    except LineProblem:
        raise LineProblem("text.options_not_object") from None


def _no_constant(name: str) -> None:
    raise ValueError(name)


_BRACKET_OR_QUOTE = re.compile(r'["{}\[\]]')


def _options_start(rest: str) -> int | None:
    """Where the only suffix of `rest` that can be a JSON object starts: the "{" matched by the final "}".

    Read from the right, JSON splits into tokens in one way only: a '"' is escaped exactly when an odd run of
    backslashes stands before it (a run inside a string starts a fresh escape), so the strings, and the brackets
    outside them, are the same whichever "{" the object started at. Hence if any suffix `rest[p:]` is a JSON
    object, p is the "{" that the final "}" closes when brackets are matched from the right outside strings, and no
    other suffix is one. One pass over the reversed line (None when the brackets do not match); the caller decodes
    that one suffix to check it (json.loads at every "{" was quadratic).
    """
    text = rest[::-1]  # the line read from the right; a '"' is escaped when backslashes FOLLOW it here
    depth, position = 0, 0
    while True:
        found = _BRACKET_OR_QUOTE.search(text, position)
        if found is None:
            return None
        char, position = found.group(), found.end()
        if char == '"':  # the end of a string: jump to the '"' that opens it
            position = _string_opening(text, position)
            if position is None:
                return None
        elif char in "}]":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return len(rest) - position if char == "{" else None


def _string_opening(text: str, position: int) -> int | None:
    """In the reversed line `text`, the index just past the unescaped '"' at or after `position`, or None."""
    while True:
        quote = text.find('"', position)
        if quote < 0:
            return None
        run = quote + 1
        while run < len(text) and text[run] == "\\":
            run += 1
        if (run - quote - 1) % 2 == 0:  # an even run of backslashes before it: not escaped
            return quote + 1
        position = run


def _section_labels(system: str) -> dict[str, str]:
    """Folded slug, Japanese label and English label -> section slug."""
    labels: dict[str, str] = {}
    for section in SYSTEMS[system]["sections"]:
        for word in (section, *SECTION_LABELS[section].values()):
            labels[fold(word)] = section
    return labels


_UNKNOWN_SECTION = "?"
_ANY_SECTION_LABEL = {fold(word) for section, labels in SECTION_LABELS.items() for word in (section, *labels.values())}


def _section_help(system: str) -> Worded:
    """The section headers a system's text may have: "[兵器] / [Weapons], ..." in the API's message, each page
    in its own language."""
    sections = SYSTEMS[system]["sections"]
    return Worded(", ".join(f"[{SECTION_LABELS[s]['ja']}] / [{SECTION_LABELS[s]['en']}]" for s in sections),
                  ", ".join(f"[{SECTION_LABELS[s]['en']}]" for s in sections),
                  "、".join(f"[{SECTION_LABELS[s]['ja']}]" for s in sections))


def _known_systems() -> Worded:
    """The systems a "System:" header may name: slugs in the API's message, names on the pages."""
    return Worded(", ".join(SYSTEMS), ", ".join(info["name"] for info in SYSTEMS.values()),
                  "、".join(info.get("name_ja") or info["name"] for info in SYSTEMS.values()))


def _system_slug(written: str) -> str | None:
    key = fold(written)
    for slug, info in SYSTEMS.items():
        if key in (slug, fold(info["name"]), fold(info["name_ja"])):
            return slug
    return None


def _format_slug(written: str, catalog: Catalog) -> str:
    """A format given by slug or by name -> its slug; an unknown slug-like word is kept (validation reports it)."""
    if written in catalog.formats:
        return written
    key = fold(written)
    for slug, fmt in catalog.formats.items():
        if key in (fold(slug), fold(fmt.get("name") or ""), fold(fmt.get("name_en") or "")):
            return slug
    if FORMAT_PATTERN.fullmatch(written):
        return written
    names = [Worded(slug, str(fmt.get("name_en") or fmt.get("name") or slug), str(fmt.get("name") or slug))
             for slug, fmt in catalog.formats.items()]
    known = joined(names) if names else TEMPLATES["text.none_loaded"]
    raise LineProblem("text.not_format", name=quoted(written), system=system_words(catalog.system), known=known)


# ---------------------------------------------------------------------------------------------------------
# Reader


@dataclass
class _Reader:
    catalog_for: Callable[[str], Catalog | None]
    system_argument: str | None
    issues: list[ListIssue] = field(default_factory=list)
    headers: dict[str, tuple[str, int]] = field(default_factory=dict)  # key -> (value, line)
    system: str | None = None
    index: CardIndex | None = None
    labels: dict[str, str] = field(default_factory=dict)
    section: str | None = None
    sections: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    entries: int = 0
    format: str | None = None
    last: Any = None  # the entry a loadout line belongs to: the entry read just above, None, or _FAILED
    last_keys: set[str] = field(default_factory=set)  # the loadout keys already given for `last`
    any_section: bool = False  # "did you mean" offers cards of any section (the editor's paste before a header)

    def add(self, line: int | None, problem: LineProblem) -> None:
        suggestions = list(problem.suggestions)
        message = problem.message
        if problem.suggest_for and self.index and len(self.issues) < MAX_ISSUES:
            section = ANY_CARD if problem.any_card else None if self.any_section else self.section
            suggestions = self.index.suggest(problem.suggest_for, section)
            if suggestions:
                message += f"; did you mean {', '.join(suggestions)}?"
        prefix = f"line {line}: " if line else ""
        self.issues.append(ListIssue(prefix + message, line=line, suggestions=suggestions, code=problem.code,
                                     params=problem.params))

    def read(self, text: str) -> dict[str, Any]:
        for number, raw in enumerate(re.split(r"\r\n|\r|\n", text.lstrip("\ufeff")), start=1):
            line = raw.strip()
            if _BLANK_OR_COMMENT.match(line):
                continue
            unstorable = surrogate_problem(raw)
            if unstorable:  # a "\\udfff" escape in a JSON body's text: no database or response can hold it
                self.add(number, LineProblem("text.line_storable", problem=unstorable))
                continue
            try:
                if not self.read_line(number, line):
                    break
            except LineProblem as problem:
                self.add(number, problem)
        if self.system is None and not self.issues:
            self.start()
        if self.issues:  # in file order; problems of the whole file (no system given) first
            raise ListFormatError(sorted(self.issues, key=lambda issue: issue.line or 0))
        return self.document()

    def read_line(self, number: int, line: str) -> bool:
        """Handle one line; False stops reading (no system, too many entries)."""
        above, self.last = self.last, _FAILED  # only an entry line (and its loadout lines) is followed by loadout
        if len(line) > MAX_LINE_LENGTH:
            raise LineProblem("text.line_too_long", max=MAX_LINE_LENGTH)
        header = _HEADER.match(line)
        header_key = HEADER_KEYS.get(fold(header["key"])) if header else None
        if self.section is None and header_key:
            self.header(number, header_key, header["value"].strip())
            return True
        if self.system is None:
            if header and fold(header["key"]) not in _ANY_SECTION_LABEL:
                raise _unknown_header(header["key"])
            if not self.start():
                return False
        if self.section_header(line):
            self.last = None
            return True
        if self.section is None:
            raise self.before_section(line, header)
        if header_key:
            raise LineProblem("text.header_after_section")
        loadout = loadout_line(line)
        if loadout:
            self.last = above
            self.loadout(above, *loadout)
            return True
        entry = parse_entry(line, self.index)
        self.entries += 1
        if self.entries > MAX_ENTRIES:
            self.add(number, LineProblem("text.too_many_entries", max=MAX_ENTRIES))
            return False
        self.sections[self.section].append(entry)
        self.last, self.last_keys = entry, set()
        return True

    def loadout(self, entry: Any, key: str, value: str) -> None:
        """A "Cortex:" / "Weapons:" line: the options of the entry just above (docs/list-formats.md)."""
        word = Label(LOADOUT_WORDS[key]["en"], LOADOUT_WORDS[key]["ja"])
        if entry is _FAILED:
            return  # the line above has a problem, already reported
        if entry is None:
            raise LineProblem("text.loadout_no_entry", word=word)
        if key in self.last_keys:
            raise LineProblem("text.loadout_twice", word=word)
        if "options" in entry and not self.last_keys:
            raise LineProblem("text.loadout_with_json", word=word)
        try:
            chosen = loadout_value(key, value, self.index)
        except LineProblem as problem:
            problem.any_card = True
            raise
        options = {**entry.get("options", {}), key: chosen}
        entry["options"] = canonical_options(options)
        self.last_keys.add(key)

    def header(self, number: int, key: str, value: str) -> None:
        if key in self.headers:
            raise LineProblem("text.header_twice", key=Label(key.capitalize(), HEADER_WORDS_JA[key]),
                               line=self.headers[key][1])
        if key == "system" and _system_slug(value) is None:
            self.headers[key] = ("", number)  # reported here; not again as "no system given"
            raise LineProblem("text.unknown_system", name=quoted(value), known=_known_systems())
        self.headers[key] = (value, number)
        if key == "name" and (len(value) > NAME_MAX or not NAME_PATTERN.fullmatch(value)):
            raise LineProblem("text.bad_name", max=NAME_MAX, length=len(value),
                               control="" if NAME_PATTERN.fullmatch(value) else TEMPLATES["text.bad_name.control"])

    def start(self) -> bool:
        """Fix the system (System: header, else the argument) once the headers are over; False if none."""
        if "system" in self.headers and not self.headers["system"][0]:
            return False  # an unknown System: header, already reported
        written = self.headers.get("system", (self.system_argument, None))[0]
        if not written:
            self.add(None, LineProblem("text.no_system", known=_known_systems()))
            return False
        system = _system_slug(written)
        if system is None:
            self.add(None, LineProblem("text.unknown_system", name=quoted(written), known=_known_systems()))
            return False
        self.system = system
        catalog = self.catalog_for(system) or Catalog.build(system, [], [])
        self.index = CardIndex.of(catalog)
        self.labels = _section_labels(system)
        self.sections = {section: [] for section in SYSTEMS[system]["sections"]}
        written, line = self.headers.get("format", ("", None))
        if written:
            try:
                self.format = _format_slug(written, catalog)
            except LineProblem as problem:
                self.add(line, problem)
        return True

    def section_header(self, line: str) -> bool:
        bracket = _BRACKET_SECTION.match(line)
        label = bracket["label"] if bracket else _bare_label(line)
        if label is None:
            return False
        section = self.labels.get(fold(label))
        if section:
            self.section = section
            return True
        if bracket:
            self.section = _UNKNOWN_SECTION  # its entries are still checked, then dropped
            self.sections[_UNKNOWN_SECTION] = []
            raise LineProblem("text.unknown_section", label=label.strip(), system=system_words(self.system),
                               sections=_section_help(self.system))
        return False

    def before_section(self, line: str, header: re.Match | None) -> LineProblem:
        first = SYSTEMS[self.system]["sections"][0]
        example = Worded(*(f"[{SECTION_LABELS[first][lang]}]" for lang in ("ja", "en", "ja")))
        if loadout_line(line):
            return LineProblem("text.loadout_outside")
        if header:
            return _unknown_header(header["key"])
        if _ENTRY.match(line):
            return LineProblem("text.entry_before_section", example=example)
        return LineProblem("text.expected_header", example=example, text=quoted(line))

    def document(self) -> dict[str, Any]:
        return normalised_document(self.system, self.sections, format=self.format,
                                   name=self.headers.get("name", ("", 0))[0])


_FAILED = object()  # _Reader.last after a line with a problem: its loadout lines are skipped (already reported)


def _unknown_header(key: str) -> LineProblem:
    return LineProblem("text.unknown_header", key=quoted(key.strip()))


HEADER_WORDS_JA = {"name": "名前", "system": "ゲーム", "format": "フォーマット"}


def parse_list_text(text: str, catalog_for: Callable[[str], Catalog | None], system: str | None = None,
                    *, any_section: bool = False) -> dict[str, Any]:
    """Read the text format into a normalised hangar.list/1 dict (see docs/list-formats.md).

    catalog_for(system_slug) gives the catalog used to look names up (None: no cards loaded, only "(CODE)"
    entries can be read). `system` is used when the text has no "System:" header. "Did you mean" offers the cards
    the line's section may hold, or with `any_section` the cards any section may hold (the editor reads a pasted
    line without a header under the first section, though it goes to its card's own section).
    Raises ListFormatError with every problem and its line number.
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ListFormatError([ListIssue(f"the file is not UTF-8 text (invalid byte at offset {exc.start})",
                                             code="file.not_utf8", params={"offset": exc.start})])
    return _Reader(catalog_for, system, any_section=any_section).read(text)


