"""User text and package text are never rendered as HTML (docs/security.md, "Escaping").

A list's name, notes and revisions, an imported text, the names of cards, formats and opponents in a data
package, query parameters echoed back: all carry XSS payloads; every page that shows them (editor, share page and
its Open Graph tags, gallery, history and diff, tournament sheet, verification, import errors, catalog, card page,
rules, simulation pages, compare, replay, the browsable API, error pages) must show them as text:
  - no payload appears raw;
  - the page has no executable inline <script> and no on* attribute (the site has none of its own);
  - every json_script block is valid JSON without a "</" that could close it early;
  - and the payload's marker is on the page (the test really fed it user content).
A grep test keeps `|safe`, `mark_safe`, `{% autoescape off %}` and innerHTML-style sinks out of the code.
"""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.test import Client

from builder import services
from builder.web import presenters
from cards.services import package_import
from tests.builder.conftest import hagmi_doc, hagmi_package
from tests.security.conftest import shared_handler
from tests.support.simulations import GOLDFISH, play_all

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]

PAYLOADS = [
    '<script>alert("xss1")</script>',
    '"><img src=x onerror=alert("xss2")>',
    "'><svg onload=alert('xss3')>",
    '</script><script>alert("xss4")</script>',
]
TEXT = " ".join(PAYLOADS)  # 150 characters: fits a list name (200)
MARKERS = ["xss1", "xss2", "xss3", "xss4"]


def evil_package() -> dict:
    """The builder test package with payloads in card names, a pilot, types, a format's and an opponent's names."""
    package = hagmi_package()
    for card in package["cards"][:3] + package["cards"][10:12]:
        card["name"] = card["name_en"] = f"{card['code']} {TEXT}"
    package["cards"][0]["pilot"] = TEXT
    package["cards"][0]["types"] = [PAYLOADS[1]]
    package["formats"][0]["name_en"] = package["formats"][0]["name"] = f"Tactics {TEXT}"
    package["title"] = TEXT
    package["opponents"] = [{**GOLDFISH, "name": f"Goldfish {TEXT}", "name_en": f"Goldfish {TEXT}"}]
    return package


