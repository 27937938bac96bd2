"""Rosters (`.ros`/`.rosz`) of lists of ANY game against the BattleScribe data Hangar exports from its packages
(rules_engine/formats/battlescribe/export.py; docs/list-formats.md "Rosters for every game").

Writing: the roster names the exported data's ids, derived from the game and the card codes (no file needed): the
game system, the catalogue of the package that holds the list's cards, the force entry of the list's format, each
card's entry (the parts chosen in it through its groups' links, as the game's part says: `Game.option_parts`, a
Warcaster warjack's cortex and weapons through its Cortex and Weapons groups), the categories
each selection counts in (its home section's for HAGMI and MWDA, the list's section when another), the game's cost
types with each selection's costs and the totals, and (MWDA) the format's point limit as the roster's cost limit. The
children come in the published schema's order. The same list gives the same bytes.

Reading: a roster whose gameSystemId is one of Hangar's game systems is read back through the same ids: each
selection's entry (the last id of "linkId::entryId") names a card, its section category (or the card's home section)
names the list section; the child selections of a selection are the parts chosen in it (`Game.add_option_part`: a
warjack's cortex and weapons). Every problem is reported with the
element's path, all together (ListFormatError).

Pure Python (no Django).
"""
from __future__ import annotations

from typing import Any, Callable, Mapping
from xml.etree import ElementTree as ET
from xml.etree.ElementTree import Element

from rules_engine.formats.battlescribe import export as bx
from rules_engine.formats.battlescribe.rosters import RosterIds, kids, zip_roster
from rules_engine.core.catalog import Catalog
from rules_engine.systems import SYSTEMS

from .errors import ListFormatError, ListIssue, RosterExportError
from .jsonio import normalised_document, parse_list_json

ROSTER_NS = bx.ROSTER_NS


def hangar_game(game_system_id: str) -> str | None:
    """The game whose Hangar-exported game system has this id, or None."""
    return next((slug for slug in SYSTEMS if bx.system_id(slug) == game_system_id), None)


def _issue(message_code: str, message: str, path: str | None = None, /, **params: Any) -> ListIssue:
    return ListIssue(f"{path}: {message}" if path else message, path=path, code=message_code, params=params)


def _parts(system: str, entry: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, str]]:
    """The parts chosen in a list entry (its options), each with the key of the entry group it is chosen in."""
    return bx.game(system).option_parts(entry, cards)


