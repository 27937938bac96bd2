"""Defects found by trying to break Hangar, each with its regression test (the budget of failed
sign-ins and a cache outage are in test_sign_in_budget.py and test_cache_outage.py)."""
from __future__ import annotations

import json
import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from builder import services
from builder.models import GameList, ListRevision
from builder.services.accounts import TAKEN
from tests.builder.conftest import hagmi_doc
from tests.security.conftest import PASSWORD, World

ODD_CHARSETS = ["base64", "rot13", "hex", "zlib", "bz2", "uu", "quopri"]  # codecs Python knows, none a text encoding


# --- a body in charset=base64 -----------------------------------------------------------------------


def _api_writes(client: Client) -> list[tuple[str, str]]:
    """(method, path) of every operation of /api/schema/ that takes a JSON body, path parameters filled in."""
    schema = json.loads(client.get("/api/schema/", {"format": "json"}).content)
    calls = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            content = (operation.get("requestBody") or {}).get("content") or {}
            if "application/json" in content:
                filled = path.replace("{slug}", "abc").replace("{public_id}", "abc").replace("{number}", "1")
                filled = filled.replace("{system}", "hagmi").replace("{code}", "HT-001")
                calls.append((method.upper(), filled))
    return calls


@pytest.mark.django_db
@pytest.mark.parametrize("charset", ODD_CHARSETS)
def test_a_json_body_in_a_codec_that_is_no_text_encoding_is_a_400_parse_error_everywhere(world: World, charset):
    """`Content-Type: application/json; charset=base64` was a 500 (LookupError in JSONBodyParser) on every JSON
    endpoint, anonymously; now every operation of the schema that takes JSON answers 400 parse_error, signed in
    or not, and changes nothing."""
    calls = _api_writes(world.api_client("anon"))
    assert len(calls) >= 10, calls
    lists_before = GameList.objects.count()
    for actor in ("anon", "owner"):
        client = world.api_client(actor)
        for method, path in calls:
            response = client.generic(method, path, b'{"schema": "hangar.list/1"}',
                                      content_type=f"application/json; charset={charset}")
            assert response.status_code == 400, (actor, method, path, response.status_code, response.content[:200])
            error = response.json()["error"]
            assert error["code"] == "parse_error" and charset in error["message"] and "UTF-8" in error["message"]
    assert GameList.objects.count() == lists_before


@pytest.mark.django_db
@pytest.mark.parametrize("charset", ["base64", "rot13"])
@pytest.mark.parametrize("path", ["/accounts/login/", "/accounts/signup/", "/lists/import/"])
def test_a_form_in_a_codec_that_is_no_text_encoding_is_a_400_page(world: World, charset, path):
    response = world.page_client("owner").generic("POST", path, b"username=a&password=b",
                                                  content_type=f"application/x-www-form-urlencoded; charset={charset}")
    assert response.status_code == 400
    assert "not a text encoding" in response.content.decode()


@pytest.mark.django_db
def test_text_encodings_other_than_utf8_still_work(world: World):
    """Only codecs that are no text encoding are refused: a body really in Latin-1 or UTF-16 is read as such."""
    client = world.api_client("anon")
    document = json.dumps(hagmi_doc(name="Café")).encode("utf-16")
    response = client.generic("POST", "/api/validate/", document, content_type="application/json; charset=utf-16")
    assert response.status_code == 200, response.content[:300]
    latin = json.dumps(hagmi_doc(name="Café"), ensure_ascii=False).encode("latin-1")
    response = client.generic("POST", "/api/validate/", latin, content_type="application/json; charset=latin-1")
    assert response.status_code == 200


# --- a full-width copy of a taken name ------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("copy", ["ａｌｉｃｅ", "ＡＬＩＣＥ", "Alice", "𝐚𝐥𝐢𝐜𝐞"])
def test_a_name_that_folds_to_a_taken_one_is_taken_api_and_page(world: World, copy):
    """Django stores usernames folded to NFKC: `ａｌｉｃｅ` became `alice`, and the insert hit the unique
    constraint (500 IntegrityError). Now: 400 "That username is taken." on the API and the form error on the page."""
    get_user_model().objects.create_user(username="alice", password=PASSWORD)
    response = world.api_client("anon").post("/api/auth/signup/", {"username": copy, "password": PASSWORD},
                                              format="json")
    assert response.status_code == 400, response.content
    assert response.json()["error"]["details"]["username"] == [TAKEN]
    form = {"username": copy, "password": PASSWORD, "password_again": PASSWORD, "email": ""}
    page = world.page_client("anon").post("/accounts/signup/", form)
    assert page.status_code == 200 and TAKEN in page.content.decode()
    assert get_user_model().objects.filter(username__iexact="alice").count() == 1


