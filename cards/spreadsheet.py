"""Cards as a spreadsheet: one row per card, one column per field (docs/data-packages.md "Spreadsheets").

No public data file exists for HAGMI! or MechWarrior: Dark Age, so players type real cards into spreadsheets. This
module reads such a sheet (CSV, TSV as pasted from a spreadsheet, or .xlsx) into the cards of a `hangar.package/1`
package, and writes a package's cards back as rows (the templates and the round trip). No Django here: the import
itself (checking every card, the diff against the current package, writing) is cards.services.sheet_import.

The columns are the card fields of the system's JSON Schema (cards/schemas/<system>.schema.json), in its order, each
with an English header (the field name, `fuel_cost`) and a Japanese one (`燃料コスト`); either may be used, in any
order. An object of plain values has one column per key (`stats.spd`, `能力値.spd`); every other field is one cell:

- a number, a text, or yes/no (`yes`, `no`, `true`, `false`, `1`, `0`, `はい`, `いいえ`, `○`, `×`);
- a list of words (types, abilities, qualities): items separated by `,`, `、`, `;` or line breaks;
- a list of objects (skills, weapons, dial clicks, effects): one item per line (or separated by `;`), each item
  `key=value` pairs separated by spaces: `kind=deal_damage trigger=on_attack amount=1 target=enemy_unit`. A value
  is a number, `yes`/`no`, a word, a "quoted text" (JSON string escapes), a list `[a, b]` or JSON (`{...}`, `[...]`);
- any object or list cell may instead hold the field's JSON (`[{"kind": "pierce", "trigger": "static"}]`).

An empty cell is a field the card does not have. Every problem is a `SheetProblem` naming the row (1 is the header),
the column (its letter and header), the value and what was expected; reading never stops at the first one.
"""
from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from rapidfuzz import process

from cards.safefiles import ArchiveBudget, FileRefused, TagCounter, read_zip

SHEET_SUFFIXES = (".csv", ".tsv", ".txt", ".xlsx")
MAX_ROWS = 20_000  # cards in one sheet (a package may hold at most 20 MB)
MAX_CELL = 20_000  # characters in one cell
MAX_COLUMNS = 100  # columns of a sheet (the widest game has 36)
MAX_SHEET_ROWS = 100_000  # rows of a workbook read, empty ones included (a row number can be anything)
MAX_SHARED_STRINGS = 200_000  # the shared-strings table of an .xlsx (openpyxl loads it whole)
XLSX_BUDGET = ArchiveBudget(member_bytes=64 * 1024 * 1024, total_bytes=96 * 1024 * 1024, members=500)

# Japanese headers. The English header of a column is its field name. A header is a file format, not page text:
# these never change with a translation.
HEADERS_JA: dict[str, dict[str, str]] = {
    "common": {
        "code": "コード", "name": "名前", "name_en": "英語名", "text": "テキスト", "text_en": "英語テキスト",
        "release": "収録", "system": "ゲーム",
    },
    "hagmi": {
        "category": "カテゴリ", "subtype": "種別", "frame": "枠", "cost": "コスト", "pilot": "搭乗者",
        "types": "タイプ", "firepower": "火力", "armor": "装甲", "range": "射程", "fuel_cost": "燃料コスト",
        "targets": "攻撃対象", "durability": "耐久", "equip": "装備条件", "skills": "スキル",
        "usable_from_secret": "秘策から使用", "energy": "エネルギー", "life_cores": "生命核",
        "action_order": "行動順", "bounty": "撃破報酬", "cores": "機獣核", "terrain": "地形",
        "attrition": "機獣核損耗能力",
    },
    "mwda": {
        "kind": "種類", "points": "ポイント", "unique": "ユニーク", "faction": "勢力", "rank": "ランク",
        "order_bonus": "命令ボーナス", "base": "ベース", "abilities": "特殊能力", "primary": "主武器",
        "secondary": "副武器", "dial": "ダイヤル", "heat_dial": "ヒートダイヤル", "vent": "放熱",
    },
    "warcaster": {
        "kind": "種類", "faction": "勢力", "cst": "CST", "stats": "能力値", "weapons": "武器",
        "weapon_points": "武器ポイント", "cost": "コスト", "type": "武器タイプ", "rng": "射程", "pow": "威力",
        "qualities": "特性", "suit": "スート", "cypher_type": "サイファータイプ", "effects": "効果",
        "attaches_to": "装着先", "abilities": "能力", "bs_id": "BattleScribe ID", "not_modelled": "未再現のルール",
        "damage_type": "ダメージタイプ", "other_qualities": "その他の特性", "hardpoints": "ハードポイント",
        "battlescribe": "BattleScribe情報", "max_copies": "採用上限",
    },
}

