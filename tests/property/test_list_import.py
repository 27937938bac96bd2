"""Property tests of list import (builder.listio): the text format and `hangar.list/1` JSON (docs/list-formats.md).

Whatever the input, a reader either returns a list in normalised form that keeps every documented limit, or raises
ListFormatError whose issues say where: a line number for the text format, a JSON path for JSON. Nothing else is
ever raised. A list that was read can always be written back and read again unchanged.
"""
from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from builder.listio import (
    MAX_ISSUES,
    ListFormatError,
    export_list_json,
    export_list_text,
    parse_list_json,
    parse_list_text,
)
from builder.listio.jsonio import format_path
from cards.systems import SYSTEMS

from .strategies import (
    EXTREMES,
    SYSTEM_SLUGS,
    TEXT,
    catalog,
    catalog_for,
    examples,
    json_values,
    list_documents,
    list_texts,
    paths_of,
)

SYSTEMS_SECTIONS = {system: info["sections"][0] for system, info in SYSTEMS.items()}


# --- shared checks -------------------------------------------------------------------------------------------


def check_normalised(doc: dict[str, Any]) -> None:
    """A list in normalised form: the JSON reader accepts it as it is (so every documented limit holds), and it
    can be saved on both databases (PostgreSQL refuses U+0000 in JSON)."""
    assert list(doc) == ["schema", "system", "format", "name", "sections"]
    assert parse_list_json(copy.deepcopy(doc)) == doc
    raw = export_list_json(doc)
    assert parse_list_json(raw) == doc
    raw.encode("utf-8")  # storable and sendable: no lone surrogate (tests/property/test_unstorable_text.py)
    assert "\\u0000" not in raw and "\x00" not in raw


def check_error(error: ListFormatError) -> None:
    assert error.issues and len(error.issues) <= MAX_ISSUES and error.total >= len(error.issues)
    assert error.to_dict()["code"] == "list.invalid"
    assert error.message.startswith(error.issues[0].message)
    json.dumps(error.to_dict(), ensure_ascii=False).encode("utf-8")  # as the API sends it (no lone surrogate)
    for issue in error.issues:
        assert isinstance(issue.message, str) and issue.message.strip()


def check_text_error(error: ListFormatError, line_count: int) -> None:
    """Text issues: `line N: ...` with 1 ≤ N ≤ the number of lines, in file order."""
    check_error(error)
    lines = [issue.line for issue in error.issues]
    for issue in error.issues:
        assert issue.path is None
        if issue.line is not None:
            assert 1 <= issue.line <= line_count, issue
            assert issue.message.startswith(f"line {issue.line}: "), issue
    numbered = [line or 0 for line in lines]
    assert numbered == sorted(numbered), f"issues not in file order: {lines}"


def read_text(text: str, system: str | None) -> dict[str, Any] | ListFormatError:
    try:
        return parse_list_text(text, catalog_for, system=system)
    except ListFormatError as error:
        return error


# --- text ----------------------------------------------------------------------------------------------------


@given(case=list_texts())
@examples(150)
def test_text_shaped_like_a_list_reads_or_says_which_lines_are_wrong(case):
    text, system, line_count = case
    result = read_text(text, system)
    if isinstance(result, ListFormatError):
        check_text_error(result, line_count)
        return
    check_normalised(result)
    # Whatever was read can be written and read back unchanged, in both languages.
    for lang in ("ja", "en"):
        written = export_list_text(result, catalog(result["system"]), lang=lang)
        assert parse_list_text(written, catalog_for) == result


HEADER_WORDS = st.sampled_from(["Name", "Name", "System", "Format", "名前", "システム", "フォーマット", "Author", "game"])
HEADER_VALUES = st.one_of(
    st.sampled_from(["hagmi", "mwda", "HAGMI!", "chess", "tactics-v4", "タクティクス (Ver.4)", "skirmish", ""]),
    TEXT, st.text(st.characters(max_codepoint=0x7F), max_size=20),  # ASCII, control characters included
    st.integers(195, 205).map(lambda n: "名" * n),  # around the documented limits (name: 200 characters)
    st.integers(60, 70).map(lambda n: "v" * n),  # (format slug: 64 characters)
).map(lambda value: value.replace("\r", " ").replace("\n", " "))


