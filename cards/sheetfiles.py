"""Spreadsheet files as rows of text cells (docs/data-packages.md "Spreadsheets"): reading a CSV, a TSV (as pasted
from a spreadsheet, in UTF-8, UTF-16 or Shift_JIS) or an .xlsx workbook, and writing one, within the size limits of a
sheet; a cell a spreadsheet would run as a formula is written with a quote in front and read back without it. The
problems of a sheet (SheetProblem, SheetError) are named here, where the first ones are found. No Django; what the
cells mean is cards/spreadsheet.py (columns, cards) and cards/sheetcells.py (one cell's value).
"""
from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from rules_engine.formats.safefiles import ArchiveBudget, FileRefused, TagCounter, read_zip

SHEET_SUFFIXES = (".csv", ".tsv", ".txt", ".xlsx")
MAX_ROWS = 20_000  # cards in one sheet (a package may hold at most 20 MB)
MAX_COLUMNS = 100  # columns of a sheet (the widest game has 36)
MAX_SHEET_ROWS = 100_000  # rows of a workbook read, empty ones included (a row number can be anything)
MAX_SHARED_STRINGS = 200_000  # the shared-strings table of an .xlsx (openpyxl loads it whole)
XLSX_BUDGET = ArchiveBudget(member_bytes=64 * 1024 * 1024, total_bytes=96 * 1024 * 1024, members=500)


@dataclass(frozen=True)
class SheetProblem:
    """One problem of a sheet: `row` 1 is the header row, data start on row 2 (as a spreadsheet numbers them)."""

    problem: str
    row: int | None = None
    column: str | None = None  # the column's letter, "D"
    header: str | None = None  # what its header says, "firepower"
    value: str | None = None  # the cell as written

    def __str__(self) -> str:
        place = []
        if self.row is not None:
            place.append(f"row {self.row}")
        if self.column is not None:
            place.append(f'column {self.column} "{self.header}"' if self.header else f"column {self.column}")
        elif self.header:
            place.append(f'column "{self.header}" (not in the sheet)')
        head = ", ".join(place)
        value = f", value {quoted(self.value)}" if self.value not in (None, "") else ""
        return f"{head}{value}: {self.problem}" if head else self.problem


class SheetError(Exception):
    """A sheet that cannot be read or imported; `problems` lists every one found."""

    def __init__(self, problems: list[SheetProblem], *, source: str = ""):
        self.problems = problems
        self.source = source
        super().__init__(str(self))

    def __str__(self) -> str:
        head = f"{self.source}: " if self.source else ""
        return head + "sheet refused:\n" + "\n".join(f"  - {problem}" for problem in self.problems)


def quoted(value: str | None) -> str:
    """A cell as a problem names it: as a JSON string, cut at 60 characters."""
    text = value or ""
    text = text if len(text) <= 60 else text[:57] + "…"
    return json.dumps(text, ensure_ascii=False)


def column_letter(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


# --- reading a file -------------------------------------------------------------------------------------------


def read_rows(raw: bytes, filename: str) -> list[list[str]]:
    """The cells of a sheet file as text, row by row. Raises SheetError for a file no reader understands."""
    suffix = Path(filename).suffix.lower()
    if suffix == ".xlsx" or raw[:4] == b"PK\x03\x04":
        return _xlsx_rows(raw, filename)
    text = _decode(raw)
    delimiter = "\t" if suffix == ".tsv" or (suffix != ".csv" and "\t" in text.split("\n", 1)[0]) else ","
    rows: list[list[str]] = []
    try:
        for number, row in enumerate(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter), start=1):
            if number > MAX_SHEET_ROWS:
                raise SheetError([SheetProblem(f"the sheet goes on past row {MAX_SHEET_ROWS} (the limit, empty rows "
                                               "included)", row=number)])
            if len(row) > MAX_COLUMNS:
                if any(row[MAX_COLUMNS:]):
                    raise SheetError([SheetProblem(f"the sheet has more than {MAX_COLUMNS} columns (the limit)",
                                                   row=number, column=column_letter(MAX_COLUMNS))])
                del row[MAX_COLUMNS:]  # empty cells past the limit (a sheet saved wider than its cards)
            rows.append([unneutralised(cell) for cell in row])
    except csv.Error as error:
        raise SheetError([SheetProblem(f"not a readable {'TSV' if delimiter == chr(9) else 'CSV'} file: {error}")])
    return rows


# A cell that begins with one of these is a formula to Excel, LibreOffice and Google Sheets (OWASP "CSV injection").
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")
NEUTRALISED = re.compile(r"'+[=+\-@\t\r]")


def neutralised(cell: str) -> str:
    """A cell as an export writes it: a text that a spreadsheet would run as a formula (it begins with =, +, -, @, a
    tab or a carriage return, after any quotes) gets a quote ' in front; a plain number (-1) stays a number."""
    if cell.lstrip("'").startswith(FORMULA_START) and not PLAIN_NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


def unneutralised(cell: str) -> str:
    """A cell as an import reads it: the quote an export put in front of a would-be formula is taken off, so that
    export then import gives the same cards (a cell "'=1+1" reads "=1+1"; "'tis" stays as it is)."""
    return cell[1:] if NEUTRALISED.match(cell) else cell


