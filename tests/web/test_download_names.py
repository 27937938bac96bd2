"""Every file Hangar hands out keeps its Japanese name: RFC 6266 `filename*=UTF-8''…` with an ASCII `filename`
fallback (cards/downloads.py)."""
from __future__ import annotations

import re
from urllib.parse import quote, unquote

import pytest

from cards.downloads import content_disposition
from tests.web.conftest import hagmi_legal_doc

NAME = "マウスで組んだデッキ 1280"


def header_names(value: str) -> tuple[str, str]:
    """(filename, filename*) decoded as RFC 6266 says: a browser saves the file under filename* when given."""
    plain = re.search(r'(?:^|;)\s*filename="([^"]*)"', value)
    extended = re.search(r"(?:^|;)\s*filename\*=UTF-8''([^;\s]*)", value)
    assert plain and extended, value
    assert extended.group(1) == quote(unquote(extended.group(1)), safe=""), "filename* is percent-encoded UTF-8"
    return plain.group(1), unquote(extended.group(1))


@pytest.mark.parametrize("kind, suffix", [("text", "txt"), ("json", "json")])
def test_a_list_downloads_under_its_japanese_name_with_an_ascii_fallback(make_list, owner_client, kind, suffix):
    game_list = make_list(hagmi_legal_doc(NAME))
    response = owner_client.get(f"/api/lists/{game_list.slug}/export/", {"as": kind})
    assert response.status_code == 200
    value = response["Content-Disposition"]
    assert value.startswith("attachment;")
    assert f"filename*=UTF-8''{quote(NAME + '.' + suffix, safe='')}" in value
    fallback = value.split('filename="', 1)[1].split('"', 1)[0]
    assert fallback == f"1280-{game_list.slug}.{suffix}" and fallback.isascii()


def test_the_saved_name_is_the_lists_name_as_a_browser_reads_it(make_list, owner_client):
    game_list = make_list(hagmi_legal_doc(NAME))
    response = owner_client.get(f"/api/lists/{game_list.slug}/export/", {"as": "text"})
    plain, unicode_name = header_names(response["Content-Disposition"])
    assert unicode_name == f"{NAME}.txt"
    assert plain.isascii() and plain.endswith(".txt")


@pytest.mark.parametrize("written, saved", [
    ("a/b\\c:d.json", "a_b_c_d.json"),  # no path separators reach the saved name
    ('say "hi"\n.txt', "say _hi.txt"),
    ("..hidden.txt", "hidden.txt"),
])
def test_a_name_is_made_safe_for_a_file_system(written, saved):
    _plain, unicode_name = header_names(content_disposition(written))
    assert unicode_name == saved


def test_a_name_without_ascii_letters_still_has_an_ascii_fallback():
    plain, unicode_name = header_names(content_disposition("デッキ.rosz"))
    assert (plain, unicode_name) == ("download.rosz", "デッキ.rosz")
