"""Read and write lists in the `hangar.list/1` JSON format (docs/design.md §2.2).

`parse_list_json` checks the STRUCTURE only (list.schema.json plus a few checks JSON Schema cannot say) and
returns the list in normalised form; card codes are not looked up here: an unknown code is kept and reported
later by validation (`list.unknown_card`), so the user's list is never lost.

Normalised form, always exactly these keys in this order:

    {"schema": "hangar.list/1", "system": str, "format": str | None, "name": str,
     "sections": {<every section of the system, in the system's order>: [entry, ...]}}

An entry is {"card": str, "qty": int} plus "options" (an object, keys sorted) only when the input had it.
`format` is None when the input has none (missing, null or ""); `name` is stripped and "" when missing.
Entries are kept exactly as given, in order: duplicates are not merged, so a round trip is exact.
"""
from __future__ import annotations

import copy
import json
import math
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from cards.storable_text import SURROGATES, escaped, holds_surrogate, surrogate_places, surrogate_problem
from cards.systems import SECTION_LABELS, SYSTEMS

from rules_engine.core.messages import Label

from .errors import MAX_ISSUES, ListFormatError, ListIssue
from .messages import TYPE_WORDS, Said, Worded, both, joined

SCHEMA_ID = "hangar.list/1"
SCHEMA_PATH = Path(__file__).with_name("list.schema.json")
MAX_ENTRIES = 1000  # entries in all sections together
MAX_OPTIONS_DEPTH = 32  # levels of objects and lists inside an entry's options
LARGE_NUMBER = 10**60  # shown as "a very large number" in messages (Python cannot even print > 4300 digits)


@lru_cache(maxsize=1)
def list_schema() -> dict[str, Any]:
    """The JSON Schema of hangar.list/1 (builder/listio/list.schema.json)."""
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def _validator() -> Draft202012Validator:
    """The schema's validator, its `system` one of the registered games (the file names the built-in three; a game
    of HANGAR_GAME_PACKAGES or a test's `register` adds its own)."""
    return _validator_of(tuple(SYSTEMS))


@lru_cache(maxsize=4)
def _validator_of(systems: tuple[str, ...]) -> Draft202012Validator:
    schema = copy.deepcopy(list_schema())
    schema["properties"]["system"]["enum"] = list(systems)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


# The schema file is the single source of the quantity limit.
MAX_QTY: int = list_schema()["$defs"]["entry"]["properties"]["qty"]["maximum"]


# The schema's patterns, to be used with `fullmatch`: in JSON Schema (ECMA-262) `$` is the end of the input, but
# Python's `$` (which jsonschema uses) also matches before a final newline, so "tactics-v4\n" passes the schema.
CARD_PATTERN = re.compile(list_schema()["$defs"]["entry"]["properties"]["card"]["pattern"])
FORMAT_PATTERN = re.compile(list_schema()["properties"]["format"]["pattern"])
NAME_PATTERN = re.compile(list_schema()["properties"]["name"]["pattern"])
NAME_MAX: int = list_schema()["properties"]["name"]["maxLength"]


# ---------------------------------------------------------------------------------------------------------
# Public API


def parse_list_json(raw: str | bytes | dict) -> dict[str, Any]:
    """Parse a hangar.list/1 document (JSON text, UTF-8 bytes or an already-decoded dict) and normalise it.

    Raises ListFormatError listing every structural problem with its JSON path (or line and column for a
    JSON syntax error). The input dict is never modified; the result shares nothing with it.
    """
    doc = _decode(raw)
    check_structure(doc)
    return _normalise(doc)


def export_list_json(doc: dict[str, Any]) -> str:
    """The canonical JSON text of a list: normalised, UTF-8 characters as-is, indent 2, fixed key order."""
    return json.dumps(parse_list_json(doc), ensure_ascii=False, indent=2, allow_nan=False) + "\n"


