"""Warcaster: Neo-Mechanika's reading of the community's BattleScribe data, and how its cards look in the BattleScribe
data Hangar exports (docs/data-packages.md "BattleScribe data"): the game's part of the BattleScribe format
(rules_engine/formats/battlescribe/), declared in its registry entry (`data_formats`).

The files are read and checked by the format's game-neutral part (rules_engine/formats/battlescribe/files.py); odd
data in valid files (an unknown profile type, characteristic, hardpoint group, cypher suit or type, weapon TYP, a
value that is not a whole number, a link to an id no file defines, an id used twice, a weapon linked to both Melee
and Ranged...) is a warning (`Conversion.warnings`: file, element path, entry name and id): that entry or link is
read by a documented rule or left out. Elements of the model the mapping never uses are counted by kind in the
report (UNREAD_KINDS). What it reads:

- catalogues → factions (slug from the name; ja/en names, the ja name from FACTION_JA when known);
- `selectionEntry` with a Solo/Squad/Warjack/Vehicle/Mantlet profile → a model card (a category "Hero" → hero),
  its stats from SPD MAT RAT DEF ARM FOC/NUM STR DMG (health) CST, its fixed weapons from the Weapon profiles of the
  entry and of its child entries (TYP, RNG, POW, Damage Type; qualities from the infoLinks to shared rules);
- a warjack's `selectionEntryGroups` Cortex / Arm(s) / Shoulder(s) → its hardpoints; the entries they link to →
  cortex and weapon cards (a weapon's cost in "Weapon Points"); the warjack's weapon points from its max constraint
  on that cost type;
- an entry with a Cypher profile (Suit, Type, RNG, POW) → a cypher card (in the game system: faction "universal");
- the game system's `forceEntries` → formats (categories Hero/Unit/Mantlet/Cypher and their min/max constraints;
  copies per unit from the entries' roster-scoped max constraints).

Rules the engine plays are mapped to its abilities and qualities (RULE_ABILITIES, QUALITIES); every other rule,
quality or cypher effect keeps its text and is named in the card's `not_modelled`. Every card and weapon keeps its
BattleScribe id as `bs_id`.

Below the mapping: how the game's cards look in the BattleScribe data Hangar exports (`EXPORT`, docs/data-packages.md
"BattleScribe data out"), and the community's rosters of such data, read into a list and written from one
(`read_community_roster`, `write_community_roster`, docs/list-formats.md "BattleScribe rosters").
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from xml.etree import ElementTree as ET
from xml.etree.ElementTree import Element

from rules_engine.core.catalog import Catalog
from rules_engine.formats.battlescribe.export import Category, EntryGroup, Game, title_of, value_text, whole_number
from rules_engine.formats.battlescribe.files import (BattleScribeError, Conversion, Document, LeftOut, card_code,
                                                     kids, local_name, slugify)
from rules_engine.formats.battlescribe.rosters import (BATTLESCRIBE_VERSION, ROSTER_NS, ElementPaths, RosterIds,
                                                       RosterIssue, RosterRefused, issue, refused)

MODEL_PROFILES = {"Solo": "solo", "Squad": "squad", "Warjack": "warjack", "Vehicle": "vehicle", "Mantlet": "mantlet"}
# BattleScribe characteristic → Hangar stat (DMG is the health boxes, CST the deployment cost)
STAT_KEYS = {"SPD": "spd", "MAT": "mat", "RAT": "rat", "DEF": "def", "ARM": "arm", "FOC": "foc", "NUM": "num",
             "STR": "str", "DMG": "health", "CST": "cst"}
REQUIRED_STATS = {
    "solo": ("SPD", "MAT", "RAT", "DEF", "ARM", "DMG", "CST"), "squad": ("SPD", "MAT", "RAT", "DEF", "ARM", "NUM",
                                                                       "CST"),
    "warjack": ("SPD", "STR", "MAT", "RAT", "DEF", "ARM", "DMG", "CST"), "vehicle": ("SPD", "MAT", "RAT", "DEF", "ARM",
                                                                                     "DMG", "CST"),
    "mantlet": ("DEF", "ARM", "DMG", "CST"), "hero": ("SPD", "MAT", "RAT", "DEF", "ARM", "DMG", "CST"),  # FOC "-": no focus
}
# The community files write a weapon either with RNG and POW only (its type and damage type then come from links to
# the shared rules "Melee"/"Ranged" and "Kinetic", "Energy"...), or with TYP, RNG, POW, DMG (the damage type) and
# Rules (the names of its rules, comma-separated).
WEAPON_CHARS = {"TYP", "RNG", "POW", "Damage Type", "DMG", "Rules"}
# [interpretation] a weapon whose type no TYP nor "Melee"/"Ranged" rule gives is melee at RNG ≤ 2: every melee weapon
# of the community data has RNG 1 or 2, and all but one ranged weapon RNG 6 or more (that one, RNG 1, has TYP Ranged).
# In the community files 3 weapons (Empyrean, RNG 1-2) have neither and are typed by this rule.
MELEE_MAX_RNG = 2
DAMAGE_TYPES = {"kinetic", "energy", "ballistic", "force", "fire", "beam", "explosion", "blast", "cold", "corrosion"}
# [interpretation] a Squad profile without DMG: each model of the squad has 1 damage point (squad models are destroyed
# one by one: the data's rules texts return "one destroyed model" to a squad).
SQUAD_MODEL_HEALTH = 1
CYPHER_CHARS = {"Suit", "Type", "RNG", "POW"}
WEAPON_TYPES = {"ranged": "ranged", "melee": "melee"}
SUITS = {"fury", "geometric", "harmonic", "overdrive"}
CYPHER_TYPES = {"attack", "effect", "geometric", "pulse"}
# Weapon qualities the engine plays (rules_engine/warcaster/models.py QUALITIES), by the shared rule's name.
QUALITIES = {"blast": "blast", "blast weapon": "blast", "spray": "spray", "spray weapon": "spray", "strafe": "strafe",
             "fire": "fire", "corrosion": "corrosion", "lock down": "lockdown", "lockdown": "lockdown",
             "system failure": "system_failure", "armor-piercing": "armor_piercing", "armor piercing": "armor_piercing",
             "armour-piercing": "armor_piercing"}  # Armor-Piercing: W11, the damage roll against ARM − 1
# Model rules the engine plays, as abilities.
RULE_ABILITIES = {"arc node": {"kind": "arc_node", "trigger": "static"}, "flight": {"kind": "flight", "trigger": "static"}}
HARDPOINT_GROUPS = {"cortex": "cortex", "arm": "arm", "arms": "arm", "left arm": "arm", "right arm": "arm",
                    "shoulder": "shoulder", "shoulders": "shoulder", "left shoulder": "shoulder",
                    "right shoulder": "shoulder",
                    # [interpretation] the Empyrean warjacks' Back and Chest hardpoints take what the other factions'
                    # shoulders take (the heavy weapons of 2-4 weapon points): Hangar's slot "shoulder"
                    "back": "shoulder", "chest": "shoulder"}
# A group holding a warjack's hardpoint groups (the community files): its max constraint on the Weapon Points cost is
# the warjack's weapon points.
HARDPOINT_CONTAINERS = {"hardpoints"}
# The community files' cypher rack: a shared selectionEntryGroup per suit holding the cyphers (each an upgrade whose
# rule "-Cypher- Name" has the text "Suit:\n\nPOW(n)\n\n...").
CYPHER_GROUPS = {"furies": "fury", "fury": "fury", "geometrics": "geometric", "geometric": "geometric",
                 "harmonics": "harmonic", "harmonic": "harmonic", "overdrives": "overdrive", "overdrive": "overdrive"}
# [interpretation] a Fury's range is the channelling model's Arc Relay (N); the attack is played at the smallest
# Arc Relay of the community data.
FURY_RNG = 10
FORMAT_CATEGORIES = {"hero": "heroes", "heroes": "heroes", "unit": "units", "units": "units", "mantlet": "mantlets",
                     "mantlets": "mantlets", "cypher": "cyphers", "cyphers": "cyphers"}
# Categories of the community files that need no limit of their own in Hangar: "The Rack" holds the one cypher-rack
# selection (one per roster: a Hangar list always has exactly one rack, whose cyphers W3 counts), "Attachments" the
# squad attachments (max -1, no limit: each attachment's own limit, one per squad it joins, is W4's).
RACK_CATEGORIES = {"the rack"}
ATTACHMENT_CATEGORIES = {"attachments", "attachment"}
UNREAD_CATEGORIES = RACK_CATEGORIES | ATTACHMENT_CATEGORIES
# A squad attachment's CST: "+1" (what it adds to its squad's), a number, or "-" (none given: 0, an [interpretation])
ATTACHMENT_CST = re.compile(r"\+?(\d{1,2})")
# The hardpoint slot of a hero's, solo's or vehicle's own weapon-choice group (its "Hardpoint" group, a hero's weapon
# choice): W5 checks the weapons chosen there as it checks a warjack's
CHOICE_SLOT = "weapon"
# Modifier types that change a number (a cost or a constraint's value); the others ("set-primary", "add", "remove",
# "append"...) change names, categories or visibility, which no rule reads.
NUMBER_MODIFIERS = {"set", "increment", "decrement"}
# Elements of the published model the mapping never reads, by kind, with why (docs/data-packages.md "Not read").
UNREAD_KINDS = {"modifierGroups": "conditional changes", "catalogueLinks": "links between catalogues",
                "publications": "book references", "readme": "the authors' notes", "comment": "the authors' notes",
                "sharedInfoGroups": "shared rule groups", "profileTypes": "the layout of profiles",
                "costLimits": "a roster's limits"}
# An entryLink or infoLink may carry children of its own, added to its target; the mapping reads a link's
# constraints (hardpoint counts) and nothing else it adds.
INFO_ON_LINKS = {"entryLink": "link"}
INFO_ON_LINKS_READ = {"constraints", "modifiers", "modifierGroups", "comment"}  # read, or counted by kind
# The models the mapping makes, as the import's preview counts them by kind (builder/web/dataimport.py).
MODEL_KINDS_COUNTED = ("hero", "solo", "squad", "warjack", "vehicle", "mantlet", "squad_attachment")
FACTION_JA = {"iron-star-alliance": "鉄星同盟", "marcher-worlds": "辺境世界",
              "aeternus-continuum": "アエテルヌス・コンティニュアム", "empyreans": "エンピリアン", "mercenary": "傭兵"}


def read_community_data(system: Document, catalogues: list[Document]) -> Conversion:
    """The community's Warcaster data (a game system and its catalogues) as a Warcaster package."""
    return Mapper(system, catalogues).run()


