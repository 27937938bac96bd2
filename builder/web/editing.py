"""The list editor's draft: one click (add, +, −, remove), the quantities typed in place, a warjack's loadout, or
lines pasted in the text format, applied to an unsaved hangar.list/1 document.

The draft travels in the editor form; nothing is saved until the user presses Save (services.list_update with the
version they edited). Pure functions: the document in, a new document out. Pasted lines are read by the text
importer (builder.listio, docs/list-formats.md), whose messages and suggestions the editor shows as they are.
"""
from __future__ import annotations

import copy
import json
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from builder.listio import MAX_ENTRIES, MAX_QTY, ListFormatError, parse_list_text  # quantity 1..999 (docs/api.md)
from cards.systems import SYSTEMS

from .presenters import section_label, system_name, ui_lang

OPS = ("add", "inc", "dec", "remove", "loadout")


class EditError(ValueError):
    """A click the editor cannot apply; the message says which button and why."""


@dataclass(frozen=True)
class Edit:
    op: str
    section: str
    card: str

    @classmethod
    def parse(cls, value: str) -> "Edit":
        """"add:weapons:HS-001" -> Edit("add", "weapons", "HS-001")."""
        parts = (value or "").split(":", 2)
        if len(parts) != 3 or parts[0] not in OPS or not parts[1] or not parts[2]:
            raise EditError(_("Unknown editor action “%(action)s”.") % {"action": value})
        return cls(*parts)


def require_entry(document: dict[str, Any], edit: Edit, sections: list[str]) -> None:
    """EditError unless `edit.card` is in `edit.section` of `document`."""
    _entry(document, edit, sections)


def _entry(document: dict[str, Any], edit: Edit, sections: list[str]) -> dict[str, Any]:
    if edit.section not in sections:
        raise EditError(_("This list has no section “%(section)s” (sections: %(known)s).") % {
            "section": edit.section, "known": _(", ").join(section_label(name) for name in sections)})
    entries = (document.get("sections") or {}).get(edit.section) or []
    entry = next((entry for entry in entries if entry.get("card") == edit.card), None)
    if entry is None:
        raise EditError(_("%(card)s is not in %(section)s (any more).") % {
            "card": edit.card, "section": section_label(edit.section)})
    return entry


def _set_loadout(entry: dict[str, Any], cortex: str | None, weapons: list[str]) -> None:
    """Set the entry's cortex and weapons; the weapons it already had keep their order (the form lists them in the
    catalog's order, and reordering alone is no change)."""
    had = (entry.get("options") or {}).get("weapons")
    had = [code for code in had if code in weapons] if isinstance(had, list) else []
    weapons = had + [code for code in weapons if code not in had]
    options = {key: value for key, value in (entry.get("options") or {}).items() if key not in ("cortex", "weapons")}
    if cortex:
        options["cortex"] = cortex
    if weapons:
        options["weapons"] = weapons
    if options:
        entry["options"] = options
    else:
        entry.pop("options", None)


def loadout_fields(section: str, index: int) -> tuple[str, str]:
    """The names of the cortex and weapons fields of entry `index` (0-based) of `section`: one entry each, as a list
    may hold the same warjack twice with different loadouts."""
    return f"cortex-{section}-{index}", f"weapons-{section}-{index}"


def apply_loadouts(document: dict[str, Any], posted: Any, sections: list[str], warjacks: set[str],
                   choosers: Any = ()) -> dict[str, Any]:
    """A copy of `document` with the loadout of every warjack entry whose fields were posted (its cortex choice always
    is: "(none)" is a choice), and the weapons of every hero, solo or vehicle with weapon choices (`choosers`) whose
    form was shown (its hidden field `weapons-SECTION-INDEX-shown`: no box ticked is a choice too). `posted` is the
    request's QueryDict (getlist for the weapons)."""
    doc = copy.deepcopy(document)
    for section in sections:
        for index, entry in enumerate((doc.get("sections") or {}).get(section) or []):
            cortex, weapons = loadout_fields(section, index)
            if entry.get("card") in warjacks and cortex in posted:
                _set_loadout(entry, posted.get(cortex) or None, [code for code in posted.getlist(weapons) if code])
            elif entry.get("card") in choosers and f"{weapons}-shown" in posted:
                _set_loadout(entry, None, [code for code in posted.getlist(weapons) if code])
    return doc


