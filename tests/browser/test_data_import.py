"""The staff data import page in a browser: a staff member uploads a file that is
not BattleScribe data and sees the refusal, then the BattleScribe fixture zip, sees the preview, confirms with the
real pointer and lands on the package's page with what the import did. At 1280 and 390 px, in English and
Japanese: nothing covers a control and no page scrolls sideways (HANGAR_SCREENSHOTS=/folder keeps a picture of
each step)."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from cards.models import Card, DataPackage
from tests.browser.conftest import WIDTH_AND_LANGUAGE, WIDTH_AND_LANGUAGE_IDS, log_in, shoot
from tests.browser.test_editor import assert_nothing_covers_a_control

pytestmark = pytest.mark.django_db(transaction=True)

ZIP = Path(__file__).resolve().parents[1] / "cards" / "fixtures" / "battlescribe" / "hangar-test.zip"
SLUG = "bs-warcaster-hangar-test"
WORDS = {
    "en": {"preview": "Preview", "import": "Import", "refused": "Nothing was imported.",
           "title": "Preview the import", "done": f"Imported: the new package {SLUG}, version r3-5-2",
           "header": "Import data"},
    "ja": {"preview": "プレビュー", "import": "取り込む", "refused": "何も取り込んでいません。",
           "title": "取り込みのプレビュー", "done": f"取り込みました。新しいパッケージ {SLUG}、バージョン r3-5-2",
           "header": "データ取り込み"},
}


@pytest.mark.parametrize("size, language", WIDTH_AND_LANGUAGE, ids=WIDTH_AND_LANGUAGE_IDS)
def test_staff_upload_battlescribe_data_preview_and_confirm(site, new_page, make_user, size, language, tmp_path):
    staff = make_user("curator")
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    words = WORDS[language]
    page = new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(page, site, "curator")
    if size[0] >= 1000:  # the header links the page for staff (on a phone the header wraps; the link is there too)
        page.get_by_role("link", name=words["header"], exact=True).click()
    else:
        page.goto(f"{site}/data/import/")
    expect(page).to_have_url(f"{site}/data/import/")
    assert_nothing_covers_a_control(page, f"data import form {size[0]} {language}")
    shoot(page, f"data-import-form-{size[0]}-{language}")
    battlescribe = page.locator("form").filter(has=page.locator("input[name=bs-files]"))
    not_data = tmp_path / "notes.txt"
    not_data.write_text("not BattleScribe data", encoding="utf-8")
    battlescribe.locator("input[name=bs-files]").set_input_files(str(not_data))
    battlescribe.get_by_role("button", name=words["preview"], exact=True).click()
    expect(page.locator("#import-problems")).to_contain_text(words["refused"])
    expect(page.locator("#import-problems")).to_contain_text("notes.txt")
    assert_nothing_covers_a_control(page, f"data import refusal {size[0]} {language}")
    shoot(page, f"data-import-error-{size[0]}-{language}")
    assert DataPackage.objects.filter(slug=SLUG).count() == 0
    battlescribe = page.locator("form").filter(has=page.locator("input[name=bs-files]"))
    battlescribe.locator("input[name=bs-files]").set_input_files(str(ZIP))
    battlescribe.get_by_role("button", name=words["preview"], exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(words["title"])
    expect(page.locator("ul.report")).to_contain_text("2")
    assert_nothing_covers_a_control(page, f"data import preview {size[0]} {language}")
    shoot(page, f"data-import-preview-{size[0]}-{language}")
    assert DataPackage.objects.filter(slug=SLUG).count() == 0  # the preview wrote nothing
    page.get_by_role("button", name=words["import"], exact=True).click()
    expect(page).to_have_url(f"{site}/catalog/warcaster/packages/{SLUG}/")
    expect(page.locator("ul.messages")).to_contain_text(words["done"])
    assert_nothing_covers_a_control(page, f"data import result {size[0]} {language}")
    shoot(page, f"data-import-result-{size[0]}-{language}")
    assert Card.objects.filter(package__slug=SLUG).count() == DataPackage.objects.get(slug=SLUG).cards.count() > 30


PUBLISHED_203 = ZIP.parent / "published-model" / "2.03"
WARNINGS = {"en": "Warnings (2)", "ja": "警告 (2)"}


@pytest.mark.parametrize("size, language", WIDTH_AND_LANGUAGE, ids=WIDTH_AND_LANGUAGE_IDS)
def test_odd_data_previews_with_its_warnings_and_imports(site, new_page, make_user, size, language):
    """Files written from the published content model (2.03 order), one catalogue for another game-system revision
    linking a rule no file defines: the preview lists both warnings, each naming the file, element, entry and id,
    wrapped inside the page; the import goes ahead."""
    staff = make_user("curator")
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    page = new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(page, site, "curator")
    page.goto(f"{site}/data/import/")
    battlescribe = page.locator("form").filter(has=page.locator("input[name=bs-files]"))
    battlescribe.locator("input[name=bs-files]").set_input_files(
        [str(path) for path in sorted(PUBLISHED_203.iterdir())])
    battlescribe.get_by_role("button", name=WORDS[language]["preview"], exact=True).click()
    warnings = page.locator("section.import-warnings")
    expect(warnings.get_by_role("heading", level=3)).to_have_text(WARNINGS[language])
    expect(warnings.locator("li")).to_have_count(2)
    expect(warnings.locator("li").nth(1)).to_contain_text("('Gear Ward', id cs-tinker-r2)")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert_nothing_covers_a_control(page, f"data import warnings {size[0]} {language}")
    warnings.scroll_into_view_if_needed()
    shoot(page, f"data-import-warnings-{size[0]}-{language}")
    page.get_by_role("button", name=WORDS[language]["import"], exact=True).click()
    expect(page).to_have_url(f"{site}/catalog/warcaster/packages/bs-hangar-community-shape/")
