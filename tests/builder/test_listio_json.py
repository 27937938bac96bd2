"""hangar.list/1 JSON reader and writer (docs/design.md §2.2, docs/list-formats.md)."""
import json

import pytest

from builder.listio import (
    MAX_ENTRIES, MAX_QTY, ListFormatError, ListIssue, export_list_json, parse_list_json,
)
from builder.listio.errors import MAX_ISSUES


def hagmi_list(**overrides):
    doc = {
        "schema": "hangar.list/1",
        "system": "hagmi",
        "format": "tactics-v4",
        "name": "Blue rush",
        "sections": {"weapons": [{"card": "HS-001", "qty": 2}], "tactics": [], "damage": [], "secret": []},
    }
    doc.update(overrides)
    return doc


def issues_of(raw):
    with pytest.raises(ListFormatError) as caught:
        parse_list_json(raw)
    return caught.value.issues


def only_issue(raw) -> ListIssue:
    issues = issues_of(raw)
    assert len(issues) == 1, [issue.message for issue in issues]
    return issues[0]


# --- normalisation ---------------------------------------------------------------------------------------


def test_normalised_doc_has_every_key_and_every_section_of_the_system():
    doc = parse_list_json({"schema": "hangar.list/1", "system": "warcaster", "sections": {"rack": []}})
    assert doc == {"schema": "hangar.list/1", "system": "warcaster", "format": None, "name": "",
                   "sections": {"force": [], "rack": []}}
    assert list(doc) == ["schema", "system", "format", "name", "sections"]


def test_sections_come_in_the_systems_order_whatever_the_input_order():
    doc = parse_list_json(hagmi_list(sections={"secret": [], "weapons": [{"card": "HS-1", "qty": 1}]}))
    assert list(doc["sections"]) == ["weapons", "tactics", "damage", "secret"]


@pytest.mark.parametrize("written", [None, ""])
def test_missing_null_or_empty_format_normalises_to_none(written):
    assert parse_list_json(hagmi_list(format=written))["format"] is None
    no_format = hagmi_list()
    del no_format["format"]
    assert parse_list_json(no_format)["format"] is None


def test_name_is_stripped_and_defaults_to_empty():
    assert parse_list_json(hagmi_list(name="  Blue rush\u3000"))["name"] == "Blue rush"
    no_name = hagmi_list()
    del no_name["name"]
    assert parse_list_json(no_name)["name"] == ""


def test_duplicate_entries_are_kept_in_order_not_merged():
    entries = [{"card": "HS-001", "qty": 1}, {"card": "HS-002", "qty": 1}, {"card": "HS-001", "qty": 1}]
    doc = parse_list_json(hagmi_list(sections={"weapons": entries}))
    assert doc["sections"]["weapons"] == entries


def test_options_are_kept_only_when_present_with_sorted_keys():
    entries = [{"card": "WC-010", "qty": 1, "options": {"weapons": ["WC-040"], "cortex": "WC-030"}},
               {"card": "WC-011", "qty": 1}]
    doc = parse_list_json({"schema": "hangar.list/1", "system": "warcaster", "sections": {"force": entries}})
    force = doc["sections"]["force"]
    assert force[0]["options"] == {"cortex": "WC-030", "weapons": ["WC-040"]}
    assert list(force[0]["options"]) == ["cortex", "weapons"]
    assert "options" not in force[1]


def test_unknown_card_codes_are_kept_for_validation_to_report():
    doc = parse_list_json(hagmi_list(sections={"weapons": [{"card": "NOPE-404", "qty": 3}]}))
    assert doc["sections"]["weapons"] == [{"card": "NOPE-404", "qty": 3}]


def test_input_dict_is_not_modified_and_not_shared():
    raw = hagmi_list(sections={"weapons": [{"card": "HS-001", "qty": 1, "options": {"b": [1], "a": 1}}]})
    before = json.dumps(raw)
    doc = parse_list_json(raw)
    doc["sections"]["weapons"][0]["options"]["b"].append(2)
    assert json.dumps(raw) == before


def test_str_and_bytes_with_bom_read_the_same_as_a_dict():
    text = json.dumps(hagmi_list(), ensure_ascii=False)
    expected = parse_list_json(hagmi_list())
    assert parse_list_json(text) == expected
    assert parse_list_json(("\ufeff" + text).encode("utf-8")) == expected


