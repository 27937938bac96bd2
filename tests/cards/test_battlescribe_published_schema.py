"""BattleScribe data is checked against the published content model (rules_engine/formats/battlescribe/schema.py), and odd data is
a warning, not a refusal (docs/data-packages.md "BattleScribe data": Reading, Refusals, Warnings, Not read).

The fixtures are written from the published content model (tests/cards/fixtures/battlescribe/published_model.py):
every child element the model allows, where the importer looks, in the latest version's order and in BattleScribe
2.03's. They import to the same cards as the files without the additions; the kinds skipped are listed as not read.
"""
from __future__ import annotations

import re
import shutil
from io import StringIO
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings, strategies as st

from rules_engine.formats import battlescribe
from rules_engine.formats.battlescribe import schema as bs_schema
from rules_engine.formats.safefiles import parse_xml
from tests.cards.fixtures.battlescribe import published_model

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "battlescribe"
COMMUNITY = FIXTURES / "community-shape"
PUBLISHED = FIXTURES / "published-model"
CAT_NS = bs_schema.NAMESPACES["catalogue"]


@pytest.fixture(scope="module")
def plain() -> battlescribe.Conversion:
    return battlescribe.convert([COMMUNITY])


# --- the schema -----------------------------------------------------------------------------------------------------


def test_the_xsd_files_are_the_ones_the_content_model_generates():
    for name, text in bs_schema.xsd_files().items():
        assert (bs_schema.XSD_DIR / name).read_text(encoding="utf-8") == text, \
            f"{name} is stale: run python -m rules_engine.formats.battlescribe.schema"


def test_the_fixture_files_are_the_ones_the_generator_writes():
    for order in published_model.ORDERS:
        for name, raw in published_model.build(order).items():
            assert (PUBLISHED / order / name).read_bytes() == raw, f"run {published_model.__file__}"


@pytest.mark.parametrize("order", published_model.ORDERS)
def test_every_allowed_child_is_present_where_the_importer_looks(order):
    """The fixtures hold, in an entryLink: infoLinks, modifiers, modifierGroups, constraints, categoryLinks, comment,
    costs and nested selectionEntries/Groups/entryLinks; in modifiers: repeats, conditions, conditionGroups; at the
    root of a catalogue: catalogueLinks, sharedInfoGroups, publications."""
    root = parse_xml((PUBLISHED / order / "drift-clans.cat").read_bytes())
    links = [e for e in root.iter() if e.tag == f"{{{CAT_NS}}}entryLink" and not e.get("id", "").startswith("pm-")]
    assert links
    wanted = [name for name, _kind in bs_schema.KINDS["EntryLink"].children]
    for link in links:
        assert [child.tag.split("}")[1] for child in link] == wanted  # all of them, in the model's order
    for name in ("repeats", "conditions", "conditionGroups"):
        assert any(e.tag == f"{{{CAT_NS}}}{name}" and len(e) for e in root.iter())
    for name in ("catalogueLinks", "sharedInfoGroups", "publications"):
        assert len(root.find(f"{{{CAT_NS}}}{name}"))


def test_both_orders_pass_the_import_check_and_the_strict_check_wants_the_latest_order():
    for order in published_model.ORDERS:
        for path in sorted((PUBLISHED / order).iterdir()):
            assert bs_schema.check(parse_xml(path.read_bytes())) in ("gameSystem", "catalogue")
    assert bs_schema.strict_errors(parse_xml((PUBLISHED / "vnext" / "drift-clans.cat").read_bytes())) == []
    assert bs_schema.strict_errors(parse_xml((PUBLISHED / "vnext" / "community-shape.gst").read_bytes())) == []
    late = bs_schema.strict_errors(parse_xml((PUBLISHED / "2.03" / "drift-clans.cat").read_bytes()))
    assert late and late[0].startswith("/catalogue")  # 2.03's early catalogueLinks: not the latest exact order


