"""Property tests of text that cannot be stored (docs/security.md, "Text that cannot be stored"),
and of the text reader's linear search for options.

A lone surrogate (what a JSON "\\udfff" escape decodes to) anywhere in a list — a card code, the name, an option
key or value, a section name — is refused by every reader with ListFormatError naming its path or line, and the
error itself can be sent as UTF-8: never UnicodeEncodeError, never a 500, nothing written. The same for a package
(PackageError naming card and field). The one-pass search for a line's options finds exactly what trying
json.loads at every "{" found, and the linear replacements of two backtracking patterns match them exactly.
"""
from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from hypothesis import given
from hypothesis import strategies as st

from builder.listio import ListFormatError, check_storable_text, parse_list_json, parse_list_text
from builder.listio import text as text_reader
from builder.listio import text_cards
from builder.models import GameList, ListEntry, ListRevision, SimulationRun
from cards.services import PackageError, package_import
from cards.storable_text import holds_surrogate
from rules_engine.core.catalog import Catalog
from tests.builder.conftest import client_for

from .strategies import (
    SYSTEM_SLUGS,
    bundled_package,
    catalog_for,
    documents_with_surrogates,
    escaped_path_part,
    examples,
    json_values_with_surrogates,
    list_texts,
    text_with_surrogates,
)
from tests.support.bundled_catalog import load_bundled_catalog


def check_sendable(error: ListFormatError) -> None:
    """The error can be written as the API writes it (UTF-8, characters as they are) and holds no surrogate."""
    answer = error.to_dict()
    json.dumps(answer, ensure_ascii=False).encode("utf-8")
    assert not holds_surrogate(answer), answer
    assert error.issues and all(issue.message.strip() for issue in error.issues)


# --- readers -------------------------------------------------------------------------------------------------


@given(case=documents_with_surrogates())
@examples(120)
def test_a_lone_surrogate_in_a_list_document_is_refused_naming_its_path(case):
    doc, place, path = case
    for raw in (doc, json.dumps(doc), json.dumps(doc).encode("utf-8")):
        with pytest.raises(ListFormatError) as caught:
            parse_list_json(raw)
        check_sendable(caught.value)
        assert path in [issue.path for issue in caught.value.issues], (place, path, caught.value.to_dict())
        with pytest.raises(ListFormatError):  # what POST /api/validate/ runs before the validator
            check_storable_text(doc)


@given(value=json_values_with_surrogates())
@examples(60)
def test_any_json_value_with_lone_surrogates_is_read_or_refused_never_crashed_on(value):
    for raw in (value, json.dumps(value)):
        try:
            doc = parse_list_json(raw)
        except ListFormatError as error:
            check_sendable(error)
        else:
            assert not holds_surrogate(doc)
            json.dumps(doc, ensure_ascii=False).encode("utf-8")


@st.composite
def texts_with_a_surrogate(draw) -> tuple[str, str | None, int]:
    """(text, system argument, line number): a text shaped like a list, one line of it holding a lone surrogate —
    written as it is (a JSON body's text field) or as a "\\udfff" escape in the line's options."""
    text, system, _count = draw(list_texts())
    lines = re.split(r"\r\n|\r|\n", text.lstrip("\ufeff"))
    number = draw(st.integers(1, len(lines)))
    bad = draw(text_with_surrogates(st.just("")))
    if draw(st.booleans()):
        lines[number - 1] = f"2 (HS-001) {json.dumps({'note': bad})}"
    else:
        at = draw(st.integers(0, len(lines[number - 1])))
        lines[number - 1] = lines[number - 1][:at] + bad + lines[number - 1][at:]
    return "\n".join(lines), system, number


@given(case=texts_with_a_surrogate())
@examples(100)
def test_a_lone_surrogate_in_a_text_list_is_refused_on_its_line(case):
    text, system, number = case
    with pytest.raises(ListFormatError) as caught:
        parse_list_text(text, catalog_for, system=system)
    check_sendable(caught.value)
    lines = [issue.line for issue in caught.value.issues]
    # Its own line, unless an earlier problem ended the reading (no system given, more than 1000 entries).
    assert number in lines or any(line is None or line < number for line in lines), (number, lines)


