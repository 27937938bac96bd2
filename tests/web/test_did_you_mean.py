""""Did you mean" offers only cards the line's section can take (the registry's placement rules: H3, H7, never a
機獣 or 母艦 card; Warcaster's force and rack), best match first — in the importer and the editor's paste box."""
from __future__ import annotations

import re

import pytest

from builder.listio import ListFormatError, parse_list_text
from cards.selectors import catalog_for
from tests.web.conftest import empty_hagmi
from tests.web.test_editor import editor_post

pytestmark = pytest.mark.django_db


def suggestions(text: str) -> list[str]:
    with pytest.raises(ListFormatError) as raised:
        parse_list_text(text, catalog_for)
    return raised.value.issues[0].suggestions


def test_h3_a_weapons_line_is_offered_the_unit_not_the_beast(catalog):
    found = suggestions("System: hagmi\n[兵器]\n1 ホウンド\n")
    assert found[0].startswith("ハウンド (") and not any("双頭ハウンド" in name for name in found)


def test_h3_a_tactics_line_is_offered_only_tactics(catalog):
    cards = catalog_for("hagmi").cards
    found = suggestions("System: hagmi\n[作戦]\n1 補給物質\n")
    assert found[0] == "補給物資 (HS-029)"
    assert all(cards[re.search(r"\((\S+)\)$", name).group(1)].get("category") == "tactic" for name in found)


def test_a_warcaster_rack_line_is_offered_only_cyphers(catalog):
    cards = catalog_for("warcaster").cards
    for name in suggestions("System: warcaster\n[Cypher rack]\n1 Arc Rifel\n"):
        assert cards[re.search(r"\((\S+)\)$", name).group(1)]["kind"] == "cypher", name


def test_the_editors_paste_box_offers_the_unit_first_and_never_the_beast(catalog, make_list, owner_client):
    game_list = make_list(empty_hagmi())
    page = editor_post(owner_client, game_list, "paste", paste="1 ホウンド\n", htmx=True).content.decode()
    offered = re.findall(r'<button type="submit" name="op" value="pastefix:1:\d+"[^>]*>([^<]+)</button>', page)
    assert offered and offered[0] == "Use 1 ハウンド (HS-009)"
    assert not any("双頭ハウンド" in words for words in offered)