@pytest.mark.parametrize("order", published_model.ORDERS)
def test_the_published_model_files_import_to_the_same_cards_and_list_what_is_not_read(order, plain):
    conversion = battlescribe.convert([PUBLISHED / order])
    assert conversion.package["cards"] == plain.package["cards"]
    assert conversion.package["formats"] == plain.package["formats"]
    not_read = next(line for line in conversion.report if line.startswith("not read, by kind"))
    # every entryLink of the community-shape files gets the children the model allows it
    links = sum(path.read_text(encoding="utf-8").count("<entryLink ")
                for path in (FIXTURES / "community-shape").iterdir())
    for words in ("catalogueLinks (links between catalogues) ×1", "modifierGroups (conditional changes) ×",
                  "sharedInfoGroups (shared rule groups) ×2", "publications (book references) ×2",
                  "comment (the authors' notes) ×", f"infoLinks on an entryLink (what a link adds to its target) ×{links}",
                  f"selectionEntries on an entryLink (what a link adds to its target) ×{links}"):
        assert words in not_read
    assert "profiles on an entryLink" not in not_read  # an empty list is not something skipped


@pytest.mark.parametrize(("where", "inserted", "path_end"), [
    ("<entryLinks>", "<entryLinks><profileTypes/>", "/entryLinks[1]/profileTypes[1]"),
    ("<constraints>", "<constraints><modifier type=\"set\" field=\"hidden\" value=\"true\"/>",
     "/constraints[1]/modifier[1]"),
])
def test_an_element_outside_the_published_model_is_refused_with_its_path(tmp_path, where, inserted, path_end):
    folder = tmp_path / "data"
    shutil.copytree(COMMUNITY, folder)
    path = folder / "drift-clans.cat"
    path.write_text(path.read_text(encoding="utf-8").replace(where, inserted, 1), encoding="utf-8")
    with pytest.raises(battlescribe.BattleScribeError) as refused:
        battlescribe.convert([folder])
    assert refused.value.file == str(path) and refused.value.path.endswith(path_end)
    assert "not valid against the published BattleScribe catalogue schema" in refused.value.message
    assert "is not an element the published BattleScribe model allows" in refused.value.message


def test_an_attribute_of_the_wrong_type_or_a_missing_required_one_is_refused():
    raw = (COMMUNITY / "drift-clans.cat").read_text(encoding="utf-8")
    for old, new, words in [('value="0.0"', 'value="none"', "must be a number"),
                            ('type="rule"', 'type="page"', "must be one of infoGroup, profile, rule"),
                            (' typeId="cs-wp"', "", "needs the attribute 'typeId'")]:
        root = parse_xml(raw.replace(old, new, 1).encode())
        with pytest.raises(bs_schema.SchemaRefusal, match=re.escape(words)):
            bs_schema.check(root)


# --- odd data is a warning --------------------------------------------------------------------------------------


def odd(tmp_path: Path, name: str, old: str, new: str) -> battlescribe.Conversion:
    folder = tmp_path / "data"
    shutil.copytree(COMMUNITY, folder)
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return battlescribe.convert([folder])


def weapon(conversion: battlescribe.Conversion, bs_id: str) -> dict:
    return next(w for card in conversion.package["cards"] for w in card.get("weapons", []) + [card]
                if w.get("bs_id") == bs_id)


def test_a_weapon_linked_to_both_melee_and_ranged_is_typed_by_its_rng_with_a_warning(tmp_path):
    """Arc Hook (RNG 1) links to Melee; linked to Ranged too it is read as melee (RNG ≤ 2), and the warning names
    the entry and its id."""
    conversion = odd(tmp_path, "community-shape.gst",
                     '<infoLink id="cs-w-hook-r0" name="Melee" hidden="false" targetId="cs-r-melee" type="rule" />',
                     '<infoLink id="cs-w-hook-r0" name="Melee" hidden="false" targetId="cs-r-melee" type="rule" />'
                     '<infoLink id="cs-w-hook-rx" name="Ranged" hidden="false" targetId="cs-r-ranged" type="rule" />')
    assert weapon(conversion, "cs-w-hook")["type"] == "melee"
    line = next(w for w in conversion.warnings if "both the Melee and the Ranged rule" in w)
    assert "('Arc Hook', id cs-w-hook)" in line and "read as melee by its RNG 1" in line
    assert line.startswith(str(tmp_path / "data" / "community-shape.gst") + ": /gameSystem/sharedSelectionEntries[1]/")