def test_limits_are_the_contract_values():
    assert (MAX_QTY, MAX_ENTRIES, MAX_ISSUES) == (999, 1000, 50)


def test_qty_at_the_limits_is_accepted():
    doc = parse_list_json(hagmi_list(sections={"weapons": [{"card": "A", "qty": 1}, {"card": "B", "qty": MAX_QTY}]}))
    assert [entry["qty"] for entry in doc["sections"]["weapons"]] == [1, 999]


# --- export ------------------------------------------------------------------------------------------------


def test_export_is_canonical_json_that_reads_back_identically():
    raw = hagmi_list(name="青の突撃", sections={
        "secret": [{"card": "HS-031", "qty": 1}],
        "weapons": [{"card": "HS-001", "qty": 2, "options": {"z": 1, "a": {"y": 2, "b": 3}}}],
    })
    text = export_list_json(raw)
    assert "青の突撃" in text  # ensure_ascii=False
    assert text.startswith('{\n  "schema": "hangar.list/1",\n  "system": "hagmi",\n  "format": "tactics-v4",')
    assert text.index('"a"') < text.index('"z"') and text.index('"b"') < text.index('"y"')
    assert parse_list_json(text) == parse_list_json(raw)
    assert export_list_json(parse_list_json(text)) == text


def test_export_refuses_a_bad_document():
    with pytest.raises(ListFormatError):
        export_list_json(hagmi_list(system="chess"))


# --- errors: syntax ------------------------------------------------------------------------------------------


def test_json_syntax_error_gives_line_and_column():
    issue = only_issue('{\n  "schema": "hangar.list/1",\n  "system": "hagmi",,\n}')
    assert issue.line == 3
    assert issue.message.startswith("line 3, column 21: invalid JSON")


def test_bytes_that_are_not_utf8_are_refused_clearly():
    assert "not UTF-8" in only_issue(b'{"name": "\xff"}').message


@pytest.mark.parametrize("raw", ['{"schema": NaN}', '{"a": Infinity}'])
def test_nan_and_infinity_are_refused(raw):
    assert "NaN" in only_issue(raw).message or "Infinity" in only_issue(raw).message


def test_deeply_nested_json_is_refused_not_crashed():
    assert "nested too deeply" in only_issue("[" * 100_000 + "]" * 100_000).message


@pytest.mark.parametrize("raw, shown", [("[]", "a list"), ('"x"', 'a string ("x")'), ("3", "a number (3)")])
def test_top_level_must_be_an_object(raw, shown):
    assert only_issue(raw).message == f"a list must be a JSON object, got {shown}"


# --- errors: structure ------------------------------------------------------------------------------------------


def test_schema_must_be_hangar_list_1():
    issue = only_issue(hagmi_list(schema="hangar.list/2"))
    assert (issue.path, issue.message) == ("schema", 'schema: must be "hangar.list/1", got "hangar.list/2"')


def test_system_must_be_known():
    issue = only_issue(hagmi_list(system="chess"))
    assert issue.path == "system"
    assert '"chess"' in issue.message and "hagmi, mwda, warcaster" in issue.message


def test_required_keys_are_named():
    issue = only_issue({"name": "x"})
    assert issue.message == 'list: missing required keys "schema", "system", "sections"'


def test_unknown_top_level_key_is_named_with_the_allowed_ones():
    issue = only_issue(hagmi_list(owner="me"))
    assert 'unknown key "owner"' in issue.message and "schema, system, format, name, sections" in issue.message


@pytest.mark.parametrize("fmt", ["tactics v4", "-x", 5])
def test_format_must_be_a_slug(fmt):
    assert only_issue(hagmi_list(format=fmt)).path == "format"


@pytest.mark.parametrize("name", ["two\nlines", "x" * 201, 7])
def test_name_must_be_one_short_line_of_text(name):
    assert only_issue(hagmi_list(name=name)).path == "name"


def test_unknown_section_is_named_with_the_valid_ones():
    issue = only_issue(hagmi_list(sections={"army": []}))
    assert issue.path == "sections.army"
    assert issue.message == 'sections.army: unknown section "army" for hagmi; valid sections: weapons, tactics, damage, secret'


def test_section_must_be_a_list():
    assert only_issue(hagmi_list(sections={"weapons": {"card": "HS-001"}})).message == (
        "sections.weapons: must be a list, got an object")


