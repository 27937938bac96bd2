"""BattleScribe / New Recruit rosters (`.ros`, zipped `.rosz`) in and out of Hangar lists (issue 18 items 2 and 3;
docs/list-formats.md "BattleScribe rosters").

A roster is read against the Warcaster packages imported from BattleScribe data (cards/battlescribe.py): each card
and format of such a package keeps its BattleScribe id (`bs_id`) and what a roster's selection of it carries
(`battlescribe`: the game system, the entry's type, categories and the catalogues' root links to it). Reading:

- the file is parsed with defusedxml (no DTD, no entities) and validated against Hangar's roster XSD
  (cards/schemas/battlescribe/roster.xsd); a `.rosz` is a zip holding one `.ros`;
- the roster's game system must be loaded; its one force becomes the list's format (the format whose `bs_id` is the
  force's entryId); each selection of the force becomes an entry: a model in `force` (a squad attachment too: the
  data makes it a selection of its own beside its squad), a cypher in `rack`, and the selections inside a warjack its
  cortex and weapons (`options`), those inside a hero, solo or vehicle with weapon choices its weapons; a selection's `entryId` is the path of ids BattleScribe
  writes ("linkId::entryId"): its last id names the entry;
- every problem (an entry id that the loaded data lacks, by name and id; a cortex outside a warjack; two forces...)
  is reported with the element's path, all of them together, as a ListFormatError: a refused roster changes nothing.

Writing gives a roster valid against the same XSD, with the catalogue's own ids (the entries' link paths, the
hardpoint groups, the categories, the cost types and the catalogue and game system revisions), so BattleScribe and
New Recruit open it; a card without a BattleScribe id is refused by code and name (builder.selectors.list_export
writes such lists, and every other game's, against the data Hangar exports: builder/listio/hangar_roster.py). The same list always gives the
same bytes (ids are derived from the list), and reading an exported roster gives the list back.

Pure Python (no Django): the reader takes `catalog_for(system) -> Catalog | None`.
"""
from __future__ import annotations

import hashlib
import io
import json
import zipfile
from functools import lru_cache
from pathlib import Path, PurePath
from typing import Any, Callable, Mapping
from xml.etree import ElementTree as ET
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException

from cards.safefiles import MAX_XML_DEPTH, ArchiveBudget, FileRefused, parse_xml, read_zip
from rules_engine.core.catalog import Catalog

from .errors import ListFormatError, ListIssue
from .jsonio import normalised_document, parse_list_json

ROSTER_NS = "http://www.battlescribe.net/schema/rosterSchema"
ROSTER_SUFFIXES = (".ros", ".rosz")
MAX_ROSTER_BYTES = 5 * 1024 * 1024  # one unzipped roster (a zip bomb stops here, counted while unzipping)
ROSTER_ZIP_BUDGET = ArchiveBudget(member_bytes=MAX_ROSTER_BYTES, total_bytes=MAX_ROSTER_BYTES, members=100)
BATTLESCRIBE_VERSION = "2.03"
MODEL_KINDS = ("hero", "solo", "squad", "squad_attachment", "warjack", "vehicle", "mantlet")
PART_KINDS = ("cortex", "weapon")

CatalogFor = Callable[[str], "Catalog | None"]
XSD_DIR = Path(__file__).resolve().parents[2] / "cards" / "schemas" / "battlescribe"  # as cards/battlescribe.py


def is_roster(filename: str) -> bool:
    """The file name is a BattleScribe roster's (.ros or .rosz)."""
    return PurePath(filename or "").suffix.lower() in ROSTER_SUFFIXES


def _issue(message_code: str, message: str, path: str | None = None, /, **params: Any) -> ListIssue:
    return ListIssue(f"{path}: {message}" if path else message, path=path, code=message_code, params=params)


def _fail(message_code: str, message: str, path: str | None = None, /, **params: Any) -> ListFormatError:
    return ListFormatError([_issue(message_code, message, path, **params)])


