"""The bundled MechWarrior: Dark Age and Warcaster packages, their sample lists, and the JSON Schemas that guard them.

Plain pytest, no database. The list checks here are a tiny local re-statement of M1–M4 and W1–W6 so that a
broken sample list is caught next to the data; the real validators live in rules_engine/.
"""
from __future__ import annotations

import copy
import functools
import json
import math
from collections import Counter
from pathlib import Path
from typing import Any, Callable

import pytest
from jsonschema import Draft202012Validator, ValidationError

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "cards" / "schemas"
PACKAGES = ROOT / "cards" / "packages"
SUITS = ("fury", "geometric", "harmonic", "overdrive")


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@functools.cache
def validator(system: str) -> Draft202012Validator:
    schema = load(SCHEMAS / f"{system}.schema.json")
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def package(system: str) -> dict:
    files = sorted((PACKAGES / system).glob("*.json"))
    assert len(files) == 1, f"expected one bundled {system} package, found {files}"
    return load(files[0])


def list_files(system: str) -> list[Path]:
    return sorted((PACKAGES / system / "lists").glob("*.json"))


def cards_by_code(pkg: dict) -> dict[str, dict]:
    return {card["code"]: card for card in pkg["cards"]}


def of_kind(pkg: dict, *kinds: str) -> list[dict]:
    return [card for card in pkg["cards"] if card["kind"] in kinds]


MWDA = package("mwda")
WARCASTER = package("warcaster")


# --------------------------------------------------------------------------- both packages


@pytest.mark.parametrize("system", ["mwda", "warcaster"])
def test_bundled_package_validates_against_its_schema(system):
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator(system).iter_errors(package(system))]
    assert errors == []


@pytest.mark.parametrize("system", ["mwda", "warcaster"])
def test_card_codes_are_unique_within_the_system(system):
    codes = Counter(card["code"] for card in package(system)["cards"])
    assert [code for code, n in codes.items() if n > 1] == []


def test_card_codes_do_not_collide_across_systems():
    assert not set(cards_by_code(MWDA)) & set(cards_by_code(WARCASTER))


@pytest.mark.parametrize("system", ["mwda", "warcaster"])
def test_every_card_has_a_japanese_and_an_english_name(system):
    missing = [card["code"] for card in package(system)["cards"] if not card.get("name") or not card.get("name_en")]
    assert missing == []


@pytest.mark.parametrize("system", ["mwda", "warcaster"])
def test_list_files_are_the_sample_opponents(system):
    """Each sample army/force opponent is also shipped as a list file, identical, and vice versa."""
    pkg = package(system)
    in_package = {opp["slug"]: opp["list"] for opp in pkg["opponents"] if "list" in opp}
    on_disk = {path.stem: load(path) for path in list_files(system)}
    assert in_package == on_disk


@pytest.mark.parametrize("system", ["mwda", "warcaster"])
def test_goldfish_opponent_references_existing_cards(system):
    pkg = package(system)
    goldfish = [opp for opp in pkg["opponents"] if opp["kind"] == "goldfish"]
    assert [opp["slug"] for opp in goldfish] == ["goldfish"]
    assert {entry["card"] for entry in goldfish[0]["units"]} <= set(cards_by_code(pkg))


# --------------------------------------------------------------------------- MWDA data


def is_non_increasing(values: list[int]) -> bool:
    return all(a >= b for a, b in zip(values, values[1:]))


def test_mwda_has_enough_units_of_every_kind():
    assert len(MWDA["cards"]) >= 24
    kinds = Counter(card["kind"] for card in MWDA["cards"])
    assert kinds["mech"] >= 8 and kinds["vehicle"] >= 5 and kinds["infantry"] >= 5
    assert len({card["faction"] for card in MWDA["cards"]}) >= 5
    assert sum(1 for card in MWDA["cards"] if card.get("unique")) >= 3  # ★ units for M3
    points = [card["points"] for card in MWDA["cards"]]
    assert min(points) <= 25 and max(points) >= 190


def test_mwda_mechs_have_full_declining_combat_dials():
    for mech in of_kind(MWDA, "mech"):
        dial = mech["dial"]
        assert 4 <= len(dial) <= 10, mech["code"]
        for stat in ("primary_damage", "secondary_damage", "move", "attack", "defense"):
            assert is_non_increasing([click[stat] for click in dial]), (mech["code"], stat)
        assert sum(dial[-1].values()) < sum(dial[0].values()), mech["code"]


