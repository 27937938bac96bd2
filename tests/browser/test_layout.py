"""Issue 14, Tests: every page of the permission matrix (tests/security/test_permission_matrix.py), as every actor
who may open it, and the same kinds of page for MWDA and Warcaster, at 1280×900, 1024×768 and 390×844 in a real
Chromium, in English, and again in Japanese at 390×844:

- no element covers an interactive control: each visible a, button, input, select, textarea, summary and focusable
  [tabindex] is scrolled into view, and the element at the centre of its first box (document.elementFromPoint) must
  be the control, inside it, or a label of it. Controls hidden on purpose are skipped: no box (display: none, a
  closed <details>), .sr-only ones (clipped to nothing), and a skip link parked off-screen until it is focused;
- no page scrolls sideways: document.documentElement.scrollWidth <= window.innerWidth;
- axe-core (the npm package of tests/browser/js/, installed by `dev.py test`, loaded by this test only through
  Playwright's init script, which the site's CSP does not apply to; never served by the site) reports no serious or
  critical violation.

The pages and actors are the matrix's own, through the same World (tests/security/conftest.py) and the same crawl
as the CSRF and CSP tests (every GET page whose expected status is 200); htmx fragments in the matrix (the picker's
results, a run's progress) are checked inside the pages that hold them, and the refusal pages (404, 403, 400) too.
One browser, one context per actor and language (its session cookie); each page is loaded at the phone width, then
the window is widened to the next widths. The layout check runs at every width; axe-core once per page structure
as shown (the same template with other data gives the same answer), its slow color-contrast rule once per
structure. A failure lists every offender (page, actor, language, width, the control and what covers it) and leaves
a screenshot of each in test-artifacts/test_layout-<language>-<actor>-<n>-<page>-<width>.png.
"""
from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.test import Client

from builder import services
from cards.services import package_import
from tests.browser.conftest import ARTIFACTS, TIMEOUT_MS, watch_csp
from tests.security.conftest import World
from tests.security.crawl import every_page
from tests.support.simulations import hagmi_catalog, published  # noqa: F401  (the matrix's catalog; no workers)

PACKAGES = Path(__file__).resolve().parents[2] / "cards" / "packages"
AXE = Path(__file__).resolve().parent / "js" / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS = ((390, 844), (1024, 768), (1280, 900))  # loaded at the first, then widened
SERIOUS = ("serious", "critical")