# --- reading --------------------------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def roster_schema() -> Any:
    """Hangar's roster XSD (cards/schemas/battlescribe/roster.xsd), an xmlschema.XMLSchema10 (imported when first
    needed: it takes a quarter of a second, which a process that never reads a roster should not pay)."""
    import xmlschema

    return xmlschema.XMLSchema10(str(XSD_DIR / "roster.xsd"))


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


class _Paths:
    """Each element's path (/roster/forces[1]/force[1]/...) for messages."""

    def __init__(self, root: Element):
        self.paths: dict[int, str] = {}
        todo = [(root, "/" + _local(root.tag))]  # iterative: no recursion on the file's depth
        while todo:
            element, path = todo.pop()
            self.paths[id(element)] = path
            counts: dict[str, int] = {}
            for child in element:
                name = _local(child.tag)
                counts[name] = counts.get(name, 0) + 1
                todo.append((child, f"{path}/{name}[{counts[name]}]"))

    def of(self, element: Element) -> str:
        return self.paths.get(id(element), "/")


def _local(tag: str) -> str:
    return tag.split("}")[-1]


def _kids(element: Element, *names: str) -> list[Element]:
    found = [element]
    for name in names:
        found = [child for parent in found for child in parent if _local(child.tag) == name]
    return found


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
                                         f"{_local(root.tag)!r}, not a roster of {ROSTER_NS})", file=filename,
                    root=_local(root.tag))
    paths = _Paths(root)
    for error in roster_schema().iter_errors(root):
        element = error.elem if isinstance(error.elem, Element) else root
        where = paths.of(element)
        reason = error.reason or error.message
        raise _fail("roster.invalid", f"not valid against roster.xsd: {reason}", where, file=filename,
                    reason=reason)
    from .hangar_roster import hangar_game, read_hangar_roster  # data Hangar exported, of any game

    game = hangar_game(root.get("gameSystemId") or "")
    if game is not None:
        return read_hangar_roster(root, paths.of, catalog_for(game), game)
    return _RosterReader(root, paths, catalog_for, filename).read()