@pytest.mark.services  # a lone surrogate: PostgreSQL cannot store it
@given(data=st.data(), system=st.sampled_from(SYSTEM_SLUGS))
@examples(40, shared_fixture=True)
def test_a_lone_surrogate_anywhere_in_a_package_is_refused_naming_the_card(db, data, system):
    package = bundled_package(system)
    index = data.draw(st.integers(0, len(package["cards"]) - 1))
    card = package["cards"][index]
    field = data.draw(st.sampled_from(sorted(card)))
    bad = data.draw(text_with_surrogates())
    as_key = data.draw(st.booleans())
    if as_key:
        card[bad] = card.pop(field)
    else:
        card[field] = bad
    with transaction.atomic():
        with pytest.raises(PackageError) as caught:
            package_import(json.loads(json.dumps(package)))
        transaction.set_rollback(True)
    message = str(caught.value)
    message.encode("utf-8")
    assert "lone surrogate" in message
    code = card.get("code")
    names = [f"card #{index + 1}"] + ([f"card {escaped_path_part(code)}"] if isinstance(code, str) and code else [])
    assert all(any(name in error for name in names) for error in caught.value.errors), (names, message)


# --- the API: 400, not 500, and nothing written ------------------------------------------------------------------


def _writes() -> tuple:
    return (GameList.objects.count(), ListEntry.objects.count(), ListRevision.objects.count(),
            SimulationRun.objects.count(), sorted(GameList.objects.values_list("pk", "version")))


def _file(doc: dict[str, Any]) -> dict[str, Any]:
    return {"file": SimpleUploadedFile("list.json", json.dumps(doc).encode("ascii"))}


REQUESTS = {  # endpoint -> (path, the request data for a posted document, multipart?)
    "validate": lambda doc, slug, version: ("/api/validate/", doc, False),
    "create": lambda doc, slug, version: ("/api/lists/", {"document": doc}, False),
    "update": lambda doc, slug, version: (f"/api/lists/{slug}/", {"document": doc, "version": version}, False),
    "import-json": lambda doc, slug, version: ("/api/lists/import/", {"json": doc}, False),
    "import-json-string": lambda doc, slug, version: ("/api/lists/import/", {"json": json.dumps(doc)}, False),
    "import-file": lambda doc, slug, version: ("/api/lists/import/", _file(doc), True),
    "simulate": lambda doc, slug, version: ("/api/simulations/", {"document": doc, "opponent": "goldfish",
                                                                  "games": 2, "seed": 1}, False),
}


@pytest.fixture
def bundled_world(db, owner, published):
    load_bundled_catalog()
    return owner


@pytest.fixture
def published(monkeypatch):
    from builder import queue

    sent: list = []
    monkeypatch.setattr(queue, "send_chunk", lambda run_id, index: sent.append((run_id, index)))
    return sent


@pytest.mark.services
@given(case=documents_with_surrogates(), endpoint=st.sampled_from(sorted(REQUESTS)))
@examples(60, shared_fixture=True)
def test_every_endpoint_answers_400_and_writes_nothing_for_a_lone_surrogate(bundled_world, case, endpoint):
    doc, place, path = case
    owner = bundled_world
    target = GameList.objects.filter(owner=owner, system__slug=doc["system"] if doc["system"] in SYSTEM_SLUGS
                                     else "hagmi").first()
    if target is None:
        from builder import services

        target = services.list_create(owner=owner, document={
            "schema": "hangar.list/1", "system": doc["system"] if doc["system"] in SYSTEM_SLUGS else "hagmi",
            "sections": {}})
    client = client_for(owner)
    client.raise_request_exception = False
    url, data, multipart = REQUESTS[endpoint](doc, target.slug, target.version)
    before = _writes()
    if endpoint == "update":
        response = client.patch(url, json.dumps(data), content_type="application/json")
    elif multipart:
        response = client.post(url, data, format="multipart")
    else:
        response = client.post(url, json.dumps(data), content_type="application/json")
    assert response.status_code == 400, (endpoint, place, response.status_code, response.content[:300])
    answer = json.loads(response.content.decode("utf-8"))
    assert not holds_surrogate(answer)
    error = answer["error"]
    assert error["code"] in ("list.invalid", "list.unknown_system"), error
    if error["code"] == "list.invalid":
        assert path in [issue["path"] for issue in error["issues"]], (path, error)
    assert _writes() == before, "a refused request wrote something"


