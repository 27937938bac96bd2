"""The site as a visitor and an operator first meet it: home page, API docs with local assets, admin."""
import pytest
from django.contrib.auth import get_user_model

from cards.models import GameSystem
from tests.support.bundled_catalog import load_bundled_catalog


@pytest.fixture
def bundled(db):
    load_bundled_catalog()


def test_home_lists_the_loaded_systems(client, bundled):
    page = client.get("/").content.decode()
    for name in ("HAGMI!", "MechWarrior: Dark Age", "Warcaster: Neo-Mechanika"):
        assert name in page


def test_api_docs_page_uses_only_local_assets(client, db):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in page
    assert "https://" not in page.replace("https://github.com", "")  # no CDN
    asset = client.get("/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")
    assert asset.status_code == 200


def test_openapi_schema_documents_the_contract_endpoints(client, db):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in ("/api/systems/", "/api/systems/{slug}/formats/", "/api/cards/", "/api/validate/", "/api/lists/",
                 "/api/lists/{slug}/validation/", "/api/lists/{slug}/export/", "/api/lists/import/",
                 "/api/lists/{slug}/revisions/"):
        assert path in paths, path


def test_admin_browses_and_searches_the_catalog(client, bundled):
    admin = get_user_model().objects.create_superuser("admin", "admin@example.org", "a-long-admin-password")
    client.force_login(admin)
    listing = client.get("/admin/cards/card/", {"q": "補給物資"})
    assert listing.status_code == 200
    assert "補給物資" in listing.content.decode()
    mwda = client.get("/admin/cards/card/", {"system__id__exact": GameSystem.objects.get(slug="mwda").pk})
    assert mwda.status_code == 200
    assert "MW-001" in mwda.content.decode() and "HS-001" not in mwda.content.decode()
    assert client.get("/admin/cards/datapackage/").status_code == 200
