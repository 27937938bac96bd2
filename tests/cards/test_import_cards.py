"""Spreadsheets of cards: `import_cards FILE --system S --package SLUG [--dry-run]` and `export_cards`.

A sheet becomes a package's cards only when every row passes the checks a package import runs; every bad cell is
reported with its row, column and value, and nothing is written. The bundled packages go out as sheets and come
back the same, and the templates in docs/spreadsheets/ are what `export_cards --template` writes today."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from cards import spreadsheet
from cards.models import Card, DataPackage
from cards.package_validation import validator_for
from cards.services import sheet_export, sheet_import, sheet_template
from cards.sheetcells import read_cell, read_items, write_cell
from cards.sheetfiles import SheetError

from .test_import_package import catalog_snapshot
from tests.support.bundled_catalog import load_bundled_catalog

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
BUNDLED = {"hagmi": "core", "mwda": "core-sample", "warcaster": "core-sample"}
HAGMI_HEADER = "code,name,category,frame,cost,pilot,types,firepower,armor,range,fuel_cost,targets,skills"
GOOD_ROW = "HS-901,テスト機,unit,black,2,朱音,\"強襲, 近接\",2x2,3,1,1,single,kind=deal_damage trigger=on_attack amount=1 target=enemy_unit"


def csv_bytes(*lines: str) -> bytes:
    return ("\n".join(lines) + "\n").encode("utf-8")


def problems_of(raw: bytes, system: str = "hagmi", filename: str = "cards.csv") -> list[spreadsheet.SheetProblem]:
    before = catalog_snapshot()
    with pytest.raises(SheetError) as info:
        sheet_import(raw, filename=filename, system=system, slug="fan-set")
    assert catalog_snapshot() == before  # a refused sheet writes nothing
    return info.value.problems


# --- a good sheet --------------------------------------------------------------------------------------------


def test_a_sheet_of_good_rows_becomes_a_new_package():
    report = sheet_import(csv_bytes(HAGMI_HEADER, GOOD_ROW), filename="cards.csv", system="hagmi", slug="fan-set")
    assert (report.status, report.added, report.removed, report.changed) == ("loaded", ["HS-901"], [], {})
    card = Card.objects.get(code="HS-901").data
    assert card["types"] == ["強襲", "近接"] and card["firepower"] == "2x2" and card["cost"] == 2
    assert card["skills"] == [{"kind": "deal_damage", "trigger": "on_attack", "amount": 1, "target": "enemy_unit"}]
    assert DataPackage.objects.get(slug="fan-set").title == "fan-set"


def test_a_dry_run_shows_added_changed_and_removed_and_writes_nothing():
    sheet_import(csv_bytes(HAGMI_HEADER, GOOD_ROW, GOOD_ROW.replace("HS-901", "HS-902")), filename="a.csv",
                 system="hagmi", slug="fan-set", version="1")
    before = catalog_snapshot()
    changed = GOOD_ROW.replace(",3,1,1,", ",4,1,1,")  # armor 3 -> 4
    report = sheet_import(csv_bytes(HAGMI_HEADER, changed, GOOD_ROW.replace("HS-901", "HS-903")), filename="b.csv",
                          system="hagmi", slug="fan-set", dry_run=True)
    assert catalog_snapshot() == before
    assert (report.status, report.added, report.removed, report.changed) == ("dry run", ["HS-903"], ["HS-902"],
                                                                             {"HS-901": ["armor"]})
    assert report.lines()[0].endswith("(1 added, 1 changed, 1 removed, 0 unchanged)")
    assert "  ~ HS-901: armor" in report.lines()


def test_importing_over_a_package_keeps_its_formats_and_opponents_and_dates_the_new_version():
    load_bundled_catalog()
    before = DataPackage.objects.get(system__slug="hagmi", slug="core")
    formats, opponents = before.formats.count(), before.opponents.count()
    raw = sheet_export("hagmi", "core").decode("utf-8-sig").replace("紅蓮丸,Guren-maru", "紅蓮丸改,Guren-maru")
    report = sheet_import(raw.encode(), filename="core.csv", system="hagmi", slug="core")
    after = DataPackage.objects.get(pk=before.pk)
    assert report.status == "replaced" and report.changed == {"HS-001": ["name"]} and report.kept == 76
    assert (after.formats.count(), after.opponents.count()) == (formats, opponents)
    assert after.version != before.version and len(after.version) == len("2026.12.01")


# --- every problem, with its row and column -------------------------------------------------------------------


def test_every_bad_cell_is_listed_with_row_column_and_value_and_nothing_is_written():
    """One problem of each kind: unknown column, bad value, missing required cell, duplicate code, unknown skill
    kind, a row of another system; all of them are reported, not the first."""
    header = HAGMI_HEADER + ",colour,system"
    raw = csv_bytes(
        header,
        GOOD_ROW.replace(",2,朱音,", ",two,朱音,") + ",red,hagmi",  # row 2: cost is not a number
        GOOD_ROW.replace("HS-901", "HS-902").replace(",朱音,", ",,") + ",,",  # row 3: no pilot
        GOOD_ROW + ",,",  # row 4: HS-901 again
        GOOD_ROW.replace("HS-901", "HS-904").replace("kind=deal_damage", "kind=explode") + ",,",  # row 5
        GOOD_ROW.replace("HS-901", "HS-905") + ",,mwda",  # row 6: a card of another game
    )
    found = {(problem.row, problem.column, problem.header): problem for problem in problems_of(raw)}
    assert set(found) == {(1, "N", "colour"), (2, "E", "cost"), (3, "F", "pilot"), (4, "A", "code"),
                          (5, "M", "skills"), (6, "O", "system")}
    assert found[(2, "E", "cost")].value == "two" and "whole number" in found[(2, "E", "cost")].problem
    assert 'missing required field "pilot"' in found[(3, "F", "pilot")].problem
    assert "row 2" in found[(4, "A", "code")].problem and found[(4, "A", "code")].value == "HS-901"
    assert '"explode" is not one of' in found[(5, "M", "skills")].problem
    assert "'mwda'" in found[(6, "O", "system")].problem
    assert str(found[(2, "E", "cost")]) == 'row 2, column E "cost", value "two": expected a whole number'


def test_a_missing_required_column_is_named_and_an_unknown_one_gets_a_suggestion():
    header = HAGMI_HEADER.replace(",pilot", "").replace("firepower", "firepowr")
    row = GOOD_ROW.replace(",朱音", "")
    problems = problems_of(csv_bytes(header, row))
    texts = [str(problem) for problem in problems]
    assert any('column G "firepowr"' in text and 'did you mean "firepower"' in text for text in texts), texts
    assert any('column "pilot" (not in the sheet)' in text for text in texts), texts


def test_engine_checks_name_the_skill_inside_its_cell():
    """What only the engine's card reader knows (cards.package_validation.check_engine_cards) is reported at the
    row and column of the cell, with the skill's place in it."""
    row = GOOD_ROW.replace("amount=1 target=enemy_unit", "amount=1 target=enemy_unit; kind=draw trigger=on_enter")
    problems = problems_of(csv_bytes(HAGMI_HEADER, row))
    assert [(p.row, p.column) for p in problems] == [(2, "M")] and "skills[1]" in problems[0].problem


