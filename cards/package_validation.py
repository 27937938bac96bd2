"""Checks for `hangar.package/1` data packages (docs/design.md §2.1), run before anything is written.

Zulip style: every `check_*` here only reads and returns a list of error messages; cards.services writes only
when the list is empty. Messages say where the problem is (file, line/column, card code, field) and what was
expected, e.g. ``card HS-012, field "firepower": "2y2" does not match ^[0-9]+(x[0-9]+)?$``.

This module reads no database rows: what other packages already hold is passed in (`CatalogContext`).
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping

from django.conf import settings
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError as SchemaError
from jsonschema.exceptions import best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from rules_engine.core.catalog import CardDataError
from rules_engine.systems import SYSTEMS as SYSTEMS_REGISTRY
from rules_engine.systems import system as game_system

from .storable_text import escaped, surrogate_problem
from .systems import SYSTEMS

PACKAGE_SCHEMA = "hangar.package/1"
MAX_PACKAGE_BYTES = 20 * 1024 * 1024  # a data package may be at most 20 MB
MAX_ERRORS = 50
DEFAULT_SCHEMA_DIR = Path(__file__).resolve().parent / "schemas"

# Column limits of cards.models (a longer value would fail in PostgreSQL, so it is refused here with a message).
SLUG_MAX = 100
VERSION_MAX = 50
TITLE_MAX = 200
CARD_TEXT_LIMITS = {"code": 50, "name": 200, "name_en": 200, "category": 40, "kind": 40, "faction": 80}
ENTRY_TEXT_LIMITS = {"slug": 64, "name": 200, "name_en": 200}
# Every integer in a package fits the database's integer columns (a card's cost, points or CST is one).
MIN_INT, MAX_INT = -(2**31), 2**31 - 1
MAX_DEPTH = 32  # levels of objects and lists; the bundled packages use 7


@dataclass(frozen=True)
class CatalogContext:
    """What the other packages of the same system already use (everything but the package being imported)."""

    card_codes: Mapping[str, str] = field(default_factory=dict)  # card code -> package slug
    format_slugs: Mapping[str, str] = field(default_factory=dict)  # format slug -> package slug
    opponent_slugs: Mapping[str, str] = field(default_factory=dict)  # opponent slug -> package slug
    default_formats: Mapping[str, str] = field(default_factory=dict)  # default format slug -> package slug


class SchemaMissing(Exception):
    """The JSON Schema file of a system is missing or unreadable: import refuses (never skips validation)."""


# --- reading -------------------------------------------------------------------------------------------------


def canonical_json(data: Any) -> bytes:
    """Sorted keys, no whitespace: the same package with another layout has the same bytes (and sha256)."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def parse_package_bytes(raw: bytes) -> tuple[Any, list[str]]:
    """Decode a package file. Errors do not name the file (the caller adds it); bad JSON gives line and column."""
    if len(raw) > MAX_PACKAGE_BYTES:
        return None, [f"file is {len(raw)} bytes; a data package may be at most {MAX_PACKAGE_BYTES} bytes"]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return None, [f"not UTF-8 text (byte {exc.start})"]
    try:
        return json.loads(text), []
    except json.JSONDecodeError as exc:
        return None, [f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"]
    except ValueError:  # what json.loads raises besides JSONDecodeError: an integer of more than 4300 digits
        return None, ["not valid JSON: a number has more than 4300 digits"]
    except RecursionError:
        return None, [f"not valid JSON: nested too deeply (a package may nest at most {MAX_DEPTH} levels)"]


# --- schemas -------------------------------------------------------------------------------------------------


def schema_dir() -> Path:
    """Where the per-system JSON Schemas live: setting (or environment variable) HANGAR_SCHEMA_DIR, else cards/schemas/."""
    override = getattr(settings, "HANGAR_SCHEMA_DIR", None) or os.environ.get("HANGAR_SCHEMA_DIR")
    return Path(override) if override else DEFAULT_SCHEMA_DIR


def schema_path(system: str, directory: Path | str | None = None) -> Path:
    """The JSON Schema of `system`'s packages: `<directory>/<system>.schema.json`; without a directory, the one its
    game brings (the registry entry's `package_schema`, a game outside rules_engine/), else the schema folder's."""
    if directory is None:
        entry = SYSTEMS_REGISTRY.get(system)
        if entry is not None and entry.package_schema and not os.environ.get("HANGAR_SCHEMA_DIR") \
                and not getattr(settings, "HANGAR_SCHEMA_DIR", None):
            return Path(entry.package_schema)
    return (Path(directory) if directory is not None else schema_dir()) / f"{system}.schema.json"


def validator_for(system: str, directory: Path | str | None = None) -> Draft202012Validator:
    """The draft 2020-12 validator of `system`'s schema (`schema_path`; loaded once per file and version)."""
    path = schema_path(system, directory)
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        raise SchemaMissing(f"the JSON Schema for system '{system}' is missing ({path}); cannot validate the package")
    return _load_validator(str(path), stamp)


@lru_cache(maxsize=32)
def _load_validator(path: str, stamp: int) -> Draft202012Validator:
    """Cached on (path, mtime): an edited schema file is read again. Sibling *.schema.json files can be $ref'd."""
    schema_path = Path(path)
    try:
        schema = json.loads(schema_path.read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(schema)
    except (OSError, ValueError, SchemaError) as exc:
        raise SchemaMissing(f"the JSON Schema {schema_path} cannot be used: {exc}") from exc
    registry = Registry()
    for sibling in schema_path.parent.glob("*.json"):
        try:
            contents = json.loads(sibling.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        resource = Resource.from_contents(contents, default_specification=DRAFT202012)
        registry = registry.with_resource(sibling.name, resource)
        if isinstance(contents, dict) and isinstance(contents.get("$id"), str):
            registry = registry.with_resource(contents["$id"], resource)
    return PackageValidator(schema, registry=registry, format_checker=Draft202012Validator.FORMAT_CHECKER)


def ecma_pattern(pattern: str) -> str:
    """The Python regex for a JSON Schema (ECMA-262) pattern: an unescaped `$` outside [...] becomes `\\Z`.

    In ECMA-262 `$` is the end of the input; in Python it also matches before a final newline, so without this
    "HS-001\\n" would pass `^[A-Z][A-Z0-9]*-[0-9A-Z]+$` and be stored as a second, different card code.
    """
    out: list[str] = []
    index, in_class = 0, False
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":  # an escape, copied as it is (so "\\$" stays a literal dollar)
            out.append(pattern[index:index + 2])
            index += 2
        elif in_class:
            in_class = char != "]"
            out.append(char)
            index += 1
        elif char == "[":  # "[", an optional "^" and a leading "]" (a literal in Python) start a class
            end = index + 1 + (pattern[index + 1:index + 2] == "^")
            end += pattern[end:end + 1] == "]"
            out.append(pattern[index:end])
            index, in_class = end, True
        else:
            out.append("\\Z" if char == "$" else char)
            index += 1
    return "".join(out)


@lru_cache(maxsize=256)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(ecma_pattern(pattern))


def _pattern_keyword(validator, pattern, instance, schema):
    if validator.is_type(instance, "string") and not _compiled(pattern).search(instance):
        yield SchemaError(f"{instance!r} does not match {pattern!r}")


# Draft 2020-12 with the `pattern` keyword read as JSON Schema defines it (ECMA-262 `$`).
PackageValidator = validators.extend(Draft202012Validator, {"pattern": _pattern_keyword})


# --- checks --------------------------------------------------------------------------------------------------


def check_package(data: Any, *, schema_directory: Path | str | None = None) -> list[str]:
    """Envelope, then the system's JSON Schema, then the in-package Python checks. Returns error messages."""
    errors = check_envelope(data) or check_values(data)
    if errors:
        return errors
    try:
        validator = validator_for(data["system"], schema_directory)
    except SchemaMissing as exc:
        return [str(exc)]
    errors = check_against_schema(data, validator)
    if errors:
        return errors
    return cap_errors(check_shape(data) or check_unique_within(data) or check_factions(data) or check_engine_cards(data))


def check_envelope(data: Any) -> list[str]:
    if not isinstance(data, dict):
        return [f"a data package must be a JSON object, got {_json_type(data)}"]
    if data.get("schema") != PACKAGE_SCHEMA:
        return [f'field "schema": expected "{PACKAGE_SCHEMA}", got {_show(data.get("schema"))}']
    if not isinstance(data.get("system"), str) or data["system"] not in SYSTEMS:
        known = ", ".join(sorted(SYSTEMS))
        return [f'field "system": unknown game system {_show(data.get("system"))}; expected one of {known}']
    return []


def check_values(data: dict) -> list[str]:
    """What JSON allows but a package may not hold, found without recursion (so before the schema, which would
    raise on them): non-finite numbers, integers beyond the database's columns, the character U+0000 (PostgreSQL
    cannot store it), lone surrogates (a JSON "\\ud800" escape: no database or UTF-8 text can hold one;
    cards.storable_text), nesting deeper than MAX_DEPTH, and — from Python callers — non-string keys or non-JSON
    values.
    """
    errors: list[str] = []
    stack: list[tuple[Any, list]] = [(data, [])]
    while stack and len(errors) <= MAX_ERRORS:
        value, path = stack.pop()
        problem = None
        if isinstance(value, dict):
            if len(path) >= MAX_DEPTH:
                problem = f"nested more than {MAX_DEPTH} levels deep"
            else:
                bad_keys = [key for key in value if not isinstance(key, str)]
                if bad_keys:
                    problem = f"field names must be strings, got {_show(bad_keys[0])}"
                elif any("\x00" in key for key in value):
                    problem = "a field name contains the character U+0000, which cannot be stored"
                elif any(surrogate_problem(key) for key in value):
                    problem = "a field name " + next(filter(None, map(surrogate_problem, value)))
                stack.extend((item, [*path, key]) for key, item in reversed(value.items()) if isinstance(key, str))
        elif isinstance(value, list):
            if len(path) >= MAX_DEPTH:
                problem = f"nested more than {MAX_DEPTH} levels deep"
            else:
                stack.extend((item, [*path, index]) for index, item in reversed(list(enumerate(value))))
        elif isinstance(value, bool) or value is None:
            pass
        elif isinstance(value, int):
            if value > MAX_INT:
                problem = f"{_show(value)} is more than the maximum {MAX_INT}"
            elif value < MIN_INT:
                problem = f"{_show(value)} is less than the minimum {MIN_INT}"
        elif isinstance(value, float):
            if not math.isfinite(value):
                problem = f"{value} is not a number JSON allows"
        elif isinstance(value, str):
            if "\x00" in value:
                problem = "text contains the character U+0000, which cannot be stored"
            elif surrogate_problem(value):
                problem = "text " + surrogate_problem(value)
        else:
            problem = f"a {type(value).__name__} is not a JSON value"
        if problem:
            errors.append(escaped(_place_message(data, path, problem)))  # a card code may hold the surrogate too
    return cap_errors(errors)


def _place_message(data: dict, path: list, problem: str) -> str:
    where, rest = _locate(data, path)
    return f'{where}, field "{_dotted(rest)}": {problem}' if rest else f"{where}: {problem}"


# Packages that passed a validator, by their canonical JSON: the same package is imported again and again (every
# `load_packages`, a test suite's fixtures) and its schema walk is most of an import's time. Only a pass is kept (an
# error is found again, with its message); the validator is kept with it, so its id names that same schema.
_SCHEMA_PASSES: dict[tuple[int, str], Any] = {}
_SCHEMA_PASSES_KEPT = 64


def _schema_pass_key(data: dict, validator: Any) -> tuple[int, str] | None:
    try:
        text = json.dumps(data, sort_keys=True, ensure_ascii=True, allow_nan=False)
    except (TypeError, ValueError):
        return None
    return id(validator), hashlib.sha256(text.encode("ascii")).hexdigest()


def check_against_schema(data: dict, validator: Draft202012Validator) -> list[str]:
    key = _schema_pass_key(data, validator)
    if key is not None and _SCHEMA_PASSES.get(key) is validator:
        return []
    errors = sorted(validator.iter_errors(data), key=lambda error: [str(part) for part in error.absolute_path])
    if not errors and key is not None:
        if len(_SCHEMA_PASSES) >= _SCHEMA_PASSES_KEPT:
            _SCHEMA_PASSES.clear()
        _SCHEMA_PASSES[key] = validator
    messages = [schema_error_message(data, _most_specific(error)) for error in errors]
    # One misspelt field can fail several if/then branches: say each problem once, in order.
    return cap_errors(list(dict.fromkeys(messages)))


def check_shape(data: dict) -> list[str]:
    """What the import code relies on, in case a schema is looser than the contract (docs/design.md §2.1)."""
    errors = []
    for key, limit in (("slug", SLUG_MAX), ("version", VERSION_MAX), ("title", TITLE_MAX)):
        errors += _check_text(data.get(key), f'field "{key}"', limit, required=True)
    if isinstance(data.get("slug"), str) and not _is_slug(data["slug"]):
        errors.append(f'field "slug": {_show(data["slug"])} is not a slug (letters, digits, "-" and "_" only)')
    if not isinstance(data.get("cards"), list):
        errors.append('field "cards": expected a list of cards')
    for key in ("formats", "opponents"):
        if not isinstance(data.get(key, []), list):
            errors.append(f'field "{key}": expected a list')
    if errors:
        return errors
    for index, card in enumerate(data["cards"]):
        errors += _check_entry(card, card_label(data, index), CARD_TEXT_LIMITS, required=("code", "name"))
        if isinstance(card, dict) and not isinstance(card.get("category") or card.get("kind"), str):
            errors.append(f'{card_label(data, index)}: missing "category" (HAGMI) or "kind" (MWDA, Warcaster)')
        code = card.get("code") if isinstance(card, dict) else None
        if isinstance(code, str) and any(ch.isspace() or not ch.isprintable() or ch in "(){}" for ch in code):
            errors.append(f'card #{index + 1}, field "code": {_show(code)} must not contain spaces, line breaks, '
                          "parentheses or braces (lists name cards by code)")
    for key, noun in (("formats", "format"), ("opponents", "opponent")):
        for index, entry in enumerate(data.get(key, [])):
            label = entry_label(data, key, noun, index)
            errors += _check_entry(entry, label, ENTRY_TEXT_LIMITS, ("slug", "name"))
            slug = entry.get("slug") if isinstance(entry, dict) else None
            if isinstance(slug, str) and slug.strip() and not _is_slug(slug):
                errors.append(f'{noun} #{index + 1}, field "slug": {_show(slug)} is not a slug '
                              '(letters, digits, "-" and "_" only)')
    return errors


def check_engine_cards(data: dict) -> list[str]:
    """Every card as its game's engine reads it (the registry's `check_card`): what the JSON Schema cannot say — a
    skill's parameters, a dial's clicks, a weapon's qualities — is checked by the one definition the simulator
    plays, so a package the importer accepts is a package the engine can play."""
    check = game_system(data["system"]).check_card
    if check is None:
        return []
    errors = []
    for card in data["cards"]:
        try:
            check(card)
        except CardDataError as error:
            errors.append(str(error))
        except (ValueError, TypeError, KeyError, AttributeError) as error:  # data the reader did not foresee
            errors.append(f'card {card.get("code")}: the {data["system"]} engine cannot read this card '
                          f"({type(error).__name__}: {error})")
    return errors


# The Warcaster factions a package may name without declaring them (the packages written before factions became
# package data); "mercenary" and "universal" (cyphers) need no declaration either.
LEGACY_FACTIONS = {"warcaster": frozenset({"iron-star-alliance", "marcher-worlds", "aeternus-continuum", "empyreans"})}
ANY_PACKAGE_FACTIONS = frozenset({"mercenary", "universal"})


def check_factions(data: dict) -> list[str]:
    """A Warcaster card's faction is one the package declares in "factions" (slug, ja/en names; a BattleScribe
    import declares its catalogues), or, in a package that declares none, one of the four legacy factions."""
    if data["system"] not in LEGACY_FACTIONS:
        return []
    declared = data.get("factions")
    errors: list[str] = []
    if declared:
        slugs = Counter(entry["slug"] for entry in declared)
        errors += [f"faction {slug}: slug declared {count} times" for slug, count in slugs.items() if count > 1]
        known = frozenset(slugs) | ANY_PACKAGE_FACTIONS
    else:
        known = LEGACY_FACTIONS[data["system"]] | ANY_PACKAGE_FACTIONS
    for index, card in enumerate(data["cards"]):
        faction = card.get("faction")
        if isinstance(faction, str) and faction not in known:
            where = "the package's \"factions\"" if declared else "the known factions (the package declares none)"
            errors.append(f'{card_label(data, index)}, field "faction": {_show(faction)} is not one of {where}: '
                          + ", ".join(sorted(known)))
    return errors


def check_unique_within(data: dict) -> list[str]:
    """Card codes, format slugs and opponent slugs are unique in the package; at most one default format."""
    errors = []
    codes = Counter(card["code"] for card in data["cards"])
    errors += [f"card {code}: code used {count} times in this package" for code, count in codes.items() if count > 1]
    for key, noun in (("formats", "format"), ("opponents", "opponent")):
        slugs = Counter(entry["slug"] for entry in data.get(key, []))
        errors += [f"{noun} {slug}: slug used {count} times in this package" for slug, count in slugs.items() if count > 1]
    defaults = [fmt["slug"] for fmt in data.get("formats", []) if fmt.get("default")]
    if len(defaults) > 1:
        errors.append(f"formats: only one format may be the default; {', '.join(defaults)} all say \"default\": true")
    return errors


def check_against_catalog(data: dict, context: CatalogContext) -> list[str]:
    """Clashes with the other packages of the same system (codes unique in a system; one default format)."""
    errors = [
        f"card {card['code']}: code already used by package '{context.card_codes[card['code']]}' of {data['system']}"
        for card in data["cards"]
        if card["code"] in context.card_codes
    ]
    for key, noun, taken in (
        ("formats", "format", context.format_slugs),
        ("opponents", "opponent", context.opponent_slugs),
    ):
        errors += [
            f"{noun} {entry['slug']}: slug already used by package '{taken[entry['slug']]}' of {data['system']}"
            for entry in data.get(key, [])
            if entry["slug"] in taken
        ]
    defaults = [fmt["slug"] for fmt in data.get("formats", []) if fmt.get("default")]
    if defaults and context.default_formats:
        slug, owner = next(iter(context.default_formats.items()))
        errors.append(
            f"format {defaults[0]}: cannot be the default format; {data['system']} already has default format "
            f"'{slug}' from package '{owner}'"
        )
    return cap_errors(errors)


def cap_errors(errors: list[str]) -> list[str]:
    if len(errors) <= MAX_ERRORS:
        return errors
    return errors[:MAX_ERRORS] + [f"... and {len(errors) - MAX_ERRORS} more errors"]


# --- messages ------------------------------------------------------------------------------------------------


def card_label(data: dict, index: int) -> str:
    card = data["cards"][index] if index < len(data.get("cards", [])) else None
    code = card.get("code") if isinstance(card, dict) else None
    return f"card {code}" if isinstance(code, str) and code else f"card #{index + 1}"


def entry_label(data: dict, key: str, noun: str, index: int) -> str:
    entries = data.get(key) or []
    entry = entries[index] if index < len(entries) else None
    slug = entry.get("slug") if isinstance(entry, dict) else None
    return f"{noun} {slug}" if isinstance(slug, str) and slug else f"{noun} #{index + 1}"


def schema_error_message(data: dict, error: SchemaError) -> str:
    """`card HS-012, field "firepower": "2y2" does not match ^[0-9]+(x[0-9]+)?$`."""
    path = list(error.absolute_path)
    if error.validator is None:  # a `false` sub-schema: the field is not allowed here
        return _not_allowed_message(data, path, error.instance)
    where, rest = _locate(data, path)
    if error.validator == "required":
        missing = _missing_property(error)
        target = f'{where}, field "{_dotted(rest)}"' if rest else where
        return f'{target}: missing required field "{missing}"'
    if rest:
        where = f'{where}, field "{_dotted(rest)}"'
    return f"{where}: {_expectation(error)}"


def _not_allowed_message(data: dict, path: list, value: Any) -> str:
    """jsonschema reports `"field": false` against the parent object: find the field(s) holding that value."""
    parent: Any = data
    for part in path:
        parent = parent[part]
    if not isinstance(parent, dict):
        where, rest = _locate(data, path)
        return f'{where}{f", field {_dotted(rest)!r}" if rest else ""}: {_show(value)} is not allowed here'
    fields = [key for key, item in parent.items() if item == value and type(item) is type(value)]
    kind = parent.get("category") or parent.get("kind")
    why = f" for {'category' if 'category' in parent else 'kind'} {_show(kind)}" if isinstance(kind, str) else " here"
    where, rest = _locate(data, path)
    names = " or ".join(f'"{_dotted([*rest, key])}"' for key in fields) or "?"
    return f"{where}, field {names}: not allowed{why}"


def _locate(data: dict, path: list) -> tuple[str, list]:
    labels = {"cards": lambda i: card_label(data, i),
              "formats": lambda i: entry_label(data, "formats", "format", i),
              "opponents": lambda i: entry_label(data, "opponents", "opponent", i)}
    if len(path) >= 2 and path[0] in labels and isinstance(path[1], int):
        return labels[path[0]](path[1]), path[2:]
    if path:
        return f'field "{_dotted(path)}"', []
    return "package", []


def _expectation(error: SchemaError) -> str:
    value, expected = error.instance, error.validator_value
    messages = {
        "pattern": lambda: f"{_show(value)} does not match {expected}",
        "type": lambda: f"expected {_types(expected)}, got {_json_type(value)} {_show(value)}",
        "enum": lambda: f"{_show(value)} is not one of {', '.join(_show(item) for item in expected)}",
        "const": lambda: f"expected {_show(expected)}, got {_show(value)}",
        "minimum": lambda: f"{_show(value)} is less than the minimum {expected}",
        "exclusiveMinimum": lambda: f"{_show(value)} must be greater than {expected}",
        "maximum": lambda: f"{_show(value)} is more than the maximum {expected}",
        "minItems": lambda: f"needs at least {expected} item(s), got {len(value)}",
        "maxItems": lambda: f"allows at most {expected} item(s), got {len(value)}",
        "minLength": lambda: f"{_show(value)} is shorter than {expected} character(s)",
        "maxLength": lambda: f"{_show(value)} is longer than {expected} characters",
        "not": lambda: f"not allowed here ({expected.get('description', 'see the schema')})"
        if isinstance(expected, dict)
        else "not allowed here",
    }
    if error.validator in messages:
        return messages[error.validator]()
    if error.validator in ("additionalProperties", "unevaluatedProperties") and isinstance(value, dict):
        known = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
        extra = [name for name in value if name not in known]
        return f"unknown field(s) {', '.join(_show(name) for name in extra) or error.message}"
    return error.message


def _most_specific(error: SchemaError) -> SchemaError:
    """For anyOf/oneOf failures, the sub-error that best says what is wrong (deepest, most relevant)."""
    while error.validator in ("anyOf", "oneOf") and error.context:
        error = best_match(error.context)
    return error


def _missing_property(error: SchemaError) -> str:
    instance = error.instance if isinstance(error.instance, dict) else {}
    missing = [name for name in error.validator_value if name not in instance]
    return missing[0] if missing else str(error.validator_value)


def _check_entry(entry: Any, label: str, limits: Mapping[str, int], required: Iterable[str]) -> list[str]:
    if not isinstance(entry, dict):
        return [f"{label}: expected an object, got {_json_type(entry)}"]
    errors = []
    for key, limit in limits.items():
        errors += _check_text(entry.get(key), f'{label}, field "{key}"', limit, required=key in required)
    return errors


def _check_text(value: Any, where: str, limit: int, *, required: bool) -> list[str]:
    if value is None and not required:
        return []
    if not isinstance(value, str) or (required and not value.strip()):
        return [f"{where}: expected a non-empty string, got {_show(value)}"]
    if len(value) > limit:
        return [f"{where}: at most {limit} characters allowed, got {len(value)}"]
    return []


def _is_slug(value: str) -> bool:
    return bool(value) and all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in value)


def _dotted(path: Iterable) -> str:
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in path).lstrip(".")


def _types(expected: Any) -> str:
    return " or ".join(expected) if isinstance(expected, list) else str(expected)


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return {str: "string", list: "array", dict: "object"}.get(type(value), type(value).__name__)


def _show(value: Any) -> str:
    """A short rendering of an untrusted value for a message; never raises (huge numbers, deep nesting)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**60:
        return "a very large number"
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = f"a {_json_type(value)}"
    return text if len(text) <= 80 else text[:77] + "..."
