"""The "cards changed" notice is at the top of the list page and the editor, naming each changed card with a link to
read it as it is now; a correction's proposer reads, once the version is published, which version holds it."""
from __future__ import annotations

import re

import pytest

from cards.models import CardProposal

from .conftest import hagmi_legal_doc, logged_in
from .test_card_changes import _new_version
from .test_card_editor import _form, editor  # noqa: F401  (the data editor)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("page_of", ["/lists/{slug}/", "/lists/{slug}/edit/"])
def test_the_notice_is_at_the_top_and_names_the_changed_cards_with_a_link(make_list, owner_client, page_of):
    game_list = make_list(hagmi_legal_doc())
    _new_version()
    page = owner_client.get(page_of.format(slug=game_list.slug), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    main = page.split('<main id="main">', 1)[1]
    notice = main.index('id="card-changes"')
    assert notice < main.index('id="legality"') and notice < main.index("<h2")  # the first thing after the title
    assert "<details" not in main.split('id="card-changes"', 1)[1].split("</section>", 1)[0]  # not folded away
    link = re.search(r'<a href="/catalog/hagmi/HS-001/">(.*?)</a>', main)  # read it as it is now
    assert link and "Guren-maru" in link.group(1)
    legality = main.split('id="legality"', 1)[1].split("</section>", 1)[0]
    assert "changed in the catalog" not in legality  # not a line at the bottom of the legality box any more


def test_the_proposer_reads_which_version_holds_the_accepted_correction(catalog, owner, editor):  # noqa: F811
    player = logged_in(owner)
    data = _form(player, "/catalog/hagmi/HS-001/propose/")
    data.update({"armor": ["4"], "note": ["HGM03 print says armor 4"]})
    player.post("/catalog/hagmi/HS-001/propose/", {**data, "action": "save"})
    proposal = CardProposal.objects.get()
    editing = logged_in(editor)
    editing.post(f"/data/proposals/{proposal.pk}/", {"decision": "accept", "reply": "thanks"})
    page = player.get("/catalog/hagmi/HS-001/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "accepted: it is in the draft of the next version" in page
    response = editing.post("/data/hagmi/core/publish/", {"version": "2026.12"})
    assert response.status_code == 302
    page = player.get("/catalog/hagmi/HS-001/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "in the draft of the next version" not in page
    assert "accepted: it is in version 2026.12 (number 2) of the cards" in page
    ja = player.get("/catalog/hagmi/HS-001/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "カードのバージョン 2026.12（第2版）に入っています" in ja
