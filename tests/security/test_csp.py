"""The Content-Security-Policy (docs/security.md, "Content-Security-Policy").

- every URL of the permission matrix (pages, API, refusals, 404s) sends exactly the documented policy, read from
  docs/security.md, without a nonce; the API docs page adds only its nonce and `data:` images;
- the API docs page's one inline script carries that response's nonce, new for every response;
- no page of the matrix, as any actor who may open it, has an inline style or an inline executable script, and no
  template has one (the browser tests, tests/browser/, catch what a script would add at run time);
- the browsable API's template is still DRF's, but for the inline styles it drops.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import rest_framework
from django.conf import settings

from tests.security.conftest import World
from tests.security.crawl import NOT_HTML, page_count, page_names
from tests.security.test_permission_matrix import MATRIX

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
DOCS_EXCEPTION = {"script-src": {"'nonce-*'"}, "img-src": {"data:"}}  # what /api/docs/ adds (hangar/api_docs.py)


def parse_policy(header: str) -> dict[str, set[str]]:
    directives = [part.split() for part in header.split(";") if part.strip()]
    policy = {words[0]: set(words[1:]) for words in directives}
    assert len(policy) == len(directives), f"a directive is repeated: {header}"
    return policy


def documented_policy() -> dict[str, set[str]]:
    """The policy as docs/security.md states it, in its "Content-Security-Policy" section."""
    text = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    section = text.split("\n## Content-Security-Policy\n", 1)[1]
    found = re.search(r"^Content-Security-Policy: (.+)$", section, re.M)
    assert found, "docs/security.md states the header in its Content-Security-Policy section"
    return parse_policy(found.group(1))


def without_nonce(policy: dict[str, set[str]]) -> dict[str, set[str]]:
    return {key: {"'nonce-*'" if source.startswith("'nonce-") else source for source in sources}
            for key, sources in policy.items()}


def test_the_settings_are_the_documented_policy():
    configured = {key: set(sources) for key, sources in settings.CONTENT_SECURITY_POLICY["DIRECTIVES"].items()}
    assert configured == documented_policy()
    assert "csp.middleware.CSPMiddleware" in settings.MIDDLEWARE
    for sources in configured.values():
        assert not sources & {"'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "*", "data:", "http:", "https:"}


@pytest.mark.parametrize("name", sorted(MATRIX))
def test_every_page_sends_the_content_security_policy(crawl, name):
    """One cell of every call of the matrix (every URL pattern and method, the owner where the call has objects),
    from the one crawl (tests/security/crawl.py): the header is exactly the documented policy; only the API docs
    page differs, by its documented exception."""
    expected = documented_policy()
    docs = {key: expected.get(key, set()) | DOCS_EXCEPTION.get(key, set()) for key in expected | DOCS_EXCEPTION}
    problems = []
    for index, call in enumerate(MATRIX[name]):
        actor = "owner" if "owner" in call.actors else call.actors[0]
        state = call.states[0]
        (cell,) = [cell for cell in crawl.of(name) if cell.call_index == index and cell.actor == actor
                   and cell.state == state]
        header = cell.csp
        if header is None:
            problems.append(f"{call.method} {call.path} ({cell.status}): no Content-Security-Policy")
        elif without_nonce(parse_policy(header)) != (docs if name == "api-docs" else expected):
            problems.append(f"{call.method} {call.path} ({cell.status}): {header}")
    assert not problems, "\n".join(problems)


def test_a_404_sends_the_content_security_policy(world: World):
    expected = documented_policy()
    problems = []
    for path in ("/no-such-page/", "/api/no-such-endpoint/", "/catalog/hagmi/NO-SUCH-CARD/"):
        response = world.page_client("anon").get(path)
        assert response.status_code == 404, path
        if parse_policy(response.get("Content-Security-Policy", "")) != expected:
            problems.append(f"GET {path} (404): {response.get('Content-Security-Policy')}")
    assert not problems, "\n".join(problems)


def test_the_policy_checks_cover_the_site():
    """One cell of every call (the test above, one endpoint each) and every page (the inline check below)."""
    assert sum(len(calls) for calls in MATRIX.values()) >= 85
    assert page_count() >= 100, page_count()


def test_the_api_docs_script_carries_a_fresh_nonce(world: World):
    client = world.page_client("anon")
    nonces = []
    for _ in range(2):
        response = client.get("/api/docs/")
        assert response.status_code == 200
        policy = parse_policy(response["Content-Security-Policy"])
        (nonce_source,) = [source for source in policy["script-src"] if source.startswith("'nonce-")]
        nonce = nonce_source[len("'nonce-"):-1]
        assert len(nonce) >= 22, nonce  # 16 random bytes, base64
        page = Inline()
        page.feed(response.content.decode())
        assert page.inline_scripts == [nonce], page.inline_scripts  # exactly one inline script, with this nonce
        assert page.styles == [], page.styles
        assert policy["style-src"] == {"'self'"}
        nonces.append(nonce)
    assert nonces[0] != nonces[1]


class Inline(HTMLParser):
    """Inline styles (style elements and attributes) and inline executable scripts (their nonce, or None)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.styles: list[str] = []
        self.inline_scripts: list[str | None] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if "style" in attributes:
            self.styles.append(f'<{tag} style="{attributes["style"]}">')
        if tag == "style":
            self.styles.append("<style>")
        if tag == "script" and not attributes.get("src") and (attributes.get("type") or "") != "application/json":
            self.inline_scripts.append(attributes.get("nonce"))

    handle_startendtag = handle_starttag


