"""Text that cannot be stored (docs/security.md, "Text that cannot be stored"), and the
text importer's quadratic search for options (docs/benchmarks.md, "Text import with many braces").

Lone surrogates. A JSON "\\udfff" escape decodes to a lone surrogate, which no database, template or UTF-8 answer
can hold.
In a list's card code, name, option key or value, or section name it was a 500 on every endpoint that reads a list,
and on SQLite the list was committed anyway (its options are a JSON column, stored escaped), so from then on all its
pages answered 500. Now: 400 naming the path, nothing written; the editor and import pages show the problem; a
data migration repairs what is stored; `import_package` refuses such a package naming card and field.

The search for options. `_split_options` tried json.loads at every "{" of a line (13.8 s for 2 MB of
`1 x {"{{{{…}` lines). Now
one decode per line at most: the work is asserted by counting decodes, never by timing.
Runs on SQLite and on PostgreSQL + Redis (CI phase 2).
"""
from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import types
from pathlib import Path
from typing import Any, Callable

import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, transaction

from builder import services
from builder.listio import ListFormatError, parse_list_json, parse_list_text
from builder.listio import text as text_reader
from builder.models import GameList, ListEntry, ListRevision, SimulationRun
from cards.models import Card, DataPackage
from cards.services import PackageError, package_import
from cards.storable_text import holds_surrogate
from rules_engine.core.catalog import Catalog
from tests.builder.conftest import hagmi_doc, hagmi_package
from tests.security.conftest import World

# services: what a lone surrogate does to storage is the database's (PostgreSQL refuses it, SQLite keeps it)
pytestmark = [pytest.mark.services, pytest.mark.django_db]
ROOT = Path(__file__).resolve().parents[2]
LOW, HIGH = "\udfff", "\ud800"  # a lone low and a lone high surrogate


# --- lone surrogates: helpers -----------------------------------------------------------------------------------------


def writes() -> tuple:
    """Every row a refused request must leave alone (and each list's version)."""
    return (GameList.objects.count(), ListEntry.objects.count(), ListRevision.objects.count(),
            SimulationRun.objects.count(), sorted(GameList.objects.values_list("pk", "version")))


def body(data: Any) -> str:
    """A JSON body as a client sends it: json.dumps writes a lone surrogate as its "\\udfff" escape."""
    return json.dumps(data)


def refused(response, status: int = 400) -> dict[str, Any]:
    """The answer is the API's JSON error, sendable (UTF-8) and free of lone surrogates; returns `error`."""
    assert response.status_code == status, response.content[:400]
    assert response["Content-Type"].startswith("application/json")
    answer = json.loads(response.content.decode("utf-8"))
    assert not holds_surrogate(answer)
    assert set(answer) == {"error"} and {"code", "message"} <= set(answer["error"])
    return answer["error"]


def _post(client, path: str, data: Any):
    return client.post(path, body(data), content_type="application/json")


def _update(world: World, client, doc):
    game_list = world.list("private")
    return client.patch(f"/api/lists/{game_list.slug}/", body({"document": doc, "version": game_list.version}),
                        content_type="application/json")


def _upload(client, doc):
    upload = SimpleUploadedFile("deck.json", body(doc).encode("ascii"), content_type="application/json")
    return client.post("/api/lists/import/", {"file": upload}, format="multipart")


# Every endpoint that reads a posted hangar.list/1 document: (world, client, document) -> response.
ENDPOINTS: dict[str, Callable] = {
    "validate": lambda world, client, doc: _post(client, "/api/validate/", doc),
    "create": lambda world, client, doc: _post(client, "/api/lists/", {"document": doc}),
    "update": _update,
    "import-json": lambda world, client, doc: _post(client, "/api/lists/import/", {"json": doc}),
    "import-json-string": lambda world, client, doc: _post(client, "/api/lists/import/", {"json": json.dumps(doc)}),
    "import-file": lambda world, client, doc: _upload(client, doc),
    "simulate": lambda world, client, doc: _post(client, "/api/simulations/",
                                                 {"document": doc, "opponent": "goldfish", "games": 2, "seed": 1}),
    "odds": lambda world, client, doc: _post(client, "/api/odds/",
                                             {"document": doc, "deck": "weapons", "groups": [{"cards": ["HT-001"]}]}),
}


