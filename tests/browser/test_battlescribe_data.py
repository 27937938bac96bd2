"""A player takes Hangar's data to BattleScribe / New Recruit: the package page's "BattleScribe data (.zip)" and a
HAGMI deck's "Download for BattleScribe / New Recruit", clicked with the real pointer at desktop and phone widths in
English and Japanese; the zip holds the game system and catalogue that import back to the package's cards, and the
roster names that data and reads back to the same list."""
from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from playwright.sync_api import expect

from builder import services
from builder.listio import parse_list_json, parse_roster
from builder.models import GameList
from rules_engine.formats import battlescribe
from rules_engine.formats.battlescribe import export as bx
from cards.selectors import catalog_for, package_document
from tests.browser.conftest import WIDTH_AND_LANGUAGE, WIDTH_AND_LANGUAGE_IDS, log_in, shoot
from tests.browser.test_editor import assert_nothing_covers_a_control
from tests.browser.test_rosters import no_sideways_scroll

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
DATA = {"en": "BattleScribe data (.zip)", "ja": "BattleScribe データ（.zip）"}
ROSTER = {"en": "Download for BattleScribe / New Recruit", "ja": "BattleScribe / New Recruit 用にダウンロード"}


@pytest.mark.parametrize("size, language", WIDTH_AND_LANGUAGE, ids=WIDTH_AND_LANGUAGE_IDS)
def test_the_package_page_downloads_its_battlescribe_data(site, new_page, tmp_path, size, language):
    page = new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    page.goto(f"{site}/catalog/warcaster/packages/core-sample/")
    link = page.get_by_role("link", name=DATA[language], exact=True)
    expect(link).to_be_visible()
    assert_nothing_covers_a_control(page, f"package page {size[0]} {language}")
    no_sideways_scroll(page, f"package page {size[0]} {language}")
    shoot(page, f"package-battlescribe-{size[0]}-{language}")
    with page.expect_download() as download:
        link.click()  # the real pointer
    assert download.value.suggested_filename == "hangar-warcaster-core-sample-battlescribe.zip"
    saved = tmp_path / "data.zip"
    download.value.save_as(str(saved))
    with zipfile.ZipFile(io.BytesIO(saved.read_bytes())) as archive:
        assert sorted(archive.namelist()) == ["hangar-warcaster-core-sample.cat", "hangar-warcaster.gst"]
    assert battlescribe.convert([saved]).package["cards"] == package_document("warcaster", "core-sample")["cards"]


@pytest.mark.parametrize("size, language", WIDTH_AND_LANGUAGE, ids=WIDTH_AND_LANGUAGE_IDS)
def test_a_hagmi_deck_downloads_as_a_roster_of_the_exported_data(site, new_page, make_user, tmp_path, size,
                                                                 language):
    owner = make_user("pilot")
    doc = parse_list_json(json.loads((ROOT / "cards/packages/hagmi/lists/akane-assault.json").read_text("utf-8")))
    game_list = services.list_create(owner=owner, document=doc, visibility="private")
    page = new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(page, site, "pilot")
    page.goto(f"{site}/lists/{game_list.slug}/")
    link = page.get_by_role("link", name=ROSTER[language], exact=True)
    expect(link).to_be_visible()
    expect(page.get_by_role("link", name="Roster file (.ros)" if language == "en" else "ロスターファイル（.ros）",
                            exact=True)).to_be_visible()
    assert_nothing_covers_a_control(page, f"list page {size[0]} {language}")
    no_sideways_scroll(page, f"list page {size[0]} {language}")
    shoot(page, f"list-roster-hagmi-{size[0]}-{language}")
    with page.expect_download() as download:
        link.click()
    saved = tmp_path / "deck.rosz"
    download.value.save_as(str(saved))
    raw = saved.read_bytes()
    xml = zipfile.ZipFile(io.BytesIO(raw)).read("list.ros")
    assert ET.fromstring(xml).get("gameSystemId") == bx.system_id("hagmi")
    assert parse_roster(raw, catalog_for, filename="deck.rosz") == parse_list_json(
        {**doc, "name": GameList.objects.get(pk=game_list.pk).name})
