"""BattleScribe rosters through the commands, the API and the pages: `check_list` and
`simulate` take a .ros/.rosz, `export_list FILE --as ros|rosz|text|json [--out]` converts any accepted list file,
`GET /api/lists/{id}/export/?as=ros|rosz` downloads a roster (a list naming a card that is not loaded gets a clear
400 naming it; a list of any game names the data Hangar exports), the import API and page take .ros/.rosz, and the list page offers the download."""
from __future__ import annotations

import io
import json
import zipfile
from io import StringIO
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client

from builder.listio.roster import roster_schema
from builder.models import GameList

from .conftest import hagmi_doc

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[1] / "cards" / "fixtures" / "battlescribe"
SKIRMISH = "bs-warcaster-hangar-test-skirmish"
RACK = [{"card": f"BS-CY-{n:02d}", "qty": 1} for n in range(1, 13)]
IRON = {"schema": "hangar.list/1", "system": "warcaster", "format": SKIRMISH, "name": "Iron test",
        "sections": {"force": [{"card": "BS-ISA-HERO", "qty": 1}, {"card": "BS-ISA-SQUAD", "qty": 1},
                               {"card": "BS-ISA-JACK", "qty": 1,
                                "options": {"cortex": "BS-ISA-CORTEX1", "weapons": ["BS-ISA-ARM1", "BS-ISA-ARM2"]}}],
                     "rack": RACK}}


@pytest.fixture
def imported(catalogs):
    call_command("import_package", str(FIXTURES / "hangar-test.zip"), stdout=StringIO())


@pytest.fixture
def iron_file(tmp_path) -> Path:
    path = tmp_path / "iron.json"
    path.write_text(json.dumps(IRON), encoding="utf-8")
    return path


def export_file(source: Path, kind: str, out: Path) -> Path:
    call_command("export_list", str(source), "--as", kind, "--out", str(out), stderr=StringIO())
    return out


# --- commands ---------------------------------------------------------------------------------------------------


def test_export_list_converts_between_every_format_and_the_roster_checks_and_simulates(imported, iron_file, tmp_path):
    ros = export_file(iron_file, "ros", tmp_path / "iron.ros")
    roster_schema().validate(ET.fromstring(ros.read_bytes()))
    rosz = export_file(ros, "rosz", tmp_path / "iron.rosz")
    assert zipfile.ZipFile(rosz).namelist() == ["list.ros"]
    back = export_file(rosz, "json", tmp_path / "back.json")
    assert json.loads(back.read_text()) == IRON
    text = StringIO()
    call_command("export_list", str(rosz), "--as", "text", stdout=text)
    assert "[Force]" in text.getvalue() and "Cortex: Iron Star Alliance Cortex 1" in text.getvalue()
    out = StringIO()
    call_command("check_list", str(rosz), "--json", stdout=out)
    result = json.loads(out.getvalue())
    assert result["legal"] is True and result["format"] == SKIRMISH
    out = StringIO()
    call_command("simulate", str(ros), "--opponent", "bs-warcaster-hangar-test-goldfish", "--games", "4", "--seed",
                 "3", "--json", stdout=out)
    assert json.loads(out.getvalue())["games"] == 4


def test_a_roster_with_entries_the_data_lacks_is_refused_by_name_and_id(imported, iron_file, tmp_path):
    ros = export_file(iron_file, "ros", tmp_path / "iron.ros")
    ros.write_text(ros.read_text().replace('entryId="isa-squad"', 'entryId="isa-gone"'))
    with pytest.raises(CommandError) as refused:
        call_command("check_list", str(ros), stdout=StringIO())
    assert refused.value.returncode == 2
    assert "the entry 'Iron Star Alliance Troopers' (id isa-gone) is not in the loaded BattleScribe data" \
        in str(refused.value) and str(ros) in str(refused.value)


def test_export_list_refuses_a_list_naming_cards_that_are_not_loaded_naming_each_card(catalogs, tmp_path):
    sections = hagmi_doc()["sections"]
    sections["weapons"][0]["card"] = "HS-998"
    sections["tactics"][0]["card"] = "HS-999"
    sample = tmp_path / "hangar.json"
    sample.write_text(json.dumps({"schema": "hangar.list/1", "system": "hagmi", "format": None, "name": "",
                                  "sections": sections}), encoding="utf-8")
    with pytest.raises(CommandError, match=r"(?s)cannot be written as a BattleScribe roster:\n"
                                           r"  sections.weapons\[0\]: card HS-998 is not in the catalog\n"
                                           r"  sections.tactics\[0\]: card HS-999 is not in the catalog"):
        call_command("export_list", str(sample), "--as", "ros", stdout=StringIO())


def test_export_list_writes_a_rosz_to_a_file_or_a_pipe_only(imported, iron_file, tmp_path):
    with pytest.raises(CommandError, match="a .rosz is a zip file: give --out PATH"):
        call_command("export_list", str(iron_file), "--as", "rosz", stdout=StringIO())


