"""BattleScribe / New Recruit rosters (`.ros`, zipped `.rosz`) in and out of Hangar lists
(docs/list-formats.md "BattleScribe rosters").

Reading: the file is parsed with defusedxml (no DTD, no entities) and checked against the published BattleScribe
roster content model in either version's element order (rules_engine/formats/battlescribe/schema.py); a `.rosz` is a
zip holding one `.ros`. A roster of the data Hangar exported, of any game, is read by builder/listio/hangar_roster.py;
any other roster by the game whose BattleScribe part reads the community's rosters (`read_community_roster`, the
format registry rules_engine/formats/__init__.py: Warcaster's, rules_engine/warcaster/battlescribe/), against the
packages imported from the community's data. Every problem (an entry id that the loaded data lacks, by name and id;
a cortex outside a warjack; two forces...) is reported with the element's path, all of them together, as a
ListFormatError: a refused roster changes nothing.

Writing: a list of a game whose entry writes rosters (`roster_formats`) goes to its BattleScribe part
(`write_community_roster`): a roster valid against the published roster schema in its latest exact form (roster.xsd),
with the catalogue's own ids, so BattleScribe and New Recruit open it; a card without a BattleScribe id is refused by
code and name (builder.selectors.list_export writes such lists, and every other game's, against the data Hangar
exports: builder/listio/hangar_roster.py). The same list always gives the same bytes (ids are derived from the
list), and reading an exported roster gives the list back.

Pure Python (no Django): the reader takes `catalog_for(system) -> Catalog | None`.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import PurePath
from typing import Any, Callable, Mapping
from xml.etree.ElementTree import ParseError

from defusedxml import DefusedXmlException

from rules_engine.core.catalog import Catalog
from rules_engine.formats import game_part, games
from rules_engine.formats.battlescribe import schema as bs_schema
from rules_engine.formats.battlescribe.rosters import (ROSTER_NS, ElementPaths, RosterRefused, local_name, refused,
                                                       zip_roster)
from rules_engine.formats.safefiles import MAX_XML_DEPTH, ArchiveBudget, FileRefused, parse_xml, read_zip
from rules_engine.systems import SYSTEMS

from .errors import ListFormatError, ListIssue, RosterExportError
from .hangar_roster import hangar_game, read_hangar_roster  # data Hangar exported, of any game
from .jsonio import normalised_document, parse_list_json

ROSTER_SUFFIXES = (".ros", ".rosz")
MAX_ROSTER_BYTES = 5 * 1024 * 1024  # one unzipped roster (a zip bomb stops here, counted while unzipping)
ROSTER_ZIP_BUDGET = ArchiveBudget(member_bytes=MAX_ROSTER_BYTES, total_bytes=MAX_ROSTER_BYTES, members=100)

CatalogFor = Callable[[str], "Catalog | None"]


def is_roster(filename: str) -> bool:
    """The file name is a BattleScribe roster's (.ros or .rosz)."""
    return PurePath(filename or "").suffix.lower() in ROSTER_SUFFIXES


def _issue(message_code: str, message: str, path: str | None = None, /, **params: Any) -> ListIssue:
    return ListIssue(f"{path}: {message}" if path else message, path=path, code=message_code, params=params)


def _fail(message_code: str, message: str, path: str | None = None, /, **params: Any) -> ListFormatError:
    return ListFormatError([_issue(message_code, message, path, **params)])


def _issues(refusal: RosterRefused) -> list[ListIssue]:
    """A game's roster problems as the list formats' issues."""
    return [_issue(found.code, found.message, found.path, **found.params) for found in refusal.issues]


# --- reading --------------------------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def roster_schema() -> Any:
    """The published roster model in its latest exact form (rules_engine/formats/battlescribe/xsd/roster.xsd, generated
    by rules_engine/formats/battlescribe/schema.py), an xmlschema.XMLSchema10 (imported when first needed: it takes a quarter of a
    second, which a process that never reads a roster should not pay): what a roster Hangar writes must pass.
    Reading checks the same model in either version's order (bs_schema.check)."""
    return bs_schema.strict_schema("roster")


def roster_xml(raw: bytes, filename: str = "roster.ros") -> bytes:
    """The XML of a roster file: a .rosz (or any zip) is unzipped; it must hold exactly one .ros."""
    if raw[:2] != b"PK":
        if PurePath(filename).suffix.lower() == ".rosz":
            raise _fail("roster.not_zip", f"{filename} is not a zip file (a .rosz is a zipped .ros)", file=filename)
        return raw
    try:
        members = read_zip(raw, filename, ROSTER_ZIP_BUDGET)  # stops as soon as 5 MB have come out
    except FileRefused as exc:
        if exc.kind == "unreadable":
            raise _fail("roster.not_zip", f"{filename} is {exc.message}", file=filename) from None
        if exc.kind == "entries":
            raise _fail("roster.zip_members", f"{filename} {exc.message}; a zipped roster holds exactly one .ros",
                        file=filename, count=exc.params["count"]) from None
        if exc.kind == "ratio":
            raise _fail("roster.zip_ratio", str(exc), file=exc.where, ratio=exc.params["ratio"]) from None
        raise _fail("roster.too_large", str(exc), file=exc.where, max=MAX_ROSTER_BYTES) from None
    if len(members) != 1:
        raise _fail("roster.zip_members",
                    f"{filename} holds {len(members)} files; a zipped roster holds exactly one .ros",
                    file=filename, count=len(members))
    return members[0][1]


