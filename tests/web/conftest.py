"""Fixtures for the web page tests: the bundled catalog, users, logged-in test clients and saved lists."""
from __future__ import annotations

from typing import Any, Callable

import pytest
from django.core.cache import cache
from django.test import Client

from builder import services

from tests.conftest import PASSWORD  # noqa: F401  (tests import it from here too)
from tests.support.bundled_catalog import load_bundled_catalog


@pytest.fixture(autouse=True)
def _web_settings(settings):
    settings.SECURE_SSL_REDIRECT = False
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def catalog(db):
    """Every bundled package (HAGMI, MWDA, Warcaster), as the real command loads them (imported once per test
    process, copied into each test's database: tests.support.bundled_catalog)."""
    load_bundled_catalog()


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def owner_client(owner) -> Client:
    return logged_in(owner)


@pytest.fixture
def other_client(other) -> Client:
    return logged_in(other)


def hagmi_legal_doc(name: str = "Blue rush") -> dict[str, Any]:
    """20 兵器 + 20 作戦 (2 copies each, H1/H2/H4), 2 damage cards, 2 秘策 (H5: 40 main allow 2)."""
    return {
        "schema": "hangar.list/1", "system": "hagmi", "format": "tactics-v4", "name": name,
        "sections": {
            "weapons": [{"card": f"HS-{n:03d}", "qty": 2} for n in range(1, 11)],
            "tactics": [{"card": f"HS-{n:03d}", "qty": 2} for n in range(29, 39)],
            "damage": [{"card": "HS-049", "qty": 2}],
            "secret": [],
        },
    }


@pytest.fixture
def make_list(catalog, owner) -> Callable[..., Any]:
    def make(document: dict[str, Any] | None = None, *, visibility: str = "private", user=None):
        return services.list_create(owner=user or owner, document=document or empty_hagmi(), visibility=visibility)

    return make


def empty_hagmi(name: str = "Blue rush") -> dict[str, Any]:
    return {"schema": "hangar.list/1", "system": "hagmi", "format": "tactics-v4", "name": name,
            "sections": {"weapons": [], "tactics": [], "damage": [], "secret": []}}
