"""The list editor: clicks change an unsaved draft, the legality panel follows, Save uses the version (409 safe)."""
from __future__ import annotations

import html
import json
import re

import pytest

from builder import selectors, services
from builder.models import GameList
from tests.web.conftest import empty_hagmi, hagmi_legal_doc

pytestmark = pytest.mark.django_db


def editor_post(client, game_list, op: str, document: dict | None = None, *, version=None, htmx=False, **fields):
    data = {
        "document": json.dumps(document if document is not None else selectors.list_document(game_list)),
        "version": version if version is not None else game_list.version,
        "name": fields.pop("name", game_list.name), "format": fields.pop("format", game_list.format),
        "visibility": fields.pop("visibility", game_list.visibility), "notes": fields.pop("notes", ""),
        "op": op, **fields,
    }
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(f"/lists/{game_list.slug}/edit/", data, **extra)


def draft_of(response) -> dict:
    page = response.content.decode()
    start = page.index('name="document" value="') + len('name="document" value="')
    return json.loads(html.unescape(page[start:page.index('"', start)]))


def test_new_list_is_created_for_the_chosen_format_and_opens_the_editor(catalog, owner_client):
    response = owner_client.post("/lists/new/?system=hagmi", {"system": "hagmi", "name": "Deck one",
                                                               "format": "tactics-v3", "visibility": "private"})
    game_list = GameList.objects.get(name="Deck one")
    assert response["Location"] == f"/lists/{game_list.slug}/edit/"
    assert game_list.format == "tactics-v3" and game_list.system.slug == "hagmi"


def test_add_plus_minus_remove_change_only_the_draft(make_list, owner_client):
    game_list = make_list(empty_hagmi())
    response = editor_post(owner_client, game_list, "add:weapons:HS-001")
    draft = draft_of(response)
    assert draft["sections"]["weapons"] == [{"card": "HS-001", "qty": 1}]
    draft = draft_of(editor_post(owner_client, game_list, "inc:weapons:HS-001", draft))
    assert draft["sections"]["weapons"] == [{"card": "HS-001", "qty": 2}]
    draft = draft_of(editor_post(owner_client, game_list, "dec:weapons:HS-001", draft))
    assert draft["sections"]["weapons"] == [{"card": "HS-001", "qty": 1}]
    draft = draft_of(editor_post(owner_client, game_list, "remove:weapons:HS-001", draft))
    assert draft["sections"]["weapons"] == []
    game_list.refresh_from_db()
    assert game_list.version == 1  # nothing saved by clicks


def test_the_legality_panel_shows_rule_ids_and_the_secret_counter_h5(make_list, owner_client):
    game_list = make_list(empty_hagmi())
    page = editor_post(owner_client, game_list, "add:weapons:HS-001", htmx=True).content.decode()
    assert "Not legal yet" in page and '<span class="rule-id">H1</span>' in page
    legal = hagmi_legal_doc()
    legal["sections"]["secret"] = [{"card": "HS-057", "qty": 1}]
    page = editor_post(owner_client, game_list, "add:secret:HS-058", legal, htmx=True).content.decode()
    assert "is-legal" in page
    assert "<strong>2 / 2</strong> <small class=\"rule\">H5</small>" in page  # 秘策 2 / 2 with 40 main cards


def test_mwda_panel_counts_orders_per_round_m2(catalog, owner, owner_client):
    game_list = services.list_create(owner=owner, document={
        "schema": "hangar.list/1", "system": "mwda", "format": "tournament-300", "name": "Army",
        "sections": {"army": [{"card": "MW-001", "qty": 1}]}})
    page = editor_post(owner_client, game_list, "refresh", htmx=True).content.decode()
    assert "orders per round" in page and 'M2</small>' in page


def test_save_stores_a_new_version_through_list_update(make_list, owner_client):
    game_list = make_list(empty_hagmi())
    response = editor_post(owner_client, game_list, "save", hagmi_legal_doc(), name="Saved deck")
    assert response.status_code == 302 and response["Location"].endswith("/edit/?saved=1")
    game_list.refresh_from_db()
    assert game_list.version == 2 and game_list.legal and game_list.name == "Saved deck"
    assert game_list.revisions.count() == 2


