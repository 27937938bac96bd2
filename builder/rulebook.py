"""The rules pages' texts, read from the project's own documents so that the site and the docs never disagree:

- docs/rules.md, the reference rules: each rule by its ID (H5, M2, W12, ...) for the construction table, and the
  game sections after each system's construction section (how a game is played) for "How the simulator plays";
- docs/engine-<system>.md, the rules engine: its "Rules (as) implemented" section and the choices listed with its
  options (the engine's own interpretations), and the options table (what a simulation may switch).

A Japanese page reads the Japanese texts: docs/ja/rules.md and docs/ja/engine-<system>.md, the same headings, rule IDs
and option names in the same order (tests/web/test_rulebook.py checks they do not drift). A document with no
Japanese file is read in English, and the page says so (`in_page_language`).

Statements the sources do not make are marked `[interpretation` in both documents; `RuleItem.interpretation` says
so. The texts stay Markdown (with their source tags, [seed 000], [public], ...): the templates render them with
the `inline_markdown` filter (builder/web/markdown.py: markdown-it-py, sanitised by nh3, tags as badges).

The format options in force (a package's format `options`, docs/card-fields.md) are shown in words by
`format_option_rows`, never as `key = value`.
"""
from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.utils.translation import get_language, pgettext, pgettext_lazy

DOCS = Path(settings.BASE_DIR) / "docs"
DOCS_JA = DOCS / "ja"
RULES_NAME = "rules.md"
RULES_DOC = DOCS / RULES_NAME

# How the parser finds its parts in either language's document.
_CONSTRUCTION = re.compile(r"Construction|構築")
_ENGINE_RULES = re.compile(r"^(?:rules|ルール)", re.IGNORECASE)
_ENGINE_OPTIONS = re.compile(r"option|オプション", re.IGNORECASE)

_BULLET = re.compile(r"^- (.*)$")
_SUB_BULLET = re.compile(r"^ {2,4}(?:-|\d+\.) (.*)$")
_LEAD = re.compile(r"^\*\*(?P<title>[^*]+)\*\*\s*(?P<rest>.*)$")
_RULE_ID = re.compile(r"^(?P<id>[HMW]\d+)\b\s*(?P<title>.*)$")
_OPTION_ROW = re.compile(r"^\|\s*(?P<names>`[^|]+`)\s*\|\s*(?P<default>[^|]*?)\s*\|\s*(?P<meaning>.*?)\s*\|$")


@dataclass(frozen=True)
class RuleItem:
    """One rule or statement: its ID if it has one, its bold lead (title), the text after it, and sub-points."""

    id: str
    title: str
    text: str
    sub: tuple[str, ...] = ()
    paragraph: bool = False  # a plain paragraph of the section, not a bullet

    @property
    def separator(self) -> str:
        """What goes between the bold title and the text: nothing before ":" or ",", else a space."""
        return "" if self.text.startswith((":", ",", ".", ";")) else " "

    @property
    def interpretation(self) -> bool:
        return any("[interpretation" in part for part in (self.title, self.text, *self.sub))


@dataclass(frozen=True)
class RuleSection:
    title: str  # as in docs/rules.md, without its number: "Combat details [seed 000]"
    items: tuple[RuleItem, ...]

    @property
    def heading(self) -> str:
        """The heading in the UI language (SECTION_HEADINGS), its source tag kept: "戦闘の詳細 [seed 000]"."""
        match = re.match(r"^(?P<name>.*?)\s*(?P<tag>\[[^\]]*\])?$", self.title)
        name, tag = (match.group("name"), match.group("tag")) if match else (self.title, None)
        words = SECTION_HEADINGS.get(name)
        return f"{words if words else name}{' ' + tag if tag else ''}"


@dataclass(frozen=True)
class EngineOption:
    """A ruleset option of an engine: what a simulation's `options` may set, with its default."""

    names: tuple[str, ...]
    default: str
    meaning: str


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.exists() else ""


def engine_name(system: str) -> str:
    return f"engine-{system}.md"


