"""BattleScribe data → a Warcaster package (rules_engine/warcaster/battlescribe/, docs/data-packages.md
"BattleScribe data"), on Hangar's own small files in tests/cards/fixtures/battlescribe/ (make_fixtures.py)."""
from __future__ import annotations

import json
import shutil
import zipfile
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from rules_engine.formats import battlescribe
from cards.models import Card, DataPackage, Format, PackageVersion
from cards.package_validation import check_package
from cards.services import PackageError, battlescribe_convert, packages_load_bundled

HERE = Path(__file__).resolve().parent / "fixtures" / "battlescribe"
FOLDER = HERE / "folder"
ZIPPED = HERE / "zipped"
SLUG = "bs-warcaster-hangar-test"


def convert(*paths) -> dict:
    return battlescribe.convert([str(p) for p in paths]).package


def by_bs_id(package: dict) -> dict[str, dict]:
    return {card["bs_id"]: card for card in package["cards"]}


def test_the_folder_the_zip_the_zipped_files_and_several_paths_give_the_same_package():
    folder = convert(FOLDER)
    assert convert(HERE / "hangar-test.zip") == folder
    assert convert(*sorted(ZIPPED.iterdir())) == folder
    assert convert(*sorted(FOLDER.iterdir())) == folder
    assert convert(ZIPPED / "hangar-test.gstz", FOLDER / "iron-star-alliance.cat", ZIPPED / "star-league.catz") == folder


def test_the_package_is_valid_and_declares_the_catalogues_as_factions():
    package = convert(FOLDER)
    assert check_package(package) == []
    assert package["slug"] == SLUG and package["version"] == "r3-5-2"
    assert package["factions"] == [
        {"slug": "iron-star-alliance", "name": "鉄星同盟", "name_en": "Iron Star Alliance", "bs_id": "cat-isa-01"},
        {"slug": "star-league", "name": "Star League", "name_en": "Star League", "bs_id": "cat-sl-01"},
    ]


def test_every_model_profile_type_maps_with_its_characteristics_and_heroes_by_category():
    cards = by_bs_id(convert(FOLDER))
    hero, squad, solo = cards["sl-hero"], cards["sl-squad"], cards["sl-solo"]
    assert hero["kind"] == "hero" and hero["cst"] == 3 and hero["faction"] == "star-league"
    assert hero["stats"] == {"spd": 5, "mat": 4, "rat": 5, "def": 4, "arm": 3, "foc": 3, "health": 5}
    assert squad["kind"] == "squad" and squad["stats"]["num"] == 3 and "foc" not in squad["stats"]
    assert solo["kind"] == "solo" and solo["stats"]["health"] == 2
    assert cards["sl-vehicle"]["kind"] == "vehicle" and cards["sl-vehicle"]["stats"]["arm"] == 4
    assert cards["sl-mantlet"]["kind"] == "mantlet" and cards["sl-mantlet"]["stats"] == {"def": 2, "arm": 5, "health": 3}
    jack = cards["sl-jack"]
    assert jack["kind"] == "warjack" and jack["stats"]["str"] == 4 and jack["cst"] == 3
    assert all(card["code"] == battlescribe.card_code(card["bs_id"]) for card in cards.values())


def test_fixed_weapons_keep_type_range_pow_damage_type_qualities_and_their_ids():
    cards = by_bs_id(convert(FOLDER))
    pistol, sabre = cards["sl-hero"]["weapons"]
    assert pistol == {"name": "Arc Pistol", "name_en": "Arc Pistol", "type": "ranged", "rng": 10, "pow": 4,
                      "qualities": ["armor_piercing"], "other_qualities": ["Ricochet"], "damage_type": "arc",
                      "bs_id": "sl-hero-w1"}
    assert sabre["type"] == "melee" and sabre["rng"] == 1 and sabre["bs_id"] == "sl-hero-w2"
    assert cards["sl-squad"]["weapons"][0]["qualities"] == ["strafe", "blast"]  # "Strafe (d3)" is Strafe
    assert cards["sl-vehicle"]["weapons"][0]["qualities"] == ["spray", "fire"]