def test_a_weapon_linked_to_both_with_a_typ_is_typed_by_its_typ(tmp_path):
    conversion = odd(tmp_path, "community-shape.gst",
                     '<characteristic name="RNG" typeId="cs-ct-weapon-rng">1</characteristic>\n'
                     '            <characteristic name="POW" typeId="cs-ct-weapon-pow">4</characteristic>\n'
                     '          </characteristics>\n        </profile>\n      </profiles>\n      <infoLinks>\n'
                     '        <infoLink id="cs-w-hook-r0" name="Melee"',
                     '<characteristic name="RNG" typeId="cs-ct-weapon-rng">1</characteristic>\n'
                     '            <characteristic name="POW" typeId="cs-ct-weapon-pow">4</characteristic>\n'
                     '            <characteristic name="TYP" typeId="cs-ct-weapon-typ">Ranged</characteristic>\n'
                     '          </characteristics>\n        </profile>\n      </profiles>\n      <infoLinks>\n'
                     '        <infoLink id="cs-w-hook-rx" name="Ranged" hidden="false" targetId="cs-r-ranged" '
                     'type="rule" />\n        <infoLink id="cs-w-hook-r0" name="Melee"')
    assert weapon(conversion, "cs-w-hook")["type"] == "ranged"
    assert any("('Arc Hook', id cs-w-hook)" in w and "read as ranged (its TYP 'Ranged')" in w
               for w in conversion.warnings)


@pytest.mark.parametrize(("name", "file", "old", "new", "words", "who"), [
    ("link-to-nothing", "community-shape.gst", 'targetId="cs-w-quill"', 'targetId="cs-gone"',
     "links to entry 'cs-gone', which no file defines", "('Quill Pistol', id cs-hero-vela-l1)"),
    ("root-link-to-nothing", "drift-clans.cat", 'targetId="cs-hero-vela" type="selectionEntry" />',
     'targetId="cs-hero-gone" type="selectionEntry" />', "links to entry 'cs-hero-gone', which no file defines",
     "('Vela Quorn', id cs-root-vela)"),
    ("category-to-nothing", "drift-clans.cat", 'targetId="cs-units" primary="true"',
     'targetId="cs-gone" primary="true"', "links to category 'cs-gone', which no file defines",
     "id cs-jack-c)"),
    ("cost-type", "community-shape.gst", 'name="Weapon Points" defaultCostLimit', 'name="Glory" defaultCostLimit',
     "unknown cost type 'Glory'", "id cs-wp"),
    ("whole-number", "community-shape.gst", '<characteristic name="RNG" typeId="cs-ct-weapon-rng">8</characteristic>',
     '<characteristic name="RNG" typeId="cs-ct-weapon-rng">8.5</characteristic>', "RNG '8.5' is not a whole number",
     "id cs-w-quill-p"),
])
def test_each_odd_datum_is_a_warning_and_the_package_still_converts(tmp_path, name, file, old, new, words, who):
    conversion = odd(tmp_path, file, old, new)
    found = [w for w in conversion.warnings if words in w]
    assert found, conversion.warnings
    assert found[0].startswith(str(tmp_path / "data" / file) + ": /") and who in found[0]
    assert conversion.package["cards"]


def test_nothing_usable_is_refused(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "a.gst").write_text(f'<gameSystem xmlns="{bs_schema.NAMESPACES["gameSystem"]}" id="g" name="G" '
                                  'revision="1"/>', encoding="utf-8")
    (folder / "b.cat").write_text(f'<catalogue xmlns="{CAT_NS}" id="c" name="C" revision="1" gameSystemId="g"/>',
                                  encoding="utf-8")
    with pytest.raises(battlescribe.BattleScribeError, match="nothing usable could be read"):
        battlescribe.convert([folder])


