"""Tournament events' shared pieces: an organiser, two players, an event of the bundled HAGMI data."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from builder.services import events as event_services
from tests.support.bundled_catalog import load_bundled_catalog


@pytest.fixture
def catalog(db):
    load_bundled_catalog()


@pytest.fixture
def organiser(db):
    return User.objects.create_user("organiser", password="pw-organiser-1")


@pytest.fixture
def player(db):
    return User.objects.create_user("player", password="pw-player-1")


@pytest.fixture
def rival(db):
    return User.objects.create_user("rival", password="pw-rival-1")


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def event_data(**changes: Any) -> dict[str, Any]:
    data = {"system": "hagmi", "name": "Winter Cup", "date": "2026-12-20", "place": "Akihabara",
            "deadline": (timezone.now() + timedelta(days=3)).isoformat(timespec="minutes"),
            "lists_shown": "publish"}
    data.update(changes)
    return data


@pytest.fixture
def event(catalog, organiser):
    return event_services.event_create(organiser=organiser, data=event_data())


def hagmi_doc(name: str = "Blue rush", *, copies: int = 2) -> dict[str, Any]:
    """20 兵器 + 20 作戦 at two copies each and 2 damage cards: legal (H1, H2, H4) with `copies` 2."""
    return {
        "schema": "hangar.list/1", "system": "hagmi", "format": "tactics-v4", "name": name,
        "sections": {
            "weapons": [{"card": f"HS-{n:03d}", "qty": copies} for n in range(1, 11)],
            "tactics": [{"card": f"HS-{n:03d}", "qty": 2} for n in range(29, 39)],
            "damage": [{"card": "HS-049", "qty": 2}],
            "secret": [],
        },
    }