def test_a_code_another_package_of_the_system_uses_is_refused_at_its_row():
    load_bundled_catalog()
    problems = problems_of(csv_bytes(HAGMI_HEADER, GOOD_ROW.replace("HS-901", "HS-001")))
    assert problems[0].row == 2 and "already used by package 'core'" in problems[0].problem


@pytest.mark.parametrize("raw,expected", [
    (b"", "empty"),
    (csv_bytes(HAGMI_HEADER), "no card rows"),
    (b"PK\x03\x04 not a workbook", ".xlsx"),
    (b"\xff\xfe\x00\x00 nonsense \xff", "not a text sheet"),
    (b"code\x00,name\n", "not a text sheet"),
])
def test_an_unreadable_sheet_is_one_clear_problem(raw, expected):
    assert expected in str(problems_of(raw)[0])


# --- formats and languages -----------------------------------------------------------------------------------


def test_japanese_headers_and_a_shift_jis_csv_from_excel():
    header = "コード,名前,カテゴリ,枠,コスト,搭乗者,タイプ,火力,装甲,射程,燃料コスト,攻撃対象"
    row = "HS-901,テスト機,unit,black,2,朱音,強襲、近接,2,3,1,1,single"
    report = sheet_import(csv_bytes(header, row).decode().encode("cp932"), filename="カード.csv", system="hagmi",
                          slug="fan-set")
    assert report.added == ["HS-901"] and Card.objects.get(code="HS-901").data["types"] == ["強襲", "近接"]


def test_excel_unicode_text_is_utf16_tsv():
    raw = csv_bytes(HAGMI_HEADER.replace(",", "\t"), GOOD_ROW.replace(",", "\t").replace('"強襲\t 近接"', "強襲"))
    sheet_import(raw.decode().encode("utf-16"), filename="cards.txt", system="hagmi", slug="fan-set")
    assert Card.objects.get(code="HS-901").data["types"] == ["強襲"]


def test_a_tsv_pasted_from_a_spreadsheet_with_a_line_break_in_a_cell():
    header = HAGMI_HEADER.replace(",", "\t")
    row = GOOD_ROW.replace(",", "\t").replace('"強襲\t 近接"', "強襲, 近接")
    row = row.replace("target=enemy_unit", 'target=enemy_unit\nkind=pierce trigger=static"').replace(
        "\tkind=deal_damage", '\t"kind=deal_damage')
    sheet_import(csv_bytes(header, row), filename="pasted", system="hagmi", slug="fan-set")
    assert [skill["kind"] for skill in Card.objects.get(code="HS-901").data["skills"]] == ["deal_damage", "pierce"]


