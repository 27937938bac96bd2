"""BattleScribe data files (a game system `.gst`/`.gstz` and its catalogues `.cat`/`.catz`), read for any game
(docs/data-packages.md "BattleScribe data"): the game-neutral part of the format.

Reading: every file is parsed with defusedxml (no DTD, no entities: an upload cannot expand or fetch anything), then
checked against the published BattleScribe content model in either version's element order
(rules_engine/formats/battlescribe/schema.py). What is not BattleScribe data is refused with a `BattleScribeError`
naming the file, the element path and the id (a refused import writes nothing). Each parsed file is a `Document`
that knows every element's path and nearest id, for messages; what a game makes of the documents is the game's own
(its BattleScribe part, declared in its registry entry: rules_engine/formats/__init__.py), and gives a `Conversion`:
the package, the report and the warnings (odd data read by a documented rule or left out).

Pure Python: no Django.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException

from rules_engine.formats.safefiles import ArchiveBudget, FileRefused, parse_xml, read_zip

from . import schema as bs_schema

GST_NS = "http://www.battlescribe.net/schema/gameSystemSchema"
CAT_NS = "http://www.battlescribe.net/schema/catalogueSchema"
SYSTEM_SUFFIXES = (".gst", ".gstz")
CATALOGUE_SUFFIXES = (".cat", ".catz")
SUFFIXES = SYSTEM_SUFFIXES + CATALOGUE_SUFFIXES
MAX_FILE_BYTES = 20 * 1024 * 1024  # one unzipped file (a zip bomb stops here)
MAX_TOTAL_BYTES = 60 * 1024 * 1024
ZIP_BUDGET = ArchiveBudget(member_bytes=MAX_FILE_BYTES, total_bytes=MAX_TOTAL_BYTES)


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
    model (rules_engine.formats.battlescribe.schema.check: either version's element order)."""
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
    _index(document, root, "/" + local_name(root.tag), "")
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


def local_name(tag: str) -> str:
    """An element's tag without its namespace."""
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
            name = local_name(child.tag)
            counts[name] += 1
            todo.append((child, f"{path}/{name}[{counts[name]}]", near_id, near_name))


def kids(element: Element, *names: str) -> list[Element]:
    """The children at the path of local names, e.g. kids(entry, "profiles", "profile")."""
    found = [element]
    for name in names:
        found = [child for parent in found for child in parent if local_name(child.tag) == name]
    return found


def slugify(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug or "x"


def card_code(bs_id: str) -> str:
    return "BS-" + (re.sub(r"[^A-Z0-9]+", "-", bs_id.upper()).strip("-") or "X")


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
