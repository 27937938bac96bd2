"""The community's Warcaster BattleScribe data (a game system and its catalogues) as a Warcaster package: the
Mapper collects the files' elements, reads each root and shared entry into its card (by its parts: units.py,
attachments.py, weapons.py, hardpoints.py, rules.py, modifiers.py) and reports what it read, interpreted and left out
(the package's `Conversion`, rules_engine/formats/battlescribe/files.py)."""
from __future__ import annotations

import re
from collections import Counter
from typing import Any
from xml.etree.ElementTree import Element

from rules_engine.formats.battlescribe.files import (BattleScribeError, Conversion, Document, LeftOut, card_code, kids,
                                                     local_name, slugify)
from rules_engine.warcaster.battlescribe.attachments import SquadAttachments
from rules_engine.warcaster.battlescribe.hardpoints import HardpointsAndChoices
from rules_engine.warcaster.battlescribe.modifiers import ModifiersAndLimits
from rules_engine.warcaster.battlescribe.rules import RulesAndCyphers
from rules_engine.warcaster.battlescribe.terms import (ATTACHMENT_CATEGORIES, CYPHER_GROUPS, FACTION_JA, FURY_RNG,
                                                       INFO_ON_LINKS, INFO_ON_LINKS_READ, MODEL_PROFILES, SUITS,
                                                       UNREAD_KINDS)
from rules_engine.warcaster.battlescribe.units import UnitsAndModels
from rules_engine.warcaster.battlescribe.weapons import Weapons


def read_community_data(system: Document, catalogues: list[Document]) -> Conversion:
    """The community's Warcaster data (a game system and its catalogues) as a Warcaster package."""
    return Mapper(system, catalogues).run()