YES = {"yes", "y", "true", "1", "はい", "○", "◯", "✓", "✔"}
NO = {"no", "n", "false", "0", "いいえ", "×", "✗", "-"}
WORD_SPLIT = re.compile(r"[,、;；\n]")
BARE = re.compile(r"[\w\-.+×]+")
INTEGER = re.compile(r"[-+]?\d+")
KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


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
        value = f", value {_quoted(self.value)}" if self.value not in (None, "") else ""
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


@dataclass(frozen=True)
class Column:
    field: str  # the card field, "firepower"
    key: str | None  # for a column of one key of an object field ("stats.spd"): "spd"
    shape: str  # "integer" | "boolean" | "text" | "words" | "object" | "objects" | "any"

    @property
    def name(self) -> str:
        return f"{self.field}.{self.key}" if self.key else self.field

    def header(self, system: str, lang: str) -> str:
        if lang != "ja":
            return self.name
        label = HEADERS_JA[system].get(self.field) or HEADERS_JA["common"].get(self.field) or self.field
        return f"{label}.{self.key}" if self.key else label


@dataclass(frozen=True)
class Sheet:
    """The cards read from a sheet, with the row each came from."""

    system: str
    cards: list[dict[str, Any]]
    rows: list[int]  # the sheet row of each card
    columns: dict[int, Column]  # by position in the sheet
    letters: dict[str, str]  # column name ("stats.spd", "skills") -> letter
    headers: dict[str, str]  # column name -> its header as written
    cells: dict[tuple[int, str], str]  # (row, column name) -> the cell as written
    problems: list[SheetProblem]  # what reading found: unknown columns, cells that are not what their column holds

    def row_of(self, code: str) -> int | None:
        for card, row in zip(self.cards, self.rows):
            if card.get("code") == code:
                return row
        return None

    def problem(self, message: str, row: int | None) -> SheetProblem:
        """A package check's message about one card (`card HS-012, field "skills[0].amount": ...`, cards.package_
        validation) as a problem at its row and column, with the cell as written."""
        match = PACKAGE_MESSAGE.match(message)
        if not match:
            return SheetProblem(message, row=row)
        if row is None and match.group("code"):
            row = self.row_of(match.group("code"))
        problem = match.group("problem")
        field = match.group("field")
        if field is None:
            missing = re.match(r'missing required field "([^"]+)"', problem)
            field = missing.group(1) if missing else None
        name = _column_name(field, self.letters) if field else None
        if name is None:
            return SheetProblem(problem, row=row)
        if field != name and field.startswith(name):
            problem = f"{field}: {problem}"  # skills[1].amount: ... (the cell holds every skill)
        return SheetProblem(problem, row=row, column=self.letters.get(name), header=self.headers.get(name, name),
                            value=self.cells.get((row, name)) if row is not None else None)


PACKAGE_MESSAGE = re.compile(r'^card (?:#\d+|(?P<code>[^,:]+?))(?:, field "(?P<field>[^"]+)")?: (?P<problem>.*)$',
                             re.DOTALL)


def _column_name(field: str, letters: dict[str, str]) -> str:
    """The column a field path is in: `stats.spd` is its own column when the sheet has it, else `stats`."""
    root = re.split(r"[.\[]", field, maxsplit=1)[0]
    parts = re.match(r"([^.\[]+)\.([^.\[]+)", field)
    if parts and f"{parts.group(1)}.{parts.group(2)}" in letters:
        return f"{parts.group(1)}.{parts.group(2)}"
    return root


# --- the columns of a system ---------------------------------------------------------------------------------


