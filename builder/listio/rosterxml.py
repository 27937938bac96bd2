"""The pieces of roster XML both roster formats use (roster.py: BattleScribe's Warcaster rosters; hangar_roster.py:
rosters of the data Hangar exports): an element's name without its namespace, the children along a path, the ids a
written roster gives its elements, and the .rosz zip."""
from __future__ import annotations

import hashlib
import io
import json
import zipfile
from pathlib import PurePath
from typing import Any, Mapping
from xml.etree.ElementTree import Element


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
