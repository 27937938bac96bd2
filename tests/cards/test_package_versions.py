"""Package versions: every import that changes a package keeps its content as the next
version; GET /api/packages/, /api/packages/{system}/{slug}/versions/, .../versions/{n}/ (the hangar.package/1
document of that version) and .../diff/?from=A&to=B (cards added, removed and changed, with the fields)."""
from __future__ import annotations

import copy

import pytest
from rest_framework.test import APIClient

from cards.models import PackageVersion
from cards.services import package_import

pytestmark = pytest.mark.django_db


def _two_versions(hagmi_package) -> tuple[dict, dict]:
    first = copy.deepcopy(hagmi_package)
    package_import(first)
    second = copy.deepcopy(first)
    second["version"] = "2"
    second["cards"][0]["name_en"] = "Renamed"
    removed = second["cards"].pop()
    added = {**copy.deepcopy(second["cards"][1]), "code": "HS-999"}
    second["cards"].append(added)
    package_import(second)
    return first, {"removed": removed["code"], "changed": second["cards"][0]["code"], "added": "HS-999"}


def test_each_changing_import_is_a_new_version_and_an_unchanged_one_is_not(hagmi_package):
    package_import(hagmi_package)
    package_import(copy.deepcopy(hagmi_package))  # unchanged
    assert list(PackageVersion.objects.values_list("number", flat=True)) == [1]
    changed = copy.deepcopy(hagmi_package)
    changed["title"] = "Another title"
    package_import(changed)
    assert list(PackageVersion.objects.order_by("number").values_list("number", "title")) == [
        (1, hagmi_package["title"]), (2, "Another title")]


def test_the_versions_are_listed_newest_first_and_each_exports_as_its_document(hagmi_package):
    first, _ = _two_versions(hagmi_package)
    client = APIClient()
    slug = first["slug"]
    listed = client.get(f"/api/packages/hagmi/{slug}/versions/").json()
    assert [(v["number"], v["version"]) for v in listed] == [(2, "2"), (1, first["version"])]
    document = client.get(f"/api/packages/hagmi/{slug}/versions/1/").json()
    assert document == first  # the package exactly as imported then
    packages = client.get("/api/packages/?system=hagmi").json()
    assert [(p["slug"], p["latest"], p["version"]) for p in packages] == [(slug, 2, "2")]


def test_the_diff_of_two_versions_names_the_cards_added_removed_and_changed(hagmi_package):
    first, expected = _two_versions(hagmi_package)
    diff = APIClient().get(f"/api/packages/hagmi/{first['slug']}/diff/?from=1&to=2").json()
    assert diff["added"] == [expected["added"]] and diff["removed"] == [expected["removed"]]
    assert diff["changed"] == {expected["changed"]: ["name_en"]} and (diff["from"], diff["to"]) == (1, 2)
    back = APIClient().get(f"/api/packages/hagmi/{first['slug']}/diff/?from=2&to=1").json()
    assert back["added"] == [expected["removed"]] and back["removed"] == [expected["added"]]


@pytest.mark.parametrize("url,status,words", [
    ("/api/packages/chess/core/versions/", 404, "No game system"),
    ("/api/packages/hagmi/nope/versions/", 404, "No package 'nope'"),
    ("/api/packages/hagmi/{slug}/versions/9/", 404, "has no version 9"),
    ("/api/packages/hagmi/{slug}/versions/99999999999/", 400, "version number"),
    ("/api/packages/hagmi/{slug}/diff/?from=1", 400, "to"),
    ("/api/packages/hagmi/{slug}/diff/?from=x&to=1", 400, "from"),
    ("/api/packages/hagmi/{slug}/diff/?from=1&to=7", 404, "has no version 7"),
    ("/api/packages/?system=chess", 404, "No game system"),
])
def test_bad_requests_say_what_is_wrong(hagmi_package, url, status, words):
    package_import(hagmi_package)
    response = APIClient().get(url.format(slug=hagmi_package["slug"]))
    assert response.status_code == status and words in response.content.decode(), response.content
