"""A data package of any game → BattleScribe data: a game system (`.gst`) and a catalogue (`.cat`)
(docs/data-packages.md "BattleScribe data out").

What the files hold, per game (the game's words from the registry, rules_engine/systems.py, and how its cards look
from the game's BattleScribe part, rules_engine/<game>/battlescribe.py `EXPORT`, a `Game`):

- ids derived from the game and the card codes (`hangar_id`): the same package gives the same ids every time, and a
  list exported as a roster (builder/listio/hangar_roster.py) names the same ids without the files at hand;
- the game's costs as cost types (HAGMI Cost, MWDA Points, Warcaster CST and Weapon Points);
- its categories (HAGMI's decks and card categories, MWDA's army, unit kinds and factions, Warcaster's Hero, Unit,
  Mantlet, Attachments, Cyphers and the cypher suits), each card linked to its own;
- profiles that show each card's numbers in BattleScribe / New Recruit, and its rules text;
- each format as a force entry whose category links carry the format's limits as constraints (HAGMI deck minimums,
  Warcaster heroes/units/mantlets/rack sizes, MWDA's point limit as a constraint on the Points cost), the copies of
  a card as the entry's roster constraint, and the format's text as the force's rule;
- the groups of choices a game puts inside a card's entry (`Game.entry_groups`: a Warcaster warjack's Cortex and
  Weapons groups, linking to the cortex and weapon entries, its weapon points as a max constraint on the Weapon
  Points cost);
- and, for Hangar to read back (rules_engine/formats/battlescribe/hangar.py): each card's own JSON in a "Hangar card"
  profile, the package's other parts (formats, opponents, factions, title...) in a "Hangar package" shared profile.

The XML is written in the element order of the published schema (BSData schemas, vNext Catalogue.xsd);
`order_problems` checks a tree against that order. Pure Python: no Django.
"""
from __future__ import annotations

import hashlib
import io
import json
import zipfile
from dataclasses import dataclass
from typing import Any, Callable, Mapping
from xml.etree import ElementTree as ET
from xml.etree.ElementTree import Element

from rules_engine.formats import game_part
from rules_engine.systems import SYSTEMS

GST_NS = "http://www.battlescribe.net/schema/gameSystemSchema"
CAT_NS = "http://www.battlescribe.net/schema/catalogueSchema"
ROSTER_NS = "http://www.battlescribe.net/schema/rosterSchema"
BATTLESCRIBE_VERSION = "2.03"
REVISION = 1
HANGAR_CARD = "Hangar card"  # profile type: one characteristic, the card's JSON
HANGAR_PACKAGE = "Hangar package"  # profile type: the package without its cards, as JSON
JSON_CHARACTERISTIC = "JSON"
ZIP_DATE = (2026, 1, 1, 0, 0, 0)  # a fixed date: the same package zips to the same bytes


def hangar_id(*parts: str) -> str:
    """A BattleScribe-style id (four groups of four hex digits) derived from its parts, e.g.
    hangar_id("hagmi", "entry", "HS-001"): the same parts give the same id."""
    digest = hashlib.sha256("\x1f".join(("hangar", *parts)).encode("utf-8")).hexdigest()
    return "-".join(digest[i:i + 4] for i in range(0, 16, 4))


def system_id(system: str) -> str:
    return hangar_id(system, "gameSystem")


def catalogue_id(system: str, package_slug: str) -> str:
    return hangar_id(system, "catalogue", package_slug)


def entry_id(system: str, code: str) -> str:
    return hangar_id(system, "entry", code)


def force_id(system: str, format_slug: str) -> str:
    return hangar_id(system, "force", format_slug)


def category_id(system: str, key: str) -> str:
    return hangar_id(system, "category", key)


def cost_type_id(system: str, key: str) -> str:
    return hangar_id(system, "costType", key)


def group_id(system: str, code: str, slot: str) -> str:
    return hangar_id(system, "group", code, slot)


