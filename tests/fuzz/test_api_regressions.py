"""Regressions for the bugs the API fuzz run found (tests/fuzz/test_api_fuzz.py): each was a 500 or an
answer the schema did not document; each is now a clear 4xx naming the field, on SQLite and on PostgreSQL (which
refuses NUL characters in text and integers past its column types)."""
from __future__ import annotations

import json

import pytest

from builder.models import GameList, ListRevision, SimulationRun
from tests.builder.conftest import (  # noqa: F401  (fixtures)
    _clear_cache,
    anon_client,
    catalogs,
    create_list,
    hagmi_doc,
    other_client,
    owner_client,
)
from tests.support.simulations import hagmi_catalog  # noqa: F401  (fixture)

# services: PostgreSQL refuses NUL in text and integers past its column types, SQLite stores them: CI's second pass
pytestmark = [pytest.mark.services, pytest.mark.django_db]

NUL = "\x00"
HUGE = 10**20  # past every integer column (PostgreSQL integer/bigint, SQLite's 64-bit INTEGER)


def error_of(response, status: int) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    return response.json()["error"]


def assert_nothing_saved() -> None:
    assert GameList.objects.count() == 0 and ListRevision.objects.count() == 0


# --- NUL characters ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("param", ["q", "category", "kind", "faction", "frame"])
def test_nul_in_a_card_search_parameter_is_400_naming_it(catalogs, anon_client, param):
    error = error_of(anon_client.get("/api/cards/", {param: f"a{NUL}b"}), 400)
    assert param in error["message"] and "U+0000" in error["message"]


def test_nul_in_a_card_code_is_404(catalogs, anon_client):
    error = error_of(anon_client.get("/api/cards/hagmi/HT%00001/"), 404)
    assert error["code"] == "not_found"


def test_nul_in_the_lists_format_filter_is_400_naming_it(catalogs, owner_client):
    error = error_of(owner_client.get("/api/lists/", {"format": f"tactics{NUL}"}), 400)
    assert error["code"] == "list.bad_filter" and "format" in error["message"]


@pytest.mark.parametrize("options", [{"cortex": f"W{NUL}"}, {f"k{NUL}": 1}, {"weapons": [["x", NUL]]}])
def test_nul_in_entry_options_is_400_naming_the_path(catalogs, owner_client, options):
    document = hagmi_doc()
    document["sections"]["weapons"][1]["options"] = options
    error = error_of(owner_client.post("/api/lists/", {"document": document}, format="json"), 400)
    assert error["code"] == "list.invalid"
    assert error["issues"][0]["path"] == "sections.weapons[1].options" and "U+0000" in error["message"]
    assert_nothing_saved()


def test_nul_in_options_of_an_imported_text_list_is_400_with_its_line(catalogs, owner_client):
    text = 'System: hagmi\n[兵器]\n2 (HT-001) {"cortex": "\\u0000"}\n'
    error = error_of(owner_client.post("/api/lists/import/", {"text": text}, format="json"), 400)
    assert error["code"] == "list.invalid" and error["issues"][0]["line"] == 3 and "U+0000" in error["message"]
    assert_nothing_saved()


def test_nul_in_notes_is_400_naming_them(catalogs, owner_client):
    error = error_of(owner_client.post("/api/lists/", {"document": hagmi_doc(), "notes": f"a{NUL}"}, format="json"),
                     400)
    assert "notes" in error["message"]
    assert_nothing_saved()


@pytest.mark.parametrize("url", ["/api/auth/signup/", "/api/auth/token/", "/api/auth/login/"])
def test_nul_in_a_username_is_400_naming_it(db, anon_client, url):
    body = {"username": f"pilot{NUL}", "password": "a-long-Passphrase-42"}
    error = error_of(anon_client.post(url, body, format="json"), 400)
    assert "username" in error["message"]


def test_nul_in_a_list_id_for_the_odds_is_404(catalogs, anon_client):
    body = {"list": f"abc{NUL}", "deck": "weapons", "groups": [{"cards": ["HT-001"]}]}
    assert error_of(anon_client.post("/api/odds/", body, format="json"), 404)["code"] == "not_found"


