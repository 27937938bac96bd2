"""Playwright (sync API) with Debian's Chromium against pytest-django's live server.

A missing browser or Playwright FAILS the tests with what to install; it never skips. A failing test leaves a
screenshot in test-artifacts/<test name>.png. Playwright's sync API runs an event loop in this thread, so Django's
async-safety check is relaxed while the browser runs (the ORM calls here are plain synchronous test setup).
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tests.services.conftest import (  # noqa: F401  (real Celery workers for the simulation test)
    broker, toy_faults, worker_env_overrides, workers,
)

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PASSWORD = "hangar-Browser-pw-42"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
TIMEOUT_MS = 10_000


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
    call_command("load_packages", verbosity=0)
    return live_server.url


@pytest.fixture
def new_page(browser, request):
    """Pages in fresh browser contexts (separate cookie jars: one per person); screenshots on failure."""
    contexts = []

    def make(**options):
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US", **options)
        context.set_default_timeout(TIMEOUT_MS)
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
        context.close()


@pytest.fixture
def page(new_page):
    return new_page()


@pytest.fixture
def make_user(transactional_db):
    def make(username: str):
        return get_user_model().objects.create_user(username=username, password=PASSWORD)

    return make


def log_in(page, site: str, username: str) -> None:
    page.goto(f"{site}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("form.stack button[type=submit]")
    page.wait_for_url(re.compile(r"^(?!.*/accounts/login/).*$"))