# One pass over the page at its current width: the covered controls and what covers them, and the page's width.
LAYOUT_CHECK = r"""
() => {
  const describe = (el) => {
    if (!el) return "nothing (outside the page)";
    let text = el.tagName.toLowerCase();
    if (el.id) text += "#" + el.id;
    for (const name of el.classList) text += "." + name;
    for (const attribute of ["name", "type", "value", "href", "for"]) {
      const value = el.getAttribute(attribute);
      if (value !== null && value !== "") text += `[${attribute}="${value.slice(0, 40)}"]`;
    }
    const label = (el.getAttribute("aria-label") || el.innerText || el.value || "").trim().replace(/\s+/g, " ");
    if (label) text += ` "${label.slice(0, 40)}"`;
    return text;
  };
  const path = (el) => {
    const parts = [];
    for (let node = el.parentElement; node && node !== document.body && parts.length < 4; node = node.parentElement) {
      parts.unshift(node.tagName.toLowerCase() + (node.id ? "#" + node.id : "") +
                    (node.classList.length ? "." + [...node.classList].join(".") : ""));
    }
    return parts.join(" > ");
  };
  const width = window.innerWidth, height = window.innerHeight;
  const covered = [], offscreen = [];
  let checked = 0;
  const selector = "a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]:not([tabindex='-1'])";
  for (const el of document.querySelectorAll(selector)) {
    if (!el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) continue;
    if (el.closest(".sr-only")) continue;  // for screen readers only: clipped to nothing on screen
    const box = [...el.getClientRects()].find((r) => r.width > 1 && r.height > 1);
    if (!box) continue;  // no box
    el.scrollIntoView({block: "center", inline: "center"});
    const rect = [...el.getClientRects()].find((r) => r.width > 1 && r.height > 1);
    const x = rect.left + rect.width / 2, y = rect.top + rect.height / 2;
    if (x < 0 || y < 0 || x >= width || y >= height) {
      // parked off-screen on purpose until focused (the skip link), else a real problem
      if (!el.matches(".skip")) offscreen.push({control: describe(el), where: path(el)});
      continue;
    }
    checked += 1;
    const hit = document.elementFromPoint(x, y);
    if (hit && (hit === el || el.contains(hit))) continue;
    const label = hit && hit.closest("label");
    if (label && (label.control === el || [...(el.labels || [])].includes(label))) continue;
    covered.push({control: describe(el), where: path(el), cover: describe(hit), coverWhere: hit ? path(hit) : ""});
  }
  window.scrollTo(0, 0);
  const scrollWidth = document.documentElement.scrollWidth;
  const wide = [];
  if (scrollWidth > width) {  // what sticks out: elements past the right edge whose parent is not
    for (const el of document.body.querySelectorAll("*")) {
      const r = el.getBoundingClientRect(), parent = el.parentElement.getBoundingClientRect();
      if (r.right > width + 0.5 && r.width > 0 && (parent.right <= width + 0.5 || el.parentElement === document.body)) {
        wide.push(`${describe(el)} (${Math.round(r.left)}..${Math.round(r.right)} px) in ${path(el)}`);
        if (wide.length >= 5) break;
      }
    }
  }
  return {checked, covered, offscreen, scrollWidth, width, wide};
}
"""

# The page's structure for axe-core: elements, classes and the attributes its rules read, not the words. Pages of
# the same structure (the same template for another list, another actor of the same rights) get the same answer.
# `shown` adds what changes with the width and the language: which elements are drawn, which of them scroll, and the
# page's language.
STRUCTURE = r"""
async () => {
  const names = /^(aria-|role$|type$|alt$|for$|id$|href$|tabindex$|lang$|title$|disabled$|hidden$)/;
  const parts = [], drawn = [document.documentElement.lang];
  for (const el of document.querySelectorAll("*")) {
    let text = el.tagName + "." + el.classList.value;
    for (const attribute of el.attributes) if (names.test(attribute.name)) text += `[${attribute.name}${attribute.value === "" ? "" : "+"}]`;
    if (el.childNodes.length && !el.children.length && !el.textContent.trim()) text += "(empty)";
    parts.push(text);
    const shown = el.checkVisibility();
    let scrolls = "";
    if (shown && (el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight)) {
      const style = getComputedStyle(el);
      if (/auto|scroll/.test(style.overflowX + style.overflowY)) scrolls = "s";  // axe's scrollable regions
    }
    drawn.push((shown ? "1" : "0") + scrolls);
  }
  const hash = async (text) => [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
  const dom = parts.join("\n");
  return {dom: await hash(dom), shown: await hash(dom + "\n" + drawn.join(""))};
}
"""

# axe-core's rules: all but color-contrast (`contrast` false), once per structure as shown (width, language), or
# color-contrast alone (`contrast` true), the slow one (3/4 of the time), once per structure: the colours are the
# same at every width and in both languages.
AXE_RUN = """
async (contrast) => {
  const rules = contrast ? {runOnly: {type: "rule", values: ["color-contrast"]}} : {rules: {"color-contrast": {enabled: false}}};
  const result = await axe.run(document, {resultTypes: ["violations"], ...rules});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => `${n.target.join(" ")}: ${(n.failureSummary || "").replace(/\\s+/g, " ").slice(0, 160)}`),
  }));
}
"""


