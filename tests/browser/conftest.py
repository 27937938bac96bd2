"""Playwright (sync API) with Debian's Chromium against pytest-django's live server.

A missing browser or Playwright FAILS the tests with what to install; it never skips. A failing test leaves a
screenshot in test-artifacts/<test name>.png. Playwright's sync API runs an event loop in this thread, so Django's
async-safety check is relaxed while the browser runs (the ORM calls here are plain synchronous test setup).

Every page a test opens runs under the site's Content-Security-Policy, and any violation it reports (a
`securitypolicyviolation` event, or Chromium's "Content Security Policy" console error, which a page without
JavaScript still logs) FAILS the test at teardown, naming the page and the directive.
"""
from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from tests.services.conftest import (  # noqa: F401  (real Celery workers for the simulation test)
    broker, toy_faults, worker_env_overrides, workers,
)
from tests.support.bundled_catalog import load_bundled_catalog

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PASSWORD = "hangar-Browser-pw-42"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
TIMEOUT_MS = 10_000
# Added to every page before its own scripts (Playwright's init scripts are not subject to the page's CSP).
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.__hangarCspViolation(`${event.effectiveDirective} blocked ${event.blockedURI || "(inline)"} on ` +
    `${event.documentURI}${event.sample ? " (" + event.sample + ")" : ""}`);
});
"""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        pytest.fail(f"The browser tests need Debian's Chromium at {CHROMIUM}: run `apt-get install -y chromium`.")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("The browser tests need the Playwright package: `.venv/bin/pip install playwright==1.63.0` "
                    "(never `playwright install`: Debian's Chromium is used).")
    # Only while Playwright runs (this module), never for the rest of the suite or its subprocesses' checks.
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def site(live_server, settings):
    """The live server with the bundled catalog, speaking plain http (no secure-only cookies)."""
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
    settings.SECURE_SSL_REDIRECT = False
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    load_bundled_catalog()  # as `load_packages` leaves it (tests.support.bundled_catalog)
    return live_server.url


def watch_csp(context, violations: list[str]) -> None:
    """Record every Content-Security-Policy violation of the context's pages into `violations`."""
    context.expose_function("__hangarCspViolation", lambda text: violations.append(text))
    context.add_init_script(CSP_LISTENER)

    def console(message) -> None:
        if message.type == "error" and "Content Security Policy" in message.text:
            violations.append(f"console: {message.text} on {message.page.url if message.page else '?'}")

    context.on("console", console)


@pytest.fixture
def new_page(browser, request):
    """Pages in fresh browser contexts (separate cookie jars: one per person); screenshots on failure; any
    Content-Security-Policy violation on any of them fails the test."""
    contexts = []
    violations: list[str] = []

    def make(**options):
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US", **options)
        context.set_default_timeout(TIMEOUT_MS)
        watch_csp(context, violations)
        contexts.append(context)
        return context.new_page()

    yield make
    failed = getattr(request.node, "report_call", None)
    if failed is not None and failed.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)
        for number, context in enumerate(contexts):
            for index, page in enumerate(context.pages):
                page.screenshot(path=str(ARTIFACTS / f"{name}-{number}-{index}.png"), full_page=True)
    for context in contexts:
        for open_page in context.pages:
            try:  # a round trip to the page: the events it sent before (violations, console) have arrived
                open_page.evaluate("() => document.readyState")
            except Exception:  # noqa: BLE001  (a page that is already gone reported what it had)
                pass
        context.close()
    if violations:
        pytest.fail("Content-Security-Policy violations (docs/security.md):\n" + "\n".join(violations), pytrace=False)


@pytest.fixture
def page(new_page):
    return new_page()


@pytest.fixture
def make_user(transactional_db):
    def make(username: str):
        return get_user_model().objects.create_user(username=username, password=PASSWORD)

    return make


SCREENSHOTS = os.environ.get("HANGAR_SCREENSHOTS", "")


def shoot(page, name: str) -> None:
    """With HANGAR_SCREENSHOTS=/folder, a full-page picture of what the test sees (to look at, in both languages)."""
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SCREENSHOTS) / f"{name}.png"), full_page=True)


def log_in(page, site: str, username: str) -> None:
    page.goto(f"{site}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("form.stack button[type=submit]")
    page.wait_for_url(re.compile(r"^(?!.*/accounts/login/).*$"))


def wait_for_the_finished_page(page) -> None:
    """A run's or a matrix's page polls while it plays (htmx, `hx-trigger="every ..."`) and reloads itself once the
    work is done (HX-Refresh), as a player sees it: wait for that reload rather than racing it with one of our own
    (two reloads at once abort each other: net::ERR_ABORTED). The fresh page has no poller left."""
    from playwright.sync_api import expect

    expect(page.locator('[hx-trigger^="every"]')).to_have_count(0, timeout=30_000)
    page.wait_for_load_state("load")


# Two runs of a flow cover both widths and both languages: Japanese at the phone width (its longer words wrap most),
# English at the desktop width. The other two pairs are the layout walk's (tests/browser/test_layout.py: every page
# at every width, in both languages), so a flow is not played four times over for them.
WIDTH_AND_LANGUAGE = [((390, 844), "ja"), ((1280, 900), "en")]
WIDTH_AND_LANGUAGE_IDS = ["390px-ja", "1280px-en"]
