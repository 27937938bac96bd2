"""BattleScribe data (a game system `.gst`/`.gstz` and its catalogues `.cat`/`.catz`) → a Warcaster
`hangar.package/1` (docs/data-packages.md "BattleScribe data").

Reading: every file is parsed with defusedxml (no DTD, no entities: an upload cannot expand or fetch anything), then
checked against the published BattleScribe content model in either version's element order
(cards/battlescribe_schema.py). What is not BattleScribe data, a catalogue of another game system, or data that gives
nothing usable is refused with a `BattleScribeError` naming the file, the element path and the id (a refused import
writes nothing). Odd data in valid files (an unknown profile type, characteristic, hardpoint group, cypher suit or
type, weapon TYP, a value that is not a whole number, a link to an id no file defines, an id used twice, a weapon
linked to both Melee and Ranged...) is a warning (`Conversion.warnings`: file, element path, entry name and id): that
entry or link is read by a documented rule or left out. Elements of the model the mapping never uses are counted by
kind in the report (UNREAD_KINDS). What it reads:

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
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException

from cards import battlescribe_schema as bs_schema

from cards.safefiles import ArchiveBudget, FileRefused, parse_xml, read_zip

GST_NS = "http://www.battlescribe.net/schema/gameSystemSchema"
CAT_NS = "http://www.battlescribe.net/schema/catalogueSchema"
SYSTEM_SUFFIXES = (".gst", ".gstz")
CATALOGUE_SUFFIXES = (".cat", ".catz")
SUFFIXES = SYSTEM_SUFFIXES + CATALOGUE_SUFFIXES
MAX_FILE_BYTES = 20 * 1024 * 1024  # one unzipped file (a zip bomb stops here)
MAX_TOTAL_BYTES = 60 * 1024 * 1024
ZIP_BUDGET = ArchiveBudget(member_bytes=MAX_FILE_BYTES, total_bytes=MAX_TOTAL_BYTES)

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
FACTION_JA = {"iron-star-alliance": "鉄星同盟", "marcher-worlds": "辺境世界",
              "aeternus-continuum": "アエテルヌス・コンティニュアム", "empyreans": "エンピリアン", "mercenary": "傭兵"}


class BattleScribeError(Exception):
    """A refused BattleScribe file: which file, which element (path) and its id."""

    def __init__(self, file: str, path: str, element_id: str, message: str):
        self.file, self.path, self.element_id, self.message = file, path, element_id, message
        super().__init__(f"{file}: {path or '/'}" + (f" (id {element_id})" if element_id else "") + f": {message}")


@dataclass(frozen=True)
class SourceFile:
    name: str  # as shown in messages: the path, or "archive.zip!member"
    raw: bytes


@dataclass
class Document:
    """One parsed, valid file with each element's path and its nearest id (for messages)."""

    source: SourceFile
    root: Element
    paths: dict[int, str] = field(default_factory=dict)
    ids: dict[int, str] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)  # the name of the nearest element with an id

    def fail(self, element: Element, message: str) -> BattleScribeError:
        return BattleScribeError(self.source.name, self.paths.get(id(element), ""), self.ids.get(id(element), ""),
                                 message)


@dataclass
class Conversion:
    package: dict
    report: list[str]
    warnings: list[str] = field(default_factory=list)  # odd data read by a documented rule or left out
    origins: dict[str, str] = field(default_factory=dict)  # card code → "file: path ('name', id ...)"


class LeftOut(Exception):
    """Odd data in one entry (or link): the entry is left out of the package; the warning is already recorded."""


def is_battlescribe(paths: Iterable[Path | str]) -> bool:
    """The paths name BattleScribe data (a folder, a .zip or .gst/.gstz/.cat/.catz files), not a package JSON."""
    return any(Path(p).is_dir() or Path(p).suffix.lower() in SUFFIXES + (".zip",) for p in paths)


# --- reading files ------------------------------------------------------------------------------------------------


def read_sources(paths: Iterable[Path | str]) -> list[SourceFile]:
    """The game system and catalogue files of the given folders, zips and files (zipped ones unzipped), refused as
    soon as they hold more than MAX_TOTAL_BYTES together (counted while unzipping)."""
    paths = list(paths)
    sources: list[SourceFile] = []

    def add(found: list[SourceFile]) -> None:
        sources.extend(found)
        if sum(len(s.raw) for s in sources) > MAX_TOTAL_BYTES:
            raise BattleScribeError(found[-1].name if found else ", ".join(str(p) for p in paths), "", "",
                                    f"more than {MAX_TOTAL_BYTES} bytes of data in all (the limit)")

    for raw_path in paths:
        path = Path(raw_path)
        spent = sum(len(s.raw) for s in sources)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in SUFFIXES)
            if not found:
                raise BattleScribeError(str(path), "", "", "no .gst/.gstz/.cat/.catz file in this folder")
            for file in found:
                add([_file_source(file, sum(len(s.raw) for s in sources))])
        elif path.suffix.lower() == ".zip":
            add(_zip_sources(path, _read(path), str(path), already=spent))
        elif path.suffix.lower() in SUFFIXES:
            add([_file_source(path, spent)])
        else:
            raise BattleScribeError(str(path), "", "", "not a BattleScribe file (.gst, .gstz, .cat, .catz or .zip)")
    return sources


