"""CSRF (docs/security.md): every POST form of every page carries the token and is refused without it; htmx
requests send it in a header; session-authenticated API writes need it, token-authenticated ones do not; the
session login API takes JSON only (a cross-site form cannot sign a visitor into another account)."""
from __future__ import annotations

import json
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest
from rest_framework.test import APIClient

from tests.builder.conftest import hagmi_doc
from tests.security.conftest import PASSWORD, World, shared_handler
from tests.security.test_permission_matrix import MATRIX, _object, _request

pytestmark = pytest.mark.django_db
TOKEN_FIELD = "csrfmiddlewaretoken"


class Forms(HTMLParser):
    """The page's <form>s (method, action, fields as a browser would submit them) and the <body>'s hx-headers."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self.hx_headers: str | None = None
        self.hx_writes: list[str] = []  # elements that make htmx send a non-GET request
        self._form: dict | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "body":
            self.hx_headers = attrs.get("hx-headers")
        for verb in ("hx-post", "hx-put", "hx-patch", "hx-delete"):
            if verb in attrs:
                self.hx_writes.append(attrs[verb])
        if tag == "form":
            self._form = {"method": (attrs.get("method") or "get").lower(), "action": attrs.get("action") or "",
                          "fields": [], "submit": None}
            self.forms.append(self._form)
        if self._form is None or not attrs.get("name"):
            return
        name = attrs["name"]
        if tag == "input":
            kind = (attrs.get("type") or "text").lower()
            if kind in ("checkbox", "radio") and "checked" not in attrs:
                return
            if kind == "submit":
                self._form["submit"] = self._form["submit"] or (name, attrs.get("value", ""))
            elif kind != "file":
                self._form["fields"].append((name, attrs.get("value", "")))
        elif tag == "textarea":
            self._textarea = name
            self._form["fields"].append((name, ""))
        elif tag == "button" and (attrs.get("type") or "submit") == "submit":
            self._form["submit"] = self._form["submit"] or (name, attrs.get("value", ""))

    def handle_data(self, data):
        if self._form is not None and self._textarea is not None:
            name, value = self._form["fields"][-1]
            self._form["fields"][-1] = (name, value + data)

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "textarea":
            self._textarea = None

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)


def parse(html: str) -> Forms:
    parser = Forms()
    parser.feed(html)
    return parser


def every_page(world: World):
    """(actor, url) of every page of the matrix that the actor may open (expected 200): every page, as every user."""
    for name, calls in sorted(MATRIX.items()):
        for call in calls:
            if call.api or call.method != "GET":
                continue
            for state in call.states:
                for actor in call.actors:
                    expected = call.expect(actor, state)
                    if expected.status != 200:
                        continue
                    obj = _object(world, call, state, expected)
                    response, _name = _request(world, call, actor, obj)
                    assert response.status_code == 200, (name, actor, state)
                    if not response["Content-Type"].startswith("text/html"):
                        continue  # /favicon.ico: an image, not a page
                    yield name, actor, response.wsgi_request.get_full_path(), response.content.decode()


def test_every_post_form_on_every_page_carries_the_token_and_is_refused_without_it(world):
    """Every page of the matrix, as every actor who may open it; then each distinct form, posted by that actor
    without its token (403) and with it (anything but 403: the refusal was the token's)."""
    seen: dict[tuple[str, str, str], tuple[str, dict]] = {}
    pages = 0
    for name, actor, url, html in every_page(world):
        pages += 1
        page = parse(html)
        if page.hx_writes:  # htmx sends <body hx-headers> with each request: the token must be there
            assert page.hx_headers and json.loads(page.hx_headers).get("X-CSRFToken"), (name, url)
        for form in page.forms:
            fields = dict(form["fields"])
            if form["method"] != "post":
                assert TOKEN_FIELD not in fields, f"{name}: a GET form would put the CSRF token in the URL ({url})"
                continue
            assert fields.get(TOKEN_FIELD), f"{name} as {actor}: a POST form without a CSRF token ({url})"
            action = urlsplit(urljoin(url, form["action"])).path
            if action.endswith("/remove/") and any(key[1] == action for key in seen):
                continue  # a card out of the draft once: the next actor's page no longer has its button
            seen.setdefault((actor, action, ",".join(sorted(fields))), (url, form))
    print(f"{pages} pages, {len(seen)} distinct POST forms")
    assert pages >= 40 and len(seen) >= 12, (pages, sorted(seen))  # the crawl reached the site's forms
    problems = []
    # the buttons that move a list to the trash, or a card out of a draft, go last: the other forms of that list or
    # card must still work
    for (actor, action, _fields), (url, form) in sorted(seen.items(), key=lambda item: (
            item[0][1].endswith(("/delete/", "/remove/")), item[0])):
        client = world.page_client(actor, enforce_csrf_checks=True)
        fresh = parse(client.get(url).content.decode())  # this client's own token and cookie
        same = [f for f in fresh.forms if urlsplit(urljoin(url, f["action"])).path == action and f["method"] == "post"]
        assert same, (url, action)
        fields = dict(same[0]["fields"])
        if same[0]["submit"]:
            fields.setdefault(*same[0]["submit"])
        without = {key: value for key, value in fields.items() if key != TOKEN_FIELD}
        refused = client.post(action, without)
        if refused.status_code != 403 or b"CSRF" not in refused.content:
            problems.append(f"{action} as {actor} without the token: {refused.status_code}")
        accepted = client.post(action, fields)
        if accepted.status_code == 403:
            problems.append(f"{action} as {actor} WITH the token is refused too: the form itself is broken")
    assert not problems, "\n".join(problems)


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