@pytest.mark.django_db
def test_a_race_between_check_and_insert_is_still_taken(world: World, monkeypatch):
    """Two sign-ups of one name at once: the check passes for both, the database refuses the second insert."""
    from builder.services import accounts

    get_user_model().objects.create_user(username="bob", password=PASSWORD)
    monkeypatch.setattr(accounts, "check_signup", lambda **kwargs: {})  # as if the other sign-up came in between
    with pytest.raises(accounts.AccountError) as refused:
        accounts.user_signup(username="ｂｏｂ", password=PASSWORD)
    assert refused.value.details == {"username": [TAKEN]}


# --- a verification code with "²" -----------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("code", ["0123456789-r²", "0123456789-r٣", "0123456789-r1²", "0123456789-r" + "9" * 20,
                                  "0123456789-r", "０１２３４５６７８９-r1"])
def test_verify_with_a_revision_that_is_not_a_plain_number_answers_the_format(world: World, code):
    game_list = world.list("public")
    response = world.page_client("anon").get("/verify/", {"list": game_list.slug, "code": code})
    assert response.status_code == 200
    assert response.context["outcome"] == {"ok": False, "reason": "format"}


# --- 50 000 unknown sections ----------------------------------------------------------------------


@pytest.mark.django_db
def test_validate_caps_the_violations_it_reports_with_a_count_of_the_rest(world: World):
    """50 000 unknown section keys (1.1 MB in) gave a 9 MB answer; now a few are named and the rest counted."""
    document = hagmi_doc()
    document["sections"].update({f"extra-{n:05d}": [] for n in range(50_000)})
    response = world.api_client("anon").post("/api/validate/", document, format="json")
    assert response.status_code == 200
    assert len(response.content) < 20_000, len(response.content)
    unknown = [v for v in response.json()["violations"] if v["code"] == "list.unknown_section"]
    assert len(unknown) == 26
    assert "extra-00000" in unknown[0]["message"]
    assert unknown[-1]["message"].startswith("… and 49975 more unknown sections")
    ja = world.api_client("anon").post("/api/validate/?lang=ja", document, format="json").json()
    assert any("ほかに不明なセクションが49975個" in v["message"] for v in ja["violations"])


# --- a run's list made private -------------------------------------------------------------------


@pytest.mark.django_db
def test_a_run_hides_its_list_once_the_list_is_private_to_the_requester(world: World):
    game_list = world.new_list("public")
    other = world.api_client("other")
    body = {"list": game_list.slug, "opponent": "goldfish", "games": 2, "seed": 7}
    started = other.post("/api/simulations/", body, format="json")
    assert started.status_code == 202, started.content
    detail = f"/api/simulations/{started.json()['id']}/"
    assert other.get(detail).json()["list"] == game_list.slug
    game_list = services.list_update(game_list=game_list, user=world.users["owner"], visibility="private",
                                     expected_version=game_list.version)
    response = other.get(detail)
    assert response.json()["list"] is None and game_list.slug not in response.content.decode()
    assert all(run["list"] is None for run in other.get("/api/simulations/").json()["results"])
    services.list_delete(game_list=GameList.objects.get(pk=game_list.pk), user=world.users["owner"])
    assert other.get(detail).json()["list"] is None


# --- parallel restores ---------------------------------------------------------------------------


@pytest.mark.services  # parallel requests: the row lock is PostgreSQL's (SQLite serialises every write)
@pytest.mark.django_db(transaction=True)
def test_parallel_restores_of_one_trashed_list_restore_it_once(hagmi_catalog, published, owner):  # noqa: F811
    """Six parallel POST /restore/ on one trashed list gave 3 x 200 and 3 revisions; now one 200, the others 400
    list.not_deleted, and exactly one revision is written."""
    game_list = services.list_create(owner=owner, document=hagmi_doc(), visibility="public")
    game_list = services.list_delete(game_list=game_list, user=owner)
    revisions = ListRevision.objects.filter(game_list=game_list).count()
    token = Token.objects.create(user=owner).key
    start = threading.Barrier(6)
    answers: list[tuple[int, str]] = []

    def restore() -> None:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        try:
            start.wait(timeout=30)
            response = client.post(f"/api/lists/{game_list.slug}/restore/")
            code = response.json().get("error", {}).get("code", "") if response.status_code != 200 else ""
            answers.append((response.status_code, code))
        finally:
            connection.close()

    threads = [threading.Thread(target=restore) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(answers) == [(200, "")] + [(400, "list.not_deleted")] * 5, answers
    assert ListRevision.objects.filter(game_list=game_list).count() == revisions + 1
    assert GameList.objects.get(pk=game_list.pk).deleted_at is None
