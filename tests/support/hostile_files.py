"""Hostile files, made small and fast (the big ones are streamed as they are written): XML nested thousands deep,
zip bombs, .xlsx workbooks whose dimension or shared-strings table is a bomb. Used by the tests of bounded reading
(tests/cards/test_hostile_files.py, tests/builder/test_roster_hostile.py) and by benchmarks/bench_hostile_files.py."""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

DEPTH = 2000
ROS_NS = "http://www.battlescribe.net/schema/rosterSchema"
GST_NS = "http://www.battlescribe.net/schema/gameSystemSchema"


def deep_xml(root: str, namespace: str, depth: int = DEPTH) -> bytes:
    return (f'<?xml version="1.0"?><{root} xmlns="{namespace}" id="r" name="deep">'.encode()
            + b"<a>" * depth + b"</a>" * depth + f"</{root}>".encode())


def write_zero_member(archive: zipfile.ZipFile, name: str, size: int, method: int = zipfile.ZIP_DEFLATED) -> None:
    """A member of `size` zero bytes, written 1 MB at a time (the writer never holds the member)."""
    chunk = bytes(1 << 20)
    info = zipfile.ZipInfo(name, (2026, 1, 1, 0, 0, 0))
    info.compress_type = method
    with archive.open(info, "w", force_zip64=True) as member:
        left = size
        while left:
            member.write(chunk[:min(left, len(chunk))])
            left -= min(left, len(chunk))


def zip_bomb(path: Path, members: int = 50, size: int = 19 * 1024 * 1024, suffix: str = ".cat",
             method: int = zipfile.ZIP_DEFLATED) -> None:
    """`members` members of `size` zeros: deflate (about 1 000 to 1: 952 KB for 50 × 19 MB) or bzip2 (49 bytes a
    member: 8.5 KB for 50 × 19 MB)."""
    with zipfile.ZipFile(path, "w", method, compresslevel=9) as archive:
        for index in range(members):
            write_zero_member(archive, f"faction-{index:02d}{suffix}", size, method)


XLSX_PARTS = {
    "[Content_Types].xml": (
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
        'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+'
        'xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override '
        'PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.'
        'spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.'
        'openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>'),
    "_rels/.rels": (
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
        'relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        'relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>'),
    "xl/workbook.xml": (
        '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/'
        'main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet '
        'name="cards" sheetId="1" r:id="rId1"/></sheets></workbook>'),
    "xl/_rels/workbook.xml.rels": (
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
        'relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        'relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.'
        'openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
        '</Relationships>'),
}
SHEET_HEAD = ('<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/'
              'spreadsheetml/2006/main"><dimension ref="{ref}"/><sheetData>')


def xlsx(sheet_rows: str, *, ref: str = "A1:B2", strings: int = 1) -> bytes:
    """A minimal .xlsx written part by part: `sheet_rows` is the XML inside <sheetData>; `strings` shared strings
    (each <si><t/></si>, written in chunks)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, text in XLSX_PARTS.items():
            archive.writestr(name, text)
        archive.writestr("xl/worksheets/sheet1.xml",
                         SHEET_HEAD.format(ref=ref) + sheet_rows + "</sheetData></worksheet>")
        with archive.open("xl/sharedStrings.xml", "w", force_zip64=True) as part:
            part.write(b'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/'
                       b'spreadsheetml/2006/main">')
            left = strings
            while left:
                part.write(b"<si><t/></si>" * min(left, 100_000))
                left -= min(left, 100_000)
            part.write(b"</sst>")
    return out.getvalue()


def dimension_bomb() -> bytes:
    """Claims A1:XFD8000 and holds two cells, A1 and A8000: a reader that trusts the dimension makes 8 000 rows of
    16 384 cells."""
    rows = "".join(f'<row r="{r}"><c r="A{r}" t="inlineStr"><is><t>x</t></is></c></row>' for r in (1, 8000))
    return xlsx(rows, ref="A1:XFD8000")


def strings_bomb() -> bytes:
    return xlsx('<row r="1"><c r="A1" t="s"><v>0</v></c></row>', strings=2_000_000)