def test_warjack_chassis_hardpoints_weapons_and_cortexes():
    cards = by_bs_id(convert(FOLDER))
    jack = cards["isa-jack"]
    assert jack["weapon_points"] == 5
    assert [(h["slot"], h["count"], h["name"]) for h in jack["hardpoints"]] == [
        ("cortex", 1, "Cortex"), ("arm", 2, "Arms"), ("shoulder", 1, "Shoulder")]
    cannon, fist, pod = cards["isa-arm1"], cards["isa-arm2"], cards["isa-shoulder1"]
    assert (cannon["kind"], cannon["cost"], cannon["qualities"], cannon["hardpoints"]) == ("weapon", 3, ["fire"], ["arm"])
    assert fist["type"] == "melee" and fist["qualities"] == ["lockdown"]
    assert pod["hardpoints"] == ["shoulder"] and pod["qualities"] == ["corrosion", "blast"]
    cortex = cards["isa-cortex1"]
    assert cortex["kind"] == "cortex" and cortex["abilities"] == []
    assert cortex["text"].startswith("Iron Star Alliance Cortex 1: Fire control")
    assert cortex["not_modelled"] == ["Iron Star Alliance Cortex 1"]


def test_cyphers_with_suit_and_type_attack_cyphers_played_the_others_kept_as_text():
    package = convert(FOLDER)
    cyphers = [card for card in package["cards"] if card["kind"] == "cypher"]
    assert len(cyphers) == 12 and {c["faction"] for c in cyphers} == {"universal"}
    assert sorted({c["suit"] for c in cyphers}) == ["fury", "geometric", "harmonic", "overdrive"]
    cards = by_bs_id(package)
    assert cards["cy-01"]["cypher_type"] == "attack"
    assert cards["cy-01"]["effects"] == [{"kind": "attack", "rng": 10, "pow": 4, "qualities": ["fire"]}]
    assert "not_modelled" not in cards["cy-01"]
    assert cards["cy-03"]["cypher_type"] == "geometric" and cards["cy-03"]["effects"] == []
    assert cards["cy-03"]["not_modelled"] == ["Test Geometric Cypher 3"] and "cypher number 3" in cards["cy-03"]["text"]
    assert cards["cy-06"]["cypher_type"] == "pulse"
    assert cards["cy-09"]["effects"][0]["qualities"] == ["armor_piercing"] and "not_modelled" not in cards["cy-09"]


def test_rules_the_engine_knows_become_abilities_the_others_are_text_named_not_modelled():
    cards = by_bs_id(convert(FOLDER))
    hero, scout = cards["sl-hero"], cards["sl-solo"]
    assert [a["kind"] for a in hero["abilities"]] == ["arc_node"]
    assert hero["not_modelled"] == ["Inspiring", "Ricochet"]
    assert "Inspiring: Friendly models within 6\" gain +1 RAT." in hero["text"]
    assert [a["kind"] for a in scout["abilities"]] == ["flight"] and scout["not_modelled"] == ["Stealthy"]
    assert cards["sl-mantlet"]["not_modelled"] == ["Shield Guard"]


def test_formats_from_the_forces_and_their_constraints():
    formats = {f["slug"]: f for f in convert(FOLDER)["formats"]}
    assert set(formats) == {f"{SLUG}-skirmish", f"{SLUG}-full-force"}
    assert formats[f"{SLUG}-skirmish"]["options"] == {
        "single_faction": True, "max_heroes": 1, "max_units": 8, "max_mantlets": 2, "rack_min": 12, "rack_max": 15,
        "max_unit_copies": 3}
    assert formats[f"{SLUG}-full-force"]["options"]["max_heroes"] == 3
    assert formats[f"{SLUG}-full-force"]["bs_id"] == "force-full"


def test_the_report_counts_models_weapons_cyphers_formats_and_names_what_is_played_in_part():
    report = "\n".join(battlescribe.convert([str(FOLDER)]).report)
    assert "models: hero 2, solo 2, squad 2, warjack 2, vehicle 2, mantlet 2" in report
    assert "weapons: 10 fixed, 6 warjack weapons, 4 cortexes" in report
    assert "cyphers: 12 (fury 3, geometric 3, harmonic 3, overdrive 3)" in report
    assert "formats: Skirmish (bs-warcaster-hangar-test-skirmish), Full Force" in report
    assert "BS-SL-HERO Star League Captain [sl-hero]: Inspiring, Ricochet" in report
    assert "BS-CY-03 Test Geometric Cypher 3 [cy-03]: Test Geometric Cypher 3" in report
    assert "modifiers" not in report  # two empty <modifiers>: nothing to apply, nothing left unread