@dataclass
class Findings:
    covered: dict[tuple[str, str], list[str]] = field(default_factory=dict)  # (page at width, cover) -> controls
    wide: list[str] = field(default_factory=list)
    axe: list[str] = field(default_factory=list)
    pages: int = 0
    checks: int = 0
    controls: int = 0
    axe_done: dict[tuple[str, str], list[dict]] = field(default_factory=dict)  # (rules, structure) -> found
    axe_runs: int = 0

    def count(self) -> int:
        return len(self.covered) + len(self.wide) + len(self.axe)

    def report(self) -> str:
        covered = [f"{where}: covered by {cover}: {len(controls)} control(s): " + "; ".join(controls)
                   for (where, cover), controls in self.covered.items()]
        parts = []
        for title, lines in (("Controls covered by another element", covered),
                             ("Pages wider than the window (sideways scroll)", self.wide),
                             ("axe-core: serious or critical violations", self.axe)):
            if lines:
                parts.append(f"{title} ({len(lines)}):\n  " + "\n  ".join(lines))
        return "\n".join(parts)


def session_cookie(world: World, actor: str, site: str) -> list[dict]:
    """The actor's session, as Django's test client signs in (no password form per context)."""
    if actor == "anon":
        return []
    client = Client()
    client.force_login(world.users[actor])
    return [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": site}]


def refusal_pages(world: World) -> list[tuple[str, str, str]]:
    """(name, actor, path) of the error pages a person meets: a 404, a 403 (another user's editor), a 400."""
    seen = world.list("public")
    return [("404", "anon", "/no-such-page/"), ("404", "other", f"/lists/{world.list('private').slug}/"),
            ("403", "other", f"/lists/{seen.slug}/edit/"),
            ("400", "owner", f"/lists/{world.list('deleted').slug}/edit/")]  # the name is the status


def other_games_pages(world: World) -> dict[str, list[tuple[str, str, int]]]:
    """The matrix's pages are HAGMI's; the same kinds of page for the two miniatures games, from their bundled
    packages and sample lists (a Warcaster force with warjack loadouts): catalog, a card, the rules, and a list's
    share page, editor and sheet."""
    pages: dict[str, list[tuple[str, str, int]]] = defaultdict(list)
    for system, package, sample in (("mwda", "core-sample", "steel-wolves-pack"),
                                    ("warcaster", "core-sample", "isa-starsteel-vanguard")):
        package_import(json.loads((PACKAGES / system / f"{package}.json").read_text(encoding="utf-8")), source="test")
        document = json.loads((PACKAGES / system / "lists" / f"{sample}.json").read_text(encoding="utf-8"))
        game_list = services.list_create(owner=world.users["owner"], document=document, visibility="public")
        card = document["sections"][next(iter(document["sections"]))][0]["card"]
        for name, path in (("catalog", f"/catalog/{system}/"), ("card_detail", f"/catalog/{system}/{card}/"),
                           ("rules", f"/rules/{system}/")):
            pages["anon"].append((name, path, 200))
        for name, path in (("list_detail", f"/lists/{game_list.slug}/"), ("list_edit", f"/lists/{game_list.slug}/edit/"),
                           ("list_sheet", f"/lists/{game_list.slug}/sheet/")):
            pages["owner"].append((name, path, 200))
        jacks = [entry for entry in document["sections"].get("force", []) if (entry.get("options") or {}).get("weapons")]
        for entry in jacks[:1]:  # the odds of a warjack's chosen weapons (W11), as the editor links them
            weapons = "&".join(f"weapon={code}" for code in entry["options"]["weapons"])
            pages["anon"].append(("card_odds", f"/catalog/{system}/{entry['card']}/odds/?{weapons}", 200))
    return pages


def matrix_pages(world: World) -> dict[str, list[tuple[str, str, int]]]:
    """actor -> [(name, path, status)] of every full HTML page of the matrix the actor may open (the crawl of
    tests/security/crawl.py `every_page`, htmx fragments left out), then the refusals."""
    pages: dict[str, list[tuple[str, str, int]]] = defaultdict(list)
    for name, actor, url, html in every_page(world):
        if re.match(r"\s*<!doctype html", html, re.I):  # a page, not an htmx fragment
            pages[actor].append((name, url, 200))
    for name, actor, path in refusal_pages(world):
        pages[actor].append((name, path, int(name)))
    return pages


def check_page(page, url: str, status: int, label: str, shot: str, findings: Findings, widths=WIDTHS) -> None:
    """Load the page at the first (phone) width, then widen the window to each width: the layout check every time,
    axe-core once per page structure and width. A screenshot (test-artifacts/test_layout-*.png) at each width where
    a check failed."""
    page.set_viewport_size({"width": widths[0][0], "height": widths[0][1]})
    response = page.goto(url, wait_until="load")
    assert response is not None and response.status == status, f"{label}: {response and response.status}, not {status}"
    check_widths(page, label, shot, findings, widths)


def check_widths(page, label: str, shot: str, findings: Findings, widths=WIDTHS) -> None:
    assert page.evaluate("typeof axe === 'object' && typeof axe.run === 'function'"), "axe-core is not loaded"
    for width, height in widths:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        where = f"{label} at {width}×{height}"
        before = findings.count()
        result = page.evaluate(LAYOUT_CHECK)
        findings.controls += result["checked"]
        for item in result["covered"]:
            cover = f"{item['cover']} (in {item['coverWhere']})"
            findings.covered.setdefault((where, cover), []).append(f"{item['control']} (in {item['where']})")
        for item in result["offscreen"]:
            cover = "nothing: it cannot be scrolled into view"
            findings.covered.setdefault((where, cover), []).append(f"{item['control']} (in {item['where']})")
        if result["scrollWidth"] > result["width"]:
            findings.wide.append(f"{where}: {result['scrollWidth']} px wide; past the edge: " + "; ".join(result["wide"]))
        structure = page.evaluate(STRUCTURE)
        violations = []
        for key in (("rules", structure["shown"]), ("contrast", structure["dom"])):
            if key not in findings.axe_done:
                findings.axe_done[key] = [v for v in page.evaluate(AXE_RUN, key[0] == "contrast")
                                          if v["impact"] in SERIOUS]
                findings.axe_runs += 1
            violations += findings.axe_done[key]
        for violation in violations:
            findings.axe.append(f"{where}: {violation['impact']} {violation['id']} ({violation['help']}): "
                                + " | ".join(violation["nodes"][:4]))
        if findings.count() > before:
            ARTIFACTS.mkdir(exist_ok=True)
            height_px = min(page.evaluate("document.documentElement.scrollHeight"), 4000)
            page.screenshot(path=str(ARTIFACTS / f"test_layout-{shot}-{width}.png"), full_page=True,
                            clip={"x": 0, "y": 0, "width": width, "height": height_px})


@pytest.fixture
def world(site, hagmi_catalog, published, make_user) -> World:  # noqa: F811
    """The permission matrix's World on the live server: its catalog, the owner, another user, staff and a data
    editor (the card editor's pages)."""
    from cards.drafts import editor_group

    users = {name: make_user(name) for name in ("owner", "other", "staff", "editor")}
    users["staff"].is_staff = True
    users["staff"].save(update_fields=["is_staff"])
    users["editor"].groups.add(editor_group())
    return World(users)


@pytest.fixture
def site(live_server, settings):
    """The live server with the matrix's own catalog (not the bundled one: its formats and opponents share slugs)."""
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
    settings.SECURE_SSL_REDIRECT = False
    settings.HANGAR_MAX_CONCURRENT_RUNS = 1000
    return live_server.url


# English at the three widths; Japanese at the phone width (its words wrap otherwise: the phone again). One test per
# language, so the suite's processes (pytest-xdist) share the crawl.
LANGUAGES = {"en": WIDTHS, "ja": WIDTHS[:1]}


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_every_page_of_the_matrix_at_three_widths(browser, site, world, language):
    """No control covered, no sideways scroll, no serious or critical axe-core violation: every page of the matrix
    as each actor who may open it, the other games' pages and the refusal pages, at the three widths in English and
    at the phone width in Japanese. Every offender is listed; a CSP violation on any page fails the test too."""
    if not AXE.exists():
        pytest.fail(f"axe-core is missing ({AXE}): run `python3 dev.py test` once, or "
                    "`npm ci --prefix tests/browser/js` (Debian: apt-get install -y npm).")
    for pattern in (f"test_layout-{language}-*.png", f"test_layout-error-{language}-*.png"):
        for old in ARTIFACTS.glob(pattern):
            old.unlink()
    pages = matrix_pages(world)
    for actor, visits in other_games_pages(world).items():
        pages[actor].extend(visits)
    findings = Findings()
    csp: list[str] = []
    widths = LANGUAGES[language]
    for actor, visits in pages.items():
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
        context.set_default_timeout(TIMEOUT_MS)
        watch_csp(context, csp)
        context.add_init_script(path=str(AXE))
        context.add_cookies(session_cookie(world, actor, site)
                            + [{"name": "django_language", "value": language, "url": site}])
        page = context.new_page()
        try:
            for number, (name, path, status) in enumerate(visits):
                check_page(page, f"{site}{path}", status, f"{name} {path} as {actor} ({language})",
                           f"{language}-{actor}-{number:02d}-{name}", findings, widths)
                findings.pages += 1
                findings.checks += len(widths)
        except Exception:  # a page that did not load or a check that broke: the page as it was, then the error
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"test_layout-error-{language}-{actor}.png"), full_page=True)
            raise
        finally:
            context.close()
    print(f"{findings.pages} page loads, {findings.checks} checks (a page at a width), {findings.controls} controls, "
          f"axe-core run {findings.axe_runs} times")
    assert findings.pages >= 140, findings.pages  # the matrix's pages and the other games'
    assert not csp, "\n".join(csp)
    assert not findings.report(), findings.report() + f"\n(screenshots: {ARTIFACTS}/test_layout-*.png)"