def check_envelope(doc: Any) -> None:
    """The first checks of every list document, whoever reads it, so that saving and validating judge a document
    the same way: the save and import path (`check_structure`, under `parse_list_json`) and POST /api/validate/
    (builder.selectors.document_validate), which then reads the rest as violations. A JSON object, at most
    MAX_ENTRIES entries in all sections (one issue, not one per entry), no lone surrogate in any string or key
    (before the schema: its messages would quote text that no response can carry). Raises ListFormatError."""
    if not isinstance(doc, dict):
        raise ListFormatError([ListIssue(f"a list must be a JSON object, got {_json_type(doc)}",
                                         code="json.not_object", params={"value": _json_type_words(doc)})])
    too_many = _entry_count_issue(doc)
    if too_many:
        raise ListFormatError([too_many])
    check_storable_text(doc)


def check_structure(doc: Any) -> None:
    """Raise ListFormatError unless `doc` (decoded JSON) has the hangar.list/1 structure."""
    check_envelope(doc)
    unreadable = _value_issues(doc)
    if unreadable:  # values jsonschema itself cannot describe (it would raise while writing its message)
        raise ListFormatError([issue for _, issue in unreadable])
    keyed = _schema_issues(doc) + _python_issues(doc) + _whole_string_issues(doc)
    if keyed:
        keyed.sort(key=lambda pair: pair[0])  # stable: same-path issues keep their order
        raise ListFormatError([issue for _, issue in keyed])


def normalised_document(
    system: str, sections: dict[str, list[dict[str, Any]]], format: str | None = None, name: str = ""
) -> dict[str, Any]:
    """Build a normalised hangar.list/1 dict from already-checked parts (shared with the text reader)."""
    return {
        "schema": SCHEMA_ID,
        "system": system,
        "format": format or None,
        "name": name.strip(),
        "sections": {
            section: [_normalise_entry(entry) for entry in sections.get(section, [])]
            for section in SYSTEMS[system]["sections"]
        },
    }


def canonical_options(options: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of an entry's options with keys sorted at every level. ValueError if not plain JSON."""
    problem = options_problem(options)
    if problem:
        raise ValueError(problem)
    return json.loads(json.dumps(options, ensure_ascii=False, allow_nan=False, sort_keys=True))


def options_problem(options: Any) -> str | None:
    """Why an entry's options cannot be kept, or None. Options must be plain JSON (string keys, finite numbers),
    at most MAX_OPTIONS_DEPTH levels deep, without the character U+0000 (PostgreSQL cannot store it) or lone
    surrogates (cards.storable_text: nothing can store them). Walked without recursion, so any depth gets this
    answer rather than a RecursionError."""
    stack = [(options, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)) and depth > MAX_OPTIONS_DEPTH:
            return Said(f"must not be nested more than {MAX_OPTIONS_DEPTH} levels deep",
                        f"{MAX_OPTIONS_DEPTH}段より深い入れ子にはできません")
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    return Said(f"must have only string keys, got the key {_show(key)}",
                                f"キーは文字列だけにしてください（キー{_show(key)}があります）")
                if "\x00" in key:
                    return Said("must not contain the character U+0000", "文字U+0000は使えません")
                if SURROGATES.search(key):
                    return Said(f"must not have a key that {surrogate_problem(key)}",
                                "保存できない文字（孤立したサロゲート）を含むキーがあります")
                stack.append((item, depth + 1))
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)
        elif isinstance(value, str):
            if "\x00" in value:
                return Said("must not contain the character U+0000", "文字U+0000は使えません")
            if SURROGATES.search(value):
                return Said(f"must not hold text that {surrogate_problem(value)}",
                            "保存できない文字（孤立したサロゲート）を含む文字列があります")
        elif isinstance(value, float):
            if not math.isfinite(value):
                return Said(f"must hold only finite numbers, got {value}",
                            f"有限の数値だけにしてください（{value}があります）")
        elif isinstance(value, int) and not isinstance(value, bool):
            if abs(value) >= LARGE_NUMBER:
                return Said("must not hold numbers of more than 60 digits", "60桁を超える数値は使えません")
        elif value is not None and not isinstance(value, bool):
            return Said(f"must hold only plain JSON values, got {type(value).__name__}",
                        f"JSONの値だけにしてください（{type(value).__name__}があります）")
    return None