@st.composite
def header_lines(draw) -> tuple[str, str]:
    word = draw(HEADER_WORDS)
    if word in ("System", "システム", "game") and draw(st.integers(0, 3)):
        return word, draw(st.sampled_from([*SYSTEM_SLUGS, "HAGMI!", "MechWarrior: Dark Age"]))
    return word, draw(HEADER_VALUES)


@given(headers=st.lists(header_lines(), max_size=6), system=st.sampled_from(SYSTEM_SLUGS))
@examples(80)
def test_any_header_lines_read_or_are_refused_on_their_line_in_order(headers, system):
    """Name:, System:, Format: (and unknown ones) with any value, any number of times, before a section."""
    lines = [f"{word}: {value}" for word, value in headers]
    section = SYSTEMS_SECTIONS[system]
    text = "\n".join([*lines, f"[{section}]", "1 (XX-999)"])
    result = read_text(text, system)
    if isinstance(result, ListFormatError):
        check_text_error(result, len(lines) + 2)
    else:
        check_normalised(result)
        assert parse_list_text(export_list_text(result, catalog(result["system"])), catalog_for) == result


@given(text=st.text(), system=st.none() | st.sampled_from(SYSTEM_SLUGS))
@examples(60)
def test_any_text_reads_or_says_which_lines_are_wrong(text, system):
    result = read_text(text, system)
    line_count = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1
    if isinstance(result, ListFormatError):
        check_text_error(result, line_count)
    else:
        check_normalised(result)


@given(data=st.binary(max_size=200), system=st.none() | st.sampled_from(SYSTEM_SLUGS))
@examples(30)
def test_any_bytes_read_as_utf8_or_are_refused_as_not_utf8(data, system):
    try:
        check_normalised(parse_list_text(data, catalog_for, system=system))
    except ListFormatError as error:
        check_error(error)




# --- JSON ----------------------------------------------------------------------------------------------------


def check_json_error(error: ListFormatError) -> None:
    """JSON issues: structure problems carry a path and start with it; syntax errors carry a line."""
    check_error(error)
    for issue in error.issues:
        if issue.path is not None:
            assert issue.message.startswith(f"{issue.path}: "), issue
            assert issue.line is None


@given(value=json_values())
@examples(60)
def test_any_json_value_is_read_or_refused_with_paths(value):
    for raw in (value, json.dumps(value), json.dumps(value).encode("utf-8")):
        try:
            check_normalised(parse_list_json(raw))
        except ListFormatError as error:
            check_json_error(error)


@given(text=st.text(max_size=80))
@examples(40)
def test_any_text_as_json_is_read_or_refused_with_line_and_column(text):
    try:
        check_normalised(parse_list_json(text))
    except ListFormatError as error:
        check_json_error(error)




def related(issue_path: str | None, changed: tuple) -> bool:
    """The issue points at the changed value, inside it, or at the object holding it."""
    if issue_path is None:  # top-level problems (missing or unknown keys) have no path
        return len(changed) <= 1
    changed_text = format_path(list(changed))
    return (issue_path == changed_text or issue_path.startswith(changed_text + ".")
            or issue_path.startswith(changed_text + "[") or changed_text.startswith(issue_path))


@st.composite
def mutated_documents(draw) -> tuple[dict[str, Any], tuple, str]:
    """A valid document with one value replaced by any JSON value (or an extreme one), or one key deleted."""
    doc = draw(list_documents())
    path = draw(st.sampled_from(paths_of(doc) or [("schema",)]))
    parent = doc
    for part in path[:-1]:
        parent = parent[part]
    how = draw(st.sampled_from(["replace", "delete"])) if isinstance(parent, dict) else "replace"
    if how == "delete":
        del parent[path[-1]]
    elif draw(st.integers(0, 4)) == 0:
        how = draw(st.sampled_from(sorted(EXTREMES)))  # put in by the test: too big to print or copy
    else:
        parent[path[-1]] = draw(json_values(6))
    return doc, path, how


@given(case=mutated_documents())
@examples(120)
def test_a_changed_value_in_a_valid_list_is_read_or_refused_naming_its_path(case):
    doc, path, how = case
    if how in EXTREMES:
        parent = doc
        for part in path[:-1]:
            parent = parent[part]
        parent[path[-1]] = EXTREMES[how]()
    try:
        result = parse_list_json(doc)
    except ListFormatError as error:
        check_json_error(error)
        if path[0] in ("system", "sections") and len(path) <= 2:
            return  # another system or section makes other sections wrong, and the count of entries is global
        assert any(related(issue.path, path) for issue in error.issues), (path, error.to_dict())
        return
    check_normalised(result)


