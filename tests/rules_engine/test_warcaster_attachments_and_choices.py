"""Warcaster squad attachments and the weapon choices of heroes, solos and vehicles (BattleScribe data, read by
rules_engine/warcaster/battlescribe/): W2 and W4 count a squad attachment, W4 reads a card's own copy limit, W5 checks a non-warjack's
chosen weapons, and the simulator plays both (rules_engine/warcaster/models.py)."""
from __future__ import annotations

import pytest

from rules_engine.construction import validate_list
from rules_engine.core.catalog import Catalog
from rules_engine.warcaster.models import Catalog as EngineCatalog, compile_force

MW = "marcher-worlds"
SUITS = ("fury", "geometric", "harmonic", "overdrive")
STATS = {"spd": 5, "mat": 3, "rat": 3, "def": 3, "arm": 3, "health": 1, "num": 3}
GUN = {"name": "Carbine", "type": "ranged", "rng": 10, "pow": 3, "qualities": []}

CARDS = [
    {"code": "H-1", "name": "Hero", "kind": "hero", "faction": MW, "cst": 1,
     "stats": {"spd": 6, "mat": 5, "rat": 4, "def": 4, "arm": 3, "foc": 0, "health": 3},
     "hardpoints": [{"slot": "weapon", "count": 1, "name": "Weapon"}]},
    {"code": "S-1", "name": "Raiders", "kind": "squad", "faction": MW, "cst": 2, "stats": STATS,
     "weapons": [GUN]},
    {"code": "S-2", "name": "Wardens", "kind": "squad", "faction": MW, "cst": 2, "stats": STATS},
    {"code": "SA-1", "name": "Spotter", "kind": "squad_attachment", "faction": MW, "cst": 1, "attaches_to": ["S-1"],
     "stats": {"mat": 3, "rat": 4, "def": 3, "arm": 2, "health": 1, "num": 1},
     "weapons": [{"name": "Marker", "type": "ranged", "rng": 12, "pow": 2, "qualities": []}]},
    {"code": "V-1", "name": "Skiff", "kind": "vehicle", "faction": MW, "cst": 3, "max_copies": 2, "weapon_points": 3,
     "stats": {"spd": 7, "mat": 3, "rat": 4, "def": 3, "arm": 4, "health": 5},
     "hardpoints": [{"slot": "weapon", "count": 1, "name": "Hardpoint"}]},
    {"code": "V-2", "name": "Sled", "kind": "vehicle", "faction": MW, "cst": 3,
     "stats": {"spd": 7, "mat": 3, "rat": 4, "def": 3, "arm": 4, "health": 5}},
    {"code": "G-1", "name": "Rivet Gun", "kind": "weapon", "faction": MW, "cost": 1, "type": "ranged", "rng": 12,
     "pow": 4, "hardpoints": ["arm", "weapon"]},
    {"code": "G-4", "name": "Heavy Pod", "kind": "weapon", "faction": MW, "cost": 4, "type": "ranged", "rng": 10,
     "pow": 5, "hardpoints": ["weapon"]},
    {"code": "G-A", "name": "Arm Saw", "kind": "weapon", "faction": MW, "cost": 1, "type": "melee", "rng": 1,
     "pow": 4, "hardpoints": ["arm"]},
] + [{"code": f"Y-{suit[:2]}{i}", "name": f"{suit} {i}", "kind": "cypher", "suit": suit, "faction": "universal",
      "cypher_type": "effect", "effects": [], "not_modelled": ["x"]} for suit in SUITS for i in range(1, 4)]
CATALOG = Catalog.build("warcaster", CARDS, [{"slug": "skirmish", "default": True, "options": {}}])
RACK = [{"card": f"Y-{suit[:2]}{i}", "qty": 1} for suit in SUITS for i in range(1, 4)]


def check(force: list[dict], lang: str = "en") -> dict:
    return validate_list({"schema": "hangar.list/1", "system": "warcaster", "format": "skirmish",
                          "sections": {"force": force, "rack": RACK}}, CATALOG, lang=lang)


def found(result: dict, code: str) -> list[dict]:
    return [v for v in result["violations"] if v["code"] == code]