# ---------------------------------------------------------------------------------------------------------
# Decoding


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not allowed in a list (only finite numbers)")


def _decode(raw: str | bytes | dict) -> Any:
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, (bytes, bytearray)):
        try:
            raw = bytes(raw).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ListFormatError([ListIssue(f"the file is not UTF-8 text (invalid byte at offset {exc.start})",
                                             code="file.not_utf8", params={"offset": exc.start})])
    if not isinstance(raw, str):
        raise ListFormatError([ListIssue(f"a list must be JSON text or an object, got {type(raw).__name__}",
                                         code="json.not_text", params={"value": type(raw).__name__})])
    try:
        return json.loads(raw.lstrip("\ufeff"), parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        message = f"line {exc.lineno}, column {exc.colno}: invalid JSON: {exc.msg}"
        raise ListFormatError([ListIssue(message, line=exc.lineno, code="json.invalid",
                                         params={"column": exc.colno, "detail": exc.msg})])
    except ValueError as exc:  # NaN / Infinity
        raise ListFormatError([ListIssue(f"invalid JSON: {exc}", code="json.invalid_value",
                                         params={"detail": str(exc)})])
    except RecursionError:
        raise ListFormatError([ListIssue("invalid JSON: nested too deeply", code="json.too_deep")]) from None


# ---------------------------------------------------------------------------------------------------------
# Structure checks
#
# Issues are collected with a sort key made of their path parts (indexes compared as numbers), then sorted
# into document order: weapons[2] before weapons[10], the top level first.

_Keyed = list[tuple[tuple, ListIssue]]


def _issue(parts: list[str | int], text: str, code: str = "json.problem", **params: Any
           ) -> tuple[tuple, ListIssue]:
    """A structure problem at a path; `code` and `params` say it in each language (builder/listio/messages.py), by
    default the English sentence itself."""
    path = format_path(parts)
    key = tuple((1, part, "") if isinstance(part, int) else (0, 0, str(part)) for part in parts)
    params = params if code != "json.problem" else {"detail": both(text)}
    return key, ListIssue(f"{path or 'list'}: {text}", path=path or None, code=code, params=params)


def entry_count(doc: dict[str, Any]) -> int:
    """Entries in all sections of a decoded document (sections or entries of the wrong type count as none)."""
    sections = doc.get("sections")
    if not isinstance(sections, dict):
        return 0
    return sum(len(entries) for entries in sections.values() if isinstance(entries, list))


def _entry_count_issue(doc: dict[str, Any]) -> ListIssue | None:
    total = entry_count(doc)
    if total <= MAX_ENTRIES:
        return None
    return ListIssue(f"sections: {total} entries; a list holds at most {MAX_ENTRIES}", path="sections",
                     code="json.too_many_entries", params={"total": total, "max": MAX_ENTRIES})


def check_storable_text(doc: Any) -> None:
    """Raise ListFormatError naming the path of every lone surrogate in a string or key of `doc` (the path shows it
    escaped, `\\udfff`). A JSON escape such as "\\udfff" decodes to one, and no database, template or UTF-8
    response can hold it (cards.storable_text). Also run by POST /api/validate/, which reads no list otherwise."""
    if holds_surrogate(doc):
        raise ListFormatError([_issue(parts, problem)[1] for parts, _key, problem in surrogate_places(doc, MAX_ISSUES)])


def _value_issues(doc: dict[str, Any]) -> _Keyed:
    """Numbers of more than 60 digits and nesting deeper than an entry's options may go, found without recursion.

    A decoded JSON text cannot hold them (json.loads refuses), but a dict handed in by Python code can.
    """
    keyed: _Keyed = []
    deepest = MAX_OPTIONS_DEPTH + 4  # sections.<key>[i].options is 4 levels down
    stack: list[tuple[Any, list[str | int]]] = [(doc, [])]
    while stack and len(keyed) < MAX_ISSUES:
        value, parts = stack.pop()
        if isinstance(value, (dict, list)) and len(parts) >= deepest:
            where = parts[:4] if parts[0] == "sections" else parts[:1]
            keyed.append(_issue(where, Said(f"must not be nested more than {MAX_OPTIONS_DEPTH} levels deep",
                                            f"{MAX_OPTIONS_DEPTH}段より深い入れ子にはできません")))
        elif isinstance(value, dict):
            stack.extend((item, parts + [key]) for key, item in value.items())
        elif isinstance(value, list):
            stack.extend((item, parts + [index]) for index, item in enumerate(value))
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) >= LARGE_NUMBER:
            keyed.append(_issue(parts, Said("got a very large number (more than 60 digits)",
                                            "60桁を超える数値があります")))
    return sorted(keyed, key=lambda pair: pair[0])


