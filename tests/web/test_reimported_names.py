"""A list imported again gets a name of its own ("Blue rush (2)"), and the gauntlet and doctor forms say which of
the player's lists cannot play (no cards: left out, with why) or are not legal (marked)."""
from __future__ import annotations

import re

import pytest

from builder import services
from builder.models import GameList
from tests.web.conftest import empty_hagmi, hagmi_legal_doc

pytestmark = pytest.mark.django_db

TEXT = "System: hagmi\nName: マウスで組んだデッキ\n[兵器]\n2 HS-001\n"


def test_importing_the_same_list_again_names_each_copy(catalog, owner, other):
    names = [services.list_import_text(owner=owner, text=TEXT).name for _ in range(4)]
    assert names == ["マウスで組んだデッキ", "マウスで組んだデッキ (2)", "マウスで組んだデッキ (3)", "マウスで組んだデッキ (4)"]
    assert services.list_import_text(owner=other, text=TEXT).name == "マウスで組んだデッキ"  # another player's own


def test_the_import_page_names_a_copy_and_a_long_name_stays_within_the_limit(catalog, owner, owner_client):
    owner_client.post("/lists/import/", {"text": TEXT, "visibility": "private"})
    owner_client.post("/lists/import/", {"text": TEXT, "visibility": "private"})
    assert sorted(GameList.objects.filter(owner=owner).values_list("name", flat=True)) == [
        "マウスで組んだデッキ", "マウスで組んだデッキ (2)"]
    long = "長" * 200
    first = services.list_import_json(owner=owner, raw={**hagmi_legal_doc(long)})
    second = services.list_import_json(owner=owner, raw={**hagmi_legal_doc(long)})
    assert first.name == long and second.name.endswith("… (2)") and len(second.name) <= 200


def weight_labels(page: str) -> list[str]:
    return [words.strip() for words in re.findall(r'<label for="id_list-[^"]+">([^<]+)</label>', page)]


@pytest.mark.parametrize("kind", ["gauntlet", "doctor"])
def test_the_opponent_pickers_leave_out_empty_lists_and_mark_illegal_ones(make_list, owner_client, kind):
    game_list = make_list(hagmi_legal_doc("Blue rush"))
    make_list(hagmi_legal_doc("Red wall"))
    make_list(empty_hagmi("Nothing yet"))
    illegal = hagmi_legal_doc("Half deck")
    illegal["sections"]["tactics"] = []
    make_list(illegal)
    page = owner_client.get(f"/lists/{game_list.slug}/{kind}/").content.decode()
    labels = weight_labels(page)
    assert "Your list: Red wall" in labels
    assert any(label.startswith("Your list: Half deck (not legal:") for label in labels), labels
    assert not any("Nothing yet" in label for label in labels)
    assert "a list without cards cannot play: Nothing yet" in page
    ja = owner_client.get(f"/lists/{game_list.slug}/{kind}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "自分のリスト：Half deck（構築違反" in ja and "Nothing yet" in ja and "カードのないリスト" in ja