def check_refused_everywhere(world: World, endpoint: str, doc: dict[str, Any], path: str) -> None:
    client = world.api_client("anon" if endpoint in ("validate", "odds") else "owner")
    world.list("private")  # the list `update` edits, made before counting
    before = writes()
    error = refused(ENDPOINTS[endpoint](world, client, doc))
    assert error["code"] == "list.invalid"
    assert path in [issue["path"] for issue in error["issues"]], error
    assert "lone surrogate" in error["message"]
    assert writes() == before, "a refused list wrote something"


def weapon(doc: dict[str, Any]) -> dict[str, Any]:
    return doc["sections"]["weapons"][0]


# --- lone surrogates: the API -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("endpoint", list(ENDPOINTS))
def test_lone_surrogate_in_card_code_is_400_naming_the_path(world, endpoint):
    doc = hagmi_doc()
    weapon(doc)["card"] = f"HT-{LOW}01"
    check_refused_everywhere(world, endpoint, doc, "sections.weapons[0].card")


@pytest.mark.parametrize("endpoint", list(ENDPOINTS))
def test_lone_surrogate_in_list_name_is_400_naming_the_path(world, endpoint):
    check_refused_everywhere(world, endpoint, hagmi_doc(name=f"Blue {HIGH} rush"), "name")


@pytest.mark.parametrize("endpoint", list(ENDPOINTS))
def test_lone_surrogate_in_option_key_is_400_naming_the_path(world, endpoint):
    doc = hagmi_doc()
    weapon(doc)["options"] = {LOW: 1}
    check_refused_everywhere(world, endpoint, doc, "sections.weapons[0].options.\\udfff")


@pytest.mark.parametrize("endpoint", list(ENDPOINTS))
def test_lone_surrogate_in_option_value_is_400_naming_the_path(world, endpoint):
    doc = hagmi_doc()
    weapon(doc)["options"] = {"cortex": "WC-030", "weapons": ["WC-040", f"W{HIGH}"]}
    check_refused_everywhere(world, endpoint, doc, "sections.weapons[0].options.weapons[1]")


@pytest.mark.parametrize("endpoint", list(ENDPOINTS))
def test_lone_surrogate_in_section_name_is_400_naming_the_path(world, endpoint):
    doc = hagmi_doc()
    doc["sections"][f"weapons{LOW}"] = []
    check_refused_everywhere(world, endpoint, doc, "sections.weapons\\udfff")


TEXT_LISTS = {  # a text list whose options hold a "\udfff" escape: the options are JSON, decoded by the reader
    "json-body": lambda client, text: _post(client, "/api/lists/import/", {"text": text}),
    "txt-file": lambda client, text: client.post(
        "/api/lists/import/", {"file": SimpleUploadedFile("deck.txt", text.encode("utf-8"))}, format="multipart"),
}


@pytest.mark.parametrize("how", list(TEXT_LISTS))
def test_lone_surrogate_in_text_list_options_is_400_with_its_line(world, how):
    text = 'System: hagmi\n[兵器]\n2 (HT-001) {"cortex": "\\udfff"}\n'
    before = writes()
    error = refused(TEXT_LISTS[how](world.api_client("owner"), text))
    assert error["code"] == "list.invalid" and [issue["line"] for issue in error["issues"]] == [3]
    assert error["message"].startswith("line 3: the options") and "lone surrogate" in error["message"]
    assert writes() == before


FIELDS = {  # other text of a request that reaches a list: refused by the serializer, the value escaped
    "import-text": ("/api/lists/import/", {"text": f"System: hagmi\n[兵器]\n1 (HT-{LOW})\n"}, "text"),
    "import-name": ("/api/lists/import/", {"text": "System: hagmi\n[兵器]\n1 (HT-001)\n", "name": LOW}, "name"),
    "import-system": ("/api/lists/import/", {"text": "[兵器]\n1 (HT-001)\n", "system": LOW}, "system"),
    "import-visibility": ("/api/lists/import/", {"text": "System: hagmi\n[兵器]\n1 (HT-001)\n", "visibility": HIGH},
                          "visibility"),
    "create-notes": ("/api/lists/", {"document": hagmi_doc(), "notes": f"note {LOW}"}, "notes"),
    "create-visibility": ("/api/lists/", {"document": hagmi_doc(), "visibility": LOW}, "visibility"),
    "simulate-opponent": ("/api/simulations/", {"document": hagmi_doc(), "opponent": LOW, "games": 2, "seed": 1},
                          "opponent"),
}