@pytest.mark.usefixtures("hagmi_catalog")
@pytest.mark.parametrize("field", ["opponent", "policy", "list"])
def test_nul_in_a_simulation_field_is_400_naming_it(owner_client, field):
    body = {"document": hagmi_doc(), "opponent": "goldfish", "games": 10, "seed": 1}
    body[field] = f"goldfish{NUL}"
    if field == "list":
        del body["document"]
    error = error_of(owner_client.post("/api/simulations/", body, format="json"), 400)
    assert field in error["message"]
    assert SimulationRun.objects.count() == 0


# --- huge integers ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", [HUGE, -HUGE, 0])
def test_a_version_no_list_can_have_is_400_naming_it(create_list, owner_client, version):
    slug = create_list()["slug"]
    error = error_of(owner_client.patch(f"/api/lists/{slug}/", {"notes": "x", "version": version}, format="json"),
                     400)
    assert "version" in error["message"]
    error = error_of(owner_client.patch(f"/api/lists/{slug}/", {"notes": "x"}, format="json",
                                        HTTP_IF_MATCH=f'"{version}"'), 400)
    assert "version" in error["message"]
    assert owner_client.get(f"/api/lists/{slug}/").json()["version"] == 1


@pytest.mark.parametrize("number", [2**31, HUGE, "9" * 5000])
def test_a_huge_revision_number_is_404(create_list, anon_client, number):
    slug = create_list(visibility="public")["slug"]
    assert error_of(anon_client.get(f"/api/lists/{slug}/revisions/{number}/"), 404)["code"] == "not_found"


@pytest.mark.parametrize("value", ["²", "١", "1.5", "-1", str(HUGE), "9" * 5000])
def test_a_diff_revision_that_is_not_a_plain_number_is_400_naming_it(create_list, anon_client, value):
    slug = create_list(visibility="public")["slug"]
    error = error_of(anon_client.get(f"/api/lists/{slug}/diff/", {"from": value, "to": 1}), 400)
    assert "'from'" in error["message"]


@pytest.mark.parametrize("param", ["cost_min", "cost_max"])
def test_a_huge_cost_filter_is_400_naming_it(catalogs, anon_client, param):
    error = error_of(anon_client.get("/api/cards/", {param: HUGE}), 400)
    assert param in error["message"]


def test_odds_of_a_document_with_absurd_quantities_are_400_naming_the_path(catalogs, anon_client):
    """Was: an answer computed for hours (10**9 copies, 10**6 draws)."""
    document = hagmi_doc()
    document["sections"]["weapons"][0]["qty"] = 10**9
    body = {"document": document, "deck": "weapons", "draws": 10**6, "groups": [{"cards": ["HT-001"]}]}
    error = error_of(anon_client.post("/api/odds/", body, format="json"), 400)
    assert "sections.weapons[0].qty" in error["message"]


def test_odds_for_too_many_draws_or_groups_are_400_naming_them(catalogs, anon_client):
    """A legal-sized list still allowed questions costing minutes: draws and groups are bounded."""
    document = hagmi_doc()
    document["sections"]["weapons"] = [{"card": f"X-{n}", "qty": 999} for n in range(980)]  # with the rest: 992
    body = {"document": document, "deck": "weapons", "draws": 1000, "groups": [{"cards": ["X-1"]}]}
    assert "draws" in error_of(anon_client.post("/api/odds/", body, format="json"), 400)["message"]
    body = {**body, "draws": 60, "groups": [{"cards": [f"X-{n}"], "at_least": 0} for n in range(51)]}
    assert "groups" in error_of(anon_client.post("/api/odds/", body, format="json"), 400)["message"]
    body["groups"] = body["groups"][:50]
    assert anon_client.post("/api/odds/", body, format="json").status_code == 200


