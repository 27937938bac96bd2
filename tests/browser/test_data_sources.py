"""Data sources that update, in a browser (docs/data-packages.md "Data sources"): a staff member registers the
local test server's data index on the data import page, clicks "Check for updates" with the real pointer, sees
"checking…" while a worker (here a thread that runs the task a moment later) fetches it, sees the page reload itself
to the update found, imports it; then a catalogue's new revision is published, checked and imported as the package's
next version. At 1280 and 390 px, in English and Japanese: nothing covers a control and no page scrolls sideways
(HANGAR_SCREENSHOTS=/folder keeps a picture of each step)."""
from __future__ import annotations

import re
import threading
import time

import pytest
from django.db import connection
from playwright.sync_api import expect

from cards.models import Card, DataSource, PackageVersion
from cards.tasks import data_source_check
from tests.browser.conftest import WIDTH_AND_LANGUAGE, WIDTH_AND_LANGUAGE_IDS, log_in, shoot
from tests.browser.test_editor import assert_nothing_covers_a_control
from tests.support.source_server import SourceServer

pytestmark = pytest.mark.django_db(transaction=True)

SLUG = "bs-warcaster-hangar-test"
WORDS = {
    "en": {"register": "Register", "check": "Check for updates", "checking": "checking…",
           "update": "update found", "import": "Import as the package's next version", "none": "no update",
           "new": f"Imported: the new package {SLUG}, version r3-5-2",
           "next": f"Imported: the package {SLUG} is now version r3-5-3", "revised": "new revision",
           "http404": "The server answered HTTP 404", "check_it": "Check Warcaster test data for updates"},
    "ja": {"register": "登録", "check": "更新を確認", "checking": "確認中…", "update": "更新があります",
           "import": "パッケージの次のバージョンとして取り込む", "none": "更新なし",
           "new": f"取り込みました。新しいパッケージ {SLUG}、バージョン r3-5-2",
           "next": f"取り込みました。パッケージ {SLUG} はバージョン r3-5-3", "revised": "新しいリビジョン",
           "http404": "サーバーの応答は HTTP 404 でした", "check_it": "Warcaster test data の更新を確認"},
}


@pytest.fixture
def source_server(tmp_path, settings):
    settings.HANGAR_DATA_SOURCE_ALLOW_HTTP_HOSTS = ["127.0.0.1"]
    served = SourceServer(tmp_path / "served")
    yield served
    served.stop()


@pytest.fixture
def slow_worker(monkeypatch):
    """A queued check runs 1.5 s later in a thread, as a Celery worker would pick it up."""
    def run_later(args, **options):
        def work():
            time.sleep(1.5)
            try:
                data_source_check.run(*args)
            finally:
                connection.close()

        threading.Thread(target=work, daemon=True).start()

    monkeypatch.setattr(data_source_check, "apply_async", run_later)


@pytest.mark.parametrize("size, language", WIDTH_AND_LANGUAGE, ids=WIDTH_AND_LANGUAGE_IDS)
def test_staff_register_check_and_import_a_data_source(site, new_page, make_user, source_server, slow_worker, size,
                                                        language):
    staff = make_user("curator")
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    words = WORDS[language]
    page = new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(page, site, "curator")
    gone = DataSource.objects.create(name="Old mirror", url=source_server.url("gone/index.bsi"), kind="index")
    page.goto(f"{site}/data/sources/{gone.pk}/")
    page.get_by_role("button", name=words["check"], exact=True).click()
    expect(page.locator("#source-error")).to_contain_text(words["http404"], timeout=15_000)
    assert_nothing_covers_a_control(page, f"data source failed {size[0]} {language}")
    shoot(page, f"data-sources-failed-{size[0]}-{language}")
    source_server.requests.clear()
    page.goto(f"{site}/data/import/")
    form = page.locator("#register-source")
    form.locator("input[name=source-name]").fill("Warcaster test data")
    form.locator("input[name=source-url]").fill(source_server.url("data/index.bsi"))
    assert_nothing_covers_a_control(page, f"data sources form {size[0]} {language}")
    shoot(page, f"data-sources-form-{size[0]}-{language}")
    form.get_by_role("button", name=words["register"], exact=True).click()
    expect(page).to_have_url(re.compile(r"/data/sources/\d+/$"))
    source = DataSource.objects.get(name="Warcaster test data")
    assert source_server.requests == []  # registering fetches nothing

    page.get_by_role("button", name=words["check"], exact=True).click()
    expect(page.locator("#source-status")).to_have_text(words["checking"])
    assert_nothing_covers_a_control(page, f"data source checking {size[0]} {language}")
    shoot(page, f"data-sources-checking-{size[0]}-{language}")
    expect(page.locator("#source-status")).to_have_text(words["update"], timeout=15_000)  # the page reloads itself
    expect(page.locator("table.source-files tbody tr")).to_have_count(3)
    assert_nothing_covers_a_control(page, f"data source update {size[0]} {language}")
    shoot(page, f"data-sources-update-{size[0]}-{language}")
    page.get_by_role("button", name=words["import"], exact=True).click()
    expect(page).to_have_url(f"{site}/catalog/warcaster/packages/{SLUG}/")
    expect(page.locator("ul.messages")).to_contain_text(words["new"])

    source_server.new_revision("star-league.cat", '<characteristic name="DEF" typeId="ct-def">4</characteristic>',
                               '<characteristic name="DEF" typeId="ct-def">5</characteristic>')
    page.goto(f"{site}/data/import/")
    expect(page.locator("table.data-sources")).to_contain_text(words["none"])
    assert_nothing_covers_a_control(page, f"data sources list {size[0]} {language}")
    shoot(page, f"data-sources-list-{size[0]}-{language}")
    page.locator("table.data-sources").get_by_role("button", name=words["check_it"], exact=True).click()
    expect(page).to_have_url(f"{site}/data/sources/{source.pk}/")
    expect(page.locator("#source-status")).to_have_text(words["update"], timeout=15_000)
    expect(page.locator("tr.change-revised")).to_contain_text(words["revised"])
    expect(page.locator("#source-diff")).to_contain_text("r3-5-2")
    assert_nothing_covers_a_control(page, f"data source new revision {size[0]} {language}")
    shoot(page, f"data-sources-revision-{size[0]}-{language}")
    page.get_by_role("button", name=words["import"], exact=True).click()
    expect(page.locator("ul.messages")).to_contain_text(words["next"])
    assert Card.objects.get(code="BS-SL-HERO").data["stats"]["def"] == 5
    assert PackageVersion.objects.filter(slug=SLUG).count() == 2
