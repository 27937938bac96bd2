"""The community's rosters of Warcaster (docs/list-formats.md "BattleScribe rosters"), read into a list.

A roster is read against the packages imported from the community's data (read_community_data): each card and format
keeps its BattleScribe id (`bs_id`) and what a roster's selection of it carries (`battlescribe`: the game system, the
entry's type, categories and the catalogues' root links to it). Each selection of the force becomes an entry: a
model in `force` (a squad attachment too: the data makes it a selection of its own beside its squad), a cypher in
`rack` (through the data's one rack selection), and the selections inside a warjack its cortex and weapons
(`options`), those inside a hero, solo or vehicle with weapon choices its weapons. The list formats call these
(builder/listio/roster.py), and turn a RosterRefused into their own errors. Written back by roster_writer.py."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from xml.etree.ElementTree import Element

from rules_engine.core.catalog import Catalog
from rules_engine.formats.battlescribe.files import kids
from rules_engine.formats.battlescribe.rosters import ElementPaths, RosterIssue, RosterRefused, issue, refused


ROSTER_MODEL_KINDS = ("hero", "solo", "squad", "squad_attachment", "warjack", "vehicle", "mantlet")


def read_community_roster(root: Element, paths: ElementPaths, catalog: Catalog | None
                          ) -> tuple[dict[str, list[dict[str, Any]]], str | None]:
    """The sections and the format (slug, or None) of a community roster; raises RosterRefused with every problem."""
    return _RosterReader(root, paths, catalog).read()


class _RosterReader:
    """A community roster of the game: its one force's selections as the list's sections and format."""

    def __init__(self, root: Element, paths: ElementPaths, catalog: Catalog | None):
        self.root, self.paths = root, paths
        self.catalog = catalog
        self.issues: list[RosterIssue] = []

    def read(self) -> tuple[dict[str, list[dict[str, Any]]], str | None]:
        system_id = self.root.get("gameSystemId") or ""
        system_name = self.root.get("gameSystemName") or system_id
        formats = [fmt for fmt in (self.catalog.formats.values() if self.catalog else [])
                   if _bs(fmt).get("game_system", {}).get("id") == system_id]
        if not formats:
            raise refused("roster.unknown_game_system",
                        f"no BattleScribe data of the game system {system_name!r} (id {system_id}) is loaded: "
                        "import it first (python manage.py import_package FOLDER)", "/roster",
                        name=system_name, id=system_id)
        assert self.catalog is not None
        self.cards = {(_bs(card).get("game_system"), card.get("bs_id")): code
                      for code, card in self.catalog.cards.items() if card.get("bs_id")}
        self.system_id = system_id
        # the community files' one "Cyphers" rack selection holds the cyphers: read through it
        self.racks = {str(_bs(f)["rack"]["entry_id"]) for f in formats if _bs(f).get("rack")}
        forces = kids(self.root, "forces", "force")
        if len(forces) != 1:
            raise refused("roster.forces", f"the roster has {len(forces)} forces; a Hangar list holds exactly one",
                        "/roster/forces[1]", count=len(forces))
        force = forces[0]
        nested = kids(force, "forces", "force")
        if nested:
            self.issues.append(issue("roster.nested_force", "a force inside a force is not read into a Hangar list",
                                      self.paths.of(nested[0])))
        fmt = next((f for f in formats if f.get("bs_id") == force.get("entryId")), None)
        if fmt is None:
            self.issues.append(issue(
                "roster.unknown_force", f"the force {force.get('name')!r} (id {force.get('entryId')}) is not a force of "
                f"the loaded data (forces: {', '.join(str(f.get('name_en') or f['slug']) for f in formats)})",
                self.paths.of(force), name=force.get("name") or "", id=force.get("entryId") or "",
                known=", ".join(str(f.get("name_en") or f["slug"]) for f in formats)))
        sections: dict[str, list[dict[str, Any]]] = {"force": [], "rack": []}
        for selection in kids(force, "selections", "selection"):
            self._top(selection, sections)
        if self.issues:
            raise RosterRefused(self.issues)
        return sections, fmt["slug"] if fmt else None

    def _card_of(self, selection: Element) -> tuple[str | None, Mapping[str, Any] | None]:
        entry_id = (selection.get("entryId") or "").split("::")[-1]
        code = self.cards.get((self.system_id, entry_id))
        return (code, self.catalog.cards[code]) if code and self.catalog else (None, None)

    def _unknown(self, selection: Element) -> None:
        entry_id = (selection.get("entryId") or "").split("::")[-1]
        name = selection.get("name") or ""
        self.issues.append(issue(
            "roster.unknown_entry", f"the entry {name!r} (id {entry_id}) is not in the loaded BattleScribe data; "
            "import the data this roster was made with", self.paths.of(selection), name=name, id=entry_id))

    def _top(self, selection: Element, sections: dict[str, list[dict[str, Any]]]) -> None:
        code, card = self._card_of(selection)
        if card is None or code is None:
            if (selection.get("entryId") or "").split("::")[-1] in self.racks:  # the rack: its cyphers are entries
                for child in kids(selection, "selections", "selection"):
                    self._top(child, sections)
            else:
                self._unknown(selection)
            return
        number = int(selection.get("number") or 1)
        kind = card.get("kind")
        if kind == "cypher":
            sections["rack"].append({"card": code, "qty": number})
            self._no_parts(selection, card)
        elif kind in ROSTER_MODEL_KINDS:
            entry: dict[str, Any] = {"card": code, "qty": number}
            chooses = kind == "warjack" or any(isinstance(h, Mapping) and h.get("slot") == "weapon"
                                               for h in card.get("hardpoints") or ())
            options = self._loadout(selection, card, number) if chooses else self._no_parts(selection, card)
            if options:
                entry["options"] = options
            sections["force"].append(entry)
        else:
            name = card.get("name_en") or code
            self.issues.append(issue(
                "roster.part_outside", f"{name!r} ({code}) is a warjack's {kind}: it belongs inside a warjack's "
                "selection, not in the force", self.paths.of(selection), name=name, code=code))

    def _fixed(self, card: Mapping[str, Any]) -> set[str]:
        return {str(w.get("bs_id")) for w in card.get("weapons") or () if w.get("bs_id")}

    def _no_parts(self, selection: Element, card: Mapping[str, Any]) -> None:
        """Selections inside a model that is not a warjack: its own fixed weapons (read from the card), nothing else."""
        fixed = self._fixed(card)
        for child in kids(selection, "selections", "selection"):
            if (child.get("entryId") or "").split("::")[-1] in fixed:
                continue
            code, part = self._card_of(child)
            if part is None:
                self._unknown(child)
            else:
                name = part.get("name_en") or code
                self.issues.append(issue(
                    "roster.part_misplaced", f"{name!r} ({code}) is inside {card.get('name_en')!r}, which takes no "
                    "cortex or warjack weapons", self.paths.of(child), name=name, code=code,
                    model=card.get("name_en") or ""))

    def _loadout(self, selection: Element, card: Mapping[str, Any], number: int) -> dict[str, Any]:
        """A warjack's cortex and weapons from the selections inside it (each `number` times for `number` warjacks)."""
        options: dict[str, Any] = {}
        weapons: list[str] = []
        fixed = self._fixed(card)
        for child in kids(selection, "selections", "selection"):
            if (child.get("entryId") or "").split("::")[-1] in fixed:
                continue
            code, part = self._card_of(child)
            if part is None or code is None:
                self._unknown(child)
                continue
            count = int(child.get("number") or 1)
            if count % number:
                self.issues.append(issue(
                    "roster.part_number", f"{child.get('name')!r} is selected {count} times inside {number} warjacks: "
                    "each warjack must carry the same parts", self.paths.of(child), name=child.get("name") or "",
                    count=count, models=number))
                continue
            if part.get("kind") == "cortex":
                if "cortex" in options or count != number:
                    self.issues.append(issue("roster.two_cortexes", "a warjack carries one cortex",
                                              self.paths.of(child)))
                options["cortex"] = code
            elif part.get("kind") == "weapon":
                weapons += [code] * (count // number)
            else:
                self.issues.append(issue(
                    "roster.part_misplaced", f"{part.get('name_en')!r} ({code}) is inside {card.get('name_en')!r}, "
                    "which takes only a cortex and warjack weapons", self.paths.of(child),
                    name=part.get("name_en") or "", code=code, model=card.get("name_en") or ""))
        if weapons:
            options["weapons"] = weapons
        return options


def _bs(item: Mapping[str, Any]) -> Mapping[str, Any]:
    facts = item.get("battlescribe")
    return facts if isinstance(facts, Mapping) else {}
