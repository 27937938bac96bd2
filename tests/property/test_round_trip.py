"""Round trips (docs/list-formats.md): any valid list, written as text (Japanese or English names) or as
`hangar.list/1` JSON and read back with the same catalog, is the same list; so is every bundled sample list."""
from __future__ import annotations

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from builder.listio import export_list_json, export_list_text, parse_list_json, parse_list_text
from rules_engine.construction import validate_list

from .strategies import (
    LEGAL_LISTS,
    SYSTEM_SLUGS,
    catalog,
    catalog_for,
    examples,
    list_documents,
    sample_list,
    sample_list_paths,
)


def assert_round_trips(doc: dict) -> None:
    expected = parse_list_json(copy.deepcopy(doc))
    raw = export_list_json(doc)
    assert parse_list_json(raw) == expected
    assert export_list_json(parse_list_json(raw)) == raw, "the same list must give the same bytes"
    for lang in ("ja", "en"):
        text = export_list_text(doc, catalog(doc["system"]), lang=lang)
        assert parse_list_text(text, catalog_for) == expected, text
        assert parse_list_text(text.encode("utf-8"), catalog_for, system=doc["system"]) == expected


@given(doc=list_documents())
@examples(100)
def test_any_valid_list_round_trips_through_text_and_json(doc):
    assert_round_trips(doc)


@given(data=st.data(), system=st.sampled_from(SYSTEM_SLUGS))
@examples(30)
def test_legal_lists_round_trip_and_stay_legal(data, system):
    doc = data.draw(LEGAL_LISTS[system]())
    assert_round_trips(doc)
    text = export_list_text(doc, catalog(system), lang=data.draw(st.sampled_from(["ja", "en"])))
    before = validate_list(parse_list_json(doc), catalog(system))
    assert validate_list(parse_list_text(text, catalog_for), catalog(system)) == before


@given(doc=list_documents(), newline=st.sampled_from(["\r\n", "\r"]), bom=st.booleans())
@examples(30)
def test_crlf_cr_and_a_bom_read_like_plain_newlines(doc, newline, bom):
    text = export_list_text(doc, catalog(doc["system"]))
    variant = ("\ufeff" if bom else "") + text.replace("\n", newline)
    assert parse_list_text(variant, catalog_for) == parse_list_text(text, catalog_for) == parse_list_json(doc)
    assert parse_list_text(variant.encode("utf-8"), catalog_for) == parse_list_json(doc)


@pytest.mark.parametrize("path", sample_list_paths(), ids=lambda path: f"{path.parent.parent.name}/{path.stem}")
def test_every_bundled_sample_list_round_trips_and_is_legal(path):
    doc = sample_list(path)
    assert_round_trips(doc)
    result = validate_list(doc, catalog(doc["system"]))
    assert result["legal"], result["violations"]


def test_sample_lists_are_found():
    assert {path.parent.parent.name for path in sample_list_paths()} == set(SYSTEM_SLUGS)


# --- regressions found by the properties above ----------------------------------------------------------------


@pytest.mark.parametrize("code", ["mW-001", "hs-001", "ＨＳ-００１"])
def test_unknown_code_that_folds_to_a_catalog_code_round_trips(code):
    """Found by test_crlf...: a list holding "mW-001" (not a catalog code: codes are case-sensitive, validation says
    list.unknown_card) could not be exported as text: "(mW-001)" read back as the catalog's MW-001. A bare
    "(CODE)" is now taken exactly as written."""
    system = "mwda" if code.lower().startswith("mw") else "hagmi"
    doc = {"schema": "hangar.list/1", "system": system, "sections": {"army" if system == "mwda" else "weapons":
                                                                     [{"card": code, "qty": 2}]}}
    assert code not in catalog(system).cards
    assert_round_trips(doc)
