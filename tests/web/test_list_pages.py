"""My lists, gallery, the share page, fork, history, import, tournament sheet and verification."""
from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from builder import services
from builder.models import GameList
from cards.models import Format
from tests.web.conftest import empty_hagmi, hagmi_legal_doc

pytestmark = pytest.mark.django_db


def test_my_lists_show_legality_badges(make_list, owner_client):
    make_list(hagmi_legal_doc("Legal one"))
    make_list(empty_hagmi("Broken one"))
    page = owner_client.get("/lists/").content.decode()
    assert "Legal one" in page and "Broken one" in page
    assert '<span class="badge legal">' in page and '<span class="badge illegal">' in page


def test_gallery_filters_by_game_and_lists_newest_first(make_list, owner):
    make_list(empty_hagmi("Older"), visibility="public")
    make_list(empty_hagmi("Newer"), visibility="public")
    services.list_create(owner=owner, visibility="public", document={
        "schema": "hangar.list/1", "system": "mwda", "format": "tournament-300", "name": "Mech army",
        "sections": {"army": [{"card": "MW-001", "qty": 1}]}})
    page = Client().get("/lists/gallery/", {"system": "hagmi"}).content.decode()
    assert page.index("Newer") < page.index("Older") and "Mech army" not in page
    assert "Mech army" in Client().get("/lists/gallery/", {"format": "tournament-300"}).content.decode()


def test_bad_gallery_filter_is_a_clear_400(catalog):
    response = Client().get("/lists/gallery/", {"system": "chess"})
    assert response.status_code == 400 and "unknown system" in response.content.decode()


def test_share_page_is_read_only_with_text_json_fork_and_open_graph(make_list):
    game_list = make_list(hagmi_legal_doc(), visibility="unlisted")
    page = Client().get(f"/lists/{game_list.slug}/").content.decode()
    assert '<meta property="og:title" content="Blue rush · HAGMI!">' in page
    assert f'<meta property="og:url" content="http://testserver/lists/{game_list.slug}/">' in page
    assert f'href="/api/lists/{game_list.slug}/export/?as=json"' in page
    assert "[Weapons]\n2 Guren-maru\n" in page  # the text export in the UI language, ready to copy
    assert 'data-copy="#text-export"' in page
    assert f'/lists/{game_list.slug}/edit/' not in page  # not the owner: no edit link
    assert 'name="op"' not in page  # read-only


def test_fork_copies_into_a_private_list_of_mine(make_list, other_client):
    game_list = make_list(hagmi_legal_doc(), visibility="public")
    response = other_client.post(f"/lists/{game_list.slug}/fork/")
    fork = GameList.objects.exclude(pk=game_list.pk).get()
    assert response["Location"] == f"/lists/{fork.slug}/edit/"
    assert fork.forked_from_id == game_list.pk and fork.visibility == "private" and fork.owner.username == "other"


def test_history_shows_what_changed_between_revisions(make_list, owner, owner_client):
    game_list = make_list(empty_hagmi())
    services.list_update(game_list=game_list, user=owner, document=hagmi_legal_doc("Renamed"), expected_version=1)
    page = owner_client.get(f"/lists/{game_list.slug}/history/").content.decode()
    assert "Changes from revision 1 to 2" in page
    assert "<del>Blue rush</del> → <ins>Renamed</ins>" in page
    assert '<li class="added"><ins>+ 2×' in page
    assert owner_client.get(f"/lists/{game_list.slug}/history/?from=x&to=2").status_code == 400
    assert owner_client.get(f"/lists/{game_list.slug}/history/?from=1&to=9").status_code == 404


def test_import_text_with_a_bad_line_names_the_line_and_saves_nothing(catalog, owner_client):
    text = "System: hagmi\nFormat: tactics-v4\n[兵器]\n2 紅蓮丸\n2 紅蓮丸X\n"
    response = owner_client.post("/lists/import/", {"text": text, "visibility": "private"})
    assert response.status_code == 400
    page = response.content.decode()
    assert '<span class="line-no">line 5</span>' in page and "Did you mean" in page and "紅蓮丸" in page
    assert not GameList.objects.exists()


