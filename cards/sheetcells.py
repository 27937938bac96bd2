"""One spreadsheet cell's text <-> a card field's value, by the shape of the field's column (docs/data-packages.md
"Spreadsheets"): a number, a text, yes/no, a list of words, one object or a list of objects written as `key=value`
pairs, or the field's JSON. Reading raises ValueError saying what was expected; writing gives the text that reads back
as the same value. No Django; the columns and their shapes are cards/spreadsheet.py.
"""
from __future__ import annotations

import json
import re
from typing import Any

from cards.sheetfiles import quoted

YES = {"yes", "y", "true", "1", "はい", "○", "◯", "✓", "✔"}
NO = {"no", "n", "false", "0", "いいえ", "×", "✗", "-"}
WORD_SPLIT = re.compile(r"[,、;；\n]")
BARE = re.compile(r"[\w\-.+×]+")
INTEGER = re.compile(r"[-+]?\d+")
KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


# --- reading a cell -------------------------------------------------------------------------------------------


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
            raise ValueError(f"expected key=value at {quoted(word)} (items: one per line or separated by ;)")
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


# --- writing a cell -------------------------------------------------------------------------------------------


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