def document(name: str, lang: str) -> Path:
    """The document a page in `lang` reads: docs/ja/<name> on a Japanese page when it exists, else docs/<name>."""
    japanese = DOCS_JA / name
    return japanese if lang == "ja" and japanese.exists() else DOCS / name


def in_page_language(name: str, lang: str) -> bool:
    """Whether a page in `lang` reads `name` in its own language (False: the English text, said on the page)."""
    return lang != "ja" or document(name, lang).parent == DOCS_JA


def _split(lines: list[str], marker: str) -> list[tuple[str, list[str]]]:
    """(heading, its lines) for each heading starting with `marker` ("## ", "### "), in order."""
    parts: list[tuple[str, list[str]]] = []
    for line in lines:
        if line.startswith(marker):
            parts.append((line[len(marker):].strip(), []))
        elif parts:
            parts[-1][1].append(line)
    return parts


def _lead(raw: str) -> RuleItem:
    """`**W12 Strafe** [seed 003]: text` → RuleItem("W12", "Strafe", "[seed 003]: text")."""
    match = _LEAD.match(raw)
    title, rest = (match.group("title").strip(), match.group("rest")) if match else ("", raw)
    rule = _RULE_ID.match(title)
    if rule:
        return RuleItem(rule.group("id"), rule.group("title").strip(), rest.strip())
    return RuleItem("", title, rest.strip())


_CJK_END = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]$")
_CJK_START = re.compile(r"^[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")


def _joined(first: str, second: str) -> str:
    """Two wrapped lines of a bullet as one: a space between them, none between two Japanese characters (Japanese
    has no spaces between words: "車両・" + "歩兵" is "車両・歩兵")."""
    if not first:
        return second
    gap = "" if _CJK_END.search(first) and _CJK_START.search(second) else " "
    return f"{first}{gap}{second}"


def _items(lines: list[str]) -> tuple[RuleItem, ...]:
    """The bullets of a section (with their wrapped lines and sub-points) and its plain paragraphs; tables,
    code and sub-headings are left out."""
    items: list[RuleItem] = []
    text: list[str] = []  # the current bullet or paragraph
    subs: list[str] = []
    kind = ""  # "bullet" | "paragraph" | ""

    def flush() -> None:
        nonlocal text, subs, kind
        if text:
            whole = functools.reduce(_joined, text, "")
            item = _lead(whole) if kind == "bullet" else RuleItem("", "", whole)
            items.append(RuleItem(item.id, item.title, item.text, tuple(subs), paragraph=kind == "paragraph"))
        text, subs, kind = [], [], ""

    in_code = False
    for line in lines:
        if line.startswith("```"):
            in_code = not in_code
            flush()
            continue
        if in_code or line.startswith(("|", "#")) or line.strip() in ("", "---"):
            flush()
            continue
        bullet, sub = _BULLET.match(line), _SUB_BULLET.match(line)
        if bullet:
            flush()
            text, kind = [bullet.group(1).strip()], "bullet"
        elif sub and kind == "bullet":
            subs.append(sub.group(1).strip())
        elif line.startswith(" ") and kind:
            if subs:
                subs[-1] = _joined(subs[-1], line.strip())
            else:
                text.append(line.strip())
        else:
            if kind != "paragraph":
                flush()
                kind = "paragraph"
            text.append(line.strip())
    flush()
    return tuple(items)


def _system_part(system: str, lang: str) -> list[tuple[str, list[str]]]:
    """The ### sections of a system's part of docs/rules.md (its ## heading names the slug: "(system slug `mwda`)")."""
    for title, lines in _split(_read(document(RULES_NAME, lang)).splitlines(), "## "):
        if f"`{system}`" in title:
            return _split(lines, "### ")
    return []


