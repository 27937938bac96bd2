"""The editor's fast adding: lines pasted in the text format, the "3 補給" search box, quantities typed in
place. The pure parts (builder/web/editing.py) and the editor's answers to the posts that use them."""
from __future__ import annotations

import json

import pytest

from builder.web.editing import merge_entries, rank_matches, read_paste, split_quantity
from cards.selectors import catalog_for
from tests.web.conftest import empty_hagmi
from tests.web.test_editor import draft_of, editor_post

pytestmark = pytest.mark.django_db


def read(text: str, system: str = "hagmi"):
    return read_paste(text, system, catalog_for)


def test_a_whole_exported_list_is_read_in_one_go_under_its_sections(catalog):
    result = read("Name: Blue\nSystem: hagmi\nFormat: tactics-v4\n\n[兵器]\n2 紅蓮丸\n[作戦]\n2 Flare\n[秘策]\n1 アークエンジン\n")
    assert result.problems == []
    assert [(e.section, e.entry) for e in result.entries] == [
        ("weapons", {"card": "HS-001", "qty": 2}), ("tactics", {"card": "HS-030", "qty": 2}),
        ("secret", {"card": "HS-060", "qty": 1})]


def test_lines_without_a_header_go_to_their_cards_own_sections_and_bad_lines_keep_the_importers_words(catalog):
    result = read("2 紅蓮丸\n2 補給物質\n\n# a comment\nName: ignored\n3x Flare\ntwo 照明弾\n")
    assert [(e.line, e.section, e.entry) for e in result.entries] == [
        (1, None, {"card": "HS-001", "qty": 2}), (6, None, {"card": "HS-030", "qty": 3})]
    bad, words = result.problems
    assert bad.line == 2 and bad.text == "2 補給物質"
    assert bad.message == 'no card named "補給物質" in HAGMI!'  # said once: the suggestions are the fix buttons
    assert bad.suggestions[0] == "補給物資 (HS-029)" and bad.fixes[0] == "2 補給物資 (HS-029)"
    assert words.line == 7 and "an entry starts with a quantity" in words.message
    text, shown = result.remaining()
    assert text == "2 補給物質\ntwo 照明弾"  # only the bad lines stay in the box
    assert [problem.line for problem in shown] == [1, 2] and shown[1].message == words.message


def test_a_bad_line_under_a_section_keeps_its_header_and_an_unknown_section_sends_cards_home(catalog):
    result = read("[作戦]\n2 補給物資\n2 補給物質\n[Army]\n1 紅蓮丸\n")
    assert [(e.section, e.entry["card"]) for e in result.entries] == [("tactics", "HS-029"), (None, "HS-001")]
    assert "unknown section [Army] for HAGMI!" in result.problems[1].message
    assert result.remaining()[0] == "[作戦]\n2 補給物質\n[Army]"


def test_a_paste_for_another_game_says_so(catalog):
    result = read("System: mwda\n[Army]\n1 移動司令部\n")
    assert any("another game (MechWarrior: Dark Age); this list is HAGMI!" in problem.message
               for problem in result.problems)


def test_a_japanese_paste_box_says_each_problem_once_in_japanese(catalog):
    """Once a bug: 「10 行目 line 10: no card named …; did you mean …?」 then 「もしかして：…」 again was the page."""
    from django.utils import translation
    with translation.override("ja"):
        result = read("2 紅蓮丸\n2 蒼穹の目・天\ntwo 照明弾\n[Army]\n")
    missing, shape, section = result.problems
    assert missing.message == "HAGMI!に「蒼穹の目・天」という名前のカードはありません"
    assert missing.fixes[0] == "2 蒼穹の眼・天 (HS-005)"  # the suggestion is a button, not a second sentence
    assert shape.message.startswith("カードの行は1〜999の数量で始めます")
    assert section.message.startswith("HAGMI!に[Army]というセクションはありません。セクション：[兵器]、[作戦]")
    for problem in result.problems:
        assert "line" not in problem.message and "did you mean" not in problem.message


def test_merge_adds_to_the_same_card_and_appends_new_ones():
    doc = empty_hagmi()
    doc["sections"]["weapons"] = [{"card": "HS-001", "qty": 998}]
    # bare "(CODE)" entries are read without a catalog; the one before any header goes to its card's own section
    pasted = read_paste("1 (XX-1)\n[兵器]\n2 (HS-001)\n1 (HS-002)\n", "hagmi", lambda system: None).entries
    merged, refused = merge_entries(doc, pasted, lambda code: "tactics", list(doc["sections"]))
    assert merged["sections"]["weapons"] == [{"card": "HS-001", "qty": 999}, {"card": "HS-002", "qty": 1}]
    assert merged["sections"]["tactics"] == [{"card": "XX-1", "qty": 1}] and refused == []
    assert doc["sections"]["weapons"] == [{"card": "HS-001", "qty": 998}]  # a copy: the draft itself is not changed


