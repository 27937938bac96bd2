"""GET /api/lists/{slug}/export/ and POST /api/lists/import/ (text, JSON, uploaded files), and their round trip."""
from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from builder.models import GameList

from .conftest import hagmi_doc, mwda_doc

pytestmark = pytest.mark.django_db

IMPORT = "/api/lists/import/"

TEXT = """Name: Text deck
System: hagmi
Format: tactics-v3

# 兵器 first
[兵器]
2 試験機1号
2x Test Frame 2
1 試験機3号 (HT-003)

[作戦]
2 補給物資
"""


def export(client, slug: str, query: str = "as=text"):
    return client.get(f"/api/lists/{slug}/export/?{query}")


# --- export --------------------------------------------------------------------------------------------------


def test_export_text_is_utf8_plain_text_with_a_filename(create_list, owner_client):
    slug = create_list()["slug"]
    response = export(owner_client, slug)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == (f'attachment; filename="blue-rush-{slug}.txt"; '
                                               "filename*=UTF-8''Blue%20rush.txt")
    text = response.content.decode("utf-8")
    assert "[兵器]" in text and "試験機1号" in text and "補給物資" in text


def test_export_text_in_english_headers(create_list, owner_client):
    slug = create_list()["slug"]
    text = export(owner_client, slug, "as=text&lang=en").content.decode("utf-8")
    assert "[Weapons]" in text and "[兵器]" not in text


def test_export_json_is_the_document(create_list, owner_client):
    data = create_list()
    response = export(owner_client, data["slug"], "as=json")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].endswith(".json")
    assert json.loads(response.content) == data["document"]


def test_export_with_a_bad_as_is_400(create_list, owner_client):
    slug = create_list()["slug"]
    response = export(owner_client, slug, "as=pdf")
    assert response.status_code == 400 and "'as'" in response.json()["error"]["message"]


@pytest.mark.parametrize("kind", ["text", "json"])
def test_export_then_import_round_trip(create_list, owner_client, kind):
    document = hagmi_doc(name="Round trip")
    document["sections"]["weapons"].append({"card": "ZZ-404", "qty": 1})  # unknown cards survive too
    source = create_list(document)
    body = export(owner_client, source["slug"], f"as={kind}").content.decode("utf-8")
    payload = {"text": body} if kind == "text" else {"json": body}
    response = owner_client.post(IMPORT, payload, format="json")
    assert response.status_code == 201, response.content
    # the same document; imported by the same owner, the copy gets a name of its own
    assert response.json()["document"] == {**source["document"], "name": "Round trip (2)"}


def test_round_trip_of_an_army(create_list, owner_client):
    source = create_list(mwda_doc(("MT-001", 1), ("MT-002", 1)))
    text = export(owner_client, source["slug"]).content.decode("utf-8")
    imported = owner_client.post(IMPORT, {"text": text}, format="json").json()
    copy = {**source["document"], "name": f"{source['document']['name']} (2)"}  # the owner's second of that name
    assert imported["document"] == copy and imported["legal"] is True


# --- import --------------------------------------------------------------------------------------------------