def _read(path: Path) -> bytes:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise BattleScribeError(str(path), "", "", f"file is larger than {MAX_FILE_BYTES} bytes")
        return path.read_bytes()
    except OSError as exc:
        raise BattleScribeError(str(path), "", "", f"cannot read the file: {exc.strerror or exc}") from exc


def _file_source(path: Path, already: int = 0) -> SourceFile:
    raw = _read(path)
    if path.suffix.lower() in (".gstz", ".catz"):
        members = _zip_sources(path, raw, str(path), already=already)
        if len(members) != 1:
            raise BattleScribeError(str(path), "", "", "a zipped .gstz/.catz must hold exactly one .gst/.cat file")
        return SourceFile(str(path), members[0].raw)
    return SourceFile(str(path), raw)


def _zip_sources(path: Path, raw: bytes, name: str, *, nested: bool = False, already: int = 0) -> list[SourceFile]:
    """The .gst/.cat files of a zip (a .gstz/.catz inside is opened too), read in chunks against ZIP_BUDGET: a member
    past MAX_FILE_BYTES, all of them past MAX_TOTAL_BYTES, or a member compressed more than 200 to 1 stops the
    reading as soon as its bytes come out of the decompressor. A zip inside a zip inside a zip is refused."""
    if nested:
        raise BattleScribeError(name, "", "", "a zip inside a zipped file (one level of zip in a zip at most)")
    zipped_here = Path(name.rsplit("!", 1)[-1]).suffix.lower() in (".gstz", ".catz")  # a .gstz holds a .gst only
    try:
        members = read_zip(raw, name, ZIP_BUDGET, want=lambda member: Path(member).suffix.lower() in SUFFIXES,
                           already=already)
    except FileRefused as exc:
        raise BattleScribeError(exc.where, "", "", exc.message) from None
    found: list[SourceFile] = []
    for member, content in members:
        source = SourceFile(f"{name}!{member}", content)
        zipped = Path(member).suffix.lower() in (".gstz", ".catz")
        found += _zip_sources(path, source.raw, source.name, nested=zipped_here,
                              already=already + sum(len(s.raw) for s in found)) if zipped else [source]
    if not found:
        raise BattleScribeError(name, "", "", "no .gst/.cat file in this zip")
    return found


def parse(source: SourceFile) -> Document:
    """Well-formed (defusedxml: no DTD or entities, depth ≤ 100), then within the published BattleScribe content
    model (cards.battlescribe_schema.check: either version's element order)."""
    try:
        root = parse_xml(source.raw)
    except FileRefused as exc:
        raise BattleScribeError(source.name, exc.path, "", exc.message) from exc
    except ParseError as exc:
        line, column = getattr(exc, "position", (0, 0))
        raise BattleScribeError(source.name, "", "", f"not well-formed XML (line {line}, column {column + 1})") from exc
    except DefusedXmlException as exc:
        raise BattleScribeError(source.name, "", "", f"refused: the file uses a DTD or entities ({exc})") from exc
    document = Document(source, root)
    _index(document, root, "/" + _local(root.tag), "")
    kind = bs_schema.root_kind(root)
    if kind not in ("gameSystem", "catalogue"):
        raise document.fail(root, f"not a BattleScribe game system or catalogue (root element {root.tag!r})")
    try:
        bs_schema.check(root)
    except bs_schema.SchemaRefusal as exc:
        raise BattleScribeError(source.name, exc.path, _near_id(document, exc.path),
                                f"not valid against the published BattleScribe {kind} schema: {exc.message}") from None
    return document


def _near_id(document: Document, path: str) -> str:
    """The nearest id of the element at `path` (or of its nearest indexed ancestor)."""
    by_path = {p: i for i, p in document.paths.items()}
    while path:
        if path in by_path:
            return document.ids.get(by_path[path], "")
        path = path.rsplit("/", 1)[0]
    return ""


def _local(tag: str) -> str:
    return tag.split("}")[-1]


def _index(document: Document, root: Element, path: str, near_id: str) -> None:
    """Each element's path and nearest id (its own or an ancestor's), walked without recursion."""
    todo = [(root, path, near_id, "")]
    while todo:
        element, path, near_id, near_name = todo.pop()
        if element.get("id"):
            near_id, near_name = element.get("id") or "", element.get("name") or ""
        document.paths[id(element)] = path
        document.ids[id(element)] = near_id
        document.names[id(element)] = near_name
        counts: Counter[str] = Counter()
        for child in element:
            name = _local(child.tag)
            counts[name] += 1
            todo.append((child, f"{path}/{name}[{counts[name]}]", near_id, near_name))


