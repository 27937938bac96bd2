"""Fixtures shared by the whole suite."""
import pytest

from cards.selectors import catalog_forget


@pytest.fixture(autouse=True)
def _fresh_catalog_cache():
    """Every test starts with no cached catalog: a rolled-back import in an earlier test must not leak."""
    catalog_forget()
    yield
    catalog_forget()
