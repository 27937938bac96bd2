"""Property tests of package import (cards.services, docs/design.md §2.1, docs/data-packages.md).

Whatever it is given — any JSON value, any bytes, a bundled package with one value changed, dropped or
duplicated — `package_import` / `package_import_file` either import it or raise PackageError whose messages name
the card (or format, opponent, field) and what was expected. A refused package changes nothing in the database;
an imported one is stored exactly as given. No other exception is ever raised.
"""
from __future__ import annotations

import copy
import hashlib
import json
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.db import transaction
from hypothesis import given
from hypothesis import strategies as st

from builder.listio.jsonio import CARD_PATTERN, FORMAT_PATTERN
from cards import package_validation
from cards.models import Card, DataPackage, Format, GameSystem, Opponent
from cards.services import PackageError, import_paths, package_import, package_import_file

from .strategies import (
    HUGE_INTS,
    SYSTEM_SLUGS,
    TEXT,
    bundled_package,
    bundled_package_paths,
    examples,
    hostile_battlescribe_files,
    json_values,
    paths_of,
)
from tests.support.bundled_catalog import load_bundled_catalog

pytestmark = pytest.mark.django_db


def catalog_snapshot() -> str:
    """A digest of every catalog row an import may touch."""
    rows = {
        "systems": list(GameSystem.objects.order_by("slug").values_list("slug", "name", "sections")),
        "packages": list(DataPackage.objects.order_by("system__slug", "slug")
                         .values_list("system__slug", "slug", "version", "title", "sha256")),
        "cards": list(Card.objects.order_by("system__slug", "code")
                      .values_list("system__slug", "code", "name", "name_en", "category", "cost", "data")),
        "formats": list(Format.objects.order_by("system__slug", "slug").values_list("slug", "is_default", "data")),
        "opponents": list(Opponent.objects.order_by("system__slug", "slug").values_list("slug", "data")),
    }
    return hashlib.sha256(json.dumps(rows, sort_keys=True, default=str).encode()).hexdigest()