def link_id(system: str, owner: str, target: str) -> str:
    return hangar_id(system, "link", owner, target)


def system_name(system: str) -> str:
    return f"{SYSTEMS[system].name} (Hangar)"


def profile_type_id(system: str, name: str) -> str:
    return hangar_id(system, "profileType", name)


def characteristic_type_id(system: str, profile: str, name: str) -> str:
    return hangar_id(system, "characteristicType", profile, name)


# --- the games ------------------------------------------------------------------------------------------------------


def value_text(value: Any) -> str:
    """A value as a profile's characteristic shows it: "-" for none, a list comma-separated."""
    if value is None or value == "" or value == []:
        return "-"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value)


def title_of(slug: Any) -> str:
    """A slug in title case ("hero_attachment" -> "Hero Attachment")."""
    return str(slug or "").replace("_", " ").replace("-", " ").title()


def whole_number(value: Any) -> int:
    """A cost as BattleScribe counts it: the whole number, 0 for anything else."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


@dataclass(frozen=True)
class Category:
    key: str
    name: str
    primary: bool = False


@dataclass(frozen=True)
class Game:
    """How one game's cards look in BattleScribe data."""

    cost_types: tuple[tuple[str, str], ...]  # (key, name)
    costs: Callable[[Mapping[str, Any]], dict[str, int]]  # card → {cost key: value}
    profile_types: tuple[tuple[str, tuple[str, ...]], ...]  # (name, characteristic names)
    profiles: Callable[[Mapping[str, Any]], list[tuple[str, str, dict[str, str]]]]  # card → (type, name, values)
    categories: Callable[[Mapping[str, Any]], list[Category]]  # card → its categories, primary first
    section_categories: bool  # each list section is a category (a roster's selection names its section by it)
    entry_type: Callable[[Mapping[str, Any]], str]
    shared: Callable[[Mapping[str, Any]], bool]  # the card is not taken at the root of a force (a part, an opponent)
    copies: Callable[[Mapping[str, Any], Mapping[str, Any]], int | None]  # (card, format options) → max copies
    force_limits: Callable[[str, Mapping[str, Any]], list[tuple[str, str, int]]]  # options → (category, min|max, n)
    # (card, the package's cards) → the selection entry groups inside the card's entry (Warcaster's warjack: its Cortex
    # and Weapons groups, linking to the parts it may take)
    entry_groups: Callable[[Mapping[str, Any], list[Mapping[str, Any]]], list["EntryGroup"]] = lambda card, cards: []
    # A list entry's chosen parts (its `options`: Warcaster's cortex and warjack weapons) as (part code, the key of the
    # entry group it is chosen in), one per part; and back, a part read inside an entry's selection put into its
    # options `copies` times (False: the entry takes no such part). A roster of Hangar's data reads and writes them
    # (builder/listio/hangar_roster.py).
    option_parts: Callable[[Mapping[str, Any], Mapping[str, Mapping[str, Any]]], list[tuple[str, str]]] = \
        lambda entry, cards: []
    add_option_part: Callable[[dict[str, Any], Mapping[str, Any], str, int], bool] = \
        lambda options, part, code, copies: False


@dataclass(frozen=True)
class EntryGroup:
    """A group of choices inside a card's entry: its key (in ids), its name, its limits as (min|max, value, cost key:
    "" counts the selections in it, a cost key the cost of what is chosen), and the codes of the entries it links."""

    key: str
    name: str
    limits: tuple[tuple[str, int, str], ...]
    targets: tuple[str, ...]


def game(system: str) -> Game:
    """The game's shape, as its BattleScribe part declares it (its registry entry's `data_formats`, the part's
    EXPORT); a game without one (a future game) gets its sections, its cost and the card's JSON."""
    part = game_part("battlescribe", system)
    shape = getattr(part, "EXPORT", None) if part is not None else None
    if isinstance(shape, Game):
        return shape
    entry = SYSTEMS[system]
    return Game(cost_types=(("cost", "Cost"),), costs=lambda card: {"cost": entry.card_cost(card) or 0},
                profile_types=(), profiles=lambda card: [], categories=lambda card: [], section_categories=True,
                entry_type=lambda card: "upgrade", shared=lambda card: False, copies=lambda card, options: None,
                force_limits=lambda system, options: [])


