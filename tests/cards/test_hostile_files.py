"""Hostile data files get bounded work and a clear refusal (docs/data-packages.md "Limits of a file"): BattleScribe XML
nested past the depth limit, zip bombs (counted while unzipping, whatever the zip's headers declare), workbooks
whose declared dimension or shared-strings table is a bomb, and exports that would put formulas into a spreadsheet.
Peak memory is measured with tracemalloc and stays under the documented bounds; nothing is written."""
from __future__ import annotations

import io
import os
import tracemalloc
import zipfile
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from cards import sheetfiles
from rules_engine.formats import battlescribe
from rules_engine.formats.battlescribe import files as battlescribe_files
from rules_engine.formats.safefiles import MAX_XML_DEPTH, ArchiveBudget, FileRefused, read_zip
from cards.services import Upload, UploadRefused, battlescribe_preview, sheet_import
from cards.sheetfiles import SheetError, neutralised, read_rows, unneutralised, write_file
from tests.support.hostile_files import GST_NS, deep_xml, dimension_bomb, strings_bomb, xlsx, zip_bomb

from .test_import_package import catalog_snapshot

pytestmark = pytest.mark.django_db

# Peak Python memory (tracemalloc) of refusing each bomb, documented in docs/data-packages.md "Limits of a file".
ZIP_PEAK_BOUND = 8 * 1024 * 1024  # a zip of members × 19 MB of zeros: stopped at the ratio after 1 MB of a member
SHEET_PEAK_BOUND = 16 * 1024 * 1024  # the .xlsx bombs (openpyxl's own structures included)


def peak_of(action) -> tuple[BaseException | None, int]:
    """What `action()` raised (or None) and the peak of Python allocations while it ran."""
    tracemalloc.start()
    try:
        try:
            action()
            raised = None
        except Exception as error:  # noqa: BLE001 - returned to the test, which asserts its kind
            raised = error
        return raised, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# --- XML depth ------------------------------------------------------------------------------------------------


def test_import_package_refuses_a_game_system_nested_past_the_limit_naming_the_file_and_path(tmp_path):
    path = tmp_path / "deep.gst"
    path.write_bytes(deep_xml("gameSystem", GST_NS))
    before = catalog_snapshot()
    with pytest.raises(CommandError) as error:
        call_command("import_package", str(path), stdout=StringIO())
    message = str(error.value)
    assert f"{path}: /gameSystem/a[1]/a[1]/a[1]/a[1]/…" in message
    assert f"nested more than {MAX_XML_DEPTH} deep" in message
    assert catalog_snapshot() == before


def test_a_game_system_at_the_depth_limit_is_parsed_and_refused_for_its_content():
    """Nested exactly to the limit: parsed, walked and validated without a RecursionError (the published model has no <a>)."""
    source = battlescribe.SourceFile("edge.gst", deep_xml("gameSystem", GST_NS, depth=MAX_XML_DEPTH - 1))
    with pytest.raises(battlescribe.BattleScribeError) as error:
        battlescribe.parse(source)
    assert "not valid against the published BattleScribe gameSystem schema" in error.value.message


# --- archives -------------------------------------------------------------------------------------------------


def test_import_package_refuses_a_zip_bomb_while_unzipping_within_the_memory_bound(tmp_path):
    """The issue's bomb, four members instead of fifty (the first one stops it): 19 MB of zeros each, under the
    20 MB per-file limit, so only counting the bytes as they come out (the ratio) catches it."""
    path = tmp_path / "bomb.zip"
    zip_bomb(path, members=4)
    assert path.stat().st_size < 200_000
    before = catalog_snapshot()
    error, peak = peak_of(lambda: battlescribe.read_sources([path]))
    assert isinstance(error, battlescribe.BattleScribeError)
    assert str(error).startswith(f"{path}!faction-00.cat: ") and "compressed more than 200 to 1" in str(error)
    assert peak < ZIP_PEAK_BOUND, peak
    with pytest.raises(CommandError, match="faction-00.cat"):
        call_command("import_package", str(path), stdout=StringIO())
    assert catalog_snapshot() == before


def test_a_bzip2_zip_bomb_is_refused_before_any_member_is_decompressed(tmp_path):
    """bzip2 turns 49 bytes into 19 MB in one call that no chunked count can stop: only deflate and stored members
    are read, so the 8.5 KB zip of 50 × 19 MB is refused at its first member with a few KB of memory."""
    path = tmp_path / "bomb.zip"
    zip_bomb(path, method=zipfile.ZIP_BZIP2)
    assert path.stat().st_size < 20_000
    error, peak = peak_of(lambda: battlescribe.read_sources([path]))
    assert isinstance(error, battlescribe.BattleScribeError)
    assert str(error).startswith(f"{path}!faction-00.cat: ") and "only deflate (8) and stored (0)" in str(error)
    assert peak < 1024 * 1024, peak