@pytest.mark.parametrize("qty, words", [
    (0, "must be from 1 to 999, got 0"),
    (-1, "must be from 1 to 999, got -1"),
    (10**9, "must be from 1 to 999, got 1000000000"),
    ("two", 'must be a whole number, got a string ("two")'),
    (True, "must be a whole number, got true"),
    (2.5, "must be a whole number, got a number (2.5)"),
    (2.0, "must be a whole number written without a decimal point, got 2.0"),
    (None, "must be a whole number, got null"),
])
def test_bad_quantity_names_its_path(qty, words):
    raw = hagmi_list(sections={"weapons": [{"card": "HS-001", "qty": 1}] * 3 + [{"card": "HS-001", "qty": qty}]})
    issue = only_issue(raw)
    assert issue.path == "sections.weapons[3].qty"
    assert issue.message == f"sections.weapons[3].qty: {words}"


@pytest.mark.parametrize("card", ["", "HS 001", "HS-(1)", "x" * 65, 12])
def test_bad_card_code_names_its_path(card):
    assert only_issue(hagmi_list(sections={"weapons": [{"card": card, "qty": 1}]})).path == "sections.weapons[0].card"


def test_entry_missing_keys_and_unknown_entry_keys():
    issues = issues_of(hagmi_list(sections={"tactics": [{"qty": 1}, {"card": "HS-001", "qty": 1, "count": 2}]}))
    assert [issue.message for issue in issues] == [
        'sections.tactics[0]: missing required key "card"',
        'sections.tactics[1]: unknown key "count"; allowed keys: card, qty, options',
    ]


def test_options_must_be_an_object_of_plain_json():
    assert only_issue(hagmi_list(sections={"weapons": [{"card": "A", "qty": 1, "options": []}]})).path == (
        "sections.weapons[0].options")
    issue = only_issue(hagmi_list(sections={"weapons": [{"card": "A", "qty": 1, "options": {"x": {1, 2}}}]}))
    assert issue.path == "sections.weapons[0].options" and "plain JSON" in issue.message
    issue = only_issue(hagmi_list(sections={"weapons": [{"card": "A", "qty": 1, "options": {"x": float("nan")}}]}))
    assert issue.path == "sections.weapons[0].options"


def test_every_problem_is_reported_in_document_order():
    entries = [{"card": "HS-001", "qty": 1} for _ in range(12)]
    entries[2] = {"card": "HS-001", "qty": 0}
    entries[10] = {"card": "HS-001", "qty": 0}
    issues = issues_of(hagmi_list(schema="x", sections={"weapons": entries, "army": []}))
    assert [issue.path for issue in issues] == [
        "schema", "sections.army", "sections.weapons[2].qty", "sections.weapons[10].qty"]


def test_too_many_entries_is_one_issue():
    entries = [{"card": "HS-001", "qty": 0}] * (MAX_ENTRIES + 1)
    issue = only_issue(hagmi_list(sections={"weapons": entries[:600], "tactics": entries[600:]}))
    assert issue.message == f"sections: {MAX_ENTRIES + 1} entries; a list holds at most {MAX_ENTRIES}"


def test_exactly_max_entries_is_accepted():
    entries = [{"card": "HS-001", "qty": 1}] * MAX_ENTRIES
    assert len(parse_list_json(hagmi_list(sections={"weapons": entries}))["sections"]["weapons"]) == MAX_ENTRIES


def test_issues_are_capped_and_the_message_gives_the_count():
    entries = [{"card": "HS-001", "qty": 0}] * 120
    with pytest.raises(ListFormatError) as caught:
        parse_list_json(hagmi_list(sections={"weapons": entries}))
    error = caught.value.to_dict()
    assert error["code"] == "list.invalid"
    assert len(error["issues"]) == MAX_ISSUES
    assert error["message"] == ("sections.weapons[0].qty: must be from 1 to 999, got 0 "
                                "(and 119 more problems; the first 50 are listed)")
    assert error["issues"][0] == {"message": "sections.weapons[0].qty: must be from 1 to 999, got 0",
                                  "line": None, "path": "sections.weapons[0].qty", "suggestions": []}


def test_error_message_with_a_single_issue_is_the_issue():
    with pytest.raises(ListFormatError) as caught:
        parse_list_json(hagmi_list(schema="x"))
    assert caught.value.to_dict()["message"] == 'schema: must be "hangar.list/1", got "x"'
    assert str(caught.value) == 'schema: must be "hangar.list/1", got "x"'