class Mapper:
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

    # --- modifiers -----------------------------------------------------------------------------------------------

    def _apply_modifiers(self) -> None:
        """The modifiers that change a number the rules read — a cost (Weapon Points) or a constraint's value (a
        limit) — of type set/increment/decrement. One without conditions or repeats is applied to the data before it
        is mapped; a squad attachment's (an increment of its own roster max, repeated per selection of the squads it
        joins) is read as the squads it attaches to (W4: one per such squad). Every other one is named under "not
        read" with the reason: its condition depends on what a roster holds, which an import cannot know, or it
        changes something no rule reads."""
        for document, box, modifier in self.modifiers:
            owner = self.parents.get(id(box))
            owner_name = (owner.get("name") or owner.get("id") or "") if owner is not None else ""
            kind, field_id = modifier.get("type") or "", modifier.get("field") or ""
            where = f"{owner_name}: {kind} {self._field_name(owner, field_id)}"
            if kind not in NUMBER_MODIFIERS:
                self.not_read[f"modifiers that change no cost or limit ({where})"] += 1
                continue
            target = self._modified(owner, field_id)
            if target is not None and local_name(target.tag) == "cost" and local_name(owner.tag) == "entryLink":
                # Hangar's weapon card has one cost, its entry's own (the links repeat it)
                self.not_read[f"modifiers of a link's cost, the card keeps its entry's cost ({where})"] += 1
                continue
            if target is None:
                self.not_read[f"modifiers of a field the rules do not read ({where})"] += 1
                continue
            conditional = kids(modifier, "conditions", "condition") + kids(modifier, "conditionGroups",
                                                                              "conditionGroup")
            repeats = kids(modifier, "repeats", "repeat")
            if repeats and not conditional and self._attachment_limit(owner, target, modifier, repeats):
                continue
            if conditional or repeats:
                self.not_read[f"modifiers whose condition depends on the roster ({where})"] += 1
                continue
            try:
                value = float(modifier.get("value") or 0)
                current = float(target.get("value") or 0)
            except ValueError:
                self.warn(document, modifier, f"modifier value {modifier.get('value')!r} is not a number: not read")
                continue
            new = value if kind == "set" else current + value if kind == "increment" else current - value
            target.set("value", f"{new}")
            self.modified[kind] += 1

    def _field_name(self, owner: Element | None, field_id: str) -> str:
        for cost_type in kids(self.system.root, "costTypes", "costType"):
            if cost_type.get("id") == field_id:
                return cost_type.get("name") or field_id
        return "a limit" if owner is not None and self._modified(owner, field_id) is not None else field_id

    def _modified(self, owner: Element | None, field_id: str) -> Element | None:
        """What a modifier of `owner` changes: its cost of that cost type, or its constraint of that id."""
        if owner is None:
            return None
        if field_id in self.wp_types:
            return next((c for c in kids(owner, "costs", "cost") if c.get("typeId") == field_id), None)
        return next((c for c in kids(owner, "constraints", "constraint") if c.get("id") == field_id), None)

    def _attachment_limit(self, owner: Element | None, target: Element, modifier: Element,
                          repeats: list[Element]) -> bool:
        """A squad attachment's limit (the community files): its roster max of 0, incremented by 1 per selection in
        the roster of each squad it joins. Read as the squads it attaches to."""
        if owner is None or local_name(owner.tag) != "selectionEntry" or local_name(target.tag) != "constraint" \
                or self._primary_category(owner) not in ATTACHMENT_CATEGORIES \
                or target.get("type") != "max" or (modifier.get("type") or "") != "increment" \
                or float(target.get("value") or 0) != 0 or float(modifier.get("value") or 0) != 1:
            return False
        squads = [r.get("childId") or "" for r in repeats]
        if any(r.get("field") != "selections" or r.get("scope") not in ("roster", "force") for r in repeats) \
                or not all(squads):
            return False
        self.attachment_of[owner.get("id") or ""] = squads
        self.counts["attachment_limits"] += 1
        return True

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

    # --- package -------------------------------------------------------------------------------------------------

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
        # an entry with only a Weapon profile is a model's weapon, read through the model's link to it

    def _group_links(self, document: Document, group: Element, *, attackless: bool = False) -> dict[str, str]:
        """A hardpoint or weapon-choice group's links: {target entry id: link id}. A link to an id no file defines is
        a warning; an entry that makes no attack is not read (counted once, at the entry) unless `attackless` (a
        cortex makes none)."""
        links: dict[str, str] = {}
        for link in kids(group, "entryLinks", "entryLink"):
            target = self.elements.get(link.get("targetId") or "")
            if target is None:
                self.warn(document, link, f"links to entry {link.get('targetId')!r}, which no file defines: the link "
                                          "is not read")
                continue
            if not attackless and self._attackless(target[1]):
                continue
            links[link.get("targetId") or ""] = link.get("id") or ""
        return links

    def _primary_category(self, entry: Element) -> str:
        return next((self.categories.get(link.get("targetId") or "", "").strip().lower()
                     for link in kids(entry, "categoryLinks", "categoryLink") if link.get("primary") == "true"), "")

    def _is_rack(self, entry: Element) -> bool:
        """The community files' "Cyphers" upgrade: it links only to the cypher suit groups."""
        links = kids(entry, "entryLinks", "entryLink")
        return bool(links) and all(
            link.get("type") == "selectionEntryGroup"
            and CYPHER_GROUPS.get((self.elements.get(link.get("targetId") or "", (None, entry))[1].get("name")
                                   or "").strip().lower()) is not None for link in links)

    def _linked_faction(self, entry: Element) -> str:
        """A model in the game system belongs to the one catalogue whose root entryLinks link to it; one that no
        catalogue or several link to is a mercenary (playable beside any faction, W6)."""
        catalogues = sorted(self.root_links.get(entry.get("id") or "", {}))
        if len(catalogues) == 1:
            self.counts["linked_from_a_catalogue"] += 1
            return self.catalogue_factions[catalogues[0]]
        self.counts["linked_from_several" if catalogues else "linked_from_none"] += 1
        return "mercenary"

    def _linked_parts(self, document: Document) -> dict[str, str]:
        """Entry id → hardpoint slot, for every entry a warjack's hardpoint group links to (in any file), and
        CHOICE_SLOT for the entries a hero's, solo's or vehicle's weapon-choice group links to (a warjack's slot
        first: such a weapon card keeps both in its `hardpoints`)."""
        slots: dict[str, str] = {}
        for doc in [self.system, *self.catalogues]:
            for group in doc.root.iter():
                if local_name(group.tag) != "selectionEntryGroup":
                    continue
                slot = HARDPOINT_GROUPS.get((group.get("name") or "").strip().lower())
                if self._choice_group(group):
                    slot = CHOICE_SLOT
                for link in kids(group, "entryLinks", "entryLink"):
                    target = link.get("targetId") or ""
                    if slot is None:
                        continue
                    for cost in kids(link, "costs", "cost"):
                        if cost.get("typeId") in self.wp_types:
                            self.link_costs.setdefault(target, {})[link.get("id") or ""] = \
                                int(float(cost.get("value") or 0))
                    if slot == CHOICE_SLOT and slots.get(target, CHOICE_SLOT) != CHOICE_SLOT:
                        self.choice_too.add(target)  # a warjack's slot first
                    elif slot != CHOICE_SLOT and slots.get(target) == CHOICE_SLOT:
                        self.choice_too.add(target)
                        slots[target] = slot
                    else:
                        slots[target] = slot
        return slots

    def _choice_group(self, group: Element) -> bool:
        """A weapon-choice group of a model that is no warjack (a vehicle's "Hardpoint", a hero's weapon choice)."""
        owner = self.parents.get(id(group))
        while owner is not None and local_name(owner.tag) != "selectionEntry":
            owner = self.parents.get(id(owner))
        if owner is None:
            return False
        types = {p.get("typeName") for p in kids(owner, "profiles", "profile")}
        return bool(types & set(MODEL_PROFILES)) and "Warjack" not in types

    # --- models --------------------------------------------------------------------------------------------------

    def _model(self, document: Document, entry: Element, faction: str) -> dict:
        profiles = [p for p in kids(entry, "profiles", "profile") if p.get("typeName") in MODEL_PROFILES]
        if len(profiles) != 1:
            raise self.leave_out(document, entry, "a model entry needs exactly one model profile (Solo, Squad, "
                                 f"Warjack, Vehicle or Mantlet), found {len(profiles)}: left out")
        profile = profiles[0]
        kind = MODEL_PROFILES[profile.get("typeName") or ""]
        categories = {self.categories.get(link.get("targetId") or "", "").strip().lower()
                      for link in kids(entry, "categoryLinks", "categoryLink")}
        if categories & {"hero", "heroes"}:
            kind = "hero"  # ヒーロー: recognised by the category, whatever the profile
        chars = self._characteristics(document, profile, set(STAT_KEYS))
        for name in REQUIRED_STATS[kind]:
            if chars.get(name) is None:
                raise self.leave_out(document, profile, f"a {kind} needs the characteristic {name}: left out")
        stats = {STAT_KEYS[k]: v for k, v in chars.items() if v is not None and k != "CST"}
        if kind == "hero":
            stats.setdefault("foc", 0)  # FOC "-": no focus
        if kind == "squad" and "health" not in stats:
            stats["health"] = SQUAD_MODEL_HEALTH  # [interpretation] no DMG in a Squad profile: 1 per model
            self.counts["squads_health_1"] += 1
        if kind != "squad":
            stats.pop("num", None)
        if kind != "warjack":
            stats.pop("str", None)
        card = self._card(entry, kind, faction)
        card |= {"cst": chars["CST"], "stats": stats}
        weapons = []
        for weapon_entry, weapon_profile in self._weapon_entries(entry):
            try:
                weapons.append(self._weapon(document, weapon_entry, weapon_profile))
            except LeftOut:
                continue  # that weapon only
        if weapons:
            card["weapons"] = weapons
        abilities, not_modelled, text = self._rules(document, entry)
        played = {q for weapon in weapons for q in weapon["qualities"]}
        # a model's link to a rule its weapon plays as a quality (a squad's "Blast Weapon") is that weapon's
        not_modelled = [n for n in not_modelled
                        if QUALITIES.get(re.sub(r"\s*\(.*\)\s*$", "", n).strip().lower()) not in played]
        for weapon in weapons:
            not_modelled += [q for q in weapon.get("other_qualities", []) if q not in not_modelled]
        if abilities:
            card["abilities"] = abilities
        if kind == "warjack":
            card |= self._chassis(document, entry, faction)
        elif kids(entry, "selectionEntryGroups", "selectionEntryGroup"):
            card |= self._choices(document, entry, faction, kind)
        _keep_rules(card, text, not_modelled)
        for constraint in kids(entry, "constraints", "constraint"):
            if constraint.get("type") == "max" and constraint.get("field") == "selections" \
                    and constraint.get("scope") in ("roster", "force"):
                self.copies.append(int(float(constraint.get("value") or 0)))
                if kind != "hero":  # W4 with the entry's own limit (a hero's is W1's one)
                    card["max_copies"] = int(float(constraint.get("value") or 0))
        self.counts[kind] += 1
        return card

    def _attachment(self, document: Document, entry: Element, faction: str) -> dict:
        """A squad attachment (primary category Attachments): a `squad_attachment` card — its model's stats (SPD "*"
        left out: it moves with its squad; no DMG: 1 damage point, as a squad model), its weapons and rules, its CST
        ("+1": what it adds to its squad's; "-": 0), and the squads it joins (`attaches_to`, from its limit's
        modifier)."""
        profiles = [p for p in kids(entry, "profiles", "profile") if p.get("typeName") in MODEL_PROFILES]
        if len(profiles) != 1:
            raise self.leave_out(document, entry, "an attachment needs exactly one model profile (Solo, Squad, "
                                 f"Warjack, Vehicle or Mantlet), found {len(profiles)}: left out")
        profile = profiles[0]
        cst_text = next(((c.text or "").strip() for c in kids(profile, "characteristics", "characteristic")
                         if (c.get("name") or "").strip() == "CST"), "")
        cost = ATTACHMENT_CST.fullmatch(cst_text)
        if cost is None and cst_text not in ("-", "", "*"):
            raise self.leave_out(document, profile, f"an attachment's CST {cst_text!r} is not '+N', a number or "
                                 "'-': left out")
        if cost is None:
            self.counts["attachments_cst_none"] += 1  # [interpretation] no cost given: 0
        chars = self._characteristics(document, profile, set(STAT_KEYS), skip={"CST"})  # CST read above
        stats = {STAT_KEYS[k]: v for k, v in chars.items() if v is not None and k not in ("CST", "STR", "FOC")}
        stats.setdefault("health", SQUAD_MODEL_HEALTH)
        card = self._card(entry, "squad_attachment", faction)
        card |= {"cst": int(cost.group(1)) if cost else 0, "stats": stats}
        squads = [card_code(i) for i in self.attachment_of.get(entry.get("id") or "", [])]
        if squads:
            card["attaches_to"] = sorted(dict.fromkeys(squads))
        weapons = [self._weapon(document, e, p) for e, p in self._weapon_entries(entry)]
        if weapons:
            card["weapons"] = weapons
        abilities, not_modelled, text = self._rules(document, entry)
        for weapon in weapons:
            not_modelled += [q for q in weapon.get("other_qualities", []) if q not in not_modelled]
        # the rule "Attachment" says what the limit and attaches_to already read
        not_modelled = [n for n in not_modelled if n.strip().lower() != "attachment"]
        if abilities:
            card["abilities"] = abilities
        _keep_rules(card, text, not_modelled)
        self.counts["squad_attachment"] += 1
        return card

    def _weapon_entries(self, entry: Element) -> list[tuple[Element | None, Element | None]]:
        """(entry, profile) per weapon: the entry's own Weapon profile and those its infoLinks name (profile None: the
        entry's own), child upgrade entries and linked entries with a Weapon profile (own or linked) too."""
        found: list[tuple[Element | None, Element | None]] = []
        own = [p for p in kids(entry, "profiles", "profile") if p.get("typeName") == "Weapon"]
        if own:
            found.append((entry, None))
            found += [(None, p) for p in own[1:]]  # further own Weapon profiles: each a weapon of its own
        for link in kids(entry, "infoLinks", "infoLink"):
            target = self.profiles.get(link.get("targetId") or "") if link.get("type") == "profile" else None
            if link.get("type") == "profile" and target is None:
                self.warn(self._document_of(link), link, f"links to profile {link.get('targetId')!r}, which no file "
                                                          "defines: the link is not read")
                continue
            if target is not None:
                if target.get("typeName") != "Weapon":
                    self.warn(self._document_of(link), link, f"links to a {target.get('typeName')} profile, where "
                                                              "only a Weapon profile is mapped: the link is not read")
                    continue
                found.append((None, target))
        for child in kids(entry, "selectionEntries", "selectionEntry"):
            types = {p.get("typeName") for p in kids(child, "profiles", "profile")}
            if types - {"Weapon"}:
                self.warn(self._document_of(child), child, f"unknown profile type {sorted(types - {'Weapon'})[0]!r} "
                                                           "in an entry inside a model (mapped there: Weapon): that "
                                                           "entry is left out")
                continue
            if types or self._weapon_profile(child) is not None:
                found.append((child, None))
        for link in kids(entry, "entryLinks", "entryLink"):
            target = self.elements.get(link.get("targetId") or "")
            if target is None:
                self.warn(self._document_of(link), link, f"links to entry {link.get('targetId')!r}, which no file "
                                                         "defines: the link is not read")
                continue
            if self._weapon_profile(target[1]) is not None:
                found.append((target[1], None))
        return found

    def _weapon_profile(self, entry: Element) -> Element | None:
        """The entry's own Weapon profile, else the Weapon profile one of its infoLinks names."""
        own = [p for p in kids(entry, "profiles", "profile") if p.get("typeName") == "Weapon"]
        if own:
            return own[0]
        for link in kids(entry, "infoLinks", "infoLink"):
            target = self.profiles.get(link.get("targetId") or "") if link.get("type") == "profile" else None
            if target is not None and target.get("typeName") == "Weapon":
                return target
        return None

    def _linked_rule(self, link: Element) -> Element:
        """The shared rule an infoLink names. A link to a rule no given file defines is refused, except in a
        catalogue written for another revision of the game system than the one given (its gameSystemRevision
        differs: the community's catalogues are written for game-system revisions 2 and 4, and name rules that the
        revision 3 published beside them lacks): there the link keeps its own name, without text, and is listed in
        the report (a nameless one is refused)."""
        target = link.get("targetId") or ""
        rule = self.rules.get(target)
        if rule is not None:
            return rule
        document = self._document_of(link)
        name = (link.get("name") or "").strip() or f"rule {target}"
        if target not in self.dangling:
            self.warn(document, link, f"links to rule {target!r}, which no file defines: kept by the link's name "
                                      f"{name!r}, without text")
        self.dangling.setdefault(target, name)
        return Element("rule", {"id": target, "name": name})

    def _rule_links(self, entry: Element) -> list[Element]:
        return [link for link in kids(entry, "infoLinks", "infoLink") if link.get("type", "rule") == "rule"]

    def _document_of(self, element: Element) -> Document:
        for document in [self.system, *self.catalogues]:
            if id(element) in document.paths:
                return document
        return self.system

    def _weapon(self, document: Document, entry: Element | None, profile: Element | None = None) -> dict:
        """A weapon from an entry (its own or linked Weapon profile, its rule links) or from a profile alone."""
        if profile is None and entry is not None:
            profile = self._weapon_profile(entry)
        assert profile is not None
        document = self._document_of(profile)
        chars = self._characteristics(document, profile, WEAPON_CHARS, numeric={"RNG", "POW"})
        if chars.get("RNG") is None:
            raise self.leave_out(document, profile, "a weapon needs RNG: the weapon is left out")
        if chars.get("POW") is None:  # "-": the attack does no damage (its rule says what it does instead)
            chars["POW"] = 0
            self.counts["weapons_pow_dash"] += 1
        rule_names = [self._linked_rule(link).get("name") or ""
                      for link in (self._rule_links(entry) if entry is not None else [])]
        listed = [n.strip() for n in str(chars.get("Rules") or "").split(",") if n.strip()]
        lowered = {re.sub(r"\s*\(.*\)\s*$", "", n).strip().lower() for n in rule_names + listed}
        wtype = self._weapon_type(document, entry, profile, chars, lowered)
        name = profile.get("name") or (entry.get("name") if entry is not None else "") or ""
        weapon: dict[str, Any] = {"name": name, "name_en": name, "type": wtype, "rng": chars["RNG"],
                                  "pow": chars["POW"]}
        qualities, others = self._qualities(document, entry, listed)
        weapon["qualities"] = qualities
        if others:
            weapon["other_qualities"] = others
        damage = str(chars.get("Damage Type") or chars.get("DMG") or "").strip().lower()
        if not damage:
            damage = next((n for n in (x.strip().lower() for x in rule_names) if n in DAMAGE_TYPES), "")
        if damage:
            weapon["damage_type"] = damage
        weapon["bs_id"] = (entry.get("id") if entry is not None else profile.get("id")) or ""
        self.counts["weapons"] += 1
        return weapon

    def _weapon_type(self, document: Document, entry: Element | None, profile: Element, chars: dict[str, Any],
                     rule_names: set[str]) -> str:
        """A weapon's type: its TYP characteristic; else its one Melee or Ranged rule; else (no TYP, no such rule,
        [interpretation] MELEE_MAX_RNG) melee at RNG ≤ 2, ranged beyond. Odd data is read by the same order, with a
        warning: an unknown TYP is ignored, and a weapon linked to both Melee and Ranged is typed by its TYP, else
        by its RNG."""
        typ = str(chars.get("TYP") or "").strip().lower()
        where = entry if entry is not None else profile
        if typ and typ in WEAPON_TYPES:
            if len(rule_names & set(WEAPON_TYPES)) > 1:
                self.warn(document, where, f"the weapon links to both the Melee and the Ranged rule: read as "
                                           f"{WEAPON_TYPES[typ]} (its TYP {chars.get('TYP')!r})")
            return WEAPON_TYPES[typ]
        if typ:
            self.warn(document, profile, f"unknown weapon TYP {chars.get('TYP')!r} (mapped: Ranged, Melee): typed by "
                                         "its rules or RNG instead")
        both = rule_names & set(WEAPON_TYPES)
        if len(both) == 1:
            return WEAPON_TYPES[next(iter(both))]
        wtype = "melee" if chars["RNG"] <= MELEE_MAX_RNG else "ranged"
        if both:
            self.warn(document, where, f"the weapon links to both the Melee and the Ranged rule and has no TYP: read "
                                       f"as {wtype} by its RNG {chars['RNG']} (melee at RNG ≤ {MELEE_MAX_RNG})")
        self.counts["weapons_typed_by_rng"] += 1
        return wtype

    def _qualities(self, document: Document, entry: Element | None,
                   listed: Iterable[str] = ()) -> tuple[list[str], list[str]]:
        """The weapon qualities the engine plays, and the names of the other rules (not the type and damage-type
        rules "Melee", "Ranged", "Kinetic"...), from the entry's rule links and the names a Rules characteristic
        lists."""
        qualities: list[str] = []
        others: list[str] = []
        names = []
        for link in self._rule_links(entry) if entry is not None else []:
            names.append(self._linked_rule(link).get("name") or "")
        for name in [*names, *listed]:
            bare = re.sub(r"\s*\(.*\)\s*$", "", name).strip().lower()
            if bare in WEAPON_TYPES or (bare in DAMAGE_TYPES and bare not in QUALITIES):
                continue
            known = QUALITIES.get(bare)
            if known is not None and known not in qualities:
                qualities.append(known)
            elif known is None and name not in others:
                others.append(name)
        return qualities, others

    def _rules(self, document: Document, entry: Element) -> tuple[list[dict], list[str], str]:
        """The entry's rules (its own and the shared ones it links to): abilities the engine plays, the names of
        those it does not, and the whole text."""
        abilities: list[dict] = []
        not_modelled: list[str] = []
        texts: list[str] = []
        rules = list(kids(entry, "rules", "rule")) + kids(entry, "infoGroups", "infoGroup", "rules", "rule")
        for link in self._rule_links(entry) + [link for link in kids(entry, "infoGroups", "infoGroup", "infoLinks",
                                                                       "infoLink") if link.get("type") == "rule"]:
            rules.append(self._linked_rule(link))
        for rule in rules:
            name = rule.get("name") or ""
            description = " ".join(" ".join("".join(d.itertext()).split()) for d in kids(rule, "description"))
            texts.append(f"{name}: {description}" if description else name)
            ability = RULE_ABILITIES.get(name.strip().lower())
            if ability is not None:
                abilities.append({**ability, "name": name, "name_en": name})
            elif name not in not_modelled:
                not_modelled.append(name)
        return abilities, not_modelled, "\n".join(texts)

    def _chassis(self, document: Document, entry: Element, faction: str) -> dict:
        """Weapon points and hardpoints. The hardpoint groups are the entry's Cortex/Arm(s)/Shoulder(s) groups, or
        (the community files) Cortex beside a "Hardpoints" group holding Left/Right Arm and (Left/Right) Shoulder
        groups, whose max constraint on the Weapon Points cost gives the weapon points. A group's entries are links to
        shared entries, or (a Cortex group) the cortexes themselves."""
        points = [c for c in kids(entry, "constraints", "constraint")
                  if c.get("field") in self.wp_types and c.get("type") == "max"]
        groups: list[Element] = []
        for group in kids(entry, "selectionEntryGroups", "selectionEntryGroup"):
            if (group.get("name") or "").strip().lower() in HARDPOINT_CONTAINERS:
                points += [c for c in kids(group, "constraints", "constraint")
                           if c.get("field") in self.wp_types and c.get("type") == "max"]
                if kids(group, "entryLinks", "entryLink") or kids(group, "selectionEntries", "selectionEntry"):
                    self.warn(document, group, "a Hardpoints group holds hardpoint groups only: the entries and "
                                               "links directly in it are not read")
                groups += kids(group, "selectionEntryGroups", "selectionEntryGroup")
            else:
                groups.append(group)
        if not points:
            raise self.leave_out(document, entry, "a warjack needs a max constraint on its Weapon Points (its weapon "
                                                  "points): left out")
        hardpoints = []
        for group in groups:
            slot = HARDPOINT_GROUPS.get((group.get("name") or "").strip().lower())
            if slot is None:
                self.warn(document, group, f"unknown hardpoint group {group.get('name')!r}: not read (mapped: Cortex, "
                                           "Arm(s), Left/Right Arm, Shoulder(s), Left/Right Shoulder, Back, Chest, in "
                                           "a Hardpoints group or not)")
                continue
            if kids(group, "selectionEntryGroups", "selectionEntryGroup"):
                self.warn(document, group, "groups nested in a hardpoint group are not read")
            count = [c for c in kids(group, "constraints", "constraint")
                     if c.get("type") == "max" and c.get("field") == "selections"]
            links = self._group_links(document, group, attackless=slot == "cortex")
            for inline in kids(group, "selectionEntries", "selectionEntry"):
                # a part written in the group itself: a roster names it by its own id (no link)
                try:
                    part = self._cortex(document, inline, faction) if slot == "cortex" else \
                        self._part_weapon(document, inline, faction, slot)
                except LeftOut:
                    continue
                if part is not None:
                    self.cards.append(part)
            hardpoints.append({"slot": slot, "count": int(float(count[0].get("value") or 0)) if count else 1,
                               "name": group.get("name") or slot, "bs_id": group.get("id") or "",
                               "bs_links": links})
        self.counts["chassis"] += 1
        return {"weapon_points": int(float(points[0].get("value") or 0)), "hardpoints": hardpoints}

    def _choices(self, document: Document, entry: Element, faction: str, kind: str) -> dict:
        """A hero's, solo's or vehicle's own weapon choices: each of its selection entry groups (nested ones
        flattened) is a hardpoint of slot CHOICE_SLOT (`count` from its max constraint, `bs_links` its links), each
        weapon it offers a `weapon` card (cost: its Weapon Points, 0 when none); a Weapon Points max on the entry
        or a group is its `weapon_points`. W5 checks the choice as a warjack's."""
        points = [c for c in kids(entry, "constraints", "constraint")
                  if c.get("field") in self.wp_types and c.get("type") == "max"]
        hardpoints = []
        todo = list(kids(entry, "selectionEntryGroups", "selectionEntryGroup"))
        while todo:
            group = todo.pop(0)
            points += [c for c in kids(group, "constraints", "constraint")
                       if c.get("field") in self.wp_types and c.get("type") == "max"]
            todo += kids(group, "selectionEntryGroups", "selectionEntryGroup")
            links = self._group_links(document, group)
            for inline in kids(group, "selectionEntries", "selectionEntry"):
                part = self._part_weapon(document, inline, faction, CHOICE_SLOT)
                if part is not None:
                    self.cards.append(part)
                    links[inline.get("id") or ""] = ""
            if not links:
                continue  # a group of groups only, or of items without an attack (counted at the entry)
            count = [c for c in kids(group, "constraints", "constraint")
                     if c.get("type") == "max" and c.get("field") == "selections"]
            hardpoints.append({"slot": CHOICE_SLOT,
                               "count": int(float(count[0].get("value") or 0)) if count else 1,
                               "name": group.get("name") or CHOICE_SLOT, "bs_id": group.get("id") or "",
                               "bs_links": {k: v for k, v in links.items() if v},
                               "weapons": [card_code(k) for k in links]})
        self.counts[f"choices:{kind}"] += 1
        result: dict[str, Any] = {"hardpoints": hardpoints} if hardpoints else {}
        if points and int(float(points[0].get("value") or 0)) > 0:
            result["weapon_points"] = int(float(points[0].get("value") or 0))
        return result

    # --- warjack parts and cyphers -------------------------------------------------------------------------------

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

    def _cortex(self, document: Document, entry: Element, faction: str) -> dict:
        card = self._card(entry, "cortex", faction)
        abilities, not_modelled, text = self._rules(document, entry)
        card["abilities"] = abilities
        _keep_rules(card, text, not_modelled)
        self.counts["cortex"] += 1
        return card

    def _attackless(self, entry: Element) -> bool:
        """No Weapon profile, or one with RNG "-" (a hardpoint item that makes no attack, e.g. a sensor)."""
        profile = self._weapon_profile(entry)
        return profile is None or any((c.get("name") or "").strip() == "RNG" and (c.text or "").strip() == "-"
                                      for c in kids(profile, "characteristics", "characteristic"))

    def _part_weapon(self, document: Document, entry: Element, faction: str, slot: str) -> dict | None:
        if self._weapon_profile(entry) is not None and self._attackless(entry):
            self.not_read[f"warjack weapons that make no attack, RNG '-' ({entry.get('name')})"] += 1
            return None
        if self._weapon_profile(entry) is None:
            if kids(entry, "profiles", "profile"):
                raise self.leave_out(document, entry, f"linked from a warjack's {slot} hardpoint but has no Weapon "
                                                      "profile: left out")
            # the community files have such an entry with only a rule: no RNG or POW to play, left out
            self.not_read[f"warjack weapons with no Weapon profile ({entry.get('name')})"] += 1
            return None
        weapon = self._weapon(document, entry)
        self.counts["weapons"] -= 1  # counted as a warjack weapon card, not a fixed weapon
        costs = [c for c in kids(entry, "costs", "cost") if c.get("typeId") in self.wp_types]
        if not costs and slot != CHOICE_SLOT:
            raise self.leave_out(document, entry, "a warjack weapon needs a Weapon Points cost: left out")
        card = self._card(entry, "weapon", faction)
        slots = [slot] + ([CHOICE_SLOT] if slot != CHOICE_SLOT and (entry.get("id") or "") in self.choice_too else [])
        cost = int(float(costs[0].get("value") or 0)) if costs else 0
        linked = sorted(set(self.link_costs.get(entry.get("id") or "", {}).values()))
        if cost == 0 and any(linked):
            # the Empyrean files cost a weapon on its hardpoint links only (its own cost 0): the links' cost;
            # [interpretation] links that differ: the smallest (reported)
            cost = linked[0]
            self.counts["weapons_costed_by_links"] += 1
            if len(linked) > 1:
                self.not_read[f"other link costs of a weapon costed by its links ({entry.get('name')}: "
                              f"{', '.join(map(str, linked[1:]))}; its card costs {cost})"] += 1
        card |= {"cost": cost, "type": weapon["type"],
                 "rng": weapon["rng"], "pow": weapon["pow"], "qualities": weapon["qualities"], "hardpoints": slots}
        for key in ("other_qualities", "damage_type"):
            if key in weapon:
                card[key] = weapon[key]
        _abilities, not_modelled, text = self._rules(document, entry)
        bare = lambda n: re.sub(r"\s*\(.*\)\s*$", "", n).strip().lower()  # noqa: E731
        # qualities played, and the rules that give its type or damage type (Melee, Kinetic...), are read already
        not_modelled = [n for n in not_modelled if QUALITIES.get(bare(n)) is None
                        and bare(n) not in WEAPON_TYPES and bare(n) not in DAMAGE_TYPES]
        _keep_rules(card, text, not_modelled)
        self.counts["warjack_weapons"] += 1
        return card

    def _cypher(self, document: Document, entry: Element, faction: str) -> dict:
        profile = next(p for p in kids(entry, "profiles", "profile") if p.get("typeName") == "Cypher")
        chars = self._characteristics(document, profile, CYPHER_CHARS, numeric={"RNG", "POW"})
        suit = str(chars.get("Suit") or "").strip().lower()
        ctype = str(chars.get("Type") or "").strip().lower()
        if suit not in SUITS:
            raise self.leave_out(document, profile, f"unknown cypher suit {chars.get('Suit')!r}: left out (mapped: "
                                 + ", ".join(sorted(s.title() for s in SUITS)) + ")")
        if ctype not in CYPHER_TYPES:
            raise self.leave_out(document, profile, f"unknown cypher type {chars.get('Type')!r}: left out (mapped: "
                                 + ", ".join(sorted(t.title() for t in CYPHER_TYPES)) + ")")
        card = self._card(entry, "cypher", faction) | {"suit": suit, "cypher_type": ctype}
        qualities, others = self._qualities(document, entry)
        _abilities, _names, text = self._rules(document, entry)
        if ctype == "attack" and chars.get("RNG") is not None and chars.get("POW") is not None:
            card["effects"] = [{"kind": "attack", "rng": chars["RNG"], "pow": chars["POW"], "qualities": qualities}]
            not_modelled = others  # the attack is played; only the qualities the engine lacks are not
        else:
            card["effects"] = []
            not_modelled = [entry.get("name") or card["code"]]  # the text is kept; the effect is not played
        _keep_rules(card, text, not_modelled)
        self.counts["cyphers"] += 1
        self.counts[f"suit:{suit}"] += 1
        return card

    def _rack_cypher(self, document: Document, entry: Element, faction: str, suit: str) -> dict:
        """A cypher of the community files: an upgrade in a suit group, its one rule "-Cypher- Name" starting with
        "Suit:" and, for a Fury, "POW(n)" (or "POW(-)": no damage). A Fury with a POW is an attack (at FURY_RNG, an
        [interpretation]); every other cypher's text targets one friendly unit or model: an effect, kept as text."""
        if kids(entry, "profiles", "profile"):
            raise self.leave_out(document, entry, "a cypher in a suit group has no profile in the mapped shape: left "
                                                  "out")
        rules = kids(entry, "rules", "rule")
        if len(rules) != 1:
            raise self.leave_out(document, entry, "a cypher in a suit group needs exactly one rule (its text), found "
                                                  f"{len(rules)}: left out")
        text = "\n".join("".join(d.itertext()) for d in kids(rules[0], "description")).strip()
        head = re.match(r"\s*(\w+)\s*:", text)
        if head is None or CYPHER_GROUPS.get(head.group(1).lower()) != suit:
            raise self.leave_out(document, rules[0], f"a cypher in the {suit} group must start its text with its "
                                                     f"suit ({suit.title()}:), found {text[:20]!r}: left out")
        power = re.search(r"\bPOW\s*\(\s*(\d+|-)\s*\)", text)
        card = self._card(entry, "cypher", faction)
        if suit == "fury" and power is not None and power.group(1) != "-":
            card |= {"suit": suit, "cypher_type": "attack",
                     "effects": [{"kind": "attack", "rng": FURY_RNG, "pow": int(power.group(1)), "qualities": []}]}
            self.counts["fury_rng_interpreted"] += 1
        else:
            card |= {"suit": suit, "cypher_type": "attack" if suit == "fury" else "effect", "effects": []}
        name = re.sub(r"^\s*-Cypher-\s*", "", rules[0].get("name") or "") or entry.get("name") or card["code"]
        body = " ".join(text.split())
        _keep_rules(card, f"{name}: {body}", [name])
        self.counts["cyphers"] += 1
        self.counts[f"suit:{suit}"] += 1
        return card

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

    # --- formats and report --------------------------------------------------------------------------------------

    def _formats(self, package_slug: str) -> list[dict]:
        """One format per force entry, its slug prefixed with the package's (format slugs are unique in a system);
        none is the default, which stays the system's own (a package may not take it)."""
        formats = []
        copies = max(self.copies) if self.copies else None
        for category in kids(self.system.root, "categoryEntries", "categoryEntry"):
            name = (category.get("name") or "").strip().lower()
            if name in RACK_CATEGORIES and all(c.get("field") == "selections" and float(c.get("value") or 0) == 1
                                               for c in kids(category, "constraints", "constraint")):
                continue  # exactly one rack per roster: every Hangar list has its one rack (W3 counts its cyphers)
            if kids(category, "constraints", "constraint"):
                self.not_read[f"constraints of the category {category.get('name')}"] += 1
        for force in kids(self.system.root, "forceEntries", "forceEntry"):
            options: dict[str, Any] = {"single_faction": True}
            for link in kids(force, "categoryLinks", "categoryLink"):
                name = self.categories.get(link.get("targetId") or "")
                if name is None:
                    self.warn(self.system, link, f"links to category {link.get('targetId')!r}, which no file "
                                                 "defines: not read")
                    continue
                what = FORMAT_CATEGORIES.get(name.strip().lower())
                for constraint in kids(link, "constraints", "constraint"):
                    if what is None and name.strip().lower() in UNREAD_CATEGORIES \
                            and float(constraint.get("value") or 0) < 0:
                        continue  # no limit (-1) on the rack or the attachments: nothing to read
                    if what is None or constraint.get("field") != "selections":
                        self.not_read[f"force constraint on {name}"] += 1
                        continue
                    value = int(float(constraint.get("value") or 0))
                    if value < 0:  # -1: no limit
                        continue
                    low = constraint.get("type") == "min"
                    if what == "cyphers":
                        options["rack_min" if low else "rack_max"] = value
                    elif not low:
                        options[f"max_{what}"] = value
            if copies is not None:
                options["max_unit_copies"] = copies
            if self.suit_mins:
                options["rack_min_per_suit"] = min(self.suit_mins)
            name = force.get("name") or force.get("id") or "force"
            formats.append({"slug": f"{package_slug}-{slugify(name)}"[:64], "name": name, "name_en": name,
                            "options": options, "bs_id": force.get("id") or "", "battlescribe": self._force_facts(),
                            "description_en": f"From the BattleScribe force {name!r} (id {force.get('id')})."})
        return formats

    def _force_facts(self) -> dict:
        """What a roster of this force names: the game system and each faction's catalogue (id, name, revision),
        and the cost types."""
        root = self.system.root
        return {
            "game_system": {"id": root.get("id") or "", "name": root.get("name") or "",
                            "revision": int(root.get("revision") or 0)},
            "catalogues": [{"faction": slugify(d.root.get("name") or ""), "id": d.root.get("id") or "",
                            "name": d.root.get("name") or "", "revision": int(d.root.get("revision") or 0)}
                           for d in self.catalogues],
            "cost_types": [{"id": c.get("id") or "", "name": c.get("name") or ""}
                           for c in kids(root, "costTypes", "costType")],
        } | ({"rack": self.rack} if self.rack else {})  # the community files' one "Cyphers" rack selection

    # --- odd data and what is not read (parsing and reporting) ---------------------------------------------------

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