@contextmanager
def rolled_back():
    """Each example starts from the same catalog: its writes are undone when it ends."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


@pytest.fixture
def bundled(db):
    load_bundled_catalog()


def check_refusal(error: PackageError) -> str:
    assert error.errors and all(isinstance(message, str) and message.strip() for message in error.errors)
    assert len(error.errors) <= package_validation.MAX_ERRORS + 1  # the first 50, then "... and N more errors"
    assert str(error).startswith(error.source + ": " if error.source else "package refused")
    str(error).encode("utf-8")  # printable by import_package (no lone surrogate)
    return "\n".join(error.errors)


def import_or_refusal(data: Any) -> tuple[Any, str | None]:
    """(report, None) when imported, (None, joined messages) when refused; a refused import changed nothing."""
    before = catalog_snapshot()
    try:
        return package_import(data, source="property-test"), None
    except PackageError as error:
        assert catalog_snapshot() == before, "a refused package changed the catalog"
        return None, check_refusal(error)


def check_stored(data: dict[str, Any], report) -> None:
    """An imported package is in the database exactly as given, and usable: every card code can be put in a
    hangar.list/1 list and every format slug named by one; nothing PostgreSQL would refuse (U+0000) was taken,
    so the same package imports on both databases."""
    package = DataPackage.objects.get(system__slug=data["system"], slug=data["slug"])
    stored = {card.code: card.data for card in Card.objects.filter(package=package)}
    assert stored == {card["code"]: card for card in data["cards"]}
    assert report.cards == len(data["cards"]) and report.status in ("loaded", "replaced", "unchanged")
    formats = sorted(Format.objects.filter(package=package).values_list("slug", flat=True))
    assert formats == sorted(fmt["slug"] for fmt in data.get("formats", []))
    assert all(CARD_PATTERN.fullmatch(code) for code in stored), sorted(stored)
    assert all(FORMAT_PATTERN.fullmatch(slug) for slug in formats), formats
    assert "\\u0000" not in json.dumps(data), "U+0000 cannot be stored in PostgreSQL"


# --- anything in ---------------------------------------------------------------------------------------------


@given(value=json_values())
@examples(25, shared_fixture=True)
def test_any_json_value_is_refused_with_a_message(bundled, value):
    with rolled_back():
        report, refusal = import_or_refusal(value)
        assert report is None and refusal


@given(system=st.sampled_from(SYSTEM_SLUGS) | json_values(3),
       fields=st.dictionaries(st.sampled_from(["slug", "version", "title", "cards", "formats", "opponents",
                                               "description", "extra"]), json_values(8), max_size=6))
@examples(25, shared_fixture=True)
def test_any_package_fields_are_refused_or_imported(bundled, system, fields):
    data = {"schema": "hangar.package/1", "system": system, **fields}
    with rolled_back():
        report, refusal = import_or_refusal(data)
        if report is not None:
            check_stored(data, report)


@given(raw=st.binary(max_size=300) | st.text(max_size=100).map(str.encode))
@examples(15, shared_fixture=True)
def test_any_file_content_is_refused_with_a_message(bundled, raw):
    with tempfile.TemporaryDirectory() as directory, rolled_back():
        path = Path(directory) / "package.json"
        path.write_bytes(raw)
        before = catalog_snapshot()
        with pytest.raises(PackageError) as info:
            package_import_file(path)
        assert catalog_snapshot() == before
        assert check_refusal(info.value) and info.value.source == str(path)


# --- a bundled package with one change -----------------------------------------------------------------------




def _value_at(system: str, path: tuple) -> Any:
    value = bundled_package(system)
    for part in path:
        value = value[part]
    return value


PATHS = {system: paths_of(bundled_package(system)) for system in SYSTEM_SLUGS}
CARD_FIELDS = {system: [path for path in PATHS[system] if len(path) == 3 and path[0] == "cards"]
               for system in SYSTEM_SLUGS}
CARD_NUMBERS = {system: [path for path in CARD_FIELDS[system] if type(_value_at(system, path)) is int]
                for system in SYSTEM_SLUGS}
TOP_PATHS = {system: [path for path in PATHS[system] if len(path) <= 3 and path[0] != "cards"]
             for system in SYSTEM_SLUGS}

# Values a careless package writer might put anywhere.
ODD_VALUES = st.one_of(
    json_values(6), HUGE_INTS, st.integers(max_value=-1), st.just(""), st.just("x" * 300), TEXT.map(lambda t: t + "\n"),
    st.just("名前\x00"), st.just(1.5), st.just([]), st.just({}),
)


@st.composite
def mutations(draw) -> dict[str, Any]:
    """One change to a bundled package: a value replaced or dropped, text appended, or a card code duplicated.
    Only the change is drawn (so a failure prints it, not the whole package); `apply` makes the package."""
    system = draw(st.sampled_from(SYSTEM_SLUGS))
    path = draw(st.one_of(*[st.sampled_from(CARD_FIELDS[system])] * 2, st.sampled_from(TOP_PATHS[system]),
                          st.sampled_from(PATHS[system])))
    current = bundled_package(system)
    for part in path:
        current = current[part]
    how = draw(st.sampled_from(["replace", "replace", "drop", "duplicate", "append"]))
    if how == "duplicate":  # card `first` takes the code of card `second`
        count = len(bundled_package(system)["cards"])
        first, second = draw(st.lists(st.integers(0, count - 1), min_size=2, max_size=2, unique=True))
        return {"system": system, "path": ("cards", first, "code"), "how": how, "value": second}
    if how == "append" and isinstance(current, str):
        return {"system": system, "path": path, "how": how,
                "value": draw(st.sampled_from(["\n", " ", "\x00", "\u200b", "\ufeff", "٣", "𝔘"]))}
    if how == "drop" and len(path) > 0:
        return {"system": system, "path": path, "how": how, "value": None}
    if isinstance(current, int) and draw(st.booleans()):
        return {"system": system, "path": path, "how": "replace", "value": draw(HUGE_INTS | st.integers(max_value=-1))}
    return {"system": system, "path": path, "how": "replace", "value": draw(ODD_VALUES)}


def apply(mutation: dict[str, Any]) -> dict[str, Any]:
    data = bundled_package(mutation["system"])
    path, how, value = mutation["path"], mutation["how"], mutation["value"]
    parent = data
    for part in path[:-1]:
        parent = parent[part]
    if how == "duplicate":
        parent["code"] = data["cards"][value]["code"]
    elif how == "drop" and isinstance(parent, dict):
        del parent[path[-1]]
    elif how == "drop":
        parent.pop(path[-1])
    elif how == "append":
        parent[path[-1]] += value
    else:
        parent[path[-1]] = value
    return data


def place_names(data: dict[str, Any], original: dict[str, Any], path: tuple) -> list[str]:
    """How a message may name the changed place: `card HS-012` / `card #12`, `format tactics-v4`, a field name."""
    if path[0] in ("cards", "formats", "opponents") and len(path) >= 2:
        nouns = {"cards": ("card", "code"), "formats": ("format", "slug"), "opponents": ("opponent", "slug")}
        noun, key = nouns[path[0]]
        names = [f"{noun} #{path[1] + 1}"]
        for package in (data, original):
            entry = package[path[0]][path[1]] if path[1] < len(package.get(path[0], [])) else None
            if isinstance(entry, dict) and isinstance(entry.get(key), str):
                names.append(f"{noun} {entry[key]}")
        return names
    return [str(path[0])]


@pytest.mark.services  # NUL and integers past PostgreSQL's columns
@given(mutation=mutations())
@examples(60, shared_fixture=True)
def test_a_changed_bundled_package_is_imported_or_refused_naming_the_place(bundled, mutation):
    data = apply(mutation)
    with rolled_back():
        report, refusal = import_or_refusal(copy.deepcopy(data))
        if report is not None:
            check_stored(data, report)
            return
        if "already used by package" in refusal or "already has default format" in refusal:
            return  # a changed slug makes a second package whose codes clash with the first: named per card
        names = place_names(data, bundled_package(mutation["system"]), mutation["path"])
        assert any(name in refusal for name in names), (names, refusal)


@pytest.mark.services  # integers past PostgreSQL's columns
@given(data=st.data(), system=st.sampled_from(SYSTEM_SLUGS),
       value=st.one_of(st.integers(), HUGE_INTS, st.integers(min_value=2**31), st.integers(min_value=2**63)))
@examples(30, shared_fixture=True)
def test_any_integer_in_a_numeric_card_field_is_imported_or_refused_naming_the_card(bundled, data, system, value):
    """Costs, points, armor, ranges ...: negative, zero, 2^31, 10^30 — imported, or refused naming card and field."""
    path = data.draw(st.sampled_from(CARD_NUMBERS[system]))
    package = bundled_package(system)
    package["cards"][path[1]][path[2]] = value
    with rolled_back():
        report, refusal = import_or_refusal(package)
        if report is not None:
            check_stored(package, report)
        else:
            assert f'card {package["cards"][path[1]]["code"]}, field "{path[2]}"' in refusal, refusal


@given(system=st.sampled_from(SYSTEM_SLUGS), data=st.data())
@examples(15, shared_fixture=True)
def test_a_changed_bundled_file_is_imported_or_refused(bundled, system, data):
    raw = bundled_package_paths(system)[0].read_bytes()
    at = data.draw(st.integers(0, len(raw)))
    how = data.draw(st.sampled_from(["truncate", "insert", "bom", "replace"]))
    if how == "truncate":
        raw = raw[:at]
    elif how == "insert":
        raw = raw[:at] + data.draw(st.binary(min_size=1, max_size=8)) + raw[at:]
    elif how == "bom":
        raw = b"\xef\xbb\xbf" + raw
    else:
        raw = raw[:at] + data.draw(st.binary(min_size=1, max_size=1)) + raw[at + 1:]
    with tempfile.TemporaryDirectory() as directory, rolled_back():
        path = Path(directory) / "package.json"
        path.write_bytes(raw)
        before = catalog_snapshot()
        try:
            report = package_import_file(path)
        except PackageError as error:
            assert catalog_snapshot() == before
            check_refusal(error)
        else:
            check_stored(json.loads(raw.decode("utf-8-sig")), report)


@given(system=st.sampled_from(SYSTEM_SLUGS))
@examples(3, shared_fixture=True)
def test_importing_a_bundled_package_again_changes_nothing(bundled, system):
    with rolled_back():
        before = catalog_snapshot()
        assert package_import(bundled_package(system)).status == "unchanged"
        assert catalog_snapshot() == before


# --- regressions found by the properties above ----------------------------------------------------------------


def refusal_of(data: Any) -> str:
    before = catalog_snapshot()
    with pytest.raises(PackageError) as info:
        package_import(data)
    assert catalog_snapshot() == before
    return check_refusal(info.value)


@pytest.mark.services  # PostgreSQL's integer columns end at 2^31 - 1
@pytest.mark.parametrize("value", [2**31, 10**30, 2**63, -(2**31) - 1], ids=["2^31", "10^30", "2^63", "-2^31-1"])
def test_an_integer_beyond_the_database_columns_is_refused_naming_card_and_field(bundled, value):
    """Found by test_a_changed_bundled_package...: a cost of 10^30 passed the schema (minimum 0, no maximum) and
    crashed the write with OverflowError (SQLite) / DataError (PostgreSQL: integer out of range)."""
    data = bundled_package("hagmi")
    data["cards"][1]["cost"] = value
    assert f'card {data["cards"][1]["code"]}, field "cost"' in refusal_of(data)


@pytest.mark.services  # NUL: PostgreSQL cannot store it
def test_nul_character_is_refused_naming_card_and_field(bundled):
    """SQLite stored a card name holding U+0000; PostgreSQL cannot (text and jsonb refuse it), so the same package
    crashed the second CI phase. Refused on both, naming the place."""
    data = bundled_package("mwda")
    data["cards"][0]["name"] += "\x00"
    assert f'card {data["cards"][0]["code"]}, field "name"' in refusal_of(data)


@pytest.mark.parametrize("where", ["cards", "formats"])
def test_a_code_or_slug_with_a_final_newline_is_refused(bundled, where):
    """Found by the check that every imported code can be used in a list: Python's `$` matches before a final
    newline, so "HS-001\\n" passed the schema pattern and became a second card no list could name."""
    data = bundled_package("hagmi")
    key = "code" if where == "cards" else "slug"
    data[where][0][key] += "\n"
    assert f'field "{key}"' in refusal_of(data)


@pytest.mark.parametrize("system", [[], {}, 1.5, None], ids=["list", "object", "number", "null"])
def test_a_system_of_another_type_is_refused(db, system):
    """`[] in SYSTEMS` raised TypeError (unhashable) instead of naming the field."""
    assert 'field "system"' in refusal_of({"schema": "hangar.package/1", "system": system})


def test_a_huge_integer_anywhere_is_refused_not_crashed_on(db):
    """A 5000-digit integer made the schema's own message raise ValueError while it was being written."""
    assert 'field "slug"' in refusal_of({"schema": "hangar.package/1", "system": "hagmi", "slug": 10**5000})


