"""The exports of an event's lists (builder/event_exports.py): CSV, JSON (hangar.event-lists/1), the PDF pack, the
downloads of the organiser's page and `manage.py event_export`."""
from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.core.management import CommandError

from builder import event_exports
from builder import event_selectors as events
from builder import services
from builder.models import new_event_slug
from builder.services import events as event_services
from rules_engine.core.catalog import Catalog
from tests.events.conftest import client_of, hagmi_doc
from tests.support.commands import run

pytestmark = pytest.mark.django_db


@pytest.fixture
def submitted(event, player, rival, django_user_model):
    """Player One: a legal list; Rival Two: an illegal one (three copies); Waiting Three: no list yet."""
    found = {}
    for user, name, doc in ((player, "Player One", hagmi_doc("Blue rush")),
                            (rival, "=Rival Two", hagmi_doc("Red wall", copies=3))):
        event_services.event_join(event=event, user=user, display_name=name)
        found[name] = event_services.event_submit(event=event, user=user,
                                                  game_list=services.list_create(owner=user, document=doc))
    waiting = django_user_model.objects.create_user("waiting", password="pw-x-12345")
    event_services.event_join(event=event, user=waiting, display_name="Waiting Three")
    return found


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def test_csv_has_one_row_per_player_with_a_list_then_those_without(event, submitted):
    rows = list(csv.reader(io.StringIO(event_exports.export_csv(event, lang="en"))))
    assert rows[0] == ["Player", "List", "Faction or main card", "Main deck", "Legal", "Errors", "Verification code",
                       "Submitted at"]
    one, two, three = rows[1:]
    assert one[:6] == ["Player One", "Blue rush", one[2], "40", "yes", "0"] and one[2]  # the main card's name
    assert one[6] == events.submission_code(submitted["Player One"])
    assert two[0] == "'=Rival Two"  # a name a spreadsheet would run as a formula is quoted
    assert two[1] == "Red wall" and two[3] == "50" and two[4] == "no" and int(two[5]) >= 1
    assert three == ["Waiting Three", "", "", "", "", "", "", ""]
    japanese = list(csv.reader(io.StringIO(event_exports.export_csv(event, lang="ja"))))
    assert japanese[0][0] == "プレイヤー" and japanese[2][4] == "いいえ"


def test_the_faction_or_main_card_and_the_size_are_game_neutral():
    cards = [{"code": "A", "name": "A", "points": 3, "faction": "red"}, {"code": "B", "name": "B", "points": 5},
             {"code": "C", "name": "C", "points": 1, "faction": "blue"}, {"code": "D", "name": "Dee", "points": 9}]
    catalog = Catalog.build("mwda", cards, [])
    doc = {"system": "mwda", "sections": {"army": [{"card": "A", "qty": 1}, {"card": "C", "qty": 2},
                                                   {"card": "B", "qty": 3}]}}
    assert event_exports.list_identity(doc, catalog)["kind"] == "faction"
    assert event_exports.list_identity(doc, catalog)["value"] == "blue"  # by copies: 2 blue, 1 red
    plain = {"system": "mwda", "sections": {"army": [{"card": "B", "qty": 2}, {"card": "D", "qty": 2}]}}
    assert event_exports.list_identity(plain, catalog) == {"kind": "card", "value": "D", "name": "Dee"}  # tie: cost
    assert event_exports.list_size(doc, catalog) == 3 + 2 * 1 + 3 * 5  # the points gauge (M1)
    assert event_exports.size_measure("mwda") == "points" and event_exports.size_measure("hagmi") == "main"
    assert event_exports.size_measure("warcaster") == "cost"


def test_json_holds_every_list_with_its_code_and_document(event, submitted):
    data = event_exports.export_json(event)
    assert data["schema"] == "hangar.event-lists/1"
    assert data["event"]["id"] == event.slug and data["event"]["name"] == "Winter Cup"
    assert data["event"]["status"] == "open" and data["package_versions"] == event.package_versions
    names = [entrant["display_name"] for entrant in data["entrants"]]
    assert names == ["Player One", "=Rival Two", "Waiting Three"]
    rival = data["entrants"][1]["submission"]
    assert rival["public_id"] == submitted["=Rival Two"].public_id and rival["number"] == 1
    assert rival["legal"] is False and any(v["rule"] == "H4" for v in rival["violations"])
    assert rival["verification_code"] == events.submission_code(submitted["=Rival Two"])
    assert rival["document"]["name"] == "Red wall" and rival["submitted_at"]
    assert data["entrants"][2]["submission"] is None
    json.dumps(data)  # JSON all the way down


def test_the_pdf_pack_has_one_page_per_player_with_a_list(event, submitted):
    pdf = event_exports.export_pdf_pack(event, lang="ja")
    assert pdf.startswith(b"%PDF") and _pages(pdf) == 2
    assert b"HeiseiKakuGo-W5" in pdf  # the built-in Japanese font: no font file
    assert _pages(event_exports.export_pdf_pack(event, lang="en")) == 2


def test_the_downloads_of_the_organisers_page(event, organiser, player, submitted):
    client = client_of(organiser)
    response = client.get(f"/events/{event.slug}/export/csv/")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert 'filename="Winter-Cup-lists.csv"' in response["Content-Disposition"]
    assert response.content.startswith("\ufeff".encode())  # Excel reads Japanese
    response = client.get(f"/events/{event.slug}/export/json/")
    assert json.loads(response.content)["schema"] == "hangar.event-lists/1"
    response = client.get(f"/events/{event.slug}/export/pdf-pack/")
    assert response["Content-Type"] == "application/pdf" and response.content.startswith(b"%PDF")
    assert client.get(f"/events/{event.slug}/export/xml/").status_code == 404
    assert client_of(player).get(f"/events/{event.slug}/export/json/").status_code == 403
    pack = client.get(f"/events/{event.slug}/pack/").content.decode()
    assert pack.count('class="sheet event-sheet pack-sheet"') == 2 and "Red wall" in pack


def test_the_command_writes_each_kind(event, submitted, tmp_path):
    text = run("event_export", event.slug, "--as", "csv", "--lang", "ja")  # the command line docs/events.md gives
    assert text.splitlines()[0].startswith("プレイヤー") and "Blue rush" in text
    data = json.loads(run("event_export", event.slug, "--as", "json"))
    assert data["schema"] == "hangar.event-lists/1" and len(data["entrants"]) == 3
    out = tmp_path / "pack.pdf"
    run("event_export", event.slug, "--as", "pdf-pack", "--output", str(out))
    assert out.read_bytes().startswith(b"%PDF") and _pages(out.read_bytes()) == 2


def test_an_events_id_never_begins_with_a_dash_so_the_command_never_reads_it_as_an_option():
    assert not any(new_event_slug().startswith(("-", "_")) for _ in range(2_000))


def test_the_command_refuses_an_unknown_event_or_kind(event):
    with pytest.raises(CommandError, match="No event with id 'nope'"):
        run("event_export", "nope", "--as", "csv")
    with pytest.raises(CommandError, match="invalid choice"):
        run("event_export", "--as", "xlsx", "--", event.slug)
    with pytest.raises(CommandError, match="--output"):
        run("event_export", "--as", "pdf-pack", "--", event.slug)  # bytes to a test's stdout: refused