def _schema_issues(doc: dict[str, Any]) -> _Keyed:
    keyed: _Keyed = []
    seen: set[str] = set()
    for error in _validator().iter_errors(doc):
        text, code, params = _describe(error)
        pair = _issue(list(error.absolute_path), text, code, **params)
        if pair[1].message not in seen:  # `required` reports once per missing key
            seen.add(pair[1].message)
            keyed.append(pair)
    return keyed


def _python_issues(doc: dict[str, Any]) -> _Keyed:
    """What JSON Schema cannot say well: section names per system, 2.0 as a quantity, non-JSON options."""
    keyed: _Keyed = []
    sections = doc.get("sections")
    if not isinstance(sections, dict):
        return keyed
    system = doc.get("system")
    if isinstance(system, str) and system in SYSTEMS:
        valid = SYSTEMS[system]["sections"]
        for key in sections:
            if key not in valid:
                keyed.append(_issue(["sections", key],
                                    f"unknown section {_show(key)} for {system}; valid sections: {', '.join(valid)}",
                                    "json.unknown_section", key=_show(key),
                                    system=Worded(system, SYSTEMS[system]["name"], SYSTEMS[system]["name_ja"]),
                                    valid=Worded(", ".join(valid), ", ".join(SECTION_LABELS[v]["en"] for v in valid),
                                                 "、".join(SECTION_LABELS[v]["ja"] for v in valid))))
    for key, entries in sections.items():
        if isinstance(entries, list):
            for index, entry in enumerate(entries):
                keyed.extend(_entry_issues(["sections", key, index], entry))
    return keyed


def _whole_string_issues(doc: dict[str, Any]) -> _Keyed:
    """Values that pass a schema pattern only because Python's `$` matched before a final newline."""
    schema = list_schema()
    format_rule, card_rule = schema["properties"]["format"], schema["$defs"]["entry"]["properties"]["card"]
    checks: list[tuple[list[str | int], Any, re.Pattern[str], str]] = [
        (["format"], doc.get("format"), FORMAT_PATTERN, format_rule["x-expected"])
    ]
    sections = doc.get("sections")
    for key, entries in sections.items() if isinstance(sections, dict) else ():
        for index, entry in enumerate(entries if isinstance(entries, list) else ()):
            if isinstance(entry, dict):
                parts: list[str | int] = ["sections", key, index, "card"]
                checks.append((parts, entry.get("card"), CARD_PATTERN, card_rule["x-expected"]))
    return [
        _issue(parts, f"must be {expected}, got {_show(value)}")
        for parts, value, pattern, expected in checks
        if isinstance(value, str) and pattern.search(value) and not pattern.fullmatch(value)
    ]


def _entry_issues(parts: list[str | int], entry: Any) -> _Keyed:
    keyed: _Keyed = []
    if not isinstance(entry, dict):
        return keyed
    qty = entry.get("qty")
    if isinstance(qty, float) and qty.is_integer():  # JSON Schema counts 2.0 as an integer; we do not
        keyed.append(_issue(parts + ["qty"], f"must be a whole number written without a decimal point, got {qty}",
                            "json.whole_number", value=qty))
    options = entry.get("options")
    if isinstance(options, dict):
        problem = options_problem(options)
        if problem:
            keyed.append(_issue(parts + ["options"], problem))
    return keyed


