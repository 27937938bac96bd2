"""Reading untrusted files with bounded work: XML with a depth limit checked while parsing, zip archives read in
chunks against a budget (docs/data-packages.md "Limits of a file"; docs/list-formats.md "Limits").

Every XML reader of Hangar (BattleScribe data, rosters) parses through `parse_xml`, and every zip reader (.zip,
.gstz, .catz, .rosz, .xlsx) through `read_zip`: nothing recursive ever sees a tree deeper than `MAX_XML_DEPTH`, and
no member is decompressed further than its budget allows — the sizes a zip's headers declare are not trusted, the
bytes are counted as they come out of the decompressor, 64 KiB at a time.

Pure Python (no Django): the callers turn `FileRefused` into their own error (ListFormatError, BattleScribeError,
SheetError) with the file, the member and the element path.
"""
from __future__ import annotations

import io
import re
import zipfile
from collections import Counter
from dataclasses import dataclass
from typing import Callable
from xml.etree.ElementTree import Element

import defusedxml.ElementTree as SafeET

MAX_XML_DEPTH = 100  # elements inside elements; BattleScribe's own files nest about 20 deep
CHUNK = 64 * 1024  # bytes decompressed at a time
RATIO_FLOOR = 1024 * 1024  # the ratio applies once a member has given this many bytes (small parts compress well)


class FileRefused(Exception):
    """A file refused before its content was read whole: `where` is the file (and `!member` inside an archive),
    `path` the element path for XML, `message` what limit was passed; `kind` says which ("unreadable", "entries",
    "size", "ratio", "depth", "count") and `params` its numbers, for messages in other languages."""

    def __init__(self, where: str, message: str, path: str = "", kind: str = "", **params: int):
        self.where, self.message, self.path, self.kind, self.params = where, message, path, kind, params
        super().__init__(f"{where}: {path + ': ' if path else ''}{message}")


@dataclass(frozen=True)
class ArchiveBudget:
    """What one archive may hold, uncompressed: each member, all members together, members' count, and the ratio of
    a member's uncompressed bytes to its compressed ones."""
    member_bytes: int
    total_bytes: int
    members: int = 1000
    ratio: int = 200


def _local(tag: str) -> str:
    return tag.split("}")[-1]


def short_path(segments: list[str]) -> str:
    """An element path, its middle left out when it is long: /roster/a[1]/a[1]/…(94 more)…/a[1]/a[1]."""
    if len(segments) <= 10:
        return "/" + "/".join(segments)
    return "/" + "/".join(segments[:5]) + f"/…({len(segments) - 8} more)…/" + "/".join(segments[-3:])


def parse_xml(raw: bytes, *, max_depth: int = MAX_XML_DEPTH) -> Element:
    """The root of the XML in `raw`, parsed with defusedxml (no DTD, no entities), refused with FileRefused (no
    `where`: the caller names the file) as soon as an element is nested more than `max_depth` deep — counted on the
    parser's start and end events, before any code walks the tree. Raises xml.etree.ElementTree.ParseError and
    defusedxml's DefusedXmlException as defusedxml.ElementTree.fromstring does."""
    stack: list[tuple[str, Counter[str]]] = []
    parser = SafeET.iterparse(io.BytesIO(raw), events=("start", "end"), forbid_dtd=True)
    for event, element in parser:
        if event == "end":
            stack.pop()
            continue
        name = _local(element.tag)
        if stack:
            counts = stack[-1][1]
            counts[name] += 1
            name = f"{name}[{counts[name]}]"
        stack.append((name, Counter()))
        if len(stack) > max_depth:
            raise FileRefused("", f"elements nested more than {max_depth} deep (the limit)",
                              short_path([segment for segment, _ in stack]), "depth", max=max_depth)
    return parser.root


