"""Exports of a tournament event's lists (docs/events.md "Exports"): CSV (one row per player), JSON of every list
(`hangar.event-lists/1`) and a PDF pack (one sheet per page). Reads only: the web's downloads, the `event_export`
command and the REST API call these, never a view.

Game-neutral: what a list "is" (its most common faction, else its main card) and its size (the points of a game
whose cards have points, the main deck of a card game) come from the pinned catalog's card data and the game's
RuleSet gauges, never from a game's name.
"""
from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Mapping
from typing import Any

from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from builder import event_selectors
from builder.models import Event, EventEntrant, EventSubmission
from builder.web import presenters, vocabulary
from cards.models import PackageVersion
from cards.selectors import catalog_pinned
from cards.sheetfiles import neutralised
from rules_engine.construction import RULESETS
from rules_engine.core.catalog import Catalog

SCHEMA = "hangar.event-lists/1"
EXPORT_KINDS = ("csv", "json", "pdf-pack")
CONTENT_TYPES = {"csv": "text/csv; charset=utf-8", "json": "application/json", "pdf-pack": "application/pdf"}
EXTENSIONS = {"csv": "csv", "json": "json", "pdf-pack": "pdf"}


# --- what a list is and how big ---------------------------------------------------------------------------------


def submission_catalog(submission: EventSubmission) -> Catalog:
    """The catalog at the versions the submission was checked against (the event's pins)."""
    event = submission.entrant.event
    return catalog_pinned(event.system.slug, submission.package_versions or event.package_versions or {})


def _entries(document: Mapping[str, Any]) -> list[tuple[str, int]]:
    found = []
    sections = document.get("sections") if isinstance(document, Mapping) else None
    for entries in (sections or {}).values():
        for entry in entries or []:
            if isinstance(entry, Mapping) and isinstance(entry.get("card"), str) and isinstance(entry.get("qty"), int):
                found.append((entry["card"], entry["qty"]))
    return found


def list_identity(document: Mapping[str, Any], catalog: Catalog) -> dict[str, str]:
    """What a list is, in one phrase: its most common faction (the pinned cards' "faction", counted by copies; ties
    by name) in the UI language, else its main card (the most copies, ties by the higher cost, then the code).
    {"kind": "faction" | "card" | "", "value": slug or code, "name": words}."""
    system = str(document.get("system") or catalog.system)
    factions: Counter[str] = Counter()
    copies: Counter[str] = Counter()
    for code, qty in _entries(document):
        copies[code] += qty
        card = catalog.cards.get(code)
        faction = card.get("faction") if card else None
        if isinstance(faction, str) and faction:
            factions[faction] += qty
    if factions:
        slug = min(factions, key=lambda f: (-factions[f], f))
        return {"kind": "faction", "value": slug, "name": vocabulary.label(system, "faction", slug)}
    if not copies:
        return {"kind": "", "value": "", "name": ""}

    def cost(code: str) -> int:
        card = catalog.cards.get(code)
        value = presenters.card_cost(system, card) if card else None
        return value if isinstance(value, int) else -1

    code = min(copies, key=lambda c: (-copies[c], -cost(c), c))
    return {"kind": "card", "value": code, "name": presenters.names(catalog.cards.get(code), code)["main"]}


def format_name(document: Mapping[str, Any], catalog: Catalog) -> str:
    """The name of the format a locked list was checked in (the event's, else its pinned data's default one), in the
    UI language."""
    slug = document.get("format") if isinstance(document.get("format"), str) else None
    slug = slug if slug in catalog.formats else catalog.default_format
    fmt = catalog.formats.get(slug) if slug else None
    return presenters.names(fmt, slug)["main"] if fmt is not None else "–"


def _gauges(document: Mapping[str, Any], catalog: Catalog) -> list[dict[str, Any]]:
    ruleset = RULESETS.get(str(document.get("system") or catalog.system))
    return [gauge.as_dict() for gauge in ruleset.gauges(document, catalog)] if ruleset is not None else []


def size_measure(system: str, catalog: Catalog | None = None) -> str:
    """How the game measures a list: "points" (a points gauge: MWDA), "main" (a main deck's cards: HAGMI), else
    "cost" (the sum of its cards' cost field: Warcaster's CST). Read from the game's gauges of an empty list."""
    catalog = catalog or Catalog.build(system, [], [])
    keys = {gauge["key"] for gauge in _gauges({"system": system, "sections": {}}, catalog)}
    return "points" if "points" in keys else "main" if "main" in keys else "cost"