def test_mwda_heat_dials_are_three_clicks_then_shutdown():
    """M17: heat clicks modify damage and move; the mech shuts down at the last heat click."""
    for mech in of_kind(MWDA, "mech"):
        heat = mech["heat_dial"]
        assert len(heat) == 4 and heat[-1] == {"shutdown": True}, mech["code"]
        assert not any(click.get("shutdown") for click in heat[:-1]), mech["code"]
        assert mech["vent"] >= 1, mech["code"]


def test_mwda_weapon_ranges_and_damage_types():
    types = set()
    for card in MWDA["cards"]:
        for slot in ("primary", "secondary"):
            if slot in card:
                assert card[slot]["min_range"] <= card[slot]["max_range"], (card["code"], slot)
                types.add(card[slot]["damage_type"])
    assert types == {"ballistic", "energy"}


def test_mwda_mobile_hq_gives_one_extra_order():
    """M2: 移動司令部 raises the order count by its order_bonus."""
    hq = [card for card in MWDA["cards"] if card.get("order_bonus")]
    assert [(card["name"], card["order_bonus"]) for card in hq] == [("移動司令部", 1)]


def test_mwda_formats_are_the_100_point_steps_with_tournament_300_default():
    limits = {fmt["slug"]: fmt["options"]["point_limit"] for fmt in MWDA["formats"]}
    assert limits == {"standard-100": 100, "standard-200": 200, "tournament-300": 300,
                      "standard-400": 400, "standard-500": 500}
    assert [fmt["slug"] for fmt in MWDA["formats"] if fmt.get("default")] == ["tournament-300"]


def mwda_army_problems(lst: dict, cards: dict[str, dict], formats: dict[str, dict]) -> list[str]:
    """A tiny local M1/M3/M4 check; returns what is wrong."""
    problems = []
    if set(lst["sections"]) != {"army"}:
        problems.append(f"sections {sorted(lst['sections'])}")
    entries = lst["sections"].get("army", [])
    unknown = [e["card"] for e in entries if e["card"] not in cards]
    if unknown:
        return problems + [f"unknown cards {unknown}"]
    limit = formats[lst["format"]]["options"]["point_limit"]
    points = sum(cards[e["card"]]["points"] * e["qty"] for e in entries)
    if points > limit:
        problems.append(f"M1: {points} points > {limit}")
    copies = Counter()
    for e in entries:
        copies[e["card"]] += e["qty"]
    problems += [f"M3: unique {code} x{n}" for code, n in copies.items() if cards[code].get("unique") and n > 1]
    if not entries:
        problems.append("M4: empty army")
    return problems


def mwda_orders(lst: dict, cards: dict[str, dict]) -> int:
    entries = lst["sections"]["army"]
    points = sum(cards[e["card"]]["points"] * e["qty"] for e in entries)
    return math.ceil(points / 100) + sum(cards[e["card"]].get("order_bonus", 0) * e["qty"] for e in entries)


MWDA_CARDS = cards_by_code(MWDA)
MWDA_FORMATS = {fmt["slug"]: fmt for fmt in MWDA["formats"]}


def test_mwda_ships_three_sample_300_point_armies():
    armies = [opp for opp in MWDA["opponents"] if opp["kind"] == "army"]
    assert len(armies) == 3 == len(list_files("mwda"))
    assert {opp["list"]["format"] for opp in armies} == {"tournament-300"}


@pytest.mark.parametrize("path", list_files("mwda"), ids=lambda p: p.stem)
def test_mwda_sample_army_is_legal_m1_m3_m4(path):
    lst = load(path)
    assert (lst["schema"], lst["system"], lst["format"]) == ("hangar.list/1", "mwda", "tournament-300")
    assert mwda_army_problems(lst, MWDA_CARDS, MWDA_FORMATS) == []