def apply_edit(document: dict[str, Any], edit: Edit, sections: list[str], count: int = 1) -> dict[str, Any]:
    """A copy of `document` with `edit` applied. Quantities stay within 1..MAX_QTY; 0 removes the entry. `count` is
    how many copies "add" adds (the fast-add box's "3 補給")."""
    if edit.section not in sections:
        raise EditError(_("This list has no section “%(section)s” (sections: %(known)s).") % {
            "section": edit.section, "known": _(", ").join(section_label(name) for name in sections)})
    doc = copy.deepcopy(document)
    entries = doc.setdefault("sections", {}).setdefault(edit.section, [])
    index = next((i for i, entry in enumerate(entries) if entry.get("card") == edit.card), None)
    count = max(1, min(MAX_QTY, count)) if edit.op == "add" else 1
    if edit.op == "add" and index is None:
        entries.append({"card": edit.card, "qty": count})
        return doc
    if index is None:
        raise EditError(_("%(card)s is not in %(section)s (any more).") % {
            "card": edit.card, "section": section_label(edit.section)})
    entry = entries[index]
    qty = entry.get("qty") if isinstance(entry.get("qty"), int) else 1
    if edit.op in ("add", "inc"):
        entry["qty"] = min(MAX_QTY, qty + count)
    elif edit.op == "dec" and qty > 1:
        entry["qty"] = qty - 1
    else:  # remove, or − on the last copy
        del entries[index]
    return doc


# --- quantities typed in place ---------------------------------------------------------------------------------


def quantity_field(section: str, index: int) -> str:
    """The name of the number field of entry `index` (0-based) of `section`: "qty-weapons-3"."""
    return f"qty-{section}-{index}"


def apply_quantities(document: dict[str, Any], posted: Mapping[str, str], sections: list[str]
                     ) -> tuple[dict[str, Any], list[str]]:
    """A copy of `document` with the quantities typed into the entries' number fields; 0 removes an entry.

    Only the fields that were posted and differ from the draft change anything; an empty field keeps the entry as it
    is; a field that is not a whole number from 0 to MAX_QTY is refused with a message naming the card.
    """
    doc = copy.deepcopy(document)
    problems: list[str] = []
    for section in sections:
        entries = (doc.get("sections") or {}).get(section)
        if not entries:
            continue
        kept = []
        for index, entry in enumerate(entries):
            written = (posted.get(quantity_field(section, index)) or "").strip()
            if not written:
                kept.append(entry)
                continue
            qty = _whole_number(written)
            if qty is None or not 0 <= qty <= MAX_QTY:
                problems.append(_("The quantity of %(card)s must be a whole number from 0 to %(max)s, not “%(got)s”.")
                                % {"card": entry.get("card"), "max": MAX_QTY, "got": written[:12]})
                kept.append(entry)
            elif qty:
                kept.append({**entry, "qty": qty})
        doc["sections"][section] = kept
    return doc, problems


def _whole_number(written: str) -> int | None:
    text = unicodedata.normalize("NFKC", written)
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else None


# --- the fast-add search: "3 補給" -------------------------------------------------------------------------------

_QUANTITY_FIRST = re.compile(r"^\s*(?P<qty>[0-9０-９]{1,3})\s*[xX×]?\s+(?P<rest>\S.*)$")


def split_quantity(query: str) -> tuple[int, str]:
    """"3 補給" -> (3, "補給"), "2x Flare" -> (2, "Flare"), "補給" -> (1, "補給"): a number typed first is how many to add."""
    match = _QUANTITY_FIRST.match(query or "")
    if not match:
        return 1, (query or "").strip()
    qty = int(unicodedata.normalize("NFKC", match["qty"]))
    return (qty, match["rest"].strip()) if 1 <= qty <= MAX_QTY else (1, (query or "").strip())


def rank_matches(rows: list[dict[str, Any]], query: str) -> list[dict[str, Any]]:
    """The picker's rows, best match first: the code or a name exactly, then a name starting with the words, then the
    rest in their order. Rows have "code" and "names" ({"main", "other"})."""
    key = fold(query)
    if not key:
        return rows

    def rank(row: dict[str, Any]) -> int:
        words = [fold(row["code"]), fold(row["names"].get("main", "")), fold(row["names"].get("other", ""))]
        if key in words:
            return 0
        if any(word.startswith(key) for word in words):
            return 1
        return 2

    return sorted(rows, key=rank)


def fold(text: str) -> str:
    """Width- and case-insensitive, runs of spaces as one (as the text importer compares names)."""
    return " ".join(unicodedata.normalize("NFKC", text or "").casefold().split())


# --- paste into the editor ---------------------------------------------------------------------------------------

