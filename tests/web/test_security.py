"""Permissions, CSRF and escaping: what a stranger cannot see, and user text never becomes HTML."""
from __future__ import annotations

import pytest
from django.test import Client

from builder import services
from cards.services import package_import
from tests.web.conftest import empty_hagmi, hagmi_legal_doc

pytestmark = pytest.mark.django_db
SCRIPT = "<script>alert('x')</script>"


@pytest.mark.parametrize("suffix", ["", "edit/", "history/", "sheet/", "simulate/"])
def test_a_private_list_is_404_for_another_user_and_anonymous(make_list, other_client, suffix):
    game_list = make_list(visibility="private")
    assert other_client.get(f"/lists/{game_list.slug}/{suffix}").status_code == 404
    anonymous = Client().get(f"/lists/{game_list.slug}/{suffix}")
    assert anonymous.status_code in (302, 404)  # the editor and simulation pages first ask to sign in
    if anonymous.status_code == 404:
        assert game_list.name not in anonymous.content.decode()


def test_an_unlisted_list_is_readable_by_link_but_only_its_owner_edits_it(make_list, other_client):
    game_list = make_list(visibility="unlisted")
    assert Client().get(f"/lists/{game_list.slug}/").status_code == 200
    response = other_client.get(f"/lists/{game_list.slug}/edit/")
    assert response.status_code == 403 and "Only the owner" in response.content.decode()
    assert other_client.post(f"/lists/{game_list.slug}/edit/", {"op": "save"}).status_code == 403


def test_private_lists_never_appear_in_the_gallery(make_list):
    make_list(empty_hagmi("Secret plan"), visibility="private")
    make_list(empty_hagmi("Open plan"), visibility="public")
    page = Client().get("/lists/gallery/").content.decode()
    assert "Open plan" in page and "Secret plan" not in page


def test_every_form_carries_a_csrf_token(make_list, owner_client):
    game_list = make_list(hagmi_legal_doc(), visibility="public")
    for url in (f"/lists/{game_list.slug}/", f"/lists/{game_list.slug}/edit/", "/lists/import/",
                "/lists/new/?system=hagmi", f"/lists/{game_list.slug}/simulate/"):
        page = owner_client.get(url).content.decode()
        assert page.count('method="post"') <= page.count('name="csrfmiddlewaretoken"'), url
    for url in ("/accounts/signup/", "/accounts/login/"):
        page = Client().get(url).content.decode()
        assert 'name="csrfmiddlewaretoken"' in page


def test_a_post_without_the_csrf_token_is_refused(make_list, owner):
    game_list = make_list()
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    response = client.post(f"/lists/{game_list.slug}/edit/", {"op": "save"})
    assert response.status_code == 403


def test_a_list_name_with_a_script_tag_is_shown_as_text(make_list, owner_client):
    game_list = make_list(empty_hagmi(SCRIPT), visibility="public")
    for url in (f"/lists/{game_list.slug}/", f"/lists/{game_list.slug}/edit/", "/lists/gallery/", "/lists/",
                f"/lists/{game_list.slug}/sheet/"):
        page = owner_client.get(url).content.decode()
        assert SCRIPT not in page, url
        assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page, url


def script_package() -> dict:
    return {"schema": "hangar.package/1", "system": "hagmi", "slug": "xss-test", "version": "1", "title": "XSS",
            "cards": [{"code": "HX-001", "name": SCRIPT, "name_en": SCRIPT, "category": "unit", "frame": "black",
                       "cost": 1, "pilot": "X", "types": ["強襲"], "firepower": "1", "armor": 1, "range": 1,
                       "fuel_cost": 1, "targets": "single"}]}


def test_a_card_name_with_a_script_tag_is_shown_as_text(catalog, owner):
    package_import(script_package(), source="tests/web")
    game_list = services.list_create(owner=owner, visibility="public", document={
        **empty_hagmi(), "sections": {"weapons": [{"card": "HX-001", "qty": 1}], "tactics": [], "damage": [],
                                      "secret": []}})
    client = Client()
    client.force_login(owner)
    for url in ("/catalog/hagmi/?q=HX-001", "/catalog/hagmi/HX-001/", f"/lists/{game_list.slug}/",
                f"/lists/{game_list.slug}/edit/", f"/lists/{game_list.slug}/edit/cards/?q=HX"):
        page = client.get(url).content.decode()
        assert SCRIPT not in page, url
        assert "&lt;script&gt;" in page, url