def _keep_rules(card: dict, text: str, not_modelled: list) -> None:
    """A card's rules text (English: BattleScribe data has no Japanese) and what the simulator plays only in part."""
    if text:
        card["text_en"] = card["text"] = text
    if not_modelled:
        card["not_modelled"] = not_modelled


# --- the BattleScribe data Hangar exports ---------------------------------------------------------------------------


def warjack_parts(cards: Iterable[Mapping[str, Any]], jack: Mapping[str, Any]) -> dict[str, list[str]]:
    """{"cortex": codes, "weapons": codes} a warjack's groups link to: the parts of its faction, universal and
    mercenary ones; every part when its faction has none."""
    parts: dict[str, list[str]] = {"cortex": [], "weapons": []}
    every: dict[str, list[str]] = {"cortex": [], "weapons": []}
    for card in cards:
        slot = {"cortex": "cortex", "weapon": "weapons"}.get(str(card.get("kind")))
        if slot is None:
            continue
        every[slot].append(str(card["code"]))
        if card.get("faction") in (jack.get("faction"), "universal", "mercenary"):  # mercenary: any faction (W6)
            parts[slot].append(str(card["code"]))
    return {slot: parts[slot] or every[slot] for slot in parts}


def _option_parts(entry: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, str]]:
    """A warjack's cortex (in its Cortex group) and weapons (in its Weapons group), as its entry's options name them."""
    options = entry.get("options") or {}
    parts = [options["cortex"]] if isinstance(options.get("cortex"), str) else []
    parts += [code for code in options.get("weapons") or [] if isinstance(code, str)]
    return [(code, "cortex" if (cards.get(code) or {}).get("kind") == "cortex" else "weapons") for code in parts]