# --- regressions found by the properties above ----------------------------------------------------------------


@pytest.mark.parametrize("header", ["Name: " + "名" * 201, "Name: a\x0cb", "Name: tab\there", "Name: nul\x00"],
                         ids=["201-characters", "form-feed", "tab", "nul"])
def test_text_name_header_keeps_the_documented_name_limits(header):
    """Found by test_text_shaped_like_a_list...: the text reader accepted names the JSON format refuses, and the
    list could then not be exported. Now the Name: line is refused with its line number."""
    with pytest.raises(ListFormatError) as info:
        parse_list_text(f"System: hagmi\n{header}\n", catalog_for)
    assert [issue.line for issue in info.value.issues] == [2]
    assert "name" in info.value.issues[0].message.lower()


@pytest.mark.parametrize("value", [10**5000, -(10**5000)], ids=["huge", "huge-negative"])
def test_huge_integers_in_a_list_object_are_refused_not_crashed_on(value):
    """Found by test_any_json_value...: a >4300-digit integer made the error message itself raise ValueError."""
    entry = {"card": "HS-001", "qty": value}
    for doc in ({"schema": "hangar.list/1", "system": "hagmi", "sections": {"weapons": [entry]}},
                {"schema": "hangar.list/1", "system": value, "sections": {}}):
        with pytest.raises(ListFormatError) as info:
            parse_list_json(doc)
        assert "very large number" in info.value.message or "more than" in info.value.message


def test_deeply_nested_options_are_refused_with_their_path():
    """Found while fuzzing options: nesting deeper than Python's recursion limit raised RecursionError."""
    options: dict[str, Any] = {}
    inner = options
    for _ in range(5000):
        inner["a"] = {}
        inner = inner["a"]
    doc = {"schema": "hangar.list/1", "system": "hagmi",
           "sections": {"weapons": [{"card": "HS-001", "qty": 1, "options": options}]}}
    with pytest.raises(ListFormatError) as info:
        parse_list_json(doc)
    assert [issue.path for issue in info.value.issues] == ["sections.weapons[0].options"]


def test_nul_character_in_options_is_refused_with_its_path():
    """PostgreSQL cannot store U+0000 in a JSON document: refused when read, with the path, not when saved."""
    doc = {"schema": "hangar.list/1", "system": "mwda",
           "sections": {"army": [{"card": "MW-001", "qty": 1, "options": {"note": "a\x00b"}}]}}
    with pytest.raises(ListFormatError) as info:
        parse_list_json(doc)
    assert [issue.path for issue in info.value.issues] == ["sections.army[0].options"]


@pytest.mark.parametrize("key,value", [("format", "tactics-v4\n"), ("format", "skirmish\n")])
def test_a_trailing_newline_does_not_slip_past_the_patterns(key, value):
    """Python's `$` also matches before a final newline, so "tactics-v4\\n" passed the format pattern and could
    not be written as text and read back. The JSON reader now refuses it like any other line break."""
    doc = {"schema": "hangar.list/1", "system": "hagmi", key: value, "sections": {}}
    with pytest.raises(ListFormatError) as info:
        parse_list_json(doc)
    assert [issue.path for issue in info.value.issues] == [key]


def test_card_code_with_a_trailing_newline_is_refused():
    doc = {"schema": "hangar.list/1", "system": "hagmi", "sections": {"weapons": [{"card": "HS-001\n", "qty": 1}]}}
    with pytest.raises(ListFormatError) as info:
        parse_list_json(doc)
    assert [issue.path for issue in info.value.issues] == ["sections.weapons[0].card"]


def test_issues_come_in_line_order_when_the_format_header_is_wrong():
    """The Format: header is checked when the sections start, after later header lines were read."""
    text = "Format: ???\nName: a\nName: b\nSystem: hagmi\n[兵器]\n"
    with pytest.raises(ListFormatError) as info:
        parse_list_text(text, catalog_for)
    assert [issue.line for issue in info.value.issues] == [1, 3]