def test_the_staff_import_page_refuses_a_zip_bomb_naming_the_member(tmp_path):
    path = tmp_path / "bomb.zip"
    zip_bomb(path, members=2)
    error, peak = peak_of(lambda: battlescribe_preview([Upload("bomb.zip", path.read_bytes())]))
    assert isinstance(error, UploadRefused)
    assert error.problems[0]["file"] == "bomb.zip!faction-00.cat"
    assert peak < ZIP_PEAK_BOUND + len(path.read_bytes()) * 2, peak


def test_member_and_total_budgets_stop_reading_at_the_first_byte_past_them():
    """Incompressible members (the ratio cannot catch them): each member, then all of them, against the budget."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in ("a.cat", "b.cat", "c.cat"):
            archive.writestr(name, os.urandom(100_000))
    raw = out.getvalue()
    assert [name for name, _ in read_zip(raw, "ok.zip", ArchiveBudget(100_000, 300_000))] == ["a.cat", "b.cat",
                                                                                            "c.cat"]
    with pytest.raises(FileRefused) as member:
        read_zip(raw, "x.zip", ArchiveBudget(99_999, 10**9))
    assert member.value.where == "x.zip!a.cat" and "larger than 99999 bytes" in member.value.message
    with pytest.raises(FileRefused) as total:
        read_zip(raw, "x.zip", ArchiveBudget(100_000, 250_000))
    assert total.value.where == "x.zip!c.cat" and "more than 250000 bytes" in total.value.message
    with pytest.raises(FileRefused) as count:
        read_zip(raw, "x.zip", ArchiveBudget(100_000, 10**9, members=2))
    assert count.value.where == "x.zip" and "holds 3 entries; at most 2" in count.value.message


def test_a_zip_in_a_zip_in_a_zip_is_refused(tmp_path):
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as archive:
        archive.writestr("x.gst", b"<gameSystem/>")
    middle = io.BytesIO()
    with zipfile.ZipFile(middle, "w") as archive:
        archive.writestr("x.gstz", inner.getvalue())
    outer = tmp_path / "nest.zip"
    with zipfile.ZipFile(outer, "w") as archive:
        archive.writestr("x.gstz", middle.getvalue())
    with pytest.raises(battlescribe.BattleScribeError, match="one level of zip in a zip at most"):
        battlescribe.read_sources([outer])


# --- spreadsheets ---------------------------------------------------------------------------------------------


def test_a_workbook_whose_dimension_claims_a1_xfd8000_is_read_without_padding_its_rows():
    """Two cells, A1 and A8000, under a dimension of 16 384 columns × 8 000 rows: the dimension is ignored, the
    rows come back as they are (no padding), within SHEET_PEAK_BOUND."""
    raw = dimension_bomb()
    assert len(raw) < 4000
    rows: list = []
    error, peak = peak_of(lambda: rows.extend(read_rows(raw, "dimension.xlsx")))
    assert error is None
    assert rows[0] == ["x"] and rows[-1] == ["x"] and len(rows) == 8000 and max(map(len, rows)) == 1
    assert peak < SHEET_PEAK_BOUND, peak


def test_a_workbook_with_two_million_shared_strings_is_refused_naming_the_limit():
    raw = strings_bomb()
    before = catalog_snapshot()
    error, peak = peak_of(lambda: sheet_import(raw, filename="strings.xlsx", system="hagmi", slug="fan-set"))
    assert isinstance(error, SheetError)
    assert str(error.problems[0]).startswith("strings.xlsx!xl/sharedStrings.xml: more than "
                                              f"{sheetfiles.MAX_SHARED_STRINGS} shared strings (the limit)")
    assert peak < SHEET_PEAK_BOUND, peak
    assert catalog_snapshot() == before


def test_a_workbook_row_wider_than_the_column_limit_is_refused():
    row = ('<row r="1"><c r="A1" t="inlineStr"><is><t>code</t></is></c>'
           '<c r="XFD1" t="inlineStr"><is><t>x</t></is></c></row>')
    with pytest.raises(SheetError) as error:
        read_rows(xlsx(row), "wide.xlsx")
    assert f"more than {sheetfiles.MAX_COLUMNS} columns" in str(error.value.problems[0])


def test_a_workbook_whose_rows_go_on_past_the_row_limit_is_refused_at_once():
    row = '<row r="1"><c r="A1" t="inlineStr"><is><t>code</t></is></c></row><row r="999999999"><c r="A999999999" ' \
          't="inlineStr"><is><t>x</t></is></c></row>'
    with pytest.raises(SheetError) as error:
        read_rows(xlsx(row), "far.xlsx")
    assert f"past row {sheetfiles.MAX_SHEET_ROWS}" in str(error.value.problems[0])


def test_a_csv_wider_than_the_column_limit_is_refused():
    with pytest.raises(SheetError, match=f"more than {sheetfiles.MAX_COLUMNS} columns"):
        read_rows(("a," * 150 + "b\n").encode(), "wide.csv")


# --- no formulas out --------------------------------------------------------------------------------------------

FORMULAS = ["=1+1", "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\tx", "\rx", "'=already quoted", "''=twice"]


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_text_exports_quote_every_cell_a_spreadsheet_would_run_and_read_them_back_unchanged(fmt):
    rows = [["code", "name", "cost"], *[["HX-%d" % i, text, "-1"] for i, text in enumerate(FORMULAS)]]
    raw = write_file(rows, fmt)
    written = raw.decode("utf-8-sig")
    for text in FORMULAS:
        assert neutralised(text).startswith("'")
    assert "'=1+1" in written and "'@SUM(A1)" in written and "'-2+3" in written
    assert ",-1\r\n" in written or "\t-1\r\n" in written  # a negative number stays a number
    assert read_rows(raw, f"cards.{fmt}") == rows


def test_an_xlsx_export_holds_strings_only_never_formulas_and_reads_back_unchanged():
    from openpyxl import load_workbook

    # (a carriage return is left out: XML reads it back as a line feed, quoted or not)
    rows = [["code", "name", "cost"],
            *[["HX-%d" % i, text, "-1"] for i, text in enumerate(FORMULAS) if text[0] != "\r"]]
    raw = write_file(rows, "xlsx")
    sheet = load_workbook(io.BytesIO(raw)).worksheets[0]
    kinds = {cell.data_type for row in sheet.iter_rows() for cell in row if cell.value is not None}
    assert kinds == {"s"}
    assert sheet["B2"].value == "'=1+1"
    assert read_rows(raw, "cards.xlsx") == rows


@pytest.mark.parametrize("text", ["'tis", "x=1", "-1", "-2.5", "+3", "", "'", "naïve"])
def test_cells_that_are_not_formulas_go_out_and_come_back_as_they_are(text):
    assert neutralised(text) == text and unneutralised(text) == text


def test_export_cards_neutralises_a_card_name_that_is_a_formula(tmp_path):
    """A card name can reach a published package through a proposal: the exported sheet quotes it, and importing
    that sheet gives the name back."""
    from cards.services import packages_load_bundled, sheet_export

    packages_load_bundled()
    rows = read_rows(sheet_export("hagmi", "core"), "core.csv")
    name = rows[0].index("name")
    rows[1][name] = "=HYPERLINK(\"http://evil.example\",\"x\")"
    sheet = tmp_path / "evil.csv"
    sheet.write_bytes(write_file(rows, "csv"))
    sheet_import(sheet.read_bytes(), filename="evil.csv", system="hagmi", slug="core", version="evil")
    out = tmp_path / "out.csv"
    call_command("export_cards", "--system", "hagmi", "--package", "core", "--format", "csv", "-o", str(out),
                 stdout=StringIO())
    written = out.read_text(encoding="utf-8-sig")
    assert "'=HYPERLINK(" in written and ",=HYPERLINK(" not in written
    assert read_rows(out.read_bytes(), "out.csv")[1][name] == rows[1][name]


def test_several_zips_share_one_budget_counted_while_unzipping(tmp_path, monkeypatch):
    """Files of one import count together: the second zip is refused at the first chunk that takes the data past
    the total, not after it is unzipped (the budget lowered so that the test stays small)."""
    monkeypatch.setattr(battlescribe_files, "MAX_TOTAL_BYTES", 150_000)
    monkeypatch.setattr(battlescribe_files, "ZIP_BUDGET", ArchiveBudget(member_bytes=10**6, total_bytes=150_000))
    paths = []
    for name in ("one.zip", "two.zip"):
        path = tmp_path / name
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(f"{name}.cat", os.urandom(100_000))
        paths.append(path)
    assert len(battlescribe.read_sources(paths[:1])) == 1
    with pytest.raises(battlescribe.BattleScribeError) as error:
        battlescribe.read_sources(paths)
    assert error.value.file == f"{paths[1]}!two.zip.cat" and "more than 150000 bytes uncompressed in all" in str(
        error.value)



def test_shared_strings_are_counted_once_each_whatever_the_chunks_and_prefixes():
    from rules_engine.formats.safefiles import TagCounter

    xml = b'<sst xmlns="m"><si><t>a</t></si><x:si/><si\n><t>sip</t></si><sis/></sst>'
    for cut in range(1, len(xml)):
        counter = TagCounter("w.xlsx!s.xml", "si", 10, "shared strings")
        counter(xml[:cut])
        counter(xml[cut:])
        assert counter.count == 3, cut
    with pytest.raises(FileRefused, match="more than 2 shared strings"):
        TagCounter("w.xlsx!s.xml", "si", 2, "shared strings")(xml)
