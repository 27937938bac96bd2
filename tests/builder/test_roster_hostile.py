"""Hostile rosters: XML nested deeper than the limit and zipped rosters that expand past the budget are refused — a
JSON 400 from the API, exit 2 from check_list and export_list, with the file and the element path — before any
recursive code (the element paths, the XSD validator) sees the tree, and before a zip's bytes are all unzipped
(docs/list-formats.md "Limits"). Nothing is written."""
from __future__ import annotations

import tracemalloc
import zipfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from builder.listio import ListFormatError, parse_roster
from builder.models import GameList
from rules_engine.formats.safefiles import MAX_XML_DEPTH
from tests.support.hostile_files import ROS_NS, deep_xml, write_zero_member

pytestmark = pytest.mark.django_db

# Peak Python memory (tracemalloc) of refusing a .rosz that unzips to 200 MB: the roster limit (5 MB) is the most
# the reader may hold of it, plus its chunks; documented in docs/list-formats.md "Limits".
ROSZ_PEAK_BOUND = 8 * 1024 * 1024


def deep_roster(tmp_path: Path) -> Path:
    path = tmp_path / "deep.ros"
    path.write_bytes(deep_xml("roster", ROS_NS))
    return path


def test_a_roster_nested_past_the_limit_is_a_json_400_naming_the_file_and_the_element_path(owner_client, catalogs,
                                                                                         tmp_path):
    before = GameList.objects.count()
    response = owner_client.post("/api/lists/import/",
                                 {"file": SimpleUploadedFile("deep.ros", deep_roster(tmp_path).read_bytes())},
                                 format="multipart")
    assert response.status_code == 400 and response["Content-Type"].startswith("application/json")
    error = response.json()["error"]
    assert error["code"] == "list.invalid"
    assert f"deep.ros: /roster/a[1]/a[1]/a[1]/a[1]/…" in error["message"]
    assert f"nested more than {MAX_XML_DEPTH} deep" in error["message"]
    assert error["issues"][0]["path"].startswith("/roster/a[1]/a[1]")
    assert GameList.objects.count() == before


@pytest.mark.parametrize("command", [["check_list"], ["export_list", "--as", "json"]])
def test_check_list_and_export_list_exit_2_on_a_roster_nested_past_the_limit(catalogs, tmp_path, command):
    path = deep_roster(tmp_path)
    with pytest.raises(CommandError) as error:
        call_command(command[0], str(path), *command[1:])
    assert error.value.returncode == 2
    assert str(error.value).startswith(f"{path}: deep.ros: /roster/a[1]/a[1]")
    assert f"nested more than {MAX_XML_DEPTH} deep" in str(error.value)


def test_a_roster_at_the_depth_limit_is_read_as_far_as_its_content_allows():
    """The limit is on nesting, not on the file: a roster nested exactly to the limit is parsed and then refused
    for what it holds (the published model has no <a>), without a RecursionError."""
    raw = deep_xml("roster", ROS_NS, depth=MAX_XML_DEPTH - 1)
    with pytest.raises(ListFormatError) as error:
        parse_roster(raw, lambda system: None, filename="edge.ros")
    assert "not valid against the published BattleScribe roster schema" in error.value.issues[0].message


def test_a_rosz_that_unzips_past_the_roster_limit_is_refused_while_unzipping(owner_client, catalogs, tmp_path):
    """A .rosz of 200 MB of zeros (a few hundred KB zipped): refused as soon as the first bytes over the limit come
    out of the decompressor, with the Python memory of the whole refusal under ROSZ_PEAK_BOUND."""
    path = tmp_path / "bomb.rosz"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        write_zero_member(archive, "bomb.ros", 200 * 1024 * 1024)
    raw = path.read_bytes()
    tracemalloc.start()
    try:
        with pytest.raises(ListFormatError) as error:
            parse_roster(raw, lambda system: None, filename="bomb.rosz")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert error.value.issues[0].message.startswith("bomb.rosz!bomb.ros: ")
    assert peak < ROSZ_PEAK_BOUND, peak
    response = owner_client.post("/api/lists/import/", {"file": SimpleUploadedFile("bomb.rosz", raw)},
                                 format="multipart")
    assert response.status_code == 400 and "bomb.rosz!bomb.ros" in response.json()["error"]["message"]