def test_a_stale_save_is_a_409_that_keeps_the_draft_and_names_the_current_version(make_list, owner, owner_client):
    game_list = make_list(empty_hagmi())
    services.list_update(game_list=game_list, user=owner, notes="saved elsewhere", expected_version=1)  # now v2
    mine = hagmi_legal_doc()
    response = editor_post(owner_client, game_list, "save", mine, version=1)
    assert response.status_code == 409
    page = response.content.decode()
    assert "you edited version 1; it is now at version 2" in page
    assert draft_of(response)["sections"] == mine["sections"]  # nothing lost
    game_list.refresh_from_db()
    assert game_list.version == 2 and not game_list.legal  # nothing written
    response = editor_post(owner_client, game_list, "overwrite", mine, version=1, current_version=2)
    game_list.refresh_from_db()
    assert game_list.version == 3 and game_list.legal


def test_a_tampered_draft_is_refused_with_the_path_never_a_500(make_list, owner_client):
    game_list = make_list(empty_hagmi())
    bad = {**empty_hagmi(), "sections": {"weapons": [{"card": "HS-001", "qty": 0}]}}
    response = editor_post(owner_client, game_list, "save", bad)
    assert response.status_code == 400
    assert "sections.weapons[0].qty" in response.content.decode()
    game_list.refresh_from_db()
    assert game_list.version == 1


def test_unknown_editor_action_is_explained(make_list, owner_client):
    game_list = make_list(empty_hagmi())
    page = editor_post(owner_client, game_list, "inc:weapons:HS-001").content.decode()
    assert "HS-001 is not in Weapons (any more)." in page  # the section in words, never its slug
    page = editor_post(owner_client, game_list, "add:army:HS-001").content.decode()
    assert "This list has no section “army” (sections: Weapons, Tactics, Damage, Secret)." in page


def test_the_picker_offers_player_cards_only_with_their_home_section_h3(make_list, owner_client):
    game_list = make_list(empty_hagmi())
    page = owner_client.get(f"/lists/{game_list.slug}/edit/cards/").content.decode()
    assert 'value="add:weapons:HS-001"' in page and 'value="add:tactics:HS-029"' in page
    assert 'value="add:secret:HS-060"' in page  # a design goes to 秘策 (H7)
    assert "HB-001" not in page and "HM-001" not in page  # 機獣 and 母艦 never belong in a player's list


def test_the_cost_curve_counts_the_main_deck_by_cost(make_list, owner_client):
    game_list = make_list(hagmi_legal_doc())
    page = owner_client.get(f"/lists/{game_list.slug}/edit/").content.decode()
    start = page.index('<script id="cost" type="application/json">') + len('<script id="cost" type="application/json">')
    chart = json.loads(page[start:page.index("</script>", start)])
    assert sum(chart["series"][0]["data"]) == 40


def test_htmx_gets_the_conflict_and_errors_as_swappable_200_pages(make_list, owner, owner_client):
    game_list = make_list(empty_hagmi())
    services.list_update(game_list=game_list, user=owner, notes="elsewhere", expected_version=1)
    response = editor_post(owner_client, game_list, "save", hagmi_legal_doc(), version=1, htmx=True)
    assert response.status_code == 200 and 'class="conflict"' in response.content.decode()
    bad = {**empty_hagmi(), "sections": {"weapons": [{"card": "HS-001", "qty": -1}]}}
    response = editor_post(owner_client, game_list, "refresh", bad, htmx=True)
    assert response.status_code == 200 and "sections.weapons[0].qty" in response.content.decode()


