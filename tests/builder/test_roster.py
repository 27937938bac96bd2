"""BattleScribe / New Recruit rosters in and out (builder/listio/roster.py), against the
package made from Hangar's own BattleScribe test files (tests/cards/fixtures/battlescribe/): exported rosters are
valid against the roster XSD, name the catalogue's own ids, costs and categories, and read back to the same list;
every problem of a roster read in is reported with its element path, entries by name and id."""
from __future__ import annotations

import copy
import io
import zipfile
from functools import lru_cache
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from builder.listio import ListFormatError, RosterExportError, export_roster, parse_list_json, parse_roster
from builder.listio.roster import ROSTER_NS, roster_schema
from rules_engine.formats import battlescribe
from rules_engine.core.catalog import Catalog
from tests.property.strategies import examples

FIXTURES = Path(__file__).resolve().parents[1] / "cards" / "fixtures" / "battlescribe"
NS = {"r": ROSTER_NS}


@lru_cache(maxsize=1)
def package() -> dict:
    return battlescribe.convert([FIXTURES / "folder"]).package


@lru_cache(maxsize=1)
def catalog() -> Catalog:
    pkg = package()
    sample = {"slug": "skirmish", "name": "Skirmish", "default": True, "options": {}}  # a Hangar format, no force
    return Catalog.build("warcaster", pkg["cards"] + [{"code": "WC-001", "name": "Hangar card", "kind": "solo",
                                                       "faction": "iron-star-alliance"}],
                         pkg["formats"] + [sample], default_format="skirmish")


def catalog_for(system: str):
    return catalog() if system == "warcaster" else None


SKIRMISH = "bs-warcaster-hangar-test-skirmish"


def iron_list(**changes) -> dict:
    doc = {"schema": "hangar.list/1", "system": "warcaster", "format": SKIRMISH, "name": "Iron test",
           "sections": {"force": [
               {"card": "BS-ISA-HERO", "qty": 1}, {"card": "BS-ISA-SOLO", "qty": 2},
               {"card": "BS-ISA-JACK", "qty": 1,
                "options": {"cortex": "BS-ISA-CORTEX1", "weapons": ["BS-ISA-ARM1", "BS-ISA-ARM2"]}}],
               "rack": [{"card": "BS-CY-01", "qty": 1}, {"card": "BS-CY-02", "qty": 2}]}}
    return doc | changes


def xml_of(raw: bytes) -> ET.Element:
    return ET.fromstring(raw)


# --- out -------------------------------------------------------------------------------------------------------------


def test_an_exported_roster_is_valid_and_names_the_catalogues_own_ids_costs_and_categories():
    raw = export_roster(parse_list_json(iron_list()), catalog())
    root = xml_of(raw)
    roster_schema().validate(root)  # raises when not valid against rules_engine/formats/battlescribe/xsd/roster.xsd
    assert root.get("gameSystemId") == "hts-0001" and root.get("gameSystemRevision") == "3"
    assert root.get("name") == "Iron test"
    force = root.find("r:forces/r:force", NS)
    assert (force.get("entryId"), force.get("catalogueId"), force.get("catalogueRevision")) == \
        ("force-skirmish", "cat-isa-01", "5")
    top = force.findall("r:selections/r:selection", NS)
    assert [(s.get("entryId"), s.get("number"), s.get("type")) for s in top] == [
        ("isa-hero", "1", "model"), ("isa-solo-link::isa-solo", "2", "model"),  # through the catalogue's root link
        ("isa-jack", "1", "model"), ("cy-01", "1", "upgrade"), ("cy-02", "2", "upgrade")]
    assert [c.get("entryId") for c in top[0].findall("r:categories/r:category", NS)] == ["cat-hero"]
    parts = top[2].findall("r:selections/r:selection", NS)
    assert [(p.get("entryId"), p.get("entryGroupId")) for p in parts] == [
        ("isa-jack-l-cortex1::isa-cortex1", "isa-jack-g-cortex"), ("isa-jack-l-arm1::isa-arm1", "isa-jack-g-arms"),
        ("isa-jack-l-arm2::isa-arm2", "isa-jack-g-arms")]
    assert [p.find("r:costs/r:cost", NS).get("value") for p in parts] == ["0.0", "3.0", "2.0"]  # Weapon Points
    total = root.find("r:costs/r:cost", NS)
    assert (total.get("typeId"), total.get("value")) == ("wp", "5.0")


