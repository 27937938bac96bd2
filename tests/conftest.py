"""Fixtures shared by the whole suite."""
from typing import Any, Callable

import pytest
from django.contrib.auth import get_user_model

from cards.selectors import catalog_forget

PASSWORD = "hangar-Test-pw-42"  # every test user's password

RESTARTS_A_SERVICE = {"restartable_redis", "restartable_postgres"}  # tests/services/conftest.py


def pytest_itemcollected(item) -> None:
    """A test that restarts the shared PostgreSQL or Redis is `serial`: `dev.py test` runs it alone, after the
    parallel processes (a restart would cut their connections mid-test)."""
    if RESTARTS_A_SERVICE & set(getattr(item, "fixturenames", ())):
        item.add_marker(pytest.mark.serial)


@pytest.fixture(autouse=True)
def _fresh_catalog_cache():
    """Every test starts with no cached catalog: a rolled-back import in an earlier test must not leak."""
    catalog_forget()
    yield
    catalog_forget()


@pytest.fixture(autouse=True)
def _free_games_for_the_chunk_probe(monkeypatch):
    """At submit a run's chunk size is measured by timing its first games (builder.services.simulations
    CHUNK_PROBE_CLOCK): on a loaded test machine a slow moment would cut a run into more chunks than a test counts
    on. Here the probe's games cost nothing, so every run gets its simulator's size; the tests of the probe itself
    (tests/builder/test_simulation_chunk_cost.py) set clocks of their own."""
    from builder.services import simulations

    monkeypatch.setattr(simulations, "CHUNK_PROBE_CLOCK", lambda: 0.0)


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


@pytest.fixture
def staff(make_user):
    """A staff member (is_staff): the permission matrix's staff actor, the data import page's user."""
    user = make_user("staff")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    return user
