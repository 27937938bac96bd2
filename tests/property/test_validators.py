"""Property tests of every construction validator (rules_engine.construction.validate_list, H1–H8, M1–M4, W1–W6).

Whatever the document, the validator answers with the docs/design.md §2.3 result: only codes and rule IDs of the rules
registry, a well-formed message in English and in Japanese, card codes taken from the list itself, the same answer
every time; it never raises. Lists built from the rules as docs/rules.md writes them are legal, and stay legal under
changes the rules cannot object to (order, splitting an entry, fewer units, more damage cards).
"""
from __future__ import annotations

import copy
import json
import re
from collections import Counter
from functools import lru_cache
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rules_engine.construction import RULES, validate_list

from .strategies import (
    EXTREMES,
    LEGAL_LISTS,
    SYSTEM_SLUGS,
    TEXT,
    card_codes,
    catalog,
    codes_where,
    examples,
    json_values,
    list_documents,
    options_for,
)

RESULT_KEYS = ["legal", "system", "format", "violations", "summary"]
VIOLATION_KEYS = ["code", "severity", "rule", "message", "section", "cards"]
SUMMARY_KEYS = {
    "hagmi": ["weapons", "tactics", "damage", "secret", "main", "secret_allowed"],
    "mwda": ["points", "point_limit", "orders_per_round"],
    "warcaster": ["heroes", "units", "cyphers"],
}
SECTIONS = {"hagmi": ["weapons", "tactics", "damage", "secret"], "mwda": ["army"], "warcaster": ["force", "rack"]}
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def registry(system: str) -> dict[tuple[str, str | None], str]:
    """(violation code, rule ID) -> severity, for the list.* codes and the rules of `system`."""
    return {(info.code, info.id): info.severity for info in RULES if info.code and info.system in (None, system)}


