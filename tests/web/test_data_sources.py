"""Data sources that update (docs/data-packages.md "Data sources"; builder/web/datasources.py, cards.datasources):
staff register a BattleScribe data index or release archive on the data import page and press "check for updates";
the check runs as a task (here run at once in the test process, as a worker would), fetches from a local HTTP
server serving invented fixture data, shows which files have a new revision and what the cards would become, and
imports the update as the package's next version, so that lists say which of their cards changed. Every failure is
a clear error on the page, in English and Japanese, and changes nothing."""
from __future__ import annotations

import re
import socket

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from builder import selectors, services as list_services
from cards import datasources
from cards.models import Card, DataPackage, DataSource, PackageVersion
from cards.tasks import data_source_check
from tests.support.source_server import SourceServer
from tests.web.conftest import logged_in

pytestmark = pytest.mark.django_db

SLUG = "bs-warcaster-hangar-test"
DEF_4 = '<characteristic name="DEF" typeId="ct-def">4</characteristic>'
DEF_5 = '<characteristic name="DEF" typeId="ct-def">5</characteristic>'


@pytest.fixture
def server(tmp_path, settings):
    settings.HANGAR_DATA_SOURCE_ALLOW_HTTP_HOSTS = ["127.0.0.1"]
    settings.HANGAR_DATA_SOURCE_TIMEOUT = 2
    served = SourceServer(tmp_path / "served")
    yield served
    served.stop()


@pytest.fixture
def worker(monkeypatch):
    """The check's task runs when queued, in this process, as a worker would run it; `queued` lists the checks."""
    queued: list[tuple] = []

    def run(args, **options):
        queued.append(args)
        data_source_check.run(*args)

    monkeypatch.setattr(data_source_check, "apply_async", run)
    return queued


@pytest.fixture
def staff_client(staff) -> Client:
    return logged_in(staff)


def register(client: Client, name: str, url: str, kind: str = "index", lang: str = "en"):
    return client.post("/data/sources/", {"source-name": name, "source-url": url, "source-kind": kind},
                       HTTP_ACCEPT_LANGUAGE=lang)


