"""BattleScribe data in the structure of the community's Warcaster files (a folder of BattleScribe Warcaster
data imports in one command; rules_engine/warcaster/battlescribe/, docs/data-packages.md "BattleScribe data"), on Hangar's own
invented files in tests/cards/fixtures/battlescribe/community-shape/ (make_fixtures.py): weapons with RNG and POW only
or linked shared profiles, squads without DMG, heroes in the game system linked from the catalogue, a Hardpoints
group, the cypher rack as suit groups."""
from __future__ import annotations

import io
import zipfile
from io import StringIO
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from django.core.management import call_command

from builder.listio import export_roster, parse_list_json, parse_roster
from builder.listio.roster import roster_schema
from rules_engine.formats import battlescribe
from rules_engine.warcaster import battlescribe as warcaster_battlescribe
from cards.models import Card
from cards.package_validation import check_package
from rules_engine.core.catalog import Catalog

FOLDER = Path(__file__).resolve().parent / "fixtures" / "battlescribe" / "community-shape"
SLUG = "bs-hangar-community-shape"


@pytest.fixture(scope="module")
def conversion() -> battlescribe.Conversion:
    return battlescribe.convert([FOLDER])


@pytest.fixture(scope="module")
def cards(conversion) -> dict[str, dict]:
    return {card["bs_id"]: card for card in conversion.package["cards"]}


def test_the_package_is_valid(conversion):
    assert check_package(conversion.package) == []
    assert conversion.package["factions"] == [
        {"slug": "drift-clans", "name": "Drift Clans", "name_en": "Drift Clans", "bs_id": "cs-cat-01"}]


def test_models_of_each_kind_and_heroes_linked_from_a_catalogue_take_its_faction(cards):
    assert {bs: c["kind"] for bs, c in cards.items() if c["kind"] in ("hero", "solo", "squad", "warjack", "mantlet")} \
        == {"cs-hero-vela": "hero", "cs-hero-oren": "hero", "cs-hero-isk": "hero", "cs-tinker": "solo",
            "cs-squad": "squad", "cs-jack": "warjack", "cs-sled": "mantlet"}
    vela, oren = cards["cs-hero-vela"], cards["cs-hero-oren"]
    assert vela["faction"] == "drift-clans"  # the catalogue's root entryLink to the game system's hero
    assert vela["battlescribe"]["links"] == {"cs-cat-01": "cs-root-vela"}
    assert oren["faction"] == "mercenary" and "links" not in oren["battlescribe"]  # linked from no catalogue
    assert vela["stats"] == {"spd": 6, "mat": 4, "rat": 5, "def": 4, "arm": 3, "foc": 0, "health": 3}  # FOC "-"
    assert [a["kind"] for a in vela["abilities"]] == ["flight"]
    assert cards["cs-sled"]["stats"] == {"def": 2, "arm": 5, "health": 5}
    assert cards["cs-spotter"]["kind"] == "squad_attachment"  # primary category Attachments, CST "+1"


def test_squads_without_dmg_have_one_damage_point_per_model(cards):
    squad = cards["cs-squad"]
    assert squad["stats"]["num"] == 3 and squad["stats"]["health"] == warcaster_battlescribe.SQUAD_MODEL_HEALTH == 1


def test_weapons_melee_or_ranged_by_typ_by_their_rule_link_or_by_rng(cards):
    shard, quill, hook = cards["cs-hero-vela"]["weapons"]
    # RNG/POW only: the type and damage type from the linked rules "Ranged"/"Melee", "Energy"/"Kinetic"
    assert shard == {"name": "Shard Caster", "name_en": "Shard Caster", "type": "ranged", "rng": 10, "pow": 3,
                     "qualities": [], "damage_type": "energy", "bs_id": "cs-w-shard"}
    assert (quill["type"], quill["damage_type"], quill["bs_id"]) == ("ranged", "ballistic", "cs-w-quill")
    assert (hook["type"], hook["rng"], hook["bs_id"]) == ("melee", 1, "cs-w-hook")
    # no TYP and no Melee/Ranged rule: melee at RNG ≤ 2 ([interpretation] MELEE_MAX_RNG)
    baton = cards["cs-hero-oren"]["weapons"][0]
    assert (baton["type"], baton["rng"]) == ("melee", 2) and warcaster_battlescribe.MELEE_MAX_RNG == 2
    # a linked shared profile with TYP, DMG and Rules; "Spray Weapon" is the spray quality, POW "-" is 0
    carbine, blade = cards["cs-squad"]["weapons"]
    assert carbine == {"name": "Rivet Carbine", "name_en": "Rivet Carbine", "type": "ranged", "rng": 10, "pow": 3,
                       "qualities": ["spray"], "damage_type": "ballistic", "bs_id": "cs-sp-carbine"}
    assert (blade["type"], blade["pow"], blade["other_qualities"]) == ("melee", 0, ["Cleave"])
    assert "Cleave" in cards["cs-squad"]["not_modelled"]


