"""Every package goes out as BattleScribe data (rules_engine/formats/battlescribe/export.py, `export_package ... --as battlescribe`)
and comes back the same through `import_package` (rules_engine/formats/battlescribe/hangar.py): for the bundled package of each
game, the files are valid against the BattleScribe schemas Hangar validates with AND in the published schema's
element order (vNext Catalogue.xsd), their ids are derived from the codes (the same every time), and they show each
game's costs, categories, profiles and format limits."""
from __future__ import annotations

import json
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from rules_engine.formats import battlescribe
from rules_engine.formats.battlescribe import export as bx
from cards.models import Card, DataPackage, Format, Opponent
from cards.selectors import package_document
from cards.services import import_paths, packages_load_bundled
from tests.support.battlescribe_strict import strict_problems

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
BUNDLED = [("hagmi", "core"), ("mwda", "core-sample"), ("warcaster", "core-sample")]


def strict_check(raw: bytes) -> ET.Element:
    """The file is valid against Hangar's BattleScribe XSD (rules_engine/formats/battlescribe/xsd/) and its children come in
    the published schema's sequence order (and the strict validator of the published model, where the tree has
    it: tests.support.battlescribe_strict)."""
    root = ET.fromstring(raw)
    battlescribe.parse(battlescribe.SourceFile("exported", raw))  # raises BattleScribeError when not valid
    assert strict_problems(root) == []
    return root


def ns(tag: str, root: ET.Element) -> str:
    return root.tag.split("}")[0] + "}" + tag


def snapshot(system: str, slug: str) -> dict:
    document = package_document(system, slug)
    assert document is not None
    return document


@pytest.fixture
def bundled():
    packages_load_bundled()


@pytest.mark.parametrize("system,slug", BUNDLED)
def test_a_bundled_package_exports_and_imports_back_to_the_same_cards(bundled, tmp_path, system, slug):
    before = snapshot(system, slug)
    out = tmp_path / "out"
    call_command("export_package", system, slug, "--as", "battlescribe", "--out", str(out))
    files = sorted(out.iterdir())
    assert [f.suffix for f in files] == [".cat", ".gst"]
    for file in files:
        strict_check(file.read_bytes())
    cards = {c.code: c.data for c in Card.objects.filter(system__slug=system)}
    Card.objects.filter(system__slug=system).delete()
    DataPackage.objects.filter(system__slug=system, slug=slug).delete()
    report = import_paths([out])
    assert "read back as they were exported" in report
    after = snapshot(system, slug)
    assert after["cards"] == before["cards"]  # the same codes and fields, in the same order
    assert {c.code: c.data for c in Card.objects.filter(system__slug=system)} == cards
    for key in ("formats", "opponents", "version", "title", "description", "factions"):
        assert after.get(key) == before.get(key), key
    assert Format.objects.filter(system__slug=system).count() == len(before["formats"])
    assert Opponent.objects.filter(system__slug=system).count() == len(before["opponents"])


@pytest.mark.parametrize("system,slug", BUNDLED)
def test_the_same_package_exports_the_same_bytes_and_ids_derived_from_the_codes(system, slug):
    package = json.loads((ROOT / "cards" / "packages" / system / f"{slug}.json").read_text(encoding="utf-8"))
    first, second = bx.export_package(package), bx.export_package(json.loads(json.dumps(package)))
    assert first == second
    catalogue = ET.fromstring(first[f"hangar-{system}-{slug}.cat"])
    ids = {e.get("id") for e in catalogue.iter() if e.tag.endswith("}selectionEntry")}
    assert ids == {bx.entry_id(system, c["code"]) for c in package["cards"]}
    assert all(len(i) == 19 and i.count("-") == 3 for i in ids)  # xxxx-xxxx-xxxx-xxxx


def test_zipped_files_open_as_gstz_and_catz(bundled, tmp_path):
    out = tmp_path / "z"
    call_command("export_package", "mwda", "core-sample", "--as", "battlescribe", "--out", str(out), "--zipped")
    names = sorted(p.name for p in out.iterdir())
    assert names == ["hangar-mwda-core-sample.catz", "hangar-mwda.gstz"]
    with zipfile.ZipFile(out / "hangar-mwda.gstz") as archive:
        assert archive.namelist() == ["hangar-mwda.gst"]
    conversion = battlescribe.convert([out])
    assert conversion.package["cards"] == snapshot("mwda", "core-sample")["cards"]