class Page(HTMLParser):
    """Executable inline scripts, on* attributes and the json_script blocks of a page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self.json_blocks: list[str] = []
        self._json: bool = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        for name, _value in attrs:
            if name.lower().startswith("on"):
                self.problems.append(f"<{tag} {name}=...>: an event handler attribute")
        if tag == "script":
            kind = (attributes.get("type") or "").lower()
            if kind == "application/json":
                self._json = True
                self.json_blocks.append("")
            elif not attributes.get("src"):
                self.problems.append("an executable inline <script>")

    def handle_data(self, data):
        if self._json:
            self.json_blocks[-1] += data

    def handle_endtag(self, tag):
        if tag == "script":
            self._json = False


def assert_escaped(url: str, response, *, expect_marker: bool = True) -> str:
    body = response.content.decode("utf-8", "replace")
    for payload in PAYLOADS:
        assert payload not in body, f"{url}: raw payload {payload!r}"
    page = Page()
    page.feed(body)
    assert not page.problems, f"{url}: {page.problems}"
    for block in page.json_blocks:
        assert "</" not in block, f"{url}: a json_script block could be closed early"
        json.loads(block)
    if expect_marker:
        assert any(marker in body for marker in MARKERS), f"{url}: the page did not show the user's text at all"
    return body


@pytest.fixture
def evil(db, owner, other, published):
    """A public list full of payloads (2 revisions), with payload cards, and a finished run of it."""
    package_import(evil_package(), source="tests/security")
    document = hagmi_doc(name=TEXT)
    game_list = services.list_create(owner=owner, document=document, visibility="public", notes=TEXT)
    changed = {**document, "name": f"v2 {TEXT}",
               "sections": {**document["sections"], "weapons": document["sections"]["weapons"][1:]}}
    game_list = services.list_update(game_list=game_list, user=owner, document=changed, notes=f"{TEXT}\n{TEXT}",
                                     expected_version=game_list.version)
    run = services.simulation_start(user=owner, game_list=game_list, opponent_slug="goldfish", policy="greedy",
                                    games=2, seed=5)
    play_all(run)
    run.refresh_from_db()
    field = services.field_create(owner=owner, system="hagmi", name=" ".join(PAYLOADS[:2]), description=TEXT,
                                  visibility="public", entries=[{"opponent": "goldfish"}, {"list": game_list.slug}])
    return {"list": game_list, "run": run, "field": field}


def clients(owner, other) -> dict[str, Client]:
    result = {"anon": shared_handler(Client())}
    for name, user in (("owner", owner), ("other", other)):
        result[name] = shared_handler(Client())
        result[name].force_login(user)
    return result


def test_user_and_package_text_is_shown_as_text_on_every_page(evil, owner, other):
    game_list, run = evil["list"], evil["run"]
    slug, rid, fid = game_list.slug, run.public_id, evil["field"].slug
    revision = game_list.revisions.order_by("-number").first()
    code = presenters.verification_code(revision.document, revision.number)
    visitors = clients(owner, other)
    pages = {
        "owner": [f"/lists/{slug}/edit/", f"/lists/{slug}/edit/cards/?q=HT", "/lists/", f"/lists/{slug}/simulate/",
                  "/simulations/", "/lists/new/?system=hagmi", f"/fields/{fid}/edit/", "/fields/",
                  "/fields/new/?system=hagmi", f"/lists/{slug}/gauntlet/?field={fid}"],
        "other": [f"/lists/{slug}/", f"/lists/{slug}/history/", f"/lists/{slug}/history/?from=1&to=2",
                  f"/lists/{slug}/sheet/", f"/verify/?list={slug}&code={code}", f"/simulations/{rid}/",
                  f"/simulations/compare/?a={rid}&b={rid}", f"/simulations/{rid}/games/0/", "/lists/gallery/",
                  "/catalog/hagmi/", "/catalog/hagmi/?q=HT-001", "/catalog/hagmi/HT-001/", "/rules/hagmi/",
                  f"/fields/{fid}/", f"/lists/{slug}/gauntlet/?field={fid}"],
        "anon": [f"/lists/{slug}/", "/lists/gallery/", f"/lists/{slug}/sheet/", f"/simulations/{rid}/",
                 f"/fields/{fid}/", "/fields/"],
    }
    for actor, urls in pages.items():
        for url in urls:
            response = visitors[actor].get(url)
            assert response.status_code == 200, (actor, url, response.status_code)
            assert_escaped(url, response)
    share = visitors["anon"].get(f"/lists/{slug}/").content.decode()
    og_title = re.search(r'<meta property="og:title" content="([^"]*)">', share)
    assert og_title and "xss1" in og_title.group(1) and "<" not in og_title.group(1)  # the OG tag holds the name


def test_echoed_input_is_shown_as_text(evil, owner, other):
    """What a visitor types comes back escaped: searches, the verify form, the login page's next, the language
    switcher's next (the full path), the editor's unknown buttons, and ids in error pages."""
    visitors = clients(owner, other)
    slug = evil["list"].slug
    probe = PAYLOADS[1]
    cases = [
        ("anon", f"/catalog/hagmi/?q={probe}"),
        ("anon", f"/verify/?list={probe}&code={probe}"),
        ("anon", f"/accounts/login/?next={probe}"),
        ("other", f"/lists/{probe}/"),  # "No list with id ..." on the 404 page
        ("other", f"/simulations/{probe}/"),
        ("owner", f"/lists/{slug}/edit/cards/?q={probe}"),
    ]
    for actor, url in cases:
        path, _, query = url.partition("?")
        response = visitors[actor].get(path, QUERY_STRING=query)  # the raw query, unencoded, as a forged link
        assert response.status_code in (200, 404), (url, response.status_code)
        assert_escaped(url, response, expect_marker=actor != "owner" or "q=" not in url)
    response = visitors["owner"].post(f"/lists/{slug}/edit/", {
        "document": json.dumps(hagmi_doc()), "version": evil["list"].version, "name": "x", "format": "",
        "visibility": "public", "notes": "", "op": probe})
    assert_escaped("editor op", response)


def test_import_errors_show_the_imported_text_as_text(evil, owner):
    client = shared_handler(Client())
    client.force_login(owner)
    for text in (f"System: hagmi\n[兵器]\n2 {PAYLOADS[0]}\n", f"System: hagmi\n[{PAYLOADS[1]}]\n2 HT-001\n",
                 f"System: {PAYLOADS[2]}\n2 HT-001\n", f"System: hagmi\n[兵器]\n2 HT-00\n"):
        response = client.post("/lists/import/", {"text": text, "visibility": "private"})
        assert response.status_code == 400, response.status_code
        assert_escaped("/lists/import/", response)  # the error names the bad line or suggests payload-named cards


def test_the_browsable_api_shows_user_text_as_text(evil, owner):
    client = shared_handler(Client())
    client.force_login(owner)
    slug = evil["list"].slug
    for url in (f"/api/lists/{slug}/", f"/api/lists/{slug}/revisions/", "/api/cards/?q=HT-001",
                f"/api/lists/{slug}/diff/?from=1&to=2", f"/api/simulations/{evil['run'].public_id}/"):
        response = client.get(url, HTTP_ACCEPT="text/html")
        assert response.status_code == 200 and response["Content-Type"].startswith("text/html"), url
        assert_escaped(url, response)


# --- the code itself -----------------------------------------------------------------------------------------

UNSAFE_TEMPLATE = re.compile(r"\|\s*safe\b|\|\s*safeseq\b|{%\s*autoescape\s+off|\|\s*escapejs\b")
UNSAFE_PYTHON = re.compile(r"\bmark_safe\(|\bSafeString\(|\bSafeText\(|format_html\([^'\"]")
# The one place that trusts HTML it did not escape itself: the rules pages' Markdown right after nh3 cleaned it with
# an allow-list (builder/web/markdown.py `_cleaned`; tests/web/test_markdown.py tries scripts, event handlers and
# javascript: links on it). File and the function's name, so a second mark_safe in that file is still found.
SANITISED = {("builder/web/markdown.py", "_cleaned")}
UNSAFE_JS = re.compile(r"\.innerHTML\b|\.outerHTML\b|insertAdjacentHTML|document\.write|\beval\(|new Function\(")


def test_no_template_python_or_script_turns_text_into_html():
    """Escaping is Django's autoescape plus format_html with a literal format string; our scripts only use
    textContent and setAttribute. Third-party bundles (static/vendor) are out of scope."""
    found = []
    for file in sorted((ROOT / "templates").rglob("*.html")) + sorted(ROOT.glob("*/templates/**/*.html")):
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
            if UNSAFE_TEMPLATE.search(line):
                found.append(f"{file.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    for package in ("builder", "cards", "hangar"):
        for file in sorted((ROOT / package).rglob("*.py")):
            function = ""
            for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
                function = line.split("(")[0].removeprefix("def ") if line.startswith("def ") else function
                if UNSAFE_PYTHON.search(line) and (str(file.relative_to(ROOT)), function) not in SANITISED:
                    found.append(f"{file.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    for file in sorted((ROOT / "static" / "hangar").rglob("*.js")):
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
            if UNSAFE_JS.search(line):
                found.append(f"{file.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not found, "\n".join(found)