@pytest.mark.parametrize("field", list(FIELDS))
def test_lone_surrogate_in_another_field_is_400_naming_the_field(world, field):
    """These were 500s for the choice fields (visibility, system: DRF's "is not a valid choice" message quoted the
    value); text fields are refused by DRF's own surrogate check. Both name the field."""
    path, data, name = FIELDS[field]
    before = writes()
    error = refused(_post(world.api_client("owner"), path, data))
    assert error["code"] == "invalid" and list(error["details"]) == [name], error
    assert error["message"].startswith(f"{name}: ")
    assert writes() == before


def test_services_refuse_lone_surrogates_from_python_callers(world):
    """What the serializers refuse, the services refuse too (a management command, a task, the web pages)."""
    owner = world.users["owner"]
    before = writes()
    with pytest.raises(services.ListInputError, match="notes: contains a lone surrogate") as caught:
        services.list_create(owner=owner, document=hagmi_doc(), notes=f"a{LOW}")
    assert caught.value.details == {"path": "notes"}
    with pytest.raises(ListFormatError) as caught:
        services.list_import_text(owner=owner, text=f"System: hagmi\n[兵器]\n1 (HT-{LOW})\n")
    assert [issue.line for issue in caught.value.issues] == [3]
    with pytest.raises(ListFormatError) as caught:
        services.list_import_text(owner=owner, text="[兵器]\n1 (HT-001)\n", system=LOW)
    assert not holds_surrogate(caught.value.to_dict()) and "\\udfff" in caught.value.message
    assert writes() == before


def test_text_reader_names_the_line_and_character_of_a_lone_surrogate():
    catalog = Catalog.build("hagmi", [], [])
    with pytest.raises(ListFormatError) as caught:
        parse_list_text(f"System: hagmi\nName: ok\n[兵器]\n  1 (HT-001)\n2 (HT{LOW}-002)\n", lambda system: catalog)
    assert [issue.to_dict() for issue in caught.value.issues] == [{
        "message": "line 5: the line contains a lone surrogate (U+DFFF at character 6), which is not a character "
                   "and cannot be stored", "line": 5, "path": None, "suggestions": []}]


def test_json_reader_escapes_a_lone_surrogate_in_the_path_it_names():
    doc = hagmi_doc()
    doc["sections"]["weapons"][1]["options"] = {f"k{HIGH}": {"deep": [1, f"x{LOW}"]}}
    with pytest.raises(ListFormatError) as caught:
        parse_list_json(json.dumps(doc))
    assert [issue.path for issue in caught.value.issues] == [
        "sections.weapons[1].options.k\\ud800", "sections.weapons[1].options.k\\ud800.deep[1]"]
    assert caught.value.issues[0].message == ("sections.weapons[1].options.k\\ud800: the key contains a lone "
                                              "surrogate (U+D800 at character 2), which is not a character and "
                                              "cannot be stored")
    json.dumps(caught.value.to_dict(), ensure_ascii=False).encode("utf-8")


# --- lone surrogates: a list stored before the fix --------------------------------------------------------------------


def _store_the_old_bug(world: World) -> GameList:
    """What the old code committed on SQLite: a public list whose entry options and revision hold lone surrogates
    (a JSON column stores them escaped), its cached validation too."""
    game_list = world.new_list("public")
    options = {LOW: f"cortex {HIGH}", "weapons": [f"WC{LOW}"]}
    entry = game_list.entries.order_by("position").first()
    ListEntry.objects.filter(pk=entry.pk).update(options=options)
    revision = game_list.revisions.get()
    document = revision.document
    document["sections"][entry.section][0]["options"] = options
    ListRevision.objects.filter(pk=revision.pk).update(document=document)
    GameList.objects.filter(pk=game_list.pk).update(validation={**game_list.validation, "note": LOW})
    return game_list


def _pages(game_list: GameList) -> list[str]:
    slug = game_list.slug
    return [f"/api/lists/{slug}/", f"/api/lists/{slug}/export/?as=json", f"/api/lists/{slug}/export/?as=text",
            f"/api/lists/{slug}/revisions/", f"/api/lists/{slug}/revisions/1/", f"/lists/{slug}/",
            f"/lists/{slug}/sheet/", f"/lists/{slug}/history/"]


