"""A list of Warcaster written as a community roster (docs/list-formats.md "BattleScribe rosters"), against the
BattleScribe data its cards were imported from (what roster_reader.py reads)."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any
from xml.etree import ElementTree as ET
from xml.etree.ElementTree import Element

from rules_engine.core.catalog import Catalog
from rules_engine.formats.battlescribe.rosters import (BATTLESCRIBE_VERSION, ROSTER_NS, RosterIds, RosterIssue,
                                                       RosterRefused, issue)
from rules_engine.warcaster.battlescribe.roster_reader import _bs


def write_community_roster(doc: Mapping[str, Any], catalog: Catalog) -> bytes:
    """The roster XML of a normalised hangar.list/1 list of the game; raises RosterRefused naming every card that
    cannot go into a roster."""
    return _RosterWriter(doc, catalog).write()


class _RosterWriter:
    """A list of the game as a community roster, against the BattleScribe data its cards were imported from."""

    def __init__(self, doc: Mapping[str, Any], catalog: Catalog):
        self.doc, self.catalog = doc, catalog
        self._id = RosterIds(doc)  # the same list, the same ids

    def _problems(self) -> tuple[str, Mapping[str, Any]]:
        """The game system's id and the format facts of the force; raises RosterExportError naming every card that
        cannot go into a roster."""
        issues: list[RosterIssue] = []
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
                        issues.append(issue("roster.unknown_card", f"card {code} is not in the catalog", path,
                                             code=code))
                    elif not card.get("bs_id") or not _bs(card).get("game_system"):
                        name = card.get("name_en") or card.get("name") or code
                        issues.append(issue(
                            "roster.no_bs_id", f"card {code} ({name}) has no BattleScribe id: only lists built from "
                            "cards imported from BattleScribe data can be written as rosters", path, code=code,
                            name=name))
                    else:
                        systems.add(str(_bs(card)["game_system"]))
        if len(systems) > 1:
            issues.append(issue("roster.two_systems", "the list mixes cards of two BattleScribe game systems "
                                 f"({', '.join(sorted(systems))})", systems=", ".join(sorted(systems))))
        if not issues and not systems:
            issues.append(issue("roster.empty", "an empty list has no BattleScribe data to name: add a model first"))
        formats = [f for f in self.catalog.formats.values()
                   if systems and _bs(f).get("game_system", {}).get("id") in systems]
        if not issues and not formats:
            issues.append(issue("roster.no_force", "the loaded BattleScribe data has no force for this list"))
        if issues:
            raise RosterRefused(issues)
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
