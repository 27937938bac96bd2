"""The card editor: data editors edit a package's draft in forms drawn from each system's schema,
with live checks and a preview, and publish it as the next version; users propose corrections that editors accept or
reject; every change is kept with who and when."""
from __future__ import annotations

import pytest

from builder import selectors
from builder.web import cardform
from cards import drafts
from cards.models import Card, CardProposal, CatalogChange, PackageDraft, PackageVersion
from cards.selectors import package_document

from .conftest import hagmi_legal_doc, logged_in
from .formfields import as_post, form_pairs

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor(make_user):
    user = make_user("editor")
    user.groups.add(drafts.editor_group())  # the migration's group (made again if a transactional test emptied it)
    return user


@pytest.fixture
def editor_client(editor, catalog):
    return logged_in(editor)


def _form(client, url: str, **extra: str) -> dict[str, list[str]]:
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    return as_post(form_pairs(page.content.decode(), "card-form"), **extra)


@pytest.mark.parametrize("system", ["hagmi", "mwda", "warcaster"])
def test_every_bundled_card_comes_back_from_its_form_unchanged(editor_client, system):
    """The form follows the schema: what a browser submits for a card's form, unedited, reads back as the card
    exactly (every field of every bundled card: HAGMI skills and firepower, MWDA dials, Warcaster weapons)."""
    cards = list(Card.objects.filter(system__slug=system).select_related("package"))
    assert cards
    for card in cards:
        data = _form(editor_client, f"/data/{system}/{card.package.slug}/cards/{card.code}/")
        parsed = cardform.parse(system, data, card.data)
        assert parsed.errors == {} and parsed.card == card.data, card.code


def _new_unit(client) -> dict[str, list[str]]:
    """A new HAGMI unit typed into the form: firepower 2 × 2 and an on-attack skill (two redraws: the category is
    given, then a skill row is added and its kind chosen)."""
    data = _form(client, "/data/hagmi/core/cards/new/?category=unit")
    data.update({"code": ["HS-900"], "name": ["試作機"], "name_en": ["Prototype"], "frame": ["black"], "cost": ["2"],
                 "pilot": ["テスト"], "types": ["強襲"], "firepower": ["2"], "firepower.__attacks": ["2"],
                 "armor": ["2"], "range": ["1"], "fuel_cost": ["1"], "targets": ["single"]})
    added = client.post("/data/hagmi/core/cards/new/", {**data, "action": "add:skills"})
    assert added.status_code == 200 and b'name="skills.0.__row"' in added.content
    data = as_post(form_pairs(added.content.decode(), "card-form"))
    data.update({"skills.0.kind": ["deal_damage"]})
    redrawn = client.post("/data/hagmi/core/cards/new/", {**data, "action": "redraw"})
    assert b'name="skills.0.amount"' in redrawn.content  # the kind's parameters
    data = as_post(form_pairs(redrawn.content.decode(), "card-form"))
    data.update({"skills.0.trigger": ["on_attack"], "skills.0.amount": ["1"], "skills.0.target": ["opponent"]})
    return data


def test_an_editor_adds_a_card_with_a_2x2_firepower_and_an_on_attack_skill_then_publishes_it(editor_client, editor):
    data = _new_unit(editor_client)
    checked = editor_client.post("/data/hagmi/core/cards/new/", {**data, "action": "check"}, HTTP_HX_REQUEST="true")
    assert checked.status_code == 200 and b'id="card-ok"' in checked.content
    assert "Prototype" in checked.content.decode()  # the preview, as the catalog draws the card
    saved = editor_client.post("/data/hagmi/core/cards/new/", {**data, "action": "save"})
    assert saved.status_code == 302 and saved["Location"] == "/data/hagmi/core/"
    draft = PackageDraft.objects.get(slug="core")
    card = next(card for card in draft.data["cards"] if card["code"] == "HS-900")
    assert card["firepower"] == "2x2"
    assert card["skills"] == [{"kind": "deal_damage", "trigger": "on_attack", "amount": 1, "target": "opponent"}]
    assert not Card.objects.filter(code="HS-900").exists()  # the catalog sees it only once it is published
    change = CatalogChange.objects.get(action="card_added")
    assert change.user == editor and change.code == "HS-900" and change.after == card
    before = PackageVersion.objects.filter(slug="core").count()
    published = editor_client.post("/data/hagmi/core/publish/", {"version": "2026.12.02"})
    assert published.status_code == 302 and published["Location"] == "/catalog/hagmi/packages/core/"
    assert Card.objects.get(code="HS-900").data["firepower"] == "2x2"
    newest = PackageVersion.objects.filter(slug="core").order_by("-number").first()
    assert PackageVersion.objects.filter(slug="core").count() == before + 1
    assert newest.published_by == editor and newest.version == "2026.12.02"
    assert not PackageDraft.objects.exists()
    assert CatalogChange.objects.filter(action="published", version_number=newest.number, user=editor).exists()