def test_a_warjacks_cortex_and_weapons_are_chosen_in_the_editor_and_checked_by_w5(catalog, make_list, owner_client):
    """Warcaster: a warjack entry gets a loadout form; the chosen weapons' cost is checked against its chassis (W5).
    Its fields are named by the entry's place (a force may hold the same warjack twice with two loadouts), and apply
    with any button of the form ("Set loadout" without JavaScript; on change with it)."""
    doc = {"schema": "hangar.list/1", "system": "warcaster", "format": "skirmish", "name": "Jacks",
           "sections": {"force": [{"card": "WC-001", "qty": 1}, {"card": "WC-010", "qty": 1},
                                  {"card": "WC-010", "qty": 1, "options": {"cortex": "WC-K02"}}], "rack": []}}
    game_list = make_list(doc)
    page = owner_client.get(f"/lists/{game_list.slug}/edit/").content.decode()
    assert 'name="cortex-force-1"' in page and 'value="loadout:force:WC-010"' in page
    assert 'name="cortex-force-0"' not in page  # a hero has no loadout
    assert 'id="cortex-force-2-WC-K02" name="cortex-force-2" value="WC-K02" checked' in page

    response = editor_post(owner_client, game_list, "loadout:force:WC-010",
                           **{"cortex-force-1": "WC-K01", "weapons-force-1": ["WC-W01", "WC-W02"],
                              "cortex-force-2": "WC-K02"})
    force = draft_of(response)["sections"]["force"]
    assert force[1]["options"] == {"cortex": "WC-K01", "weapons": ["WC-W01", "WC-W02"]}  # 2 + 2 points fit 4
    assert force[2]["options"] == {"cortex": "WC-K02"}  # the second WC-010 keeps its own

    over = editor_post(owner_client, game_list, "refresh", draft_of(response),
                       **{"cortex-force-1": "WC-K01", "weapons-force-1": ["WC-W01", "WC-W02", "WC-W03"]})
    assert "W5" in over.content.decode()  # 7 weapon points on a 4-point chassis: the panel says so

    saved = editor_post(owner_client, game_list, "save", draft_of(response))
    assert saved.status_code == 302
    assert selectors.list_document(GameList.objects.get(pk=game_list.pk))["sections"]["force"][1]["options"] == {
        "cortex": "WC-K01", "weapons": ["WC-W01", "WC-W02"]}


def test_w11_a_warjack_without_weapons_keeps_the_line_of_its_odds(catalog, make_list, owner_client):
    """W11: a warjack's weapon odds open in its entry once a weapon is chosen; before that the entry says so in the
    same line, so that ticking the first weapon does not move the loadout under the pointer. A hero's odds are there
    from the start; a cypher has none."""
    doc = {"schema": "hangar.list/1", "system": "warcaster", "format": "skirmish", "name": "Jacks",
           "sections": {"force": [{"card": "WC-001", "qty": 1}, {"card": "WC-010", "qty": 1}],
                        "rack": [{"card": "WC-C01", "qty": 1}]}}
    game_list = make_list(doc)
    page = owner_client.get(f"/lists/{game_list.slug}/edit/").content.decode()
    assert page.count('class="entry-odds is-waiting"') == 1 and 'data-odds="WC-010"' not in page
    assert 'data-odds="WC-001"' in page and 'data-odds="WC-C01"' not in page

    ticked = editor_post(owner_client, game_list, "refresh", htmx=True,
                         **{"cortex-force-1": "", "weapons-force-1": ["WC-W01"]}).content.decode()
    assert 'class="entry-odds is-waiting"' not in ticked
    assert 'data-odds="WC-010"' in ticked and "/catalog/warcaster/WC-010/odds/?weapon=WC-W01" in ticked


# --- htmx answers: only what htmx swaps ----------------------------------------------------------------------


def _by_id(node, wanted: str):
    """The element of `node` (django.test.html's tree) whose id is `wanted`, or None."""
    for child in getattr(node, "children", []):
        if isinstance(child, str):
            continue
        if dict(child.attributes).get("id") == wanted:
            return child
        found = _by_id(child, wanted)
        if found is not None:
            return found
    return None


def _top_level_ids(fragment) -> list[str]:
    return [dict(child.attributes).get("id") or child.name for child in fragment.children if not isinstance(child, str)]


