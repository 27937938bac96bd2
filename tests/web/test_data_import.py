"""The staff data import page (builder/web/dataimport.py): BattleScribe data or a spreadsheet uploaded, previewed,
then imported on a confirm that imports exactly the previewed bytes; every refusal shown where it is, nothing written.

Re-importing newer BattleScribe data replaces the package, and a list that uses a changed or
removed card says which."""
from __future__ import annotations

import csv
import io
import re
import shutil
import zipfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from builder import selectors, services as list_services
from builder.web.dataimport import PENDING_KEY
from cards.models import Card, DataPackage, PackageVersion
from cards.services import battlescribe_import, sheet_export
from tests.cards.test_import_package import catalog_snapshot
from tests.web.conftest import logged_in

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[1] / "cards" / "fixtures" / "battlescribe"
FOLDER = FIXTURES / "folder"
ZIP = FIXTURES / "hangar-test.zip"
SLUG = "bs-warcaster-hangar-test"
HAGMI_HEADER = "code,name,category,frame,cost,pilot,types,firepower,armor,range,fuel_cost,targets,skills"
GOOD_ROW = ("HS-901,テスト機,unit,black,2,朱音,\"強襲, 近接\",2x2,3,1,1,single,"
            "kind=deal_damage trigger=on_attack amount=1 target=enemy_unit")


@pytest.fixture
def staff_client(staff) -> Client:
    return logged_in(staff)


def zip_upload(name: str = "hangar-test.zip", raw: bytes | None = None) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, ZIP.read_bytes() if raw is None else raw, content_type="application/zip")


def folder_zip(folder: Path) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in sorted(folder.iterdir()):
            archive.writestr(f"data/{path.name}", path.read_bytes())
    return buffer.getvalue()


def edited_folder(tmp_path: Path, *edits: tuple[str, str, str]) -> Path:
    """A copy of the fixture folder with (file, old, new) text replacements, each of which must apply."""
    folder = tmp_path / "data"
    shutil.copytree(FOLDER, folder)
    for name, old, new in edits:
        path = folder / name
        text = path.read_text(encoding="utf-8")
        assert old in text, old
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


def preview_battlescribe(client: Client, *files: SimpleUploadedFile, lang: str = "en"):
    return client.post("/data/import/", {"kind": "battlescribe", "bs-files": list(files)}, HTTP_ACCEPT_LANGUAGE=lang)


def confirm_fields(page: str) -> dict[str, str]:
    token = re.search(r'name="token" value="([^"]+)"', page).group(1)
    sha256 = re.search(r'name="sha256" value="([0-9a-f]{64})"', page).group(1)
    return {"token": token, "sha256": sha256}


def counts() -> tuple[int, int, int]:
    return DataPackage.objects.count(), Card.objects.count(), PackageVersion.objects.count()


# --- who may open it ----------------------------------------------------------------------------------------------


