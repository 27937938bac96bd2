"""One crawl of the permission matrix (tests/security/test_permission_matrix.py), kept for the test session: every
cell (endpoint x method x state x actor) is requested at most once per test process, and the answers serve the
matrix's own checks, the CSP checks (tests/security/test_csp.py) and the CSRF checks (tests/security/test_csrf.py).
An endpoint is crawled when a test first needs it (its matrix test, or a test reading every page), so pytest-xdist's
processes split the endpoints between them. docs/testing.md, "Crawls and browser flows".

Each endpoint's cells run as its own test used to: a fresh World (lists, runs) in a savepoint rolled back after it,
the caches (the throttles count there) emptied first. The CSRF check's second half, posting every distinct POST form
of the crawled pages without and with its token, needs the objects those pages name: it runs in the endpoint's
savepoint too, after the cells (in a savepoint of its own, so the cells' writes and the posts do not meet), and its
findings are kept like the answers.

The crawl records and never asserts: the tests assert on what it kept, so a failure names its test and cell.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from django.core.cache import cache
from django.db import transaction

from builder.throttles import throttle_cache
from tests.security.conftest import World
from tests.security.test_permission_matrix import MATRIX, Call, Expect, _mismatch, _object, _request

TOKEN_FIELD = "csrfmiddlewaretoken"


class Forms(HTMLParser):
    """The page's <form>s (method, action, fields as a browser would submit them: checked boxes, textareas, the
    selected option of a select, else its first) and the <body>'s hx-headers."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self.hx_headers: str | None = None
        self.hx_writes: list[str] = []  # elements that make htmx send a non-GET request
        self._form: dict | None = None
        self._textarea: str | None = None
        self._select: list | None = None  # a <select> being read: its name, first and selected option values

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
        if tag == "option" and self._select is not None:
            value = attrs.get("value", "")
            if self._select[1] is None:
                self._select[1] = value
            if "selected" in attrs and self._select[2] is None:
                self._select[2] = value
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
        elif tag == "select":
            self._select = [name, None, None]  # name, first option's value, the selected one's
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
        elif tag == "select" and self._select is not None:
            name, first, selected = self._select
            if self._form is not None and (selected or first) is not None:
                self._form["fields"].append((name, selected if selected is not None else first))
            self._select = None

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)


def parse(html: str) -> Forms:
    parser = Forms()
    parser.feed(html)
    return parser


@dataclass(frozen=True)
class Cell:
    """One cell's answer: what the matrix, CSP and CSRF checks read."""
    name: str
    call_index: int  # the call's place in MATRIX[name]
    call: Call
    state: str
    actor: str
    expected: Expect
    status: int
    problem: str | None  # the matrix's finding (status, leaked or missing name, the index's check), None: as expected
    csp: str | None  # the Content-Security-Policy header
    content_type: str
    url: str  # the path and query asked
    html: str | None  # the body of an HTML answer to a GET of a page (not the API)

    @property
    def page(self) -> bool:
        """A page of the matrix this actor may open (the CSRF, CSP and layout crawls' pages)."""
        return not self.call.api and self.call.method == "GET" and self.expected.status == 200


class Crawl:
    """The crawl's answers, endpoint by endpoint: an endpoint's cells are requested the first time a test of this
    process asks for them (the matrix's test of that endpoint, or a test that reads every page), so pytest-xdist's
    processes share the endpoints between them, and no endpoint is crawled twice in one process."""

    def __init__(self) -> None:
        self.users: dict = {}  # the asking test's users (each test has its own database rows)
        self._cells: dict[str, list[Cell]] = {}
        self._seen: set[tuple[str, str, str]] = set()
        # the CSRF posts, by the endpoint whose pages first showed the form: (actor, form address with its objects'
        # states, fields) -> problem or None
        self.posts: dict[str, dict[tuple[str, str, str], str | None]] = {}

    def of(self, name: str) -> list[Cell]:
        """The cells of endpoint `name`, crawled now if this process has not crawled them yet."""
        if name not in self._cells:
            self._cells[name] = self._crawl(name)
        return self._cells[name]

    @property
    def cells(self) -> list[Cell]:
        return [cell for name in sorted(MATRIX) for cell in self.of(name)]

    def pages(self, name: str | None = None) -> list[Cell]:
        """Every page of the matrix (of endpoint `name`) as every actor who may open it (expected 200)."""
        return [cell for cell in (self.of(name) if name else self.cells) if cell.page]

    def posts_of(self, name: str) -> dict[tuple[str, str, str], str | None]:
        self.of(name)
        return self.posts[name]

    def _crawl(self, name: str) -> list[Cell]:
        """One endpoint: its cells in a savepoint of their own, then the CSRF posts of its pages' forms not yet
        posted, in another; both rolled back, the caches (the throttles count there) emptied before each."""
        cache.clear()
        throttle_cache.clear()
        with transaction.atomic():
            world = World(self.users)
            _objects(world, name)  # before the cells' savepoint: the CSRF posts need them after it
            with transaction.atomic():
                found = _cells(world, name)
                transaction.set_rollback(True)
            cache.clear()
            throttle_cache.clear()
            with transaction.atomic():
                self.posts[name] = _csrf_posts(world, [cell for cell in found if cell.page and cell.html], self._seen)
                transaction.set_rollback(True)
            transaction.set_rollback(True)
        cache.clear()
        throttle_cache.clear()
        return found


