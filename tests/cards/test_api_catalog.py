"""Catalog REST API (docs/design.md §2.5): systems, formats, opponents, card search and card detail."""
from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from cards.services import package_import

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(settings) -> APIClient:
    settings.SECURE_SSL_REDIRECT = False  # production settings redirect plain http; the test client speaks http
    return APIClient()


@pytest.fixture
def catalog(hagmi_package, mwda_package):
    package_import(hagmi_package)
    package_import(mwda_package)


def codes(response) -> list[str]:
    return [card["code"] for card in response.json()["results"]]


def error_message(response) -> str:
    return str(response.json())


# --- systems -------------------------------------------------------------------------------------------------


def test_systems_list_has_sections_with_labels_counts_and_default_format(api, catalog):
    response = api.get("/api/systems/")

    assert response.status_code == 200
    systems = {system["slug"]: system for system in response.json()}
    assert set(systems) == {"hagmi", "mwda"}
    hagmi = systems["hagmi"]
    assert (hagmi["name"], hagmi["card_count"], hagmi["default_format"]) == ("HAGMI!", 5, "tactics-v4")
    assert hagmi["sections"][3] == {"slug": "secret", "ja": "秘策", "en": "Secret"}
    assert systems["mwda"]["name_ja"] == "メックウォリアー：ダークエイジ"
    assert systems["mwda"]["card_count"] == 2


def test_system_detail_and_404(api, catalog):
    assert api.get("/api/systems/mwda/").json()["default_format"] == "tournament-300"

    response = api.get("/api/systems/battletech/")

    assert response.status_code == 404
    assert "No game system 'battletech'" in error_message(response)


def test_system_formats(api, catalog):
    response = api.get("/api/systems/hagmi/formats/")

    assert response.status_code == 200
    formats = response.json()
    assert [fmt["slug"] for fmt in formats] == ["tactics-v4", "tactics-v3"]  # default first
    assert formats[0]["default"] is True and formats[0]["description"] == "兵器20枚以上、作戦20枚以上。"
    assert formats[1] == {
        "slug": "tactics-v3",
        "name": "タクティクス (Ver.3)",
        "name_en": "Tactics (regulation Ver.3)",
        "default": False,
        "description": "",
        "description_en": "",
        "options": {"min_weapons": 0, "min_tactics": 0, "min_main": 20},
    }
    assert api.get("/api/systems/nope/formats/").status_code == 404


def test_system_opponents(api, catalog):
    response = api.get("/api/systems/hagmi/opponents/")

    assert response.json() == [{"slug": "goldfish", "name": "的", "name_en": "Goldfish", "kind": "goldfish"}]
    assert api.get("/api/systems/mwda/opponents/").json() == []
    assert api.get("/api/systems/nope/opponents/").status_code == 404


# --- card search ---------------------------------------------------------------------------------------------


def test_cards_are_paginated_and_ordered_by_code(api, catalog):
    response = api.get("/api/cards/", {"page_size": 3})

    body = response.json()
    assert response.status_code == 200
    assert body["count"] == 7
    assert codes(response) == ["HT-001", "HT-002", "HT-003"]
    assert body["next"] and body["previous"] is None
    second = api.get("/api/cards/", {"page_size": 3, "page": 3})
    assert codes(second) == ["MT-002"]


def test_card_list_items_carry_the_full_card_data(api, catalog):
    card = api.get("/api/cards/", {"system": "mwda", "q": "MT-001"}).json()["results"][0]

    assert (card["system"], card["category"], card["cost"], card["faction"]) == ("mwda", "mech", 150, "republic")
    assert card["data"]["dial"][0]["attack"] == 10


def test_filter_by_system(api, catalog):
    assert codes(api.get("/api/cards/", {"system": "mwda"})) == ["MT-001", "MT-002"]


@pytest.mark.parametrize(
    ("q", "expected"),
    [
        ("鋼鉄", ["HT-002"]),  # partial Japanese name
        ("物資", ["HT-003"]),
        ("supply", ["HT-003"]),  # English name, case-insensitive
        ("ARMOR", ["HT-005"]),
        ("ht-00", ["HT-001", "HT-002", "HT-003", "HT-004", "HT-005"]),  # part of the code
        ("ｈｔ－００４", ["HT-004"]),  # full-width input finds the half-width code
        ("司令部", ["MT-002"]),
        ("no such card", []),
    ],
)
def test_search_q_matches_part_of_either_name_or_the_code(api, catalog, q, expected):
    assert codes(api.get("/api/cards/", {"q": q})) == expected