def size_label(system: str) -> str:
    """The words of the size column, in the UI language."""
    measure = size_measure(system)
    if measure == "cost":
        return capfirst(presenters.cost_word(system))
    return capfirst(str(presenters.COUNTER_LABELS[measure]))


def list_size(document: Mapping[str, Any], catalog: Catalog) -> int:
    """The list's points (its points gauge), its main deck's cards (its main gauge), else the sum of cost × copies."""
    system = str(document.get("system") or catalog.system)
    for gauge in _gauges(document, catalog):
        if gauge["key"] in ("points", "main"):
            return int(gauge["value"])
    total = 0
    for code, qty in _entries(document):
        card = catalog.cards.get(code)
        value = presenters.card_cost(system, card) if card else None
        total += (value or 0) * qty
    return total


def submission_gauges(submission: EventSubmission) -> list[dict[str, Any]]:
    """The legality panel's counters of a locked list, against its pinned data."""
    return _gauges(submission.document, submission_catalog(submission))


# --- the pinned data ------------------------------------------------------------------------------------------


def pin_rows(pins: Mapping[str, int], system: str, *, newest: Mapping[str, int] | None = None) -> list[dict[str, Any]]:
    """The pinned package versions in words: [{"slug", "title", "number", "version", "newest": {...} | None}]."""
    slugs = sorted(set(pins) | set(newest or {}))
    found = {(row.slug, row.number): row for row in PackageVersion.objects.filter(
        system__slug=system, slug__in=slugs).only("slug", "number", "version", "title")}
    rows = []
    for slug in slugs:
        number = pins.get(slug)
        row = found.get((slug, number)) if number is not None else None
        item: dict[str, Any] = {"slug": slug, "title": row.title if row else slug, "number": number,
                                "version": row.version if row else ""}
        if newest is not None:
            latest = newest.get(slug)
            other = found.get((slug, latest)) if latest is not None else None
            item["newest"] = {"number": latest, "version": other.version if other else ""}
            item["moved"] = latest != number
            if row is None and other is not None:
                item["title"] = other.title
        rows.append(item)
    return rows


# --- the rows of an event ----------------------------------------------------------------------------------------


def _when(value) -> str:
    return date_format(timezone.localtime(value), "SHORT_DATETIME_FORMAT") if value else ""


def entrant_rows(event: Event, *, lang: str) -> list[dict[str, Any]]:
    """Every active entrant, those with a current submission first (in joining order), then those without one:
    {"entrant", "submission", "identity", "size", "legal", "errors", "warnings", "code", "validation", "catalog"}.
    Words in `lang`."""
    with translation.override(lang):
        submitted, missing = [], []
        for entrant in event_selectors.entrants_with_lists(event):
            submission = entrant.current
            if submission is None:
                missing.append({"entrant": entrant, "submission": None})
                continue
            cat = submission_catalog(submission)
            validation = event_selectors.submission_validation(submission, lang=lang)
            severities = [v.get("severity") for v in validation.get("violations", [])]
            submitted.append({
                "entrant": entrant, "submission": submission, "catalog": cat, "validation": validation,
                "identity": list_identity(submission.document, cat), "size": list_size(submission.document, cat),
                "legal": bool(validation.get("legal")), "errors": severities.count("error"),
                "warnings": severities.count("warning"), "code": event_selectors.submission_code(submission),
            })
        return submitted + missing


# --- CSV ------------------------------------------------------------------------------------------------------


def export_csv(event: Event, *, lang: str = "en") -> str:
    """One row per player with a current submission, then the players without one (empty cells): player, list,
    faction or main card, points/size, legal, errors, verification code, submitted at."""
    with translation.override(lang):
        header = [_("Player"), _("List"), _("Faction or main card"), size_label(event.system.slug), _("Legal"),
                  _("Errors"), _("Verification code"), _("Submitted at")]
        rows = [header]
        for row in entrant_rows(event, lang=lang):
            entrant: EventEntrant = row["entrant"]
            submission = row["submission"]
            if submission is None:
                rows.append([entrant.display_name, "", "", "", "", "", "", ""])
                continue
            rows.append([entrant.display_name, str(submission.document.get("name") or ""), row["identity"]["name"],
                         str(row["size"]), _("yes") if row["legal"] else _("no"), str(row["errors"]), row["code"],
                         timezone.localtime(submission.created_at).isoformat(timespec="seconds")])
    out = io.StringIO(newline="")
    csv.writer(out, lineterminator="\r\n").writerows([neutralised(cell) for cell in row] for row in rows)
    return out.getvalue()