_CRAWL = Crawl()


def matrix_crawl(users: dict) -> Crawl:
    """The process's crawl; what it has not crawled yet, it crawls with the asking test's users (owner, other,
    staff, editor: the same names in every test)."""
    _CRAWL.users = users
    return _CRAWL


def _objects(world: World, name: str) -> None:
    """The endpoint's shared objects (its lists or runs in every state, what its calls set up), made in the
    endpoint's savepoint, outside the cells' own."""
    for call in MATRIX[name]:
        if call.kind == "list":
            world.all_lists()
        elif call.kind == "run":
            world.all_runs()
        elif call.kind == "field":
            world.all_fields()
        elif call.kind == "matrix":
            world.all_matrices()
        elif call.kind == "event":
            world.all_events()
        if call.setup is not None:
            call.setup(world)


def _generic(world: World, text: str) -> str:
    """`text` with the world's list slugs and run ids replaced by their states (and a sample list by `<sample>`): the
    same form of the same kind of object is one form, whichever endpoint's World showed it."""
    for state, game_list in world._lists.items():
        text = text.replace(game_list.slug, f"<list {state}>")
    for state, run in world._runs.items():
        text = text.replace(run.public_id, f"<run {state}>")
    for state, field in world._fields.items():
        text = text.replace(field.slug, f"<field {state}>")
    for state, matrix in world._matrices.items():
        text = text.replace(matrix.public_id, f"<matrix {state}>")
    for state, event in world._events.items():
        text = text.replace(event.submission.public_id, f"<submission {state}>").replace(event.slug, f"<event {state}>")
        text = text.replace(f"/players/{event.entrant_row.pk}/", f"/players/<entrant {state}>/")
    # the bundled sample lists' copy buttons are one form: the first copy fills the empty "My lists" that shows them
    return re.sub(r"^/lists/samples/[^/]+/[^/]+/copy/$", "/lists/samples/<sample>/copy/", text)


def _cells(world: World, name: str) -> list[Cell]:
    """Every cell of one endpoint, as test_permission_matrix walked them: state, then actor, for each call."""
    cells = []
    for index, call in enumerate(MATRIX[name]):
        for state in call.states:
            for actor in call.actors:
                if call.setup is not None:
                    call.setup(world)
                expected = call.expect(actor, state)
                obj = _object(world, call, state, expected)
                response, shown = _request(world, call, actor, obj)
                problem = _mismatch(call, expected, response, shown)
                if problem is None and call.check is not None:
                    problem = call.check(world, actor, response.content.decode("utf-8", "replace"))
                content_type = response.get("Content-Type", "")
                html = (response.content.decode("utf-8", "replace")
                        if not call.api and call.method == "GET" and content_type.startswith("text/html") else None)
                cells.append(Cell(name, index, call, state, actor, expected, response.status_code, problem,
                                  response.get("Content-Security-Policy"), content_type,
                                  response.wsgi_request.get_full_path(), html))
    return cells


# Buttons that take themselves away once pressed: posted once (by the first actor whose page shows them), and an
# event's lock and publish after its other buttons (a locked event shows no "remove a player").
ONCE = ("/remove/", "/lock/", "/publish/")
LAST = ("/lock/", "/publish/")


