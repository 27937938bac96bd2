"""What the Warcaster rules need from BattleScribe data (rules_engine/warcaster/battlescribe/, docs/data-packages.md "BattleScribe
data"): squad attachments, the weapon choices of heroes, solos and vehicles, the modifiers and constraints that change
a cost or a limit; and a roster BattleScribe saved whose squad has an attachment, through check_list, export_list and
simulate (builder/listio/roster.py). On tests/cards/fixtures/battlescribe/community-shape/ and community-roster.ros
(make_fixtures.py)."""
from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from django.core.management import call_command

from builder.listio import export_roster, parse_roster
from builder.listio.roster import roster_schema
from rules_engine.formats import battlescribe
from rules_engine.construction import validate_list
from rules_engine.core.catalog import Catalog

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "battlescribe"
FOLDER = FIXTURES / "community-shape"
ROSTER = FIXTURES / "community-roster.ros"
SLUG = "bs-hangar-community-shape"


@pytest.fixture(scope="module")
def conversion() -> battlescribe.Conversion:
    return battlescribe.convert([FOLDER])


@pytest.fixture(scope="module")
def cards(conversion) -> dict[str, dict]:
    return {card["bs_id"]: card for card in conversion.package["cards"]}


@pytest.fixture(scope="module")
def catalog(conversion) -> Catalog:
    package = conversion.package
    return Catalog.build("warcaster", package["cards"], package["formats"], default_format=package["formats"][0]["slug"])


def test_a_squad_attachment_is_a_card_with_its_cost_model_and_the_squads_it_joins(cards):
    spotter = cards["cs-spotter"]
    assert spotter["kind"] == "squad_attachment" and spotter["cst"] == 1  # CST "+1"
    assert spotter["stats"] == {"mat": 3, "rat": 4, "def": 3, "arm": 2, "num": 1, "health": 1}  # SPD "*": the squad's
    assert spotter["attaches_to"] == ["BS-CS-SQUAD"]  # its max 0, +1 per Drift Raiders in the roster
    assert [w["name"] for w in spotter["weapons"]] == ["Rivet Carbine"]
    assert "Attachment" not in spotter.get("not_modelled", [])  # what that rule says is read: attaches_to, W4
    assert spotter["battlescribe"]["categories"] == [{"id": "cs-attach", "name": "Attachments", "primary": True}]


def test_weapon_choices_of_a_hero_a_solo_and_a_vehicle_are_hardpoints_and_weapon_cards(cards):
    skiff, isk, tinker = cards["cs-skiff"], cards["cs-hero-isk"], cards["cs-tinker"]
    assert [(h["slot"], h["count"], h["name"]) for h in skiff["hardpoints"]] == [("weapon", 1, "Hardpoint")]
    assert skiff["hardpoints"][0]["bs_links"] == {"cs-p-rivet": "cs-skiff-hp-l0", "cs-p-flare": "cs-skiff-hp-l1",
                                                  "cs-p-lash": "cs-skiff-hp-l2"}
    assert skiff["hardpoints"][0]["weapons"] == ["BS-CS-P-RIVET", "BS-CS-P-FLARE", "BS-CS-P-LASH"]
    assert cards["cs-p-lash"]["cost"] == 2  # its own cost 0: its link's (the Empyrean files' way)
    assert skiff["weapon_points"] == 3  # its Weapon Points max of 2, +1 by a modifier without condition
    assert [(h["slot"], h["name"]) for h in isk["hardpoints"]] == [("weapon", "Weapon")] and "weapon_points" not in isk
    assert "weapons" not in isk  # its choice is not a fixed weapon
    lance = cards["cs-w-lance"]
    assert (lance["kind"], lance["cost"], lance["type"], lance["hardpoints"]) == ("weapon", 0, "melee", ["weapon"])
    assert "not_modelled" not in lance  # its Melee rule gives its type
    assert tinker["hardpoints"][0]["slot"] == "weapon" and cards["cs-p-rivet"]["hardpoints"] == ["arm", "weapon"]


