"""Every error under /api/ is JSON (docs/api.md "Errors"), with DEBUG off as in production: what Django refuses
before any view (a Host header not in ALLOWED_HOSTS) and a crash included; the pages keep the site's HTML."""
from __future__ import annotations

import json

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def error_of(response, status):
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    return response.json()["error"]


def test_a_bad_host_under_the_api_is_a_json_400(settings):
    settings.DEBUG = False
    client = Client(raise_request_exception=False)
    error = error_of(client.get("/api/ping/", HTTP_HOST="evil.example"), 400)
    assert error["code"] == "bad_request" and "Host" in error["message"]
    page = client.get("/", HTTP_HOST="evil.example")
    assert page.status_code == 400 and not page["Content-Type"].startswith("application/json")


def test_a_crash_under_the_api_is_a_json_500_that_shows_no_traceback(settings, monkeypatch):
    settings.DEBUG = False

    def crash(*args, **kwargs):
        raise RuntimeError("an engine bug")

    monkeypatch.setattr("builder.api.positions.position_analyse", crash)
    client = Client(raise_request_exception=False)
    response = client.post("/api/positions/", json.dumps({"position": {}}), content_type="application/json")
    error = error_of(response, 500)
    assert error["code"] == "server_error" and "engine bug" not in error["message"]


def test_a_crash_on_a_page_keeps_the_html_500(settings, monkeypatch):
    settings.DEBUG = False

    def crash(*args, **kwargs):
        raise RuntimeError("a page bug")

    monkeypatch.setattr("builder.web.analysis.position_analyse", crash)
    client = Client(raise_request_exception=False)
    page = client.get("/analysis/?example=mwda")
    assert page.status_code == 500 and not page["Content-Type"].startswith("application/json")