def test_anonymous_visitors_are_sent_to_sign_in_and_users_are_refused(client, owner_client):
    for path in ("/data/import/", "/data/import/confirm/"):
        response = client.post(path, {"kind": "battlescribe"}) if path.endswith("confirm/") else client.get(path)
        assert response.status_code == 302 and response["Location"].startswith(f"/accounts/login/?next={path}")
    page = owner_client.get("/data/import/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 403 and "Only staff can import catalogue data." in page.content.decode()
    before = counts()
    refused = owner_client.post("/data/import/", {"kind": "battlescribe", "bs-files": [zip_upload()]})
    assert refused.status_code == 403 and counts() == before
    japanese = owner_client.get("/data/import/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "カタログのデータを取り込めるのはスタッフだけです。" in japanese


def test_staff_see_both_forms_and_the_header_links_the_page_for_staff_only(staff_client, owner_client):
    page = staff_client.get("/data/import/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "BattleScribe data (Warcaster)" in page and "A spreadsheet of cards" in page
    assert 'name="bs-files"' in page and "multiple" in page and 'name="sheet-text"' in page
    assert 'href="/data/import/"' in page
    assert 'href="/data/import/"' not in owner_client.get("/").content.decode()
    japanese = staff_client.get("/data/import/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "カタログのデータを取り込む" in japanese and "表計算シートのカード" in japanese


def test_a_post_without_the_csrf_token_is_refused(staff):
    client = Client(enforce_csrf_checks=True)
    client.force_login(staff)
    response = client.post("/data/import/", {"kind": "battlescribe", "bs-files": [zip_upload()]})
    assert response.status_code == 403 and b"CSRF" in response.content


# --- BattleScribe: preview, confirm ---------------------------------------------------------------------------


def test_a_battlescribe_zip_is_previewed_without_writing_then_imported_on_confirm(staff_client):
    before = counts()
    response = preview_battlescribe(staff_client, zip_upload())
    page = response.content.decode()
    assert response.status_code == 200, page
    assert counts() == before  # the preview wrote nothing
    assert "Hero 2, Solo 2, Squad 2, Warjack 2, Vehicle 2, Mantlet 2" in page
    assert "Weapons: 10 fixed, 6 warjack weapons, 4 cortexes" in page
    assert "Cyphers: 12 (Fury 3, Geometric 3, Harmonic 3, Overdrive 3)" in page
    assert "Skirmish" in page and "Full Force" in page
    assert "Star League Captain" in page and "Inspiring, Ricochet" in page  # played only in part
    assert "A new package: 34 cards are added." in page
    fields = confirm_fields(page)
    assert staff_client.session[PENDING_KEY]["token"] == fields["token"]
    done = staff_client.post("/data/import/confirm/", fields, HTTP_ACCEPT_LANGUAGE="en")
    assert done.status_code == 302 and done["Location"] == f"/catalog/warcaster/packages/{SLUG}/"
    assert DataPackage.objects.get(slug=SLUG).version == "r3-5-2"
    assert Card.objects.get(code="BS-ISA-ARM1").data["bs_id"] == "isa-arm1"
    assert PackageVersion.objects.filter(slug=SLUG).count() == 1
    result = staff_client.get(done["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"Imported: the new package {SLUG}, version r3-5-2" in result
    assert PENDING_KEY not in staff_client.session
    again = staff_client.post("/data/import/confirm/", fields, HTTP_ACCEPT_LANGUAGE="en")  # the same token twice
    assert again.status_code == 409 and "no longer waiting to be imported" in again.content.decode()
    assert PackageVersion.objects.filter(slug=SLUG).count() == 1


def test_several_files_preview_as_the_zip_does_and_the_same_data_again_changes_nothing(staff_client):
    files = [SimpleUploadedFile(path.name, path.read_bytes()) for path in sorted(FOLDER.iterdir())]
    page = preview_battlescribe(staff_client, *files).content.decode()
    assert "Weapons: 10 fixed, 6 warjack weapons, 4 cortexes" in page
    staff_client.post("/data/import/confirm/", confirm_fields(page))
    zipped = [SimpleUploadedFile(path.name, path.read_bytes()) for path in sorted((FIXTURES / "zipped").iterdir())]
    again = preview_battlescribe(staff_client, *zipped).content.decode()
    assert "This is the content loaded now: importing it changes nothing." in again


def test_the_preview_speaks_japanese(staff_client):
    page = preview_battlescribe(staff_client, zip_upload(), lang="ja").content.decode()
    assert "取り込みのプレビュー" in page and "ヒーロー 2" in page and "変わること" in page
    assert "What would change" not in page and "Weapons:" not in page


def test_a_refused_file_is_shown_with_its_file_element_path_and_id_and_nothing_is_written(staff_client, tmp_path):
    folder = edited_folder(tmp_path, ("star-league.cat", 'name="Star League Skimmer" type="model"',
                                      'name="Star League Skimmer" type="walker"'))
    before = catalog_snapshot()
    response = preview_battlescribe(staff_client, zip_upload("broken.zip", folder_zip(folder)))
    page = response.content.decode()
    assert response.status_code == 400
    assert "Nothing was imported." in page
    assert "broken.zip!data/star-league.cat" in page
    assert "/catalogue/selectionEntries[1]/selectionEntry[3]" in page and "<code>sl-vehicle</code>" in page
    assert "not valid against the published BattleScribe catalogue schema" in page
    assert str(tmp_path) not in page and "hangar-upload-" not in page  # the server's folders are never shown
    assert catalog_snapshot() == before and PENDING_KEY not in staff_client.session
    japanese = preview_battlescribe(staff_client, zip_upload("broken.zip", folder_zip(folder)), lang="ja")
    assert "何も取り込んでいません" in japanese.content.decode()


def test_odd_data_is_previewed_with_its_warnings_naming_file_element_entry_and_id(staff_client, tmp_path):
    """One odd entry never refuses the package: the preview lists it under Warnings (ja/en) and the import goes
    ahead without it."""
    folder = edited_folder(tmp_path, ("star-league.cat", 'typeName="Vehicle"', 'typeName="Titan"'))
    response = preview_battlescribe(staff_client, zip_upload("odd.zip", folder_zip(folder)))
    page = response.content.decode()
    assert response.status_code == 200
    assert "<h3 id=\"import-warnings-title\">Warnings (1)</h3>" in page
    assert ("odd.zip!data/star-league.cat: /catalogue/selectionEntries[1]/selectionEntry[3] (&#x27;Star League "
            "Skimmer&#x27;, id sl-vehicle): unknown profile type &#x27;Titan&#x27;") in page
    assert str(tmp_path) not in page and "hangar-upload-" not in page
    japanese = preview_battlescribe(staff_client, zip_upload("odd.zip", folder_zip(folder)), lang="ja").content
    assert "警告 (1)" in japanese.decode() and "説明済みの規則" in japanese.decode()
    done = staff_client.post("/data/import/confirm/", confirm_fields(japanese.decode()), HTTP_ACCEPT_LANGUAGE="en")
    assert done.status_code == 302
    assert DataPackage.objects.filter(slug=SLUG).exists()
    assert not Card.objects.filter(code="BS-SL-VEHICLE").exists()


def test_files_that_are_not_battlescribe_data_are_refused_by_name(staff_client):
    page = preview_battlescribe(staff_client, SimpleUploadedFile("notes.txt", b"hello")).content.decode()
    assert "notes.txt" in page and "not a BattleScribe file" in page
    page = preview_battlescribe(staff_client, zip_upload("broken.zip", b"PK not a zip")).content.decode()
    assert "broken.zip" in page and "not a readable zip file" in page
    page = staff_client.post("/data/import/", {"kind": "battlescribe"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "This field is required." in page


def test_a_too_large_upload_gets_a_clear_message_not_an_error_page(staff_client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 4096
    before = counts()
    response = preview_battlescribe(staff_client, zip_upload())  # 6 KiB
    assert response.status_code == 413
    assert "this site accepts at most 4 KiB at a time" in response.content.decode()
    assert counts() == before and PENDING_KEY not in staff_client.session


# --- the confirm imports what was previewed, or nothing -----------------------------------------------------------


def test_an_unknown_or_stale_token_or_other_bytes_are_refused_and_nothing_is_written(staff_client, tmp_path):
    page = preview_battlescribe(staff_client, zip_upload()).content.decode()
    fields = confirm_fields(page)
    before = counts()
    unknown = staff_client.post("/data/import/confirm/", {**fields, "token": "made-up"}, HTTP_ACCEPT_LANGUAGE="en")
    assert unknown.status_code == 409 and "no longer waiting to be imported" in unknown.content.decode()
    other = staff_client.post("/data/import/confirm/", {**fields, "sha256": "0" * 64}, HTTP_ACCEPT_LANGUAGE="en")
    assert other.status_code == 409 and "not the ones previewed" in other.content.decode()
    assert counts() == before
    # a second preview replaces the first: the first token is stale
    first = confirm_fields(preview_battlescribe(staff_client, zip_upload()).content.decode())
    second = confirm_fields(preview_battlescribe(staff_client, zip_upload()).content.decode())
    stale = staff_client.post("/data/import/confirm/", first, HTTP_ACCEPT_LANGUAGE="ja")
    assert stale.status_code == 409 and "このプレビューはもう取り込み待ちではありません" in stale.content.decode()
    # the bytes kept in the session are checked against the previewed digest
    session = staff_client.session
    session[PENDING_KEY]["files"][0][1] = "UEsgbm90IHRoZSBzYW1l"
    session.save()
    swapped = staff_client.post("/data/import/confirm/", second, HTTP_ACCEPT_LANGUAGE="en")
    assert swapped.status_code == 409 and "not the ones previewed" in swapped.content.decode()
    assert counts() == before


def test_a_package_changed_since_the_preview_is_not_overwritten(staff_client, tmp_path):
    staff_client.post("/data/import/confirm/", confirm_fields(preview_battlescribe(staff_client, zip_upload())
                                                              .content.decode()))
    folder = edited_folder(tmp_path, ("star-league.cat", 'name="Star League Scout" type="model"',
                                      'name="Star League Pathfinder" type="model"'))
    fields = confirm_fields(preview_battlescribe(staff_client, zip_upload("new.zip", folder_zip(folder)))
                            .content.decode())
    other = edited_folder(tmp_path / "other", ("star-league.cat", 'name="Star League Scout" type="model"',
                                               'name="Star League Ranger" type="model"'))
    battlescribe_import([other])  # someone else imports meanwhile
    before = catalog_snapshot()
    response = staff_client.post("/data/import/confirm/", fields, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 409 and "The package changed since this preview" in response.content.decode()
    assert catalog_snapshot() == before


# --- spreadsheets ---------------------------------------------------------------------------------------------


def sheet_post(client: Client, *, text: str = "", file: SimpleUploadedFile | None = None, slug: str = "fan-set",
               system: str = "hagmi", lang: str = "en"):
    data = {"kind": "sheet", "sheet-system": system, "sheet-package": slug, "sheet-text": text}
    if file is not None:
        data["sheet-file"] = file
    return client.post("/data/import/", data, HTTP_ACCEPT_LANGUAGE=lang)


def test_a_csv_sheet_is_previewed_as_a_dry_run_then_imported(staff_client):
    raw = ("\n".join([HAGMI_HEADER, GOOD_ROW, GOOD_ROW.replace("HS-901", "HS-902")]) + "\n").encode("utf-8")
    before = counts()
    response = sheet_post(staff_client, file=SimpleUploadedFile("cards.csv", raw))
    page = response.content.decode()
    assert response.status_code == 200, page
    assert counts() == before
    assert "A new package: the sheet's cards become its cards." in page
    assert "Cards added 2, changed 0, removed 0, unchanged 0." in page and "HS-901" in page and "HS-902" in page
    done = staff_client.post("/data/import/confirm/", confirm_fields(page))
    assert done.status_code == 302 and done["Location"] == "/catalog/hagmi/packages/fan-set/"
    assert sorted(Card.objects.filter(package__slug="fan-set").values_list("code", flat=True)) == ["HS-901", "HS-902"]
    # pasted from a spreadsheet (tabs): one card changed (armor 3 -> 4), one removed, one added
    cells = next(csv.reader([GOOD_ROW]))
    changed = [*cells[:8], "4", *cells[9:]]
    tsv = "\n".join("\t".join(row) for row in (HAGMI_HEADER.split(","), changed, ["HS-903", *changed[1:]]))
    page = sheet_post(staff_client, text=tsv).content.decode()
    assert "Cards added 1, changed 1, removed 1, unchanged 0." in page, page
    assert re.search(r"HS-901</a>: Armor|HS-901</span>: Armor|HS-901: Armor", page) and "HS-902" in page
    assert "HS-903" in page and "Files: <code>the rows pasted</code>" in page
    staff_client.post("/data/import/confirm/", confirm_fields(page))
    assert Card.objects.get(code="HS-901").data["armor"] == 4
    assert not Card.objects.filter(code="HS-902").exists()


def test_every_bad_cell_is_a_row_of_the_table_and_nothing_is_written(staff_client):
    bad = GOOD_ROW.replace(",2x2,", ",2y2,").replace(",black,2,", ",black,two,")
    raw = ("\n".join([HAGMI_HEADER, bad, GOOD_ROW.replace("HS-901", "HS-902")]) + "\n").encode("utf-8")
    before = catalog_snapshot()
    response = sheet_post(staff_client, file=SimpleUploadedFile("cards.csv", raw))
    page = response.content.decode()
    assert response.status_code == 400 and catalog_snapshot() == before
    rows = re.findall(r"<tr>\s*<td data-label=\"Row\">(\d+)</td>\s*<td data-label=\"Column\">([A-Z]+)", page)
    assert rows == [("2", "E"), ("2", "H")]  # cost and firepower: every one, not the first
    assert "<code>2y2</code>" in page and "<code>two</code>" in page
    japanese = sheet_post(staff_client, file=SimpleUploadedFile("cards.csv", raw), lang="ja").content.decode()
    assert "行" in japanese and "列" in japanese and "期待されていたもの" in japanese


def test_a_sheet_needs_a_file_or_pasted_rows(staff_client):
    page = sheet_post(staff_client).content.decode()
    assert "Choose a file or paste the rows (one of the two)." in page


# --- newer BattleScribe data and the lists that use it --------------------------------------------


def test_reimporting_newer_battlescribe_data_names_the_changed_and_removed_cards_of_a_list(staff_client, staff,
                                                                                           tmp_path):
    """A list of two imported cards; newer data changes one card's stat (the Star League Captain's DEF 4 -> 5) and
    removes the other (the Star League Barricade): the preview, the list's page and its selector name both."""
    staff_client.post("/data/import/confirm/", confirm_fields(preview_battlescribe(staff_client, zip_upload())
                                                              .content.decode()))
    document = {"schema": "hangar.list/1", "system": "warcaster", "format": f"{SLUG}-skirmish", "name": "Two cards",
                "sections": {"force": [{"card": "BS-SL-HERO", "qty": 1}, {"card": "BS-SL-MANTLET", "qty": 1}],
                             "rack": []}}
    game_list = list_services.list_create(owner=staff, document=document, visibility="private")
    assert selectors.list_card_changes(game_list)["count"] == 0
    folder = edited_folder(
        tmp_path,
        ("star-league.cat", '<characteristic name="DEF" typeId="ct-def">4</characteristic>',
         '<characteristic name="DEF" typeId="ct-def">5</characteristic>'),
        ("hangar-test.gst", 'revision="3"', 'revision="4"'),
    )
    text = (folder / "star-league.cat").read_text(encoding="utf-8")
    start = text.index('    <selectionEntry id="sl-mantlet"')
    end = text.index("    </selectionEntry>\n", start) + len("    </selectionEntry>\n")
    (folder / "star-league.cat").write_text(text[:start] + text[end:], encoding="utf-8")
    page = preview_battlescribe(staff_client, zip_upload("newer.zip", folder_zip(folder))).content.decode()
    assert "cards added 0, changed 1, removed 1." in page, page
    assert re.search(r"Star League Captain</a> <span class=\"code\">BS-SL-HERO</span>: Stats", page)
    assert "Star League Barricade" in page
    done = staff_client.post("/data/import/confirm/", confirm_fields(page), HTTP_ACCEPT_LANGUAGE="en")
    assert done.status_code == 302
    assert DataPackage.objects.get(slug=SLUG).version.startswith("r4-")
    assert not Card.objects.filter(code="BS-SL-MANTLET").exists()
    assert Card.objects.get(code="BS-SL-HERO").data["stats"]["def"] == 5
    changes = selectors.list_card_changes(game_list)
    assert changes["changed"] == [{"card": "BS-SL-HERO", "fields": ["stats"]}]
    assert changes["removed"] == ["BS-SL-MANTLET"] and changes["count"] == 2
    list_page = staff_client.get(f"/lists/{game_list.slug}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "2 cards changed in the catalog since this list was saved" in list_page
    assert re.search(r"Star League Captain</span>.*?<small>BS-SL-HERO</small>: Stats", list_page, re.S)
    assert re.search(r"Star League Barricade</span>.*?<small>BS-SL-MANTLET</small>: no longer in the catalog",
                     list_page, re.S)


def test_an_xlsx_export_of_a_package_uploads_back_as_no_change(staff_client, catalog):
    raw = sheet_export("hagmi", "core", fmt="xlsx", lang="ja")
    response = sheet_post(staff_client, file=SimpleUploadedFile("core.xlsx", raw), slug="core")
    page = response.content.decode()
    assert response.status_code == 200, page
    assert "No card would change (77 cards unchanged)." in page
    versions = PackageVersion.objects.filter(slug="core").count()
    staff_client.post("/data/import/confirm/", confirm_fields(page))
    assert PackageVersion.objects.filter(slug="core").count() == versions  # the same content: no new version


# --- hostile files (docs/data-packages.md "Limits of a file") ------------------------------------------------------


def test_a_zip_bomb_and_a_shared_strings_bomb_are_refused_on_the_page_naming_the_limit(staff_client, tmp_path):
    """A zip of 19 MB members of zeros and a workbook of 2 million shared strings, both small enough to upload:
    each is refused on the page with the member and the limit it passed, nothing written, nothing pending."""
    from tests.support.hostile_files import strings_bomb, zip_bomb

    bomb = tmp_path / "bomb.zip"
    zip_bomb(bomb, members=2)
    before = catalog_snapshot()
    response = preview_battlescribe(staff_client, zip_upload("bomb.zip", bomb.read_bytes()))
    page = response.content.decode()
    assert response.status_code == 400
    assert "bomb.zip!faction-00.cat" in page and "compressed more than 200 to 1" in page
    sheet = sheet_post(staff_client, file=SimpleUploadedFile("strings.xlsx", strings_bomb()))
    assert sheet.status_code == 400
    assert "strings.xlsx!xl/sharedStrings.xml: more than 200000 shared strings (the limit)" in sheet.content.decode()
    assert catalog_snapshot() == before and PENDING_KEY not in staff_client.session


def test_hangars_own_battlescribe_export_of_another_game_uploads_back_as_no_change(staff_client, catalog):
    """The package page's "BattleScribe data (.zip)" of a HAGMI package, uploaded on this page, is that package:
    previewed as the content loaded now, and the confirm leads to the HAGMI package's page."""
    raw = staff_client.get("/catalog/hagmi/packages/core/battlescribe.zip").content
    page = preview_battlescribe(staff_client, zip_upload("hangar-hagmi-core-battlescribe.zip", raw)).content.decode()
    assert "This is the content loaded now: importing it changes nothing." in page
    done = staff_client.post("/data/import/confirm/", confirm_fields(page), HTTP_ACCEPT_LANGUAGE="en")
    assert done.status_code == 302 and done["Location"] == "/catalog/hagmi/packages/core/"
    assert PackageVersion.objects.filter(system__slug="hagmi", slug="core").count() == 1
    page = preview_battlescribe(staff_client, zip_upload("again.zip", raw), lang="ja").content.decode()
    assert "カード: 77 枚" in page and "ヒーロー" not in page  # the card count, not Warcaster's models