def section_category(system: str, section: str) -> Category:
    label = SYSTEMS[system].section_labels.get(section)
    return Category(f"section:{section}", str(label.en) if label is not None else title_of(section))


def card_categories(system: str, card: Mapping[str, Any]) -> list[Category]:
    """The card's categories, its primary one first: its home section's (games whose sections are categories), then
    the game's own."""
    shape = game(system)
    found: list[Category] = []
    if shape.section_categories and not shape.shared(card):
        found.append(section_category(system, SYSTEMS[system].default_section(card)))
    found += shape.categories(card)
    if found:
        found[0] = Category(found[0].key, found[0].name, primary=True)
    return found


def card_costs(system: str, card: Mapping[str, Any]) -> list[tuple[str, str, int]]:
    """(cost type id, name, value) of every cost type of the game."""
    shape = game(system)
    values = shape.costs(card)
    return [(cost_type_id(system, key), name, values.get(key, 0)) for key, name in shape.cost_types]


# --- writing --------------------------------------------------------------------------------------------------------


def canonical(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


class _Writer:
    def __init__(self, package: Mapping[str, Any]):
        self.package = package
        self.system = str(package["system"])
        self.shape = game(self.system)
        self.cards = list(package.get("cards") or [])
        self.formats = list(package.get("formats") or [])

    def _sub(self, parent: Element, tag: str, attrs: Mapping[str, Any] | None = None, text: str | None = None
             ) -> Element:
        element = ET.SubElement(parent, f"{{{self.ns}}}{tag}", {k: str(v) for k, v in (attrs or {}).items()})
        if text is not None:
            element.text = text
        return element

    def _categories(self) -> list[Category]:
        """Every category of the game system: the sections (when they are categories), then the cards' own."""
        found: dict[str, Category] = {}
        if self.shape.section_categories:
            for section in SYSTEMS[self.system].section_keys:
                category = section_category(self.system, section)
                found[category.key] = category
        for card in self.cards:
            for category in card_categories(self.system, card):
                found.setdefault(category.key, Category(category.key, category.name))
        for fmt in self.formats:
            for key, _kind, _value in self.shape.force_limits(self.system, fmt.get("options") or {}):
                if not key.startswith("cost:") and key not in found:
                    found[key] = Category(key, title_of(key.split(":", 1)[1]))
        return list(found.values())

    def game_system(self) -> Element:
        self.ns = GST_NS
        ET.register_namespace("", GST_NS)
        root = Element(f"{{{GST_NS}}}gameSystem", {
            "id": system_id(self.system), "name": system_name(self.system), "revision": str(REVISION),
            "battleScribeVersion": BATTLESCRIBE_VERSION, "authorName": "Hangar"})
        self._sub(root, "readme", text=f"{SYSTEMS[self.system].name} / {SYSTEMS[self.system].name_ja}: exported by "
                                       "Hangar. Each entry's hidden \"Hangar card\" profile holds the card as Hangar "
                                       "reads it.")
        cost_types = self._sub(root, "costTypes")
        for key, name in self.shape.cost_types:
            self._sub(cost_types, "costType", {"id": cost_type_id(self.system, key), "name": name,
                                               "defaultCostLimit": "-1"})
        profile_types = self._sub(root, "profileTypes")
        for name, characteristics in (*self.shape.profile_types, (HANGAR_CARD, (JSON_CHARACTERISTIC,)),
                                      (HANGAR_PACKAGE, (JSON_CHARACTERISTIC,))):
            profile_type = self._sub(profile_types, "profileType", {"id": profile_type_id(self.system, name),
                                                                    "name": name})
            types = self._sub(profile_type, "characteristicTypes")
            for char in characteristics:
                self._sub(types, "characteristicType", {
                    "id": characteristic_type_id(self.system, name, char), "name": char})
        categories = self._categories()
        entries = self._sub(root, "categoryEntries")
        for category in categories:
            self._sub(entries, "categoryEntry", {"id": category_id(self.system, category.key), "name": category.name,
                                                 "hidden": "false"})
        forces = self._sub(root, "forceEntries")
        for fmt in self.formats:
            self._force(forces, fmt, categories)
        return root

    def _force(self, parent: Element, fmt: Mapping[str, Any], categories: list[Category]) -> None:
        slug = str(fmt["slug"])
        force = self._sub(parent, "forceEntry", {"id": force_id(self.system, slug),
                                                 "name": str(fmt.get("name_en") or fmt.get("name") or slug),
                                                 "hidden": "false"})
        limits = self.shape.force_limits(self.system, fmt.get("options") or {})
        costs = [(key, kind, value) for key, kind, value in limits if key.startswith("cost:")]
        if costs:
            constraints = self._sub(force, "constraints")
            for key, kind, value in costs:
                cost_key = key.split(":", 1)[1]
                self._sub(constraints, "constraint", {
                    "type": kind, "value": str(value), "field": cost_type_id(self.system, cost_key), "scope": "roster",
                    "shared": "true", "id": hangar_id(self.system, "constraint", slug, key, kind)})
        text = str(fmt.get("description_en") or fmt.get("description") or "")
        if text:
            rules = self._sub(force, "rules")
            rule = self._sub(rules, "rule", {"id": hangar_id(self.system, "rule", "format", slug),
                                             "name": str(fmt.get("name_en") or fmt.get("name") or slug),
                                             "hidden": "false"})
            self._sub(rule, "description", text=text)
        links = self._sub(force, "categoryLinks")
        for category in categories:
            link = self._sub(links, "categoryLink", {
                "id": hangar_id(self.system, "forceCategory", slug, category.key), "name": category.name,
                "hidden": "false", "targetId": category_id(self.system, category.key), "primary": "false"})
            own = [(kind, value) for key, kind, value in limits if key == category.key]
            if own:
                constraints = self._sub(link, "constraints")
                for kind, value in own:
                    self._sub(constraints, "constraint", {
                        "type": kind, "value": str(value), "field": "selections", "scope": "parent", "shared": "true",
                        "id": hangar_id(self.system, "constraint", slug, category.key, kind)})

    def catalogue(self) -> Element:
        self.ns = CAT_NS
        ET.register_namespace("", CAT_NS)
        slug = str(self.package["slug"])
        root = Element(f"{{{CAT_NS}}}catalogue", {
            "id": catalogue_id(self.system, slug), "name": str(self.package.get("title") or slug),
            "revision": str(REVISION), "battleScribeVersion": BATTLESCRIBE_VERSION, "authorName": "Hangar",
            "library": "false", "gameSystemId": system_id(self.system), "gameSystemRevision": str(REVISION)})
        description = str(self.package.get("description") or "")
        if description:
            self._sub(root, "readme", text=description)
        roots = [c for c in self.cards if not self.shape.shared(c)]
        shared = [c for c in self.cards if self.shape.shared(c)]
        if roots:
            entries = self._sub(root, "selectionEntries")
            for card in roots:
                self._entry(entries, card)
        if shared:
            entries = self._sub(root, "sharedSelectionEntries")
            for card in shared:
                self._entry(entries, card)
        envelope = {key: value for key, value in self.package.items() if key != "cards"}
        profiles = self._sub(root, "sharedProfiles")
        self._profile(profiles, hangar_id(self.system, "package", slug), slug, HANGAR_PACKAGE,
                      {JSON_CHARACTERISTIC: canonical({"package": envelope,
                                                       "order": [c["code"] for c in self.cards]})})
        return root

    def _profile(self, parent: Element, pid: str, name: str, type_name: str, values: Mapping[str, str]) -> None:
        hidden = "true" if type_name in (HANGAR_CARD, HANGAR_PACKAGE) else "false"  # for Hangar, not for players
        profile = self._sub(parent, "profile", {"id": pid, "name": name, "hidden": hidden,
                                                "typeId": profile_type_id(self.system, type_name),
                                                "typeName": type_name})
        characteristics = self._sub(profile, "characteristics")
        for char, value in values.items():
            self._sub(characteristics, "characteristic",
                      {"name": char, "typeId": characteristic_type_id(self.system, type_name, char)}, text=value)

    def _entry(self, parent: Element, card: Mapping[str, Any]) -> None:
        code = str(card["code"])
        entry = self._sub(parent, "selectionEntry", {
            "id": entry_id(self.system, code), "name": str(card.get("name_en") or card.get("name") or code),
            "hidden": "false", "collective": "false", "import": "true", "type": self.shape.entry_type(card)})
        copies = [n for n in (self.shape.copies(card, f.get("options") or {}) for f in self.formats) if n]
        if copies:
            constraints = self._sub(entry, "constraints")
            self._sub(constraints, "constraint", {
                "type": "max", "value": str(max(copies)), "field": "selections", "scope": "roster", "shared": "true",
                "id": hangar_id(self.system, "constraint", code, "copies")})
        profiles = self._sub(entry, "profiles")
        for index, (type_name, name, values) in enumerate(self.shape.profiles(card)):
            self._profile(profiles, hangar_id(self.system, "profile", code, str(index)), name, type_name, values)
        self._profile(profiles, hangar_id(self.system, "profile", code, "hangar"), code, HANGAR_CARD,
                      {JSON_CHARACTERISTIC: canonical(card)})
        text = rulesvalue_text(card)
        if text:
            rules = self._sub(entry, "rules")
            rule = self._sub(rules, "rule", {"id": hangar_id(self.system, "rule", code),
                                             "name": str(card.get("name_en") or card.get("name") or code),
                                             "hidden": "false"})
            self._sub(rule, "description", text=text)
        categories = card_categories(self.system, card)
        if categories:
            links = self._sub(entry, "categoryLinks")
            for category in categories:
                self._sub(links, "categoryLink", {
                    "id": hangar_id(self.system, "cardCategory", code, category.key), "name": category.name,
                    "hidden": "false", "targetId": category_id(self.system, category.key),
                    "primary": "true" if category.primary else "false"})
        groups = self.shape.entry_groups(card, self.cards)
        if groups:
            self._groups(entry, card, groups)
        costs = self._sub(entry, "costs")
        for type_id, name, value in card_costs(self.system, card):
            self._sub(costs, "cost", {"name": name, "typeId": type_id, "value": f"{float(value)}"})

    def _groups(self, entry: Element, card: Mapping[str, Any], found: list[EntryGroup]) -> None:
        code = str(card["code"])
        groups = self._sub(entry, "selectionEntryGroups")
        for found_group in found:
            group = self._sub(groups, "selectionEntryGroup", {
                "id": group_id(self.system, code, found_group.key), "name": found_group.name, "hidden": "false",
                "collective": "false", "import": "true"})
            constraints = self._sub(group, "constraints")
            for kind, value, cost_key in found_group.limits:
                self._sub(constraints, "constraint", {
                    "type": kind, "value": str(value),
                    "field": cost_type_id(self.system, cost_key) if cost_key else "selections", "scope": "parent",
                    "shared": "true", "id": hangar_id(self.system, "constraint", code, found_group.key, kind)})
            links = self._sub(group, "entryLinks")
            for target in found_group.targets:
                self._sub(links, "entryLink", {
                    "id": link_id(self.system, code, target), "name": self._name(target), "hidden": "false",
                    "collective": "false", "import": "true", "targetId": entry_id(self.system, target),
                    "type": "selectionEntry"})

    def _name(self, code: str) -> str:
        card = next((c for c in self.cards if c.get("code") == code), {})
        return str(card.get("name_en") or card.get("name") or code)


def rulesvalue_text(card: Mapping[str, Any]) -> str:
    """A card's rules in words: its own text, then each skill's or ability's (in English where it has one)."""
    lines = []
    own = card.get("text_en") or card.get("text")
    if own:
        lines.append(str(own))
    for key in ("skills", "abilities"):
        for item in card.get(key) or []:
            if not isinstance(item, Mapping):
                lines.append(title_of(item))
                continue
            name = item.get("name_en") or item.get("name") or title_of(item.get("kind"))
            text = item.get("text_en") or item.get("text")
            lines.append(f"{name}: {text}" if text else str(name))
    for stage in card.get("attrition") or []:
        if isinstance(stage, Mapping) and (stage.get("text_en") or stage.get("text")):
            lines.append(str(stage.get("text_en") or stage.get("text")))
    return "\n".join(lines)


def _xml(root: Element) -> bytes:
    ET.indent(root)
    return b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + ET.tostring(root, encoding="utf-8") + b"\n"


def export_names(system: str, slug: str, *, zipped: bool = False) -> tuple[str, str]:
    """The file names of a package's game system and catalogue."""
    z = "z" if zipped else ""
    return f"hangar-{system}.gst{z}", f"hangar-{system}-{slug}.cat{z}"


def export_package(package: Mapping[str, Any], *, zipped: bool = False) -> dict[str, bytes]:
    """{file name: bytes} of a `hangar.package/1` document as BattleScribe data: the game system and the catalogue
    (each zipped alone as .gstz/.catz when `zipped`). The same package gives the same bytes."""
    if package.get("system") not in SYSTEMS:
        raise ValueError(f"unknown game system {package.get('system')!r}; known: {', '.join(SYSTEMS)}")
    writer = _Writer(package)
    gst_name, cat_name = export_names(str(package["system"]), str(package["slug"]), zipped=zipped)
    files = {gst_name.rstrip("z"): _xml(writer.game_system()), cat_name.rstrip("z"): _xml(writer.catalogue())}
    if not zipped:
        return files
    return {f"{name}z": _zip({name: raw}) for name, raw in files.items()}


def _zip(files: Mapping[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, raw in files.items():
            archive.writestr(zipfile.ZipInfo(name, ZIP_DATE), raw, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def export_zip(package: Mapping[str, Any]) -> bytes:
    """One .zip holding the package's .gst and .cat (what the package page offers for download)."""
    return _zip(export_package(package))


# --- the published schema's element order ---------------------------------------------------------------------------

_ENTRY = ("comment", "modifiers", "modifierGroups")
_CONTAINER = _ENTRY + ("constraints", "profiles", "rules", "infoGroups", "infoLinks")
_SELECTION_BASE = _CONTAINER + ("categoryLinks", "selectionEntries", "selectionEntryGroups", "entryLinks")
_CATALOGUE_BASE = ("comment", "readme", "publications", "costTypes", "profileTypes", "categoryEntries",
                   "forceEntries", "selectionEntries", "entryLinks", "rules", "infoLinks", "sharedSelectionEntries",
                   "sharedSelectionEntryGroups", "sharedRules", "sharedProfiles", "sharedInfoGroups")
_ROSTER_ELEMENT = ("customNotes", "rules", "profiles")
_LISTS = {  # a list element → its one child element
    "publications": "publication", "costTypes": "costType", "profileTypes": "profileType",
    "characteristicTypes": "characteristicType", "categoryEntries": "categoryEntry", "forceEntries": "forceEntry",
    "selectionEntries": "selectionEntry", "sharedSelectionEntries": "selectionEntry", "entryLinks": "entryLink",
    "rules": "rule", "sharedRules": "rule", "infoLinks": "infoLink", "infoGroups": "infoGroup",
    "sharedInfoGroups": "infoGroup", "selectionEntryGroups": "selectionEntryGroup",
    "sharedSelectionEntryGroups": "selectionEntryGroup", "profiles": "profile", "sharedProfiles": "profile",
    "characteristics": "characteristic", "constraints": "constraint", "categoryLinks": "categoryLink",
    "costs": "cost", "costLimits": "costLimit", "modifiers": "modifier", "modifierGroups": "modifierGroup",
    "conditions": "condition", "conditionGroups": "conditionGroup", "repeats": "repeat", "forces": "force",
    "selections": "selection", "categories": "category", "catalogueLinks": "catalogueLink", "tags": "tag",
}
# An element → the sequence of its children in vNext Catalogue.xsd (BSData schemas), ancestors' types first.
VNEXT_ORDER: dict[str, tuple[str, ...]] = {
    "gameSystem": _CATALOGUE_BASE, "catalogue": _CATALOGUE_BASE + ("catalogueLinks",),
    "publication": ("comment",), "costType": ("comment",), "characteristicType": ("comment",),
    "profileType": ("comment", "characteristicTypes"), "profile": _ENTRY + ("characteristics",),
    "rule": _ENTRY + ("description",), "infoLink": _ENTRY, "infoGroup": _ENTRY + _CONTAINER[3 + 1:],
    "categoryEntry": _CONTAINER, "forceEntry": _CONTAINER + ("forceEntries", "categoryLinks"),
    "selectionEntry": _SELECTION_BASE + ("costs",), "selectionEntryGroup": _SELECTION_BASE,
    "entryLink": _SELECTION_BASE + ("costs",), "categoryLink": _CONTAINER, "catalogueLink": ("comment",),
    "constraint": ("comment",), "modifier": ("comment", "repeats", "conditions", "conditionGroups"),
    "modifierGroup": ("comment", "repeats", "conditions", "conditionGroups", "modifiers", "modifierGroups"),
    "condition": ("comment",), "repeat": ("comment",), "conditionGroup": ("comment", "conditions", "conditionGroups"),
    "characteristic": (), "cost": (), "costLimit": (), "tag": (), "description": (), "readme": (), "comment": (),
    "customNotes": (),
    "roster": ("costs", "costLimits", "forces", "customNotes", "tags"),
    "force": _ROSTER_ELEMENT + ("selections", "publications", "categories", "forces"),
    "selection": _ROSTER_ELEMENT + ("selections", "costs", "categories"),
    "category": _ROSTER_ELEMENT,
}


def order_problems(root: Element, limit: int = 20) -> list[str]:
    """Where the tree's children are not in the published schema's sequence (vNext Catalogue.xsd): an unknown
    element, a child the element's type does not hold, a child after one that must follow it, a repeated one. Each
    problem names the element's path. An empty list: the order is the schema's."""
    problems: list[str] = []
    todo = [(root, "/" + _local(root.tag))]
    while todo and len(problems) < limit:
        element, path = todo.pop()
        name = _local(element.tag)
        if name in _LISTS:
            allowed: tuple[str, ...] = (_LISTS[name],)
            repeat = True
        elif name in VNEXT_ORDER:
            allowed, repeat = VNEXT_ORDER[name], False
        else:
            problems.append(f"{path}: element {name!r} is not in the schema")
            continue
        position = -1
        counts: dict[str, int] = {}
        for child in element:
            child_name = _local(child.tag)
            counts[child_name] = counts.get(child_name, 0) + 1
            child_path = f"{path}/{child_name}[{counts[child_name]}]"
            if child_name not in allowed:
                problems.append(f"{child_path}: {name} holds no {child_name} (allowed: {', '.join(allowed) or 'none'})")
                continue
            index = allowed.index(child_name)
            if index < position or (index == position and not repeat):
                problems.append(f"{child_path}: out of the schema's order ({', '.join(allowed)})")
            position = index
            todo.append((child, child_path))
    return problems


def _local(tag: str) -> str:
    return tag.split("}")[-1]
