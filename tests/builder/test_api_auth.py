"""/api/auth/: sign-up (Django's password validators, throttled), token, session login/logout, me; and the
OpenAPI schema that documents the whole API."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db


def signup(client, **fields):
    return client.post("/api/auth/signup/", fields, format="json")


def test_signup_returns_a_working_token(anon_client):
    response = signup(anon_client, username="pilot", password=PASSWORD, email="pilot@example.com")
    assert response.status_code == 201
    token = response.json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    me = client.get("/api/auth/me/").json()
    assert me["username"] == "pilot" and me["email"] == "pilot@example.com"


@pytest.mark.parametrize("fields,field", [
    ({"username": "pilot", "password": "123"}, "password"),  # too short and numeric
    ({"username": "pilot", "password": "password"}, "password"),  # too common
    ({"username": "skywalker", "password": "skywalker1"}, "password"),  # too similar to the username
    ({"username": "bad name!", "password": PASSWORD}, "username"),
    ({"username": "pilot", "password": PASSWORD, "email": "not-an-email"}, "email"),
    ({"password": PASSWORD}, "username"),
])
def test_signup_refuses_bad_fields_by_name(anon_client, fields, field):
    response = signup(anon_client, **fields)
    assert response.status_code == 400
    error = response.json()["error"]
    assert field in error["details"] and error["message"].startswith(field)
    assert not get_user_model().objects.exists()


def test_signup_refuses_a_taken_username_case_insensitively(anon_client, owner):
    response = signup(anon_client, username="OWNER", password=PASSWORD)
    assert response.status_code == 400 and "taken" in response.json()["error"]["message"]


def test_signup_is_throttled(anon_client, settings):
    from rest_framework.throttling import ScopedRateThrottle

    rates = {**ScopedRateThrottle.THROTTLE_RATES, "signup": "2/hour"}
    original = ScopedRateThrottle.THROTTLE_RATES
    ScopedRateThrottle.THROTTLE_RATES = rates
    try:
        statuses = [signup(anon_client, username=f"p{i}", password=PASSWORD).status_code for i in range(3)]
    finally:
        ScopedRateThrottle.THROTTLE_RATES = original
    assert statuses == [201, 201, 429]


def test_token_endpoint(anon_client, owner):
    response = anon_client.post("/api/auth/token/", {"username": "owner", "password": PASSWORD}, format="json")
    assert response.status_code == 200 and response.json()["username"] == "owner"
    again = anon_client.post("/api/auth/token/", {"username": "owner", "password": PASSWORD}, format="json")
    assert again.json()["token"] == response.json()["token"]
    wrong = anon_client.post("/api/auth/token/", {"username": "owner", "password": "nope"}, format="json")
    assert wrong.status_code == 400 and wrong.json()["error"]["message"]


def test_session_login_me_logout(owner):
    client = APIClient()
    assert client.get("/api/auth/me/").status_code == 403
    response = client.post("/api/auth/login/", {"username": "owner", "password": PASSWORD}, format="json")
    assert response.status_code == 200 and response.json()["username"] == "owner"
    assert client.get("/api/auth/me/").json()["username"] == "owner"
    assert client.get("/api/lists/").status_code == 200
    assert client.post("/api/auth/logout/").status_code == 204
    assert client.get("/api/auth/me/").status_code == 403


def test_login_with_a_wrong_password_is_400(owner, anon_client):
    response = anon_client.post("/api/auth/login/", {"username": "owner", "password": "x"}, format="json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "auth.failed"


def test_the_openapi_schema_documents_every_lists_endpoint(anon_client):
    response = anon_client.get("/api/schema/?format=json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in [
        "/api/validate/", "/api/lists/", "/api/lists/{slug}/", "/api/lists/{slug}/restore/",
        "/api/lists/{slug}/fork/", "/api/lists/{slug}/validation/", "/api/lists/{slug}/export/",
        "/api/lists/import/", "/api/lists/{slug}/revisions/", "/api/lists/{slug}/revisions/{number}/",
        "/api/lists/{slug}/diff/", "/api/auth/signup/", "/api/auth/token/", "/api/auth/login/",
        "/api/auth/logout/", "/api/auth/me/",
    ]:
        assert path in paths, path
    assert "409" in paths["/api/lists/{slug}/"]["patch"]["responses"]