def test_hagmi_data_shows_decks_costs_and_card_numbers():
    package = json.loads((ROOT / "cards/packages/hagmi/core.json").read_text(encoding="utf-8"))
    files = bx.export_package(package)
    system = ET.fromstring(files["hangar-hagmi.gst"])
    categories = {c.get("name") for c in system.iter(ns("categoryEntry", system))}
    assert {"Weapons", "Tactics", "Damage", "Secret", "Unit", "Tactic"} <= categories
    assert [c.get("name") for c in system.iter(ns("costType", system))] == ["Cost"]
    force = next(system.iter(ns("forceEntry", system)))
    assert force.get("name") == "Tactics (regulation Ver.4)"
    weapons = next(link for link in force.iter(ns("categoryLink", system)) if link.get("name") == "Weapons")
    limit = next(weapons.iter(ns("constraint", system)))
    assert (limit.get("type"), limit.get("value"), limit.get("field")) == ("min", "20", "selections")  # H1
    catalogue = ET.fromstring(files["hangar-hagmi-core.cat"])
    guren = next(e for e in catalogue.iter(ns("selectionEntry", catalogue)) if e.get("name") == "Guren-maru")
    chars = {c.get("name"): c.text for c in guren.iter(ns("characteristic", catalogue))}
    assert (chars["Cost"], chars["Firepower"], chars["Armor"], chars["Range"]) == ("2", "3", "3", "1")
    copies = next(guren.iter(ns("constraint", catalogue)))
    assert (copies.get("type"), copies.get("value"), copies.get("scope")) == ("max", "2", "roster")  # per name
    cost = next(guren.iter(ns("cost", catalogue)))
    assert (cost.get("name"), cost.get("value")) == ("Cost", "2.0")


def test_mwda_data_has_points_and_the_point_limit_as_a_cost_constraint():
    package = json.loads((ROOT / "cards/packages/mwda/core-sample.json").read_text(encoding="utf-8"))
    files = bx.export_package(package)
    system = ET.fromstring(files["hangar-mwda.gst"])
    points = next(system.iter(ns("costType", system)))
    assert points.get("name") == "Points"
    force = next(f for f in system.iter(ns("forceEntry", system)) if f.get("name") == "Official tournament 300 points")
    limit = next(force.iter(ns("constraint", system)))
    assert (limit.get("field"), limit.get("type"), limit.get("value")) == (points.get("id"), "max", "300")  # M1
    catalogue = ET.fromstring(files["hangar-mwda-core-sample.cat"])
    unit = next(e for e in catalogue.iter(ns("selectionEntry", catalogue)) if e.get("name") == "Republic Line Troopers")
    chars = {c.get("name"): c.text for c in unit.iter(ns("characteristic", catalogue))}
    assert (chars["Points"], chars["Rank"], chars["Primary"], chars["Move"]) == ("20", "Green", "0-6 ballistic", "8")
    categories = {link.get("name") for link in unit.iter(ns("categoryLink", catalogue))}
    assert categories == {"Army", "Infantry", "Republic"}