@pytest.mark.parametrize("name", page_names())
def test_no_page_has_an_inline_style_or_script(crawl, name):
    """Every page of the matrix as every actor who may open it (the rendered HTML, template tags included), from
    the one crawl (tests/security/crawl.py), one endpoint's pages each."""
    problems = []
    for cell in crawl.pages(name):
        assert cell.status == 200, (cell.name, cell.actor, cell.state)
        assert (cell.html is None) == (name in NOT_HTML), (cell.name, cell.actor, cell.state, cell.content_type)
        if cell.html is None:
            continue  # /favicon.ico, a position: not a page
        page = Inline()
        page.feed(cell.html)
        if page.styles or page.inline_scripts:
            problems.append(f"{cell.url} as {cell.actor}: "
                            f"{page.styles + [f'<script nonce={n}>' for n in page.inline_scripts]}")
    assert not problems, "\n".join(problems)


def test_no_template_has_an_inline_style_or_script():
    """The site's templates: no style attribute or element; an inline script only with the response's nonce."""
    problems = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        text = re.sub(r"{% comment %}.*?{% endcomment %}|{#.*?#}", "", path.read_text(encoding="utf-8"), flags=re.S)
        name = path.relative_to(ROOT)
        if re.search(r"\sstyle\s*=", text) or re.search(r"<style[\s>]", text):
            problems.append(f"{name}: an inline style")
        for tag in re.findall(r"<script\b[^>]*>", text):
            if "src=" not in tag and 'nonce="{{ request.csp_nonce }}"' not in tag:
                problems.append(f"{name}: {tag} (an inline script without the nonce)")
    assert not problems, "\n".join(problems)


def test_the_browsable_api_template_is_drfs_but_for_its_inline_styles():
    """templates/rest_framework/api.html copies DRF's request_forms block: after a DRF upgrade, copy it again."""
    drf_base = Path(rest_framework.__file__).parent / "templates" / "rest_framework" / "base.html"
    block = re.compile(r"{% block request_forms %}.*?{% endblock request_forms %}", re.S)
    theirs = block.search(drf_base.read_text(encoding="utf-8")).group(0)
    ours = block.search((ROOT / "templates" / "rest_framework" / "api.html").read_text(encoding="utf-8")).group(0)
    theirs = theirs.replace('<div class="dropdown" style="float: right; margin-right: 10px">',
                            '<div class="dropdown pull-right hangar-action">')
    theirs = theirs.replace('<button style="float: right; margin-right: 10px" data-toggle="modal" '
                            'data-target="#filtersModal" class="btn btn-default">',
                            '<button data-toggle="modal" data-target="#filtersModal" '
                            'class="btn btn-default pull-right hangar-action">')
    assert ours == theirs
