"""Japanese and English: the language switcher, translated pages, and validation messages in the UI language."""
from __future__ import annotations

import pytest
from django.test import Client

from tests.web.conftest import empty_hagmi

pytestmark = pytest.mark.django_db


def switch(client: Client, language: str, next_url: str = "/") -> None:
    response = client.post("/i18n/setlang/", {"language": language, "next": next_url})
    assert response.status_code == 302 and response["Location"] == next_url


def test_the_switcher_turns_the_interface_japanese_and_back(catalog):
    client = Client()
    assert "Pick a game" in client.get("/").content.decode()
    switch(client, "ja")
    page = client.get("/").content.decode()
    assert '<html lang="ja">' in page and "ゲームを選ぶ" in page and "ギャラリー" in page
    switch(client, "en")
    assert "Pick a game" in client.get("/").content.decode()


def test_the_legality_panel_speaks_the_ui_language_h1(make_list, owner_client):
    game_list = make_list(empty_hagmi())
    english = owner_client.get(f"/lists/{game_list.slug}/").content.decode()
    assert "Not legal yet" in english and "the format needs at least 20" in english
    switch(owner_client, "ja", f"/lists/{game_list.slug}/")
    japanese = owner_client.get(f"/lists/{game_list.slug}/").content.decode()
    assert "まだ構築条件を満たしていません" in japanese and "20枚以上必要です" in japanese


def test_card_names_show_in_both_languages_main_one_first(catalog):
    client = Client()
    page = client.get("/catalog/hagmi/", {"q": "HS-029"}).content.decode()
    assert '<span class="name">Supply Drop</span> <small class="alt-name">補給物資</small>' in page
    switch(client, "ja")
    page = client.get("/catalog/hagmi/", {"q": "HS-029"}).content.decode()
    assert '<span class="name">補給物資</span> <small class="alt-name">Supply Drop</small>' in page


def test_accept_language_japanese_is_honoured(catalog):
    page = Client(HTTP_ACCEPT_LANGUAGE="ja").get("/rules/hagmi/").content.decode()
    assert "構築ルール" in page and "秘策の枚数" in page  # the H5 title from the rules registry, in Japanese