# --- refusals: file, element path and id; nothing written ---------------------------------------------------------


def edited(tmp_path: Path, name: str, old: str, new: str) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(FOLDER, folder)
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


REFUSALS = [
    ("not-well-formed", "star-league.cat", '<selectionEntry id="sl-solo"', '<selectionEntry id="sl-solo" <',
     "", "", "not well-formed XML (line"),
    ("entity", "star-league.cat", '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
     '<?xml version="1.0"?><!DOCTYPE catalogue [<!ENTITY x "boom">]>', "", "", "DTD or entities"),
    ("schema-entry-type", "star-league.cat", 'name="Star League Scout" type="model"',
     'name="Star League Scout" type="troop"', "/catalogue/sharedSelectionEntries[1]/selectionEntry[1]", "sl-solo",
     "not valid against the published BattleScribe catalogue schema: the attribute type='troop' must be one of"),
    ("schema-unknown-element", "hangar-test.gst", "<sharedRules>", "<sharedRules><mystery/>",
     "/gameSystem/sharedRules[1]/mystery[1]", "hts-0001",
     "not valid against the published BattleScribe gameSystem schema: <mystery> is not an element"),
    ("wrong-system", "star-league.cat", 'gameSystemId="hts-0001"', 'gameSystemId="other"', "/catalogue",
     "cat-sl-01", "catalogue is for game system 'other'"),
]

# Odd data a data author could write: read by a documented rule, or that entry left out, with a warning naming the
# file, the element path, the entry's name and id; the package imports.
ODD_DATA = [
    ("profile-type", "star-league.cat", 'typeName="Vehicle"', 'typeName="Titan"',
     "/catalogue/selectionEntries[1]/selectionEntry[3]", "sl-vehicle", "unknown profile type 'Titan'"),
    ("no-model-profile", "star-league.cat", 'name="Star League Troopers" typeName="Squad"',
     'name="Star League Troopers" typeName="Weapon"', "/catalogue/selectionEntries[1]/selectionEntry[2]", "sl-squad",
     "a unit entry needs a model profile"),
    ("characteristic", "star-league.cat", 'name="NUM"', 'name="SIZE"',
     "/catalogue/selectionEntries[1]/selectionEntry[2]/profiles[1]/profile[1]/characteristics[1]/characteristic[6]",
     "sl-squad-p", "unknown characteristic 'SIZE'"),
    ("not-a-number", "star-league.cat", '<characteristic name="DEF" typeId="ct-def">4</characteristic>',
     '<characteristic name="DEF" typeId="ct-def">4+</characteristic>',
     "/catalogue/selectionEntries[1]/selectionEntry[1]/profiles[1]/profile[1]/characteristics[1]/characteristic[4]",
     "sl-hero-p", "DEF '4+' is not a whole number"),
    ("weapon-type", "star-league.cat", '<characteristic name="TYP" typeId="ct-typ">Melee</characteristic>',
     '<characteristic name="TYP" typeId="ct-typ">Psychic</characteristic>',
     "/catalogue/selectionEntries[1]/selectionEntry[1]/selectionEntries[1]/selectionEntry[2]/profiles[1]/profile[1]",
     "sl-hero-w2-p", "unknown weapon TYP 'Psychic'"),
    ("hardpoint-group", "star-league.cat", 'name="Shoulder"', 'name="Tail"',
     "/catalogue/selectionEntries[1]/selectionEntry[5]/selectionEntryGroups[1]/selectionEntryGroup[3]",
     "sl-jack-g-shoulder", "unknown hardpoint group 'Tail'"),
    ("cypher-suit", "hangar-test.gst", '<characteristic name="Suit" typeId="ct-suit">Harmonic</characteristic>',
     '<characteristic name="Suit" typeId="ct-suit">Hearts</characteristic>',
     "/gameSystem/sharedSelectionEntries[1]/selectionEntry[5]/profiles[1]/profile[1]", "cy-05-p",
     "unknown cypher suit 'Hearts'"),
    ("cypher-type", "hangar-test.gst", '<characteristic name="Type" typeId="ct-type">Attack</characteristic>',
     '<characteristic name="Type" typeId="ct-type">Spell</characteristic>',
     "/gameSystem/sharedSelectionEntries[1]/selectionEntry[1]/profiles[1]/profile[1]", "cy-01-p",
     "unknown cypher type 'Spell'"),
    ("cost-type", "hangar-test.gst", 'name="Weapon Points"', 'name="Points"', "/gameSystem/costTypes[1]/costType[1]",
     "wp", "unknown cost type 'Points'"),
    ("missing-rule", "star-league.cat", 'targetId="r-flight"', 'targetId="r-nowhere"',
     "/catalogue/sharedSelectionEntries[1]/selectionEntry[1]/infoLinks[1]/infoLink[1]", "sl-solo-fl",
     "links to rule 'r-nowhere', which no file defines"),
    ("id-twice", "star-league.cat", 'id="sl-solo"', 'id="isa-solo"',
     "/catalogue/sharedSelectionEntries[1]/selectionEntry[1]", "isa-solo", "id 'isa-solo' is used twice"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "file", "old", "new", "path", "element_id", "message"), REFUSALS,
                         ids=[r[0] for r in REFUSALS])