@pytest.mark.parametrize("raw,expected", [
    (b'{"schema": 1' + b"0" * 5000 + b"}", "not valid JSON: a number has more than 4300 digits"),
    (b"[" * 100_000 + b"]" * 100_000, "not valid JSON: nested too deeply"),
    (b'{"schema": "hangar.package/1", "system": "hagmi", "slug": NaN}', 'field "slug": nan is not a number'),
], ids=["5000-digit-integer", "deep-nesting", "NaN"])
def test_unreadable_files_are_refused_with_a_message(db, tmp_path, raw, expected):
    """json.loads raises ValueError (huge integer literal) and RecursionError (deep nesting), which the reader did
    not catch; NaN, which JSON does not allow, was read and passed on."""
    path = tmp_path / "package.json"
    path.write_bytes(raw)
    with pytest.raises(PackageError) as info:
        package_import_file(path)
    assert expected in check_refusal(info.value)


# --- hostile BattleScribe files (docs/data-packages.md "Limits of a file") ------------------------------------


@given(file=hostile_battlescribe_files())
@examples(20, shared_fixture=True)
def test_any_hostile_battlescribe_upload_is_refused_naming_the_file(bundled, file):
    """XML nested past the limit, zips past their budgets, zips in zips, or plain bad data: import_package's service
    refuses each with PackageError naming the file (and the zip's member), never a RecursionError or a MemoryError,
    and writes nothing."""
    name, raw = file
    with tempfile.TemporaryDirectory() as directory, rolled_back():
        path = Path(directory) / name
        path.write_bytes(raw)
        before = catalog_snapshot()
        with pytest.raises(PackageError) as info:
            import_paths([str(path)])
        assert catalog_snapshot() == before
        assert check_refusal(info.value) and name in str(info.value)