def test_warjack_hardpoints_in_a_hardpoints_group_with_its_weapon_points(cards, conversion):
    jack = cards["cs-jack"]
    assert jack["weapon_points"] == 5
    assert [(h["slot"], h["count"], h["name"], h["bs_id"]) for h in jack["hardpoints"]] == [
        ("cortex", 1, "Cortex", "cs-jack-cortex"), ("arm", 1, "Left Arm", "cs-jack-larm"),
        ("arm", 1, "Right Arm", "cs-jack-rarm"), ("shoulder", 1, "Shoulder", "cs-jack-shoulder"),
        ("shoulder", 1, "Back", "cs-jack-back")]  # [interpretation] Back (and Chest) hold what shoulders hold
    cortex_group, left, _right, shoulder, back = jack["hardpoints"]
    assert back["bs_links"] == {"cs-p-ember": "cs-jack-back-l0"}
    assert cortex_group["bs_links"] == {}  # the cortexes are written in the group: a roster names them by their id
    assert left["bs_links"] == {"cs-p-rivet": "cs-jack-larm-l0", "cs-p-maul": "cs-jack-larm-l1"}
    assert shoulder["bs_links"] == {"cs-p-ember": "cs-jack-shoulder-l0"}  # Beacon: no Weapon profile; Mast: RNG -
    rivet, maul, ember = cards["cs-p-rivet"], cards["cs-p-maul"], cards["cs-p-ember"]
    # the Rivet Gun is on the vehicle's weapon choice too: both slots
    assert (rivet["kind"], rivet["cost"], rivet["type"], rivet["hardpoints"]) == ("weapon", 1, "ranged",
                                                                                  ["arm", "weapon"])
    assert (maul["type"], maul["cost"], maul["other_qualities"]) == ("melee", 2, ["Cleave"])
    assert (ember["qualities"], ember["hardpoints"]) == (["blast"], ["shoulder"])
    assert cards["cs-cortex-hunt"]["kind"] == "cortex" and cards["cs-cortex-hunt"]["faction"] == "drift-clans"
    assert "cs-p-beacon" not in cards and "cs-p-mast" not in cards
    not_read = next(line for line in conversion.report if line.startswith("not read: "))
    assert "warjack weapons with no Weapon profile (Beacon) ×1" in not_read
    assert "warjack weapons that make no attack, RNG '-' (Scanner Mast) ×1" in not_read
    assert "weapon choices" not in not_read  # read as the solo's hardpoints (W5)
    assert [w["name"] for w in cards["cs-tinker"]["weapons"]] == ["Hook Blade"]  # its choice is not a fixed weapon


def test_cyphers_from_the_suit_groups_furies_with_a_pow_are_attacks(cards):
    cyphers = {bs: c for bs, c in cards.items() if c["kind"] == "cypher"}
    assert {bs: c["suit"] for bs, c in cyphers.items()} == {
        "cs-cy-spark": "fury", "cs-cy-hush": "fury", "cs-cy-fold": "geometric", "cs-cy-echo": "harmonic",
        "cs-cy-surge": "overdrive"}
    assert {c["faction"] for c in cyphers.values()} == {"universal"}
    spark = cyphers["cs-cy-spark"]
    assert spark["cypher_type"] == "attack"
    assert spark["effects"] == [{"kind": "attack", "rng": warcaster_battlescribe.FURY_RNG, "pow": 4, "qualities": []}]
    assert spark["text"].startswith("Spark Lance: Fury: POW(4) Target an enemy model")
    assert cyphers["cs-cy-hush"]["effects"] == [] and cyphers["cs-cy-hush"]["not_modelled"] == ["Hush Field"]
    assert all(c["cypher_type"] == "effect" and c["effects"] == [] for bs, c in cyphers.items()
               if c["suit"] != "fury")
    assert spark["battlescribe"]["categories"] == [{"id": "cs-cyphers", "name": "Cyphers", "primary": False}]


def test_formats_read_the_known_categories_and_list_the_rest_as_not_read(conversion):
    formats = {f["slug"]: f for f in conversion.package["formats"]}
    assert formats[f"{SLUG}-patrol"]["options"] == {
        "single_faction": True, "max_heroes": 1, "max_units": 6, "rack_max": 6, "rack_min": 4, "max_mantlets": 3,
        "max_unit_copies": 3, "rack_min_per_suit": 1}
    assert formats[f"{SLUG}-full-host"]["options"]["max_heroes"] == 2
    not_read = next(line for line in conversion.report if line.startswith("not read: "))
    assert "upgrade entries with no profile, not linked from a hardpoint ×1" in not_read
    # The Rack (one per roster: every list has its one rack, W3) and Attachments (no limit, -1) need nothing more
    assert "The Rack" not in not_read and "Attachments" not in not_read and "attachments" not in not_read
    assert any(line.startswith("interpretations: ") and "squads without DMG (1 damage point per model): 1" in line
               for line in conversion.report)


