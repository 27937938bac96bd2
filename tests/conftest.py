"""Fixtures shared by the whole suite."""
from typing import Any, Callable

import pytest
from django.contrib.auth import get_user_model

from cards.selectors import catalog_forget

PASSWORD = "hangar-Test-pw-42"  # every test user's password


@pytest.fixture(autouse=True)
def _fresh_catalog_cache():
    """Every test starts with no cached catalog: a rolled-back import in an earlier test must not leak."""
    catalog_forget()
    yield
    catalog_forget()


@pytest.fixture
def make_user(db) -> Callable[[str], Any]:
    def make(username: str):
        return get_user_model().objects.create_user(username=username, password=PASSWORD)

    return make


@pytest.fixture
def owner(make_user):
    return make_user("owner")


@pytest.fixture
def other(make_user):
    return make_user("other")