def test_a_bad_input_is_shown_at_its_field_and_nothing_is_kept(editor_client):
    data = _new_unit(editor_client)
    data.update({"armor": ["two"], "skills.0.amount": ["0"], "code": ["HS-001"]})
    refused = editor_client.post("/data/hagmi/core/cards/new/", {**data, "action": "save"},
                                 HTTP_ACCEPT_LANGUAGE="en")
    page = refused.content.decode()
    assert refused.status_code == 422
    assert 'id="f-armor-errors"' in page and "expected a whole number" in page
    assert 'value="two"' in page  # what was typed is shown again
    assert 'href="#f-skills-0-amount"' in page  # the summary links each problem to its input
    assert 'href="#f-code"' in page and "another card" in page  # HS-001 is taken
    assert not PackageDraft.objects.exists() and not CatalogChange.objects.exists()


def test_changing_a_card_a_list_uses_and_publishing_shows_the_notice_on_the_list(editor_client, make_list, owner):
    game_list = make_list(hagmi_legal_doc())
    data = _form(editor_client, "/data/hagmi/core/cards/HS-001/")
    data.update({"firepower": ["2"], "firepower.__attacks": ["2"]})
    assert editor_client.post("/data/hagmi/core/cards/HS-001/", {**data, "action": "save"}).status_code == 302
    draft_page = editor_client.get("/data/hagmi/core/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "0 added, 1 changed, 0 removed" in draft_page and "changed the card" in draft_page
    editor_client.post("/data/hagmi/core/publish/", {"version": "2026.12.02b"})
    page = logged_in(owner).get(f"/lists/{game_list.slug}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "1 card changed in the catalog since this list was saved" in page and "Firepower" in page
    assert selectors.list_card_changes(game_list)["changed"] == [{"card": "HS-001", "fields": ["firepower"]}]


def test_publishing_nothing_and_removing_a_card_then_discarding(editor_client):
    nothing = editor_client.post("/data/hagmi/core/publish/", {"version": "x"}, follow=True,
                                 HTTP_ACCEPT_LANGUAGE="en")
    assert "there is no draft to publish" in nothing.content.decode()
    versions = PackageVersion.objects.filter(slug="core").count()
    editor_client.post("/data/hagmi/core/cards/HS-002/remove/")
    assert all(card["code"] != "HS-002" for card in PackageDraft.objects.get().data["cards"])
    assert Card.objects.filter(code="HS-002").exists()
    page = editor_client.get("/data/hagmi/core/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "0 added, 0 changed, 1 removed" in page and "<del>" in page
    editor_client.post("/data/hagmi/core/discard/")
    assert not PackageDraft.objects.exists() and PackageVersion.objects.filter(slug="core").count() == versions
    assert list(CatalogChange.objects.order_by("id").values_list("action", flat=True)) == ["card_removed",
                                                                                            "discarded"]


def test_an_mwda_dial_is_edited_click_by_click(editor_client):
    data = _form(editor_client, "/data/mwda/core-sample/cards/MW-001/")
    clicks = len(package_document("mwda", "core-sample")["cards"][0]["dial"])
    added = editor_client.post("/data/mwda/core-sample/cards/MW-001/", {**data, "action": "add:dial"})
    data = as_post(form_pairs(added.content.decode(), "card-form"))
    data.update({f"dial.{clicks}.primary_damage": ["1"], f"dial.{clicks}.move": ["4"],
                 f"dial.{clicks}.attack": ["7"], f"dial.{clicks}.defense": ["13"]})
    assert editor_client.post("/data/mwda/core-sample/cards/MW-001/", {**data, "action": "save"}).status_code == 302
    card = next(card for card in PackageDraft.objects.get().data["cards"] if card["code"] == "MW-001")
    assert card["dial"][-1] == {"primary_damage": 1, "move": 4, "attack": 7, "defense": 13}
    assert len(card["dial"]) == clicks + 1


def test_a_user_proposes_a_correction_and_an_editor_accepts_it_into_the_draft(catalog, owner, editor):
    player = logged_in(owner)
    data = _form(player, "/catalog/hagmi/HS-001/propose/")
    data.update({"armor": ["4"], "note": ["HGM03 print says armor 4"]})
    sent = player.post("/catalog/hagmi/HS-001/propose/", {**data, "action": "save"})
    assert sent.status_code == 302 and sent["Location"] == "/catalog/hagmi/HS-001/"
    proposal = CardProposal.objects.get()
    assert proposal.data["armor"] == 4 and proposal.before["armor"] != 4 and proposal.proposed_by == owner
    assert not PackageDraft.objects.exists()  # nothing changes until an editor accepts
    editing = logged_in(editor)
    page = editing.get(f"/data/proposals/{proposal.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "HGM03 print says armor 4" in page and "Armor" in page
    editing.post(f"/data/proposals/{proposal.pk}/", {"decision": "accept", "reply": "thanks"})
    proposal.refresh_from_db()
    assert proposal.status == "accepted" and proposal.decided_by == editor and proposal.reply == "thanks"
    card = next(card for card in PackageDraft.objects.get().data["cards"] if card["code"] == "HS-001")
    assert card["armor"] == 4
    again = editing.post(f"/data/proposals/{proposal.pk}/", {"decision": "reject"}, follow=True,
                         HTTP_ACCEPT_LANGUAGE="en")
    assert "decided already" in again.content.decode()
    assert list(CatalogChange.objects.order_by("id").values_list("action", "user")) == [
        ("proposed", owner.pk), ("card_changed", editor.pk), ("accepted", editor.pk)]


def test_a_proposal_that_changes_nothing_or_breaks_a_check_is_refused(catalog, owner):
    player = logged_in(owner)
    data = _form(player, "/catalog/hagmi/HS-001/propose/")
    same = player.post("/catalog/hagmi/HS-001/propose/", {**data, "action": "save"}, HTTP_ACCEPT_LANGUAGE="en")
    assert same.status_code == 422 and "changes nothing" in same.content.decode()
    data.update({"cost": ["-1"]})
    bad = player.post("/catalog/hagmi/HS-001/propose/", {**data, "action": "save"}, HTTP_ACCEPT_LANGUAGE="en")
    assert bad.status_code == 422 and 'href="#f-cost"' in bad.content.decode()
    assert not CardProposal.objects.exists()


def test_a_rejected_proposal_changes_nothing(catalog, owner, editor):
    player = logged_in(owner)
    data = _form(player, "/catalog/hagmi/HS-001/propose/")
    data.update({"armor": ["9"]})
    player.post("/catalog/hagmi/HS-001/propose/", {**data, "action": "save"})
    proposal = CardProposal.objects.get()
    logged_in(editor).post(f"/data/proposals/{proposal.pk}/", {"decision": "reject", "reply": "the print says 3"})
    proposal.refresh_from_db()
    assert proposal.status == "rejected" and proposal.reply == "the print says 3"
    assert not PackageDraft.objects.exists() and Card.objects.get(code="HS-001").data["armor"] != 9
    page = player.get("/catalog/hagmi/HS-001/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Your corrections to this card" in page and "rejected" in page and "the print says 3" in page


def test_the_card_page_links_to_the_editor_for_editors_and_to_a_proposal_for_users(catalog, owner, editor, client):
    assert "/data/hagmi/core/cards/HS-001/" in logged_in(editor).get("/catalog/hagmi/HS-001/").content.decode()
    mine = logged_in(owner).get("/catalog/hagmi/HS-001/").content.decode()
    assert "/catalog/hagmi/HS-001/propose/" in mine and "/data/hagmi/core/cards/HS-001/" not in mine
    assert "/accounts/login/?next=/catalog/hagmi/HS-001/propose/" in client.get("/catalog/hagmi/HS-001/").content.decode()


def test_grant_editor_gives_and_takes_the_role(catalog, make_user):
    from django.core.management import call_command

    user = make_user("someone")
    assert not drafts.is_data_editor(user)
    call_command("grant_editor", "someone", stdout=open("/dev/null", "w"))
    user = type(user).objects.get(pk=user.pk)
    assert drafts.is_data_editor(user)
    call_command("grant_editor", "someone", "--remove", stdout=open("/dev/null", "w"))
    assert not drafts.is_data_editor(type(user).objects.get(pk=user.pk))


def test_accepting_a_proposal_keeps_the_editors_own_changes_to_other_fields(catalog, owner, editor):
    """The proposal's changed fields go on top of the card as the draft has it: an editor's edit of another field
    since the proposal was made is not lost."""
    player, editing = logged_in(owner), logged_in(editor)
    data = _form(player, "/catalog/hagmi/HS-001/propose/")
    data.update({"armor": ["4"]})
    player.post("/catalog/hagmi/HS-001/propose/", {**data, "action": "save"})
    data = _form(editing, "/data/hagmi/core/cards/HS-001/")
    data.update({"pilot": ["新しい搭乗者"]})
    assert editing.post("/data/hagmi/core/cards/HS-001/", {**data, "action": "save"}).status_code == 302
    editing.post(f"/data/proposals/{CardProposal.objects.get().pk}/", {"decision": "accept"})
    card = next(card for card in PackageDraft.objects.get().data["cards"] if card["code"] == "HS-001")
    assert card["armor"] == 4 and card["pilot"] == "新しい搭乗者"


def test_enter_in_a_field_runs_the_checks_not_an_add_or_remove_button(editor_client):
    """A form's first submit button is what Enter presses: the card form's is the check."""
    html = editor_client.get("/data/hagmi/core/cards/HS-001/").content.decode()
    form = html[html.index('id="card-form"'):]
    first = form[form.index("<button"):form.index("</button>")]
    assert 'value="check"' in first