def test_the_checks_find_a_covered_control_a_wide_page_and_an_axe_violation(browser, site):
    """The three checks are not vacuous: on a real page, a button under a fixed banner, a block wider than the
    phone, and a button with no name (built with the DOM and the CSSOM, which the CSP allows) are all reported."""
    context = browser.new_context(locale="en-US")
    context.add_init_script(path=str(AXE))
    page = context.new_page()
    page.set_viewport_size({"width": WIDTHS[0][0], "height": WIDTHS[0][1]})
    page.goto(f"{site}/")
    page.evaluate("""() => {
        const main = document.querySelector("main");
        const hidden = document.createElement("button");
        hidden.id = "probe-hidden"; hidden.textContent = "Hidden";
        const banner = document.createElement("div");
        banner.id = "probe-banner"; banner.textContent = "Banner";
        Object.assign(banner.style, {position: "fixed", left: "0", right: "0", top: "0", bottom: "0", background: "#fff"});
        const wide = document.createElement("div");
        wide.id = "probe-wide"; wide.textContent = "Wide"; wide.style.width = "2000px";
        const unnamed = document.createElement("button");
        unnamed.id = "probe-unnamed";
        main.append(hidden, wide, unnamed, banner);
    }""")
    findings = Findings()
    check_widths(page, "probe", "probe", findings)
    context.close()
    covered = [f"{where} {cover} {controls}" for (where, cover), controls in findings.covered.items()]
    assert len([line for line in covered if "#probe-banner" in line and "#probe-hidden" in line]) == len(WIDTHS)
    assert len([line for line in findings.wide if "#probe-wide" in line]) == len(WIDTHS), findings.wide
    assert len([line for line in findings.axe if "button-name" in line and "#probe-unnamed" in line]) == len(WIDTHS)
    for old in ARTIFACTS.glob("test_layout-probe-*.png"):
        old.unlink()