def columns(system: str, schema: dict[str, Any]) -> list[Column]:
    """Every column of a system's sheet, in the order of its schema's card fields."""
    card = schema["$defs"]["card"]
    found = []
    for field, spec in card["properties"].items():
        spec = _resolve(schema, spec)
        keys = _flat_keys(schema, spec)
        if keys:
            found += [Column(field, key, _shape(schema, _resolve(schema, spec["properties"][key]))) for key in keys]
        else:
            found.append(Column(field, None, _shape(schema, spec)))
    return found


def _resolve(schema: dict[str, Any], spec: Any) -> dict[str, Any]:
    while isinstance(spec, dict) and "$ref" in spec:
        spec = schema["$defs"][spec["$ref"].rsplit("/", 1)[-1]]
    return spec if isinstance(spec, dict) else {}


def _flat_keys(schema: dict[str, Any], spec: dict[str, Any]) -> list[str]:
    """The keys of an object of plain values (Warcaster stats, an MWDA weapon): one column each."""
    if spec.get("type") != "object" or not spec.get("properties"):
        return []
    keys = list(spec["properties"])
    plain = all(_shape(schema, _resolve(schema, spec["properties"][key])) in ("integer", "boolean", "text")
                for key in keys)
    return keys if plain and len(keys) <= 12 else []


def _shape(schema: dict[str, Any], spec: dict[str, Any]) -> str:
    kind = spec.get("type")
    if kind == "integer":
        return "integer"
    if kind == "boolean":
        return "boolean"
    if kind == "string" or "enum" in spec or "const" in spec:
        return "text"
    if kind == "array":
        items = _resolve(schema, spec.get("items", {}))
        return "words" if _shape(schema, items) == "text" else "objects"
    if kind == "object" or "properties" in spec or "allOf" in spec:
        return "object"
    return "any"