def check(client: Client, source: DataSource, lang: str = "en") -> str:
    response = client.post(f"/data/sources/{source.pk}/check/", HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 302 and response["Location"] == f"/data/sources/{source.pk}/"
    return client.get(response["Location"], HTTP_ACCEPT_LANGUAGE=lang).content.decode()


def registered(client: Client, server: SourceServer, path: str = "data/index.xml", kind: str = "index",
               name: str = "Hangar test data") -> DataSource:
    response = register(client, name, server.url(path), kind)
    assert response.status_code == 302, response.content.decode()
    return DataSource.objects.get(name=name)


def import_update(client: Client, source: DataSource, page: str, lang: str = "en"):
    sha256 = re.search(r'name="sha256" value="([0-9a-f]{64})"', page).group(1)
    return client.post(f"/data/sources/{source.pk}/import/", {"sha256": sha256}, HTTP_ACCEPT_LANGUAGE=lang)


def counts() -> tuple[int, int, int]:
    return DataPackage.objects.count(), Card.objects.count(), PackageVersion.objects.count()


# --- register, check, import -------------------------------------------------------------------------------------


def test_a_registered_index_is_checked_imported_then_a_new_revision_becomes_the_next_version(
        staff_client, staff, server, worker):
    """The whole life of a data index: registered (nothing fetched), checked (every file is new: a new package),
    imported (version 1); checked again (no new revision: only the index is fetched); a catalogue's new revision
    (the Star League Captain's DEF 4 -> 5) is found, previewed, imported as version 2, and a list of that card says
    it changed."""
    page = staff_client.get("/data/import/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Data sources that update" in page and "No data source is registered yet." in page
    source = registered(staff_client, server)
    assert server.requests == [] and source.status == "new"  # registering fetches nothing
    detail = staff_client.get(f"/data/sources/{source.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "never checked" in detail and "Check for updates" in detail

    page = check(staff_client, source)
    source.refresh_from_db()
    assert source.status == "update", (source.error_code, source.error)
    assert server.requests == ["/data/index.xml", "/data/hangar-test.gst", "/data/iron-star-alliance.cat",
                               "/data/star-league.cat"]
    assert "update found" in page and "A new package: " in page
    assert page.count('class="change-new"') == 3
    assert DataPackage.objects.filter(slug=SLUG).count() == 0  # a check imports nothing
    done = import_update(staff_client, source, page)
    assert done.status_code == 302 and done["Location"] == f"/catalog/warcaster/packages/{SLUG}/"
    landed = staff_client.get(done["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"Imported: the new package {SLUG}, version r3-5-2" in landed
    assert PackageVersion.objects.filter(slug=SLUG).count() == 1
    assert PackageVersion.objects.get(slug=SLUG).published_by == staff
    source.refresh_from_db()
    assert source.status == "current" and source.package_slug == SLUG
    assert source.revisions["cat-sl-01"]["revision"] == 2

    server.requests.clear()
    page = check(staff_client, source)
    assert server.requests == ["/data/index.xml"]  # no new revision: nothing else fetched
    assert "no update" in page and "No update: the package loaded now is this source's data." in page

    document = {"schema": "hangar.list/1", "system": "warcaster", "format": f"{SLUG}-skirmish", "name": "Captain",
                "sections": {"force": [{"card": "BS-SL-HERO", "qty": 1}], "rack": []}}
    game_list = list_services.list_create(owner=staff, document=document, visibility="private")
    server.new_revision("star-league.cat", DEF_4, DEF_5)
    server.requests.clear()
    page = check(staff_client, source)
    assert "/data/star-league.cat" in server.requests
    rows = re.findall(r'<tr class="change-(\w+)">\s*<td[^>]*>([^<]+)', page)
    assert [(change, name.strip()) for change, name in rows] == [
        ("same", "Warcaster Hangar Test"), ("same", "Iron Star Alliance"), ("revised", "Star League")]
    assert "new revision" in page
    assert "Against the package loaded now (version r3-5-2): cards added 0, changed 1, removed 0." in page
    assert re.search(r"Star League Captain</a> <span class=\"code\">BS-SL-HERO</span>: Stats", page)
    assert Card.objects.get(code="BS-SL-HERO").data["stats"]["def"] == 4  # still: nothing imported yet
    done = import_update(staff_client, source, page)
    landed = staff_client.get(done["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"Imported: the package {SLUG} is now version r3-5-3" in landed
    assert Card.objects.get(code="BS-SL-HERO").data["stats"]["def"] == 5
    assert list(PackageVersion.objects.filter(slug=SLUG).values_list("number", flat=True)) == [2, 1]
    assert selectors.list_card_changes(game_list)["changed"] == [{"card": "BS-SL-HERO", "fields": ["stats"]}]
    list_page = staff_client.get(f"/lists/{game_list.slug}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "1 card changed in the catalog since this list was saved" in list_page
    source.refresh_from_db()
    assert source.revisions["cat-sl-01"]["revision"] == 3 and source.pending is None


def test_a_bsi_index_and_files_at_the_repository_url_are_read(staff_client, server, worker):
    """A .bsi is a zip holding index.xml; a file not beside the index is fetched from the index's repository URL."""
    server.write_index(repositories=[server.url("data/")])
    (server.root / "elsewhere").mkdir()
    (server.root / "elsewhere" / "index.bsi").write_bytes((server.root / "data" / "index.bsi").read_bytes())
    source = registered(staff_client, server, "elsewhere/index.bsi")
    page = check(staff_client, source)
    assert "update found" in page, page
    assert "/elsewhere/hangar-test.gst" in server.requests and "/data/hangar-test.gst" in server.requests


def test_a_release_archive_is_checked_and_imported(staff_client, server, worker):
    server.release_zip()
    source = registered(staff_client, server, "data/release.zip", kind="archive")
    page = check(staff_client, source)
    assert "update found" in page and "star-league.cat" in page
    assert import_update(staff_client, source, page).status_code == 302
    assert DataPackage.objects.filter(slug=SLUG).exists()
    page = check(staff_client, source)
    assert "no update" in page


def test_the_check_button_only_queues_the_check_and_the_page_reloads_until_the_result(staff_client, server,
                                                                                       monkeypatch):
    """No page waits on another site: pressing the button queues a task and answers at once, "checking…", with a
    page that reloads itself; the fetch happens in the task."""
    queued: list[tuple] = []
    monkeypatch.setattr(data_source_check, "apply_async", lambda args, **options: queued.append(args))
    source = registered(staff_client, server)
    page = check(staff_client, source)
    assert len(queued) == 1 and server.requests == []
    assert "checking…" in page and '<meta http-equiv="refresh" content="2">' in page
    assert "このページは" in check(staff_client, source, lang="ja")
    assert len(queued) == 2
    assert datasources.source_check_run(*queued[0]) == ""  # the replaced check's result is dropped
    assert datasources.source_check_run(*queued[1]) == "update"
    page = staff_client.get(f"/data/sources/{source.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "update found" in page and 'http-equiv="refresh"' not in page


# --- every failure: a clear error, nothing imported --------------------------------------------------------------


def failed_check(client: Client, source: DataSource, lang: str = "en") -> str:
    before = counts()
    page = check(client, source, lang)
    source.refresh_from_db()
    assert source.status == "failed" and source.pending is None, source.error
    assert counts() == before
    return page


def test_only_https_urls_are_registered(staff_client, server, settings):
    before = DataSource.objects.count()
    for url, words in [("http://example.com/index.bsi", "Only https URLs are fetched (this one is http)"),
                       ("ftp://example.com/index.bsi", "Only https URLs are fetched (this one is ftp)"),
                       ("index.bsi", "Only https URLs are fetched"),
                       ("https://user:secret@example.com/index.bsi", "This is not a URL Hangar can fetch")]:
        response = register(staff_client, "bad", url)
        assert response.status_code == 400 and words in response.content.decode(), url
    japanese = register(staff_client, "bad", "http://example.com/index.bsi", lang="ja").content.decode()
    assert "https の URL だけを取得します" in japanese
    assert DataSource.objects.count() == before
    registered(staff_client, server, name="first")
    assert "A data source of this name is registered already." in register(
        staff_client, "first", server.url("data/index.xml")).content.decode()


def test_a_redirect_to_another_scheme_and_a_redirect_loop_are_refused(staff_client, server, worker, settings):
    page = failed_check(staff_client, registered(staff_client, server, "to-ftp", name="ftp"))
    assert "Only https URLs are fetched (this one is ftp): ftp://127.0.0.1/data/index.xml" in page
    page = failed_check(staff_client, registered(staff_client, server, "loop", name="loop"))
    assert "More than 5 redirects" in page
    ok = registered(staff_client, server, "moved/index.xml", name="moved")
    assert "update found" in check(staff_client, ok)  # a bounded redirect to http on an allowed host is followed


def test_an_unknown_host_a_refused_connection_and_a_private_address_are_named(staff_client, server, worker,
                                                                             monkeypatch, settings):
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    source = registered(staff_client, server, name="refused")
    DataSource.objects.filter(pk=source.pk).update(url=f"http://127.0.0.1:{port}/index.xml")
    assert "127.0.0.1 refused the connection" in failed_check(staff_client, source)
    private = registered(staff_client, server, name="private")
    DataSource.objects.filter(pk=private.pk).update(url=f"https://localhost:{server.port}/data/index.xml")
    page = failed_check(staff_client, private)
    assert "localhost is a local or private address, which Hangar does not fetch" in page

    def no_such_host(*args, **kwargs):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_such_host)
    unknown = registered(staff_client, server, name="unknown")
    DataSource.objects.filter(pk=unknown.pk).update(url="https://data.example.invalid/index.bsi")
    page = failed_check(staff_client, unknown)
    assert "The host name data.example.invalid cannot be found (DNS)" in page
    assert "ホスト名 data.example.invalid が見つかりません" in check(staff_client, unknown, lang="ja")


def test_a_slow_answer_times_out_and_an_http_error_is_named(staff_client, server, worker, settings):
    settings.HANGAR_DATA_SOURCE_TIMEOUT = 0.5
    server.slow_seconds = 2
    page = failed_check(staff_client, registered(staff_client, server, "slow", name="slow"))
    assert "No complete answer within 0.5 seconds" in page
    page = failed_check(staff_client, registered(staff_client, server, "broken", name="broken"))
    assert "The server answered HTTP 500" in page
    page = failed_check(staff_client, registered(staff_client, server, "data/nothing.xml", name="missing"))
    assert "The server answered HTTP 404" in page and "/data/nothing.xml" in page
    assert "サーバーの応答は HTTP 404 でした" in check(staff_client, DataSource.objects.get(name="missing"), "ja")


def test_a_file_larger_than_the_cap_is_refused(staff_client, server, worker, monkeypatch):
    monkeypatch.setattr(datasources, "MAX_FILE_BYTES", 200)
    page = failed_check(staff_client, registered(staff_client, server))
    assert "The file is larger than 200\xa0bytes, the limit of one download" in page
    source = DataSource.objects.get()
    assert source.error_code == "too_big" and source.error["limit"] == 200
    monkeypatch.setattr(datasources, "MAX_FILE_BYTES", 20 * 1024 * 1024)
    monkeypatch.setattr(datasources, "MAX_TOTAL_BYTES", 30_000)
    failed_check(staff_client, source)
    source.refresh_from_db()
    assert source.error_code == "total_too_big", source.error
    assert "together, the limit of one check" in staff_client.get(f"/data/sources/{source.pk}/").content.decode()


def test_not_a_zip_not_an_index_and_a_missing_file_are_named(staff_client, server, worker):
    page = failed_check(staff_client, registered(staff_client, server, "data/index.xml", "archive", "not zip"))
    assert "This is not a zip archive" in page
    page = failed_check(staff_client, registered(staff_client, server, "data/hangar-test.gst", name="gst"))
    assert "This is not a BattleScribe data index (.bsi or index.xml)" in page
    assert DataSource.objects.get(name="gst").error["path"] == "/gameSystem"
    (server.root / "data" / "junk.xml").write_text("<dataIndex", encoding="utf-8")
    failed_check(staff_client, registered(staff_client, server, "data/junk.xml", name="junk"))
    assert "not well-formed XML" in DataSource.objects.get(name="junk").error["message"]
    server.files["gone.cat"] = ("catalogue", "cat-gone", "Gone", 1)
    server.write_index()
    page = failed_check(staff_client, registered(staff_client, server, name="gone"))
    assert "The index names the file gone.cat, but it is not there (HTTP 404)" in page
    assert "cat-gone" in page


def test_data_the_importer_refuses_is_named_with_its_file_and_nothing_is_imported(staff_client, server, worker):
    server.edit("star-league.cat", "<selectionEntries>", "<selectionEntries><notAnElement/>")
    page = failed_check(staff_client, registered(staff_client, server))
    assert "The data fetched is not BattleScribe data Hangar can import." in page
    assert "star-league.cat" in page


def test_a_source_whose_data_makes_another_package_is_refused(staff_client, server, worker):
    source = registered(staff_client, server)
    import_update(staff_client, source, check(staff_client, source))
    server.new_revision("hangar-test.gst", 'name="Warcaster Hangar Test"', 'name="Another Game"')
    page = failed_check(staff_client, source)
    assert "The data now makes the package bs-another-game, not bs-warcaster-hangar-test" in page, page[page.find("source-error"):][:1500]


def test_a_queue_that_cannot_be_reached_fails_the_check_with_a_message(staff_client, server, monkeypatch):
    def broker_down(args, **options):
        raise ConnectionError("broker down")

    monkeypatch.setattr(data_source_check, "apply_async", broker_down)
    page = failed_check(staff_client, registered(staff_client, server))
    assert "The check could not be queued: the task queue cannot be reached." in page


def test_a_stale_or_changed_update_is_not_imported(staff_client, server, worker, tmp_path):
    source = registered(staff_client, server)
    page = check(staff_client, source)
    before = counts()
    wrong = staff_client.post(f"/data/sources/{source.pk}/import/", {"sha256": "0" * 64}, HTTP_ACCEPT_LANGUAGE="en")
    assert "This update is no longer waiting to be imported" in staff_client.get(wrong["Location"]).content.decode()
    odd = staff_client.post(f"/data/sources/{source.pk}/import/", {"sha256": "é" * 64}, HTTP_ACCEPT_LANGUAGE="en")
    assert odd.status_code == 302  # not a digest: refused as stale, never a server error
    assert counts() == before
    other = registered(staff_client, server, name="second")
    import_update(staff_client, other, check(staff_client, other))  # the package changes since the first check
    before = counts()
    refused = import_update(staff_client, source, page)
    assert "The package changed since this check" in staff_client.get(refused["Location"]).content.decode()
    assert counts() == before


# --- who may use it ----------------------------------------------------------------------------------------------


def test_visitors_sign_in_users_are_refused_and_csrf_is_checked(client, owner_client, staff, server, worker):
    source = DataSource.objects.create(name="s", url=server.url("data/index.xml"), kind="index")
    for method, path in [("post", "/data/sources/"), ("get", f"/data/sources/{source.pk}/"),
                         ("post", f"/data/sources/{source.pk}/check/"),
                         ("post", f"/data/sources/{source.pk}/import/")]:
        response = getattr(client, method)(path)
        assert response.status_code == 302 and response["Location"].startswith(f"/accounts/login/?next={path}")
        refused = getattr(owner_client, method)(path, HTTP_ACCEPT_LANGUAGE="en")
        assert refused.status_code == 403 and "Only staff can import catalogue data." in refused.content.decode()
    csrf = Client(enforce_csrf_checks=True)
    csrf.force_login(staff)
    assert csrf.post(f"/data/sources/{source.pk}/check/").status_code == 403
    assert csrf.post("/data/sources/", {"source-name": "x", "source-url": "https://example.com/i.bsi",
                                        "source-kind": "index"}).status_code == 403
    assert server.requests == [] and DataSource.objects.get().status == "new"
    assert staff.is_staff and logged_in(staff).get("/data/sources/999/").status_code == 404


def test_the_pages_speak_japanese(staff_client, server, worker):
    page = staff_client.get("/data/import/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "更新されるデータソース" in page and "データソースを登録" in page
    source = registered(staff_client, server)
    page = check(staff_client, source, lang="ja")
    assert "更新があります" in page and "次のバージョンとして取り込む" in page and "新しいパッケージ" in page
    page = staff_client.get("/data/import/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "更新を確認" in page and "更新があります" in page


# --- the operators' command ----------------------------------------------------------------------------------------


def test_the_check_data_source_command_checks_and_imports(server, capsys):
    DataSource.objects.create(name="hangar", url=server.url("data/index.xml"), kind="index")
    call_command("check_data_source", "hangar")
    out = capsys.readouterr().out
    assert "update for package bs-warcaster-hangar-test version r3-5-2" in out and "--import" in out
    assert not DataPackage.objects.filter(slug=SLUG).exists()
    call_command("check_data_source", "hangar", "--import")
    assert "loaded" in capsys.readouterr().out and DataPackage.objects.filter(slug=SLUG).exists()
    call_command("check_data_source", "hangar")
    assert "hangar: no update" in capsys.readouterr().out
    with pytest.raises(CommandError, match="no data source named 'nope'"):
        call_command("check_data_source", "nope")
    DataSource.objects.create(name="broken", url=server.url("broken"), kind="index")
    with pytest.raises(CommandError, match=r"check failed \(status\): HTTP 500"):
        call_command("check_data_source", "broken")


def test_an_index_naming_other_files_or_too_many_is_refused(staff_client, server, worker, monkeypatch):
    server.files["notes.txt"] = ("catalogue", "cat-notes", "Notes", 1)
    server.write_index()
    page = failed_check(staff_client, registered(staff_client, server, name="notes"))
    assert "The index names notes.txt, which is not a .gst, .gstz, .cat or .catz file" in page
    del server.files["notes.txt"]
    server.write_index()
    monkeypatch.setattr(datasources, "MAX_INDEX_ENTRIES", 2)
    page = failed_check(staff_client, registered(staff_client, server, name="many"))
    assert "The index names more than 2 files, the limit" in page


def test_a_check_past_its_time_limit_says_so_and_never_stays_checking(staff_client, server, monkeypatch, worker):
    from celery.exceptions import SoftTimeLimitExceeded

    def too_long(*args):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(datasources, "source_check_run", too_long)
    page = failed_check(staff_client, registered(staff_client, server))
    assert "The check took longer than its time limit and was stopped." in page
    assert 'http-equiv="refresh"' not in page