def strings_in(value: Any) -> set[str]:
    """Every string in a JSON value (keys included): a violation may only name cards the list names."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            found.update(key for key in item if isinstance(key, str))
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def check_result(doc: Any, system: str) -> dict[str, Any]:
    """Validate `doc` in both languages; assert every property of a §2.3 result; return the English result."""
    before = copy.deepcopy(doc)
    english = validate_list(doc, catalog(system), lang="en")
    japanese = validate_list(doc, catalog(system), lang="ja")
    assert doc == before, "the validator changed its input"
    assert validate_list(copy.deepcopy(doc), catalog(system), lang="en") == english, "not deterministic"
    json.dumps(english, allow_nan=False)
    json.dumps(japanese, allow_nan=False)

    assert list(english) == RESULT_KEYS
    assert english["system"] == system
    assert english["format"] is None or english["format"] in catalog(system).formats
    assert english["legal"] is not any(v["severity"] == "error" for v in english["violations"])
    assert list(english["summary"]) == SUMMARY_KEYS[system]
    assert all(type(value) is int and value >= 0 for value in english["summary"].values())

    known = registry(system)
    named = strings_in(doc)
    for violation in english["violations"]:
        assert list(violation) == VIOLATION_KEYS
        assert known.get((violation["code"], violation["rule"])) == violation["severity"], violation
        assert violation["section"] is None or violation["section"] in SECTIONS[system]
        assert violation["cards"] == sorted(set(violation["cards"]))
        assert set(violation["cards"]) <= named, violation
        assert isinstance(violation["message"], str) and violation["message"].endswith("."), violation
    # The same violations in Japanese; only the wording changes, and it is Japanese.
    assert [{**v, "message": None} for v in japanese["violations"]] == [
        {**v, "message": None} for v in english["violations"]
    ]
    assert {k: v for k, v in japanese.items() if k != "violations"} == {
        k: v for k, v in english.items() if k != "violations"
    }
    for violation in japanese["violations"]:
        assert violation["message"].endswith("。") and JAPANESE.search(violation["message"]), violation
    return english


def errors(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [v for v in result["violations"] if v["severity"] == "error"]


def as_multiset(result: dict[str, Any]) -> tuple:
    """A result with its violations as a multiset: entry order may order equal-ranked violations differently."""
    violations = Counter(json.dumps(v, sort_keys=True, ensure_ascii=False) for v in result["violations"])
    return result["legal"], result["format"], tuple(sorted(violations.items())), result["summary"]


# --- anything in, a well-formed result out -------------------------------------------------------------------

systems = st.sampled_from(SYSTEM_SLUGS)


@lru_cache(maxsize=None)
def messy_sections(system: str) -> st.SearchStrategy[dict[str, Any]]:
    section_keys = st.sampled_from(SECTIONS[system] * 3 + ["sideboard", "army", "rack", "weapons", ""])
    entry = st.fixed_dictionaries(
        {"card": card_codes(system)},
        optional={"qty": st.integers(-2, 1002) | st.integers(0, 3) | json_values(3),
                  "options": options_for(system)},
    )
    any_entry = st.one_of(entry, entry, entry, json_values(4))
    return st.dictionaries(section_keys, st.lists(any_entry, max_size=12) | json_values(3), max_size=5)


@st.composite
def messy_lists(draw) -> tuple[dict[str, Any], str]:
    """Lists built from real cards with bad counts, unknown and foreign codes, stray sections, any format."""
    system = draw(systems)
    sections = draw(messy_sections(system))
    doc = {
        "schema": draw(st.sampled_from(["hangar.list/1", "hangar.list/2"]) | json_values(2)),
        "system": draw(st.sampled_from([system, system, system, *SYSTEM_SLUGS]) | json_values(2)),
        "format": draw(st.sampled_from(sorted(catalog(system).formats)) | st.none() | TEXT | json_values(2)),
        "sections": sections,
    }
    for key in draw(st.sets(st.sampled_from(list(doc)))):  # drop some keys
        del doc[key]
    return doc, draw(systems) if draw(st.integers(0, 5)) == 0 else system


@given(doc=json_values(), system=systems)
@examples(40)
def test_any_json_value_gets_a_well_formed_result(doc, system):
    check_result(doc, system)


@given(case=messy_lists())
@examples(60)
def test_lists_of_catalog_cards_with_bad_parts_get_a_well_formed_result(case):
    doc, system = case
    check_result(doc, system)


@given(doc=list_documents())
@examples(60)
def test_valid_documents_get_a_well_formed_result(doc):
    result = check_result(doc, doc["system"])
    unknown = [e["card"] for entries in doc["sections"].values() for e in entries
               if e["card"] not in catalog(doc["system"]).cards]
    # list.unknown_card / list.wrong_system: one violation per entry naming a code the catalog does not hold.
    reported = [v for v in result["violations"] if v["code"] in ("list.unknown_card", "list.wrong_system")
                and v["section"] is not None]
    assert Counter(code for v in reported for code in v["cards"]) == Counter(unknown)


@given(doc=list_documents(), fmt=TEXT)
@examples(30)
def test_unknown_format_is_reported_and_the_default_format_used(doc, fmt):
    system = doc["system"]
    if fmt in catalog(system).formats:
        return
    result = check_result({**doc, "format": fmt}, system)
    assert result["format"] == catalog(system).default_format
    assert [v["code"] for v in result["violations"]].count("list.unknown_format") == 1


@given(doc=list_documents(), where=st.sampled_from(["qty", "card", "options", "entry", "section", "format",
                                                   "sections", "schema"]),
       extreme=st.sampled_from(sorted(EXTREMES)))
@examples(30)
def test_values_json_cannot_hold_get_a_well_formed_result(doc, where, extreme):
    """A 5000-digit quantity, a 5000-deep option, NaN, U+0000 ... handed in by Python code: still a result."""
    value = EXTREMES[extreme]()
    system = doc["system"]
    entries = [entry for section in doc["sections"].values() for entry in section]
    if where in ("qty", "card", "options", "entry") and entries:
        if where == "entry":
            next(iter(s for s in doc["sections"].values() if s))[0] = value
        else:
            entries[0][where] = value
    elif where == "section":
        doc["sections"][SECTIONS[system][0]] = value
    else:
        doc[where] = value
    results = [validate_list(doc, catalog(system), lang=lang) for lang in ("en", "ja")]
    assert results[0] == validate_list(doc, catalog(system), lang="en")
    for result in results:
        assert list(result) == RESULT_KEYS and result["system"] == system
        assert all(list(v) == VIOLATION_KEYS and v["message"] for v in result["violations"])
        json.dumps(result, allow_nan=False)


# --- order and entry splitting do not matter -----------------------------------------------------------------


def known_only(doc: dict[str, Any]) -> dict[str, Any]:
    """The document without entries of cards the catalog does not know (those are reported by entry index)."""
    cards = catalog(doc["system"]).cards
    sections = {key: [e for e in entries if e["card"] in cards] for key, entries in doc["sections"].items()}
    return {**doc, "sections": sections}


@st.composite
def rearranged(draw, doc: dict[str, Any]) -> dict[str, Any]:
    """The same list with its sections in another key order, entries shuffled, and entries split in two
    (2 補給物資 = 1 補給物資 + 1 補給物資; a split warjack keeps its options on both parts)."""
    sections = {}
    for key in draw(st.permutations(list(doc["sections"]))):
        result = []
        for entry in doc["sections"][key]:
            if entry["qty"] > 1 and draw(st.booleans()):
                first = draw(st.integers(1, entry["qty"] - 1))
                result += [{**entry, "qty": first}, {**entry, "qty": entry["qty"] - first}]
            else:
                result.append(entry)
        sections[key] = draw(st.permutations(result))
    return {**doc, "sections": sections}


@given(data=st.data(), doc=list_documents())
@examples(50)
def test_order_of_sections_and_entries_and_split_entries_give_the_same_result(data, doc):
    doc = known_only(doc)
    moved = data.draw(rearranged(doc))
    assert as_multiset(check_result(moved, doc["system"])) == as_multiset(check_result(doc, doc["system"]))


# --- lists built by the rules are legal, and stay legal ------------------------------------------------------


@given(data=st.data(), system=systems)
@examples(60)
def test_lists_built_by_the_rules_are_legal_and_stay_legal_when_rearranged(data, system):
    doc = data.draw(LEGAL_LISTS[system]())
    result = check_result(doc, system)
    assert errors(result) == [], result
    if system == "hagmi":  # H8 is the only warning, and only for an empty damage deck
        empty = not doc["sections"]["damage"]
        assert [v["rule"] for v in result["violations"]] == (["H8"] if empty else [])
    assert errors(check_result(data.draw(rearranged(doc)), system)) == []


@given(data=st.data(), red=st.sampled_from(codes_where("hagmi", frame="red")), qty=st.integers(1, 5))
@examples(30)
def test_hagmi_more_damage_cards_keep_a_legal_deck_legal(data, red, qty):
    """H3: a red card belongs in the damage deck; H4 and H5 do not count it (secret_counts_damage_deck=false)."""
    doc = data.draw(LEGAL_LISTS["hagmi"]())
    doc["sections"]["damage"].append({"card": red, "qty": qty})
    result = check_result(doc, "hagmi")
    assert result["violations"] == []


@given(data=st.data())
@examples(30)
def test_mwda_one_unit_fewer_keeps_a_legal_army_legal(data):
    """M1 points only fall, M3 copies only fall, M4 holds while a unit remains."""
    doc = data.draw(LEGAL_LISTS["mwda"]())
    army = doc["sections"]["army"]
    if sum(e["qty"] for e in army) < 2:
        return
    army.pop(data.draw(st.integers(0, len(army) - 1)))
    assert errors(check_result(doc, "mwda")) == []


@given(data=st.data())
@examples(30)
def test_warcaster_one_force_model_fewer_keeps_a_legal_force_legal(data):
    """W1, W2, W4 counts only fall; W5 is per warjack; W6 cannot start mixing factions."""
    doc = data.draw(LEGAL_LISTS["warcaster"]())
    force = doc["sections"]["force"]
    if not force:
        return
    force.pop(data.draw(st.integers(0, len(force) - 1)))
    assert errors(check_result(doc, "warcaster")) == []


@given(data=st.data(), extra=st.integers(1, 3))
@examples(30)
def test_hagmi_h4_a_third_copy_is_reported_naming_the_card(data, extra):
    doc = data.draw(LEGAL_LISTS["hagmi"]())
    weapons = doc["sections"]["weapons"]
    copies = Counter()
    for entry in weapons:
        copies[entry["card"]] += entry["qty"]
    code = data.draw(st.sampled_from(sorted(copies)))
    weapons.append({"card": code, "qty": 3 - copies[code] + extra - 1})
    result = check_result(doc, "hagmi")
    h4 = [v for v in result["violations"] if v["rule"] == "H4"]
    assert [v["cards"] for v in h4] == [[code]] and not result["legal"]


@given(data=st.data())
@examples(30)
def test_mwda_m1_points_over_the_limit_are_reported_with_the_total(data):
    doc = data.draw(LEGAL_LISTS["mwda"]())
    cards = catalog("mwda").cards
    limit = catalog("mwda").formats[doc["format"]]["options"]["point_limit"]
    points = sum(cards[e["card"]]["points"] * e["qty"] for e in doc["sections"]["army"])
    filler = data.draw(st.sampled_from(sorted(code for code in cards if not cards[code].get("unique"))))
    qty = (limit - points) // cards[filler]["points"] + 1
    doc["sections"]["army"].append({"card": filler, "qty": qty})
    result = check_result(doc, "mwda")
    assert result["summary"]["points"] == points + qty * cards[filler]["points"] > limit
    assert [v["rule"] for v in errors(result)] == ["M1"]


# --- regressions found by the properties above ----------------------------------------------------------------


def test_W5_a_warjack_entry_split_in_two_reports_its_problem_once():
    """Found by test_order_of_sections... (dev profile): "2 Hayate" without a cortex gave one W5 violation, but
    "1 Hayate" + "1 Hayate" gave the same violation twice, so the result depended on how entries were split."""
    hayate = codes_where("warcaster", kind="warjack")[0]
    whole = {"schema": "hangar.list/1", "system": "warcaster", "sections": {"force": [{"card": hayate, "qty": 2}]}}
    split = {**whole, "sections": {"force": [{"card": hayate, "qty": 1}, {"card": hayate, "qty": 1}]}}
    results = [check_result(doc, "warcaster") for doc in (whole, split)]
    assert results[0] == results[1]
    assert [v["message"] for v in results[1]["violations"] if v["rule"] == "W5"] == [
        f"{catalog('warcaster').cards[hayate]['name']} ({hayate}) has no cortex: choose one in its loadout."
    ]