def _add_option_part(options: dict[str, Any], part: Mapping[str, Any], code: str, copies: int) -> bool:
    """A cortex (the first one) or a warjack weapon chosen inside a warjack's selection, into its options."""
    if part.get("kind") == "cortex" and "cortex" not in options:
        options["cortex"] = code
    elif part.get("kind") == "weapon":
        options.setdefault("weapons", []).extend([code] * copies)
    else:
        return False
    return True


def _warjack_groups(card: Mapping[str, Any], cards: list[Mapping[str, Any]]) -> list[EntryGroup]:
    """A warjack's Cortex group (exactly one) and Weapons group (at most its weapon points of the Weapon Points
    cost), each linking to the parts it may take (warjack_parts)."""
    if card.get("kind") != "warjack":
        return []
    parts = warjack_parts(cards, card)
    return [EntryGroup("cortex", "Cortex", (("min", 1, ""), ("max", 1, "")), tuple(parts["cortex"])),
            EntryGroup("weapons", "Weapons", (("max", whole_number(card.get("weapon_points")), "wp"),),
                       tuple(parts["weapons"]))]


# Models with SPD MAT RAT DEF ARM FOC STR NUM DMG CST, weapons with TYP RNG POW, cyphers with their suit.
WARCASTER_MODEL_CHARS = ("SPD", "MAT", "RAT", "DEF", "ARM", "FOC", "STR", "NUM", "DMG", "CST")
WARCASTER_MODELS = ("hero", "solo", "squad", "warjack", "vehicle", "mantlet", "hero_attachment")
WARCASTER_PRIMARY = {"hero": "Hero", "solo": "Unit", "squad": "Unit", "warjack": "Unit", "vehicle": "Unit",
                     "mantlet": "Mantlet", "hero_attachment": "Attachments", "cypher": "Cyphers"}