def parse_roster(raw: bytes, catalog_for: CatalogFor, *, filename: str = "roster.ros") -> dict[str, Any]:
    """The normalised hangar.list/1 document of a BattleScribe roster; raises ListFormatError with every problem."""
    xml = roster_xml(raw, filename)
    if len(xml) > MAX_ROSTER_BYTES:
        raise _fail("roster.too_large", f"{filename} is larger than {MAX_ROSTER_BYTES} bytes", file=filename,
                    max=MAX_ROSTER_BYTES)
    try:
        root = parse_xml(xml)
    except FileRefused as exc:
        raise ListFormatError([ListIssue(f"{filename}: {exc.path}: {exc.message}", path=exc.path,
                                         code="roster.too_deep", params={"file": filename, "max": MAX_XML_DEPTH})]
                              ) from None
    except ParseError as exc:
        line, column = getattr(exc, "position", (0, 0))
        raise ListFormatError([ListIssue(f"line {line}: {filename} is not well-formed XML (column {column + 1})",
                                         line=line, code="roster.not_xml",
                                         params={"file": filename, "line": line, "column": column + 1})]) from None
    except DefusedXmlException:
        raise _fail("roster.dtd", f"{filename} uses a DTD or entities, which a roster never needs",
                    file=filename) from None
    if root.tag != f"{{{ROSTER_NS}}}roster":
        raise _fail("roster.not_roster", f"{filename} is not a BattleScribe roster (its root element is "
                                         f"{local_name(root.tag)!r}, not a roster of {ROSTER_NS})", file=filename,
                    root=local_name(root.tag))
    paths = ElementPaths(root)
    try:
        bs_schema.check(root)  # the published content model, in either version's order (battlescribe/schema.py)
    except bs_schema.SchemaRefusal as refusal:
        raise _fail("roster.invalid", f"not valid against the published BattleScribe roster schema: {refusal.message}",
                    refusal.path, file=filename, reason=refusal.message) from None
    game = hangar_game(root.get("gameSystemId") or "")
    if game is not None:
        return read_hangar_roster(root, paths.of, catalog_for(game), game)
    game = community_roster_game()
    part = game_part("battlescribe", game) if game is not None else None
    try:
        if part is None:
            raise refused("roster.unknown_game_system",
                          f"no BattleScribe data of the game system {root.get('gameSystemName')!r} (id "
                          f"{root.get('gameSystemId')}) is loaded: import it first (python manage.py import_package "
                          "FOLDER)", "/roster", name=root.get("gameSystemName") or "",
                          id=root.get("gameSystemId") or "")
        sections, fmt = part.read_community_roster(root, paths, catalog_for(str(game)))
    except RosterRefused as refusal:
        raise ListFormatError(_issues(refusal)) from None
    doc = normalised_document(str(game), sections, format=fmt, name=root.get("name") or "")
    return parse_list_json(doc)  # the list's own limits (entries, quantities) checked as for any file


def community_roster_game() -> str | None:
    """The game whose BattleScribe part reads the community's rosters (Warcaster's), or None."""
    return next((slug for slug in games("battlescribe")
                 if hasattr(game_part("battlescribe", slug), "read_community_roster")), None)


# --- writing --------------------------------------------------------------------------------------------------------


def export_roster(doc: Mapping[str, Any], catalog: Catalog, *, zipped: bool = False,
                  filename: str = "roster.ros") -> bytes:
    """The roster of a normalised hangar.list/1 list of a game that writes the community's rosters (its entry's
    `roster_formats`, its BattleScribe part's `write_community_roster`): XML bytes, or a .rosz zip holding
    `filename`."""
    system = doc.get("system") if isinstance(doc.get("system"), str) else None
    entry = SYSTEMS.get(system) if system is not None else None
    part = game_part("battlescribe", str(system)) if entry is not None and entry.writes_rosters("battlescribe") \
        else None
    if part is None or not hasattr(part, "write_community_roster"):
        raise RosterExportError([_issue(
            "roster.not_warcaster", "only Warcaster lists can be written as BattleScribe rosters",
            system=str(doc.get("system")))])
    try:
        xml = part.write_community_roster(doc, catalog)
    except RosterRefused as refusal:
        raise RosterExportError(_issues(refusal)) from None
    return zip_roster(xml, filename) if zipped else xml