PASTE_MAX_LINES = MAX_ENTRIES  # more lines than a list can hold entries are not read
_PROBE = "HANGAR-PASTE-PROBE"  # a bare "(CODE)" entry: the importer keeps it as written, in the section it is under
_ENTRY_QTY = re.compile(r"^\s*([+\-−]?[0-9０-９]+)(?:\s*[xX×])?\s+")


@dataclass(frozen=True)
class PastedEntry:
    line: int  # 1-based, in the pasted text
    section: str | None  # the section header it was under, None: the card's own section
    entry: dict[str, Any]


@dataclass(frozen=True)
class PasteProblem:
    line: int  # 1-based, in the text it was read from
    text: str  # the line as written
    message: str  # the importer's message in the page's language, without "line N:" (the page shows `line`)
    suggestions: tuple[str, ...] = ()  # the importer's "did you mean" names, "補給物資 (HS-001)"
    fixes: tuple[str, ...] = ()  # the whole line rewritten with each suggestion: "2 補給物資 (HS-001)"

    def at(self, line: int) -> "PasteProblem":
        return PasteProblem(line, self.text, self.message, self.suggestions, self.fixes)


@dataclass
class PasteResult:
    entries: list[PastedEntry] = field(default_factory=list)
    problems: list[PasteProblem] = field(default_factory=list)
    sections_at: dict[int, tuple[str, str]] = field(default_factory=dict)  # line -> (section, header as written)

    def remaining(self) -> tuple[str, list[PasteProblem]]:
        """The text left in the paste box: each bad line, under the section header it was under, and the problems
        renumbered to that text (the good lines are in the list now)."""
        lines: list[str] = []
        shown: list[PasteProblem] = []
        header_written: int | None = None
        for problem in self.problems:
            header = max((line for line in self.sections_at if line < problem.line), default=None)
            if header is not None and header != header_written and header != problem.line:
                lines.append(self.sections_at[header][1])
                header_written = header
            lines.append(problem.text)
            shown.append(problem.at(len(lines)))
        return "\n".join(lines), shown


def read_paste(text: str, system: str, catalog_for: Callable[[str], Any]) -> PasteResult:
    """Read text-format lines (docs/list-formats.md) pasted into the editor of a `system` list, keeping every good line.

    A whole list (headers and sections) is read in one go by the importer; otherwise, or when some lines are bad, line
    by line with the importer's own reading of each: section headers switch the section, `QTY CARD [OPTIONS]` lines
    are entries (before any header: in the card's own section), Name:/System:/Format: lines are skipped (the list's
    own fields stay; a System: of another game is a problem), and every other line is a problem with the importer's
    message and its "did you mean" suggestions.
    """
    result = PasteResult()
    lines = re.split(r"\r\n|\r|\n", (text or "").lstrip("\ufeff"))
    whole = _try_parse(text, catalog_for, system)
    if isinstance(whole, dict) and whole.get("system") == system and len(lines) <= PASTE_MAX_LINES:
        return _whole_list(whole, lines, result)
    section: str | None = None
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        if number > PASTE_MAX_LINES:
            result.problems.append(PasteProblem(number, raw, _(
                "only the first %(max)s lines are read; paste the rest separately") % {"max": PASTE_MAX_LINES}))
            break
        # an entry (or a comment) under the current section
        parsed = _try_parse(f"System: {system}\n[{section or SYSTEMS[system]['sections'][0]}]\n{line}\n", catalog_for,
                            any_section=section is None)
        if isinstance(parsed, dict):
            found = [entry for entries in parsed["sections"].values() for entry in entries]
            if found:
                result.entries.append(PastedEntry(number, section, found[0]))
                continue
        # a section header?
        probe = _try_parse(f"System: {system}\n{line}\n1 ({_PROBE})\n", catalog_for)
        if isinstance(probe, dict):
            section = next(key for key, entries in probe["sections"].items() if entries)
            result.sections_at[number] = (section, raw)
            continue
        if isinstance(parsed, dict):  # a comment
            continue
        # a header line (Name:, System:, Format:): skipped, unless it names another game
        header = _try_parse(f"{line}\n", catalog_for, system)
        if isinstance(header, dict):
            if header.get("system") != system:
                result.problems.append(PasteProblem(number, raw, _(
                    "these lines are for another game (%(other)s); this list is %(this)s")
                    % {"other": system_name(str(header.get("system"))), "this": system_name(system)}))
            continue
        if line.startswith("[") and line.endswith("]"):
            section = None  # an unknown section: the lines under it go to their cards' own sections
        issue = next((issue for issue in parsed.issues if issue.line), parsed.issues[0])
        result.problems.append(PasteProblem(number, raw, issue.words(ui_lang()), tuple(issue.suggestions),
                                            tuple(_fixed_line(line, suggestion) for suggestion in issue.suggestions)))
    return result