def test_a_rule_no_file_defines_keeps_the_links_name_with_a_warning(cards, conversion, tmp_path):
    tinker = cards["cs-tinker"]
    assert tinker["not_modelled"] == ["Arc Relay (9)", "Gear Ward", "Cleave"]
    assert "rules no file defines, kept by the links' names without text: 1 (Gear Ward [cs-r-newer])" \
        in conversion.report
    assert any("cs-tinker-r2" in w and "links to rule 'cs-r-newer', which no file defines: kept by the link's name "
               "'Gear Ward'" in w for w in conversion.warnings)
    # a nameless link to a missing rule: kept by the rule's id, with a warning; the package still converts
    (tmp_path / "a.gst").write_bytes((FOLDER / "community-shape.gst").read_bytes())
    raw = (FOLDER / "drift-clans.cat").read_text(encoding="utf-8")
    (tmp_path / "b.cat").write_text(raw.replace('name="Gear Ward" ', ""), encoding="utf-8")
    nameless = battlescribe.convert([tmp_path])
    assert any("id cs-tinker-r2)" in w and "kept by the link's name 'rule cs-r-newer'" in w
               for w in nameless.warnings)


def test_an_element_outside_the_published_model_is_refused_and_an_odd_group_is_a_warning(tmp_path):
    raw = (FOLDER / "drift-clans.cat").read_text(encoding="utf-8")
    (tmp_path / "a.gst").write_bytes((FOLDER / "community-shape.gst").read_bytes())
    (tmp_path / "b.cat").write_text(raw.replace("<sharedProfiles>", "<sharedRuleGroups/><sharedProfiles>"),
                                    encoding="utf-8")
    with pytest.raises(battlescribe.BattleScribeError) as caught:
        battlescribe.convert([tmp_path])
    assert caught.value.file.endswith("b.cat") and "sharedRuleGroups" in caught.value.message
    assert caught.value.path.startswith("/catalogue/sharedRuleGroups[1]")
    (tmp_path / "b.cat").write_text(raw.replace('name="Left Arm"', 'name="Tail"'), encoding="utf-8")
    odd = battlescribe.convert([tmp_path])
    assert any("(id cs-jack-larm)" in w or "id cs-jack-larm)" in w for w in odd.warnings)
    assert any("unknown hardpoint group 'Tail': not read" in w for w in odd.warnings)


def test_a_roster_of_the_community_shape_round_trips(conversion):
    package = conversion.package
    catalog = Catalog.build("warcaster", package["cards"], package["formats"],
                            default_format=package["formats"][0]["slug"])
    doc = parse_list_json({"schema": "hangar.list/1", "system": "warcaster", "format": f"{SLUG}-patrol",
                           "name": "Drift test", "sections": {
                               "force": [{"card": "BS-CS-HERO-VELA", "qty": 1}, {"card": "BS-CS-SQUAD", "qty": 2},
                                         {"card": "BS-CS-JACK", "qty": 1, "options": {
                                             "cortex": "BS-CS-CORTEX-WARD",
                                             "weapons": ["BS-CS-P-RIVET", "BS-CS-P-MAUL", "BS-CS-P-EMBER"]}}],
                               "rack": [{"card": "BS-CS-CY-SPARK", "qty": 1}, {"card": "BS-CS-CY-FOLD", "qty": 1}]}})
    for zipped in (False, True):
        raw = export_roster(doc, catalog, zipped=zipped)
        xml = zipfile.ZipFile(io.BytesIO(raw)).read("roster.ros") if zipped else raw
        root = ET.fromstring(xml)
        roster_schema().validate(root)
        assert parse_roster(raw, lambda system: catalog, filename="x.rosz" if zipped else "x.ros") == doc
    ids = {s.get("entryId") for s in ET.fromstring(export_roster(doc, catalog)).iter()
           if s.tag.endswith("}selection")}
    assert "cs-root-vela::cs-hero-vela" in ids  # the catalogue's root link to the game system's hero
    assert "cs-cortex-ward" in ids and "cs-jack-larm-l0::cs-p-rivet" in ids  # written in the group / linked
    rack = package["formats"][0]["battlescribe"]["rack"]
    top = ET.fromstring(export_roster(doc, catalog)).findall(
        "{*}forces/{*}force/{*}selections/{*}selection")
    racked = [s for s in top if s.get("entryId").split("::")[-1] == rack["entry_id"]]
    assert len(racked) == 1, "the cyphers go inside the data's one rack selection, as BattleScribe lays them out"
    inside = racked[0].findall("{*}selections/{*}selection")
    assert [(s.get("name"), s.get("entryGroupId")) for s in inside] == [
        (catalog.cards[c]["name_en"], catalog.cards[c]["battlescribe"]["group"]) for c in ("BS-CS-CY-SPARK",
                                                                                          "BS-CS-CY-FOLD")]
    assert all(s.get("entryId").startswith(rack["groups"][s.get("entryGroupId")] + "::") for s in inside)


@pytest.mark.django_db
def test_import_package_imports_the_community_shape_folder_in_one_command():
    out = StringIO()
    call_command("import_package", str(FOLDER), stdout=out)
    text = out.getvalue()
    assert "models: hero 3, solo 1, squad 1, warjack 1, vehicle 1, mantlet 1, squad_attachment 1" in text
    assert "cyphers: 5 (fury 2, geometric 1, harmonic 1, overdrive 1)" in text
    assert Card.objects.filter(code="BS-CS-HERO-VELA", faction="drift-clans").exists()
