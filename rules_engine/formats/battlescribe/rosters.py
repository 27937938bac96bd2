"""The pieces of BattleScribe roster XML (.ros, zipped .rosz) every roster reader and writer uses (builder/listio/roster.py
and hangar_roster.py; a game's reading of the community's rosters, rules_engine/<game>/battlescribe.py): an element's
name without its namespace, the children along a path, each element's path for messages, the ids a written roster
gives its elements, the .rosz zip, and the problems a game's roster reader or writer reports (`RosterRefused`), which
the list formats turn into their own errors. Pure Python: no Django."""
from __future__ import annotations

import hashlib
import io
import json
import zipfile
from pathlib import PurePath
from dataclasses import dataclass, field
from typing import Any, Mapping
from xml.etree.ElementTree import Element

ROSTER_NS = "http://www.battlescribe.net/schema/rosterSchema"
BATTLESCRIBE_VERSION = "2.03"


@dataclass(frozen=True)
class RosterIssue:
    """One problem of a roster read or written: its message code and parameters (builder/listio/messages.py says it
    in the reader's language), the English message, and the element's path (None: the whole roster)."""

    code: str
    message: str
    path: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)


class RosterRefused(Exception):
    """A roster that cannot be read, or a list that cannot be written as one: every problem found."""

    def __init__(self, issues: list[RosterIssue]):
        self.issues = issues
        super().__init__("; ".join(issue.message for issue in issues))


def issue(message_code: str, message: str, path: str | None = None, /, **params: Any) -> RosterIssue:
    return RosterIssue(message_code, message, path, params)


def refused(message_code: str, message: str, path: str | None = None, /, **params: Any) -> RosterRefused:
    return RosterRefused([issue(message_code, message, path, **params)])


class ElementPaths:
    """Each element's path (/roster/forces[1]/force[1]/...) for messages."""

    def __init__(self, root: Element):
        self.paths: dict[int, str] = {}
        todo = [(root, "/" + local_name(root.tag))]  # iterative: no recursion on the file's depth
        while todo:
            element, path = todo.pop()
            self.paths[id(element)] = path
            counts: dict[str, int] = {}
            for child in element:
                name = local_name(child.tag)
                counts[name] = counts.get(name, 0) + 1
                todo.append((child, f"{path}/{name}[{counts[name]}]"))

    def of(self, element: Element) -> str:
        return self.paths.get(id(element), "/")


def local_name(tag: str) -> str:
    return tag.split("}")[-1]


def kids(element: Element, *names: str) -> list[Element]:
    found = [element]
    for name in names:
        found = [child for parent in found for child in parent if local_name(child.tag) == name]
    return found


class RosterIds:
    """BattleScribe-style ids (four groups of hex digits) for the elements of a roster written from `doc`, one after
    another: the same list gives the same ids."""

    def __init__(self, doc: Mapping[str, Any]):
        self.seed = hashlib.sha256(json.dumps(doc, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
        self.serial = 0

    def __call__(self) -> str:
        self.serial += 1
        digest = hashlib.sha256(f"{self.seed}:{self.serial}".encode()).hexdigest()
        return "-".join(digest[i:i + 4] for i in range(0, 16, 4))


def zip_roster(xml: bytes, filename: str = "roster.ros") -> bytes:
    """A .rosz: a zip holding the roster as `filename` (.ros), with a fixed date (the same list, the same bytes)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo(PurePath(filename).with_suffix(".ros").name, (2026, 1, 1, 0, 0, 0)), xml,
                         zipfile.ZIP_DEFLATED)
    return buffer.getvalue()