def _csrf_posts(world: World, pages: list[Cell], seen: set) -> dict[tuple[str, str, str], str | None]:
    """Each POST form of `pages` not posted before (by the same actor, to the same address, with the same fields),
    posted by that actor without its token (must be a 403 that says CSRF) and with it (must not be a 403). The
    buttons that move a list to the trash, or a card out of a draft, go last: the other forms of that list or card
    must still work."""
    forms: dict[tuple[str, str, str], tuple[str, dict]] = {}
    for cell in pages:
        for form in parse(cell.html).forms:
            fields = dict(form["fields"])
            if form["method"] != "post" or not fields.get(TOKEN_FIELD):
                continue  # a GET form, or a POST form without a token: test_csrf fails on the page itself
            action = urlsplit(urljoin(cell.url, form["action"])).path
            if action.endswith(ONCE) and any(key[1] == _generic(world, action) for key in seen | set(forms)):
                continue  # a card out of the draft (an event's lock...) once: the next actor's page has no button
            key = (cell.actor, _generic(world, action), ",".join(sorted(fields)))
            if key not in seen and key not in forms:
                forms[key] = (cell.url, action)
    seen.update(forms)
    results: dict[tuple[str, str, str], str | None] = {}
    for (actor, generic, fields_key), (url, action) in sorted(forms.items(), key=lambda item: (
            2 if item[0][1].endswith(LAST) else item[0][1].endswith(("/delete/", "/remove/")), item[0])):
        client = world.page_client(actor, enforce_csrf_checks=True)
        fresh = parse(client.get(url).content.decode())  # this client's own token and cookie
        same = [f for f in fresh.forms if urlsplit(urljoin(url, f["action"])).path == action and f["method"] == "post"]
        if not same:
            results[(actor, generic, fields_key)] = f"{url}: the form posting to {action} is gone on a second look"
            continue
        fields = dict(same[0]["fields"])
        if same[0]["submit"]:
            fields.setdefault(*same[0]["submit"])
        without = {key: value for key, value in fields.items() if key != TOKEN_FIELD}
        problems = []
        refused = client.post(action, without)
        if refused.status_code != 403 or b"CSRF" not in refused.content:
            problems.append(f"{action} as {actor} without the token: {refused.status_code}")
        accepted = client.post(action, fields)
        if accepted.status_code == 403:
            problems.append(f"{action} as {actor} WITH the token is refused too: the form itself is broken")
        results[(actor, generic, fields_key)] = "; ".join(problems) or None
    return results


def hx_headers_token(html: str) -> bool:
    """Whether <body hx-headers> carries the CSRF token (what htmx sends with each request)."""
    page = parse(html)
    return bool(page.hx_headers and json.loads(page.hx_headers).get("X-CSRFToken"))


def every_page(world: World, actors: tuple[str, ...] | None = None, part: tuple[int, int] = (0, 1)):
    """(name, actor, url, html) of every page of the matrix that the actor may open (expected 200), requested now
    in `world` (the layout walk's, on the live server: its own objects), for every actor or those of `actors`;
    with `part` (k, n), only every n-th of those pages from the k-th (the others are not requested)."""
    number = -1
    for name, calls in sorted(MATRIX.items()):
        for call in calls:
            if call.api or call.method != "GET":
                continue
            for state in call.states:
                for actor in call.actors:
                    if actors is not None and actor not in actors:
                        continue
                    expected = call.expect(actor, state)
                    if expected.status != 200:
                        continue
                    number += 1
                    if number % part[1] != part[0]:
                        continue
                    obj = _object(world, call, state, expected)
                    response, _name = _request(world, call, actor, obj)
                    assert response.status_code == 200, (name, actor, state)
                    if not response["Content-Type"].startswith("text/html"):
                        continue  # /favicon.ico: an image, not a page
                    yield name, actor, response.wsgi_request.get_full_path(), response.content.decode()


def page_cells(actor: str) -> list[str]:
    """The names of `actor`'s pages in `every_page`'s order, from the matrix alone."""
    return [name for name, calls in sorted(MATRIX.items()) for call in calls if not call.api and call.method == "GET"
            for state in call.states if actor in call.actors and call.expect(actor, state).status == 200]


def page_names() -> list[str]:
    """The matrix's endpoints with a page someone may open (a GET of a page, not the API, expected 200)."""
    return sorted(name for name, calls in MATRIX.items() if any(
        not call.api and call.method == "GET" and call.expect(actor, state).status == 200
        for call in calls for state in call.states for actor in call.actors))


# The matrix's "pages" that are not HTML: /favicon.ico (an image) and a replay's step as a position (JSON).
NOT_HTML = frozenset({"favicon", "replay_position", "package_battlescribe", "event_export"})
# Endpoints whose pages carry a POST form of their own, besides the header's (log out, language): the CSRF check
# must find and post them (each endpoint's test checks its pages have one).
FORM_ENDPOINTS = frozenset({"login", "signup", "list_detail", "list_edit", "list_new", "list_import", "list_sheet",
                            "simulation_new", "gauntlet_new", "doctor_new", "impact_new", "matrix_new", "beats_new",
                            "field_new", "field_detail", "field_edit", "data_import", "draft_detail", "draft_card",
                            "draft_card_new", "card_propose", "replay", "analysis", "event_manage"})


def page_count() -> int:
    """How many HTML pages (name, actor, state) the crawl opens."""
    return sum(1 for name, calls in MATRIX.items() if name not in NOT_HTML for call in calls
               if not call.api and call.method == "GET" for state in call.states for actor in call.actors
               if call.expect(actor, state).status == 200)