def kids(element: Element, *names: str) -> list[Element]:
    """The children at the path of local names, e.g. kids(entry, "profiles", "profile")."""
    found = [element]
    for name in names:
        found = [child for parent in found for child in parent if _local(child.tag) == name]
    return found


# --- the mapping --------------------------------------------------------------------------------------------------


def slugify(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug or "x"


def card_code(bs_id: str) -> str:
    return "BS-" + (re.sub(r"[^A-Z0-9]+", "-", bs_id.upper()).strip("-") or "X")


def convert(paths: Iterable[Path | str]) -> Conversion:
    """Read, validate and map the files; raises BattleScribeError at the first thing refused."""
    paths = list(paths)
    documents = [parse(source) for source in read_sources(paths)]
    systems = [d for d in documents if _local(d.root.tag) == "gameSystem"]
    catalogues = [d for d in documents if _local(d.root.tag) == "catalogue"]
    if len(systems) != 1:
        where = ", ".join(d.source.name for d in systems) or ", ".join(str(p) for p in paths)
        raise BattleScribeError(where, "", "", f"expected exactly one game system (.gst/.gstz), found {len(systems)}")
    if not catalogues:
        raise BattleScribeError(systems[0].source.name, "", "", "no catalogue (.cat/.catz) given with the game system")
    from cards.battlescribe_hangar import hangar_conversion, hangar_system  # data Hangar exported, of any game

    if hangar_system(systems[0]) is not None:
        return hangar_conversion(systems[0], catalogues)
    return Mapper(systems[0], catalogues).run()


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
                           if _local(el.tag) == "categoryEntry"}
        self.rules = {i: el for i, (_d, el) in self.elements.items() if _local(el.tag) == "rule"}
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
            if target is not None and _local(target.tag) == "cost" and _local(owner.tag) == "entryLink":
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
        if owner is None or _local(owner.tag) != "selectionEntry" or _local(target.tag) != "constraint" \
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
            if _local(element.tag) == "modifiers":
                self.modifiers += [(document, element, modifier) for modifier in kids(element, "modifier")]
            self._count_unread(element)
            if _local(element.tag) == "profile" and element.get("id"):
                self.profiles.setdefault(element.get("id") or "", element)
            if _local(element.tag) in ("selectionEntry", "selectionEntryGroup", "rule", "categoryEntry") \
                    and element.get("id"):
                known = self.elements.get(element.get("id") or "")
                if known is not None:
                    self.warn(document, element, f"id {element.get('id')!r} is used twice: this "
                                                 f"{_local(element.tag)} is left out, the first one is read "
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
                if _local(group.tag) != "selectionEntryGroup":
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
        while owner is not None and _local(owner.tag) != "selectionEntry":
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
        name = _local(element.tag)
        why = UNREAD_KINDS.get(name)
        if why is not None:
            self.unread_kinds[f"{name} ({why})"] += 1
        parent_kind = INFO_ON_LINKS.get(name)
        if parent_kind is not None:
            for child in element:
                what = _local(child.tag)
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


CARD_PROBLEM = re.compile(r"^card (\S+?)[,:] ")


def leave_out_refused_cards(conversion: Conversion, check: Any, rounds: int = 20) -> None:
    """Odd data the package checks refuse in one card (a stat beyond the game's bounds, a range past the table...):
    that card is left out with a warning naming its entry, as other odd data is; `check(package) -> [messages]` is
    the ordinary package check (cards.package_validation.check_package). Problems that are not one card's stay for
    the import to refuse. Repeated while leaving a card out makes another card's problem appear (a reference)."""
    package = conversion.package
    for _ in range(rounds):
        problems: dict[str, list[str]] = {}
        for message in check(package):
            match = CARD_PROBLEM.match(message)
            if match is not None and any(card["code"] == match.group(1) for card in package["cards"]):
                problems.setdefault(match.group(1), []).append(message)
        if not problems:
            return
        package["cards"] = [card for card in package["cards"] if card["code"] not in problems]
        for opponent in package.get("opponents", []):
            opponent["units"] = [unit for unit in opponent["units"] if unit["card"] not in problems]
        package["opponents"] = [o for o in package.get("opponents", []) if o["units"]]
        if not package["opponents"]:
            package.pop("opponents", None)
        for code, messages in problems.items():
            where = conversion.origins.get(code, code)
            conversion.warnings.append(f"{where}: outside what a package allows ({'; '.join(messages)}): the card "
                                       "is left out")
        if not package["cards"]:
            raise BattleScribeError(where.split(": ")[0], "", "", "nothing usable could be read: every card is "
                                    "outside what a package allows")


def _revision(value: str | None) -> int:
    return int(value) if value and value.isdigit() else 0


def _keep_rules(card: dict, text: str, not_modelled: list) -> None:
    """A card's rules text (English: BattleScribe data has no Japanese) and what the simulator plays only in part."""
    if text:
        card["text_en"] = card["text"] = text
    if not_modelled:
        card["not_modelled"] = not_modelled
