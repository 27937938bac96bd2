"""A Warcaster player brings a BattleScribe / New Recruit roster in through the import page and takes the list back
out with the list page's "Download for BattleScribe / New Recruit", with the real pointer at
desktop and phone widths, in English and Japanese: the downloaded roster reads back to the same list."""
from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from builder.listio import export_roster, parse_list_json, parse_roster
from builder.models import GameList
from cards.selectors import catalog_forget, catalog_for
from tests.browser.conftest import WIDTH_AND_LANGUAGE, WIDTH_AND_LANGUAGE_IDS, log_in, shoot
from tests.browser.test_editor import assert_nothing_covers_a_control

pytestmark = pytest.mark.django_db(transaction=True)

FIXTURES = Path(__file__).resolve().parents[1] / "cards" / "fixtures" / "battlescribe"
IMPORT = {"en": "Import", "ja": "インポート"}
DOWNLOAD = {"en": "Download for BattleScribe / New Recruit", "ja": "BattleScribe / New Recruit 用にダウンロード"}
IRON = {"schema": "hangar.list/1", "system": "warcaster", "format": "bs-warcaster-hangar-test-skirmish",
        "name": "Iron roster", "sections": {
            "force": [{"card": "BS-ISA-HERO", "qty": 1}, {"card": "BS-ISA-SOLO", "qty": 2},
                      {"card": "BS-ISA-JACK", "qty": 1,
                       "options": {"cortex": "BS-ISA-CORTEX2", "weapons": ["BS-ISA-ARM1", "BS-ISA-SHOULDER1"]}}],
            "rack": [{"card": f"BS-CY-{n:02d}", "qty": 1} for n in range(1, 13)]}}


def no_sideways_scroll(page, where: str) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"{where}: the page scrolls sideways by {wide} px"


@pytest.mark.parametrize("size, language", WIDTH_AND_LANGUAGE, ids=WIDTH_AND_LANGUAGE_IDS)
def test_a_roster_comes_in_through_the_import_page_and_goes_back_out(site, new_page, make_user, tmp_path, size,
                                                                      language):
    call_command("import_package", str(FIXTURES / "hangar-test.zip"), stdout=StringIO())
    catalog_forget()
    roster = tmp_path / "iron.rosz"
    roster.write_bytes(export_roster(parse_list_json(IRON), catalog_for("warcaster"), zipped=True))
    make_user("caster")
    page = new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(page, site, "caster")
    page.goto(f"{site}/lists/import/")
    page.set_input_files("input[type=file]", str(roster))
    assert_nothing_covers_a_control(page, f"import page {size[0]} {language}")
    no_sideways_scroll(page, f"import page {size[0]} {language}")
    page.get_by_role("button", name=IMPORT[language], exact=True).click()  # the real pointer
    page.wait_for_url("**/edit/")
    game_list = GameList.objects.get()
    assert game_list.name == "Iron roster"
    page.goto(f"{site}/lists/{game_list.slug}/")
    link = page.get_by_role("link", name=DOWNLOAD[language], exact=True)
    expect(link).to_be_visible()
    assert_nothing_covers_a_control(page, f"list page {size[0]} {language}")
    no_sideways_scroll(page, f"list page {size[0]} {language}")
    shoot(page, f"roster-list-{size[0]}-{language}")
    with page.expect_download() as download:
        link.click()
    saved = tmp_path / "downloaded.rosz"
    download.value.save_as(str(saved))
    assert download.value.suggested_filename.endswith(".rosz")
    assert parse_roster(saved.read_bytes(), catalog_for, filename="downloaded.rosz") == parse_list_json(IRON)
