"""The page of a data package: its versions, newest first, each downloadable as JSON, and what changed
between two (the cards added, changed with the fields in words, and removed), in Japanese and English."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from cards.services import package_import

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
URL = "/catalog/hagmi/packages/core/"


@pytest.fixture
def two_versions(catalog):
    data = json.loads((ROOT / "cards" / "packages" / "hagmi" / "core.json").read_text(encoding="utf-8"))
    changed = copy.deepcopy(data)
    changed["version"] = "2026.12"
    changed["cards"][0]["fuel_cost"] = 2  # HS-001 紅蓮丸
    changed["cards"] = [card for card in changed["cards"] if card["code"] != "HS-002"]
    changed["cards"].append({**copy.deepcopy(data["cards"][2]), "code": "HS-900", "name": "新型機", "name_en": "New Frame"})
    package_import(changed)
    return data


def test_the_catalog_links_to_its_packages(two_versions, client):
    page = client.get("/catalog/hagmi/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'href="{URL}"' in page and "version 2026.12" in page


def test_the_versions_and_the_newest_change_in_english(two_versions, client):
    page = client.get(URL, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert page.index("2026.12") < page.index("2026.1<")  # newest first
    assert 'href="/api/packages/hagmi/core/versions/1/"' in page
    assert "cards added 1, changed 1, removed 1." in page
    assert "New Frame" in page and "Guren-maru</a> <span class=\"code\">HS-001</span>: Fuel cost" in page
    assert "fuel_cost" not in page


def test_the_same_page_in_japanese(two_versions, client):
    page = client.get(URL, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "紅蓮丸</a> <span class=\"code\">HS-001</span>: 燃料コスト" in page and "新型機" in page
    assert "Fuel cost" not in page and "Versions" not in page
    assert "バージョン 1 から 2 へ: 追加 1 枚、変更 1 枚、削除 1 枚。" in page


def test_any_two_versions_compare_and_an_unknown_one_is_said(two_versions, client):
    page = client.get(URL + "?from=2&to=1", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "cards added 1," in page and "Guren-maru Homura" in page  # HS-002 comes back
    page = client.get(URL + "?from=7&to=x", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "There is no version 7" in page and "There is no version x" in page
    same = client.get(URL + "?from=2&to=2", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "No card differs between version 2 and version 2." in same


def test_an_unknown_package_is_404(catalog, client):
    assert client.get("/catalog/hagmi/packages/nope/").status_code == 404


@pytest.mark.parametrize("system,slug", [("hagmi", "core"), ("mwda", "core-sample"), ("warcaster", "core-sample")])
def test_the_package_page_offers_its_battlescribe_data_as_a_zip_of_the_gst_and_cat(catalog, client, system, slug):
    """Anyone may download it (the package's public data); the zip holds the files export_package writes."""
    import io
    import zipfile

    from cards.selectors import package_battlescribe

    page = client.get(f"/catalog/{system}/packages/{slug}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    href = f"/catalog/{system}/packages/{slug}/battlescribe.zip"
    assert f'href="{href}" download>BattleScribe data (.zip)</a>' in page
    response = client.get(href)
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"] == f'attachment; filename="hangar-{system}-{slug}-battlescribe.zip"'
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    assert files == package_battlescribe(system, slug)
    assert sorted(files) == [f"hangar-{system}-{slug}.cat", f"hangar-{system}.gst"]


def test_the_battlescribe_download_in_japanese_and_an_unknown_package(catalog, client):
    page = client.get(URL, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "BattleScribe データ（.zip）" in page and "ゲームシステム（.gst）とカタログ（.cat）" in page
    assert client.get("/catalog/hagmi/packages/nope/battlescribe.zip").status_code == 404
    assert client.get("/catalog/chess/packages/core/battlescribe.zip").status_code == 404