@lru_cache(maxsize=2)
def rule_texts(lang: str = "en") -> dict[str, str]:
    """Rule ID → its text in docs/rules.md, or docs/ja/rules.md for "ja" (the construction table's last column)."""
    texts: dict[str, str] = {}
    for line in _read(document(RULES_NAME, lang)).splitlines():
        match = re.match(r"^- \*\*([HMW]\d+)\b[^*]*\*\*\s*(.*)$", line)
        if match:
            texts[match.group(1)] = match.group(2)
    return texts


@lru_cache(maxsize=8)
def game_sections(system: str, lang: str = "en") -> tuple[RuleSection, ...]:
    """How a game of `system` is played (docs/rules.md in `lang`): the sections after its construction section."""
    sections = _system_part(system, lang)
    start = next((i + 1 for i, (title, _) in enumerate(sections) if _CONSTRUCTION.search(title)), len(sections))
    found = [RuleSection(_clean_heading(title), _items(lines)) for title, lines in sections[start:]]
    return tuple(section for section in found if section.items)


def _clean_heading(title: str) -> str:
    """"1.3 Turn structure (reference engine)" → "Turn structure (reference engine)"."""
    return re.sub(r"^\d+(\.\d+)*\s+", "", title)


def _engine_doc(system: str, lang: str) -> list[tuple[str, list[str]]]:
    return _split(_read(document(engine_name(system), lang)).splitlines(), "## ")


@lru_cache(maxsize=8)
def engine_rules(system: str, lang: str = "en") -> tuple[RuleItem, ...]:
    """How the engine implements the rules and where it chose (docs/engine-<system>.md in `lang`): the bullets of
    its "Rules (as) implemented" section and those of its options section."""
    found: list[RuleItem] = []
    for title, lines in _engine_doc(system, lang):
        if _ENGINE_RULES.match(title):
            found += _items(lines)
        elif _ENGINE_OPTIONS.search(title):  # the choices listed beside the options table, without its lead-in lines
            found += [item for item in _items(lines) if not item.paragraph]
    return tuple(found)


@lru_cache(maxsize=8)
def engine_options(system: str, lang: str = "en") -> tuple[EngineOption, ...]:
    """The engine's options table (docs/engine-<system>.md in `lang`): names, default, meaning."""
    options: list[EngineOption] = []
    for title, lines in _engine_doc(system, lang):
        if not _ENGINE_OPTIONS.search(title):
            continue
        for line in lines:
            row = _OPTION_ROW.match(line.strip())
            if row:
                names = tuple(re.findall(r"`([^`]+)`", row.group("names")))
                options.append(EngineOption(names, row.group("default").strip("`"), row.group("meaning")))
    return tuple(options)


# --- headings and the words of the English page ------------------------------------------------------------------

# docs/rules.md's game section headings (without number and tag) -> the page's heading in the UI language.
SECTION_HEADINGS: dict[str, object] = {
    "Turn structure (reference engine)": pgettext_lazy("rules heading", "Turn structure"),
    "Combat details": pgettext_lazy("rules heading", "Combat details"),
    "秘策, refit, design": pgettext_lazy("rules heading", "Secret, refit and design"),
    "機獣討滅戦線 — co-op mode against 機獣 (the sample opponent for HAGMI goldfish tests)": pgettext_lazy(
        "rules heading", "Co-op mode against the beasts (the sample opponent)"),
    "Game (reference engine)": pgettext_lazy("rules heading", "How a game is played"),
}
# docs/ja/rules.md's headings, the same words on the page as the English ones.
SECTION_HEADINGS |= {
    "ターンの流れ（参照エンジン）": SECTION_HEADINGS["Turn structure (reference engine)"],
    "ゲーム（参照エンジン）": SECTION_HEADINGS["Game (reference engine)"],
    "機獣討滅戦線 — 機獣との協力戦（HAGMI のゴールドフィッシュテストの練習相手）": SECTION_HEADINGS[
        "機獣討滅戦線 — co-op mode against 機獣 (the sample opponent for HAGMI goldfish tests)"],
}