def read_zip(raw: bytes, name: str, budget: ArchiveBudget, *, want: Callable[[str], bool] = lambda _: True,
             keep: bool = True, inspect: Callable[[str], Callable[[bytes], None] | None] | None = None,
             already: int = 0) -> list[tuple[str, bytes]]:
    """The members of the zip `raw` (named `name` in messages) whose name `want` accepts, in name order, each as
    (name, bytes) — or, with keep=False, none kept (the archive only checked). Every member `want` accepts is
    decompressed CHUNK bytes at a time, and refused (FileRefused "name!member") as soon as it passes
    `budget.member_bytes`, all of them `budget.total_bytes`, or its bytes pass `budget.ratio` × its compressed size;
    an archive of more than `budget.members` entries is refused from its directory record, before its entries are
    read. `inspect(member)` may return a function that sees each chunk as it comes (it raises FileRefused to stop).
    `already`: bytes the caller holds already of the same data (other files of one upload), counted in the total.
    Raises FileRefused for a file that is not a readable zip."""
    try:
        _check_entries(raw, name, budget)
        archive = zipfile.ZipFile(io.BytesIO(raw))
        infos = sorted((info for info in archive.infolist() if not info.is_dir() and want(info.filename)),
                       key=lambda info: info.filename)
        found: list[tuple[str, bytes]] = []
        total = already
        for info in infos:
            where = f"{name}!{info.filename}"
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                # zipfile hands bzip2 and LZMA data to the decompressor without an output limit: 49 bytes of bzip2
                # come out as 19 MB in one call, before any count could stop them
                raise FileRefused(where, f"compressed with method {info.compress_type}; only deflate (8) and stored "
                                         "(0) are read", kind="unreadable")
            feed = inspect(info.filename) if inspect else None
            parts: list[bytes] = []
            size = 0
            with archive.open(info) as member:
                while chunk := member.read(CHUNK):
                    size += len(chunk)
                    total += len(chunk)
                    if size > budget.member_bytes:
                        raise FileRefused(where, f"larger than {budget.member_bytes} bytes uncompressed (the limit "
                                                 f"for one file in an archive)", kind="size",
                                          max=budget.member_bytes)
                    if total > budget.total_bytes:
                        raise FileRefused(where, f"more than {budget.total_bytes} bytes uncompressed in all (the "
                                                 f"limit)", kind="size", max=budget.total_bytes)
                    if size > RATIO_FLOOR and size > budget.ratio * max(info.compress_size, 1):
                        raise FileRefused(where, f"compressed more than {budget.ratio} to 1 (the limit: a zip bomb?)",
                                          kind="ratio", ratio=budget.ratio)
                    if feed is not None:
                        feed(chunk)
                    if keep:
                        parts.append(chunk)
            found.append((info.filename, b"".join(parts)))
        return found
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, NotImplementedError, RuntimeError, ValueError,
            OSError) as exc:
        raise FileRefused(name, f"not a readable zip file ({exc})", kind="unreadable") from None


def _check_entries(raw: bytes, name: str, budget: ArchiveBudget) -> None:
    """Refuse an archive whose directory announces more entries than the budget, before zipfile reads them all."""
    try:
        record = zipfile._EndRecData(io.BytesIO(raw))  # the end-of-directory record (a stable, private helper)
    except (AttributeError, OSError):
        return
    if record and record[zipfile._ECD_ENTRIES_TOTAL] > budget.members:
        raise FileRefused(name, f"holds {record[zipfile._ECD_ENTRIES_TOTAL]} entries; at most {budget.members}",
                          kind="entries", count=record[zipfile._ECD_ENTRIES_TOTAL])


class TagCounter:
    """Counts the start tags named `tag` (any namespace prefix) in XML fed chunk by chunk, at the speed of a regular
    expression (no parser, no tree), and refuses (FileRefused, kind "count") past `limit`. In XML a `<` outside a
    tag is always escaped, so every match is a tag (a CDATA section that writes one would be counted too: a refusal
    on the safe side)."""

    TAIL = 64  # longer than any match, so a tag cut between two chunks is counted once

    def __init__(self, where: str, tag: str, limit: int, what: str):
        self.where, self.limit, self.what, self.count = where, limit, what, 0
        self.pattern = re.compile(rb"<(?:[A-Za-z_][\w.\-]{0,32}:)?" + re.escape(tag.encode()) + rb"[\s/>]")
        self.tail = b""

    def __call__(self, chunk: bytes) -> None:
        buffer = self.tail + chunk
        self.count += sum(1 for match in self.pattern.finditer(buffer) if match.end() > len(self.tail))
        self.tail = buffer[-self.TAIL:]
        if self.count > self.limit:
            raise FileRefused(self.where, f"more than {self.limit} {self.what} (the limit)", kind="count",
                              max=self.limit)
