"""Each game's hints show that game's own cards: the paste box, the search box's hint, the import page and the
importer's message for a line that is not an entry (never a HAGMI card on a MechWarrior or Warcaster page)."""
from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from builder.listio import ListFormatError, parse_list_text
from builder import services
from cards.selectors import catalog_for

pytestmark = pytest.mark.django_db

PACKAGES = Path(__file__).resolve().parents[2] / "cards" / "packages"


def names_of(system: str) -> set[str]:
    """Every card name (both languages) of a game's bundled packages."""
    names = set()
    for package in (PACKAGES / system).glob("*.json"):
        for card in json.loads(package.read_text(encoding="utf-8"))["cards"]:
            names.update(name for name in (card.get("name"), card.get("name_en")) if name)
    return names


def hint_texts(page: str) -> list[str]:
    """The paste box's label and the search box's hint, unescaped."""
    label = page.split('<label for="paste">', 1)[1].split("</label>", 1)[0]
    quick = page.split('id="quick-hint">', 1)[1].split("</p>", 1)[0]
    return [html.unescape(label), html.unescape(quick)]


def empty(system: str) -> dict:
    from cards.systems import SYSTEMS

    return {"schema": "hangar.list/1", "system": system, "name": "Hints",
            "sections": {key: [] for key in SYSTEMS[system]["sections"]}}


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("system", ["hagmi", "mwda", "warcaster"])
def test_the_editors_hints_use_the_games_own_cards(catalog, owner, owner_client, system, lang):
    game_list = services.list_create(owner=owner, document=empty(system))
    page = owner_client.get(f"/lists/{game_list.slug}/edit/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    others = set().union(*(names_of(other) for other in ("hagmi", "mwda", "warcaster") if other != system))
    own = names_of(system)
    for text in hint_texts(page):
        quoted = re.search(r"[“「](.+?)[”」]", text).group(1)  # the example between the quotes
        qty, _space, name = quoted.partition(" ")
        assert qty.isdigit() and name, text
        assert any(card.startswith(name) for card in own), (system, quoted)
        assert not any(card in text for card in others if len(card) > 3), (system, text)
    assert "Supply" not in page.split('id="paste-box"', 1)[1].split("</section>", 1)[0] or system == "hagmi"


@pytest.mark.parametrize("lang, words", [("en", "under [Army]"), ("ja", "[軍団] の下に")])
def test_the_import_page_shows_an_example_of_each_game_in_its_own_cards(catalog, owner_client, lang, words):
    page = html.unescape(owner_client.get("/lists/import/", HTTP_ACCEPT_LANGUAGE=lang).content.decode())
    examples = page.split('<ul class="text-examples">', 1)[1].split("</ul>", 1)[0]
    assert examples.count("<li>") == 3 and words in examples
    assert "Supply Drop" not in page.split("<form", 1)[0]
    for system in ("hagmi", "mwda", "warcaster"):
        lines = [re.search(r"[“「](.+?)[”」]", item).group(1) for item in examples.split("<li>")[1:]]
        assert any(line.split(" ", 1)[1] in names_of(system) for line in lines), system


@pytest.mark.parametrize("system, header", [("mwda", "[Army]"), ("warcaster", "[Force]")])
def test_the_importers_message_for_a_bad_entry_gives_the_games_own_example(catalog, system, header):
    with pytest.raises(ListFormatError) as raised:
        parse_list_text(f"System: {system}\n{header}\nx Titan\n", catalog_for)
    message = raised.value.issues[0].words("en")
    assert "Supply Drop" not in message and "補給物資" not in message
    example = message.split('e.g. "', 1)[1].split('"', 1)[0]
    assert example.split(" ", 1)[1] in names_of(system)
