"""Accessibility basics and no-CDN assets: every form control has a label, htmx and Chart.js come from us."""
from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client

from tests.web.conftest import hagmi_legal_doc

pytestmark = pytest.mark.django_db


class Controls(HTMLParser):
    """Form controls that a screen reader could not name: no <label for>, no aria-label, not hidden."""

    def __init__(self):
        super().__init__()
        self.labels: set[str] = set()
        self.controls: list[dict[str, str]] = []

    def handle_starttag(self, tag, attrs):
        attrs = {key: value or "" for key, value in attrs}
        if tag == "label" and attrs.get("for"):
            self.labels.add(attrs["for"])
        if tag in ("input", "select", "textarea") and attrs.get("type") not in ("hidden", "submit"):
            self.controls.append(attrs)

    def unnamed(self) -> list[dict[str, str]]:
        return [c for c in self.controls if c.get("id") not in self.labels and not c.get("aria-label")]


def unnamed_controls(html: str) -> list[dict[str, str]]:
    parser = Controls()
    parser.feed(html)
    return parser.unnamed()


def test_every_form_control_has_a_label(make_list, owner_client):
    game_list = make_list(hagmi_legal_doc(), visibility="public")
    for url in ("/", "/catalog/hagmi/", f"/lists/{game_list.slug}/", f"/lists/{game_list.slug}/edit/",
                "/lists/import/", "/lists/new/?system=hagmi", "/lists/", "/lists/gallery/", "/verify/",
                f"/lists/{game_list.slug}/simulate/", f"/lists/{game_list.slug}/history/"):
        assert unnamed_controls(owner_client.get(url).content.decode()) == [], url


def test_editor_quantity_buttons_say_what_they_do(make_list, owner_client):
    game_list = make_list(hagmi_legal_doc())
    page = owner_client.get(f"/lists/{game_list.slug}/edit/").content.decode()
    assert 'aria-label="One more Guren-maru"' in page and 'aria-label="One fewer Guren-maru"' in page
    assert 'aria-live="polite"' in page  # the legality panel is announced when it changes


def test_htmx_and_chart_js_are_served_from_our_static_files_not_a_cdn(catalog):
    client = Client()
    page = client.get("/catalog/hagmi/").content.decode()
    for asset in ("/static/vendor/htmx.org-2.0.11/htmx.min.js", "/static/vendor/chart.js-4.6.1/chart.umd.min.js",
                  "/static/hangar/app.js", "/static/hangar/hangar.css"):
        assert asset in page
        assert client.get(asset).status_code == 200, asset
    assert "https://" not in page and "//cdn" not in page


def test_charts_carry_their_numbers_as_a_table_for_readers_without_javascript(make_list):
    game_list = make_list(hagmi_legal_doc(), visibility="public")
    page = Client().get(f"/lists/{game_list.slug}/").content.decode()
    assert '<details class="chart-table">' in page and '<th scope="row">1</th>' in page