def column_letter(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


# --- reading a file ------------------------------------------------------------------------------------------


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


# --- rows to cards -------------------------------------------------------------------------------------------


def read_sheet(rows: list[list[str]], system: str, schema: dict[str, Any]) -> Sheet:
    """The cards of a sheet's rows, with every problem reading found (unknown or repeated columns, cells that are not
    what their column holds, a row of another system, a code used twice) in `problems`: a cell with a problem is left
    out of its card, so the rest of the row can still be checked. SheetError only for a sheet with no cards."""
    known = columns(system, schema)
    by_header = _header_index(system, known)
    problems: list[SheetProblem] = []
    rows = [row for row in rows]
    while rows and not any(cell.strip() for cell in rows[0]):
        rows.pop(0)
    if not rows:
        raise SheetError([SheetProblem("the sheet is empty: the first row must name the columns")])
    if len(rows) - 1 > MAX_ROWS:
        raise SheetError([SheetProblem(f"the sheet has {len(rows) - 1} rows; at most {MAX_ROWS} cards per sheet")])
    placed: dict[int, Column] = {}
    letters: dict[str, str] = {}
    headers: dict[str, str] = {}
    cells: dict[tuple[int, str], str] = {}
    for index, header in enumerate(rows[0]):
        text = header.strip()
        if not text:
            continue
        column = by_header.get(_norm(text))
        letter = column_letter(index)
        if column is None:
            problems.append(SheetProblem(_unknown_column(text, system, known), row=1, column=letter, header=text))
        elif column.name in letters:
            problems.append(SheetProblem(f"column {letters[column.name]} is this column already", row=1,
                                         column=letter, header=text))
        else:
            placed[index] = column
            letters[column.name] = letter
            headers[column.name] = text
    if "code" not in letters and not problems:
        problems.append(SheetProblem(f'no column "code" ({HEADERS_JA["common"]["code"]}): every card needs its code',
                                     row=1))
    cards, card_rows = [], []
    seen: dict[str, int] = {}
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        card: dict[str, Any] = {}
        for index, column in placed.items():
            cell = row[index] if index < len(row) else ""
            if not cell.strip():
                continue
            where = {"row": number, "column": column_letter(index), "header": rows[0][index].strip(), "value": cell}
            cells[(number, column.name)] = cell
            if len(cell) > MAX_CELL:
                problems.append(SheetProblem(f"a cell holds at most {MAX_CELL} characters",
                                             **{**where, "value": cell[:40] + "…"}))
                continue
            try:
                value = read_cell(cell, column.shape)
            except ValueError as error:
                problems.append(SheetProblem(str(error), **where))
                continue
            if column.field == "system":
                if value != system:
                    problems.append(SheetProblem(f"this row is a card of {value!r}; the sheet is imported into "
                                                 f"{system!r}", **where))
                continue
            if column.key:
                card.setdefault(column.field, {})[column.key] = value
            else:
                card[column.field] = value
        code = card.get("code")
        if code is None and "code" in letters and (number, "code") not in cells:
            problems.append(SheetProblem("every card needs its code", row=number, column=letters["code"],
                                         header=headers["code"]))
        if isinstance(code, str) and code in seen:
            problems.append(SheetProblem(f"code already on row {seen[code]}: a code names one card", row=number,
                                         column=letters.get("code"), header="code", value=code))
        elif isinstance(code, str):
            seen[code] = number
        cards.append(card)
        card_rows.append(number)
    if not cards:
        raise SheetError([*problems, SheetProblem("the sheet has a header row but no card rows")])
    return Sheet(system, cards, card_rows, placed, letters, headers, cells, problems)


def _header_index(system: str, known: list[Column]) -> dict[str, Column]:
    index: dict[str, Column] = {}
    for column in [*known, Column("system", None, "text")]:
        for lang in ("en", "ja"):
            index[_norm(column.header(system, lang))] = column
    return index


def _norm(header: str) -> str:
    return re.sub(r"\s+", "", header).lower().replace("．", ".")


def _unknown_column(text: str, system: str, known: list[Column]) -> str:
    names = [column.header(system, lang) for column in known for lang in ("en", "ja")]
    close = process.extractOne(text, names, score_cutoff=70)
    hint = f'; did you mean "{close[0]}"?' if close else ""
    return f"unknown column for {system}{hint} (docs/data-packages.md, \"Spreadsheets\", lists the columns)"


def read_cell(cell: str, shape: str) -> Any:
    """One cell's value for a column of this shape; ValueError saying what was expected."""
    text = cell.strip()
    if shape == "integer":
        if INTEGER.fullmatch(text):
            return int(text)
        if re.fullmatch(r"[-+]?\d+\.0+", text):
            return int(float(text))
        raise ValueError("expected a whole number")
    if shape == "boolean":
        word = text.lower()
        if word in YES:
            return True
        if word in NO:
            return False
        raise ValueError("expected yes or no (yes/no, true/false, 1/0, はい/いいえ, ○/×)")
    if shape == "text":
        return text
    if shape == "words":
        if text.startswith("["):
            value = _json(text)
            if not isinstance(value, list):
                raise ValueError("expected a list of words")
            return value
        return [word.strip() for word in WORD_SPLIT.split(text) if word.strip()]
    if text[:1] in "[{":
        return _json(text)
    if shape == "object":
        items = read_items(text)
        if len(items) != 1:
            raise ValueError("expected one object: key=value pairs separated by spaces")
        return items[0]
    if shape == "objects":
        return read_items(text)
    return read_value(text)


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"not valid JSON: {error.msg} at character {error.pos + 1}") from None


def read_items(text: str) -> list[dict[str, Any]]:
    """`kind=draw count=1; kind=pierce` -> [{"kind": "draw", "count": 1}, {"kind": "pierce"}]: one object per line
    or per `;`, each of `key=value` pairs."""
    items: list[dict[str, Any]] = []
    item: dict[str, Any] = {}
    position, length = 0, len(text)
    while position < length:
        char = text[position]
        if char in ";\n\r；":
            if item:
                items.append(item)
            item = {}
            position += 1
            continue
        if char.isspace():
            position += 1
            continue
        match = KEY.match(text, position)
        if not match or match.end() >= length or text[match.end()] != "=":
            word = re.match(r"[^\s;=]*", text[position:]).group(0) or text[position]
            raise ValueError(f"expected key=value at {_quoted(word)} (items: one per line or separated by ;)")
        key = match.group(0)
        if key in item:
            raise ValueError(f"{key!r} given twice in one item")
        value, position = _item_value(text, match.end() + 1)
        item[key] = value
    if item:
        items.append(item)
    return items