@pytest.mark.django_db
def test_import_package_prints_the_warnings_and_the_not_read_kinds(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(PUBLISHED / "2.03", folder)
    out = StringIO()
    call_command("import_package", str(folder), stdout=out)
    text = out.getvalue()
    assert "warnings (2):" in text and "('Gear Ward', id cs-tinker-r2)" in text
    assert "not read, by kind" in text and "catalogueLinks (links between catalogues) ×1" in text


@pytest.mark.django_db
def test_the_import_service_returns_the_warnings():
    from cards.services import battlescribe_import

    report = battlescribe_import([PUBLISHED / "vnext"])
    assert report.imported.status == "loaded" and len(report.warnings) == 2
    assert report.warnings[0].endswith("written for revision 3 of the game system, not 2 (the one given): read as it "
                                       "is; links to rules the given revision lacks keep their names")
    assert "warnings (2)" in report.text()


# --- any document of the content model: the importer raises nothing but its documented error ---------------------


NAMES = ["Solo", "Squad", "Warjack", "Weapon", "Cypher", "Hero", "Melee", "Ranged", "Cortex", "Arm", "Hardpoints",
         "Furies", "SPD", "RNG", "POW", "TYP", "Suit", "Type", "CST", "DMG", "x", ""]
IDS = ["a", "b", "c", "cs-r-melee", "cs-r-ranged", "cs-wp", "cs-w-hook", "cs-cat-01"]


@st.composite
def documents(draw, kind: str = "Catalogue", depth: int = 0) -> ET.Element:
    spec = bs_schema.KINDS[kind]
    name = {"Catalogue": "catalogue"}.get(kind, "x")
    element = ET.Element(name)
    for attribute, simple, required in spec.attributes:
        if not required and not draw(st.booleans()):
            continue
        _base, allowed, _pattern = bs_schema.SIMPLE[simple]
        if allowed:
            value = draw(st.sampled_from(allowed))
        elif simple in ("decimal", "count", "positive"):
            value = str(draw(st.integers(1 if simple == "positive" else 0, 12)))
        elif simple == "boolean":
            value = draw(st.sampled_from(["true", "false"]))
        elif attribute in ("id", "targetId", "typeId", "childId", "field"):
            value = draw(st.sampled_from(IDS))
        else:
            value = draw(st.sampled_from(NAMES))
        element.set(attribute, value)
    if spec.text:
        element.text = draw(st.sampled_from(["1", "4", "-", "*", "Melee", "Fury", "Attack", "2.5"]))
        return element
    if depth >= 5:
        return element
    for child_name, child_kind in spec.children:
        if not draw(st.integers(0, 3)) == 0:
            continue
        if child_kind == "":
            child = ET.Element(child_name)
            child.text = draw(st.sampled_from(["Fury:\n\nPOW(3)", "text", ""]))
        else:
            child = draw(documents(child_kind, depth + 1))
            child.tag = child_name
        element.append(child)
    return element


def _qualify(element: ET.Element, namespace: str) -> ET.Element:
    for node in element.iter():
        node.tag = f"{{{namespace}}}{node.tag}"
    return element


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(documents())
def test_any_catalogue_of_the_content_model_converts_or_is_refused_with_the_documented_error(tmp_path_factory,
                                                                                             catalogue):
    catalogue.set("gameSystemId", "cs-gs-01")
    catalogue.set("id", "cs-cat-x")
    catalogue.set("name", "Random")
    raw = ET.tostring(_qualify(catalogue, CAT_NS))
    assert bs_schema.check(parse_xml(raw)) == "catalogue"  # built from the model: valid in any case
    folder = tmp_path_factory.mktemp("random")
    shutil.copy(COMMUNITY / "community-shape.gst", folder / "system.gst")
    (folder / "random.cat").write_bytes(raw)
    try:
        conversion = battlescribe.convert([folder])
    except battlescribe.BattleScribeError:
        return
    assert conversion.package["cards"]


def _kinds_of(root: ET.Element) -> list[tuple[ET.Element, str]]:
    """Every element of a parsed document with its model kind ("" for text only)."""
    found, todo = [], [(root, bs_schema.ROOTS[root.tag.split("}")[1]])]
    while todo:
        element, kind = todo.pop()
        found.append((element, kind))
        spec = bs_schema.KINDS.get(kind)
        if spec is not None:
            kinds = dict(spec.children)
            todo += [(child, kinds[child.tag.split("}")[1]]) for child in element]
    return found


SOURCE_CAT = (COMMUNITY / "drift-clans.cat").read_bytes()
SOURCE_GST = (COMMUNITY / "community-shape.gst").read_bytes()


@st.composite
def mutated(draw) -> tuple[bytes, bytes]:
    """The community-shape files with a few changes a data author could make within the published model: an element
    removed, a subtree of the model added where it is allowed, a characteristic's text or a link's target changed."""
    files = []
    for raw, namespace in ((SOURCE_GST, bs_schema.NAMESPACES["gameSystem"]), (SOURCE_CAT, CAT_NS)):
        root = ET.fromstring(raw)
        ids = sorted({e.get("id") for e in root.iter() if e.get("id")} | {"cs-gone"})
        for _ in range(draw(st.integers(0, 4))):
            elements = _kinds_of(root)
            element, kind = elements[draw(st.integers(0, len(elements) - 1))]
            action = draw(st.sampled_from(["remove", "add", "text", "target"]))
            if action == "remove" and element is not root:
                parent = next(p for p, _k in elements if element in list(p))
                parent.remove(element)
            elif action == "add" and kind and bs_schema.KINDS[kind].children:
                name, child_kind = draw(st.sampled_from(bs_schema.KINDS[kind].children))
                if child_kind and any(c.tag.split("}")[1] == name for c in element):
                    continue
                child = ET.Element(name) if not child_kind else draw(documents(child_kind, 3))
                child.tag = name
                element.append(_qualify(child, namespace))
            elif action == "text" and element.tag.endswith("}characteristic"):
                element.text = draw(st.sampled_from(["-", "*", "0", "99", "2.5", "Melee", "Fury", "", "+1"]))
            elif action == "target" and element.get("targetId") is not None:
                element.set("targetId", draw(st.sampled_from(ids)))
        files.append(ET.tostring(root))
    return files[0], files[1]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated())
