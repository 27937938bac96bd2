"""CSRF (docs/security.md): every POST form of every page carries the token and is refused without it; htmx
requests send it in a header; session-authenticated API writes need it, token-authenticated ones do not; the
session login API takes JSON only (a cross-site form cannot sign a visitor into another account)."""
from __future__ import annotations

import json
from urllib.parse import urljoin, urlsplit

import pytest
from rest_framework.test import APIClient

from tests.builder.conftest import hagmi_doc
from tests.security.conftest import PASSWORD, World, shared_handler
from tests.security.crawl import FORM_ENDPOINTS, NOT_HTML, TOKEN_FIELD, page_count, page_names, parse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", page_names())
def test_every_post_form_on_every_page_carries_the_token_and_is_refused_without_it(crawl, name):
    """Every page of one endpoint of the matrix, as every actor who may open it (the one crawl,
    tests/security/crawl.py); then each distinct form not posted before, posted by that actor without its token
    (403) and with it (anything but 403: the refusal was the token's), in the savepoint of the endpoint."""
    own_forms = 0
    for cell in crawl.pages(name):
        assert cell.status == 200, (cell.name, cell.actor, cell.state)
        assert (cell.html is None) == (name in NOT_HTML), (cell.name, cell.actor, cell.state, cell.content_type)
        if cell.html is None:
            continue  # /favicon.ico, a position: not a page
        actor, url = cell.actor, cell.url
        page = parse(cell.html)
        if page.hx_writes:  # htmx sends <body hx-headers> with each request: the token must be there
            assert page.hx_headers and json.loads(page.hx_headers).get("X-CSRFToken"), (name, url)
        for form in page.forms:
            fields = dict(form["fields"])
            if form["method"] != "post":
                assert TOKEN_FIELD not in fields, f"{name}: a GET form would put the CSRF token in the URL ({url})"
                continue
            assert fields.get(TOKEN_FIELD), f"{name} as {actor}: a POST form without a CSRF token ({url})"
            own_forms += urlsplit(urljoin(url, form["action"])).path not in ("/accounts/logout/", "/i18n/setlang/")
    assert own_forms or name not in FORM_ENDPOINTS, f"{name}: no POST form of its own on its pages"
    problems = [problem for problem in crawl.posts_of(name).values() if problem]
    assert not problems, "\n".join(problems)


def test_the_crawl_reaches_the_sites_pages_and_forms():
    """The crawl is not vacuous: it opens the matrix's pages (each endpoint's test above checks that every one of
    them answered 200 with HTML) and the site's forms (each endpoint of FORM_ENDPOINTS shows a POST form of its
    own, checked above; every form is posted without and with its token)."""
    assert page_count() >= 40 and len(FORM_ENDPOINTS) >= 12, (page_count(), sorted(FORM_ENDPOINTS))


def test_htmx_requests_carry_the_token_in_a_header(world):
    """base.html puts the token in <body hx-headers>: htmx sends it with every request it makes."""
    game_list = world.list("private")
    client = world.page_client("owner", enforce_csrf_checks=True)
    page = parse(client.get(f"/lists/{game_list.slug}/edit/").content.decode())
    assert page.hx_writes == [f"/lists/{game_list.slug}/edit/"]
    headers = json.loads(page.hx_headers)
    form = dict(next(f for f in page.forms if f["action"] == f"/lists/{game_list.slug}/edit/")["fields"])
    form.pop(TOKEN_FIELD)
    form["op"] = "add:weapons:HT-002"
    without = client.post(f"/lists/{game_list.slug}/edit/", form, HTTP_HX_REQUEST="true")
    assert without.status_code == 403
    with_header = client.post(f"/lists/{game_list.slug}/edit/", form, HTTP_HX_REQUEST="true",
                              HTTP_X_CSRFTOKEN=headers["X-CSRFToken"])
    assert with_header.status_code == 200 and 'id="editor-live"' in with_header.content.decode()


def _session_api(world: World, actor: str = "owner") -> APIClient:
    client = shared_handler(APIClient(enforce_csrf_checks=True))
    client.force_login(world.users[actor])
    return client


@pytest.mark.parametrize("method, path, body", [
    ("post", "/api/lists/", lambda gl: {"document": hagmi_doc(), "visibility": "private"}),
    ("patch", "/api/lists/{slug}/", lambda gl: {"notes": "x", "version": gl.version}),
    ("delete", "/api/lists/{slug}/", lambda gl: None),
    ("post", "/api/lists/{slug}/fork/", lambda gl: None),
    ("post", "/api/lists/import/", lambda gl: {"json": hagmi_doc()}),
    ("post", "/api/simulations/", lambda gl: {"list": gl.slug, "opponent": "goldfish", "games": 2, "seed": 1}),
    ("post", "/api/auth/logout/", lambda gl: None),
])
def test_session_authenticated_api_writes_need_the_token(world, method, path, body):
    game_list = world.new_list("private")
    url = path.format(slug=game_list.slug)
    client = _session_api(world)
    refused = getattr(client, method)(url, body(game_list), format="json")
    assert refused.status_code == 403 and "CSRF" in refused.json()["error"]["message"]
    client.get("/lists/")  # a page hands the browser its CSRF cookie
    token = client.cookies["csrftoken"].value
    accepted = getattr(client, method)(url, body(game_list), format="json", HTTP_X_CSRFTOKEN=token)
    assert accepted.status_code < 300, accepted.content


def test_token_authenticated_api_writes_need_no_csrf_token(world):
    client = world.api_client("owner")
    client.handler.enforce_csrf_checks = True
    try:
        created = client.post("/api/lists/", {"document": hagmi_doc(), "visibility": "private"}, format="json")
        assert created.status_code == 201
    finally:
        client.handler.enforce_csrf_checks = False


def test_the_session_login_api_takes_json_only(world):
    """A cross-site HTML form can send form-encoded or text/plain bodies but not JSON: refusing them is what
    keeps another site from signing a visitor into the attacker's account (login CSRF)."""
    client = shared_handler(APIClient(enforce_csrf_checks=True))
    credentials = {"username": "owner", "password": PASSWORD}
    form = client.post("/api/auth/login/", credentials)  # multipart, as a cross-site form would send
    assert form.status_code == 415 and "sessionid" not in client.cookies
    text = client.post("/api/auth/login/", json.dumps(credentials), content_type="text/plain")
    assert text.status_code == 415 and "sessionid" not in client.cookies
    as_json = client.post("/api/auth/login/", credentials, format="json")
    assert as_json.status_code == 200 and "sessionid" in client.cookies


def test_the_login_page_refuses_a_post_without_the_token(world):
    client = world.page_client("anon", enforce_csrf_checks=True)
    response = client.post("/accounts/login/", {"username": "owner", "password": PASSWORD})
    assert response.status_code == 403 and "_auth_user_id" not in client.session



@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/", "/\\evil.example/"])
def test_next_never_sends_a_visitor_to_another_site(world, target):
    """The login page and the language switcher take a `next` address: only this site's are followed."""
    client = world.page_client("anon")
    login = client.post(f"/accounts/login/?next={target}", {"username": "owner", "password": PASSWORD})
    assert login.status_code == 302 and login["Location"] == "/"
    switch = client.post("/i18n/setlang/", {"language": "ja", "next": target})
    assert switch.status_code == 302 and "evil.example" not in switch["Location"]
