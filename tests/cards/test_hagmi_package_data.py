"""The bundled HAGMI! data: schema validity, content requirements and legal sample lists (H1–H7, H21, H24).

Plain pytest, no database: reads cards/schemas/hagmi.schema.json and cards/packages/hagmi/*.json directly.
The construction check below is a deliberately tiny local copy of H1–H7 for the bundled lists only; the real
validator lives in rules_engine/hagmi and has its own tests.
"""
from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_PATH = ROOT / "cards" / "schemas" / "hagmi.schema.json"
PACKAGE_DIR = ROOT / "cards" / "packages" / "hagmi"
PACKAGE_PATHS = sorted(PACKAGE_DIR.glob("*.json"))
LIST_PATHS = sorted((PACKAGE_DIR / "lists").glob("*.json"))

MAIN_FRAMES = {"weapons": "black", "tactics": "blue", "damage": "red"}
SECTION_CATEGORIES = {"weapons": {"unit", "armament"}, "tactics": {"tactic"}, "damage": {"damage"}}
PLAYER_CATEGORIES = {"unit", "armament", "tactic", "damage", "design"}
REFIT = "改装"


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def validator() -> Draft202012Validator:
    schema = load(SCHEMA_PATH)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@pytest.fixture(scope="module")
def cards() -> dict[str, dict]:
    """Every bundled card by code (codes are checked unique in test_codes_unique)."""
    return {card["code"]: card for path in PACKAGE_PATHS for card in load(path)["cards"]}


@pytest.fixture(scope="module")
def package() -> dict:
    return load(PACKAGE_DIR / "core.json")


def by_category(cards: dict[str, dict], category: str) -> list[dict]:
    return [card for card in cards.values() if card["category"] == category]


def errors_of(validator: Draft202012Validator, document: dict) -> list:
    return sorted(validator.iter_errors(document), key=lambda error: list(error.absolute_path))


def refit_partners(card: dict, cards: dict[str, dict]) -> list[str]:
    """H21/H22: other units with the same pilot that share two or more types other than 改装."""
    own = set(card["types"]) - {REFIT}
    return [
        other["code"]
        for other in cards.values()
        if other["code"] != card["code"]
        and other["category"] == "unit"
        and other.get("pilot") == card["pilot"]
        and len(own & (set(other["types"]) - {REFIT})) >= 2
    ]


def construction_problems(doc: dict, cards: dict[str, dict], options: dict) -> list[str]:
    """A tiny H1–H7 check (tactics formats) returning readable problems; [] means legal."""
    sections = doc["sections"]
    count = {name: sum(entry["qty"] for entry in sections.get(name, [])) for name in ("weapons", "tactics", "damage", "secret")}
    main = count["weapons"] + count["tactics"]
    problems = []
    if count["weapons"] < options["min_weapons"]:
        problems.append(f"H1: 兵器 has {count['weapons']} cards")
    if count["tactics"] < options["min_tactics"] or main < options["min_main"]:
        problems.append(f"H2: 作戦 has {count['tactics']} cards, main {main}")
    for section, entries in sections.items():
        for entry in entries:
            card = cards.get(entry["card"])
            if card is None:
                problems.append(f"unknown card {entry['card']} in {section}")
            elif card["category"] not in PLAYER_CATEGORIES:
                problems.append(f"H3: {entry['card']} ({card['category']}) is not a player card")
            elif section != "secret" and (card.get("frame") != MAIN_FRAMES[section]
                                          or card["category"] not in SECTION_CATEGORIES[section]):
                problems.append(f"H3/H7: {entry['card']} ({card['category']}, {card.get('frame')}) in {section}")
    names = Counter()
    for section in ("weapons", "tactics"):
        for entry in sections[section]:
            names[cards[entry["card"]]["name"]] += entry["qty"]
    problems += [f"H4: {qty} copies of {name}" for name, qty in names.items() if qty > options["max_copies"]]
    allowed = main // options["secret_per_main"]
    if count["secret"] > allowed:
        problems.append(f"H5: 秘策 has {count['secret']} cards, {allowed} allowed")
    secret_names = Counter()
    for entry in sections["secret"]:
        secret_names[cards[entry["card"]]["name"]] += entry["qty"]
    problems += [f"H6: {qty} copies of {name} in 秘策" for name, qty in secret_names.items()
                 if qty > options["secret_max_copies"]]
    return problems