def test_the_same_list_gives_the_same_bytes_and_rosz_is_a_zip_of_the_ros():
    doc = parse_list_json(iron_list())
    raw = export_roster(doc, catalog())
    assert export_roster(copy.deepcopy(doc), catalog()) == raw
    zipped = export_roster(doc, catalog(), zipped=True, filename="iron.ros")
    with zipfile.ZipFile(io.BytesIO(zipped)) as archive:
        assert archive.namelist() == ["iron.ros"] and archive.read("iron.ros") == raw


def test_a_list_of_cards_without_battlescribe_ids_is_refused_naming_each_card():
    doc = iron_list(sections={"force": [{"card": "WC-001", "qty": 1}, {"card": "BS-ISA-HERO", "qty": 1},
                                        {"card": "WC-999", "qty": 1}], "rack": []})
    with pytest.raises(RosterExportError) as refused:
        export_roster(parse_list_json(doc), catalog())
    messages = [issue.message for issue in refused.value.issues]
    assert messages == [
        "sections.force[0]: card WC-001 (Hangar card) has no BattleScribe id: only lists built from cards imported "
        "from BattleScribe data can be written as rosters",
        "sections.force[2]: card WC-999 is not in the catalog"]
    assert refused.value.issues[0].words("ja").startswith("sections.force[0]: カードWC-001（Hangar card）には")
    with pytest.raises(RosterExportError, match="only Warcaster lists"):
        export_roster({"schema": "hangar.list/1", "system": "hagmi", "format": None, "name": "",
                       "sections": {"weapons": [], "tactics": [], "damage": [], "secret": []}}, catalog())
    with pytest.raises(RosterExportError, match="an empty list"):
        export_roster(parse_list_json(iron_list(sections={})), catalog())


def test_a_list_in_a_hangar_format_takes_the_datas_first_force():
    raw = export_roster(parse_list_json(iron_list(format="skirmish")), catalog())
    assert xml_of(raw).find("r:forces/r:force", NS).get("entryId") == "force-skirmish"
    assert parse_roster(raw, catalog_for)["format"] == SKIRMISH


# --- in --------------------------------------------------------------------------------------------------------------


def test_a_roster_reads_into_the_same_list_plain_and_zipped():
    doc = parse_list_json(iron_list(format="bs-warcaster-hangar-test-full-force"))
    assert parse_roster(export_roster(doc, catalog()), catalog_for) == doc
    assert parse_roster(export_roster(doc, catalog(), zipped=True), catalog_for, filename="iron.rosz") == doc


def roster_text(**changes) -> str:
    text = export_roster(parse_list_json(iron_list()), catalog()).decode()
    for old, new in changes.items():
        assert old in text, old
        text = text.replace(old, new)
    return text


def problems(text: str | bytes, filename: str = "roster.ros") -> list[tuple[str | None, str]]:
    with pytest.raises(ListFormatError) as refused:
        parse_roster(text.encode() if isinstance(text, str) else text, catalog_for, filename=filename)
    return [(issue.path, issue.message) for issue in refused.value.issues]


def test_entries_the_loaded_data_lacks_are_all_reported_by_name_and_id_with_their_path():
    text = roster_text(**{'entryId="isa-hero"': 'entryId="gone-hero"',
                          'entryId="isa-jack-l-arm2::isa-arm2"': 'entryId="x::gone-fist"'})
    found = problems(text)
    assert found == [
        ("/roster/forces[1]/force[1]/selections[1]/selection[1]",
         "/roster/forces[1]/force[1]/selections[1]/selection[1]: the entry 'Iron Star Alliance Captain' (id gone-hero) "
         "is not in the loaded BattleScribe data; import the data this roster was made with"),
        ("/roster/forces[1]/force[1]/selections[1]/selection[3]/selections[1]/selection[3]",
         "/roster/forces[1]/force[1]/selections[1]/selection[3]/selections[1]/selection[3]: the entry 'Power Fist' "
         "(id gone-fist) is not in the loaded BattleScribe data; import the data this roster was made with")]


@pytest.mark.parametrize(("changes", "path_end", "words"), [
    ({'gameSystemId="hts-0001"': 'gameSystemId="other-system"'}, "/roster", "no BattleScribe data of the game system"),
    ({'entryId="force-skirmish"': 'entryId="force-gone"'}, "/force[1]", "the force 'Skirmish' (id force-gone)"),
    ({'entryId="isa-hero"': 'entryId="isa-cortex2"'}, "/selection[1]", "is a warjack's cortex: it belongs inside"),
    ({'number="2"': 'number="two"'}, "/selection[2]", "not valid against the published BattleScribe roster schema"),
    ({'<forces>': '<forces><force id="f0" name="Other" entryId="force-skirmish" catalogueId="cat-sl-01"/>'},
     "/roster/forces[1]", "the roster has 2 forces"),
])
def test_each_bad_roster_is_refused_with_where_and_what(changes, path_end, words):
    found = problems(roster_text(**changes))
    assert len(found) == 1
    path, message = found[0]
    assert path.endswith(path_end) and words in message