# The game terms the English docs write in Japanese without a gloss ("兵器 deck", "from 秘策"): on an English page
# they read in the English page's words (the list page's section names); a gloss such as "fuel (燃料)" stays.
ENGLISH_TERMS: dict[str, tuple[tuple[str, str], ...]] = {
    "hagmi": (("兵器", "Weapons"), ("作戦", "Tactics"), ("秘策", "Secret"), ("機獣", "beast"), ("母艦", "mothership"),
              ("ダメージ", "damage")),
}


def page_terms(system: str) -> tuple[tuple[str, str], ...]:
    """The terms to replace in the docs' texts on this page: the English words on an English page, none otherwise."""
    return ENGLISH_TERMS.get(system, ()) if (get_language() or "en").startswith("en") else ()


# --- the format options in force, in words --------------------------------------------------------------------

# (system, option) -> (the rule it sets, what it means); docs/card-fields.md lists the options of each system.
FORMAT_OPTIONS: dict[tuple[str, str], tuple[str, object]] = {
    ("hagmi", "min_weapons"): ("H1", pgettext_lazy("hagmi format option", "Minimum cards in the Weapons deck")),
    ("hagmi", "min_tactics"): ("H2", pgettext_lazy("hagmi format option", "Minimum cards in the Tactics deck")),
    ("hagmi", "min_main"): ("H2", pgettext_lazy("hagmi format option",
                                                "Minimum cards in the Weapons and Tactics decks together")),
    ("hagmi", "max_copies"): ("H4", pgettext_lazy("hagmi format option",
                                                  "Maximum copies of one card name in the main deck")),
    ("hagmi", "secret_per_main"): ("H5", pgettext_lazy("hagmi format option", "Main-deck cards per Secret card")),
    ("hagmi", "secret_counts_damage_deck"): ("H5", pgettext_lazy("hagmi format option",
                                                                 "The damage deck counts as main deck for Secret")),
    ("hagmi", "secret_max_copies"): ("H6", pgettext_lazy("hagmi format option",
                                                         "Maximum copies of one card name in Secret")),
    ("mwda", "point_limit"): ("M1", pgettext_lazy("mwda format option", "Maximum army points")),
    ("mwda", "single_faction"): ("", pgettext_lazy("mwda format option", "All units of one faction")),
    ("warcaster", "max_heroes"): ("W1", pgettext_lazy("warcaster format option", "Maximum heroes")),
    ("warcaster", "max_units"): ("W2", pgettext_lazy("warcaster format option", "Maximum units other than heroes")),
    ("warcaster", "max_mantlets"): ("W2", pgettext_lazy("warcaster format option", "Maximum mantlets")),
    ("warcaster", "rack_min"): ("W3", pgettext_lazy("warcaster format option", "Minimum cyphers in the rack")),
    ("warcaster", "rack_max"): ("W3", pgettext_lazy("warcaster format option", "Maximum cyphers in the rack")),
    ("warcaster", "rack_min_per_suit"): ("W3", pgettext_lazy("warcaster format option",
                                                             "Minimum cyphers of each suit")),
    ("warcaster", "max_unit_copies"): ("W4", pgettext_lazy("warcaster format option", "Maximum copies of one unit")),
    ("warcaster", "single_faction"): ("W6", pgettext_lazy("warcaster format option",
                                                          "All units of one faction (mercenaries excepted)")),
}


def format_option_rows(system: str, options: dict[str, object] | None) -> list[dict[str, str]]:
    """A format's options in words, in the order given: {"rule": "H1", "label": "Minimum cards in the Weapons deck",
    "value": "20", "key": "min_weapons", "raw": "20"} (key and raw: as written in the package file); yes / no for a
    switch, an unknown option by its name with spaces."""
    rows = []
    for key, value in (options or {}).items():
        rule, label = FORMAT_OPTIONS.get((system, key), ("", key.replace("_", " ")))
        if isinstance(value, bool):
            shown = pgettext("format option value", "yes") if value else pgettext("format option value", "no")
        else:
            shown = str(value)
        rows.append({"rule": rule, "label": str(label), "value": shown, "key": key, "raw": json.dumps(value)})
    return rows