# --- schema validity and codes ------------------------------------------------------------------------------

def test_there_is_a_bundled_package_and_lists():
    assert PACKAGE_PATHS, "no HAGMI package in cards/packages/hagmi/"
    assert len(LIST_PATHS) >= 5


@pytest.mark.parametrize("path", PACKAGE_PATHS, ids=lambda path: path.name)
def test_bundled_package_validates_against_schema(validator, path):
    problems = [f"{'/'.join(map(str, error.absolute_path))}: {error.message}" for error in errors_of(validator, load(path))]
    assert problems == []


def test_codes_unique_across_hagmi_packages():
    codes = Counter(card["code"] for path in PACKAGE_PATHS for card in load(path)["cards"])
    assert [code for code, seen in codes.items() if seen > 1] == []


def test_codes_follow_the_prefix_of_their_category(cards):
    prefixes = {"beast": "HB-", "mothership": "HM-"}
    wrong = [code for code, card in cards.items() if not code.startswith(prefixes.get(card["category"], "HS-"))]
    assert wrong == []


def test_every_card_has_japanese_and_english_names(cards):
    assert [code for code, card in cards.items() if not card["name"] or not card.get("name_en")] == []


# --- content requirements ---------------------------------------------------------------------------------------

def test_at_least_60_player_cards_of_every_category(cards):
    players = [card for card in cards.values() if card["category"] in PLAYER_CATEGORIES]
    assert len(players) >= 60
    assert {card["category"] for card in players} == PLAYER_CATEGORIES


def test_enough_distinct_black_and_blue_cards_for_legal_decks(cards):
    """H1/H2 with H4: 20 cards at 2 copies per name need 10 names per deck."""
    frames = Counter(card.get("frame") for card in cards.values())
    assert frames["black"] >= 10 and frames["blue"] >= 10


def test_units_cover_ranges_1_to_4_multi_attack_first_strike_pierce_unreducible(cards):
    units = by_category(cards, "unit")
    kinds = {skill["kind"] for unit in units for skill in unit.get("skills", [])}
    assert {unit["range"] for unit in units} >= {1, 2, 3, 4}
    assert sum("x" in unit["firepower"] for unit in units) >= 3  # H10 multi-attack N×M
    assert {"first_strike", "pierce", "unreducible"} <= kinds  # H13 unreducible


def test_designs_carry_hidden_mechanism_and_live_in_secret_only(cards):
    """H23/H24: at least two 設計兵装 with a 秘匿機構 skill and a non-standard frame (H7)."""
    designs = by_category(cards, "design")
    with_mechanism = [d for d in designs if any(s["trigger"] == "hidden_mechanism" for s in d["skills"])]
    assert len(with_mechanism) >= 2
    assert all(d["frame"] not in MAIN_FRAMES.values() for d in designs)


def test_refit_families_are_valid_per_H21(cards):
    """H21: every 改装 card has a same-pilot unit sharing ≥2 other types; at least two families exist."""
    refit_cards = [card for card in by_category(cards, "unit") if REFIT in card["types"]]
    orphans = [card["code"] for card in refit_cards if not refit_partners(card, cards)]
    assert orphans == []
    assert len({card["pilot"] for card in refit_cards}) >= 2


def test_white_frame_hgm03_cards(cards):
    white = [card for card in cards.values() if card.get("frame") == "white"]
    assert len(white) >= 3
    assert all(card.get("release") == "HGM03" for card in white)


def test_reduction_cards_exist_with_their_reduction_kinds(cards):
    """H13: the seed's reducing effects are bundled, each with the kind the engine will ignore for unreducible damage."""
    expected = {"爆発反応装甲": "reduce_damage", "荷電粒子装甲": "nullify_damage", "不退転": "nullify_damage",
                "バリアフィールド": "barrier", "騎士道精神": "no_damage"}
    by_name = {card["name"]: card for card in cards.values()}
    for name, kind in expected.items():
        assert kind in {skill["kind"] for skill in by_name[name]["skills"]}, name


def test_named_tactics_and_damage_counters(cards):
    names = {card["name"]: card for card in cards.values()}
    assert {"補給物資", "照明弾", "装甲改修"} <= set(names)
    assert names["照明弾"]["skills"][0]["kind"] == "end_battle_phase"  # H10
    assert {card["subtype"] for card in by_category(cards, "tactic")} == {"order", "facility"}
    damage_cards = by_category(cards, "damage")
    assert damage_cards and all(any(s["trigger"] == "counter" for s in card["skills"]) for card in damage_cards)