def test_W2_a_squad_attachment_takes_no_unit_slot():
    result = check([{"card": "S-1", "qty": 1}, {"card": "SA-1", "qty": 1}])
    assert result["legal"] and result["summary"]["units"] == 1


@pytest.mark.parametrize("force, legal", [
    ([{"card": "S-1", "qty": 2}, {"card": "SA-1", "qty": 2}], True),  # one per squad it joins
    ([{"card": "S-1", "qty": 1}, {"card": "SA-1", "qty": 2}], False),
    ([{"card": "S-2", "qty": 1}, {"card": "SA-1", "qty": 1}], False),  # Wardens: not a squad it joins
])
def test_W4_a_squad_attachment_at_most_one_per_squad_it_may_join(force, legal):
    result = check(force)
    assert result["legal"] is legal
    assert [v["rule"] for v in found(result, "warcaster.unit_copies")] == ([] if legal else ["W4"])


def test_W4_the_attachment_message_in_both_languages():
    force = [{"card": "S-1", "qty": 1}, {"card": "SA-1", "qty": 2}]
    (en,) = found(check(force), "warcaster.unit_copies")
    (ja,) = found(check(force, "ja"), "warcaster.unit_copies")
    assert en["message"] == ("Spotter (SA-1) is taken 2 times; a squad attachment joins one of its squads, and the "
                             "force has 1 squads it may join.")
    assert ja["message"].startswith("Spotter (SA-1)が2体います。スクワッドアタッチメントは合流先のスクワッド1つにつき1体まで")


@pytest.mark.parametrize("qty, legal", [(2, True), (3, False)])
def test_W4_a_card_with_its_own_copy_limit_uses_it(qty, legal):
    result = check([{"card": "V-1", "qty": qty, "options": {"weapons": ["G-1"]}}])
    assert [v["message"] for v in found(result, "warcaster.unit_copies")] == (
        [] if legal else ["Skiff (V-1) is taken 3 times; the limit is 2 per unit."])


@pytest.mark.parametrize("weapons, problem", [
    (["G-1"], None),
    ([], None),  # nothing chosen: its fixed weapons only
    (["G-4"], "warcaster.warjack_points"),  # 4 weapon points on a chassis of 3
    (["G-1", "G-1"], "warcaster.warjack_points"),  # two weapons, one hardpoint
    (["G-A"], "warcaster.warjack_points"),  # an arm weapon: it fits no hardpoint of the vehicle
])
def test_W5_a_vehicles_weapon_choice_fits_its_hardpoints_and_weapon_points(weapons, problem):
    result = check([{"card": "V-1", "qty": 1, "options": {"weapons": weapons}}])
    assert [v["rule"] for v in result["violations"]] == ([] if problem is None else ["W5"])


def test_W5_a_hero_chooses_weapons_without_a_cortex_and_a_model_without_choices_takes_none():
    assert check([{"card": "H-1", "qty": 1, "options": {"weapons": ["G-1"]}}])["legal"]
    result = check([{"card": "V-2", "qty": 1, "options": {"weapons": ["G-1"]}}], lang="ja")
    (violation,) = found(result, "warcaster.warjack_points")
    assert violation["rule"] == "W5" and violation["message"] == \
        "Sled (V-2)には選べる武器がありません。オプションの武器を外してください。"


def test_the_simulator_joins_the_attachment_to_its_squad_and_arms_the_chosen_weapons():
    engine = EngineCatalog(CATALOG.cards)
    units = compile_force(engine, [{"card": "S-2", "qty": 1}, {"card": "S-1", "qty": 1}, {"card": "SA-1", "qty": 1},
                                   {"card": "V-1", "qty": 1, "options": {"weapons": ["G-1"]}}], "force")
    wardens, raiders, skiff = units
    assert (wardens.code, len(wardens.models), wardens.cst) == ("S-2", 3, 2)
    assert (raiders.code, len(raiders.models), raiders.cst) == ("S-1", 4, 3)  # one more model, its CST added
    spotter = raiders.models[-1]
    assert spotter.code == "SA-1" and spotter.spd == 5  # SPD "*": the squad's
    assert [w.name for w in spotter.weapons] == ["Marker"]
    assert [w.name for w in skiff.models[0].weapons] == ["Rivet Gun"]
    assert dict(skiff.options) == {"weapons": ("G-1",)}