@pytest.mark.parametrize("fmt", ["csv", "tsv", "xlsx"])
@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("system", sorted(BUNDLED))
def test_the_bundled_packages_go_out_as_sheets_and_come_back_the_same(system, lang, fmt):
    load_bundled_catalog()
    slug = BUNDLED[system]
    cards = list(Card.objects.filter(system__slug=system).order_by("id").values_list("data", flat=True))
    raw = sheet_export(system, slug, fmt=fmt, lang=lang)
    report = sheet_import(raw, filename=f"{slug}.{fmt}", system=system, slug=slug, dry_run=True)
    assert (report.added, report.removed, report.changed, report.kept) == ([], [], {}, len(cards))
    sheet_import(raw, filename=f"{slug}.{fmt}", system=system, slug="copy", dry_run=True)  # and as a new package


@pytest.mark.parametrize("system", sorted(BUNDLED))
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_templates_in_the_docs_are_current_and_import(system, lang):
    path = ROOT / "docs" / "spreadsheets" / f"{system}-cards-{lang}.csv"
    assert path.read_bytes() == sheet_template(system, lang=lang), (
        f"regenerate: python manage.py export_cards --system {system} --template --lang {lang} -o {path}")
    schema = validator_for(system).schema
    assert len(path.read_text(encoding="utf-8-sig").splitlines()[0].split(",")) == len(
        spreadsheet.columns(system, schema))  # every column
    report = sheet_import(path.read_bytes(), filename=path.name, system=system, slug="template")
    assert report.status == "loaded" and report.added


# --- the cell syntax -----------------------------------------------------------------------------------------


def test_items_are_key_value_pairs_one_per_line_or_semicolon_with_quoted_texts_and_lists():
    cell = 'kind=refuel trigger=on_play amount=2 text="燃料を 2枚; 補給" tags=[a, b]\nkind=pierce trigger=static'
    assert read_items(cell) == [
        {"kind": "refuel", "trigger": "on_play", "amount": 2, "text": "燃料を 2枚; 補給", "tags": ["a", "b"]},
        {"kind": "pierce", "trigger": "static"},
    ]
    assert read_items('condition={"min_fuel": 2} kind=x') == [{"condition": {"min_fuel": 2}, "kind": "x"}]


@pytest.mark.parametrize("cell,shape,message", [
    ("kind=draw count", "objects", "expected key=value"),
    ('text="no end', "objects", "closing quote"),
    ("kind=a kind=b", "objects", "given twice"),
    ("[1, 2", "objects", "not valid JSON"),
    ("maybe", "boolean", "yes or no"),
    ("2.5", "integer", "whole number"),
])
def test_a_cell_that_is_not_what_its_column_holds_says_what_was_expected(cell, shape, message):
    with pytest.raises(ValueError, match=message):
        read_cell(cell, shape)


@pytest.mark.parametrize("value,shape", [
    ([{"kind": "x", "text": "a b", "n": 3, "flag": True, "word": "12", "list": ["p", "q"]}], "objects"),
    (["強襲", "近接"], "words"), ([], "words"), ([], "objects"), ({}, "object"), ({"types": ["重装"]}, "object"),
    ([{"at": 7, "effects": [{"kind": "charge", "amount": 1}]}], "objects"), (True, "boolean"), (0, "integer"),
])
def test_written_cells_read_back_the_same(value, shape):
    assert read_cell(write_cell(value, shape), shape) == value
    assert read_cell(write_cell(value, shape, "ja"), shape) == value


# --- the commands --------------------------------------------------------------------------------------------


def test_import_cards_command_lists_every_problem_and_exits_non_zero(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_bytes(csv_bytes(HAGMI_HEADER, GOOD_ROW.replace(",2,朱音,", ",two,朱音,").replace("2x2", "2y2")))
    with pytest.raises(CommandError) as info:
        call_command("import_cards", str(path), "--system", "hagmi", "--package", "fan-set")
    message = str(info.value)
    assert 'row 2, column E "cost", value "two"' in message and 'row 2, column H "firepower", value "2y2"' in message
    assert not DataPackage.objects.filter(slug="fan-set").exists()


def test_export_then_import_cards_commands(tmp_path, capsys):
    load_bundled_catalog()
    out = tmp_path / "warcaster.xlsx"
    call_command("export_cards", "--system", "warcaster", "--package", "core-sample", "--format", "xlsx", "--lang",
                 "ja", "-o", str(out))
    call_command("import_cards", str(out), "--system", "warcaster", "--package", "core-sample", "--dry-run")
    assert "dry run (0 added, 0 changed, 0 removed, 66 unchanged)" in capsys.readouterr().out
    with pytest.raises(CommandError, match="no package"):
        call_command("export_cards", "--system", "mwda", "--package", "nope")


@pytest.mark.parametrize("system", sorted(BUNDLED))
def test_the_docs_name_every_column_in_both_languages(system):
    text = (ROOT / "docs" / "data-packages.md").read_text(encoding="utf-8")
    section = text[text.index("## Spreadsheets"):text.index("## HAGMI! data packages")]
    for column in spreadsheet.columns(system, validator_for(system).schema):
        assert f"| `{column.header(system, 'en')}` | `{column.header(system, 'ja')}` |" in section, column