def test_armaments_have_equip_conditions(cards):
    armaments = by_category(cards, "armament")
    assert any(card["equip"].get("types") for card in armaments)


def test_usable_from_secret_flag_is_used(cards):
    """H20: cards used from 秘策 carry the flag."""
    assert any(card.get("usable_from_secret") for card in cards.values())


def test_beasts_cover_costs_0_to_6_with_charge_and_bounty(cards):
    """H30/H31/H32: 機獣 with costs 0..6, energy, life cores, action order, a re-charging enter effect, a bounty."""
    beasts = by_category(cards, "beast")
    assert len(beasts) >= 12
    assert {beast["cost"] for beast in beasts} >= set(range(7))
    assert any(beast.get("energy") for beast in beasts) and any(beast.get("life_cores") for beast in beasts)
    enter_kinds = {s["kind"] for beast in beasts for s in beast.get("skills", []) if s["trigger"] == "on_enter"}
    assert "charge" in enter_kinds
    assert any("bounty" in beast for beast in beasts)


def test_two_motherships_on_different_terrains_one_attrition_charges(cards):
    motherships = by_category(cards, "mothership")
    assert len(motherships) == 2
    assert len({ship["terrain"] for ship in motherships}) == 2
    effect_kinds = {e["kind"] for ship in motherships for step in ship["attrition"] for e in step["effects"]}
    assert "charge" in effect_kinds


# --- formats and opponents --------------------------------------------------------------------------------------

def test_formats_tactics_v4_default_and_v3(package):
    formats = {fmt["slug"]: fmt for fmt in package["formats"]}
    assert formats["tactics-v4"]["default"] is True and formats["tactics-v3"]["default"] is False
    assert formats["tactics-v4"]["options"]["min_weapons"] == formats["tactics-v4"]["options"]["min_tactics"] == 20
    v3 = formats["tactics-v3"]["options"]
    assert (v3["min_weapons"], v3["min_tactics"], v3["min_main"]) == (0, 0, 20)


def test_opponents_reference_existing_cards(package, cards):
    kinds = Counter(opponent["kind"] for opponent in package["opponents"])
    assert kinds["goldfish"] >= 1 and kinds["coop"] >= 2 and kinds["deck"] >= 2
    for opponent in package["opponents"]:
        if opponent["kind"] == "goldfish":
            assert all(cards[e["card"]]["category"] == "damage" for e in opponent["damage_deck"])
        elif opponent["kind"] == "coop":
            assert cards[opponent["mothership"]]["category"] == "mothership"
            assert all(cards[e["card"]]["category"] == "beast" for e in opponent["beast_deck"])


def test_sample_deck_opponents_equal_their_list_files(package):
    for opponent in (o for o in package["opponents"] if o["kind"] == "deck"):
        assert opponent["list"] == load(PACKAGE_DIR / "lists" / f"{opponent['slug']}.json"), opponent["slug"]


# --- bundled lists are legal (H1–H7) ----------------------------------------------------------------------------

@pytest.mark.parametrize("path", LIST_PATHS, ids=lambda path: path.stem)
def test_bundled_list_is_legal_H1_to_H7(validator, path, cards, package):
    doc = load(path)
    list_schema = {"$ref": "#/$defs/list", "$defs": validator.schema["$defs"]}
    assert [e.message for e in Draft202012Validator(list_schema).iter_errors(doc)] == []
    options = {fmt["slug"]: fmt["options"] for fmt in package["formats"]}[doc["format"]]
    assert construction_problems(doc, cards, options) == []


