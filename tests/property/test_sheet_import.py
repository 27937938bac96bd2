"""Property tests of the spreadsheet import (cards.services.sheet_import): whatever sheet it is given —
any bytes, any grid of cells, the bundled cards' sheet with one cell changed — it either imports the cards or raises
SheetError whose every problem is a sentence (with a row where it is about a row); a refused sheet writes nothing,
and nothing but SheetError is ever raised."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cards.services import sheet_export, sheet_import
from cards.sheetfiles import MAX_COLUMNS, MAX_SHEET_ROWS, SheetError, read_rows, write_file

from .strategies import hostile_workbooks
from .test_package_import import catalog_snapshot, rolled_back
from tests.support.bundled_catalog import load_bundled_catalog

pytestmark = pytest.mark.django_db

CELL = st.one_of(st.text(max_size=30), st.sampled_from(["", "1", "yes", "kind=draw", "[", "{", '"', "HS-001",
                                                       "unit", "black", "2x2", "kind=pierce trigger=static"]))


def attempt(raw: bytes, filename: str) -> None:
    before = catalog_snapshot()
    with rolled_back():
        try:
            sheet_import(raw, filename=filename, system="hagmi", slug="fan-set")
        except SheetError as error:
            assert error.problems and all(str(problem).strip() for problem in error.problems)
            assert catalog_snapshot() == before


@settings(max_examples=60, deadline=None)
@given(raw=st.binary(max_size=400), suffix=st.sampled_from([".csv", ".tsv", ".xlsx", ""]))
def test_any_bytes_are_imported_or_refused_with_problems(raw, suffix):
    attempt(raw, f"cards{suffix}")


@settings(max_examples=60, deadline=None)
@given(grid=st.lists(st.lists(CELL, min_size=1, max_size=8), min_size=1, max_size=5),
       header=st.lists(st.sampled_from(["code", "name", "category", "frame", "cost", "skills", "types", "コード",
                                        "x", ""]), min_size=1, max_size=8),
       fmt=st.sampled_from(["csv", "tsv", "xlsx"]))
def test_any_grid_of_cells_is_imported_or_refused_with_problems(grid, header, fmt):
    try:
        raw = write_file([header, *grid], fmt)
    except SheetError as error:  # a control character: a workbook cannot hold it, and says where it is
        assert fmt == "xlsx" and error.problems[0].row is not None
        return
    attempt(raw, f"cards.{fmt}")


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_the_bundled_sheet_with_one_cell_changed(data):
    with rolled_back():
        load_bundled_catalog()
        rows = read_rows(sheet_export("hagmi", "core"), "core.csv")
        row = data.draw(st.integers(1, len(rows) - 1))
        column = data.draw(st.integers(0, len(rows[0]) - 1))
        rows[row][column] = data.draw(CELL)
        attempt(write_file(rows, "csv"), "core.csv")


@settings(max_examples=40, deadline=None)
@given(raw=hostile_workbooks())
def test_any_hostile_workbook_is_read_within_bounds_or_refused(raw):
    """A declared dimension, row numbers, columns and shared strings chosen by the file: read_rows gives at most
    MAX_SHEET_ROWS rows of at most MAX_COLUMNS cells (no padding to the dimension) or refuses with SheetError; the
    import of the same file writes nothing when refused."""
    try:
        rows = read_rows(raw, "hostile.xlsx")
    except SheetError as error:
        assert error.problems and all(str(problem).strip() for problem in error.problems)
    else:
        assert len(rows) <= MAX_SHEET_ROWS and all(len(row) <= MAX_COLUMNS for row in rows)
    attempt(raw, "hostile.xlsx")