@pytest.mark.parametrize("op, fields, swapped", [
    ("add:weapons:HS-001", {}, ["title", "counter-bar", "editor-live", "editor-side"]),
    ("paste", {"paste": "2 紅蓮丸\n2 補給物質\n"}, ["title", "counter-bar", "editor-live", "paste-box", "editor-side"]),
])
def test_an_htmx_answer_is_only_what_htmx_swaps_in_the_markup_of_the_whole_page(make_list, owner_client, op, fields,
                                                                                 swapped):
    """The form's hx-select (#editor-live), hx-select-oob (#counter-bar, #editor-side) and, after a paste, the paste box
    (hx-swap-oob): an htmx answer carries those and the page's title, nothing of the picker or the rest of the page;
    each is the same element as in the whole page a form POST without JavaScript gets for the same click."""
    from django.test.html import parse_html

    game_list = make_list(hagmi_legal_doc())
    whole = editor_post(owner_client, game_list, op, **fields)
    part = editor_post(owner_client, game_list, op, htmx=True, **fields)
    assert whole.status_code == part.status_code == 200
    assert "HX-Request" in part["Vary"] and "HX-Request" in whole["Vary"]
    whole_html, part_html = whole.content.decode(), part.content.decode()
    assert whole_html.lstrip().startswith("<!doctype html>") and 'id="picker"' in whole_html
    assert "<html" not in part_html and 'id="picker"' not in part_html and 'id="editor"' not in part_html
    assert len(part.content) * 3 < len(whole.content), (len(part.content), len(whole.content))
    # the sample hand's button carries a new random seed on every answer (the next hand): the same seed in both
    fragment, page = (parse_html(re.sub(r'(id="sample-hand-button" name="sample_hand" value=")\d+"', r'\g<1>1"', text))
                      for text in (part_html, whole_html))
    assert _top_level_ids(fragment) == swapped
    for element_id in swapped[1:]:
        assert _by_id(fragment, element_id) == _by_id(page, element_id), element_id
    title = next(child for child in fragment.children if not isinstance(child, str) and child.name == "title")
    assert title.children == [f"Edit {game_list.name} · Hangar"]
    assert f"<title>Edit {game_list.name} · Hangar</title>" in whole_html


def test_a_save_without_javascript_still_redirects_to_the_whole_page(make_list, owner_client):
    """No JavaScript: Save is a form POST answered by a redirect to the editor's page, which is the whole page."""
    game_list = make_list(empty_hagmi())
    response = editor_post(owner_client, game_list, "save", hagmi_legal_doc())
    assert response.status_code == 302
    page = owner_client.get(response["Location"])
    html_text = page.content.decode()
    assert html_text.lstrip().startswith("<!doctype html>") and 'id="picker"' in html_text
    assert "Saved: this is now version 2." in html_text
    saved = editor_post(owner_client, game_list.__class__.objects.get(pk=game_list.pk), "save", hagmi_legal_doc(),
                        htmx=True)
    assert saved.status_code == 200 and "<html" not in saved.content.decode()  # htmx: the fragments, saved
    assert "Saved: this is now version 3." in saved.content.decode()


def _editor_form(page_html: str, url: str) -> dict:
    """The editor form's fields as a browser without JavaScript submits them (checked boxes, textareas, values)."""
    from tests.security.crawl import parse

    (form,) = [form for form in parse(page_html).forms if form["action"] == url and form["method"] == "post"]
    return dict(form["fields"])


def test_the_editor_still_works_without_javascript(make_list, owner_client):
    """The editor's form posted as a browser without JavaScript posts it (every button a submit of the whole form,
    each answer a whole page): paste lines (a misspelt one stays with its fix button), type a quantity and press
    Check again, then Save, which redirects to the editor's page saying it saved. (Was a browser test with
    JavaScript off; it needs no browser.)"""
    game_list = make_list(empty_hagmi())
    url = f"/lists/{game_list.slug}/edit/"
    page = owner_client.get(url)
    fields = _editor_form(page.content.decode(), url)
    fields.update({"paste": "2 紅蓮丸\n2 補給物質\n", "op": "paste"})  # "Add these lines"
    pasted = owner_client.post(url, fields)
    assert pasted.status_code == 200 and pasted.content.decode().lstrip().startswith("<!doctype html>")
    html_text = pasted.content.decode()
    assert 'id="qty-weapons-0" name="qty-weapons-0" value="2"' in html_text
    assert "Use 2 補給物資 (HS-029)" in html_text and 'class="paste-problems' in html_text
    fields = _editor_form(html_text, url)
    fields.update({"qty-weapons-0": "3", "op": "refresh"})  # a quantity typed, then "Check again"
    checked = owner_client.post(url, fields)
    assert 'id="qty-weapons-0" name="qty-weapons-0" value="3"' in checked.content.decode()
    fields = _editor_form(checked.content.decode(), url)
    fields["op"] = "save"
    saved = owner_client.post(url, fields)
    assert saved.status_code == 302 and saved["Location"] == f"{url}?saved=1"
    assert "Saved" in owner_client.get(saved["Location"]).content.decode().split('id="save-note"', 1)[1][:200]
    assert selectors.list_document(GameList.objects.get(pk=game_list.pk))["sections"]["weapons"] == [
        {"card": "HS-001", "qty": 3}]