def test_each_refusal_names_the_file_the_element_path_and_the_id_and_writes_nothing(
        tmp_path, name, file, old, new, path, element_id, message):
    folder = edited(tmp_path, file, old, new)
    with pytest.raises(battlescribe.BattleScribeError) as refused:
        battlescribe.convert([folder])
    error = refused.value
    assert error.file == str(folder / file) and message in error.message
    assert error.path == path and error.element_id == element_id
    before = (DataPackage.objects.count(), Card.objects.count(), PackageVersion.objects.count())
    with pytest.raises(CommandError) as command:
        call_command("import_package", str(folder), stdout=StringIO())
    assert str(folder / file) in str(command.value) and message in str(command.value)
    if element_id:
        assert f"(id {element_id})" in str(command.value)
    assert (DataPackage.objects.count(), Card.objects.count(), PackageVersion.objects.count()) == before


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "file", "old", "new", "path", "element_id", "message"), ODD_DATA,
                         ids=[r[0] for r in ODD_DATA])
def test_odd_data_is_a_warning_naming_the_file_path_name_and_id_and_the_package_imports(
        tmp_path, name, file, old, new, path, element_id, message):
    folder = edited(tmp_path, file, old, new)
    conversion = battlescribe.convert([folder])
    found = [w for w in conversion.warnings if message in w]
    assert found, conversion.warnings
    assert found[0].startswith(f"{folder / file}: {path} (") and f"id {element_id})" in found[0]
    out = StringIO()
    call_command("import_package", str(folder), stdout=out)
    assert message in out.getvalue() and "warnings (" in out.getvalue()
    assert DataPackage.objects.filter(slug=conversion.package["slug"]).exists()


def test_refusals_of_the_file_set(tmp_path):
    with pytest.raises(PackageError, match="expected exactly one game system"):
        battlescribe_convert([FOLDER / "star-league.cat"])
    with pytest.raises(PackageError, match="no catalogue"):
        battlescribe_convert([FOLDER / "hangar-test.gst"])
    bad_zip = tmp_path / "broken.zip"
    bad_zip.write_bytes(b"PK not a zip")
    with pytest.raises(PackageError, match="not a readable zip file"):
        battlescribe_convert([bad_zip])
    two = tmp_path / "two.catz"
    with zipfile.ZipFile(two, "w") as archive:
        archive.writestr("a.cat", (FOLDER / "star-league.cat").read_bytes())
        archive.writestr("b.cat", (FOLDER / "iron-star-alliance.cat").read_bytes())
    with pytest.raises(PackageError, match="exactly one .gst/.cat file"):
        battlescribe_convert([FOLDER / "hangar-test.gst", two])


# --- the package in the catalog, forces checked and simulated -------------------------------------------------------


def list_doc(faction: str, fmt: str) -> dict:
    prefix = {"iron-star-alliance": "ISA", "star-league": "SL"}[faction]
    force = [{"card": f"BS-{prefix}-{kind}", "qty": 1} for kind in ("HERO", "SQUAD", "SOLO", "VEHICLE", "MANTLET")]
    force.append({"card": f"BS-{prefix}-JACK", "qty": 1,
                  "options": {"cortex": f"BS-{prefix}-CORTEX1", "weapons": [f"BS-{prefix}-ARM1", f"BS-{prefix}-SHOULDER1"]}})
    rack = [{"card": f"BS-CY-{i:02d}", "qty": 1} for i in range(1, 13)]
    return {"schema": "hangar.list/1", "system": "warcaster", "format": fmt, "name": f"{faction} test force",
            "sections": {"force": force, "rack": rack}}