def test_mwda_local_check_catches_an_over_limit_army_with_a_doubled_unique():
    """M1 and M3 break together: two copies of the same ★ mech go over 300 points."""
    unique = next(card for card in MWDA["cards"] if card.get("unique") and card["points"] > 150)
    lst = {"format": "tournament-300", "sections": {"army": [{"card": unique["code"], "qty": 2}]}}
    problems = mwda_army_problems(lst, MWDA_CARDS, MWDA_FORMATS)
    assert [p.split(":")[0] for p in problems] == ["M1", "M3"]


def test_mwda_sample_army_with_mobile_hq_gets_four_orders():
    """M2: ⌈points / 100⌉ = 3 for a 300-point army, plus 1 for 移動司令部."""
    with_hq = [load(p) for p in list_files("mwda")
               if any(MWDA_CARDS[e["card"]].get("order_bonus") for e in load(p)["sections"]["army"])]
    assert with_hq and all(mwda_orders(lst, MWDA_CARDS) == 4 for lst in with_hq)


# --------------------------------------------------------------------------- Warcaster data

WC_CARDS = cards_by_code(WARCASTER)
WC_FORMATS = {fmt["slug"]: fmt for fmt in WARCASTER["formats"]}
FACTIONS = ("iron-star-alliance", "marcher-worlds")


@pytest.mark.parametrize("faction", FACTIONS)
def test_warcaster_faction_has_heroes_squads_solos_and_warjack_parts(faction):
    kinds = Counter(card["kind"] for card in WARCASTER["cards"] if card.get("faction") == faction)
    assert kinds["hero"] >= 2
    assert kinds["squad"] >= 2 and kinds["solo"] >= 2
    assert kinds["warjack"] >= 2 and kinds["cortex"] >= 2 and kinds["weapon"] >= 4


def test_warcaster_warjack_parts_and_special_models():
    assert all(card["weapon_points"] >= 1 for card in of_kind(WARCASTER, "warjack"))
    qualities = {q for card in of_kind(WARCASTER, "weapon") for q in card["qualities"]}
    assert {"strafe", "blast", "spray", "fire", "corrosion"} <= qualities
    assert of_kind(WARCASTER, "mantlet")
    assert len([card for card in WARCASTER["cards"] if card.get("faction") == "mercenary"]) >= 2
    attachments = of_kind(WARCASTER, "hero_attachment")
    assert attachments
    for card in attachments:
        assert all(WC_CARDS[code]["kind"] == "hero" for code in card["attaches_to"]), card["code"]


def test_warcaster_has_twenty_cyphers_at_least_five_per_suit():
    cyphers = of_kind(WARCASTER, "cypher")
    assert len(cyphers) >= 20
    suits = Counter(card["suit"] for card in cyphers)
    assert set(suits) == set(SUITS) and min(suits.values()) >= 5


def test_warcaster_formats_skirmish_default_and_full():
    assert [fmt["slug"] for fmt in WARCASTER["formats"] if fmt.get("default")] == ["skirmish"]
    assert (WC_FORMATS["skirmish"]["options"]["max_heroes"], WC_FORMATS["skirmish"]["options"]["max_units"]) == (1, 8)
    assert (WC_FORMATS["full"]["options"]["max_heroes"], WC_FORMATS["full"]["options"]["max_units"]) == (3, 15)