def _weapon_values(weapon: Mapping[str, Any]) -> dict[str, str]:
    qualities = [title_of(q) for q in weapon.get("qualities") or []] + list(weapon.get("other_qualities") or [])
    return {"TYP": title_of(weapon.get("type")), "RNG": value_text(weapon.get("rng")), "POW": value_text(weapon.get("pow")),
            "Qualities": value_text(qualities)}


def _warcaster_profiles(card: Mapping[str, Any]) -> list[tuple[str, str, dict[str, str]]]:
    kind = card.get("kind")
    name = str(card.get("name_en") or card.get("name"))
    found: list[tuple[str, str, dict[str, str]]] = []
    if kind in WARCASTER_MODELS:
        stats = card.get("stats") or {}
        keys = {"SPD": "spd", "MAT": "mat", "RAT": "rat", "DEF": "def", "ARM": "arm", "FOC": "foc", "STR": "str",
                "NUM": "num", "DMG": "health"}
        values = {char: value_text(stats.get(key)) for char, key in keys.items()}
        values["CST"] = value_text(card.get("cst"))
        found.append(("Model", name, values))
        for weapon in card.get("weapons") or []:
            found.append(("Weapon", str(weapon.get("name_en") or weapon.get("name")), _weapon_values(weapon)))
    elif kind == "weapon":
        found.append(("Weapon", name, _weapon_values(card)))
    elif kind == "cypher":
        attack = next((e for e in card.get("effects") or [] if e.get("kind") == "attack"), {})
        found.append(("Cypher", name, {"Suit": title_of(card.get("suit")), "Type": title_of(card.get("cypher_type")),
                                       "RNG": value_text(attack.get("rng")), "POW": value_text(attack.get("pow"))}))
    return found