def test_a_list_stored_with_lone_surrogates_is_repaired_by_the_data_migration(world):
    """SQLite: the rows the old code committed made every page of the list a 500, for anonymous visitors too; the
    migration builder/0004 replaces each lone surrogate with U+FFFD and the pages answer again. PostgreSQL: such
    a row cannot even be written (jsonb refuses the escape), so the migration has nothing to do there."""
    if connection.vendor == "postgresql":
        game_list = world.new_list("public")
        with pytest.raises(DatabaseError), transaction.atomic():
            ListEntry.objects.filter(game_list=game_list).update(options={LOW: 1})
        assert not ListEntry.objects.filter(game_list=game_list, options__isnull=False).exists()
        return
    game_list = _store_the_old_bug(world)
    anon, owner = world.page_client("anon"), world.page_client("owner")
    anon.raise_request_exception = False
    assert anon.get(f"/api/lists/{game_list.slug}/").status_code == 500  # the bug, as stored

    migration = importlib.import_module("builder.migrations.0004_repair_lone_surrogates")
    migration.repair_lone_surrogates(apps, types.SimpleNamespace(connection=connection))

    entry = game_list.entries.get(options__isnull=False)
    assert entry.options == {"\ufffd": "cortex \ufffd", "weapons": ["WC\ufffd"]}
    assert not holds_surrogate(game_list.revisions.get().document)
    assert not holds_surrogate(GameList.objects.get(pk=game_list.pk).validation)
    for client in (anon, owner):
        for page in _pages(game_list):
            assert client.get(page).status_code == 200, page
    assert owner.get(f"/lists/{game_list.slug}/edit/").status_code == 200
    before = writes()
    migration.repair_lone_surrogates(apps, types.SimpleNamespace(connection=connection))  # again: nothing to do
    assert writes() == before


# --- lone surrogates: the web pages -----------------------------------------------------------------------------------


def test_editor_post_with_a_lone_surrogate_is_a_form_error_not_a_500(world):
    game_list = world.new_list("private")
    client = world.page_client("owner")
    doc = hagmi_doc()
    weapon(doc)["options"] = {"cortex": f"W{LOW}"}
    before = writes()
    response = client.post(f"/lists/{game_list.slug}/edit/", {
        "document": body(doc), "version": game_list.version, "name": "x", "format": "tactics-v4",
        "visibility": "private", "notes": "", "op": "save"})
    assert response.status_code == 400
    page = response.content.decode("utf-8")
    assert "sections.weapons[0].options.cortex: contains a lone surrogate" in page
    assert writes() == before


IMPORT_PAGE = {
    "paste": ({"text": 'System: hagmi\n[兵器]\n2 (HT-001) {"cortex": "\\ud800"}\n'},
              '<span class="line-no">line 3</span> the options'),
    "json-file": ({"file": SimpleUploadedFile("deck.json", body(hagmi_doc(name=LOW)).encode("ascii"))},
                  "name: contains a lone surrogate"),
    "txt-file": ({"file": SimpleUploadedFile("deck.txt", 'System: hagmi\n[兵器]\n1 (HT-001) {"\\udfff": 1}\n'
                                             .encode("utf-8"))}, '<span class="line-no">line 3</span> the options'),
    "txt-file-bytes": ({"file": SimpleUploadedFile("deck.txt", b"System: hagmi\n[\xe5\x85\xb5\xe5\x99\xa8]\n"
                                                   b"1 HT-\xed\xbf\xbf\n")}, "is not UTF-8 text"),
}


@pytest.mark.parametrize("how", list(IMPORT_PAGE))
def test_import_page_with_a_lone_surrogate_shows_the_problem(world, how):
    data, expected = IMPORT_PAGE[how]
    data = {**data, "visibility": "private"}
    if "file" in data:
        data["file"].seek(0)
    before = writes()
    response = world.page_client("owner").post("/lists/import/", data)
    assert response.status_code == 400
    assert expected in response.content.decode("utf-8")
    assert writes() == before


# --- lone surrogates: import_package ----------------------------------------------------------------------------------


def _package_with(name: str) -> dict[str, Any]:
    package = hagmi_package()
    package["slug"] = "surrogates"
    for card in package["cards"]:
        card["code"] = "ZZ" + card["code"]
    package["formats"] = []
    package["cards"][0]["name"] = name
    return package


