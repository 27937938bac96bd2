"""Fixtures for the catalog tests: small original packages and the JSON Schemas they are checked against.

The real schemas (cards/schemas/<system>.schema.json) are used when present, so the fixture packages also prove
that packages written from docs/card-fields.md pass them; a system whose schema is not written yet falls back
to the small fixture schema in tests/cards/fixtures/schemas/.
"""
from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest

from cards.package_validation import DEFAULT_SCHEMA_DIR
from cards.systems import SYSTEMS

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(autouse=True)
def schema_dir(settings, tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("schemas")
    for system in SYSTEMS:
        name = f"{system}.schema.json"
        real = DEFAULT_SCHEMA_DIR / name
        shutil.copy(real if real.exists() else FIXTURES / "schemas" / name, directory / name)
    settings.HANGAR_SCHEMA_DIR = str(directory)
    return directory


def load_fixture(name: str) -> dict:
    return copy.deepcopy(json.loads((FIXTURES / name).read_text(encoding="utf-8")))


@pytest.fixture
def hagmi_package() -> dict:
    return load_fixture("hagmi_core.json")


@pytest.fixture
def mwda_package() -> dict:
    return load_fixture("mwda_core.json")


@pytest.fixture
def write_package(tmp_path):
    """Write a package dict (or raw text) to a file and return its path."""

    def write(data: dict | str, name: str = "package.json") -> Path:
        path = tmp_path / name
        text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False, indent=2)
        path.write_text(text, encoding="utf-8")
        return path

    return write
