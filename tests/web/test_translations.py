"""The Japanese catalog is complete: every string the code and templates mark for translation has a
Japanese translation in locale/ja, none is fuzzy, and the compiled catalog (.mo, which the site reads) says what
the .po says. A new `gettext("...")` without its Japanese fails here, in CI, not on a player's page.

The strings are extracted exactly as a translator would (`manage.py makemessages -l ja`), on a copy of the source
tree so that the repository's catalog is never touched; makemessages merges the existing translations, so what it
leaves untranslated or fuzzy is what is missing.
"""
from __future__ import annotations

import gettext
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

ROOT = Path(settings.BASE_DIR)
PO = ROOT / "locale" / "ja" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")
SOURCES = ("builder", "cards", "hangar", "rules_engine", "templates")  # the UI's strings; a game's own words are in
# its package (rules_engine/<game>/: report.py, positionwords.py, cardtext.py, vocabulary.py, through core/words.py)


def _entries(po: Path, *flags: str) -> list[str]:
    """The msgids msgattrib selects with `flags` (never the header, never obsolete entries)."""
    out = subprocess.run(["msgattrib", *flags, "--no-obsolete", "--no-wrap", str(po)], check=True,
                         capture_output=True, text=True).stdout
    ids = []
    context = ""
    for line in out.splitlines():
        if line.startswith("msgctxt "):
            context = line[len("msgctxt "):].strip('"') + " | "
        elif line.startswith("msgid ") and line != 'msgid ""':
            ids.append(context + line[len("msgid "):].strip('"'))
            context = ""
        elif line.startswith("msgid "):
            context = ""
    return ids


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> Path:
    """locale/ja's .po after makemessages over a copy of the sources (the copy's own locale/)."""
    copy = tmp_path_factory.mktemp("i18n")
    for name in SOURCES:
        shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so"))
    target = copy / "locale" / "ja" / "LC_MESSAGES"
    target.mkdir(parents=True)
    shutil.copy(PO, target / "django.po")
    old = Path.cwd()
    try:
        with override_settings(LOCALE_PATHS=[copy / "locale"]):
            os.chdir(copy)
            call_command("makemessages", locale=["ja"], verbosity=0, no_obsolete=True)
    finally:
        os.chdir(old)
    return target / "django.po"


def test_every_string_of_the_ui_has_its_japanese(extracted):
    missing = _entries(extracted, "--untranslated")
    assert not missing, (f"{len(missing)} strings have no Japanese in locale/ja (run makemessages -l ja and "
                         "translate them):\n" + "\n".join(missing))


def test_no_japanese_translation_is_fuzzy(extracted):
    fuzzy = _entries(extracted, "--only-fuzzy")
    assert not fuzzy, "fuzzy (unchecked) translations in locale/ja:\n" + "\n".join(fuzzy)


def test_the_committed_catalog_has_no_fuzzy_or_empty_entry():
    """The repository's own .po: what the site ships (makemessages above may add entries; this one must not lack)."""
    assert not _entries(PO, "--only-fuzzy") and not _entries(PO, "--untranslated")


def test_the_compiled_catalog_is_the_po(tmp_path):
    """locale/ja's .mo (what Django reads) holds exactly the translations of the .po: compile after each change."""
    fresh = tmp_path / "django.mo"
    subprocess.run(["msgfmt", "--check-format", "-o", str(fresh), str(PO)], check=True)
    with MO.open("rb") as committed, fresh.open("rb") as compiled:
        assert gettext.GNUTranslations(committed)._catalog == gettext.GNUTranslations(compiled)._catalog