# --- JSON -----------------------------------------------------------------------------------------------------


def _iso(value) -> str | None:
    return value.isoformat() if value else None


def export_json(event: Event) -> dict[str, Any]:
    """Every list of the event (hangar.event-lists/1): the event, its pinned versions, each active player with
    their current submission (its locked document, legality at the pins, violations in English, code) or null."""
    entrants = []
    for row in entrant_rows(event, lang="en"):
        entrant, submission = row["entrant"], row["submission"]
        current = None
        if submission is not None:
            current = {
                "public_id": submission.public_id, "number": submission.number,
                "submitted_at": _iso(submission.created_at), "source": submission.source,
                "legal": row["legal"], "error_count": row["errors"], "warning_count": row["warnings"],
                "violations": row["validation"].get("violations", []),
                "verification_code": row["code"], "package_versions": submission.package_versions or {},
                "faction_or_main_card": {key: row["identity"][key] for key in ("kind", "value", "name")},
                "size": row["size"], "document": submission.document,
            }
        entrants.append({"display_name": entrant.display_name, "joined_at": _iso(entrant.joined_at),
                         "submission": current})
    return {
        "schema": SCHEMA,
        "event": {"id": event.slug, "name": event.name, "system": event.system.slug, "format": event.format or None,
                  "date": event.date.isoformat(), "place": event.place, "deadline": _iso(event.deadline),
                  "locked_at": _iso(event_selectors.event_locked_at(event)), "lists_shown": event.lists_shown,
                  "publish_at": _iso(event.publish_at), "published_at": _iso(event.published_at),
                  "status": event_selectors.event_status(event)},
        "package_versions": event.package_versions or {},
        "size_measure": size_measure(event.system.slug),
        "entrants": entrants,
    }


# --- PDF pack ------------------------------------------------------------------------------------------------

PDF_FONT = "HeiseiKakuGo-W5"  # reportlab's built-in Japanese CID font: no font file, Latin and Japanese alike


def _font() -> str:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont

    if PDF_FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(UnicodeCIDFont(PDF_FONT))
    return PDF_FONT


