"""Every kind of page works in a real browser under the site's Content-Security-Policy
(docs/security.md), in English and in Japanese. The `new_page` fixture fails a test on any CSP violation; each page
here is also checked for doing its job (scripts ran, charts drawn, htmx swapped, Swagger UI rendered, replay stepped,
the browsable API's menus open, the Django admin signs in and shows its lists and forms).

With HANGAR_SCREENSHOTS=/some/folder set, the tour saves a full-page screenshot of its main pages there (to look at
the styles and charts by eye; never into the repository).
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from builder import services
from tests.browser.conftest import PASSWORD, log_in, watch_csp
from tests.browser.test_flows import legal_hagmi
from tests.support.simulations import play_all, published  # noqa: F401  (chunks played here, not by workers)

PACKAGES = Path(__file__).resolve().parents[2] / "cards" / "packages"
SCREENSHOTS = os.environ.get("HANGAR_SCREENSHOTS", "")


def shoot(page, language: str, name: str) -> None:
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SCREENSHOTS) / f"{language}-{name}.png"), full_page=True)


def person(new_page, site: str, language: str):
    """A page of a new browser whose language cookie is set (as the language switcher sets it)."""
    page = new_page()
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    return page


def finished_run(owner, game_list, opponent: str, games: int):
    run = services.simulation_start(user=owner, game_list=game_list, opponent_slug=opponent, policy="greedy",
                                    games=games, seed=7)
    play_all(run)
    run.refresh_from_db()
    return run


@pytest.mark.parametrize("language", ["en", "ja"])
def test_every_kind_of_page_works_under_the_content_security_policy(site, new_page, make_user, published,
                                                                           language):
    owner = make_user("csp-owner")
    staff = make_user("csp-staff")
    staff.is_staff = staff.is_superuser = True
    staff.save(update_fields=["is_staff", "is_superuser"])
    deck = services.list_create(owner=owner, document=legal_hagmi("CSP deck"), visibility="public")
    mwda = json.loads((PACKAGES / "mwda" / "lists" / "steel-wolves-pack.json").read_text(encoding="utf-8"))
    army = services.list_create(owner=owner, document={**mwda, "name": "CSP army"}, visibility="public")
    hagmi_run = finished_run(owner, deck, "goldfish", 200)
    mwda_run = finished_run(owner, army, "highland-line", 4)

    # --- anyone -------------------------------------------------------------------------------------------
    page = person(new_page, site, language)
    page.goto(f"{site}/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    assert page.evaluate("typeof htmx === 'object' && typeof Chart === 'function'")  # the static scripts ran
    shoot(page, language, "home")
    for system in ("hagmi", "mwda", "warcaster"):
        page.goto(f"{site}/catalog/{system}/")
        expect(page.locator("table.cards tbody tr").first).to_be_visible()
        page.goto(f"{site}/rules/{system}/")
        expect(page.locator("h1")).to_be_visible()
    shoot(page, language, "rules-warcaster")
    page.goto(f"{site}/catalog/hagmi/")
    page.locator("input[name=q]").fill("HS-001")  # htmx search as you type
    expect(page.locator("table.cards tbody tr")).to_have_count(1)
    shoot(page, language, "catalog")
    page.goto(f"{site}/catalog/hagmi/HS-001/")
    expect(page.locator(".hagmi-card")).to_be_visible()
    shoot(page, language, "card")
    for path in ("/lists/gallery/", "/verify/", "/accounts/login/", "/accounts/signup/"):
        assert page.goto(f"{site}{path}").status == 200, path
    page.goto(f"{site}/lists/{deck.slug}/")  # the share page
    expect(page.locator("#legality")).to_have_class(re.compile("is-legal"))
    shoot(page, language, "share")
    page.goto(f"{site}/simulations/{hagmi_run.public_id}/")  # a run's shareable result: charts
    expect(page.locator("canvas[data-drawn='1']")).to_have_count(7)  # builder/web/results.py: every figure
    shoot(page, language, "simulation")
    page.goto(f"{site}/simulations/compare/?a={hagmi_run.public_id}&b={hagmi_run.public_id}")
    expect(page.locator("canvas[data-drawn='1']").first).to_be_visible()
    page.goto(f"{site}/simulations/{mwda_run.public_id}/games/0/")  # the replay: an SVG table stepped by replay.js
    expect(page.locator(".replay-controls")).to_be_visible()
    label = page.locator("#replay-turn-label")
    first = label.text_content()
    page.locator("[data-step=next]").click()
    expect(label).not_to_have_text(first)
    assert page.locator(".replay-table").evaluate("svg => getComputedStyle(svg).maxWidth") == "min(720px, 100%)"  # hangar.css (replays section)
    shoot(page, language, "replay")
    page.goto(f"{site}/api/docs/")  # Swagger UI: its start-up script runs with this page's nonce
    expect(page.locator(".swagger-ui .opblock").first).to_be_visible()
    shoot(page, language, "api-docs")
    page.goto(f"{site}/admin/login/")
    expect(page.locator("#id_username")).to_be_visible()

    # --- the owner ------------------------------------------------------------------------------------------
    page = person(new_page, site, language)
    log_in(page, site, "csp-owner")
    for path in ("/lists/", "/lists/new/?system=hagmi", "/lists/import/", "/simulations/",
                 f"/lists/{deck.slug}/history/", f"/lists/{deck.slug}/sheet/", f"/lists/{deck.slug}/simulate/"):
        assert page.goto(f"{site}{path}").status == 200, path
    expect(page.locator("form select[name=opponent]")).to_be_visible()
    page.goto(f"{site}/simulations/")
    expect(page.locator(f'a[href="/simulations/{hagmi_run.public_id}/"]').first).to_be_visible()
    page.goto(f"{site}/lists/{deck.slug}/edit/")  # the editor: htmx swaps the draft and the legality panel
    expect(page.locator("#legality")).to_have_class(re.compile("is-legal"))
    page.locator('button[value="dec:weapons:HS-001"]').click()
    expect(page.locator('section[data-section="weapons"] li[data-card="HS-001"] .qty')).to_have_value("1")
    expect(page.locator("#legality")).to_have_class(re.compile("is-illegal"))  # 19 兵器 (H1)
    page.locator('#picker-results li[data-code="HS-001"] button[value="add:weapons:HS-001"]').click()
    expect(page.locator("#legality")).to_have_class(re.compile("is-legal"))
    shoot(page, language, "editor")
    page.goto(f"{site}/api/lists/")  # DRF's browsable API (templates/rest_framework/api.html): its jQuery/Bootstrap
    page.locator("#extra-actions-menu").click()
    expect(page.locator("ul[aria-labelledby=extra-actions-menu] a").first).to_be_visible()
    page.goto(f"{site}/api/lists/{deck.slug}/")
    expect(page.locator("#get-form")).to_be_visible()

    # --- staff: the Django admin ------------------------------------------------------------------------------
    page = person(new_page, site, language)
    page.goto(f"{site}/admin/login/")
    page.fill("#id_username", "csp-staff")
    page.fill("#id_password", PASSWORD)
    page.locator("input[type=submit]").click()
    expect(page.locator("#content")).to_be_visible()
    shoot(page, language, "admin")
    page.goto(f"{site}/admin/builder/gamelist/")
    expect(page.locator("#result_list")).to_be_visible()
    page.goto(f"{site}/admin/builder/gamelist/{deck.pk}/change/")
    expect(page.locator("#gamelist_form")).to_be_visible()
    page.goto(f"{site}/admin/cards/card/")
    expect(page.locator("#result_list")).to_be_visible()


def test_the_browser_tests_catch_a_csp_violation(site, browser):
    """The fixture's watcher records a violation, both as a `securitypolicyviolation` event and on the console: an
    inline style attribute and an inline script put into a real page are blocked and reported."""
    context = browser.new_context()
    violations: list[str] = []
    watch_csp(context, violations)
    page = context.new_page()
    page.goto(f"{site}/")
    with page.expect_console_message(lambda message: "Content Security Policy" in message.text):
        page.evaluate("""() => new Promise((done) => {
            const seen = new Set();  // resolves once both blocks were reported (after the fixture's listener)
            document.addEventListener("securitypolicyviolation", (event) => {
                seen.add(event.effectiveDirective);
                if (seen.has("style-src-attr") && seen.has("script-src-elem")) done();
            });
            document.body.setAttribute("style", "background: red");
            const script = document.createElement("script");
            script.textContent = "window.injected = 1";
            document.body.append(script);
        })""")
    page.evaluate("() => document.readyState")  # a round trip: the violations the page reported have arrived
    injected = page.evaluate("window.injected")
    context.close()
    assert injected is None
    assert any(v.startswith("style-src-attr blocked") for v in violations), violations
    assert any(v.startswith("script-src-elem blocked") for v in violations), violations
    assert any(v.startswith("console:") for v in violations), violations