@pytest.mark.django_db
def test_import_package_command_imports_the_data_beside_the_bundled_packages_and_prints_the_report(tmp_path):
    packages_load_bundled()
    out = StringIO()
    call_command("import_package", str(HERE / "hangar-test.zip"), stdout=out)
    text = out.getvalue()
    assert text.startswith(f"warcaster/{SLUG} r3-5-2: loaded (") and "models: hero 2" in text
    assert "played in part (text kept, effect not modelled)" in text
    card = Card.objects.get(code="BS-ISA-ARM1")
    assert card.data["bs_id"] == "isa-arm1" and card.cost == 3 and card.faction == "iron-star-alliance"
    assert Format.objects.filter(package__slug=SLUG).count() == 2
    again = StringIO()
    call_command("import_package", *[str(p) for p in sorted(ZIPPED.iterdir())], stdout=again)
    assert f"{SLUG} r3-5-2: unchanged" in again.getvalue()  # the zipped files are the same data


@pytest.mark.django_db
@pytest.mark.parametrize("faction", ["iron-star-alliance", "star-league"])
def test_an_imported_force_builds_passes_check_list_and_simulates(tmp_path, faction):
    call_command("import_package", str(FOLDER), stdout=StringIO())
    path = tmp_path / "force.json"
    path.write_text(json.dumps(list_doc(faction, f"{SLUG}-skirmish")), encoding="utf-8")
    out = StringIO()
    call_command("check_list", str(path), "--json", stdout=out)  # exits 1 (SystemExit) when illegal
    assert json.loads(out.getvalue())["legal"] is True
    out = StringIO()
    call_command("simulate", str(path), "--opponent", f"{SLUG}-goldfish", "--games", "4", "--seed", "3", "--json",
                 stdout=out)
    result = json.loads(out.getvalue())
    assert result["games"] == 4 and result["wins"] + result["losses"] + result["draws"] == 4


@pytest.mark.django_db
def test_an_illegal_imported_force_is_reported_by_check_list(tmp_path):
    call_command("import_package", str(FOLDER), stdout=StringIO())
    doc = list_doc("star-league", f"{SLUG}-skirmish")
    doc["sections"]["force"].append({"card": "BS-ISA-SOLO", "qty": 1})  # another faction (single_faction)
    path = tmp_path / "force.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    out = StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("check_list", str(path), "--json", stdout=out)
    assert exit_.value.code == 1 and json.loads(out.getvalue())["legal"] is False


# --- factions as package data ------------------------------------------------------------------------------------


def test_a_card_faction_must_be_declared_and_legacy_packages_keep_the_four_factions():
    package = convert(FOLDER)
    package["cards"][0]["faction"] = "nowhere"
    assert any('"faction": "nowhere" is not one of the package\'s "factions"' in e for e in check_package(package))
    legacy = json.loads((Path(__file__).resolve().parents[2] / "cards/packages/warcaster/core-sample.json").read_text())
    assert check_package(legacy) == []
    legacy["cards"][0]["faction"] = "star-league"
    assert any("not one of the known factions (the package declares none)" in e for e in check_package(legacy))


@pytest.mark.django_db
def test_w5_a_warjacks_weapons_must_fit_its_hardpoints(tmp_path):
    """W5 with the hardpoints read from BattleScribe: one shoulder, so two shoulder weapons do not fit even within
    the weapon points (2 + 2 of 5)."""
    call_command("import_package", str(FOLDER), stdout=StringIO())
    doc = list_doc("iron-star-alliance", f"{SLUG}-skirmish")
    jack = doc["sections"]["force"][-1]
    jack["options"]["weapons"] = ["BS-ISA-SHOULDER1", "BS-ISA-SHOULDER1"]
    path = tmp_path / "force.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    out = StringIO()
    with pytest.raises(SystemExit):
        call_command("check_list", str(path), stdout=out)
    assert "its weapons do not fit its hardpoints (2 arm, 1 shoulder)" in out.getvalue()
    jack["options"]["weapons"] = ["BS-ISA-ARM2", "BS-ISA-ARM2", "BS-ISA-SHOULDER1"]  # 2 + 2 + 2 > 5 points only
    path.write_text(json.dumps(doc), encoding="utf-8")
    out = StringIO()
    with pytest.raises(SystemExit):
        call_command("check_list", str(path), stdout=out)
    assert "hardpoints" not in out.getvalue() and "6 weapon points" in out.getvalue()