# --- the one-pass search for options finds what trying every "{" found --------------------------------------


def split_by_trying_every_brace(rest: str) -> tuple[str, dict[str, Any] | None] | None:
    """The old _split_options (quadratic): json.loads at every "{" in turn; the first object wins. None: no
    options found (the reader then reads `rest` as a name)."""
    if not rest.endswith("}"):
        return rest, None
    for position, char in enumerate(rest):
        if char != "{":
            continue
        try:
            value = json.loads(rest[position:], parse_constant=text_reader._no_constant)
        except (ValueError, RecursionError):
            continue
        if isinstance(value, dict):
            return rest[:position].rstrip(), value
    return None


NAME_NOBODY_HAS = Catalog.build("hagmi", [], [])
JSONISH = st.sampled_from(list('{}[]":,\\ a1') + ['"a"', '\\"', "\\\\", '{"a":1}', "[1]", "true", "NaN", '"{"', '"}"',
                                                   "\\u0041", "\\udfff", "{}", "é"])


@st.composite
def option_lines(draw) -> str:
    """The words of an entry line after its quantity: a name of JSON-like characters, maybe an options object of
    tricky strings (quotes, backslashes, braces inside them), maybe junk after it; mostly ending with "}"."""
    rest = "".join(draw(st.lists(JSONISH, max_size=12)))
    if draw(st.booleans()):
        rest += draw(st.sampled_from(["", " "])) + json.dumps(
            draw(st.dictionaries(st.text(st.sampled_from('{}[]"\\ aé'), max_size=4),
                                 st.recursive(st.none() | st.integers() | st.text(st.sampled_from('{}[]"\\ a'), max_size=4),
                                              lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=2), c, max_size=2),
                                              max_leaves=6), max_size=3)),
            ensure_ascii=draw(st.booleans()), indent=draw(st.sampled_from([None, 1])))
    if draw(st.integers(0, 3)) == 0:
        rest += "".join(draw(st.lists(JSONISH, max_size=3)))
    return rest if rest.endswith("}") or draw(st.integers(0, 4)) == 0 else rest + "}"


@given(rest=option_lines())
@examples(400)
def test_the_options_found_in_one_pass_are_those_trying_every_brace_found(rest):
    expected = split_by_trying_every_brace(rest)
    index = text_cards.CardIndex.of(NAME_NOBODY_HAS)
    try:
        found = text_reader._split_options(rest, index)
    except text_cards.LineProblem:
        found = None  # not options, and no card of that name: the line's error
    if expected is None and found is not None:
        assert found == (rest, None)  # read as a name ending in "}" (the catalog knows it)
    else:
        assert found == expected, (rest, expected, found)


OLD_BARE_SECTION = re.compile(r"^(?P<label>[^\d\[\]].*?)\s*(?:\(\s*\d+\s*\)|[:：])?$")
OLD_CODE_SUFFIX = re.compile(r"^(?P<name>.*?)\s*\((?P<code>[^()]*)\)$")
HEADER_TEXT = st.lists(st.sampled_from(list("()[]:： \t\u3000\xa0a1٣x") + ["(20)", "( 2 )", "兵器", "(A)", "((", "))"]),
                       max_size=12).map(lambda parts: "".join(parts).strip())


@given(line=HEADER_TEXT)
@examples(300)
def test_the_linear_section_label_and_code_suffix_match_the_old_patterns(line):
    """The two patterns backtracked quadratically on a run of spaces (8.9 s for 2 MB of such lines)."""
    match = OLD_BARE_SECTION.match(line)
    assert text_reader._bare_label(line) == (match["label"] if match else None)
    match = OLD_CODE_SUFFIX.match(line)
    found = text_cards.code_suffix(line)
    assert (None if found is None else (found[0], found[1])) == (
        None if match is None else (match["name"].rstrip(), match["code"]))