def test_package_with_a_lone_surrogate_is_refused_naming_card_and_field(db):
    before = (DataPackage.objects.count(), Card.objects.count())
    with pytest.raises(PackageError) as caught:
        package_import(_package_with(HIGH), source="cards.json")
    assert caught.value.errors == ['card ZZHT-001, field "name": text contains a lone surrogate (U+D800 at '
                                   'character 1), which is not a character and cannot be stored']
    package = _package_with("ok")
    package["cards"][1]["code"] = f"ZZ{LOW}"
    package["cards"][2][f"note{LOW}"] = 1
    with pytest.raises(PackageError) as caught:
        package_import(package)
    assert caught.value.errors == [
        'card ZZ\\udfff, field "code": text contains a lone surrogate (U+DFFF at character 3), which is not a '
        'character and cannot be stored',
        "card ZZHT-003: a field name contains a lone surrogate (U+DFFF at character 5), which is not a character "
        "and cannot be stored"]
    str(caught.value).encode("utf-8")
    assert (DataPackage.objects.count(), Card.objects.count()) == before


def test_import_package_command_refuses_a_card_named_a_lone_surrogate(tmp_path):
    """`python manage.py import_package FILE` with `"name": "\\ud800"`: it died with a UnicodeEncodeError
    traceback; now the usual message and exit status 1."""
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(_package_with(HIGH)), encoding="ascii")  # the "\ud800" escape, as in the report
    assert '"name": "\\ud800"' in path.read_text()
    with pytest.raises(CommandError, match='card ZZHT-001, field "name": text contains a lone surrogate'):
        call_command("import_package", str(path))

    env = {**os.environ, "HANGAR_INSECURE_DEV_KEY": "1"}
    result = subprocess.run([sys.executable, str(ROOT / "manage.py"), "import_package", str(path)],
                            capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert result.returncode == 1
    assert 'card ZZHT-001, field "name": text contains a lone surrogate (U+D800' in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


# --- the text importer's search for options -------------------------------------------------------------


class CountingJSON:
    """Stands in for the `json` module of builder.listio.text: counts decodes and the characters decoded."""

    def __init__(self) -> None:
        self.decodes = 0
        self.characters = 0
        self.dumps = json.dumps

    def loads(self, text: str, **options: Any) -> Any:
        self.decodes += 1
        self.characters += len(text)
        return json.loads(text, **options)


def _read_counting(monkeypatch, text: str) -> CountingJSON:
    counter = CountingJSON()
    monkeypatch.setattr(text_reader, "json", counter)
    catalog = Catalog.build("hagmi", [{"code": "HS-001", "name": "補給物資", "category": "tactic", "frame": "blue"}],
                            [])
    try:
        parse_list_text(text, lambda system: catalog)
    except ListFormatError:
        pass
    return counter


def _brace_lines(lines: int, braces: int) -> str:
    return "System: hagmi\n[兵器]\n" + "\n".join([f'1 x {{"{"{" * braces}}}'] * lines) + "\n"


def test_text_import_decodes_json_at_most_once_per_line(monkeypatch):
    """A 2 000-brace line cost 2 000 json.loads of ever shorter tails (quadratic); now at most one decode per
    line, and never more characters than the line has."""
    text = _brace_lines(lines=50, braces=2000)
    counter = _read_counting(monkeypatch, text)
    assert counter.decodes <= 50
    assert counter.characters <= len(text)


def test_text_import_work_grows_linearly_with_the_braces(monkeypatch):
    small = _read_counting(monkeypatch, _brace_lines(lines=20, braces=500))
    large = _read_counting(monkeypatch, _brace_lines(lines=40, braces=1000))
    assert large.decodes <= 2 * small.decodes
    assert large.characters <= 4 * small.characters + 4 * 40  # twice the lines, each twice as long


def test_options_after_a_name_full_of_braces_are_still_found(monkeypatch):
    """The same results as before for valid input: the options object is the one suffix that is JSON."""
    catalog = Catalog.build("hagmi", [{"code": "HS-001", "name": "{{補給}", "category": "tactic", "frame": "blue"}], [])
    text = 'System: hagmi\n[兵器]\n1 {{補給} {"a": "}{\\"", "b": [{"c": {}}]}\n2 {{補給}\n'
    doc = parse_list_text(text, lambda system: catalog)
    assert doc["sections"]["weapons"] == [{"card": "HS-001", "qty": 1, "options": {"a": '}{"', "b": [{"c": {}}]}},
                                          {"card": "HS-001", "qty": 2}]
