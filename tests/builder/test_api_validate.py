"""POST /api/validate/: a list JSON in, exactly the docs/design.md §2.3 result out, no account needed."""
from __future__ import annotations

import json
import re

import pytest

from .conftest import hagmi_doc, mwda_doc

pytestmark = pytest.mark.django_db

URL = "/api/validate/"
RESULT_KEYS = {"legal", "system", "format", "violations", "summary"}
HIRAGANA = re.compile(r"[\u3040-\u309f]")


def codes(result: dict) -> set[str]:
    return {violation["code"] for violation in result["violations"]}


def test_a_legal_deck_needs_no_account(catalogs, anon_client):
    response = anon_client.post(URL, hagmi_doc(), format="json")
    assert response.status_code == 200
    result = response.json()
    assert set(result) == RESULT_KEYS
    assert result["legal"] is True and result["violations"] == []
    assert result["summary"] == {"weapons": 20, "tactics": 20, "damage": 1, "secret": 1, "main": 40,
                                 "secret_allowed": 2}


def test_H5_secret_count_over_the_allowance(catalogs, anon_client):
    """H5: 20+20 main-deck cards allow 2 秘策 cards; 3 is an error naming the section."""
    secret = [{"card": "HT-022", "qty": 1}, {"card": "HT-021", "qty": 1}, {"card": "HT-001", "qty": 1}]
    result = anon_client.post(URL, hagmi_doc(secret=secret), format="json").json()
    assert result["legal"] is False
    violation = next(v for v in result["violations"] if v["code"] == "hagmi.secret_count")
    assert violation["rule"] == "H5" and violation["section"] == "secret"


def test_M1_points_over_the_limit(catalogs, anon_client):
    """M1: 150 + 150 + 60 = 360 points is over tournament-300."""
    result = anon_client.post(URL, mwda_doc(("MT-001", 2), ("MT-002", 1)), format="json").json()
    assert result["legal"] is False and "mwda.points" in codes(result)
    assert result["summary"]["points"] == 360


def test_messages_in_japanese_by_query_and_by_accept_language(catalogs, anon_client):
    short = hagmi_doc(weapons=10)
    english = anon_client.post(URL, short, format="json").json()["violations"][0]["message"]
    by_query = anon_client.post(URL + "?lang=ja", short, format="json").json()["violations"][0]["message"]
    by_header = anon_client.post(URL, short, format="json", HTTP_ACCEPT_LANGUAGE="ja,en;q=0.5")
    assert HIRAGANA.search(by_query) and not HIRAGANA.search(english)
    assert by_header.json()["violations"][0]["message"] == by_query
    forced_en = anon_client.post(URL + "?lang=en", short, format="json", HTTP_ACCEPT_LANGUAGE="ja")
    assert forced_en.json()["violations"][0]["message"] == english


def test_bad_lang_is_400(catalogs, anon_client):
    response = anon_client.post(URL + "?lang=fr", hagmi_doc(), format="json")
    assert response.status_code == 400 and "lang" in response.json()["error"]["message"]


@pytest.mark.parametrize("body,word", [([1, 2], "array"), ("a string", "string"), (None, "null")])
def test_a_body_that_is_not_an_object_is_400(catalogs, anon_client, body, word):
    response = anon_client.post(URL, json.dumps(body), content_type="application/json")
    assert response.status_code == 400
    message = response.json()["error"]["message"]
    assert "JSON object" in message and word in message


def test_malformed_json_is_400(catalogs, anon_client):
    response = anon_client.post(URL, '{"schema": "hangar.list/1",', content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "parse_error"


@pytest.mark.parametrize("system", ["chess", None, 3])
def test_unknown_system_is_400(catalogs, anon_client, system):
    response = anon_client.post(URL, {**hagmi_doc(), "system": system}, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "list.unknown_system" and "system" in error["message"]


def test_a_known_system_without_cards_is_400(db, anon_client):
    response = anon_client.post(URL, hagmi_doc(), format="json")
    assert response.status_code == 400 and "load_packages" in response.json()["error"]["message"]


@pytest.mark.parametrize("qty", [0, -1, 10**9, "two", True])
def test_bad_quantities_are_violations_not_errors(catalogs, anon_client, qty):
    document = hagmi_doc()
    document["sections"]["weapons"][0]["qty"] = qty
    response = anon_client.post(URL, document, format="json")
    assert response.status_code == 200
    assert "list.bad_quantity" in codes(response.json())


def test_unknown_card_section_format_and_wrong_system_are_violations(catalogs, anon_client):
    document = hagmi_doc(fmt="tactics-v99")
    document["sections"]["weapons"].append({"card": "ZZ-404", "qty": 1})
    document["sections"]["tactics"].append({"card": "MT-001", "qty": 1})
    document["sections"]["sideboard"] = [{"card": "HT-001", "qty": 1}]
    result = anon_client.post(URL, document, format="json").json()
    assert {"list.unknown_card", "list.wrong_system", "list.unknown_section", "list.unknown_format"} <= codes(result)
    unknown = next(v for v in result["violations"] if v["code"] == "list.unknown_card")
    assert unknown["cards"] == ["ZZ-404"]


def test_garbage_inside_the_object_never_fails(catalogs, anon_client):
    document = {"schema": 7, "system": "hagmi", "sections": {"weapons": [None, "x", {"card": 5}], "tactics": 3}}
    response = anon_client.post(URL, document, format="json")
    assert response.status_code == 200 and response.json()["legal"] is False


def test_a_body_over_the_upload_limit_is_413(catalogs, anon_client):
    padding = "x" * (10 * 1024 * 1024)
    response = anon_client.post(URL, json.dumps({**hagmi_doc(), "name": padding}), content_type="application/json")
    assert response.status_code == 413
    error = response.json()["error"]
    assert error["code"] == "request.too_large" and "limit" in error["message"]


def test_100000_entries_is_one_clear_400(catalogs, anon_client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 50 * 1024 * 1024
    document = hagmi_doc()
    document["sections"]["weapons"] = [{"card": "HT-001", "qty": 1}] * 100_000
    response = anon_client.post(URL, json.dumps(document), content_type="application/json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "list.too_many_entries" and "100012 entries" in error["message"]