def _warcaster_categories(card: Mapping[str, Any]) -> list[Category]:
    primary = WARCASTER_PRIMARY.get(str(card.get("kind")))
    if primary is None:
        return []
    found = [Category(f"kind:{primary.lower()}", primary)]
    if card.get("kind") == "cypher" and card.get("suit"):
        found.append(Category(f"suit:{card.get('suit')}", title_of(card.get("suit"))))
    return found


def _warcaster_copies(card: Mapping[str, Any], options: Mapping[str, Any]) -> int | None:
    value = options.get("max_unit_copies")
    if card.get("kind") in ("solo", "squad", "warjack", "vehicle", "mantlet") and isinstance(value, int):
        return value
    return None


def _warcaster_limits(_system: str, options: Mapping[str, Any]) -> list[tuple[str, str, int]]:
    limits = []
    for key, category, kind in (("max_heroes", "kind:hero", "max"), ("max_units", "kind:unit", "max"),
                                ("max_mantlets", "kind:mantlet", "max"), ("rack_min", "kind:cyphers", "min"),
                                ("rack_max", "kind:cyphers", "max")):
        if isinstance(options.get(key), int):
            limits.append((category, kind, options[key]))
    per_suit = options.get("rack_min_per_suit")
    if isinstance(per_suit, int) and per_suit > 0:
        limits += [(f"suit:{suit}", "min", per_suit) for suit in ("fury", "geometric", "harmonic", "overdrive")]
    return limits




