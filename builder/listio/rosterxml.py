"""The pieces of roster XML both roster formats use (roster.py: BattleScribe's Warcaster rosters; hangar_roster.py:
rosters of the data Hangar exports): an element's name without its namespace, the children along a path, and the
.rosz zip."""
from __future__ import annotations

import io
import zipfile
from pathlib import PurePath
from xml.etree.ElementTree import Element


def local_name(tag: str) -> str:
    return tag.split("}")[-1]


def kids(element: Element, *names: str) -> list[Element]:
    found = [element]
    for name in names:
        found = [child for parent in found for child in parent if local_name(child.tag) == name]
    return found


def zip_roster(xml: bytes, filename: str = "roster.ros") -> bytes:
    """A .rosz: a zip holding the roster as `filename` (.ros), with a fixed date (the same list, the same bytes)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo(PurePath(filename).with_suffix(".ros").name, (2026, 1, 1, 0, 0, 0)), xml,
                         zipfile.ZIP_DEFLATED)
    return buffer.getvalue()