def test_split_quantity_and_ranking():
    assert split_quantity("3 補給") == (3, "補給") and split_quantity("2x Flare") == (2, "Flare")
    assert split_quantity("補給") == (1, "補給") and split_quantity("３ 補給") == (3, "補給")
    assert split_quantity("0 補給") == (1, "0 補給")
    rows = [{"code": "HS-002", "names": {"main": "紅蓮丸・焔", "other": ""}},
            {"code": "HS-003", "names": {"main": "大紅蓮丸", "other": ""}},
            {"code": "HS-001", "names": {"main": "紅蓮丸", "other": "Guren-maru"}}]
    assert [row["code"] for row in rank_matches(rows, "紅蓮丸")] == ["HS-001", "HS-002", "HS-003"]
    assert [row["code"] for row in rank_matches(rows, "guren")] == ["HS-001", "HS-002", "HS-003"]


def test_the_editor_adds_the_good_pasted_lines_and_keeps_the_bad_ones_in_the_box(catalog, make_list, owner_client):
    game_list = make_list(empty_hagmi())
    response = editor_post(owner_client, game_list, "paste", paste="2 紅蓮丸\n2 補給物質\n2 照明弾\n", htmx=True)
    draft = draft_of(response)
    assert draft["sections"]["weapons"] == [{"card": "HS-001", "qty": 2}]
    assert draft["sections"]["tactics"] == [{"card": "HS-030", "qty": 2}]
    page = response.content.decode()
    assert 'aria-labelledby="paste-title" hx-swap-oob="true"' in page  # the box is swapped after a paste
    assert ">2 補給物質</textarea>" in page and "no card named &quot;補給物質&quot; in HAGMI!" in page
    assert "did you mean" not in page and "Use 2 補給物資 (HS-029)" in page  # the suggestion once, as a button
    assert 'value="pastefix:1:0"' in page  # one click takes the first suggestion
    fixed = editor_post(owner_client, game_list, "pastefix:1:0", draft, paste="2 補給物質", htmx=True)
    assert draft_of(fixed)["sections"]["tactics"] == [{"card": "HS-030", "qty": 2}, {"card": "HS-029", "qty": 2}]
    assert "></textarea>" in fixed.content.decode()  # nothing left to fix
    game_list.refresh_from_db()
    assert game_list.version == 1  # pasting changes only the draft


def test_the_editor_adds_a_quantity_from_the_search_box_and_applies_typed_quantities(catalog, make_list,
                                                                                     owner_client):
    game_list = make_list(empty_hagmi())
    draft = draft_of(editor_post(owner_client, game_list, "add:tactics:HS-029", add_qty="3"))
    assert draft["sections"]["tactics"] == [{"card": "HS-029", "qty": 3}]
    draft = draft_of(editor_post(owner_client, game_list, "refresh", draft, **{"qty-tactics-0": "5"}))
    assert draft["sections"]["tactics"] == [{"card": "HS-029", "qty": 5}]
    response = editor_post(owner_client, game_list, "inc:tactics:HS-029", draft, **{"qty-tactics-0": "abc"})
    assert draft_of(response)["sections"]["tactics"] == [{"card": "HS-029", "qty": 6}]
    assert "must be a whole number from 0 to 999" in response.content.decode()
    draft = draft_of(editor_post(owner_client, game_list, "refresh", draft, **{"qty-tactics-0": "0"}))
    assert draft["sections"]["tactics"] == []


def test_the_picker_strips_a_typed_quantity_and_puts_the_exact_name_first(catalog, make_list, owner_client):
    game_list = make_list(empty_hagmi())
    page = owner_client.get(f"/lists/{game_list.slug}/edit/cards/", {"q": "2 紅蓮丸"}).content.decode()
    assert page.index('data-code="HS-001"') < page.index('data-code="HS-0', page.index('data-code="HS-001"') + 1)
    assert 'data-q="紅蓮丸"' in page


def test_the_save_note_is_beside_the_save_button_and_the_page_carries_the_drafts_key(catalog, make_list,
                                                                                    owner_client):
    game_list = make_list(empty_hagmi())
    page = owner_client.get(f"/lists/{game_list.slug}/edit/").content.decode()
    start = page.index('<script id="editor-state" type="application/json">') + len(
        '<script id="editor-state" type="application/json">')
    state = json.loads(page[start:page.index("</script>", start)])
    assert state["slug"] == game_list.slug and state["version"] == 1 and state["dirty"] is False
    saved = editor_post(owner_client, game_list, "save", htmx=True).content.decode()
    note = saved[saved.index('id="save-note"'):]
    assert "Saved" in note[:300]


def test_a_loadout_posted_unchanged_keeps_its_weapons_order_so_the_draft_stays_clean(catalog, make_list,
                                                                                     owner_client):
    doc = {"schema": "hangar.list/1", "system": "warcaster", "format": "skirmish", "name": "Order",
           "sections": {"force": [{"card": "WC-010", "qty": 1,
                                   "options": {"cortex": "WC-K01", "weapons": ["WC-W04", "WC-W02"]}}], "rack": []}}
    game_list = make_list(doc)
    response = editor_post(owner_client, game_list, "refresh", htmx=True,
                           **{"cortex-force-0": "WC-K01", "weapons-force-0": ["WC-W02", "WC-W04"]})
    assert draft_of(response)["sections"]["force"][0]["options"]["weapons"] == ["WC-W04", "WC-W02"]
    assert "Unsaved changes" not in response.content.decode()