def test_filter_by_category_and_kind_alias(api, catalog):
    assert codes(api.get("/api/cards/", {"category": "unit"})) == ["HT-001", "HT-002"]
    assert codes(api.get("/api/cards/", {"kind": "vehicle"})) == ["MT-002"]


def test_filter_by_faction_frame_and_cost_range(api, catalog):
    assert codes(api.get("/api/cards/", {"faction": "steel-wolves"})) == ["MT-002"]
    assert codes(api.get("/api/cards/", {"system": "hagmi", "frame": "black"})) == ["HT-001", "HT-002", "HT-005"]
    assert codes(api.get("/api/cards/", {"system": "hagmi", "cost_min": 1, "cost_max": 2})) == ["HT-001", "HT-005"]
    assert codes(api.get("/api/cards/", {"cost_min": 100})) == ["MT-001"]


def test_ordering_by_cost_and_name(api, catalog):
    by_cost = codes(api.get("/api/cards/", {"system": "hagmi", "ordering": "cost"}))
    assert by_cost == ["HT-003", "HT-005", "HT-001", "HT-002", "HT-004"]  # no cost sorts last
    assert codes(api.get("/api/cards/", {"system": "hagmi", "ordering": "-cost"}))[:2] == ["HT-002", "HT-001"]
    by_name = codes(api.get("/api/cards/", {"system": "hagmi", "ordering": "name"}))
    assert by_name == ["HT-004", "HT-005", "HT-001", "HT-003", "HT-002"]  # code-point order: 照 < 爆 < 蒼 < 補 < 鋼


@pytest.mark.parametrize(
    ("params", "parameter"),
    [
        ({"cost_min": "abc"}, "cost_min"),
        ({"cost_max": "1.5"}, "cost_max"),
        ({"cost_min": "-1"}, "cost_min"),
        ({"cost_min": "5", "cost_max": "2"}, "cost_max"),
        ({"system": "battletech"}, "system"),
        ({"ordering": "price"}, "ordering"),
        ({"category": "unit", "kind": "mech"}, "kind"),
    ],
)
def test_bad_filter_values_are_400_naming_the_parameter(api, catalog, params, parameter):
    response = api.get("/api/cards/", params)

    assert response.status_code == 400
    assert parameter in response.json()["error"]["details"]


def test_page_past_the_end_is_404(api, catalog):
    assert api.get("/api/cards/", {"page": 99}).status_code == 404


# --- card detail ---------------------------------------------------------------------------------------------


def test_card_detail_has_the_full_data(api, catalog):
    response = api.get("/api/cards/hagmi/HT-002/")

    card = response.json()
    assert response.status_code == 200
    assert (card["code"], card["name"], card["package"]) == ("HT-002", "鋼鉄の双牙", "test-core")
    assert card["data"]["firepower"] == "2x2" and card["data"]["targets"] == "multi-2"


def test_card_detail_404s_say_what_is_missing(api, catalog):
    unknown_card = api.get("/api/cards/hagmi/HT-999/")
    wrong_system = api.get("/api/cards/mwda/HT-001/")
    unknown_system = api.get("/api/cards/battletech/HT-001/")

    assert unknown_card.status_code == wrong_system.status_code == unknown_system.status_code == 404
    assert "No card with code 'HT-999' in system 'hagmi'" in error_message(unknown_card)
    assert "No card with code 'HT-001' in system 'mwda'" in error_message(wrong_system)
    assert "No game system 'battletech'" in error_message(unknown_system)


# --- OpenAPI -------------------------------------------------------------------------------------------------


def test_openapi_schema_documents_the_catalog_endpoints_and_filters(api):
    response = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")

    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in ("/api/systems/", "/api/systems/{slug}/", "/api/systems/{slug}/formats/",
                 "/api/systems/{slug}/opponents/", "/api/cards/", "/api/cards/{system}/{code}/"):
        assert path in paths
    names = {param["name"] for param in paths["/api/cards/"]["get"]["parameters"]}
    assert {"system", "q", "category", "kind", "faction", "frame", "cost_min", "cost_max", "ordering", "page"} <= names