def _describe(error: ValidationError) -> tuple[str, str, dict[str, Any]]:
    """A user-facing sentence for one JSON Schema error: (English sentence, message code, its parameters)."""
    kind, expected, value = error.validator, error.validator_value, error.instance
    if kind == "required":
        missing = [key for key in expected if key not in value]
        keys = ", ".join(f'"{key}"' for key in missing)
        word = f"key{'s' if len(missing) > 1 else ''}"
        return f"missing required {word} {keys}", "json.required", {"keys_word": word, "keys": keys}
    if kind == "additionalProperties":
        allowed = list(error.schema.get("properties", {}))
        extra = [key for key in value if key not in allowed]
        word, keys = f"key{'s' if len(extra) > 1 else ''}", ", ".join(_show(key) for key in extra)
        return (f"unknown {word} {keys}; allowed keys: {', '.join(allowed)}", "json.unknown_keys",
                {"keys_word": word, "keys": keys, "allowed": ", ".join(allowed)})
    if kind == "type":
        wanted = expected if isinstance(expected, list) else [expected]
        words = joined([TYPE_WORDS[t] for t in wanted], Label(" or ", "か"))
        return (f"must be {words.en}, got {_json_type(value)}", "json.type",
                {"wanted": words, "value": _json_type_words(value)})
    if kind in ("minimum", "maximum"):
        low, high = error.schema.get("minimum"), error.schema.get("maximum")
        return (f"must be from {low} to {high}, got {_show(value)}", "json.range",
                {"min": low, "max": high, "value": _show(value)})
    if kind == "const":
        return f"must be {_show(expected)}, got {_show(value)}", "json.const", {"expected": _show(expected),
                                                                              "value": _show(value)}
    if kind == "enum":
        known = ", ".join(map(str, expected))
        return (f"unknown value {_show(value)}; expected one of: {known}", "json.enum",
                {"value": _show(value), "expected": known})
    if "x-expected" in error.schema:
        text = f"must be {error.schema['x-expected']}, got {_show(value)}"
        return text, "json.problem", {"detail": text}
    return error.message, "json.problem", {"detail": error.message}


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"a number ({_number(value)})"
    if isinstance(value, str):
        return f"a string ({_show(value)})"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _json_type_words(value: Any) -> Label:
    """_json_type in both languages: "a string ("x")" / "文字列（"x"）"."""
    english = _json_type(value)
    if isinstance(value, bool) or value is None:
        return Label(english, english)
    if isinstance(value, (int, float)):
        return Label(english, f"数値（{_number(value)}）")
    if isinstance(value, str):
        return Label(english, f"文字列（{_show(value)}）")
    if isinstance(value, list):
        return Label(english, "リスト")
    if isinstance(value, dict):
        return Label(english, "オブジェクト")
    return Label(english, english)


def _number(value: int | float) -> str:
    return "a very large number" if isinstance(value, int) and abs(value) >= LARGE_NUMBER else repr(value)


def _show(value: Any, limit: int = 60) -> str:
    """A short JSON rendering of an untrusted value for a message; never raises (huge numbers, deep nesting)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return _number(value)
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = _json_type(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def format_path(parts: Iterable[str | int]) -> str:
    """JSON path in the user's words: ["sections", "weapons", 3, "qty"] -> "sections.weapons[3].qty"."""
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{escaped(str(part))}" if text else escaped(str(part)))
    return text


# ---------------------------------------------------------------------------------------------------------
# Normalisation


def _normalise(doc: dict[str, Any]) -> dict[str, Any]:
    return normalised_document(
        system=doc["system"], sections=doc["sections"], format=doc.get("format"), name=doc.get("name", "")
    )


def _normalise_entry(entry: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = {"card": entry["card"], "qty": int(entry["qty"])}
    if "options" in entry:
        result["options"] = canonical_options(entry["options"])
    return result