def test_local_check_catches_each_rule(cards, package):
    """The local check can fail: break one legal list in six ways (H1, H2, H3, H4, H5, H7)."""
    options = {fmt["slug"]: fmt["options"] for fmt in package["formats"]}["tactics-v4"]
    legal = load(PACKAGE_DIR / "lists" / "akane-assault.json")

    def broken(section, entry):
        doc = copy.deepcopy(legal)
        doc["sections"][section].append(entry)
        return construction_problems(doc, cards, options)

    short = copy.deepcopy(legal)
    short["sections"]["weapons"].pop(0)
    short["sections"]["tactics"].pop(0)
    short["sections"]["secret"] = []
    assert {p[:2] for p in construction_problems(short, cards, options)} == {"H1", "H2"}
    assert broken("weapons", {"card": "HS-001", "qty": 1})[0].startswith("H4")
    assert broken("secret", {"card": "HS-029", "qty": 1})[0].startswith("H5")
    assert broken("weapons", {"card": "HS-060", "qty": 1})[0].startswith("H3/H7")  # design outside 秘策
    assert broken("tactics", {"card": "HS-001", "qty": 1})[0].startswith("H3/H7")
    assert broken("damage", {"card": "HB-001", "qty": 1})[0].startswith("H3")


# --- the schema refuses bad cards, naming the field -------------------------------------------------------------

def _package_with_card(package: dict, code: str, change) -> tuple[dict, int]:
    doc = copy.deepcopy(package)
    index = next(i for i, card in enumerate(doc["cards"]) if card["code"] == code)
    change(doc["cards"][index])
    return doc, index


def test_schema_refuses_bad_firepower(validator, package):
    doc, index = _package_with_card(package, "HS-016", lambda card: card.update(firepower="2y2"))
    [error] = errors_of(validator, doc)
    assert list(error.absolute_path) == ["cards", index, "firepower"]
    assert "2y2" in error.message


def test_schema_refuses_unknown_card_field(validator, package):
    doc, index = _package_with_card(package, "HS-001", lambda card: card.update(firepwer="3"))
    errors = errors_of(validator, doc)
    assert errors, "a misspelt field must be refused"
    assert all(list(e.absolute_path) == ["cards", index] and "'firepwer' was unexpected" in e.message for e in errors)


def test_schema_refuses_unknown_skill_kind(validator, package):
    doc, index = _package_with_card(package, "HS-013", lambda card: card["skills"][0].update(kind="teleport"))
    messages = {tuple(error.absolute_path): error.message for error in errors_of(validator, doc)}
    assert ("cards", index, "skills", 0, "kind") in messages
    assert "teleport" in messages[("cards", index, "skills", 0, "kind")]


def test_schema_refuses_unknown_skill_parameter(validator, package):
    doc, index = _package_with_card(package, "HS-029", lambda card: card["skills"][0].update(amout=2))
    [error] = errors_of(validator, doc)
    assert list(error.absolute_path) == ["cards", index, "skills", 0]
    assert "amout" in error.message


def test_schema_refuses_missing_name(validator, package):
    doc, index = _package_with_card(package, "HS-029", lambda card: card.pop("name"))
    [error] = errors_of(validator, doc)
    assert list(error.absolute_path) == ["cards", index]
    assert "'name' is a required property" in error.message


def test_schema_refuses_unit_without_its_category_fields(validator, package):
    doc, index = _package_with_card(package, "HS-009", lambda card: card.pop("fuel_cost"))
    [error] = errors_of(validator, doc)
    assert list(error.absolute_path) == ["cards", index]
    assert "'fuel_cost' is a required property" in error.message


def test_schema_refuses_field_of_another_category(validator, package):
    """A tactic has no firepower: refused by name, not silently ignored."""
    doc, index = _package_with_card(package, "HS-030", lambda card: card.update(firepower="2"))
    [error] = errors_of(validator, doc)
    assert list(error.absolute_path) == ["cards", index]
    assert "'firepower' was unexpected" in error.message


def test_schema_refuses_design_without_hidden_mechanism(validator, package):
    """H24: a 設計兵装 needs at least one 秘匿機構 skill."""
    doc, index = _package_with_card(
        package, "HS-060", lambda card: card.update(skills=[s for s in card["skills"] if s["trigger"] != "hidden_mechanism"]))
    [error] = errors_of(validator, doc)
    assert list(error.absolute_path) == ["cards", index, "skills"]


def test_schema_refuses_bad_targets_and_unknown_format_option(validator, package):
    doc, index = _package_with_card(package, "HS-010", lambda card: card.update(targets="multi"))
    doc["formats"][0]["options"]["max_copy"] = 3
    paths = {tuple(error.absolute_path): error.message for error in errors_of(validator, doc)}
    assert ("cards", index, "targets") in paths
    assert "max_copy" in paths[("formats", 0, "options")]
