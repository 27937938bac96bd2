"""`manage.py load_packages` (docs/design.md §2.4): every bundled package, idempotent, one line per package."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from cards import services
from cards.models import Card, DataPackage
from cards.services import bundled_package_files, packages_load_bundled

from .conftest import FIXTURES

pytestmark = pytest.mark.django_db


@pytest.fixture
def bundled(tmp_path, monkeypatch) -> Path:
    """A bundled-packages folder holding the fixture packages, plus a lists/ sub-folder that must be ignored."""
    root = tmp_path / "packages"
    for system, name in (("hagmi", "hagmi_core.json"), ("mwda", "mwda_core.json")):
        (root / system / "lists").mkdir(parents=True)
        shutil.copy(FIXTURES / name, root / system / name)
    (root / "hagmi" / "lists" / "sample.json").write_text('{"schema": "hangar.list/1"}', encoding="utf-8")
    monkeypatch.setattr(services, "BUNDLED_DIR", root)
    return root


def test_bundled_files_skip_the_lists_folders(bundled):
    assert [path.relative_to(bundled).as_posix() for path in bundled_package_files()] == [
        "hagmi/hagmi_core.json",
        "mwda/mwda_core.json",
    ]


def test_load_packages_twice_is_safe(bundled, capsys):
    call_command("load_packages")
    first = capsys.readouterr().out
    ids = list(Card.objects.values_list("pk", flat=True))

    call_command("load_packages")
    second = capsys.readouterr().out

    assert "hagmi/test-core 1: loaded (5 cards, 2 formats, 1 opponents)" in first
    assert "mwda/test-core 1: loaded (2 cards, 1 formats, 0 opponents)" in first
    assert second.count(": unchanged (") == 2
    assert list(Card.objects.values_list("pk", flat=True)) == ids


def test_load_packages_reports_a_changed_package_as_replaced(bundled, capsys):
    packages_load_bundled()
    path = bundled / "mwda" / "mwda_core.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["version"] = "2"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")

    call_command("load_packages")

    assert "mwda/test-core 2: replaced (2 cards" in capsys.readouterr().out
    assert DataPackage.objects.get(system__slug="mwda").version == "2"


def test_load_packages_fails_on_a_bad_package_naming_it(bundled):
    (bundled / "mwda" / "broken.json").write_text("{", encoding="utf-8")

    with pytest.raises(CommandError) as info:
        call_command("load_packages")

    assert "broken.json" in str(info.value) and "not valid JSON" in str(info.value)
    assert not Card.objects.filter(system__slug="mwda", package__slug="broken").exists()


def test_real_bundled_packages_load_twice():
    if not bundled_package_files():
        pytest.skip("cards/packages/<system>/ holds no bundled packages yet")

    first = packages_load_bundled()
    second = packages_load_bundled()

    assert {report.status for report in first} == {"loaded"}
    assert {report.status for report in second} == {"unchanged"}
    assert Card.objects.count() == sum(report.cards for report in first) > 0