# --- wrong JSON types -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("deck", [[None, None], {"weapons": 1}, 3, None])
def test_odds_for_a_deck_that_is_not_a_name_are_400_naming_it(create_list, anon_client, deck):
    """Was: a 500 (a list is unhashable) for {"deck": [null, null]} with a real list."""
    slug = create_list(visibility="public")["slug"]
    body = {"list": slug, "deck": deck, "draws": 0, "groups": [{"cards": ["HT-001"]}]}
    assert "deck" in error_of(anon_client.post("/api/odds/", body, format="json"), 400)["message"]


# --- malformed bodies -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["/api/validate/", "/api/lists/", "/api/odds/", "/api/simulations/"])
def test_json_nested_too_deeply_is_400(catalogs, owner_client, url):
    body = "[" * 100_000 + "]" * 100_000
    error = error_of(owner_client.post(url, body, content_type="application/json"), 400)
    assert error["code"] == "parse_error" and "deep" in error["message"]


def test_a_deeply_nested_document_in_a_form_is_400(catalogs, owner_client):
    document = "[" * 100_000 + "]" * 100_000
    error = error_of(owner_client.post("/api/lists/", {"document": document}), 400)
    assert "document" in error["message"]
    assert_nothing_saved()


@pytest.mark.parametrize("url", ["/api/validate/", "/api/lists/", "/api/odds/"])
def test_a_body_that_is_not_utf8_is_400(catalogs, owner_client, url):
    body = json.dumps({"document": hagmi_doc(name="Blue")}).encode().replace(b"Blue", b"Bl\xff\xfe")
    error = error_of(owner_client.post(url, body, content_type="application/json"), 400)
    assert error["code"] == "parse_error" and "utf-8" in error["message"].lower()
    assert_nothing_saved()


def test_an_uploaded_file_that_is_not_utf8_is_400_naming_it(catalogs, owner_client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("deck.txt", b"System: hagmi\n[\xff\xfe]\n", content_type="text/plain")
    error = error_of(owner_client.post("/api/lists/import/", {"file": upload}), 400)
    assert "deck.txt" in error["message"] and "UTF-8" in error["message"]
    assert_nothing_saved()


# --- answers the schema did not document ------------------------------------------------------------------------


def test_an_api_path_that_matches_no_route_is_a_json_404(db, anon_client):
    for path in ("/api/lists/0.5/", "/api/lists/a,b/fork/", "/api/simulations/%C2%84/", "/api/nothing/"):
        assert error_of(anon_client.get(path), 404)["code"] == "not_found"
    page = anon_client.get("/no-such-page/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")


def test_a_page_past_the_last_is_a_json_404(catalogs, anon_client):
    error_of(anon_client.get("/api/cards/", {"page": 99}), 404)


def test_a_wrong_token_is_403_even_where_no_account_is_needed(catalogs, anon_client):
    anon_client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    assert error_of(anon_client.get("/api/cards/"), 403)["code"] == "authentication_failed"


def test_the_schema_documents_the_implied_errors(db, anon_client):
    """403 (bad credentials), 404 (page), 400/413 (bodies) and 429 (throttles) on the operations that give them;
    no error without its body shape; `forked_from` and `email` as they really are."""
    schema = anon_client.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    assert {"403", "404", "429"} <= set(paths["/api/cards/"]["get"]["responses"])
    assert {"400", "403", "413", "415", "429"} <= set(paths["/api/lists/"]["post"]["responses"])
    assert {"400", "403", "404", "429"} <= set(paths["/api/lists/{slug}/fork/"]["post"]["responses"])
    assert "429" in paths["/api/auth/token/"]["post"]["responses"]
    assert set(paths["/api/health/"]["get"]["responses"]) == {"200", "503"}  # no credentials read, no throttle
    for path, operations in paths.items():
        for method, operation in operations.items():
            for code, response in operation["responses"].items():
                if code.startswith("4"):
                    assert "application/json" in response.get("content", {}), (method, path, code)
    components = schema["components"]["schemas"]
    assert components["GameList"]["properties"]["forked_from"]["nullable"] is True
    assert "format" not in components["User"]["properties"]["email"]