def _codes(system: str, entry: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The entry's card and the parts chosen in it."""
    return [entry["card"], *[code for code, _group in _parts(system, entry, cards)]]


class HangarRosterWriter:
    """A list → roster XML against the data `export_package` writes for `package` (its slug and title)."""

    def __init__(self, doc: Mapping[str, Any], catalog: Catalog, package: Mapping[str, Any]):
        self.doc, self.catalog, self.package = doc, catalog, package
        self.system = str(doc["system"])
        self._id = RosterIds(doc)

    def _q(self, tag: str) -> str:
        return f"{{{ROSTER_NS}}}{tag}"

    def problems(self) -> list[ListIssue]:
        issues = []
        for section, entries in self.doc["sections"].items():
            for index, entry in enumerate(entries):
                for code in _codes(self.system, entry, self.catalog.cards):
                    if code not in self.catalog.cards:
                        issues.append(_issue("roster.unknown_card", f"card {code} is not in the catalog",
                                             f"sections.{section}[{index}]", code=code))
        return issues

    def write(self) -> bytes:
        issues = self.problems()
        if issues:
            raise RosterExportError(issues)
        system = self.system
        shape = bx.game(system)
        fmt = self.catalog.formats.get(self.doc.get("format") or "") \
            or self.catalog.formats.get(self.catalog.default_format)
        fmt_slug = str(fmt["slug"]) if fmt else str(self.doc.get("format") or "")
        ET.register_namespace("", ROSTER_NS)
        roster = Element(self._q("roster"), {
            "id": self._id(), "name": str(self.doc.get("name") or ""), "battleScribeVersion": bx.BATTLESCRIBE_VERSION,
            "gameSystemId": bx.system_id(system), "gameSystemName": bx.system_name(system),
            "gameSystemRevision": str(bx.REVISION)})
        totals = {bx.cost_type_id(system, key): 0 for key, _name in shape.cost_types}
        names = {bx.cost_type_id(system, key): name for key, name in shape.cost_types}
        costs = ET.SubElement(roster, self._q("costs"))
        limits = [(key, value) for key, kind, value in shape.force_limits(system, (fmt or {}).get("options") or {})
                  if key.startswith("cost:") and kind == "max"]
        if limits:
            cost_limits = ET.SubElement(roster, self._q("costLimits"))
            for key, value in limits:
                type_id = bx.cost_type_id(system, key.split(":", 1)[1])
                ET.SubElement(cost_limits, self._q("costLimit"), {"name": names[type_id], "typeId": type_id,
                                                                   "value": f"{float(value)}"})
        slug = str(self.package["slug"])
        force = ET.SubElement(ET.SubElement(roster, self._q("forces")), self._q("force"), {
            "id": self._id(), "name": str((fmt or {}).get("name_en") or (fmt or {}).get("name") or fmt_slug),
            "entryId": bx.force_id(system, fmt_slug), "catalogueId": bx.catalogue_id(system, slug),
            "catalogueRevision": str(bx.REVISION), "catalogueName": str(self.package.get("title") or slug)})
        selections = ET.SubElement(force, self._q("selections"))
        used: dict[str, bx.Category] = {}
        for section in SYSTEMS[system].section_keys:
            for entry in self.doc["sections"].get(section) or []:
                card = self.catalog.cards[entry["card"]]
                categories = self._categories(card, section)
                for category in categories:
                    used.setdefault(category.key, category)
                self._selection(selections, card, entry, categories, totals)
        categories = ET.SubElement(force, self._q("categories"))
        for category in used.values():
            ET.SubElement(categories, self._q("category"), {
                "id": self._id(), "name": category.name, "entryId": bx.category_id(system, category.key),
                "primary": "false"})
        for type_id, total in totals.items():
            ET.SubElement(costs, self._q("cost"), {"name": names[type_id], "typeId": type_id,
                                                   "value": f"{float(total)}"})
        ET.indent(roster)
        return b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' \
            + ET.tostring(roster, encoding="utf-8") + b"\n"

    def _categories(self, card: Mapping[str, Any], section: str) -> list[bx.Category]:
        """The card's categories; the list's section as the primary one when sections are categories."""
        own = bx.card_categories(self.system, card)
        if not bx.game(self.system).section_categories:
            return own
        home = bx.section_category(self.system, section)
        rest = [bx.Category(c.key, c.name) for c in own if c.key != home.key]
        return [bx.Category(home.key, home.name, primary=True), *rest]

    def _costs(self, parent: Element, card: Mapping[str, Any], number: int, totals: dict[str, int]) -> None:
        costs = ET.SubElement(parent, self._q("costs"))
        for type_id, name, value in bx.card_costs(self.system, card):
            totals[type_id] += value * number
            ET.SubElement(costs, self._q("cost"), {"name": name, "typeId": type_id,
                                                   "value": f"{float(value * number)}"})

    def _selection(self, parent: Element, card: Mapping[str, Any], entry: Mapping[str, Any],
                   categories: list[bx.Category], totals: dict[str, int]) -> None:
        system, code, number = self.system, str(card["code"]), int(entry["qty"])
        selection = ET.SubElement(parent, self._q("selection"), {
            "id": self._id(), "name": str(card.get("name_en") or card.get("name") or code),
            "entryId": bx.entry_id(system, code), "number": str(number), "type": bx.game(system).entry_type(card)})
        parts = _parts(system, entry, self.catalog.cards)
        if parts:
            inside = ET.SubElement(selection, self._q("selections"))
            for part_code, slot in parts:
                part = self.catalog.cards[part_code]
                child = ET.SubElement(inside, self._q("selection"), {
                    "id": self._id(), "name": str(part.get("name_en") or part.get("name") or part_code),
                    "entryId": f"{bx.link_id(system, code, part_code)}::{bx.entry_id(system, part_code)}",
                    "entryGroupId": bx.group_id(system, code, slot), "number": str(number), "type": "upgrade"})
                self._costs(child, part, number, totals)
        self._costs(selection, card, number, totals)
        if categories:
            element = ET.SubElement(selection, self._q("categories"))
            for category in categories:
                ET.SubElement(element, self._q("category"), {
                    "id": self._id(), "name": category.name, "entryId": bx.category_id(system, category.key),
                    "primary": "true" if category.primary else "false"})


def read_hangar_roster(root: Element, path_of: Callable[[Element], str], catalog: Catalog | None,
                       system: str) -> dict[str, Any]:
    """The normalised hangar.list/1 document of a roster of Hangar-exported data; ListFormatError with every
    problem."""
    if catalog is None or not catalog.cards:
        raise ListFormatError([_issue("roster.unknown_game_system", f"no {SYSTEMS[system].name} cards are loaded",
                                      "/roster", name=SYSTEMS[system].name, id=root.get("gameSystemId") or "")])
    cards = {bx.entry_id(system, code): code for code in catalog.cards}
    formats = {bx.force_id(system, slug): slug for slug in catalog.formats}
    sections = {bx.category_id(system, f"section:{key}"): key for key in SYSTEMS[system].section_keys}
    issues: list[ListIssue] = []
    forces = kids(root, "forces", "force")
    if len(forces) != 1:
        raise ListFormatError([_issue("roster.forces", f"the roster has {len(forces)} forces; a Hangar list holds "
                                      "exactly one", "/roster/forces[1]", count=len(forces))])
    force = forces[0]
    fmt = formats.get(force.get("entryId") or "")
    if fmt is None:
        issues.append(_issue("roster.unknown_force", f"the force {force.get('name')!r} (id {force.get('entryId')}) "
                             "is not a format of the loaded data", path_of(force), name=force.get("name") or "",
                             id=force.get("entryId") or "", known=", ".join(catalog.formats)))
    found: dict[str, list[dict[str, Any]]] = {key: [] for key in SYSTEMS[system].section_keys}

    def card_of(selection: Element) -> str | None:
        entry = (selection.get("entryId") or "").split("::")[-1]
        code = cards.get(entry)
        if code is None:
            name = selection.get("name") or ""
            issues.append(_issue("roster.unknown_entry", f"the entry {name!r} (id {entry}) is not in the loaded "
                                 "data; import the data this roster was made with", path_of(selection), name=name,
                                 id=entry))
        return code

    for selection in kids(force, "selections", "selection"):
        code = card_of(selection)
        if code is None:
            continue
        card = catalog.cards[code]
        number = int(selection.get("number") or 1)
        section = next((sections[c.get("entryId") or ""] for c in kids(selection, "categories", "category")
                        if (c.get("entryId") or "") in sections and c.get("primary") == "true"), None) \
            or SYSTEMS[system].default_section(card)
        item: dict[str, Any] = {"card": code, "qty": number}
        options: dict[str, Any] = {}
        for child in kids(selection, "selections", "selection"):
            part = card_of(child)
            if part is None:
                continue
            count = int(child.get("number") or 1)
            if not bx.game(system).add_option_part(options, catalog.cards[part], part,
                                                   max(1, count // max(1, number))):
                issues.append(_issue("roster.part_misplaced", f"{child.get('name')!r} ({part}) is inside "
                                     f"{selection.get('name')!r}, which takes no such part", path_of(child),
                                     name=child.get("name") or "", code=part, model=selection.get("name") or ""))
        if options:
            item["options"] = options
        found.setdefault(section, []).append(item)
    if issues:
        raise ListFormatError(issues)
    doc = normalised_document(system, found, format=fmt, name=root.get("name") or "")
    return parse_list_json(doc)


def export_hangar_roster(doc: Mapping[str, Any], catalog: Catalog, package: Mapping[str, Any], *,
                         zipped: bool = False, filename: str = "roster.ros") -> bytes:
    """The roster of a normalised hangar.list/1 list of any game against `package`'s exported data: XML bytes, or
    a .rosz zip holding `filename`. Raises RosterExportError naming each card the catalog lacks."""
    xml = HangarRosterWriter(doc, catalog, package).write()
    return zip_roster(xml, filename) if zipped else xml


def uses_battlescribe_ids(doc: Mapping[str, Any], catalog: Catalog) -> bool:
    """The list is made of cards imported from BattleScribe data (each with its own `bs_id`): it is written against
    that data (builder/listio/roster.py); any other list against the data Hangar exports."""
    entry = SYSTEMS.get(doc.get("system")) if isinstance(doc.get("system"), str) else None
    if entry is None or not entry.writes_rosters("battlescribe"):
        return False
    codes = [code for entries in doc["sections"].values() for entry in entries
             for code in _codes(str(doc["system"]), entry, catalog.cards)]
    cards = [catalog.cards.get(code) for code in codes]
    return bool(cards) and all(card is not None and card.get("bs_id")
                               and isinstance(card.get("battlescribe"), Mapping)
                               and card["battlescribe"].get("game_system") for card in cards)