def _whole_list(doc: dict[str, Any], lines: list[str], result: PasteResult) -> PasteResult:
    """A paste that the importer read whole: every entry under its section (line numbers are not needed)."""
    for section, entries in doc["sections"].items():
        for entry in entries:
            result.entries.append(PastedEntry(0, section, entry))
    return result


def _try_parse(text: str, catalog_for: Callable[[str], Any], system: str | None = None, *,
               any_section: bool = False) -> dict[str, Any] | ListFormatError:
    try:
        return parse_list_text(text, catalog_for, system=system, any_section=any_section)
    except ListFormatError as error:
        return error


def _fixed_line(line: str, suggestion: str) -> str:
    """The bad line with its card words replaced by a suggestion ("2 補給物質" + "補給物資 (HS-001)" -> "2 補給物資 (HS-001)")."""
    match = _ENTRY_QTY.match(line)
    return f"{match.group(1) if match else '1'} {suggestion}"


def merge_entries(document: dict[str, Any], pasted: list[PastedEntry], section_for: Callable[[str], str],
                  sections: list[str]) -> tuple[dict[str, Any], list[PastedEntry]]:
    """A copy of `document` with the pasted entries added: to an entry of the same card and options (quantities add up,
    at most MAX_QTY), else as a new entry at the end of its section (the header it was under, else the card's own
    section, section_for(code)). Returns the document and the entries that did not fit (MAX_ENTRIES entries)."""
    doc = copy.deepcopy(document)
    doc.setdefault("sections", {})
    count = sum(len(doc["sections"].get(section) or []) for section in sections)
    refused: list[PastedEntry] = []
    for item in pasted:
        section = item.section if item.section in sections else section_for(item.entry["card"])
        entries = doc["sections"].setdefault(section, [])
        same = next((entry for entry in entries if entry.get("card") == item.entry["card"]
                     and entry.get("options") == item.entry.get("options")), None)
        if same is not None and isinstance(same.get("qty"), int):
            same["qty"] = min(MAX_QTY, same["qty"] + item.entry["qty"])
        elif count >= MAX_ENTRIES:
            refused.append(item)
        else:
            entries.append(copy.deepcopy(item.entry))
            count += 1
    return doc, refused


@dataclass(frozen=True)
class Pasted:
    document: dict[str, Any]  # the draft with the good lines added
    text: str  # what stays in the paste box: the bad lines (under their section headers)
    problems: list[PasteProblem]  # their problems, numbered as in `text`
    added: int  # copies added


def paste_into(document: dict[str, Any], text: str, system: str, catalog_for: Callable[[str], Any],
               section_for: Callable[[str], str], sections: list[str]) -> Pasted:
    """read_paste then merge_entries: the good lines into the draft, the bad ones (and any that did not fit) left."""
    result = read_paste(text, system, catalog_for)
    doc, refused = merge_entries(document, result.entries, section_for, sections)
    for item in refused:
        result.problems.append(PasteProblem(item.line, _entry_text(item.entry), _(
            "the list already holds %(max)s entries") % {"max": MAX_ENTRIES}))
    result.problems.sort(key=lambda problem: problem.line)
    remaining, shown = result.remaining()
    added = sum(item.entry["qty"] for item in result.entries) - sum(item.entry["qty"] for item in refused)
    return Pasted(doc, remaining, shown, added)


def _entry_text(entry: dict[str, Any]) -> str:
    options = f" {json.dumps(entry['options'], ensure_ascii=False)}" if "options" in entry else ""
    return f"{entry['qty']} ({entry['card']}){options}"


def paste_fix(text: str, choice: str, system: str, catalog_for: Callable[[str], Any]) -> str:
    """The paste box's `text` with bad line LINE rewritten with its K-th suggestion (`choice` is "LINE:K"); the text
    unchanged when LINE is not a bad line or has no K-th suggestion."""
    try:
        line, index = (int(part) for part in choice.split(":"))
    except ValueError:
        return text
    problem = next((pr for pr in read_paste(text, system, catalog_for).problems if pr.line == line), None)
    if problem is None or not 0 <= index < len(problem.fixes):
        return text
    lines = re.split(r"\r\n|\r|\n", text)
    lines[line - 1] = problem.fixes[index]
    return "\n".join(lines)