class Mapper(ModifiersAndLimits, SquadAttachments, UnitsAndModels,
             Weapons, HardpointsAndChoices, RulesAndCyphers):
    """One reading of a game system and its catalogues (`run`: the Conversion)."""

    def __init__(self, system: Document, catalogues: list[Document]):
        self.system = system
        self.catalogues = catalogues
        self.elements: dict[str, tuple[Document, Element]] = {}
        self.cards: list[dict] = []
        self.counts: Counter[str] = Counter()
        self.not_read: Counter[str] = Counter()
        self.copies: list[int] = []
        self.profiles: dict[str, Element] = {}
        self.dangling: dict[str, str] = {}  # rule id no file defines → the name the links give it
        self.modifiers: list[tuple[Document, Element, Element]] = []  # (file, its <modifiers>, a <modifier>)
        self.modified: Counter[str] = Counter()  # what the modifiers applied at import changed, for the report
        self.parents: dict[int, Element] = {}
        self.warnings: dict[str, None] = {}  # odd data, in the order met (each line once)
        self.unread_kinds: Counter[str] = Counter()
        self.duplicates: set[int] = set()  # elements whose id an earlier element has: left out
        self.origins: dict[str, str] = {}  # card code → where its entry is (for warnings after the mapping)
        for document in [system, *catalogues]:
            self._collect(document)
            self.parents.update({id(child): parent for parent in document.root.iter() for child in parent})
        self.categories = {i: (el.get("name") or "") for i, (_d, el) in self.elements.items()
                           if local_name(el.tag) == "categoryEntry"}
        self.rules = {i: el for i, (_d, el) in self.elements.items() if local_name(el.tag) == "rule"}
        # entry id → {catalogue id: id of the catalogue's root entryLink to it}: a roster names such an entry by the
        # path "linkId::entryId" (builder/listio/roster.py)
        self.root_links: dict[str, dict[str, str]] = {}
        self.rack: dict[str, Any] | None = None
        self.attachment_of: dict[str, list[str]] = {}  # attachment entry id → ids of the squads it joins
        self.suit_mins: list[int] = []  # the cypher suit groups' min constraints (W3's rack_min_per_suit)
        self.choice_too: set[str] = set()
        self.link_costs: dict[str, dict[str, int]] = {}  # hardpoint entry id → {link id: the link's Weapon Points}  # warjack weapons a hero's, solo's or vehicle's weapon choice links to too
        for document in catalogues:
            for link in kids(document.root, "entryLinks", "entryLink"):
                if (link.get("targetId") or "") not in self.elements:
                    self.warn(document, link, f"links to entry {link.get('targetId')!r}, which no file defines: the "
                                              "link is not read")
                    continue
                self.root_links.setdefault(link.get("targetId") or "", {})[document.root.get("id") or ""] = \
                    link.get("id") or ""
        self.catalogue_factions = {d.root.get("id") or "": slugify(d.root.get("name") or "") for d in catalogues}
        root = system.root
        self.wp_types = {el.get("id") for el in kids(root, "costTypes", "costType")
                         if (el.get("name") or "").strip().lower() == "weapon points"}
        for cost_type in kids(root, "costTypes", "costType"):
            if cost_type.get("id") not in self.wp_types:
                self.warn(system, cost_type, f"unknown cost type {cost_type.get('name')!r}: its costs and limits are "
                                             "not read (the only one mapped is 'Weapon Points')")
        self.force_ids = {el.get("id") for el in kids(root, "forceEntries", "forceEntry")}
        self._apply_modifiers()

    def _collect(self, document: Document) -> None:
        stack = [document.root]
        while stack:
            element = stack.pop()
            stack.extend(reversed(list(element)))
            if local_name(element.tag) == "modifiers":
                self.modifiers += [(document, element, modifier) for modifier in kids(element, "modifier")]
            self._count_unread(element)
            if local_name(element.tag) == "profile" and element.get("id"):
                self.profiles.setdefault(element.get("id") or "", element)
            if local_name(element.tag) in ("selectionEntry", "selectionEntryGroup", "rule", "categoryEntry") \
                    and element.get("id"):
                known = self.elements.get(element.get("id") or "")
                if known is not None:
                    self.warn(document, element, f"id {element.get('id')!r} is used twice: this "
                                                 f"{local_name(element.tag)} is left out, the first one is read "
                                                 f"({known[0].source.name} {known[0].paths[id(known[1])]})")
                    self.duplicates.add(id(element))
                    continue
                self.elements[element.get("id") or ""] = (document, element)

    def run(self) -> Conversion:
        system_root = self.system.root
        factions = []
        for document in self.catalogues:
            root = document.root
            if root.get("gameSystemId") != system_root.get("id"):
                raise document.fail(root, f"catalogue is for game system {root.get('gameSystemId')!r}, not "
                                          f"{system_root.get('id')!r} ({self.system.source.name})")
            if _revision(root.get("gameSystemRevision")) != _revision(system_root.get("revision")):
                self.warn(document, root, f"written for revision {root.get('gameSystemRevision') or '?'} of the game "
                                          f"system, not {system_root.get('revision')} (the one given): read as it "
                                          "is; links to rules the given revision lacks keep their names")
            slug = slugify(root.get("name") or "")
            name_en = root.get("name") or slug
            factions.append({"slug": slug, "name": FACTION_JA.get(slug, name_en), "name_en": name_en,
                             "bs_id": root.get("id") or ""})
            self._entries(document, slug)
        self._entries(self.system, "universal")
        if not self.cards:
            raise BattleScribeError(self.system.source.name, "", "", "nothing usable could be read: no model, "
                                    f"weapon, cortex or cypher ({len(self.warnings)} warnings: "
                                    + "; ".join(list(self.warnings)[:3]) + ")")
        slugs = Counter(f["slug"] for f in factions)
        for document, faction in zip(self.catalogues, factions):
            if slugs[faction["slug"]] > 1:
                raise document.fail(document.root, f"two catalogues make the same faction {faction['slug']!r}")
        slug = "bs-" + slugify(system_root.get("name") or "battlescribe")[:40]
        formats = self._formats(slug)
        revisions = "-".join(d.root.get("revision") or "0" for d in self.catalogues)
        package: dict[str, Any] = {
            "schema": "hangar.package/1", "system": "warcaster", "slug": slug,
            "version": f"r{system_root.get('revision')}-{revisions}",
            "title": f"{system_root.get('name')} (BattleScribe)",
            "description": "Imported from BattleScribe data: " + ", ".join(
                [f"{d.root.get('name')} r{d.root.get('revision')}" for d in [self.system, *self.catalogues]]),
            "factions": factions, "cards": self.cards, "formats": formats,
        }
        goldfish = [{"card": c["code"], "qty": 1} for c in self.cards
                    if c.get("faction") == factions[0]["slug"] and c["kind"] in ("squad", "solo", "vehicle", "mantlet")]
        if goldfish:
            package["opponents"] = [{"slug": f"{slug}-goldfish", "name": f"標的 ({factions[0]['name_en']})",
                                     "name_en": f"Goldfish ({factions[0]['name_en']})", "kind": "goldfish",
                                     "units": goldfish}]
        return Conversion(package, self._report(package), list(self.warnings), self.origins)

    def _entries(self, document: Document, faction: str) -> None:
        root = document.root
        linked = self._linked_parts(document)
        for entry in kids(root, "selectionEntries", "selectionEntry") + kids(root, "sharedSelectionEntries",
                                                                             "selectionEntry"):
            if id(entry) in self.duplicates:
                continue
            try:
                self._entry(document, entry, faction, linked)
            except LeftOut:
                continue
        for group in kids(root, "sharedSelectionEntryGroups", "selectionEntryGroup"):
            if id(group) in self.duplicates:
                continue
            suit = CYPHER_GROUPS.get((group.get("name") or "").strip().lower())
            if suit is None:
                self.warn(document, group, f"unknown shared selection entry group {group.get('name')!r}: left out "
                                           "(mapped: the cypher suits Furies, Geometrics, Harmonics, Overdrives)")
                continue
            if kids(group, "entryLinks", "entryLink") or kids(group, "selectionEntryGroups", "selectionEntryGroup"):
                self.warn(document, group, "a cypher suit group holds its cyphers as selection entries; the links "
                                           "and nested groups in it are not read")
            for constraint in kids(group, "constraints", "constraint"):
                if constraint.get("type") == "min" and constraint.get("field") == "selections":
                    self.suit_mins.append(int(float(constraint.get("value") or 0)))  # W3: per suit
            for entry in kids(group, "selectionEntries", "selectionEntry"):
                if id(entry) in self.duplicates:
                    continue
                try:
                    card = self._rack_cypher(document, entry, faction, suit)
                except LeftOut:
                    continue
                card["battlescribe"]["group"] = group.get("id") or ""  # a roster nests it in the rack, by this group
                self.cards.append(card)

    def _entry(self, document: Document, entry: Element, faction: str, linked: dict[str, str]) -> None:
        """One root or shared selection entry → its card (or the rack, or nothing); raises LeftOut."""
        kinds = {prof.get("typeName") for prof in kids(entry, "profiles", "profile")}
        slot = linked.get(entry.get("id") or "")
        unknown = kinds - {*MODEL_PROFILES, "Weapon", "Cypher"}
        if unknown:
            kinds -= unknown
            if not kinds and slot is None:
                raise self.leave_out(document, entry, f"unknown profile type {sorted(unknown)[0]!r}: the entry "
                                     "is left out (mapped: " + ", ".join([*MODEL_PROFILES, "Weapon", "Cypher"])
                                     + ")")
            self.warn(document, entry, f"unknown profile type {sorted(unknown)[0]!r}: that profile is not read "
                                       "(mapped: " + ", ".join([*MODEL_PROFILES, "Weapon", "Cypher"]) + ")")
        if kinds & set(MODEL_PROFILES) and self._primary_category(entry) in ATTACHMENT_CATEGORIES:
            # a squad attachment: one model joining a squad (its CST "+1", SPD "*": the squad's)
            owner = self._linked_faction(entry) if document is self.system else faction
            self.cards.append(self._attachment(document, entry, owner))
            return
        if kinds & set(MODEL_PROFILES):
            owner = self._linked_faction(entry) if document is self.system else faction
            self.cards.append(self._model(document, entry, owner))
        elif "Cypher" in kinds:
            self.cards.append(self._cypher(document, entry, faction))
        elif slot == "cortex":
            self.cards.append(self._cortex(document, entry, faction))
        elif slot is not None:
            card = self._part_weapon(document, entry, faction, slot)
            if card is not None:
                self.cards.append(card)
        elif entry.get("type") in ("model", "unit"):
            raise self.leave_out(document, entry, f"a {entry.get('type')} entry needs a model profile (Solo, "
                                 "Squad, Warjack, Vehicle or Mantlet) of its own (models nested in a unit are "
                                 "not mapped): left out")
        elif self._is_rack(entry):
            self.counts["racks"] += 1  # the cypher rack: its suit groups are read below
            facts = self._roster_facts(entry)
            self.rack = {"entry_id": entry.get("id") or "", "name": entry.get("name") or "",
                         "categories": facts.get("categories", []), "links": facts.get("links", {}),
                         "groups": {link.get("targetId") or "": link.get("id") or ""
                                    for link in kids(entry, "entryLinks", "entryLink")}}
        elif not kinds and self._weapon_profile(entry) is None:
            self.not_read["upgrade entries with no profile, not linked from a hardpoint"] += 1

    def _document_of(self, element: Element) -> Document:
        for document in [self.system, *self.catalogues]:
            if id(element) in document.paths:
                return document
        return self.system

    def _characteristics(self, document: Document, profile: Element, known: set[str],
                         numeric: set[str] | None = None, skip: set[str] | None = None) -> dict[str, Any]:
        """name → int (or None for "-"), or the text for the names not in `numeric` (all are numeric if None); the
        names in `skip` are left out (read by the caller)."""
        values: dict[str, Any] = {}
        for char in kids(profile, "characteristics", "characteristic"):
            name = (char.get("name") or "").strip()
            if skip and name in skip:
                continue
            if name not in known:
                self.warn(document, char, f"unknown characteristic {name!r} in a {profile.get('typeName')} profile: "
                                          "not read (mapped: " + ", ".join(sorted(known)) + ")")
                continue
            text = (char.text or "").strip()
            if numeric is not None and name not in numeric:
                values[name] = text
            elif text in ("-", "", "*"):
                values[name] = None
            elif re.fullmatch(r"\d{1,2}", text):
                values[name] = int(text)
            else:
                self.warn(document, char, f"{name} {text!r} is not a whole number: read as '-' (no value)")
                values[name] = None
        return values

    def _card(self, entry: Element, kind: str, faction: str) -> dict:
        name = entry.get("name") or entry.get("id") or ""
        self.origins[card_code(entry.get("id") or "")] = self._where(self._document_of(entry), entry)
        return {"code": card_code(entry.get("id") or ""), "name": name, "name_en": name, "kind": kind,
                "faction": faction, "bs_id": entry.get("id") or "", "battlescribe": self._roster_facts(entry)}

    def _roster_facts(self, entry: Element) -> dict:
        """What a roster's selection of this entry carries (builder/listio/roster.py): the game system, the entry's
        type, its categories and the catalogues' root links to it."""
        facts: dict[str, Any] = {"game_system": self.system.root.get("id") or "", "type": entry.get("type") or "upgrade"}
        for link in kids(entry, "categoryLinks", "categoryLink"):
            if (link.get("targetId") or "") not in self.categories:
                self.warn(self._document_of(link), link, f"links to category {link.get('targetId')!r}, which no file "
                                                         "defines: not read")
        categories = [{"id": link.get("targetId") or "", "name": self.categories.get(link.get("targetId") or "", ""),
                       "primary": link.get("primary") == "true"}
                      for link in kids(entry, "categoryLinks", "categoryLink")
                      if (link.get("targetId") or "") in self.categories]
        if categories:
            facts["categories"] = categories
        links = self.root_links.get(entry.get("id") or "")
        if links:
            facts["links"] = dict(sorted(links.items()))
        return facts

    def warn(self, document: Document, element: Element, message: str) -> None:
        """Record odd data read by a documented rule (or left out): the file, the element path, the name and id of
        the nearest entry, and what was done. Each line once."""
        self.warnings[f"{self._where(document, element)}: {message}"] = None

    @staticmethod
    def _where(document: Document, element: Element) -> str:
        key = id(element)
        name, near_id = document.names.get(key, ""), document.ids.get(key, "")
        who = ", ".join(part for part in (repr(name) if name else "", f"id {near_id}" if near_id else "") if part)
        return f"{document.source.name}: {document.paths.get(key, '/')}" + (f" ({who})" if who else "")

    def leave_out(self, document: Document, element: Element, message: str) -> LeftOut:
        """Warn, and the exception that leaves the entry out (`raise self.leave_out(...)`)."""
        self.warn(document, element, message)
        return LeftOut(message)

    def _count_unread(self, element: Element) -> None:
        """Count the elements of the published model the mapping never reads (UNREAD_KINDS), by kind."""
        name = local_name(element.tag)
        why = UNREAD_KINDS.get(name)
        if why is not None:
            self.unread_kinds[f"{name} ({why})"] += 1
        parent_kind = INFO_ON_LINKS.get(name)
        if parent_kind is not None:
            for child in element:
                what = local_name(child.tag)
                if what in INFO_ON_LINKS_READ or not len(child):
                    continue  # read, counted by kind, or an empty list
                self.unread_kinds[f"{what} on an {name} (what a link adds to its target)"] += 1

    def _report(self, package: dict) -> list[str]:
        kinds = ("hero", "solo", "squad", "warjack", "vehicle", "mantlet") \
            + (("squad_attachment",) if self.counts["squad_attachment"] else ())
        suits = ", ".join(f"{s} {self.counts[f'suit:{s}']}" for s in sorted(SUITS))
        lines = [
            "factions: " + ", ".join(f"{f['name_en']} ({f['slug']})" for f in package["factions"]),
            "models: " + ", ".join(f"{k} {self.counts[k]}" for k in kinds),
            f"weapons: {self.counts['weapons']} fixed, {self.counts['warjack_weapons']} warjack weapons, "
            f"{self.counts['cortex']} cortexes",
            f"cyphers: {self.counts['cyphers']} ({suits})",
            "formats: " + (", ".join(f"{f['name_en']} ({f['slug']})" for f in package["formats"]) or "none"),
        ]
        choices = [f"{k} {self.counts[f'choices:{k}']}" for k in ("hero", "solo", "vehicle", "squad", "mantlet")
                   if self.counts[f"choices:{k}"]]
        if choices:
            lines.append("weapon choices of models other than warjacks (W5): " + ", ".join(choices))
        if self.modified or self.counts["attachment_limits"]:
            lines.append("modifiers read: " + ", ".join(
                [f"{kind} {n} (applied)" for kind, n in sorted(self.modified.items())]
                + ([f"squad attachment limits {self.counts['attachment_limits']} (one per squad it joins, W4)"]
                   if self.counts["attachment_limits"] else [])))
        read_as = [f"{label} {self.counts[key]}" for key, label in (
            ("linked_from_a_catalogue", "game-system models given the faction of the catalogue linking them:"),
            ("linked_from_several", "game-system models linked from several catalogues (mercenary):"),
            ("linked_from_none", "game-system models linked from no catalogue (mercenary):"),
            ("squads_health_1", "squads without DMG (1 damage point per model):"),
            ("weapons_typed_by_rng", "weapons typed by their RNG (no TYP, no Melee/Ranged rule):"),
            ("weapons_pow_dash", "weapons with POW '-' (POW 0):"),
            ("fury_rng_interpreted", f"Fury attacks played at RNG {FURY_RNG}:"),
            ("attachments_cst_none", "squad attachments with CST '-' (cost 0):"),
            ("weapons_costed_by_links", "weapons costed by their hardpoint links (their own cost 0):")) if self.counts[key]]
        if read_as:
            lines.append("interpretations: " + "; ".join(read_as))
        partial = [c for c in package["cards"] if c.get("not_modelled")]
        lines.append(f"played in part (text kept, effect not modelled): {len(partial)} cards")
        lines += [f"  {c['code']} {c['name_en']} [{c['bs_id']}]: " + ", ".join(c["not_modelled"]) for c in partial]
        if self.dangling:
            lines.append(f"rules no file defines, kept by the links' names without text: {len(self.dangling)} ("
                         + ", ".join(f"{name} [{rid}]" for rid, name in sorted(self.dangling.items(),
                                                                               key=lambda i: i[1])) + ")")
        if self.not_read:
            lines.append("not read: " + ", ".join(f"{k} ×{v}" for k, v in sorted(self.not_read.items())))
        if self.unread_kinds:
            lines.append("not read, by kind (docs/data-packages.md 'Not read'): "
                         + ", ".join(f"{k} ×{v}" for k, v in sorted(self.unread_kinds.items())))
        return lines


def _revision(value: str | None) -> int:
    return int(value) if value and value.isdigit() else 0