def test_the_engine_plays_an_empty_cypher_only_when_its_effect_is_named_not_modelled():
    from rules_engine.core.catalog import CardDataError
    from rules_engine.warcaster.models import check_card

    cypher = {"code": "BS-X", "name": "X", "kind": "cypher", "suit": "fury", "cypher_type": "effect", "effects": []}
    with pytest.raises(CardDataError, match="non-empty list of effects"):
        check_card(cypher)
    check_card(cypher | {"not_modelled": ["X"]})


def test_a_damaged_file_is_refused_with_its_name_never_another_exception(tmp_path):
    """Truncated or byte-flipped files (a property of the reader, on every cut of one catalogue)."""
    raw = (FOLDER / "star-league.cat").read_bytes()
    for cut in range(0, len(raw), max(1, len(raw) // 25)):
        for damaged in (raw[:cut], raw[:cut] + b"\xff" + raw[cut + 1:]):
            folder = tmp_path / f"cut{cut}"
            shutil.copytree(FOLDER, folder, dirs_exist_ok=True)
            (folder / "star-league.cat").write_bytes(damaged)
            try:
                battlescribe.convert([folder])
            except battlescribe.BattleScribeError as error:
                assert error.file == str(folder / "star-league.cat")


@pytest.mark.django_db
def test_an_imported_package_exports_as_a_sheet_and_imports_back_unchanged_with_its_factions():
    from cards.selectors import package_document
    from cards.services import sheet_export, sheet_import

    call_command("import_package", str(FOLDER), stdout=StringIO())
    assert package_document("warcaster", SLUG)["factions"] == convert(FOLDER)["factions"]
    raw = sheet_export("warcaster", SLUG)
    report = sheet_import(raw, filename="bs.csv", system="warcaster", slug=SLUG)
    assert report.status == "unchanged" or not (report.added or report.removed or report.changed), report.lines()


# --- uploads (the staff data import page, builder/web/dataimport.py) -------------------------------------------


@pytest.mark.django_db
def test_uploaded_files_are_previewed_without_writing_and_refusals_name_the_file_as_uploaded(tmp_path):
    from cards.services import Upload, UploadRefused, battlescribe_preview, battlescribe_upload_import

    uploads = [Upload(f"C:\\Users\\me\\{path.name}", path.read_bytes()) for path in sorted(FOLDER.iterdir())]
    before = (DataPackage.objects.count(), Card.objects.count(), PackageVersion.objects.count())
    preview = battlescribe_preview(uploads)
    assert preview.package == convert(FOLDER) and preview.current is None and not preview.unchanged
    assert len(preview.diff["added"]) == len(preview.package["cards"])
    assert (DataPackage.objects.count(), Card.objects.count(), PackageVersion.objects.count()) == before
    assert battlescribe_upload_import(uploads).imported.status == "loaded"
    assert battlescribe_preview(uploads).unchanged
    folder = edited(tmp_path, "star-league.cat", 'typeName="Vehicle"', 'typeName="Titan"')
    odd = [Upload(path.name, path.read_bytes()) for path in sorted(folder.iterdir())]
    warned = battlescribe_preview(odd).warnings
    assert any(w.startswith("star-league.cat: /catalogue/selectionEntries[1]/selectionEntry[3] ('Star League "
                            "Skimmer', id sl-vehicle): unknown profile type 'Titan'") for w in warned), warned
    folder = edited(tmp_path / "bad", "star-league.cat", 'name="Star League Scout" type="model"',
                    'name="Star League Scout" type="troop"')
    bad = [Upload(path.name, path.read_bytes()) for path in sorted(folder.iterdir())]
    with pytest.raises(UploadRefused) as refused:
        battlescribe_preview(bad)
    assert refused.value.problems == [{"file": "star-league.cat",
                                       "path": "/catalogue/sharedSelectionEntries[1]/selectionEntry[1]",
                                       "id": "sl-solo", "message": refused.value.problems[0]["message"]}]
    assert "not valid against the published BattleScribe catalogue schema" in refused.value.problems[0]["message"]
    with pytest.raises(UploadRefused, match="two files have this name"):
        battlescribe_preview([uploads[0], uploads[0]])