def test_import_text_and_json_file_create_lists(catalog, owner_client):
    response = owner_client.post("/lists/import/", {"text": "System: hagmi\n[兵器]\n2 紅蓮丸\n", "name": "Pasted",
                                                    "visibility": "private"})
    pasted = GameList.objects.get(name="Pasted")
    assert response["Location"] == f"/lists/{pasted.slug}/edit/"
    upload = SimpleUploadedFile("deck.json", b'{"schema": "hangar.list/1", "system": "hagmi", "name": "Filed",'
                                b' "sections": {"weapons": [{"card": "HS-001", "qty": 2}]}}')
    owner_client.post("/lists/import/", {"file": upload, "visibility": "private"})
    assert GameList.objects.get(name="Filed").entries.get().qty == 2


def test_import_needs_exactly_one_of_text_or_file(catalog, owner_client):
    response = owner_client.post("/lists/import/", {"text": "", "visibility": "private"})
    assert response.status_code == 400 and "Paste a list or choose a file" in response.content.decode()


def sheet_code(client, game_list) -> str:
    page = client.get(f"/lists/{game_list.slug}/sheet/").content.decode()
    return re.search(r'<code class="vcode">([0-9a-f]{10}-r\d+)</code>', page).group(1)


def test_tournament_sheet_code_verifies_and_a_changed_list_is_flagged(make_list, owner, owner_client):
    game_list = make_list(hagmi_legal_doc(), visibility="unlisted")
    code = sheet_code(owner_client, game_list)
    assert code.endswith("-r1")
    page = Client().get("/verify/", {"list": f"http://testserver/lists/{game_list.slug}/", "code": code}).content
    assert b"The sheet matches revision 1" in page and b"badge legal" in page
    services.list_update(game_list=game_list, user=owner, notes="later", expected_version=1)
    page = Client().get("/verify/", {"list": game_list.slug, "code": code}).content.decode()
    assert "The sheet matches revision 1" in page and "it is now at revision 2" in page


def test_verification_refuses_a_forged_code_a_malformed_one_and_a_private_list(make_list):
    game_list = make_list(hagmi_legal_doc(), visibility="unlisted")
    page = Client().get("/verify/", {"list": game_list.slug, "code": "0000000000-r1"}).content.decode()
    assert "does NOT match" in page
    page = Client().get("/verify/", {"list": game_list.slug, "code": "hello"}).content.decode()
    assert "That is not a verification code" in page
    private = make_list(hagmi_legal_doc(), visibility="private")
    page = Client().get("/verify/", {"list": private.slug, "code": "0000000000-r1"}).content.decode()
    assert "No such list visible to you" in page


def test_owner_deletes_a_list_to_the_trash_and_restores_it(make_list, owner_client):
    game_list = make_list(hagmi_legal_doc(name="Trash me"))
    response = owner_client.post(f"/lists/{game_list.slug}/delete/")
    assert response.status_code == 302 and response["Location"] == "/lists/?deleted=1"
    assert "Trash me" not in owner_client.get("/lists/").content.decode()
    trash = owner_client.get("/lists/?deleted=1").content.decode()
    assert "Trash me" in trash and f"/lists/{game_list.slug}/restore/" in trash
    restored = owner_client.post(f"/lists/{game_list.slug}/restore/")
    assert restored["Location"] == f"/lists/{game_list.slug}/"
    assert "Trash me" in owner_client.get("/lists/").content.decode()


def test_nobody_else_can_delete_a_list(make_list, other_client):
    game_list = make_list(hagmi_legal_doc(), visibility="public")
    assert other_client.post(f"/lists/{game_list.slug}/delete/").status_code == 403
    game_list.refresh_from_db()
    assert game_list.deleted_at is None


def test_list_pages_name_the_format_in_the_ui_language(make_list, owner_client):
    game_list = make_list(hagmi_legal_doc())
    fmt = Format.objects.get(system__slug="hagmi", slug="tactics-v4")
    english = owner_client.get(f"/lists/{game_list.slug}/").content.decode()
    assert fmt.name_en in english
    japanese = owner_client.get(f"/lists/{game_list.slug}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert fmt.name in japanese
    assert fmt.name_en in owner_client.get("/lists/").content.decode()