def _item_value(text: str, position: int) -> tuple[Any, int]:
    if position >= len(text) or text[position].isspace() or text[position] in ";\n":
        raise ValueError("a key=value pair without a value")
    char = text[position]
    if char == '"':
        try:
            value, end = json.JSONDecoder().raw_decode(text, position)
        except json.JSONDecodeError:
            raise ValueError('a "quoted text" without its closing quote') from None
        return value, end
    if char in "[{":
        end = _closing(text, position)
        chunk = text[position:end]
        try:
            return json.loads(chunk), end
        except json.JSONDecodeError:
            if char == "{":
                raise ValueError(f"not valid JSON: {chunk}") from None
        return [read_value(word.strip()) for word in chunk[1:-1].split(",") if word.strip()], end
    end = position
    while end < len(text) and not text[end].isspace() and text[end] not in ";\n；":
        end += 1
    return read_value(text[position:end]), end


def _closing(text: str, start: int) -> int:
    depth, position, quoted = 0, start, False
    while position < len(text):
        char = text[position]
        if quoted:
            if char == "\\":
                position += 1
            elif char == '"':
                quoted = False
        elif char == '"':
            quoted = True
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
            if depth == 0:
                return position + 1
        position += 1
    raise ValueError(f"{text[start]!r} without its closing bracket")


def read_value(word: str) -> Any:
    if INTEGER.fullmatch(word):
        return int(word)
    if word.lower() in ("yes", "true"):
        return True
    if word.lower() in ("no", "false"):
        return False
    return word


# --- cards to rows -------------------------------------------------------------------------------------------


def write_rows(cards: Iterable[dict[str, Any]], system: str, schema: dict[str, Any], *, lang: str = "en",
               all_columns: bool = False) -> list[list[str]]:
    """A sheet of these cards: the header row, then one row per card. Only the columns some card uses, unless
    `all_columns` (a template)."""
    cards = list(cards)
    known = columns(system, schema)
    used = known if all_columns else [column for column in known if any(_cell_value(card, column) is not None
                                                                       for card in cards)]
    rows = [[column.header(system, lang) for column in used]]
    for card in cards:
        rows.append([write_cell(_cell_value(card, column), column.shape, lang) for column in used])
    return rows


def template_rows(cards: Iterable[dict[str, Any]], system: str, schema: dict[str, Any], *,
                  lang: str = "en") -> list[list[str]]:
    """The template of a system's sheet (docs/spreadsheets/): every column, and as examples the first card of each
    category (HAGMI) or kind (MWDA, Warcaster) of `cards`, the bundled package's."""
    examples: dict[str, dict[str, Any]] = {}
    for card in cards:
        examples.setdefault(str(card.get("category") or card.get("kind")), card)
    return write_rows(examples.values(), system, schema, lang=lang, all_columns=True)


def _cell_value(card: dict[str, Any], column: Column) -> Any:
    value = card.get(column.field)
    if column.key is None or value is None:
        return value
    return value.get(column.key) if isinstance(value, dict) else None


def write_cell(value: Any, shape: str, lang: str = "en") -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return ("はい" if value else "いいえ") if lang == "ja" else ("yes" if value else "no")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return value
    if shape == "words" and all(isinstance(word, str) and word and not WORD_SPLIT.search(word)
                                and word == word.strip() for word in value) and value:
        return ", ".join(value)
    if shape == "objects" and isinstance(value, list) and value and all(_writable(item) for item in value):
        return "\n".join(write_item(item) for item in value)
    if shape == "object" and _writable(value):
        return write_item(value)
    return json.dumps(value, ensure_ascii=False)


def _writable(item: Any) -> bool:
    return isinstance(item, dict) and bool(item) and all(isinstance(key, str) and KEY.fullmatch(key) for key in item)


def write_item(item: dict[str, Any]) -> str:
    return " ".join(f"{key}={write_value(value)}" for key, value in item.items())


def write_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        simple = BARE.fullmatch(value) and not INTEGER.fullmatch(value) and read_value(value) == value
        return value if simple else json.dumps(value, ensure_ascii=False)
    if isinstance(value, list) and all(isinstance(word, str) and BARE.fullmatch(word) and read_value(word) == word
                                       for word in value):
        return "[" + ", ".join(value) + "]"
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


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


def _quoted(value: str | None) -> str:
    text = value or ""
    text = text if len(text) <= 60 else text[:57] + "…"
    return json.dumps(text, ensure_ascii=False)