def test_import_text(catalogs, owner_client):
    response = owner_client.post(IMPORT, {"text": TEXT, "visibility": "public", "notes": "n"}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["name"] == "Text deck" and body["format"] == "tactics-v3"
    assert body["visibility"] == "public" and body["notes"] == "n" and body["owner"] == "owner"
    assert body["document"]["sections"]["weapons"] == [
        {"card": "HT-001", "qty": 2}, {"card": "HT-002", "qty": 2}, {"card": "HT-003", "qty": 1},
    ]
    assert body["document"]["sections"]["tactics"] == [{"card": "HT-011", "qty": 2}]
    assert body["legal"] is False  # saved although far too small
    assert GameList.objects.get(slug=body["slug"]).revisions.count() == 1


def test_import_text_with_system_and_name_from_the_request(catalogs, owner_client):
    text = "[army]\n1 Trial Mech\n"
    response = owner_client.post(IMPORT, {"text": text, "system": "mwda", "name": "Named"}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["system"] == "mwda" and response.json()["name"] == "Named"


def test_import_text_with_an_unknown_card_reports_the_line_and_suggestions(catalogs, owner_client):
    bad = TEXT.replace("2 補給物資", "2 補給物質")
    response = owner_client.post(IMPORT, {"text": bad}, format="json")
    assert response.status_code == 400
    issue = response.json()["error"]["issues"][0]
    assert issue["line"] == 12 and "補給物質" in issue["message"]
    assert any("補給物資" in suggestion for suggestion in issue["suggestions"])
    assert GameList.objects.count() == 0


def test_import_json_document_object(catalogs, owner_client):
    response = owner_client.post(IMPORT, {"json": hagmi_doc(name="From JSON")}, format="json")
    assert response.status_code == 201 and response.json()["name"] == "From JSON"


def test_import_json_syntax_error_gives_the_line(catalogs, owner_client):
    raw = '{\n  "schema": "hangar.list/1",\n  "system": "hagmi",\n  "sections": {,}\n}'
    response = owner_client.post(IMPORT, {"json": raw}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["issues"][0]["line"] == 4
    assert GameList.objects.count() == 0


def test_import_txt_file_upload(catalogs, owner_client):
    upload = SimpleUploadedFile("deck.txt", TEXT.encode("utf-8"), content_type="text/plain")
    response = owner_client.post(IMPORT, {"file": upload, "visibility": "unlisted"}, format="multipart")
    assert response.status_code == 201, response.content
    assert response.json()["name"] == "Text deck" and response.json()["visibility"] == "unlisted"


def test_import_json_file_upload_with_bom(catalogs, owner_client):
    raw = "\ufeff" + json.dumps(hagmi_doc(name="File JSON"), ensure_ascii=False)
    upload = SimpleUploadedFile("deck.json", raw.encode("utf-8"), content_type="application/json")
    response = owner_client.post(IMPORT, {"file": upload}, format="multipart")
    assert response.status_code == 201, response.content
    assert response.json()["name"] == "File JSON"


def test_import_bad_line_in_a_file(catalogs, owner_client):
    text = TEXT.replace("2x Test Frame 2", "two Test Frame 2")
    upload = SimpleUploadedFile("deck.txt", text.encode("utf-8"))
    response = owner_client.post(IMPORT, {"file": upload}, format="multipart")
    assert response.status_code == 400
    assert response.json()["error"]["issues"][0]["line"] == 8
    assert GameList.objects.count() == 0


@pytest.mark.parametrize("filename,content,word", [
    ("deck.pdf", b"%PDF", ".txt"),
    ("deck.txt", b"\xff\xfe\x00garbage", "UTF-8"),
])
def test_import_unsupported_files_are_400(catalogs, owner_client, filename, content, word):
    response = owner_client.post(IMPORT, {"file": SimpleUploadedFile(filename, content)}, format="multipart")
    assert response.status_code == 400 and word in response.json()["error"]["message"]
    assert GameList.objects.count() == 0


def test_a_10_mb_upload_is_413(catalogs, owner_client):
    upload = SimpleUploadedFile("deck.txt", b"# " + b"x" * (10 * 1024 * 1024))
    response = owner_client.post(IMPORT, {"file": upload}, format="multipart")
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "request.too_large"
    assert GameList.objects.count() == 0


@pytest.mark.parametrize("payload", [{}, {"text": "x", "json": {}}])
def test_import_needs_exactly_one_source(catalogs, owner_client, payload):
    response = owner_client.post(IMPORT, payload, format="json")
    assert response.status_code == 400 and "exactly one" in response.json()["error"]["message"]


def test_import_needs_an_account(catalogs, anon_client):
    response = anon_client.post(IMPORT, {"text": TEXT}, format="json")
    assert response.status_code == 403
    assert GameList.objects.count() == 0


def test_a_failed_import_creates_nothing_even_when_the_document_is_bad_late(catalogs, owner_client):
    """Atomic: the list row, entries and revision are written together or not at all."""
    text = TEXT + "\n[秘策]\n1 どこにもないカード\n"
    response = owner_client.post(IMPORT, {"text": text}, format="json")
    assert response.status_code == 400
    assert GameList.objects.count() == 0
