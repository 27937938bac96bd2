"""What every system shares: list.* codes, the result shape, ordering, messages, garbage input, RULES."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from rules_engine.construction import RULES, validate_list
from rules_engine.core.catalog import Catalog

HAGMI = Catalog.build(
    "hagmi",
    [{"code": "HS-001", "name": "補給物資", "category": "tactic", "frame": "blue"},
     {"code": "HS-002", "name": "照明弾", "category": "tactic", "frame": "blue"},
     {"code": "HW-001", "name": "兵装", "category": "unit", "frame": "black"}],
    [{"slug": "tactics-v4", "name": "戦術 Ver.4", "name_en": "Tactics Ver.4", "default": True, "options": {}},
     {"slug": "tactics-v3", "options": {"min_weapons": 0, "min_tactics": 0, "min_main": 20}}],
    foreign_cards={"MW-001": "mwda"},
)
MWDA = Catalog.build(
    "mwda",
    [{"code": "MW-001", "name": "Unit", "kind": "mech", "points": 50, "faction": "republic"}],
    [{"slug": "tournament-300", "default": True, "options": {"point_limit": 300}}],
)
WARCASTER = Catalog.build(
    "warcaster",
    [{"code": "J-1", "name": "Jack", "kind": "warjack", "faction": "empyreans", "weapon_points": 6},
     {"code": "C-1", "name": "Cortex", "kind": "cortex", "faction": "empyreans"},
     {"code": "Y-1", "name": "Cypher", "kind": "cypher", "suit": "fury"}],
    [{"slug": "skirmish", "default": True, "options": {}}],
)
CATALOGS = {"hagmi": HAGMI, "mwda": MWDA, "warcaster": WARCASTER}
RESULT_KEYS = ["legal", "system", "format", "violations", "summary"]
VIOLATION_KEYS = ["code", "severity", "rule", "message", "section", "cards"]


def hagmi_list(**sections) -> dict:
    return {"schema": "hangar.list/1", "system": "hagmi", "format": "tactics-v4", "sections": sections}


def list_codes(result: dict) -> list[str]:
    return [v["code"] for v in result["violations"] if v["code"].startswith("list.")]


def assert_result_shape(result: dict) -> None:
    assert list(result) == RESULT_KEYS
    assert result["legal"] is not any(v["severity"] == "error" for v in result["violations"])
    for violation in result["violations"]:
        assert list(violation) == VIOLATION_KEYS
        assert violation["severity"] in ("error", "warning")
        assert isinstance(violation["message"], str) and violation["message"]
        assert violation["cards"] == sorted(set(violation["cards"]))
        assert all(isinstance(code, str) for code in violation["cards"])
    json.dumps(result)


# --- list.* codes --------------------------------------------------------------------------------------------

def test_list_unknown_card_names_section_entry_and_code():
    result = validate_list(hagmi_list(tactics=[{"card": "HS-001", "qty": 1}, {"card": "HS-999", "qty": 2}]), HAGMI)
    (violation,) = [v for v in result["violations"] if v["code"] == "list.unknown_card"]
    assert violation == {"code": "list.unknown_card", "severity": "error", "rule": None,
                         "message": "Entry 2 of the Tactics deck: this game has no card with code HS-999.",
                         "section": "tactics", "cards": ["HS-999"]}
    assert result["summary"]["tactics"] == 1  # the unknown card is not counted


@pytest.mark.parametrize("entry", [None, True, 3, "HS-001", ["HS-001"], {}, {"qty": 1}, {"card": None},
                                   {"card": 12}, {"card": ""}, {"card": ["HS-001"]}, {"card": {"code": "HS-001"}}])
def test_list_entry_without_a_card_code_is_unknown_card(entry):
    doc = hagmi_list(weapons=[{"card": "HW-001", "qty": 1}, {"card": "HW-001", "qty": 1}, entry])
    result = validate_list(doc, HAGMI)
    unknown = [v for v in result["violations"] if v["code"] == "list.unknown_card"]
    assert [(v["section"], v["cards"], v["message"]) for v in unknown] == [
        ("weapons", [], "Entry 3 of the Weapons deck has no card code.")
    ]


def test_list_wrong_system_for_a_card_of_another_system():
    result = validate_list(hagmi_list(weapons=[{"card": "MW-001", "qty": 1}]), HAGMI)
    (violation,) = [v for v in result["violations"] if v["code"] == "list.wrong_system"]
    assert violation["cards"] == ["MW-001"] and "a card of another game" in violation["message"]
    assert "mwda" not in violation["message"] and "weapons" not in violation["message"]  # words, not slugs
    assert "list.unknown_card" not in list_codes(result)


def test_list_wrong_system_for_a_list_of_another_system():
    doc = {"system": "mwda", "sections": {"army": [{"card": "MW-001", "qty": 1}]}}
    result = validate_list(doc, HAGMI)
    assert list_codes(result) == ["list.wrong_system", "list.unknown_section"]
    assert result["system"] == "hagmi"
    assert result["violations"][0]["message"] == 'This list is for system "mwda", but it is checked against the HAGMI! rules.'


@pytest.mark.parametrize("qty", ["two", 0, -1, 1000, 10**9, 10**30, True, False, 1.5, 2.0, None, [2], {"n": 2}])
def test_list_bad_quantity(qty):
    result = validate_list(hagmi_list(tactics=[{"card": "HS-001", "qty": qty}]), HAGMI)
    (violation,) = [v for v in result["violations"] if v["code"] == "list.bad_quantity"]
    assert violation["section"] == "tactics" and violation["cards"] == ["HS-001"]
    assert violation["message"].startswith("Entry 1 of the Tactics deck (HS-001): quantity ")
    assert result["summary"]["tactics"] == 0


@pytest.mark.parametrize("qty", [1, 999])
def test_list_quantity_bounds_are_accepted(qty):
    result = validate_list(hagmi_list(weapons=[{"card": "HW-001", "qty": qty}]), HAGMI)
    assert list_codes(result) == [] and result["summary"]["weapons"] == qty


def test_list_missing_quantity_means_one():
    assert validate_list(hagmi_list(weapons=[{"card": "HW-001"}]), HAGMI)["summary"]["weapons"] == 1


def test_list_unknown_section():
    result = validate_list(hagmi_list(weapons=[], sideboard=[{"card": "HS-001", "qty": 1}]), HAGMI)
    (violation,) = [v for v in result["violations"] if v["code"] == "list.unknown_section"]
    assert violation["message"] == ('Unknown section "sideboard": HAGMI! lists have Weapons deck (weapons), '
                                    "Tactics deck (tactics), damage deck (damage), Secret (secret).")


@pytest.mark.parametrize("sections", [None, [], "weapons", 3])
def test_list_sections_not_an_object(sections):
    result = validate_list({"system": "hagmi", "sections": sections}, HAGMI)
    assert list_codes(result) == ["list.unknown_section"]
    assert result["summary"]["main"] == 0


def test_list_section_not_a_list():
    result = validate_list(hagmi_list(weapons={"card": "HW-001"}, tactics=[{"card": "HS-001", "qty": 1}]), HAGMI)
    (violation,) = [v for v in result["violations"] if v["code"] == "list.unknown_section"]
    assert violation["section"] == "weapons" and "must be a list" in violation["message"]
    assert result["summary"]["tactics"] == 1


@pytest.mark.parametrize("fmt", ["tactics-v9", 4, ["tactics-v3"], ""])
def test_list_unknown_format_is_reported_then_checked_with_the_default_format(fmt):
    doc = hagmi_list(weapons=[{"card": "HW-001", "qty": 2}])
    doc["format"] = fmt
    result = validate_list(doc, HAGMI)
    assert list_codes(result) == ["list.unknown_format"]
    assert result["format"] == "tactics-v4"
    name = HAGMI.formats["tactics-v4"]
    (message,) = [v["message"] for v in result["violations"] if v["code"] == "list.unknown_format"]
    assert f'the {name.get("name_en") or name["name"]} format instead' in message  # by its name, not its slug
    ja = validate_list(doc, HAGMI, lang="ja")["violations"][0]["message"]
    assert f'代わりに{name["name"]}フォーマット' in ja
    assert {v["rule"] for v in result["violations"] if v["code"] == "hagmi.deck_size"} == {"H1", "H2"}


def test_list_without_format_uses_the_default_format_silently():
    doc = hagmi_list()
    del doc["format"]
    result = validate_list(doc, HAGMI)
    assert result["format"] == "tactics-v4" and list_codes(result) == []


def test_list_unknown_format_without_any_catalog_format_uses_builtin_defaults():
    bare = Catalog.build("hagmi", [{"code": "HW-001", "name": "兵装", "category": "unit", "frame": "black"}], [])
    result = validate_list(hagmi_list(weapons=[{"card": "HW-001", "qty": 1}]), bare)
    assert result["format"] is None and list_codes(result) == ["list.unknown_format"]
    assert "default options" in result["violations"][0]["message"]
    assert any(v["rule"] == "H1" for v in result["violations"])  # built-in min_weapons 20


def test_list_format_options_of_the_wrong_type_keep_the_defaults():
    odd = Catalog.build("hagmi", [], [{"slug": "odd", "default": True,
                                       "options": {"min_weapons": "5", "min_tactics": True, "max_copies": 3}}])
    result = validate_list({"system": "hagmi", "format": "odd", "sections": {}}, odd)
    messages = [v["message"] for v in result["violations"] if v["code"] == "hagmi.deck_size"]
    assert messages == ["Weapons deck has 0 cards; the format needs at least 20.",
                        "Tactics deck has 0 cards; the format needs at least 20."]


# --- result shape, ordering, messages ---------------------------------------------------------------------------

def test_result_has_exactly_the_design_keys_and_violation_order_is_list_then_rule_order():
    doc = hagmi_list(weapons=[{"card": "HS-002", "qty": 3}, {"card": "XX-1", "qty": 1}], secret=[{"card": "HS-001", "qty": 2}])
    result = validate_list(doc, HAGMI)
    assert_result_shape(result)
    assert [(v["code"], v["rule"]) for v in result["violations"]] == [
        ("list.unknown_card", None),
        ("hagmi.deck_size", "H1"),
        ("hagmi.deck_size", "H2"),
        ("hagmi.wrong_deck", "H3"),
        ("hagmi.copies", "H4"),
        ("hagmi.secret_count", "H5"),
        ("hagmi.secret_copies", "H6"),
        ("hagmi.damage_empty", "H8"),
    ]


def test_violations_do_not_depend_on_entry_or_section_order():
    entries = [{"card": "HS-002", "qty": 3}, {"card": "HS-001", "qty": 3}, {"card": "HW-001", "qty": 3}]
    first = validate_list(hagmi_list(tactics=entries, damage=[], secret=list(entries)), HAGMI)
    shuffled = {"secret": list(reversed(entries)), "damage": [], "tactics": list(reversed(entries))}
    second = validate_list({"system": "hagmi", "format": "tactics-v4", "sections": shuffled}, HAGMI)
    assert first == second


def test_japanese_messages_and_unknown_language_falls_back_to_english():
    doc = hagmi_list(tactics=[{"card": "HS-001", "qty": 3}, {"card": "HS-404", "qty": 1}])
    ja = validate_list(doc, HAGMI, lang="ja")
    en = validate_list(doc, HAGMI, lang="en")
    assert validate_list(doc, HAGMI, lang="fr") == en
    messages = {v["code"]: v["message"] for v in ja["violations"]}
    assert messages["list.unknown_card"] == "作戦デッキの2番目：コードHS-404のカードはこのゲームにありません。"
    assert messages["hagmi.copies"] == "補給物資 (HS-001)が兵器デッキと作戦デッキに合計3枚あります。同名カードは2枚までです。"
    assert [v["code"] for v in ja["violations"]] == [v["code"] for v in en["violations"]]


# --- garbage never raises --------------------------------------------------------------------------------------

GARBAGE_DOCS = [
    None, True, 0, -1.5, "hangar", [], [{"card": "HS-001"}], {}, {"sections": None},
    {"system": None, "format": None, "sections": {"weapons": None, "army": None, "force": None, "rack": None}},
    {"system": ["hagmi"], "format": {"slug": "x"}, "sections": {"weapons": [None, True, 1, "x", [], {}]}},
    {"sections": {"army": [{"card": "MW-001", "qty": "2"}, {"card": "MW-001", "qty": 10**400}]}},
    {"sections": {"force": [{"card": "J-1", "qty": 1, "options": v} for v in (None, [], "C-1", 3, {"cortex": []},
                                                                                  {"cortex": "C-1", "weapons": {"a": 1}},
                                                                                  {"cortex": "C-1", "weapons": [None, []]})]}},
    {"sections": {"rack": [{"card": "Y-1", "qty": 1}, {"card": "J-1", "qty": 1}, {"card": "C-1", "qty": float("nan")}]}},
    {"sections": {"weapons": [{"card": "x" * 10_000, "qty": -(10**20)}]}},
]


@pytest.mark.parametrize("system", list(CATALOGS))
@pytest.mark.parametrize("doc", GARBAGE_DOCS, ids=range(len(GARBAGE_DOCS)))
def test_garbage_input_never_raises_and_keeps_the_result_shape(system, doc):
    for lang in ("en", "ja"):
        result = validate_list(doc, CATALOGS[system], lang=lang)
        assert_result_shape(result)
        assert result["legal"] is False


def _random_json(rng: random.Random, depth: int = 0):
    choices = [None, True, False, rng.randint(-5, 1200), rng.random() * 10, rng.choice(["HS-001", "MW-001", "J-1", "C-1",
               "Y-1", "two", "", "weapons", "army", "force", "rack", "hagmi", "mwda", "warcaster", "tactics-v3"])]
    if depth < 3:
        choices.append([_random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))])
        keys = ["system", "format", "sections", "card", "qty", "options", "cortex", "weapons", "weapons", "army",
                "force", "rack", "secret", "tactics"]
        choices.append({rng.choice(keys): _random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))})
    return rng.choice(choices)


@pytest.mark.parametrize("system", list(CATALOGS))
def test_random_json_documents_never_raise(system):
    rng = random.Random(20261130)
    sections = {"hagmi": ["weapons", "tactics", "damage", "secret"], "mwda": ["army"], "warcaster": ["force", "rack"]}
    for _ in range(600):
        doc = _random_json(rng)
        if rng.random() < 0.5:  # also random entries inside well-formed sections
            doc = {"system": system, "sections": {key: [_random_json(rng) for _ in range(rng.randint(0, 6))]
                                                  for key in sections[system]}}
        assert_result_shape(validate_list(doc, CATALOGS[system], lang=rng.choice(["en", "ja"])))


def test_100000_bad_entries_are_reported_without_raising_and_summarised():
    doc = hagmi_list(weapons=[{"card": "NOPE", "qty": 1}] * 100_000, tactics=[None] * 100_000)
    result = validate_list(doc, HAGMI)
    assert_result_shape(result)
    unknown = [v for v in result["violations"] if v["code"] == "list.unknown_card"]
    assert len(unknown) == 2 * 26  # 25 each, then one "… and N more"
    assert unknown[25]["message"] == "… and 99975 more entries in the Weapons deck with the same problem."


def test_100000_good_entries_are_counted():
    result = validate_list(hagmi_list(weapons=[{"card": "HW-001", "qty": 999}] * 100_000), HAGMI)
    assert result["summary"]["weapons"] == 99_900_000
    assert list_codes(result) == []


# --- RULES registry and purity ----------------------------------------------------------------------------------

def test_RULES_lists_every_rule_id_and_every_design_violation_code_in_order():
    ids = [info.id for info in RULES if info.id]
    assert ids == ["H1", "H2", "H3", "H4", "H5", "H6", "H7", "H8", "M1", "M2", "M3", "M4",
                   "W1", "W2", "W3", "W3", "W3", "W4", "W5", "W6"]
    codes = {info.code for info in RULES}
    design = {"list.unknown_card", "list.wrong_system", "list.bad_quantity", "list.unknown_section",
              "list.unknown_format", "hagmi.deck_size", "hagmi.wrong_deck", "hagmi.copies", "hagmi.secret_count",
              "hagmi.secret_copies", "hagmi.secret_only", "hagmi.damage_empty", "mwda.points", "mwda.unique",
              "mwda.empty", "warcaster.heroes", "warcaster.units", "warcaster.rack_size", "warcaster.rack_copies",
              "warcaster.rack_suits", "warcaster.unit_copies", "warcaster.warjack_points", "warcaster.faction",
              "warcaster.wrong_section"}
    assert codes - {None} == design
    assert all(info.title("en") and info.title("ja") for info in RULES)
    assert {info.severity for info in RULES if info.code == "hagmi.damage_empty"} == {"warning"}


def test_rules_engine_construction_imports_nothing_of_django_or_the_project():
    root = Path(__file__).resolve().parents[2]
    code = ("import sys, rules_engine.construction; "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
            "{'django', 'rest_framework', 'celery', 'builder', 'cards', 'hangar'}); print(bad)")
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
