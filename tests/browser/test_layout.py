"""The layout of every page: every page of the permission matrix (tests/security/test_permission_matrix.py),
as every actor who may open it, and the same kinds of page for MWDA and Warcaster, at 1280×900, 1024×768 and
390×844 in a real Chromium, in English, and again in Japanese at 390×844:

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


AXE_DONE: dict[tuple[str, str], list[dict]] = {}  # axe-core's answer for a page structure is the same in every test


@dataclass
class Findings:
    covered: dict[tuple[str, str], list[str]] = field(default_factory=dict)  # (page at width, cover) -> controls
    wide: list[str] = field(default_factory=list)
    axe: list[str] = field(default_factory=list)
    pages: int = 0
    checks: int = 0
    controls: int = 0
    # (rules, structure) -> found: axe-core's answers, shared by the walk's tests in this process (AXE_DONE)
    axe_done: dict[tuple[str, str], list[dict]] = field(default_factory=lambda: AXE_DONE)
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


def other_games_pages(world: World, actor: str) -> list[tuple[str, str, int]]:
    """The matrix's pages are HAGMI's; the same kinds of page for the two miniatures games, from their bundled
    packages and sample lists (a Warcaster force with warjack loadouts): catalog, a card, the rules, and a list's
    share page, editor and sheet. The pages `actor` opens (anonymous: the catalog's; the owner: the list's)."""
    pages: dict[str, list[tuple[str, str, int]]] = defaultdict(list)
    if actor not in OTHER_GAMES:
        return []
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
    return pages[actor]


# The matrix's htmx fragments (the picker's results, a run's progress): checked inside the pages that hold them.
FRAGMENTS = frozenset({"list_picker", "simulation_progress", "matrix_progress"})


def matrix_pages(world: World, actor: str, part: tuple[int, int] = (0, 1)) -> list[tuple[str, str, int]]:
    """[(name, path, status)] of the full HTML pages of the matrix `actor` may open (the crawl of
    tests/security/crawl.py `every_page`, htmx fragments left out; every n-th of them from the k-th, `part`
    (k, n)), then, in the last part, the refusals the actor meets."""
    pages: list[tuple[str, str, int]] = []
    for name, _actor, url, html in every_page(world, actors=(actor,), part=part):
        if re.match(r"\s*<!doctype html", html, re.I):  # a page, not an htmx fragment
            pages.append((name, url, 200))
        else:
            assert name in FRAGMENTS, f"{name} {url}: not a page, and not one of the matrix's htmx fragments"
    if part[0] == part[1] - 1:
        for name, refused_actor, path in refusal_pages(world):
            if refused_actor == actor:
                pages.append((name, path, int(name)))
    return pages


# The other games' pages (`other_games_pages`) and the refusals (`refusal_pages`) each actor opens.
OTHER_GAMES = {"anon": 2 * 3 + 1, "owner": 2 * 3}  # catalog, card, rules (+ a warjack's odds); share, editor, sheet
REFUSALS = {"anon": 1, "other": 2, "owner": 1}


def planned_pages(actor: str, part: tuple[int, int] = (0, 1)) -> int:
    """How many pages the walk opens as `actor` in one language (in part (k, n) of them), from the matrix itself
    (its GET pages expected 200 but the fragments and the non-HTML answers), the other games' pages and the
    refusals (in the last part): what `matrix_pages` and `other_games_pages` must find."""
    from tests.security.crawl import NOT_HTML, page_cells

    matrix = sum(1 for number, name in enumerate(page_cells(actor))
                 if number % part[1] == part[0] and name not in NOT_HTML | FRAGMENTS)
    last = part[0] == part[1] - 1
    return matrix + (OTHER_GAMES.get(actor, 0) + REFUSALS.get(actor, 0) if last else 0)


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
    """The permission matrix's World on the live server: its catalog, the owner, another user, staff, a data
    editor (the card editor's pages) and the player of the owner's events."""
    from cards.drafts import editor_group

    users = {name: make_user(name) for name in ("owner", "other", "staff", "editor", "entrant")}
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
# language, actor and part of the actor's pages (every SHARDS[language][actor]-th page): pytest-xdist's processes
# share the walk, and no test walks for more than a minute.
LANGUAGES = {"en": WIDTHS, "ja": WIDTHS[:1]}
SHARDS = {"en": {"anon": 2, "owner": 3, "other": 2, "staff": 2, "editor": 1},
          "ja": {"anon": 2, "owner": 2, "other": 1, "staff": 1, "editor": 1}}
WALKS = [(language, actor, part, parts) for language, actors in SHARDS.items() for actor, parts in actors.items()
         for part in range(parts)]


def test_the_walk_covers_every_page_of_the_matrix_and_the_other_games():
    """The walk's parts together open every page of the matrix as every actor, the other games' pages and the
    refusals, in both languages: at least 140 page loads a language (each part checks it opened what is planned)."""
    from tests.security.conftest import ACTORS

    for language, actors in SHARDS.items():
        assert set(actors) == {*ACTORS, "editor"}, language
        assert sum(planned_pages(actor) for actor in actors) >= 140, language


@pytest.mark.parametrize("language, actor, part, parts", WALKS,
                         ids=[f"{language}-{actor}-{part + 1}of{parts}" for language, actor, part, parts in WALKS])
def test_every_page_of_the_matrix_at_three_widths(browser, site, world, language, actor, part, parts):
    """No control covered, no sideways scroll, no serious or critical axe-core violation: every page of the matrix
    as each actor who may open it, the other games' pages and the refusal pages, at the three widths in English and
    at the phone width in Japanese (this test: one actor's pages, every `parts`-th from `part`). Every offender is
    listed; a CSP violation on any page fails the test too."""
    if not AXE.exists():
        pytest.fail(f"axe-core is missing ({AXE}): run `python3 dev.py test` once, or "
                    "`npm ci --prefix tests/browser/js` (Debian: apt-get install -y npm).")
    for pattern in (f"test_layout-{language}-{actor}-*.png", f"test_layout-error-{language}-{actor}-{part}.png"):
        for old in ARTIFACTS.glob(pattern):
            if pattern.startswith("test_layout-error") or int(old.name.split("-")[3]) % parts == part:
                old.unlink()
    pages = matrix_pages(world, actor, (part, parts))
    if part == parts - 1:  # the other games' pages in the last part, with the refusals
        pages += other_games_pages(world, actor)
    assert len(pages) == planned_pages(actor, (part, parts)), (len(pages), planned_pages(actor, (part, parts)))
    visits = [(part + parts * number, visit) for number, visit in enumerate(pages)]
    findings = Findings()
    csp: list[str] = []
    widths = LANGUAGES[language]
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    context.set_default_timeout(TIMEOUT_MS)
    watch_csp(context, csp)
    context.add_init_script(path=str(AXE))
    context.add_cookies(session_cookie(world, actor, site)
                        + [{"name": "django_language", "value": language, "url": site}])
    page = context.new_page()
    try:
        for number, (name, path, status) in visits:
            check_page(page, f"{site}{path}", status, f"{name} {path} as {actor} ({language})",
                       f"{language}-{actor}-{number:02d}-{name}", findings, widths)
            findings.pages += 1
            findings.checks += len(widths)
    except Exception:  # a page that did not load or a check that broke: the page as it was, then the error
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"test_layout-error-{language}-{actor}-{part}.png"), full_page=True)
        raise
    finally:
        context.close()
    print(f"{findings.pages} page loads, {findings.checks} checks (a page at a width), {findings.controls} controls, "
          f"axe-core run {findings.axe_runs} times")
    assert findings.pages == len(visits) and visits, (findings.pages, len(visits))
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
    findings = Findings(axe_done={})  # its own answers: the probes change the page's structure
    check_widths(page, "probe", "probe", findings)
    context.close()
    covered = [f"{where} {cover} {controls}" for (where, cover), controls in findings.covered.items()]
    assert len([line for line in covered if "#probe-banner" in line and "#probe-hidden" in line]) == len(WIDTHS)
    assert len([line for line in findings.wide if "#probe-wide" in line]) == len(WIDTHS), findings.wide
    assert len([line for line in findings.axe if "button-name" in line and "#probe-unnamed" in line]) == len(WIDTHS)
    for old in ARTIFACTS.glob("test_layout-probe-*.png"):
        old.unlink()