class _RosterReader:
    def __init__(self, root: Element, paths: _Paths, catalog_for: CatalogFor, filename: str):
        self.root, self.paths, self.filename = root, paths, filename
        self.catalog = catalog_for("warcaster")
        self.issues: list[ListIssue] = []

    def read(self) -> dict[str, Any]:
        system_id = self.root.get("gameSystemId") or ""
        system_name = self.root.get("gameSystemName") or system_id
        formats = [fmt for fmt in (self.catalog.formats.values() if self.catalog else [])
                   if _bs(fmt).get("game_system", {}).get("id") == system_id]
        if not formats:
            raise _fail("roster.unknown_game_system",
                        f"no BattleScribe data of the game system {system_name!r} (id {system_id}) is loaded: "
                        "import it first (python manage.py import_package FOLDER)", "/roster",
                        name=system_name, id=system_id)
        assert self.catalog is not None
        self.cards = {(_bs(card).get("game_system"), card.get("bs_id")): code
                      for code, card in self.catalog.cards.items() if card.get("bs_id")}
        self.system_id = system_id
        # the community files' one "Cyphers" rack selection holds the cyphers: read through it
        self.racks = {str(_bs(f)["rack"]["entry_id"]) for f in formats if _bs(f).get("rack")}
        forces = _kids(self.root, "forces", "force")
        if len(forces) != 1:
            raise _fail("roster.forces", f"the roster has {len(forces)} forces; a Hangar list holds exactly one",
                        "/roster/forces[1]", count=len(forces))
        force = forces[0]
        nested = _kids(force, "forces", "force")
        if nested:
            self.issues.append(_issue("roster.nested_force", "a force inside a force is not read into a Hangar list",
                                      self.paths.of(nested[0])))
        fmt = next((f for f in formats if f.get("bs_id") == force.get("entryId")), None)
        if fmt is None:
            self.issues.append(_issue(
                "roster.unknown_force", f"the force {force.get('name')!r} (id {force.get('entryId')}) is not a force of "
                f"the loaded data (forces: {', '.join(str(f.get('name_en') or f['slug']) for f in formats)})",
                self.paths.of(force), name=force.get("name") or "", id=force.get("entryId") or "",
                known=", ".join(str(f.get("name_en") or f["slug"]) for f in formats)))
        sections: dict[str, list[dict[str, Any]]] = {"force": [], "rack": []}
        for selection in _kids(force, "selections", "selection"):
            self._top(selection, sections)
        if self.issues:
            raise ListFormatError(self.issues)
        doc = normalised_document("warcaster", sections, format=fmt["slug"] if fmt else None,
                                  name=self.root.get("name") or "")
        return parse_list_json(doc)  # the list's own limits (entries, quantities) checked as for any file

    def _card_of(self, selection: Element) -> tuple[str | None, Mapping[str, Any] | None]:
        entry_id = (selection.get("entryId") or "").split("::")[-1]
        code = self.cards.get((self.system_id, entry_id))
        return (code, self.catalog.cards[code]) if code and self.catalog else (None, None)

    def _unknown(self, selection: Element) -> None:
        entry_id = (selection.get("entryId") or "").split("::")[-1]
        name = selection.get("name") or ""
        self.issues.append(_issue(
            "roster.unknown_entry", f"the entry {name!r} (id {entry_id}) is not in the loaded BattleScribe data; "
            "import the data this roster was made with", self.paths.of(selection), name=name, id=entry_id))

    def _top(self, selection: Element, sections: dict[str, list[dict[str, Any]]]) -> None:
        code, card = self._card_of(selection)
        if card is None or code is None:
            if (selection.get("entryId") or "").split("::")[-1] in self.racks:  # the rack: its cyphers are entries
                for child in _kids(selection, "selections", "selection"):
                    self._top(child, sections)
            else:
                self._unknown(selection)
            return
        number = int(selection.get("number") or 1)
        kind = card.get("kind")
        if kind == "cypher":
            sections["rack"].append({"card": code, "qty": number})
            self._no_parts(selection, card)
        elif kind in MODEL_KINDS:
            entry: dict[str, Any] = {"card": code, "qty": number}
            chooses = kind == "warjack" or any(isinstance(h, Mapping) and h.get("slot") == "weapon"
                                               for h in card.get("hardpoints") or ())
            options = self._loadout(selection, card, number) if chooses else self._no_parts(selection, card)
            if options:
                entry["options"] = options
            sections["force"].append(entry)
        else:
            name = card.get("name_en") or code
            self.issues.append(_issue(
                "roster.part_outside", f"{name!r} ({code}) is a warjack's {kind}: it belongs inside a warjack's "
                "selection, not in the force", self.paths.of(selection), name=name, code=code))

    def _fixed(self, card: Mapping[str, Any]) -> set[str]:
        return {str(w.get("bs_id")) for w in card.get("weapons") or () if w.get("bs_id")}

    def _no_parts(self, selection: Element, card: Mapping[str, Any]) -> None:
        """Selections inside a model that is not a warjack: its own fixed weapons (read from the card), nothing else."""
        fixed = self._fixed(card)
        for child in _kids(selection, "selections", "selection"):
            if (child.get("entryId") or "").split("::")[-1] in fixed:
                continue
            code, part = self._card_of(child)
            if part is None:
                self._unknown(child)
            else:
                name = part.get("name_en") or code
                self.issues.append(_issue(
                    "roster.part_misplaced", f"{name!r} ({code}) is inside {card.get('name_en')!r}, which takes no "
                    "cortex or warjack weapons", self.paths.of(child), name=name, code=code,
                    model=card.get("name_en") or ""))

    def _loadout(self, selection: Element, card: Mapping[str, Any], number: int) -> dict[str, Any]:
        """A warjack's cortex and weapons from the selections inside it (each `number` times for `number` warjacks)."""
        options: dict[str, Any] = {}
        weapons: list[str] = []
        fixed = self._fixed(card)
        for child in _kids(selection, "selections", "selection"):
            if (child.get("entryId") or "").split("::")[-1] in fixed:
                continue
            code, part = self._card_of(child)
            if part is None or code is None:
                self._unknown(child)
                continue
            count = int(child.get("number") or 1)
            if count % number:
                self.issues.append(_issue(
                    "roster.part_number", f"{child.get('name')!r} is selected {count} times inside {number} warjacks: "
                    "each warjack must carry the same parts", self.paths.of(child), name=child.get("name") or "",
                    count=count, models=number))
                continue
            if part.get("kind") == "cortex":
                if "cortex" in options or count != number:
                    self.issues.append(_issue("roster.two_cortexes", "a warjack carries one cortex",
                                              self.paths.of(child)))
                options["cortex"] = code
            elif part.get("kind") == "weapon":
                weapons += [code] * (count // number)
            else:
                self.issues.append(_issue(
                    "roster.part_misplaced", f"{part.get('name_en')!r} ({code}) is inside {card.get('name_en')!r}, "
                    "which takes only a cortex and warjack weapons", self.paths.of(child),
                    name=part.get("name_en") or "", code=code, model=card.get("name_en") or ""))
        if weapons:
            options["weapons"] = weapons
        return options


def _bs(item: Mapping[str, Any]) -> Mapping[str, Any]:
    facts = item.get("battlescribe")
    return facts if isinstance(facts, Mapping) else {}


# --- writing --------------------------------------------------------------------------------------------------------


class RosterExportError(ListFormatError):
    """A list that cannot be written as a roster: cards without BattleScribe ids (each named), another game."""

    code = "list.not_exportable"


def export_roster(doc: Mapping[str, Any], catalog: Catalog, *, zipped: bool = False,
                  filename: str = "roster.ros") -> bytes:
    """The roster of a normalised hangar.list/1 Warcaster list: XML bytes, or a .rosz zip holding `filename`."""
    xml = _RosterWriter(doc, catalog).write()
    return zip_roster(xml, filename) if zipped else xml


def zip_roster(xml: bytes, filename: str = "roster.ros") -> bytes:
    """A .rosz: a zip holding the roster as `filename` (.ros), with a fixed date (the same list, the same bytes)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo(PurePath(filename).with_suffix(".ros").name, (2026, 1, 1, 0, 0, 0)), xml,
                         zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


class _RosterWriter:
    def __init__(self, doc: Mapping[str, Any], catalog: Catalog):
        self.doc, self.catalog = doc, catalog
        self.seed = hashlib.sha256(json.dumps(doc, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
        self.serial = 0

    def _id(self) -> str:
        """A BattleScribe-style id (four groups of hex digits), the same for the same list."""
        self.serial += 1
        digest = hashlib.sha256(f"{self.seed}:{self.serial}".encode()).hexdigest()
        return "-".join(digest[i:i + 4] for i in range(0, 16, 4))

    def _problems(self) -> tuple[str, Mapping[str, Any]]:
        """The game system's id and the format facts of the force; raises RosterExportError naming every card that
        cannot go into a roster."""
        if self.doc.get("system") != "warcaster":
            raise RosterExportError([_issue(
                "roster.not_warcaster", "only Warcaster lists can be written as BattleScribe rosters",
                system=str(self.doc.get("system")))])
        issues: list[ListIssue] = []
        systems: set[str] = set()
        for section, entries in self.doc["sections"].items():
            for index, entry in enumerate(entries):
                codes = [entry["card"]]
                options = entry.get("options") or {}
                codes += [options["cortex"]] if isinstance(options.get("cortex"), str) else []
                codes += [c for c in options.get("weapons") or [] if isinstance(c, str)]
                for code in codes:
                    card = self.catalog.cards.get(code)
                    path = f"sections.{section}[{index}]"
                    if card is None:
                        issues.append(_issue("roster.unknown_card", f"card {code} is not in the catalog", path,
                                             code=code))
                    elif not card.get("bs_id") or not _bs(card).get("game_system"):
                        name = card.get("name_en") or card.get("name") or code
                        issues.append(_issue(
                            "roster.no_bs_id", f"card {code} ({name}) has no BattleScribe id: only lists built from "
                            "cards imported from BattleScribe data can be written as rosters", path, code=code,
                            name=name))
                    else:
                        systems.add(str(_bs(card)["game_system"]))
        if len(systems) > 1:
            issues.append(_issue("roster.two_systems", "the list mixes cards of two BattleScribe game systems "
                                 f"({', '.join(sorted(systems))})", systems=", ".join(sorted(systems))))
        if not issues and not systems:
            issues.append(_issue("roster.empty", "an empty list has no BattleScribe data to name: add a model first"))
        formats = [f for f in self.catalog.formats.values()
                   if systems and _bs(f).get("game_system", {}).get("id") in systems]
        if not issues and not formats:
            issues.append(_issue("roster.no_force", "the loaded BattleScribe data has no force for this list"))
        if issues:
            raise RosterExportError(issues)
        chosen = self.catalog.formats.get(self.doc.get("format") or "")
        if chosen is None or chosen not in formats:
            chosen = formats[0]  # a Hangar format: the data's first force
        return systems.pop(), chosen

    def write(self) -> bytes:
        system_id, fmt = self._problems()
        facts = _bs(fmt)
        game_system = facts["game_system"]
        cost_types = list(facts.get("cost_types") or [])
        factions = [self.catalog.cards[e["card"]].get("faction") for e in self.doc["sections"]["force"]]
        catalogues = list(facts["catalogues"])
        catalogue = next((c for c in catalogues if c["faction"] in factions), catalogues[0])
        ET.register_namespace("", ROSTER_NS)
        q = lambda tag: f"{{{ROSTER_NS}}}{tag}"  # noqa: E731 - the qualified tag
        roster = Element(q("roster"), {"id": self._id(), "name": self.doc.get("name") or "",
                                       "battleScribeVersion": BATTLESCRIBE_VERSION, "gameSystemId": system_id,
                                       "gameSystemName": str(game_system["name"]),
                                       "gameSystemRevision": str(game_system["revision"])})
        totals = {c["id"]: 0 for c in cost_types}
        force = ET.SubElement(ET.SubElement(roster, q("forces")), q("force"), {
            "id": self._id(), "name": str(fmt.get("name_en") or fmt["slug"]), "entryId": str(fmt["bs_id"]),
            "catalogueId": str(catalogue["id"]), "catalogueRevision": str(catalogue["revision"]),
            "catalogueName": str(catalogue["name"])})
        selections = ET.SubElement(force, q("selections"))
        used: dict[str, Mapping[str, Any]] = {}
        rack = facts.get("rack")
        rack_parent: Element | None = None
        for section in ("force", "rack"):
            for entry in self.doc["sections"][section]:
                card = self.catalog.cards[entry["card"]]
                number = entry["qty"]
                parent = selections
                if section == "rack" and rack and _bs(card).get("group") in (rack.get("groups") or {}):
                    if rack_parent is None:  # the data's one rack selection, which holds the cyphers
                        rack_parent = self._rack_selection(selections, rack, str(catalogue["id"]), cost_types, q)
                        for category in rack.get("categories") or ():
                            used.setdefault(category["id"], category)
                    parent = rack_parent
                selection = self._selection(parent, card, number, str(catalogue["id"]), cost_types, totals, q,
                                            rack=rack if parent is rack_parent else None)
                options = entry.get("options") or {}
                parts = ([options["cortex"]] if isinstance(options.get("cortex"), str) else []) \
                    + list(options.get("weapons") or [])
                if parts:
                    inside = ET.SubElement(selection, q("selections"))
                    for code in parts:
                        part = self.catalog.cards[code]
                        self._selection(inside, part, number, str(catalogue["id"]), cost_types, totals, q, jack=card)
                    for tail in (selection.find(q("costs")), selection.find(q("categories"))):
                        if tail is not None:  # after the nested selections, as BattleScribe writes them
                            selection.remove(tail)
                            selection.append(tail)
                for category in _bs(card).get("categories") or ():
                    used.setdefault(category["id"], category)
        categories = ET.SubElement(force, q("categories"))
        for category in used.values():
            ET.SubElement(categories, q("category"), {"id": self._id(), "name": category["name"],
                                                      "entryId": category["id"], "primary": "false"})
        costs = Element(q("costs"))
        for cost_type in cost_types:
            ET.SubElement(costs, q("cost"), {"name": cost_type["name"], "typeId": cost_type["id"],
                                             "value": f"{float(totals[cost_type['id']])}"})
        roster.insert(0, costs)
        ET.indent(roster)
        return b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + ET.tostring(roster, encoding="utf-8") \
            + b"\n"

    def _rack_selection(self, parent: Element, rack: Mapping[str, Any], catalogue_id: str, cost_types: list,
                        q: Callable[[str], str]) -> Element:
        """The community files' "Cyphers" rack selection (inside it go the cyphers)."""
        entry_id = str(rack["entry_id"])
        link = (rack.get("links") or {}).get(catalogue_id)
        selection = ET.SubElement(parent, q("selection"), {
            "id": self._id(), "name": str(rack.get("name") or "Cyphers"),
            "entryId": f"{link}::{entry_id}" if link else entry_id, "number": "1", "type": "upgrade"})
        ET.SubElement(selection, q("selections"))
        costs = ET.SubElement(selection, q("costs"))
        for cost_type in cost_types:
            ET.SubElement(costs, q("cost"), {"name": cost_type["name"], "typeId": cost_type["id"], "value": "0.0"})
        if rack.get("categories"):
            categories = ET.SubElement(selection, q("categories"))
            for category in rack["categories"]:
                ET.SubElement(categories, q("category"), {"id": self._id(), "name": category["name"],
                                                          "entryId": category["id"],
                                                          "primary": "true" if category["primary"] else "false"})
        return selection.find(q("selections"))  # type: ignore[return-value]

    def _selection(self, parent: Element, card: Mapping[str, Any], number: int, catalogue_id: str,
                   cost_types: list, totals: dict[str, int], q: Callable[[str], str],
                   jack: Mapping[str, Any] | None = None, rack: Mapping[str, Any] | None = None) -> Element:
        facts = _bs(card)
        bs_id = str(card["bs_id"])
        attrs = {"id": self._id(), "name": str(card.get("name_en") or card.get("name")), "entryId": bs_id,
                 "number": str(number), "type": str(facts.get("type") or "upgrade")}
        if rack is not None:  # a cypher in the rack, through the rack's link to its suit group
            group = str(facts.get("group") or "")
            link = (rack.get("groups") or {}).get(group)
            attrs["entryId"] = f"{link}::{bs_id}" if link else bs_id
            attrs["entryGroupId"] = group
        elif jack is not None:  # a warjack's part: through its hardpoint group's link
            group = _hardpoint_group(jack, card)
            if group is not None:
                link = (group.get("bs_links") or {}).get(bs_id)
                attrs["entryId"] = f"{link}::{bs_id}" if link else bs_id
                if group.get("bs_id"):
                    attrs["entryGroupId"] = str(group["bs_id"])
        else:
            link = (facts.get("links") or {}).get(catalogue_id)
            if link:
                attrs["entryId"] = f"{link}::{bs_id}"
        selection = ET.SubElement(parent, q("selection"), attrs)
        costs = ET.SubElement(selection, q("costs"))
        for cost_type in cost_types:
            value = int(card.get("cost") or 0) * number if card.get("kind") == "weapon" else 0
            totals[cost_type["id"]] += value
            ET.SubElement(costs, q("cost"), {"name": cost_type["name"], "typeId": cost_type["id"],
                                             "value": f"{float(value)}"})
        categories = ET.SubElement(selection, q("categories")) if facts.get("categories") else Element(q("categories"))
        for category in facts.get("categories") or ():
            ET.SubElement(categories, q("category"), {"id": self._id(), "name": category["name"],
                                                      "entryId": category["id"],
                                                      "primary": "true" if category["primary"] else "false"})
        return selection


def _hardpoint_group(jack: Mapping[str, Any], part: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The warjack's hardpoint group a part goes in: the one that links to it, else the first of its slot."""
    groups = [h for h in jack.get("hardpoints") or () if isinstance(h, Mapping)]
    slots = ["cortex"] if part.get("kind") == "cortex" else list(part.get("hardpoints") or ())
    linked = [g for g in groups if part.get("bs_id") in (g.get("bs_links") or {})]
    if linked:
        return linked[0]
    return next((g for g in groups if g.get("slot") in slots), None)