def test_changes_within_the_published_model_convert_or_are_refused_with_the_documented_error(tmp_path_factory,
                                                                                              files):
    """Whatever an author changes within the model, the importer gives a package (with warnings) or a
    BattleScribeError naming the file — never another exception."""
    folder = tmp_path_factory.mktemp("mutated")
    (folder / "system.gst").write_bytes(files[0])
    (folder / "faction.cat").write_bytes(files[1])
    for raw in files:
        bs_schema.check(parse_xml(raw))  # still within the model
    try:
        conversion = battlescribe.convert([folder])
    except battlescribe.BattleScribeError as error:
        assert error.file.startswith(str(folder)) or error.file == str(folder / "system.gst")
        return
    assert conversion.package["cards"]


@pytest.mark.django_db
def test_a_card_outside_what_a_package_allows_is_left_out_with_a_warning_and_the_rest_imports(tmp_path):
    """A warjack with DEF 99 (the package schema's bound is 20): that card alone is left out, named by its entry."""
    from cards.services import battlescribe_convert

    folder = tmp_path / "data"
    shutil.copytree(COMMUNITY, folder)
    path = folder / "drift-clans.cat"
    text = path.read_text(encoding="utf-8")
    text = re.sub(r'(<characteristic name="DEF" typeId="cs-ct-warjack-def">)\d+<', r"\g<1>99<", text)
    path.write_text(text, encoding="utf-8")
    conversion = battlescribe_convert([folder])
    assert "BS-CS-JACK" not in {card["code"] for card in conversion.package["cards"]}
    line = next(w for w in conversion.warnings if "outside what a package allows" in w)
    assert line.startswith(f"{path}: /catalogue/") and "id cs-jack)" in line and "stats.def" in line
    out = StringIO()
    call_command("import_package", str(folder), stdout=out)
    assert "the card is left out" in out.getvalue()


def test_attributes_the_model_does_not_name_pass_the_import_check_not_the_strict_one():
    """Older and newer BattleScribe versions write a few more attributes (sortIndex, a categoryLink's type): the
    import ignores them; Hangar's own files must not carry them."""
    raw = (COMMUNITY / "drift-clans.cat").read_text(encoding="utf-8")
    root = parse_xml(raw.replace('primary="true"', 'primary="true" type="category" sortIndex="2"', 1).encode())
    assert bs_schema.check(root) == "catalogue"
    assert any("type" in line or "sortIndex" in line for line in bs_schema.strict_errors(root))


def test_a_roster_is_read_in_either_order_and_written_in_the_latest_exact_one():
    """A roster whose selections carry their categories before their costs (the other order a tool may write) reads
    as the same list; the roster Hangar writes passes the strict roster schema."""
    from builder.listio.jsonio import parse_list_json
    from builder.listio.roster import parse_roster
    from tests.builder.test_roster import catalog_for, iron_list, roster_text

    written = roster_text()
    assert bs_schema.strict_errors(parse_xml(written.encode())) == []
    root = ET.fromstring(written)
    swapped = 0
    for selection in root.iter(f"{{{bs_schema.NAMESPACES['roster']}}}selection"):
        names = [child.tag.split("}")[1] for child in selection]
        if "costs" in names and "categories" in names:
            costs = selection[names.index("costs")]
            selection.remove(costs)
            selection.append(costs)
            swapped += 1
    assert swapped
    reordered = ET.tostring(root)
    assert bs_schema.strict_errors(parse_xml(reordered))  # not the latest exact order...
    assert parse_roster(reordered, catalog_for) == parse_list_json(iron_list())  # ...and read all the same
