"""The BattleScribe data format's content model — game system (.gst), catalogue (.cat), roster (.ros) — written for
Hangar from the published schema: BSData's `schemas` repository (src/xml/schema/vNext/Catalogue.xsd, "schema for
BattleScribe-format datafiles", BattleScribe (c) Jon Taylor) and the files BattleScribe 2.03 writes. The table below
is Hangar's own description of that model (its own names and layout); the XSDs in rules_engine/formats/battlescribe/xsd/ are
generated from it (`python -m rules_engine.formats.battlescribe.schema`, checked by a test) and are not BattleScribe's files.

Two ways to check a parsed file (docs/data-packages.md "BattleScribe data"):

- `check(root)` — the import's check. Every element must be one the published model allows at that place, with the
  attributes it requires, and every attribute the model types (numbers, booleans, kinds) must have a value of that
  type. The children of an element may come in any order (BattleScribe 2.03 and the latest version order some of
  them differently; a file valid against either is accepted), and attributes the model does not name are ignored
  (older and newer BattleScribe versions write a few more). Raises `SchemaRefusal` with the element path.
- `strict_errors(root)` — the latest version's exact content model (its element order, no unknown attribute), with
  xmlschema against the generated XSDs: what Hangar's own BattleScribe files (exported data, rosters) must pass.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from xml.etree.ElementTree import Element

NAMESPACES = {"gameSystem": "http://www.battlescribe.net/schema/gameSystemSchema",
              "catalogue": "http://www.battlescribe.net/schema/catalogueSchema",
              "roster": "http://www.battlescribe.net/schema/rosterSchema"}
XSD_DIR = Path(__file__).resolve().parent / "xsd"
XSD_FILES = {"gameSystem": "gamesystem.xsd", "catalogue": "catalogue.xsd", "roster": "roster.xsd"}

# --- simple types: a name → (XSD base type, allowed values or None, a pattern the text must match or None) -------

_DECIMAL = r"[+-]?(\d+(\.\d*)?|\.\d+)"
SIMPLE: dict[str, tuple[str, tuple[str, ...] | None, str | None]] = {
    "text": ("xs:string", None, None),
    "decimal": ("xs:decimal", None, _DECIMAL),
    "boolean": ("xs:boolean", None, r"true|false|1|0"),
    "count": ("xs:nonNegativeInteger", None, r"\+?\d+"),
    "positive": ("xs:positiveInteger", None, r"\+?0*[1-9]\d*"),
    "entryKind": ("xs:string", ("upgrade", "model", "unit"), None),
    "fromKind": ("xs:string", ("group", "entry"), None),
    "infoLinkKind": ("xs:string", ("infoGroup", "profile", "rule"), None),
    "entryLinkKind": ("xs:string", ("selectionEntry", "selectionEntryGroup"), None),
    "catalogueLinkKind": ("xs:string", ("catalogue",), None),
    "constraintKind": ("xs:string", ("min", "max"), None),
    "modifierKind": ("xs:string", ("set", "increment", "decrement", "append", "add", "remove", "set-primary",
                                   "unset-primary"), None),
    "conditionKind": ("xs:string", ("lessThan", "greaterThan", "equalTo", "notEqualTo", "atLeast", "atMost",
                                    "instanceOf", "notInstanceOf"), None),
    "conditionGroupKind": ("xs:string", ("and", "or"), None),
}


@dataclass(frozen=True)
class Kind:
    """One complex type: its children in the latest version's order (element name, kind name; "" for text only),
    its attributes (name → (simple type, required)), and whether it holds text instead of elements."""
    children: tuple[tuple[str, str], ...] = ()
    attributes: tuple[tuple[str, str, bool], ...] = ()
    text: bool = False

    def extended(self, children: tuple[tuple[str, str], ...] = (),
                 attributes: tuple[tuple[str, str, bool], ...] = ()) -> "Kind":
        return Kind(self.children + children, self.attributes + attributes, self.text)


def _list(item: str, kind: str) -> Kind:
    """A list element: any number of one item element."""
    return Kind(((item, kind),))


def _attrs(spec: str) -> tuple[tuple[str, str, bool], ...]:
    """"id! name! hidden:boolean" → attributes; `!` marks a required one, `:type` its simple type (text if none)."""
    found = []
    for word in spec.split():
        required = "!" in word
        name, _, simple = word.replace("!", "").partition(":")
        found.append((name, simple or "text", required))
    return tuple(found)


# Building blocks, each extending the one before as the published model does.
_NOTE = Kind((("comment", ""),))  # almost everything may carry an author's comment, first
_ENTRY = _NOTE.extended((("modifiers", "ModifierList"), ("modifierGroups", "ModifierGroupList")),
                        _attrs("id! name publicationId page hidden:boolean"))
_INFO = (("profiles", "ProfileList"), ("rules", "RuleList"), ("infoGroups", "InfoGroupList"),
         ("infoLinks", "InfoLinkList"))
_CONTAINER = _ENTRY.extended((("constraints", "ConstraintList"), *_INFO))
_SELECTABLE = _CONTAINER.extended((("categoryLinks", "CategoryLinkList"), ("selectionEntries", "SelectionEntryList"),
                                   ("selectionEntryGroups", "SelectionEntryGroupList"),
                                   ("entryLinks", "EntryLinkList")),
                                  _attrs("collective:boolean import:boolean"))
_COST = Kind((), _attrs("name! typeId! value!:decimal"))
_QUERY = _NOTE.extended((), _attrs("field scope! value!:decimal percentValue:boolean shared:boolean "
                                   "includeChildSelections:boolean includeChildForces:boolean"))
_FILTERED = _QUERY.extended((), _attrs("childId!"))
_CHANGE = _NOTE.extended((("repeats", "RepeatList"), ("conditions", "ConditionList"),
                          ("conditionGroups", "ConditionGroupList")))
_ROSTER_ITEM = Kind((("customNotes", ""), ("rules", "RuleList"), ("profiles", "ProfileList")),
                    _attrs("id! name! entryId! entryGroupId customName publicationId page"))
_DATA_FILE = _NOTE.extended(
    (("readme", ""), ("publications", "PublicationList"), ("costTypes", "CostTypeList"),
     ("profileTypes", "ProfileTypeList"), ("categoryEntries", "CategoryEntryList"),
     ("forceEntries", "ForceEntryList"), ("selectionEntries", "SelectionEntryList"), ("entryLinks", "EntryLinkList"),
     ("rules", "RuleList"), ("infoLinks", "InfoLinkList"), ("sharedSelectionEntries", "SelectionEntryList"),
     ("sharedSelectionEntryGroups", "SelectionEntryGroupList"), ("sharedRules", "RuleList"),
     ("sharedProfiles", "ProfileList"), ("sharedInfoGroups", "InfoGroupList")),
    _attrs("id! name! revision:count battleScribeVersion authorName authorContact authorUrl"))

KINDS: dict[str, Kind] = {
    "Publication": _NOTE.extended((), _attrs("id! name! shortName publisher publicationDate publisherUrl")),
    "PublicationList": _list("publication", "Publication"),
    "CharacteristicType": _NOTE.extended((), _attrs("id! name!")),
    "CharacteristicTypeList": _list("characteristicType", "CharacteristicType"),
    "ProfileType": _NOTE.extended((("characteristicTypes", "CharacteristicTypeList"),), _attrs("id! name!")),
    "ProfileTypeList": _list("profileType", "ProfileType"),
    "CostType": _NOTE.extended((), _attrs("id! name! defaultCostLimit:decimal hidden:boolean")),
    "CostTypeList": _list("costType", "CostType"),
    "Characteristic": Kind((), _attrs("name! typeId!"), text=True),
    "CharacteristicList": _list("characteristic", "Characteristic"),
    "Profile": _ENTRY.extended((("characteristics", "CharacteristicList"),), _attrs("typeId! typeName")),
    "ProfileList": _list("profile", "Profile"),
    "Rule": _ENTRY.extended((("description", ""),)),
    "RuleList": _list("rule", "Rule"),
    "InfoGroup": _ENTRY.extended(_INFO),
    "InfoGroupList": _list("infoGroup", "InfoGroup"),
    "CategoryEntry": _CONTAINER,
    "CategoryEntryList": _list("categoryEntry", "CategoryEntry"),
    "ForceEntry": _CONTAINER.extended((("forceEntries", "ForceEntryList"), ("categoryLinks", "CategoryLinkList"))),
    "ForceEntryList": _list("forceEntry", "ForceEntry"),
    "Cost": _COST,
    "CostList": _list("cost", "Cost"),
    "CostLimit": _COST,
    "CostLimitList": _list("costLimit", "CostLimit"),
    "SelectionEntry": _SELECTABLE.extended((("costs", "CostList"),), _attrs("type!:entryKind")),
    "SelectionEntryList": _list("selectionEntry", "SelectionEntry"),
    "SelectionEntryGroup": _SELECTABLE.extended((), _attrs("defaultSelectionEntryId")),
    "SelectionEntryGroupList": _list("selectionEntryGroup", "SelectionEntryGroup"),
    "InfoLink": _ENTRY.extended((), _attrs("targetId! type!:infoLinkKind")),
    "InfoLinkList": _list("infoLink", "InfoLink"),
    "CatalogueLink": _NOTE.extended((), _attrs("id! name! targetId! type!:catalogueLinkKind "
                                               "importRootEntries:boolean")),
    "CatalogueLinkList": _list("catalogueLink", "CatalogueLink"),
    "CategoryLink": _CONTAINER.extended((), _attrs("targetId! primary:boolean")),
    "CategoryLinkList": _list("categoryLink", "CategoryLink"),
    "EntryLink": _SELECTABLE.extended((("costs", "CostList"),), _attrs("targetId! type!:entryLinkKind")),
    "EntryLinkList": _list("entryLink", "EntryLink"),
    "Constraint": _QUERY.extended((), _attrs("id! type!:constraintKind")),
    "ConstraintList": _list("constraint", "Constraint"),
    "Modifier": _CHANGE.extended((), _attrs("type!:modifierKind field! value!")),
    "ModifierList": _list("modifier", "Modifier"),
    "ModifierGroup": _CHANGE.extended((("modifiers", "ModifierList"), ("modifierGroups", "ModifierGroupList"))),
    "ModifierGroupList": _list("modifierGroup", "ModifierGroup"),
    "Repeat": _FILTERED.extended((), _attrs("repeats!:positive roundUp:boolean")),
    "RepeatList": _list("repeat", "Repeat"),
    "Condition": _FILTERED.extended((), _attrs("type!:conditionKind")),
    "ConditionList": _list("condition", "Condition"),
    "ConditionGroup": _NOTE.extended((("conditions", "ConditionList"), ("conditionGroups", "ConditionGroupList")),
                                     _attrs("type!:conditionGroupKind")),
    "ConditionGroupList": _list("conditionGroup", "ConditionGroup"),
    "Force": _ROSTER_ITEM.extended((("selections", "SelectionList"), ("publications", "PublicationList"),
                                    ("categories", "CategoryList"), ("forces", "ForceList")),
                                   _attrs("catalogueId! catalogueRevision:count catalogueName")),
    "ForceList": _list("force", "Force"),
    "Category": _ROSTER_ITEM.extended((), _attrs("primary:boolean")),
    "CategoryList": _list("category", "Category"),
    "Selection": _ROSTER_ITEM.extended((("selections", "SelectionList"), ("costs", "CostList"),
                                        ("categories", "CategoryList")),
                                       _attrs("number!:count type!:entryKind from:fromKind")),
    "SelectionList": _list("selection", "Selection"),
    "RosterTag": Kind((), _attrs("id! name!")),
    "RosterTagList": _list("tag", "RosterTag"),
    "Roster": Kind((("costs", "CostList"), ("costLimits", "CostLimitList"), ("forces", "ForceList"),
                    ("customNotes", ""), ("tags", "RosterTagList")),
                   _attrs("id! name! battleScribeVersion gameSystemId! gameSystemName gameSystemRevision:count")),
    "Catalogue": _DATA_FILE.extended((("catalogueLinks", "CatalogueLinkList"),),
                                     _attrs("library:boolean gameSystemId! gameSystemRevision:count")),
    "GameSystem": _DATA_FILE,
}
ROOTS = {"gameSystem": "GameSystem", "catalogue": "Catalogue", "roster": "Roster"}


class SchemaRefusal(Exception):
    """An element outside the published content model: its path (/catalogue/selectionEntries[1]/...) and why."""

    def __init__(self, path: str, message: str):
        self.path, self.message = path, message
        super().__init__(f"{path}: {message}")


def _local(tag: str) -> str:
    return tag.split("}")[-1]


def root_kind(root: Element) -> str | None:
    """"gameSystem", "catalogue" or "roster" when the root is that element in its BattleScribe namespace."""
    name = _local(root.tag)
    namespace = root.tag[1:].split("}")[0] if root.tag.startswith("{") else ""
    return name if NAMESPACES.get(name) == namespace else None


def _simple_ok(simple: str, value: str) -> bool:
    _base, allowed, pattern = SIMPLE[simple]
    value = value.strip() if simple != "text" else value
    if allowed is not None and value not in allowed:
        return False
    return pattern is None or re.fullmatch(pattern, value) is not None


def _describe(simple: str) -> str:
    base, allowed, _pattern = SIMPLE[simple]
    return "one of " + ", ".join(allowed) if allowed else {"xs:decimal": "a number", "xs:boolean": "true or false",
                                                           "xs:nonNegativeInteger": "a whole number ≥ 0",
                                                           "xs:positiveInteger": "a whole number ≥ 1"}.get(base, base)


def check(root: Element) -> str:
    """The import's check (see the module docstring); returns the root's kind name ("catalogue"...). Walks without
    recursion (the parser already bounds the depth)."""
    kind_name = root_kind(root)
    if kind_name is None:
        raise SchemaRefusal("/" + _local(root.tag), f"not a BattleScribe game system, catalogue or roster (root "
                                                    f"element {root.tag!r})")
    namespace = NAMESPACES[kind_name]
    todo: list[tuple[Element, str, str]] = [(root, "/" + kind_name, ROOTS[kind_name])]
    while todo:
        element, path, kind = todo.pop()
        if kind.startswith("!"):
            raise SchemaRefusal(path, kind[1:])
        if kind == "":  # text only
            if len(element):
                raise SchemaRefusal(path, f"<{_local(element.tag)}> holds text only, not the element "
                                          f"<{_local(element[0].tag)}>")
            continue
        spec = KINDS[kind]
        for name, simple, required in spec.attributes:
            value = element.get(name)
            if value is None:
                if required:
                    raise SchemaRefusal(path, f"<{_local(element.tag)}> needs the attribute {name!r}")
            elif not _simple_ok(simple, value):
                raise SchemaRefusal(path, f"the attribute {name}={value!r} must be {_describe(simple)}")
        if spec.text:
            if len(element):
                raise SchemaRefusal(path, f"<{_local(element.tag)}> holds text only, not the element "
                                          f"<{_local(element[0].tag)}>")
            continue
        if (element.text or "").strip():
            raise SchemaRefusal(path, f"text {element.text.strip()[:30]!r} where the model allows elements only")
        allowed = dict(spec.children)
        counts: Counter[str] = Counter()
        children = []
        for child in element:
            name = _local(child.tag)
            counts[name] += 1
            child_path = f"{path}/{name}[{counts[name]}]"
            if not child.tag.startswith(f"{{{namespace}}}") or name not in allowed:
                children.append((child, child_path, f"!<{name}> is not an element the published BattleScribe model "
                                                    f"allows in <{_local(element.tag)}> (not BattleScribe data)"))
            elif (child.tail or "").strip():
                children.append((child, child_path, f"!text {child.tail.strip()[:30]!r} after <{name}>, where the "
                                                    "model allows elements only"))
            else:
                children.append((child, child_path, allowed[name]))
        todo.extend(reversed(children))  # the first problem in document order is the one reported
    return kind_name


# --- strict: the latest version's order, with xmlschema against the generated XSDs ----------------------------------


@lru_cache(maxsize=3)
def strict_schema(kind_name: str):
    import xmlschema  # a quarter of a second to build: only when a strict check is asked for

    return xmlschema.XMLSchema10(str(XSD_DIR / XSD_FILES[kind_name]))


def strict_errors(root: Element) -> list[str]:
    """Every way the document departs from the published model in the latest version's exact form (its element
    order, only the attributes it names), as "path: reason" lines; empty when valid."""
    kind_name = root_kind(root)
    if kind_name is None:
        return [f"/{_local(root.tag)}: not a BattleScribe game system, catalogue or roster"]
    return [re.sub(r"\{[^}]*\}", "", f"{error.path or '/'}: {error.reason or error.message}")
            for error in strict_schema(kind_name).iter_errors(root)]


# --- the XSD files, generated from the table -----------------------------------------------------------------------


def _xsd_common() -> str:
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             "<!-- GENERATED by `python -m rules_engine.formats.battlescribe.schema` from the content model in",
             "     rules_engine/formats/battlescribe/schema.py (Hangar's own description of the BattleScribe data format, from the",
             "     published schema: BSData/schemas src/xml/schema/vNext/Catalogue.xsd). Do not edit by hand.",
             "     No target namespace: each root file includes it into its own namespace (chameleon include). -->",
             '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" elementFormDefault="qualified">']
    for simple, (base, allowed, _pattern) in SIMPLE.items():
        if allowed:
            lines.append(f'  <xs:simpleType name="{simple}"><xs:restriction base="{base}">'
                         + "".join(f'<xs:enumeration value="{v}"/>' for v in allowed)
                         + "</xs:restriction></xs:simpleType>")
    for name, kind in KINDS.items():
        attributes = []
        for attribute, simple, required in kind.attributes:
            base, allowed, _pattern = SIMPLE[simple]
            typed = simple if allowed else base
            attributes.append(f'    <xs:attribute name="{attribute}" type="{typed}"'
                              + (' use="required"' if required else "") + "/>")
        if kind.text:
            lines += [f'  <xs:complexType name="{name}"><xs:simpleContent><xs:extension base="xs:string">',
                      *attributes, "  </xs:extension></xs:simpleContent></xs:complexType>"]
            continue
        lines.append(f'  <xs:complexType name="{name}">')
        if kind.children:
            lines.append("    <xs:sequence>")
            list_item = len(kind.children) == 1 and name.endswith("List")
            for child, child_kind in kind.children:
                occurs = 'minOccurs="0" maxOccurs="unbounded"' if list_item else 'minOccurs="0"'
                lines.append(f'      <xs:element name="{child}" type="{child_kind or "xs:string"}" {occurs}/>')
            lines.append("    </xs:sequence>")
        lines += attributes
        lines.append("  </xs:complexType>")
    lines.append("</xs:schema>")
    return "\n".join(lines) + "\n"


def _xsd_root(kind_name: str) -> str:
    namespace = NAMESPACES[kind_name]
    return "\n".join([
        '<?xml version="1.0" encoding="UTF-8"?>',
        f"<!-- GENERATED by `python -m rules_engine.formats.battlescribe.schema`: a BattleScribe {kind_name} in the published",
        "     content model's latest order (common.xsd). Do not edit by hand. -->",
        f'<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="{namespace}"',
        f'           xmlns="{namespace}" elementFormDefault="qualified">',
        '  <xs:include schemaLocation="common.xsd"/>',
        f'  <xs:element name="{kind_name}" type="{ROOTS[kind_name]}"/>',
        "</xs:schema>", ""])


def xsd_files() -> dict[str, str]:
    """File name → text of the four generated XSDs."""
    return {"common.xsd": _xsd_common(), **{XSD_FILES[k]: _xsd_root(k) for k in ROOTS}}


def write_xsd_files(folder: Path = XSD_DIR) -> None:
    for name, text in xsd_files().items():
        (folder / name).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    write_xsd_files()
