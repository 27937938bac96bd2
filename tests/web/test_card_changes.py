"""Lists across package versions: a list remembers the package versions it was saved against;
when a card it uses changes or leaves the catalog, its page, its editor and My lists say how many cards changed,
with what changed, the legality is checked against the catalog as it is now, and saving again clears the notice."""
from __future__ import annotations

import copy

import pytest

from builder import selectors, services
from cards.selectors import package_document
from cards.services import package_import

from .conftest import hagmi_legal_doc

pytestmark = pytest.mark.django_db


def _new_version() -> None:
    """HS-001 gets a fuel cost of 3, HS-002 leaves the catalog, HS-003 moves to another package unchanged."""
    data = package_document("hagmi", "core")
    changed = copy.deepcopy(data)
    for card in changed["cards"]:
        if card["code"] == "HS-001":
            card["fuel_cost"] = 3
    moved = next(card for card in changed["cards"] if card["code"] == "HS-003")
    changed["cards"] = [card for card in changed["cards"] if card["code"] not in ("HS-002", "HS-003")]
    package_import(changed)
    package_import({"schema": "hangar.package/1", "system": "hagmi", "slug": "extra", "version": "1",
                    "title": "Extra", "cards": [moved]})


def test_a_list_records_what_it_was_saved_against_and_sees_what_changed_since(make_list):
    game_list = make_list(hagmi_legal_doc())
    assert game_list.package_versions == {"core": 1}
    assert selectors.list_card_changes(game_list)["count"] == 0
    _new_version()
    changes = selectors.list_card_changes(game_list)
    assert changes["changed"] == [{"card": "HS-001", "fields": ["fuel_cost"]}] and changes["removed"] == ["HS-002"]
    assert changes["count"] == 2  # HS-003 moved package with the same data: no change


def test_the_list_page_editor_and_my_lists_say_so_in_both_languages(make_list, owner_client):
    game_list = make_list(hagmi_legal_doc())
    _new_version()
    page = owner_client.get(f"/lists/{game_list.slug}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "2 cards changed in the catalog since this list was saved" in page
    assert "Guren-maru" in page and ": Fuel cost" in page and "<small>HS-002</small>: no longer in the catalog" in page
    codes = {v["code"] for v in selectors.list_validation(game_list)["violations"]}
    assert "list.unknown_card" in codes  # the legality is checked against the catalog as it is now
    editor = owner_client.get(f"/lists/{game_list.slug}/edit/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "2 cards changed in the catalog since this list was saved" in editor
    assert "list.unknown_card" not in page  # the violation in words, no code
    mine = owner_client.get("/lists/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "2 cards changed since saved" in mine
    game_list.refresh_from_db()
    assert game_list.legal is False  # My lists shows the legality as the catalog is now, not as it was
    japanese = owner_client.get(f"/lists/{game_list.slug}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "このリストの保存後にカタログで 2 枚のカードが変わりました" in japanese and "燃料コスト" in japanese
    assert "カタログにもうありません" in japanese
    assert "保存後に 2 枚変更" in owner_client.get("/lists/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()


def test_saving_the_list_again_marks_the_changes_as_seen(make_list, owner):
    game_list = make_list(hagmi_legal_doc())
    _new_version()
    updated = services.list_update(game_list=game_list, user=owner, document=selectors.list_document(game_list),
                                   expected_version=game_list.version)
    assert updated.package_versions == {"core": 2, "extra": 1}
    assert selectors.list_card_changes(updated)["count"] == 0


def test_a_list_saved_before_versions_were_kept_shows_nothing(make_list):
    game_list = make_list(hagmi_legal_doc())
    game_list.package_versions = {}
    _new_version()
    assert selectors.list_card_changes(game_list) == {"changed": [], "removed": [], "removed_names": {}, "count": 0}
