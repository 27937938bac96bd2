"""Every bundled list of every game (cards/packages/<game>/lists/) goes out as a BattleScribe roster against the data
`export_package` writes for the game's bundled package (builder/listio/hangar_roster.py): valid against Hangar's
roster XSD and in the published schema's element order, naming the exported files' game system, catalogue, force,
entries, groups, categories and cost types, with the cards' costs, and read back by Hangar's roster reader to the
same list."""
from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from django.core.management import call_command

from builder.listio import parse_list_json, parse_roster
from builder.listio.roster import ROSTER_NS, roster_schema
from builder.management.commands.check_list import read_list_file
from builder.selectors import list_export, roster_exportable
from rules_engine.formats.battlescribe import export as bx
from cards.selectors import catalog_for
from cards.services import packages_load_bundled
from tests.support.battlescribe_strict import strict_problems

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {"hagmi": "core", "mwda": "core-sample", "warcaster": "core-sample"}
LISTS = sorted((ROOT / "cards" / "packages").glob("*/lists/*.json"))
R = f"{{{ROSTER_NS}}}"


@pytest.fixture(autouse=True)
def bundled():
    packages_load_bundled()


def exported_ids(system: str) -> dict[str, set[str]]:
    """The ids of the data the bundled package exports, by element name."""
    package = json.loads((ROOT / "cards" / "packages" / system / f"{PACKAGES[system]}.json").read_text("utf-8"))
    ids: dict[str, set[str]] = {"entryLink": set(), "selectionEntryGroup": set()}
    for raw in bx.export_package(package).values():
        root = ET.fromstring(raw)
        for element in root.iter():
            if element.get("id"):
                ids.setdefault(element.tag.split("}")[-1], set()).add(element.get("id"))
    return ids


def test_every_game_has_bundled_lists():
    assert {path.parent.parent.name for path in LISTS} == set(PACKAGES)


@pytest.mark.parametrize("path", LISTS, ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
def test_a_bundled_list_exports_as_a_roster_of_the_exported_data_and_reads_back(path, tmp_path):
    system = path.parent.parent.name
    doc = parse_list_json(json.loads(path.read_text("utf-8")))
    out = tmp_path / "list.ros"
    call_command("export_list", str(path), "--as", "ros", "--out", str(out))
    raw = out.read_bytes()
    root = ET.fromstring(raw)
    roster_schema().validate(root)
    assert strict_problems(root) == []
    ids = exported_ids(system)
    assert root.get("gameSystemId") in ids["gameSystem"]
    assert root.get("gameSystemName") == bx.system_name(system)
    force = root.find(f"{R}forces/{R}force")
    assert force.get("catalogueId") in ids["catalogue"]
    assert force.get("entryId") in ids["forceEntry"]
    for selection in root.iter(f"{R}selection"):
        for part in selection.get("entryId").split("::"):
            assert part in ids["selectionEntry"] | ids["entryLink"], selection.get("name")
        if selection.get("entryGroupId"):
            assert selection.get("entryGroupId") in ids["selectionEntryGroup"]
    for category in root.iter(f"{R}category"):
        assert category.get("entryId") in ids["categoryEntry"]
    catalog = catalog_for(system)
    totals = {c.get("typeId"): float(c.get("value")) for c in root.find(f"{R}costs")}
    assert set(totals) <= ids["costType"]
    expected: dict[str, float] = {}
    for entries in doc["sections"].values():
        for entry in entries:
            options = entry.get("options") or {}
            for code in [entry["card"], *([options["cortex"]] if "cortex" in options else []),
                         *options.get("weapons", [])]:
                for type_id, _name, value in bx.card_costs(system, catalog.cards[code]):
                    expected[type_id] = expected.get(type_id, 0) + value * entry["qty"]
    assert totals == expected
    assert parse_roster(raw, catalog_for) == doc  # Hangar's roster reader gives the same list
    zipped = tmp_path / "list.rosz"
    call_command("export_list", str(path), "--as", "rosz", "--out", str(zipped))
    assert read_list_file(zipped) == doc


def test_an_mwda_roster_carries_the_point_limit_as_its_cost_limit():
    doc = parse_list_json(json.loads((ROOT / "cards/packages/mwda/lists/highland-line.json").read_text("utf-8")))
    root = ET.fromstring(list_export(doc, "ros"))
    limit = root.find(f"{R}costLimits/{R}costLimit")
    assert (limit.get("name"), limit.get("value"), limit.get("typeId")) == \
        ("Points", "300.0", bx.cost_type_id("mwda", "points"))  # M1: the tournament format's 300 points


def test_a_hagmi_card_in_another_section_keeps_its_section_through_the_roster():
    doc = parse_list_json({"schema": "hangar.list/1", "system": "hagmi", "format": "tactics-v4", "name": "moved",
                           "sections": {"weapons": [], "tactics": [], "damage": [],
                                        "secret": [{"card": "HS-001", "qty": 1}]}})
    raw = list_export(doc, "ros")
    assert parse_roster(raw, catalog_for) == doc


def test_a_warcaster_warjack_names_its_parts_through_its_groups():
    doc = parse_list_json(json.loads((ROOT / "cards/packages/warcaster/lists/isa-thunder-lancers.json")
                                     .read_text("utf-8")))
    root = ET.fromstring(list_export(doc, "ros"))
    jack = next(s for s in root.iter(f"{R}selection") if s.get("entryId") == bx.entry_id("warcaster", "WC-010"))
    parts = [(s.get("entryId"), s.get("entryGroupId")) for s in jack.find(f"{R}selections")]
    assert parts[0] == (f"{bx.link_id('warcaster', 'WC-010', 'WC-K01')}::{bx.entry_id('warcaster', 'WC-K01')}",
                        bx.group_id("warcaster", "WC-010", "cortex"))
    assert parts[1][1] == bx.group_id("warcaster", "WC-010", "weapons")


def test_every_game_offers_the_roster_download():
    for path in LISTS:
        assert roster_exportable(parse_list_json(json.loads(path.read_text("utf-8")))), path


def test_a_roster_naming_an_entry_the_data_lacks_is_refused_with_its_path():
    doc = parse_list_json(json.loads((ROOT / "cards/packages/mwda/lists/highland-line.json").read_text("utf-8")))
    raw = list_export(doc, "ros").replace(bx.entry_id("mwda", "MW-019").encode(), b"dead-beef-dead-beef", 1)
    from builder.listio import ListFormatError

    with pytest.raises(ListFormatError) as info:
        parse_roster(raw, catalog_for)
    assert "(id dead-beef-dead-beef) is not in the loaded data" in str(info.value.issues[0].message)
    assert info.value.issues[0].path == "/roster/forces[1]/force[1]/selections[1]/selection[1]"
