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

This module is the columns of a system and rows <-> cards; a file's bytes <-> rows of text cells (CSV, TSV, .xlsx,
formula neutralising, the limits) are cards/sheetfiles.py, and one cell's text <-> a field's value is
cards/sheetcells.py.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable

from rapidfuzz import process

from cards.sheetcells import read_cell, write_cell
from cards.sheetfiles import MAX_ROWS, SheetError, SheetProblem, column_letter

MAX_CELL = 20_000  # characters in one cell

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


