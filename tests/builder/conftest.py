"""Fixtures for the lists API, services and check_list tests: small ORIGINAL catalogs loaded through the real
package import (cards.services.package_import), users, API clients, and list documents."""
from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from cards.services import package_import

from tests.conftest import PASSWORD  # noqa: F401  (tests import it from here too)


def _hagmi_unit(number: int) -> dict[str, Any]:
    return {
        "code": f"HT-{number:03d}",
        "name": f"試験機{number}号",
        "name_en": f"Test Frame {number}",
        "category": "unit",
        "frame": "black",
        "cost": 2,
        "pilot": f"パイロット{number}",
        "types": ["強襲"],
        "firepower": "3",
        "armor": 3,
        "range": 2,
        "fuel_cost": 1,
        "targets": "single",
    }


def _hagmi_tactic(code: str, name: str, name_en: str, frame: str = "blue") -> dict[str, Any]:
    return {"code": code, "name": name, "name_en": name_en, "category": "tactic", "subtype": "order",
            "frame": frame, "cost": 1}


HAGMI_TACTIC_NAMES = [
    ("補給物資", "Supply Cache"), ("照明弾", "Flare Shell"), ("装甲改修", "Plating Refit"), ("急速展開", "Rapid Deploy"),
    ("迂回機動", "Flank Route"), ("集中砲火", "Focused Volley"), ("索敵網", "Scout Net"), ("野戦整備", "Field Service"),
    ("陽動作戦", "Feint"), ("撤退支援", "Cover Retreat"),
]


def hagmi_package() -> dict[str, Any]:
    """10 black units HT-001..010, 10 blue tactics HT-011..020, a red damage card HT-021, a white card HT-022."""
    cards = [_hagmi_unit(n) for n in range(1, 11)]
    cards += [_hagmi_tactic(f"HT-{10 + i:03d}", ja, en) for i, (ja, en) in enumerate(HAGMI_TACTIC_NAMES, start=1)]
    cards.append({"code": "HT-021", "name": "被弾記録", "name_en": "Hit Log", "category": "damage", "frame": "red"})
    cards.append(_hagmi_tactic("HT-022", "白銀の号令", "Silver Command", frame="white"))
    return {
        "schema": "hangar.package/1",
        "system": "hagmi",
        "slug": "builder-test",
        "version": "1",
        "title": "Builder test cards",
        "cards": cards,
        "formats": [
            {"slug": "tactics-v4", "name": "タクティクス (Ver.4)", "name_en": "Tactics v4", "default": True,
             "options": {"min_weapons": 20, "min_tactics": 20}},
            {"slug": "tactics-v3", "name": "タクティクス (Ver.3)", "name_en": "Tactics v3",
             "options": {"min_weapons": 0, "min_tactics": 0, "min_main": 20}},
        ],
    }


def mwda_package() -> dict[str, Any]:
    click = {"primary_damage": 3, "secondary_damage": 2, "move": 10, "attack": 9, "defense": 17}
    heat = {"primary_damage": 0, "secondary_damage": 0, "move": -2}
    return {
        "schema": "hangar.package/1",
        "system": "mwda",
        "slug": "builder-test",
        "version": "1",
        "title": "Builder test units",
        "cards": [
            {"code": "MT-001", "name": "試験用メック", "name_en": "Trial Mech", "kind": "mech", "points": 150,
             "unique": False, "faction": "republic", "vent": 2,
             "primary": {"min_range": 0, "max_range": 10, "damage_type": "ballistic"},
             "secondary": {"min_range": 0, "max_range": 6, "damage_type": "energy"},
             "dial": [click, {**click, "attack": 8}], "heat_dial": [heat, heat, {**heat, "shutdown": True}]},
            {"code": "MT-002", "name": "試験用戦車", "name_en": "Trial Tank", "kind": "vehicle", "points": 60,
             "unique": True, "faction": "republic",
             "primary": {"min_range": 0, "max_range": 8, "damage_type": "ballistic"},
             "dial": [{"primary_damage": 2, "move": 8, "attack": 8, "defense": 15}]},
        ],
        "formats": [
            {"slug": "tournament-300", "name": "トーナメント300", "name_en": "Tournament 300", "default": True,
             "options": {"point_limit": 300}},
            {"slug": "standard-100", "name": "スタンダード100", "name_en": "Standard 100",
             "options": {"point_limit": 100}},
        ],
    }


def hagmi_doc(weapons: int = 20, tactics: int = 20, *, name: str = "Blue rush", fmt: str | None = "tactics-v4",
              damage: int = 1, secret: list[dict] | None = None) -> dict[str, Any]:
    """A HAGMI list with `weapons` 兵器 and `tactics` 作戦 cards, 2 copies per card (H4 allows 2)."""

    def pairs(first: int, count: int) -> list[dict[str, Any]]:
        entries = []
        for index in range(count // 2):
            entries.append({"card": f"HT-{first + index:03d}", "qty": 2})
        if count % 2:
            entries.append({"card": f"HT-{first + count // 2:03d}", "qty": 1})
        return entries

    return {
        "schema": "hangar.list/1",
        "system": "hagmi",
        "format": fmt,
        "name": name,
        "sections": {
            "weapons": pairs(1, weapons),
            "tactics": pairs(11, tactics),
            "damage": [{"card": "HT-021", "qty": damage}] if damage else [],
            "secret": secret if secret is not None else [{"card": "HT-022", "qty": 1}],
        },
    }


def mwda_doc(*entries: tuple[str, int], name: str = "Trial army", fmt: str | None = "tournament-300") -> dict:
    return {"schema": "hangar.list/1", "system": "mwda", "format": fmt, "name": name,
            "sections": {"army": [{"card": code, "qty": qty} for code, qty in entries]}}


@pytest.fixture(autouse=True)
def _clear_cache(settings):
    """The throttles live in the cache: start every test clean."""
    settings.SECURE_SSL_REDIRECT = False  # production settings redirect plain http; the test client speaks http
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast users in tests
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def catalogs(db):
    package_import(hagmi_package(), source="tests/builder")
    package_import(mwda_package(), source="tests/builder")


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def anon_client() -> APIClient:
    return APIClient()


@pytest.fixture
def owner_client(owner) -> APIClient:
    return client_for(owner)


@pytest.fixture
def other_client(other) -> APIClient:
    return client_for(other)


@pytest.fixture
def create_list(catalogs, owner_client):
    """POST a list as the owner; returns the API representation."""

    def create(document: dict | None = None, *, visibility: str = "private", notes: str = "") -> dict[str, Any]:
        response = owner_client.post(
            "/api/lists/",
            {"document": document or hagmi_doc(), "visibility": visibility, "notes": notes},
            format="json",
        )
        assert response.status_code == 201, response.content
        return response.json()

    return create