def _decode(raw: bytes) -> str:
    """UTF-8 (with or without a BOM), UTF-16 with its BOM (Excel's "Unicode text") or Shift_JIS (cp932: what
    Japanese Excel writes as CSV)."""
    encodings = ("utf-16",) if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else ("utf-8-sig", "cp932")
    for encoding in encodings:
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError:
            continue
        if encoding == "cp932" and re.search("[\ue000-\uf8ff]", text):
            continue  # bytes cp932 maps to private-use characters: not Japanese text
        if "\x00" in text:
            break
        return text
    raise SheetError([SheetProblem("the file is not a text sheet in UTF-8, UTF-16 or Shift_JIS; save it as "
                                   "CSV UTF-8 or as .xlsx")])


def _xlsx_rows(raw: bytes, filename: str = "sheet.xlsx") -> list[list[str]]:
    """The first worksheet's cells, read within bounds: the archive is first read in chunks against XLSX_BUDGET
    while its shared strings are counted (openpyxl loads them all before the first row; every part is counted, as
    a workbook may name its shared strings part anything), then openpyxl (read-only mode) parses the rows one at a
    time; the sheet's declared dimension is ignored (a
    `<dimension ref="A1:XFD8000">` would pad every row to 16 384 cells) and rows are not padded: a row with a value
    past MAX_COLUMNS, or a row numbered past MAX_SHEET_ROWS, is refused as soon as it is read."""
    from openpyxl import load_workbook  # only when a workbook is read

    name = Path(filename).name
    try:
        read_zip(raw, name, XLSX_BUDGET, keep=False,
                 inspect=lambda member: TagCounter(f"{name}!{member}", "si", MAX_SHARED_STRINGS, "shared strings"))
    except FileRefused as error:
        raise SheetError([SheetProblem(f"{error}" if "readable zip" not in error.message
                                       else "not a readable .xlsx workbook (not a zip file)")]) from None
    try:
        book = load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises many kinds (zipfile, KeyError, InvalidFileException)
        raise SheetError([SheetProblem(f"not a readable .xlsx workbook ({type(error).__name__}: {error})")])
    try:
        rows: list[list[str]] = []
        filled = 0
        for number, cells in _sheet_rows(book):
            if number > MAX_SHEET_ROWS:
                raise SheetError([SheetProblem(f"the sheet goes on past row {MAX_SHEET_ROWS} (the limit, empty rows "
                                               "included): delete the rows below the cards", row=number)])
            values = {cell["column"]: _xlsx_text(cell["value"]) for cell in cells}
            width = max((column for column, text in values.items() if text), default=0)
            if width > MAX_COLUMNS:
                raise SheetError([SheetProblem(f"the sheet has more than {MAX_COLUMNS} columns (the limit)",
                                               row=number, column=column_letter(width - 1))])
            rows.extend([] for _ in range(len(rows) + 1, number))  # the rows the file leaves out are empty
            rows.append([unneutralised(values.get(column, "")) for column in range(1, width + 1)])
            filled += bool(width)
            if filled > MAX_ROWS + 1:
                break  # read_sheet names the limit of cards
        return rows
    except Exception as error:  # a worksheet openpyxl cannot read (bad XML, bad cell reference)
        if isinstance(error, SheetError):
            raise
        raise SheetError([SheetProblem(f"not a readable .xlsx workbook ({type(error).__name__}: {error})")]) from None
    finally:
        book.close()


def _sheet_rows(book: Any) -> Iterable[tuple[int, list[dict[str, Any]]]]:
    """(row number, its cells as openpyxl's parser gives them) of the first worksheet, one row at a time, with no
    padding: openpyxl's own iter_rows pads every row to the sheet's declared dimension (or to its last cell), which a
    file chooses. Uses openpyxl's worksheet parser as its read-only worksheet does (openpyxl is pinned)."""
    from openpyxl.worksheet._reader import WorkSheetParser

    sheet = book.worksheets[0]
    with sheet._get_source() as source:
        parser = WorkSheetParser(source, sheet._shared_strings, data_only=True, epoch=book.epoch,
                                 date_formats=book._date_formats, timedelta_formats=book._timedelta_formats)
        yield from parser.parse()


def _xlsx_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


# --- writing a file -------------------------------------------------------------------------------------------


def write_file(rows: list[list[str]], fmt: str) -> bytes:
    """The bytes of a sheet file: "csv" (UTF-8 with a BOM, so that Excel reads Japanese), "tsv" or "xlsx"."""
    if fmt == "xlsx":
        from openpyxl import Workbook
        from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

        book = Workbook()
        sheet = book.active
        sheet.title = "cards"
        for number, row in enumerate(rows, start=1):
            for index, cell in enumerate(row):
                if ILLEGAL_CHARACTERS_RE.search(cell):
                    raise SheetError([SheetProblem("a control character that a .xlsx workbook cannot hold; write "
                                                   "CSV or TSV instead", row=number, column=column_letter(index),
                                                   header=rows[0][index] if index < len(rows[0]) else None,
                                                   value=cell)])
            for index, cell in enumerate(row, start=1):
                if cell:  # every cell a string (data type "s"), never a formula
                    target = sheet.cell(row=number, column=index)
                    target.value = neutralised(cell)
                    target.data_type = "s"
        out = io.BytesIO()
        book.save(out)
        return out.getvalue()
    text = io.StringIO(newline="")
    csv.writer(text, delimiter="\t" if fmt == "tsv" else ",", lineterminator="\r\n").writerows(
        [neutralised(cell) for cell in row] for row in rows)
    return (("\ufeff" if fmt == "csv" else "") + text.getvalue()).encode("utf-8")