def test_not_a_roster_not_xml_and_bad_zips_are_refused_clearly():
    assert "not well-formed XML" in problems("<roster")[0][1]
    assert "is not a BattleScribe roster" in problems((FIXTURES / "folder" / "star-league.cat").read_bytes())[0][1]
    assert "is not a zip file" in problems(b"<roster/>", filename="x.rosz")[0][1]
    two = io.BytesIO()
    with zipfile.ZipFile(two, "w") as archive:
        archive.writestr("a.ros", "x")
        archive.writestr("b.ros", "y")
    assert "holds 2 files" in problems(two.getvalue(), filename="x.rosz")[0][1]
    entities = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "x">]><roster/>'
    assert "uses a DTD or entities" in problems(entities)[0][1]


def test_a_roster_from_another_tool_with_copied_profiles_and_rules_reads():
    """BattleScribe and New Recruit copy each entry's profiles and rules into the roster: they are skipped."""
    text = roster_text(**{'<costs>\n            <cost name="Weapon Points" typeId="wp" value="0.0" />':
                          '<profiles><profile id="p1" name="Captain" typeId="pt-solo" typeName="Solo"/></profiles>'
                          '<rules><rule id="r1" name="Inspiring"><description>+1 RAT</description></rule></rules>'
                          '<costs><cost name="Weapon Points" typeId="wp" value="0.0" />'})
    assert parse_roster(text.encode(), catalog_for) == parse_list_json(iron_list())


# --- any list round trips (property) -----------------------------------------------------------------------------


def _codes(kind: str, faction: str | None = None) -> list[str]:
    return sorted(code for code, card in catalog().cards.items() if card.get("kind") == kind and card.get("bs_id")
                  and (faction is None or card.get("faction") == faction))


@st.composite
def imported_lists(draw) -> dict:
    faction = draw(st.sampled_from(["iron-star-alliance", "star-league"]))
    prefix = {"iron-star-alliance": "ISA", "star-league": "SL"}[faction]
    models = [c for kind in ("hero", "solo", "squad", "vehicle", "mantlet") for c in _codes(kind, faction)]
    force = [{"card": code, "qty": draw(st.integers(1, 3))}
             for code in draw(st.lists(st.sampled_from(models), max_size=6))]
    for _ in range(draw(st.integers(0, 2))):
        entry: dict = {"card": f"BS-{prefix}-JACK", "qty": draw(st.integers(1, 2))}
        options: dict = {}
        if draw(st.booleans()):
            options["cortex"] = draw(st.sampled_from([f"BS-{prefix}-CORTEX1", f"BS-{prefix}-CORTEX2"]))
        weapons = draw(st.lists(st.sampled_from([f"BS-{prefix}-ARM1", f"BS-{prefix}-ARM2", f"BS-{prefix}-SHOULDER1"]),
                                max_size=4))
        if weapons:
            options["weapons"] = weapons
        if options:
            entry["options"] = options
        force.insert(draw(st.integers(0, len(force))), entry)
    rack = [{"card": code, "qty": draw(st.integers(1, 2))}
            for code in draw(st.lists(st.sampled_from(_codes("cypher")), max_size=15))]
    if not force and not rack:
        rack = [{"card": "BS-CY-01", "qty": 1}]
    fmt = draw(st.sampled_from([f["slug"] for f in package()["formats"]]))
    name = draw(st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp")), max_size=30))
    return parse_list_json({"schema": "hangar.list/1", "system": "warcaster", "format": fmt, "name": name,
                            "sections": {"force": force, "rack": rack}})


@given(doc=imported_lists(), zipped=st.booleans())
@examples(60)
def test_any_list_exported_as_a_roster_reads_back_to_the_same_list(doc, zipped):
    raw = export_roster(doc, catalog(), zipped=zipped)
    xml = zipfile.ZipFile(io.BytesIO(raw)).read("roster.ros") if zipped else raw
    roster_schema().validate(ET.fromstring(xml))
    assert parse_roster(raw, catalog_for, filename="x.rosz" if zipped else "x.ros") == doc