def test_warcaster_data_has_model_and_weapon_profiles_rack_limits_and_warjack_groups():
    package = json.loads((ROOT / "cards/packages/warcaster/core-sample.json").read_text(encoding="utf-8"))
    files = bx.export_package(package)
    system = ET.fromstring(files["hangar-warcaster.gst"])
    assert [c.get("name") for c in system.iter(ns("costType", system))] == ["CST", "Weapon Points"]
    skirmish = next(f for f in system.iter(ns("forceEntry", system)) if f.get("name") == "Skirmish")
    limits = {(link.get("name"), c.get("type")): c.get("value") for link in skirmish.iter(ns("categoryLink", system))
              for c in link.iter(ns("constraint", system))}
    assert limits[("Hero", "max")] == "1" and limits[("Unit", "max")] == "8"  # W1, W2
    assert limits[("Cyphers", "min")] == "12" and limits[("Cyphers", "max")] == "15"  # W3
    assert limits[("Fury", "min")] == "3"
    catalogue = ET.fromstring(files["hangar-warcaster-core-sample.cat"])
    aya = next(e for e in catalogue.iter(ns("selectionEntry", catalogue)) if e.get("name") == "Commander Aya Kurogane")
    model = next(p for p in aya.iter(ns("profile", catalogue)) if p.get("typeName") == "Model")
    chars = {c.get("name"): c.text for c in model.iter(ns("characteristic", catalogue))}
    assert [chars[k] for k in ("SPD", "MAT", "RAT", "DEF", "ARM", "FOC", "DMG", "CST")] == \
        ["5", "4", "5", "4", "3", "4", "5", "4"]
    weapon = next(p for p in aya.iter(ns("profile", catalogue)) if p.get("typeName") == "Weapon")
    assert {c.get("name"): c.text for c in weapon.iter(ns("characteristic", catalogue))}["RNG"] == "12"
    jack = next(e for e in catalogue.iter(ns("selectionEntry", catalogue)) if e.get("name") == "Hayate Light Warjack")
    groups = {g.get("name"): g for g in jack.iter(ns("selectionEntryGroup", catalogue))}
    assert set(groups) == {"Cortex", "Weapons"}
    points = next(groups["Weapons"].iter(ns("constraint", catalogue)))
    assert (points.get("value"), points.get("field")) == ("4", bx.cost_type_id("warcaster", "wp"))
    hangar = next(p for p in jack.iter(ns("profile", catalogue)) if p.get("typeName") == bx.HANGAR_CARD)
    assert hangar.get("hidden") == "true"  # Hangar's copy of the card is not shown to players


def test_the_order_check_names_a_child_out_of_the_schema_order():
    root = ET.fromstring(b'<selectionEntry xmlns="http://www.battlescribe.net/schema/catalogueSchema" id="a" '
                         b'type="upgrade"><costs/><profiles/></selectionEntry>')
    assert bx.order_problems(root) == [
        "/selectionEntry/profiles[1]: out of the schema's order (" + ", ".join(bx.VNEXT_ORDER["selectionEntry"]) + ")"]
    root = ET.fromstring(b'<roster xmlns="http://www.battlescribe.net/schema/rosterSchema"><forces/><costs/>'
                         b'</roster>')
    assert bx.order_problems(root)[0].startswith("/roster/costs[1]: out of the schema's order")


def test_a_hangar_export_with_a_broken_card_json_is_refused_naming_where(tmp_path):
    package = json.loads((ROOT / "cards/packages/mwda/core-sample.json").read_text(encoding="utf-8"))
    for name, raw in bx.export_package(package).items():
        if name.endswith(".cat"):
            raw = raw.replace(b'{"abilities":["capture"],"code":"MW-001"', b'{"abilities":["capture"],"code":MW-001', 1)
        (tmp_path / name).write_bytes(raw)
    with pytest.raises(battlescribe.BattleScribeError) as info:
        battlescribe.convert([tmp_path])
    assert "Hangar card JSON cannot be read" in str(info.value)
    assert "/catalogue/selectionEntries[1]/selectionEntry[1]/profiles[1]/profile[2]" in str(info.value)


def test_unknown_system_or_package_and_an_unwritable_folder_are_clear_errors(bundled, tmp_path):
    with pytest.raises(CommandError, match="unknown game system 'chess'; known: hagmi, mwda, warcaster"):
        call_command("export_package", "chess", "core", "--as", "battlescribe", "--out", str(tmp_path))
    with pytest.raises(CommandError, match=r"hagmi has no package 'nope' \(loaded: core\)"):
        call_command("export_package", "hagmi", "nope", "--as", "battlescribe", "--out", str(tmp_path))
    blocked = tmp_path / "file"
    blocked.write_text("x")
    with pytest.raises(CommandError, match=f"{blocked}/sub: cannot be written"):
        call_command("export_package", "hagmi", "core", "--as", "battlescribe", "--out", str(blocked / "sub"))
