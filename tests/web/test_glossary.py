"""One word for one thing (docs/glossary.md): the words the glossary retires are in no Japanese translation,
template or message module; the cost of a card is called as the game's filters call it on its rows; the goldfish
has one name on the forms and the results; a replay counts games from 1; W5 says 装備 like the panel."""
from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from builder import services
from builder.models import SimulationRun
from rules_engine.core.messages import TEMPLATES as RULE_MESSAGES
from tests.support.simulations import play_all, published, small_chunks  # noqa: F401  (records chunk messages)
from tests.web.conftest import hagmi_legal_doc

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "docs" / "glossary.md"


def retired_words() -> list[tuple[str, str]]:
    """(word not to use, the glossary's word for it) from every table's **not** column."""
    found = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 4 and "`" in cells[2]:
            found.extend((word, cells[0]) for word in re.findall(r"`([^`]+)`", cells[2]))
    return found


def translations(po: str) -> list[str]:
    """Every msgstr of a .po file, its continuation lines joined."""
    found, current = [], None
    for line in po.splitlines():
        start = re.match(r'^msgstr(?:\[\d\])? "(.*)"$', line)
        if start:
            current = [start.group(1)]
            found.append(current)
        elif current is not None and line.startswith('"'):
            current.append(line[1:-1])
        else:
            current = None
    return ["".join(parts) for parts in found]


def shown_texts() -> dict[str, str]:
    """What Hangar writes for a person: the Japanese translations (msgstr only), the templates, the messages."""
    po = (ROOT / "locale" / "ja" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    texts = {"locale/ja msgstr": "\n".join(translations(po))}
    for path in sorted((ROOT / "templates").rglob("*.html")):
        texts[str(path.relative_to(ROOT))] = path.read_text(encoding="utf-8")
    for module in ("rules_engine/core/messages.py", "builder/listio/messages.py"):
        texts[module] = (ROOT / module).read_text(encoding="utf-8")
    return texts


def test_the_glossary_retires_words_and_none_is_shown():
    retired = retired_words()
    assert ("コーテックス", "コルテックス") in retired and ("第0戦", "第1戦, 第2戦 …") in retired
    texts = shown_texts()
    for word, instead in retired:
        for where, text in texts.items():
            assert word not in text, f"{where} says {word!r}; docs/glossary.md says {instead!r}"


def test_w5_asks_for_the_cortex_in_the_loadout_as_the_panel_says_it():
    message = RULE_MESSAGES["W5.no_cortex"]
    assert "コルテックス" in message.ja and "装備" in message.ja and "loadout" in message.en


@pytest.mark.django_db
@pytest.mark.parametrize("system, word, filter_words", [
    ("mwda", "Points", "Points from"), ("hagmi", "Cost", "Cost from"), ("warcaster", "CST", "CST from")])
def test_the_rows_call_the_cost_as_the_filters_do(catalog, owner, owner_client, system, word, filter_words):
    from cards.systems import SYSTEMS
    from cards.selectors import catalog_for
    from builder.listio import example_entry

    code = example_entry(catalog_for(system))["code"]
    doc = {"schema": "hangar.list/1", "system": system, "name": "Rows",
           "sections": {key: [] for key in SYSTEMS[system]["sections"]}}
    doc["sections"][SYSTEMS[system]["sections"][0]] = [{"card": code, "qty": 1}]
    game_list = services.list_create(owner=owner, document=doc)
    page = owner_client.get(f"/lists/{game_list.slug}/edit/", {"q": code}).content.decode()
    assert filter_words in page
    row_costs = re.findall(r'<small class="cost">([^<]*)</small>', page)
    picker_costs = re.findall(r'<small class="kind">[^<]*· ([^<]*)</small>', page)
    assert row_costs and all(text.startswith(f"{word} ") for text in row_costs), row_costs
    assert picker_costs and all(text.startswith(f"{word} ") for text in picker_costs), picker_costs
    if system == "mwda":
        ja = owner_client.get(f"/lists/{game_list.slug}/edit/", {"q": code}, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
        assert all(text.startswith("ポイント ") for text in re.findall(r'<small class="cost">([^<]*)</small>', ja))


@pytest.mark.django_db
@pytest.mark.usefixtures("small_chunks")
@pytest.mark.parametrize("lang, name", [
    ("en", "Target practice: an opponent who never plays a card"), ("ja", "練習台：カードを1枚も出さない相手")])
def test_the_goldfish_has_one_name_on_the_form_and_in_the_results(make_list, owner_client, published, lang, name):
    game_list = make_list(hagmi_legal_doc("Blue rush"))
    form = html.unescape(owner_client.get(f"/lists/{game_list.slug}/gauntlet/", HTTP_ACCEPT_LANGUAGE=lang)
                         .content.decode())
    assert name in form
    owner_client.post(f"/lists/{game_list.slug}/gauntlet/", {
        "opponent-sample-vanguard": 1, "opponent-goldfish": 1, "policy": "greedy", "games": 4, "seed": 4})
    play_all(SimulationRun.objects.get())
    run = SimulationRun.objects.get()
    page = html.unescape(owner_client.get(f"/simulations/{run.public_id}/", HTTP_ACCEPT_LANGUAGE=lang)
                         .content.decode())
    rows = re.findall(r'<th scope="row">([^<]+)</th>', page)
    assert name in rows
    assert "案山子" not in page and "Goldfish" not in page


@pytest.mark.django_db
def test_a_replay_counts_its_games_from_1(make_list, owner, owner_client, published):
    from tests.web.test_replays import sample_run

    run = sample_run(make_list, owner, "mwda")
    page = owner_client.get(f"/simulations/{run.public_id}/games/0/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "第1戦のリプレイ" in page and "第0戦" not in page
    detail = owner_client.get(f"/simulations/{run.public_id}/").content.decode()
    box = re.search(r'<input id="replay-game"[^>]*>', detail).group(0)
    assert 'min="1"' in box and f'max="{run.games}"' in box and 'value="1"' in box
