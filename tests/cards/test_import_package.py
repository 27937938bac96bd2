"""Package import (docs/design.md §2.1, §2.4): check everything first, then write in one transaction."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from cards import package_validation
from cards.models import Card, DataPackage, Format, GameSystem, Opponent, PackageVersion
from cards.services import PackageError, package_import, package_import_file

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def catalog_snapshot() -> dict:
    """Everything an import may touch, to prove a refused package changed nothing."""
    return {
        "systems": list(GameSystem.objects.values_list("slug", flat=True)),
        "packages": list(DataPackage.objects.values_list("slug", "version", "sha256")),
        "cards": list(Card.objects.order_by("code").values_list("code", "name", "data")),
        "formats": list(Format.objects.values_list("slug", "is_default")),
        "opponents": list(Opponent.objects.values_list("slug", flat=True)),
        "versions": list(PackageVersion.objects.values_list("slug", "number", "sha256")),
    }


def refused(data, **kwargs) -> list[str]:
    with pytest.raises(PackageError) as info:
        package_import(data, **kwargs)
    return info.value.errors


# --- a good package ------------------------------------------------------------------------------------------


def test_good_package_is_loaded_with_indexed_columns(hagmi_package):
    report = package_import(hagmi_package, source="fixtures/hagmi_core.json")

    assert (report.status, report.cards, report.formats, report.opponents) == ("loaded", 5, 2, 1)
    system = GameSystem.objects.get(slug="hagmi")
    assert system.sections == ["weapons", "tactics", "damage", "secret"]
    unit = Card.objects.get(system=system, code="HT-002")
    assert (unit.name, unit.name_en, unit.category, unit.cost) == ("鋼鉄の双牙", "Steel Twin Fang", "unit", 4)
    assert unit.data["firepower"] == "2x2"
    assert "steel twin fang" in unit.search_text and "鋼鉄の双牙" in unit.search_text and "ht-002" in unit.search_text
    assert Card.objects.get(code="HT-004").cost is None  # damage cards have no cost
    assert list(Format.objects.filter(is_default=True).values_list("slug", flat=True)) == ["tactics-v4"]
    assert Opponent.objects.get(slug="goldfish").data["kind"] == "goldfish"
    assert DataPackage.objects.get(slug="test-core").source == "fixtures/hagmi_core.json"


def test_mwda_kind_points_and_faction_fill_the_columns(mwda_package):
    package_import(mwda_package)

    hq = Card.objects.get(system__slug="mwda", code="MT-002")
    assert (hq.category, hq.cost, hq.faction) == ("vehicle", 40, "steel-wolves")


def test_same_package_slug_in_two_systems_is_two_packages(hagmi_package, mwda_package):
    package_import(hagmi_package)
    package_import(mwda_package)

    assert DataPackage.objects.filter(slug="test-core").count() == 2


# --- a bad package is refused whole --------------------------------------------------------------------------


def test_bad_second_card_of_three_refuses_the_whole_package_naming_card_and_field(hagmi_package):
    hagmi_package["cards"] = hagmi_package["cards"][:3]
    hagmi_package["cards"][1]["firepower"] = "2y2"
    before = catalog_snapshot()

    errors = refused(hagmi_package)

    assert any(
        error.startswith('card HT-002, field "firepower": "2y2" does not match ^[0-9]+(x[0-9]+)?$') for error in errors
    ), errors
    assert catalog_snapshot() == before
    assert not Card.objects.exists() and not GameSystem.objects.exists()


def test_a_package_that_passed_the_schema_once_is_checked_again_when_it_changes(hagmi_package, monkeypatch):
    """The schema walk of a package that passed is kept by its content (every load_packages imports the same
    bundled files): the same package again skips it, but the same dict changed in place is walked again and
    refused, naming the card and field."""
    package_import(hagmi_package)
    walks = []
    iter_errors = package_validation.PackageValidator.iter_errors
    monkeypatch.setattr(package_validation.PackageValidator, "iter_errors",
                        lambda self, data: walks.append(1) or iter_errors(self, data))
    package_import(hagmi_package)
    assert walks == []
    hagmi_package["cards"][1]["firepower"] = "2y2"
    errors = refused(hagmi_package)
    assert walks and any(error.startswith('card HT-002, field "firepower"') for error in errors), errors


def test_all_errors_are_collected_not_only_the_first(hagmi_package):
    hagmi_package["cards"][0]["cost"] = "two"
    hagmi_package["cards"][4]["durability"] = 0

    errors = refused(hagmi_package)

    assert any(error.startswith('card HT-001, field "cost": expected integer') for error in errors), errors
    assert any(error.startswith('card HT-005, field "durability"') for error in errors), errors


def test_missing_required_field_names_the_card_and_the_field(hagmi_package):
    del hagmi_package["cards"][0]["armor"]

    errors = refused(hagmi_package)

    assert any("card HT-001" in error and '"armor"' in error for error in errors), errors


def test_card_without_code_is_named_by_position(hagmi_package):
    del hagmi_package["cards"][2]["code"]

    errors = refused(hagmi_package)

    assert any(error.startswith("card #3") and '"code"' in error for error in errors), errors


def test_reimport_with_a_bad_version_keeps_the_old_version(hagmi_package):
    package_import(hagmi_package)
    before = catalog_snapshot()
    hagmi_package["version"] = "2"
    hagmi_package["cards"][0]["armor"] = -1

    errors = refused(hagmi_package)

    assert any(error.startswith('card HT-001, field "armor"') for error in errors), errors
    assert catalog_snapshot() == before
    assert DataPackage.objects.get(slug="test-core").version == "1"


def test_duplicate_codes_in_one_package_are_refused(hagmi_package):
    hagmi_package["cards"][4]["code"] = "HT-001"

    errors = refused(hagmi_package)

    assert "card HT-001: code used 2 times in this package" in errors
    assert not Card.objects.exists()


def test_code_already_used_by_another_package_of_the_system_is_refused(hagmi_package):
    package_import(hagmi_package)
    other = dict(hagmi_package, slug="test-expansion", formats=[], opponents=[], cards=[hagmi_package["cards"][3]])
    before = catalog_snapshot()

    errors = refused(other)

    assert errors == ["card HT-004: code already used by package 'test-core' of hagmi"]
    assert catalog_snapshot() == before


def test_duplicate_format_slug_and_two_defaults_in_one_package_are_refused(hagmi_package):
    hagmi_package["formats"][1]["slug"] = "tactics-v4"
    hagmi_package["formats"][1]["default"] = True

    errors = refused(hagmi_package)

    assert "format tactics-v4: slug used 2 times in this package" in errors
    assert any("only one format may be the default" in error for error in errors), errors


def test_second_default_format_in_the_system_is_refused(hagmi_package):
    package_import(hagmi_package)
    fmt = dict(hagmi_package["formats"][0], slug="tactics-open")
    other = dict(hagmi_package, slug="test-expansion", cards=[], opponents=[], formats=[fmt])

    errors = refused(other)

    assert any(
        "format tactics-open: cannot be the default format" in error and "'tactics-v4'" in error for error in errors
    ), errors


def test_format_slug_of_another_package_is_refused(hagmi_package):
    package_import(hagmi_package)
    other = dict(hagmi_package, slug="test-expansion", cards=[], opponents=[], formats=[hagmi_package["formats"][1]])

    assert refused(other) == ["format tactics-v3: slug already used by package 'test-core' of hagmi"]


# --- re-import -----------------------------------------------------------------------------------------------


def test_unchanged_reimport_is_a_no_op(hagmi_package):
    package_import(hagmi_package)
    ids = list(Card.objects.values_list("pk", flat=True))
    reordered = json.loads(json.dumps(hagmi_package, indent=4, sort_keys=True))  # same content, other layout

    report = package_import(reordered)

    assert report.status == "unchanged"
    assert list(Card.objects.values_list("pk", flat=True)) == ids


def test_reimport_replaces_the_package_cards_and_frees_removed_codes(hagmi_package):
    package_import(hagmi_package)
    hagmi_package["version"] = "2"
    removed = hagmi_package["cards"].pop()  # HT-005 leaves the package
    hagmi_package["cards"].append(dict(removed, code="HT-006", name="荷電粒子装甲", name_en="Charged Particle Armor"))
    hagmi_package["cards"][0]["armor"] = 4

    report = package_import(hagmi_package)

    assert report.status == "replaced"
    codes = set(Card.objects.values_list("code", flat=True))
    assert codes == {"HT-001", "HT-002", "HT-003", "HT-004", "HT-006"}
    assert Card.objects.get(code="HT-001").data["armor"] == 4
    assert DataPackage.objects.get().version == "2"
    # A list naming HT-005 keeps its entry (lists hold code strings); the code is simply unknown now.
    assert not Card.objects.filter(code="HT-005").exists()


# --- envelope and file errors --------------------------------------------------------------------------------


def test_not_json_names_file_line_and_column(write_package):
    path = write_package('{\n  "schema": "hangar.package/1",\n  "system": "hagmi"\n  "slug": "x"\n}')

    with pytest.raises(PackageError) as info:
        package_import_file(path)

    assert info.value.source == str(path)
    assert info.value.errors == ["not valid JSON: Expecting ',' delimiter at line 4, column 3"]
    assert str(path) in str(info.value)


def test_package_must_be_an_object():
    assert refused([1, 2]) == ["a data package must be a JSON object, got array"]


def test_wrong_schema_string_is_refused(hagmi_package):
    hagmi_package["schema"] = "hangar.list/1"

    assert refused(hagmi_package) == ['field "schema": expected "hangar.package/1", got "hangar.list/1"']


def test_unknown_system_is_refused(hagmi_package):
    hagmi_package["system"] = "battletech"

    errors = refused(hagmi_package)

    assert errors == ['field "system": unknown game system "battletech"; expected one of hagmi, mwda, warcaster']
    assert not GameSystem.objects.exists()


def test_file_too_large_is_refused_before_reading(hagmi_package, write_package, monkeypatch):
    path = write_package(hagmi_package)
    monkeypatch.setattr(package_validation, "MAX_PACKAGE_BYTES", 100)

    with pytest.raises(PackageError) as info:
        package_import_file(path)

    assert "a data package may be at most 100 bytes" in info.value.errors[0]
    assert not Card.objects.exists()


def test_missing_schema_file_refuses_instead_of_skipping_validation(hagmi_package, schema_dir):
    (schema_dir / "hagmi.schema.json").unlink()

    errors = refused(hagmi_package)

    assert len(errors) == 1 and "JSON Schema for system 'hagmi' is missing" in errors[0]
    assert not Card.objects.exists()


def test_schema_dir_argument_overrides_the_setting(hagmi_package, tmp_path):
    errors = refused(hagmi_package, schema_dir=tmp_path)  # an empty folder: no schema there

    assert str(tmp_path) in errors[0]


def test_errors_are_capped(hagmi_package):
    hagmi_package["cards"] = [dict(hagmi_package["cards"][0], code=f"HT-{i:03d}", armor=-1) for i in range(80)]

    errors = refused(hagmi_package)

    assert len(errors) == package_validation.MAX_ERRORS + 1
    assert errors[-1] == "... and 30 more errors"


def test_overlong_name_is_refused_with_the_limit(hagmi_package):
    hagmi_package["cards"][0]["name"] = "長" * 201

    assert refused(hagmi_package) == ['card HT-001, field "name": at most 200 characters allowed, got 201']


# --- import_package command ----------------------------------------------------------------------------------


def test_import_package_command_prints_the_report(hagmi_package, write_package, capsys):
    call_command("import_package", str(write_package(hagmi_package)))

    assert "hagmi/test-core 1: loaded (5 cards, 2 formats, 1 opponents)" in capsys.readouterr().out


def test_import_package_command_exits_non_zero_with_errors_on_stderr(hagmi_package, write_package, schema_dir):
    """The real `manage.py` process: exit status 1, the file and each error on stderr, no traceback."""
    hagmi_package["cards"][1]["firepower"] = "2y2"
    hagmi_package["cards"][2]["cost"] = -1
    path = write_package(hagmi_package, "bad.json")
    env = {**os.environ, "HANGAR_INSECURE_DEV_KEY": "1", "HANGAR_SCHEMA_DIR": str(schema_dir)}

    result = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "import_package", str(path)],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=120,
    )

    assert result.returncode == 1
    assert str(path) in result.stderr
    assert 'card HT-002, field "firepower": "2y2" does not match' in result.stderr
    assert 'card HT-003, field "cost"' in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_import_package_command_on_missing_file(tmp_path):
    with pytest.raises(CommandError, match="cannot read the file"):
        call_command("import_package", str(tmp_path / "nope.json"))


# --- the engine's own card readers (a skill is defined once, by the engine that plays it) ----------


def test_the_importer_runs_the_engines_own_card_reader(hagmi_package, monkeypatch):
    """A card the JSON Schema accepts but the engine could not play is refused, naming the card and field, and
    nothing is written: the importer asks the registry's `check_card` (here made to refuse one card)."""
    from types import SimpleNamespace

    from rules_engine.core.catalog import CardDataError

    before = catalog_snapshot()
    victim = hagmi_package["cards"][1]["code"]

    def check_card(card):
        if card["code"] == victim:
            raise CardDataError(victim, "skills[0].amount", "required by skill kind 'deal_damage'")

    monkeypatch.setattr(package_validation, "game_system", lambda slug: SimpleNamespace(check_card=check_card))
    assert refused(hagmi_package) == [f'card {victim}, field "skills[0].amount": required by skill kind \'deal_damage\'']
    assert catalog_snapshot() == before


def test_the_hagmi_schema_and_engine_know_the_same_skills():
    """The skill vocabulary is the engine's (rules_engine/hagmi/skills.py REGISTRY): the package schema's kinds,
    parameters, triggers and condition keys say the same, so neither accepts what the other refuses."""
    from rules_engine.hagmi import skills

    schema = json.loads((ROOT / "cards" / "schemas" / "hagmi.schema.json").read_text(encoding="utf-8"))["$defs"]
    assert set(schema["skill_kind"]["enum"]) == set(skills.REGISTRY)
    for kind, spec in skills.REGISTRY.items():
        shape = schema[f"kind_{kind}"]
        assert set(shape["properties"]) - skills.COMMON == set(spec.required) | set(spec.optional), kind
        assert set(shape.get("required", ())) - {"kind"} == set(spec.required), kind
    assert set(schema["trigger"]["enum"]) == set(skills.TRIGGERS)
    assert set(schema["condition"]["properties"]) == set(skills.CONDITION_KEYS)


def test_every_bundled_package_passes_its_engines_reader():
    """What the site ships, each card read by its engine (so the check above refuses nothing real)."""
    for path in sorted((ROOT / "cards" / "packages").glob("*/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert package_validation.check_engine_cards(data) == [], path