def warcaster_force_problems(lst: dict, cards: dict[str, dict], formats: dict[str, dict]) -> list[str]:
    """A tiny local W1–W6 check (mantlets also counted as units: legal under either reading of W2)."""
    opts = formats[lst["format"]]["options"]
    force, rack = lst["sections"]["force"], lst["sections"]["rack"]
    codes = [e["card"] for e in force + rack]
    codes += [c for e in force if "options" in e for c in [e["options"]["cortex"], *e["options"]["weapons"]]]
    unknown = [code for code in codes if code not in cards]
    if unknown:
        return [f"unknown cards {unknown}"]
    problems = []
    per_card = Counter()
    for e in force:
        per_card[e["card"]] += e["qty"]
    kind_count = Counter()
    for code, n in per_card.items():
        kind_count[cards[code]["kind"]] += n
    heroes = [code for code in per_card if cards[code]["kind"] == "hero"]
    if kind_count["hero"] > opts["max_heroes"] or any(per_card[h] > 1 for h in heroes):
        problems.append(f"W1: heroes {kind_count['hero']}")
    units = sum(n for kind, n in kind_count.items() if kind not in ("hero", "hero_attachment"))
    if units > opts["max_units"] or kind_count["mantlet"] > opts["max_mantlets"]:
        problems.append(f"W2: units {units}, mantlets {kind_count['mantlet']}")
    if [e for e in force if cards[e["card"]]["kind"] in ("cypher", "cortex", "weapon")]:
        problems.append("wrong_section: parts or cyphers in force")
    rack_kinds = {cards[e["card"]]["kind"] for e in rack}
    if rack_kinds != {"cypher"}:
        problems.append(f"wrong_section: rack holds {sorted(rack_kinds)}")
    rack_copies = Counter()
    for e in rack:
        rack_copies[e["card"]] += e["qty"]
    suits = Counter(cards[code].get("suit") for code in rack_copies)
    if not opts["rack_min"] <= sum(rack_copies.values()) <= opts["rack_max"] or max(rack_copies.values()) > 1 \
            or any(suits[suit] < opts["rack_min_per_suit"] for suit in SUITS):
        problems.append(f"W3: rack {dict(rack_copies)} suits {dict(suits)}")
    problems += [f"W4: {code} x{n}" for code, n in per_card.items()
                 if cards[code]["kind"] not in ("hero",) and n > opts["max_unit_copies"]]
    for e in force:
        if cards[e["card"]]["kind"] == "warjack":
            spent = sum(cards[w]["cost"] for w in e["options"]["weapons"])
            if spent > cards[e["card"]]["weapon_points"] or cards[e["options"]["cortex"]]["kind"] != "cortex":
                problems.append(f"W5: {e['card']} spends {spent}")
    factions = {cards[code].get("faction") for code in codes} - {"mercenary", "universal"}
    if opts["single_faction"] and len(factions) > 1:
        problems.append(f"W6: factions {sorted(factions)}")
    return problems


def test_warcaster_ships_two_sample_forces_per_faction():
    forces = [opp for opp in WARCASTER["opponents"] if opp["kind"] == "force"]
    hero_faction = Counter(
        WC_CARDS[next(e["card"] for e in opp["list"]["sections"]["force"] if WC_CARDS[e["card"]]["kind"] == "hero")]
        ["faction"] for opp in forces)
    assert hero_faction == {faction: 2 for faction in FACTIONS}


@pytest.mark.parametrize("path", list_files("warcaster"), ids=lambda p: p.stem)
def test_warcaster_sample_force_is_legal_w1_to_w6(path):
    lst = load(path)
    assert (lst["schema"], lst["system"], lst["format"]) == ("hangar.list/1", "warcaster", "skirmish")
    assert warcaster_force_problems(lst, WC_CARDS, WC_FORMATS) == []
    jacks = [e for e in lst["sections"]["force"] if WC_CARDS[e["card"]]["kind"] == "warjack"]
    assert jacks and all(set(e["options"]) == {"cortex", "weapons"} for e in jacks)


def test_warcaster_local_check_catches_two_heroes_overspent_warjack_and_a_foreign_unit():
    """W1, W5 and W6 break together; the check must notice each."""
    lst = copy.deepcopy(load(list_files("warcaster")[0]))
    force = lst["sections"]["force"]
    own = WC_CARDS[force[0]["card"]]["faction"]
    other_hero = next(c for c in of_kind(WARCASTER, "hero") if c["faction"] not in (own, "mercenary"))
    force.append({"card": other_hero["code"], "qty": 1})
    jack = next(e for e in force if "options" in e)
    jack["options"]["weapons"] *= 3
    problems = warcaster_force_problems(lst, WC_CARDS, WC_FORMATS)
    assert {p.split(":")[0] for p in problems} == {"W1", "W5", "W6"}


# --------------------------------------------------------------------------- schemas refuse bad cards


def schema_errors(system: str, kind: str, change: Callable[[dict], None]) -> tuple[int, list[ValidationError]]:
    """Validate the bundled package after changing its first card of `kind`; returns (card index, errors)."""
    pkg = copy.deepcopy(package(system))
    index = next(i for i, card in enumerate(pkg["cards"]) if card["kind"] == kind)
    change(pkg["cards"][index])
    return index, list(validator(system).iter_errors(pkg))