EXPORT = Game(
    cost_types=(("cst", "CST"), ("wp", "Weapon Points")),
    costs=lambda card: {"cst": whole_number(card.get("cst")),
                        "wp": whole_number(card.get("cost")) if card.get("kind") == "weapon" else 0},
    profile_types=(("Model", WARCASTER_MODEL_CHARS), ("Weapon", ("TYP", "RNG", "POW", "Qualities")),
                   ("Cypher", ("Suit", "Type", "RNG", "POW"))),
    profiles=_warcaster_profiles, categories=_warcaster_categories, section_categories=False,
    entry_type=lambda card: {"squad": "unit", "cypher": "upgrade", "cortex": "upgrade", "weapon": "upgrade"}.get(
        str(card.get("kind")), "model"),
    shared=lambda card: card.get("kind") in ("cortex", "weapon"), copies=_warcaster_copies,
    force_limits=_warcaster_limits, entry_groups=_warjack_groups, option_parts=_option_parts,
    add_option_part=_add_option_part)


# --- the community's rosters ----------------------------------------------------------------------------------------
# A roster is read against the packages imported from the community's data (read_community_data): each card and format
# keeps its BattleScribe id (`bs_id`) and what a roster's selection of it carries (`battlescribe`: the game system, the
# entry's type, categories and the catalogues' root links to it). Each selection of the force becomes an entry: a
# model in `force` (a squad attachment too: the data makes it a selection of its own beside its squad), a cypher in
# `rack` (through the data's one rack selection), and the selections inside a warjack its cortex and weapons
# (`options`), those inside a hero, solo or vehicle with weapon choices its weapons. The list formats call these
# (builder/listio/roster.py), and turn a RosterRefused into their own errors.

ROSTER_MODEL_KINDS = ("hero", "solo", "squad", "squad_attachment", "warjack", "vehicle", "mantlet")


def read_community_roster(root: Element, paths: ElementPaths, catalog: Catalog | None
                          ) -> tuple[dict[str, list[dict[str, Any]]], str | None]:
    """The sections and the format (slug, or None) of a community roster; raises RosterRefused with every problem."""
    return _RosterReader(root, paths, catalog).read()


def write_community_roster(doc: Mapping[str, Any], catalog: Catalog) -> bytes:
    """The roster XML of a normalised hangar.list/1 list of the game; raises RosterRefused naming every card that
    cannot go into a roster."""
    return _RosterWriter(doc, catalog).write()


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