# --- API --------------------------------------------------------------------------------------------------------


def test_api_export_as_ros_and_rosz(imported, create_list, owner_client):
    slug = create_list(IRON)["slug"]
    ros = owner_client.get(f"/api/lists/{slug}/export/?as=ros")
    assert ros.status_code == 200 and ros["Content-Type"] == "application/xml"
    assert ros["Content-Disposition"] == f'attachment; filename="iron-test-{slug}.ros"; filename*=UTF-8\'\'Iron%20test.ros'
    roster_schema().validate(ET.fromstring(ros.content))
    rosz = owner_client.get(f"/api/lists/{slug}/export/?as=rosz")
    assert rosz.status_code == 200 and rosz["Content-Type"] == "application/zip"
    assert zipfile.ZipFile(io.BytesIO(rosz.content)).read("list.ros") == ros.content


def test_api_export_of_a_list_of_any_game_is_a_roster_and_an_unknown_card_a_clear_400(catalogs, create_list,
                                                                                      owner_client):
    slug = create_list()["slug"]  # a HAGMI! list: a roster of the data Hangar exports (builder/listio/hangar_roster)
    response = owner_client.get(f"/api/lists/{slug}/export/?as=ros")
    assert response.status_code == 200
    roster_schema().validate(ET.fromstring(response.content))
    GameList.objects.get(slug=slug).entries.filter(position=0).update(card="HS-999")
    response = owner_client.get(f"/api/lists/{slug}/export/?as=ros")
    assert response.status_code == 400
    body = response.json()["error"]
    assert body["code"] == "list.not_exportable"
    assert body["issues"][0]["message"] == "sections.weapons[0]: card HS-999 is not in the catalog"
    bad = owner_client.get(f"/api/lists/{slug}/export/?as=pdf")
    assert bad.status_code == 400 and "json, text, ros, rosz" in bad.json()["error"]["message"]


def test_api_import_takes_a_rosz(imported, owner, owner_client, iron_file, tmp_path):
    rosz = export_file(iron_file, "rosz", tmp_path / "iron.rosz")
    response = owner_client.post("/api/lists/import/", {"file": SimpleUploadedFile("iron.rosz", rosz.read_bytes())},
                                 format="multipart")
    assert response.status_code == 201, response.content
    assert response.json()["document"] == IRON
    before = GameList.objects.count()
    broken = rosz.read_bytes().replace(b"PK", b"XX", 1)
    refused = owner_client.post("/api/lists/import/", {"file": SimpleUploadedFile("iron.rosz", broken)},
                                format="multipart")
    assert refused.status_code == 400 and "is not a zip file" in refused.json()["error"]["message"]
    assert GameList.objects.count() == before


# --- pages ------------------------------------------------------------------------------------------------------


def test_the_list_page_offers_the_battlescribe_download_when_every_card_is_loaded(imported, create_list, owner):
    client = Client()
    client.force_login(owner)
    iron = create_list(IRON, visibility="public")["slug"]
    page = client.get(f"/lists/{iron}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'href="/api/lists/{iron}/export/?as=rosz"' in page and "Download for BattleScribe / New Recruit" in page
    sample = create_list(IRON | {"format": None, "sections": {"force": [{"card": "WC-999", "qty": 1}], "rack": []}})
    page = client.get(f"/lists/{sample['slug']}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "export/?as=rosz" not in page and "names a card that is not loaded" in page
    hagmi = create_list()["slug"]  # every game's list downloads as a roster
    page = client.get(f"/lists/{hagmi}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'href="/api/lists/{hagmi}/export/?as=rosz"' in page and f'href="/api/lists/{hagmi}/export/?as=ros"' in page


def test_the_import_page_takes_a_roster_and_shows_its_problems_in_the_pages_language(imported, owner, iron_file,
                                                                                    tmp_path):
    client = Client()
    client.force_login(owner)
    rosz = export_file(iron_file, "rosz", tmp_path / "iron.rosz")
    response = client.post("/lists/import/", {"file": SimpleUploadedFile("iron.rosz", rosz.read_bytes()),
                                              "visibility": "private", "name": ""})
    assert response.status_code == 302
    assert GameList.objects.get(slug=response["Location"].split("/")[2]).name == "Iron test"
    ros = export_file(iron_file, "ros", tmp_path / "iron.ros")
    bad = ros.read_bytes().replace(b'entryId="isa-squad"', b'entryId="isa-gone"')
    client.cookies["django_language"] = "ja"
    page = client.post("/lists/import/", {"file": SimpleUploadedFile("iron.ros", bad), "visibility": "private",
                                          "name": ""})
    assert page.status_code == 400
    assert "「Iron Star Alliance Troopers」（id isa-gone）は読み込まれたBattleScribeデータにありません" \
        in page.content.decode()
