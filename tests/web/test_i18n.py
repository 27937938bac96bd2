"""Japanese and English: the language switcher, translated pages, and validation messages in the UI language."""
from __future__ import annotations

import re

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


def test_a_japanese_import_page_says_each_problem_once_in_japanese(catalog, owner_client):
    """The page said 「10 行目 line 10: no card named "蒼穹の目・天" in HAGMI!; did you mean …?」 and then
    「もしかして：…」 again. Now: the line number once, the problem in Japanese, the suggestions once."""
    switch(owner_client, "ja", "/lists/import/")
    text = "System: hagmi\n[兵器]\n2 紅蓮丸\n2 蒼穹の目・天\n"
    response = owner_client.post("/lists/import/", {"text": text, "visibility": "private"})
    assert response.status_code == 400
    page = response.content.decode()
    problem = page[page.index('<span class="line-no">'):]
    problem = problem[:problem.index("</li>")]
    assert '<span class="line-no">4 行目</span>' in problem
    assert "HAGMI!に「蒼穹の目・天」という名前のカードはありません" in problem
    assert problem.count("蒼穹の眼・天 (HS-005)") == 1  # the suggestion, once
    words = re.sub(r"<[^>]+>", " ", problem)
    for english in ("line", "no card", "did you mean"):
        assert english not in words
    # the API keeps its English message and code, whatever the language of the browser
    api = owner_client.post("/api/lists/import/", {"text": text}, content_type="application/json",
                            HTTP_ACCEPT_LANGUAGE="ja")
    assert api.status_code == 400 and api.json()["error"]["code"] == "list.invalid"
    assert 'line 4: no card named "蒼穹の目・天" in HAGMI!; did you mean' in api.json()["error"]["message"]