def test_modifiers_without_condition_are_applied_the_others_reported_with_the_reason(cards, conversion):
    assert cards["cs-p-flare"]["cost"] == 2  # its own cost 3, decremented by 1
    assert "modifiers read: decrement 1 (applied), increment 1 (applied), squad attachment limits 1 (one per squad " \
           "it joins, W4)" in conversion.report
    not_read = next(line for line in conversion.report if line.startswith("not read: "))
    assert "modifiers whose condition depends on the roster (Hardpoint: set a limit) ×1" in not_read


def test_per_entry_limits_and_the_suit_groups_minimum_are_read(cards, conversion):
    assert cards["cs-skiff"]["max_copies"] == 2 and cards["cs-squad"]["max_copies"] == 3
    assert "max_copies" not in cards["cs-hero-vela"]  # a hero's limit of one is W1's
    patrol = next(f for f in conversion.package["formats"] if f["slug"] == f"{SLUG}-patrol")
    assert patrol["options"]["rack_min_per_suit"] == 1  # each suit group's min


def test_the_battlescribe_roster_with_an_attachment_reads_checks_legal_and_exports(catalog):
    doc = parse_roster(ROSTER.read_bytes(), lambda system: catalog, filename="community-roster.ros")
    assert doc["format"] == f"{SLUG}-patrol"
    assert doc["sections"]["force"] == [
        {"card": "BS-CS-HERO-ISK", "qty": 1, "options": {"weapons": ["BS-CS-W-LANCE"]}},
        {"card": "BS-CS-SQUAD", "qty": 1}, {"card": "BS-CS-SPOTTER", "qty": 1},
        {"card": "BS-CS-SKIFF", "qty": 1, "options": {"weapons": ["BS-CS-P-RIVET"]}}]
    result = validate_list(doc, catalog)
    assert result["legal"] is True, result["violations"]
    assert result["summary"] == {"heroes": 1, "units": 2, "cyphers": 4}  # W2: the attachment takes no slot
    raw = export_roster(doc, catalog)
    root = ET.fromstring(raw)
    roster_schema().validate(root)
    assert parse_roster(raw, lambda system: catalog) == doc
    chosen = {s.get("name"): (s.get("entryId"), s.get("entryGroupId")) for s in root.iter()
              if s.tag.endswith("}selection")}
    assert chosen["Raider Spotter"] == ("cs-spotter", None)
    assert chosen["Rivet Gun"] == ("cs-skiff-hp-l0::cs-p-rivet", "cs-skiff-hp")
    assert chosen["Arc Lance"] == ("cs-w-lance", "cs-hero-isk-g")


def test_two_attachments_for_one_squad_are_W4(catalog):
    doc = parse_roster(ROSTER.read_bytes(), lambda system: catalog)
    doc["sections"]["force"][2]["qty"] = 2
    (violation,) = [v for v in validate_list(doc, catalog)["violations"] if v["rule"] == "W4"]
    assert violation["cards"] == ["BS-CS-SPOTTER"]


@pytest.mark.django_db
def test_check_list_export_list_and_simulate_take_the_roster(tmp_path):
    call_command("import_package", str(FOLDER), stdout=StringIO())
    out = StringIO()
    call_command("check_list", str(ROSTER), "--json", stdout=out)
    result = json.loads(out.getvalue())
    assert result["legal"] is True and result["summary"]["units"] == 2
    exported = tmp_path / "again.ros"
    call_command("export_list", str(ROSTER), "--as", "ros", "--out", str(exported), stderr=StringIO())
    roster_schema().validate(ET.fromstring(exported.read_bytes()))
    assert b'entryId="cs-spotter"' in exported.read_bytes()
    out = StringIO()
    call_command("simulate", str(ROSTER), "--opponent", f"{SLUG}-goldfish", "--games", "2", "--seed", "5", "--json",
                 stdout=out)
    assert json.loads(out.getvalue())["games"] == 2