def assert_refused(index: int, errors: list[ValidationError], field: str) -> None:
    """Some error sits under cards[index] and names `field` (the last path element, or quoted in the message)."""
    assert errors, "the schema accepted the bad card"
    names = [e for e in errors if list(e.absolute_path)[:2] == ["cards", index]
             and ((e.absolute_path and e.absolute_path[-1] == field) or repr(field) in e.message)]
    assert names, [f"{list(e.absolute_path)}: {e.message}" for e in errors]


def set_field(field: str, value: Any) -> Callable[[dict], None]:
    return lambda card: card.__setitem__(field, value)


@pytest.mark.parametrize("system, kind, change, field", [
    ("mwda", "mech", set_field("kind", "titan"), "kind"),
    ("mwda", "mech", set_field("points", "two"), "points"),
    ("mwda", "mech", set_field("pionts", 90), "pionts"),
    ("mwda", "mech", lambda card: card["dial"][2].pop("defense"), "defense"),
    ("mwda", "mech", lambda card: card["dial"][0].__setitem__("atack", 9), "atack"),
    ("mwda", "mech", lambda card: card.pop("heat_dial"), "heat_dial"),
    ("mwda", "mech", lambda card: card["primary"].__setitem__("damage_type", "laser"), "damage_type"),
    ("mwda", "mech", set_field("abilities", ["teleport"]), 0),
    ("mwda", "vehicle", set_field("heat_dial", [{"shutdown": True}]), "heat_dial"),
    ("mwda", "infantry", lambda card: card["dial"][0].__setitem__("secondary_damage", 1), "secondary_damage"),
    ("warcaster", "cypher", set_field("suit", "water"), "suit"),
    ("warcaster", "hero", set_field("kind", "titan"), "kind"),
    ("warcaster", "hero", set_field("sped", 5), "sped"),
    ("warcaster", "hero", lambda card: card["stats"].pop("foc"), "foc"),
    ("warcaster", "hero", set_field("faction", "universal"), "faction"),
    ("warcaster", "squad", set_field("weapon_points", 4), "weapon_points"),
    ("warcaster", "warjack", lambda card: card.pop("weapon_points"), "weapon_points"),
    ("warcaster", "weapon", set_field("qualities", ["plasma"]), 0),
    ("warcaster", "cypher", lambda card: card["effects"][0].__setitem__("kind", "summon"), "kind"),
    ("warcaster", "cypher", lambda card: card["effects"][0].__setitem__("powr", 5), "powr"),
    ("warcaster", "cypher", lambda card: card["effects"].__setitem__(0, {"kind": "attack", "rng": 8}), "pow"),
    ("warcaster", "cypher",
     lambda card: card["effects"].__setitem__(0, {"kind": "apply_effect", "effect": "water", "target": "enemy_model"}),
     "effect"),
    ("warcaster", "cypher", lambda card: card["effects"].__setitem__(0, {"kind": "flight"}), "kind"),
    ("warcaster", "cypher", lambda card: card["effects"][0].__setitem__("trigger", "static"), "trigger"),
    ("warcaster", "hero", lambda card: card["abilities"][-1].__setitem__("trigger", "sometimes"), "trigger"),
])
def test_schema_refuses_bad_card_naming_the_field(system, kind, change, field):
    index, errors = schema_errors(system, kind, change)
    assert_refused(index, errors, field)


@pytest.mark.parametrize("system, option", [("mwda", "point_limt"), ("warcaster", "max_hero")])
def test_schema_refuses_a_misspelt_format_option(system, option):
    pkg = copy.deepcopy(package(system))
    pkg["formats"][0]["options"][option] = 1
    errors = list(validator(system).iter_errors(pkg))
    assert any(list(e.absolute_path) == ["formats", 0, "options"] and repr(option) in e.message for e in errors)


def test_schema_refuses_a_warjack_entry_with_unknown_option_in_a_sample_force():
    pkg = copy.deepcopy(WARCASTER)
    opp = next(o for o in pkg["opponents"] if o["kind"] == "force")
    entry = next(e for e in opp["list"]["sections"]["force"] if "options" in e)
    entry["options"]["paint"] = "red"
    errors = list(validator("warcaster").iter_errors(pkg))
    assert any("options" in e.absolute_path and "'paint'" in e.message for e in errors)