def _wrap(text: str, width: float, size: float) -> list[str]:
    """Lines of at most `width` points: broken at spaces where there are some, else between characters (Japanese)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    lines, line = [], ""
    for char in text:
        candidate = line + char
        if stringWidth(candidate, PDF_FONT, size) <= width or not line:
            line = candidate
            continue
        cut = line.rfind(" ")
        if cut > 0 and char != " ":
            lines.append(line[:cut])
            line = line[cut + 1:] + char
        else:
            lines.append(line.rstrip())
            line = char.lstrip()
    if line:
        lines.append(line)
    return lines or [""]


class _Page:
    """A cursor down an A4 page; a sheet too long for one page goes on with its heading on the next."""

    def __init__(self, canvas, heading: str) -> None:
        from reportlab.lib.pagesizes import A4

        self.canvas, self.heading = canvas, heading
        self.width, self.height = A4
        self.margin = 40
        self.y = self.height - self.margin

    def line(self, text: str, size: float = 10, *, indent: float = 0, gap: float = 1.35) -> None:
        for part in _wrap(text, self.width - 2 * self.margin - indent, size):
            if self.y - size < self.margin:
                self.canvas.showPage()
                self.y = self.height - self.margin
                self.line(self.heading, 9)
            self.canvas.setFont(PDF_FONT, size)
            self.canvas.drawString(self.margin + indent, self.y - size, part)
            self.y -= size * gap

    def space(self, points: float = 6) -> None:
        self.y -= points


def export_pdf_pack(event: Event, *, lang: str = "en", verify_url: str = "") -> bytes:
    """The printable pack: one A4 page per player with a current submission (the event, the player, the list's
    cards with copies and names, legality and violations at the pinned data, the verification code and the
    submission ID). Japanese is drawn with reportlab's built-in CID font."""
    from reportlab.pdfgen.canvas import Canvas

    _font()
    out = io.BytesIO()
    canvas = Canvas(out, pageCompression=1)
    canvas.setTitle(event.name)
    canvas.setAuthor("Hangar")
    with translation.override(lang):
        place = f" · {event.place}" if event.place else ""
        head = f"{event.name} · {date_format(event.date, 'DATE_FORMAT')}{place}"
        rows = [row for row in entrant_rows(event, lang=lang) if row["submission"] is not None]
        words = {"continued": _("continued"), "sheet": _("Tournament sheet"), "player": _("Player"),
                 "list": _("List"), "untitled": _("(untitled)"), "identity": _("Faction or main card"),
                 "legal": _("Legal"), "illegal": _("Illegal"), "errors": _("errors"), "warnings": _("warnings"),
                 "warning": _("warning"), "error": _("error"), "pins": _("Pinned data"),
                 "code": _("Verification code"), "id": _("Submission ID"), "submission": _("submission"),
                 "at": _("submitted at"), "check": _("Check this sheet at"),
                 "none": _("No player has submitted a list yet.")}
        size_words = size_label(event.system.slug)
        for row in rows:
            submission, entrant, cat = row["submission"], row["entrant"], row["catalog"]
            page = _Page(canvas, f"{head} · {entrant.display_name} ({words['continued']})")
            page.line(words["sheet"], 9)
            page.line(event.name, 16)
            fmt = format_name(submission.document, cat)
            page.line(f"{date_format(event.date, 'DATE_FORMAT')}{place} · "
                      f"{presenters.system_name(event.system.slug)} · {fmt}", 10)
            page.space()
            page.line(f"{words['player']}: {entrant.display_name}", 13)
            page.line(f"{words['list']}: {submission.document.get('name') or words['untitled']}", 11)
            page.line(f"{words['identity']}: {row['identity']['name'] or '–'} · {size_words}: {row['size']}", 10)
            page.space()
            for section in presenters.section_rows(submission.document, cat):
                if not section["entries"]:
                    continue
                page.line(f"{section['label']} ({section['count']})", 11)
                for entry in section["entries"]:
                    other = f" / {entry['names']['other']}" if entry["names"]["other"] else ""
                    page.line(f"{entry['qty']}× {entry['names']['main']}{other}  [{entry['card']}]", 9, indent=12,
                              gap=1.3)
                page.space(3)
            page.space()
            verdict = words["legal"] if row["legal"] else words["illegal"]
            page.line(f"{verdict} · {words['errors']}: {row['errors']} · {words['warnings']}: {row['warnings']}", 12)
            for violation in row["validation"].get("violations", []):
                word = words["warning"] if violation.get("severity") == "warning" else words["error"]
                rule = f"{violation.get('rule')} " if violation.get("rule") else ""
                page.line(f"{rule}{word}: {violation.get('message', '')}", 9, indent=12)
            page.space()
            pins = ", ".join(f"{pin['title']} {pin['version']} (#{pin['number']})"
                             for pin in pin_rows(submission.package_versions or {}, event.system.slug))
            page.line(f"{words['pins']}: {pins}", 8)
            page.line(f"{words['code']}: {row['code']}", 13)
            page.line(f"{words['id']}: {submission.public_id} · {words['submission']} {submission.number} · "
                      f"{words['at']} {_when(submission.created_at)}", 9)
            if verify_url:
                page.line(f"{words['check']} {verify_url}", 8)
            canvas.showPage()
        if not rows:
            page = _Page(canvas, head)
            page.line(event.name, 16)
            page.line(words["none"], 11)
            canvas.showPage()
    canvas.save()
    return out.getvalue()


def export_filename(event: Event, kind: str) -> str:
    """A download's file name from the event's name (letters and digits of any script kept, the rest as "-")."""
    stem = "".join(ch if ch.isalnum() else "-" for ch in event.name).strip("-")
    while "--" in stem:
        stem = stem.replace("--", "-")
    return f"{(stem or 'event')[:60]}-lists.{EXTENSIONS[kind]}"
