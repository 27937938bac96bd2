"""Adding a game is one package: Toy Duel (tests/toygame/), a game none of the site's code knows, runs end to end —
its package loaded by the real `load_packages`, its cards on the catalogue, a list created, saved and checked (T1,
T2, the violation in words), a simulation run through the real services and chunk code, its result page, its replay
in its own sentences, a card drafted and a correction proposed in the card editor — with nothing outside its package
written for it (docs/architecture.md "Adding a game").

The toy is registered only inside the `toy_game` fixture (rules_engine.systems.registered): every other test sees
the three games, and the last test here checks that nothing of the toy is left behind."""
from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client

from builder.models import GameList, SimulationRun
from builder import services
from cards.drafts import editor_group
from cards.models import Card, CardProposal, PackageDraft
from rules_engine.systems import SYSTEMS, registered
from tests.support.bundled_catalog import load_bundled_catalog
from tests.support.simulations import play_all
from tests.toygame.system import SYSTEM
from tests.web.formfields import as_post, form_pairs
from tests.web.test_every_word import PageText

pytestmark = pytest.mark.django_db

HERE = Path(__file__).resolve().parent
KNIGHTS = json.loads((HERE / "packages" / "toyduel" / "lists" / "knights.json").read_text(encoding="utf-8"))
SLUGS = ("toyduel", "sparring-partner", "toyduel.copies", "toyduel.deck_size", "toy-core", "fighter")
EVENT_KINDS = ("setup", "turn_start", "play", "game_over")  # what its engine logs (game.py)


@pytest.fixture
def toy_game(db, settings):
    """The three games as `load_packages` leaves them, then Toy Duel registered and its package loaded by the real
    command; the game and every cache derived from the registry gone after the test."""
    settings.SECURE_SSL_REDIRECT = False
    load_bundled_catalog()
    with registered(SYSTEM):
        call_command("load_packages")
        yield SYSTEM


def ja(client: Client) -> Client:
    client.cookies["django_language"] = "ja"
    return client


def main_text(response) -> str:
    """The words a reader sees in the page's <main> (not code or input: tests/web/test_every_word.py PageText)."""
    assert response.status_code == 200, response.status_code
    body = response.content.decode()
    return " ".join(PageText.of(body[body.index("<main"):body.index("</main>")]).split())


def assert_no_slug(text: str) -> None:
    shown = [slug for slug in SLUGS if re.search(rf"(?<![\w/.\-]){re.escape(slug)}(?![\w/\-])", text)]
    assert not shown, f"slugs on the page: {shown}\n{text}"


def test_the_toy_games_package_is_loaded_by_the_real_command_and_its_cards_are_on_the_catalogue(toy_game, client):
    assert Card.objects.filter(system__slug="toyduel").count() == 5
    english = main_text(client.get("/catalog/toyduel/"))
    assert "Toy Duel" in english and "Lance Knight" in english and "Steel Giant" in english
    assert_no_slug(english)
    japanese = main_text(ja(Client()).get("/catalog/toyduel/"))
    assert "トイ・デュエル" in japanese and "槍の騎士" in japanese
    assert "Fighter" in english and "fighter" not in english and "戦士" in japanese  # its own words
    card = main_text(client.get("/catalog/toyduel/TD-001/"))
    assert "Apprentice Fencer" in card and "A small blow." in card
    assert "Kind Fighter" in card and "Cost 1" in card and "Power 1" in card
    assert "パワー 1" in main_text(ja(Client()).get("/catalog/toyduel/TD-001/"))
    home = main_text(client.get("/"))
    assert "Toy Duel" in home


def test_the_api_lists_the_toy_game_with_its_declared_type(toy_game, client):
    systems = {row["slug"]: row for row in client.get("/api/systems/").json()}
    assert systems["toyduel"]["game_type"] == {
        "players": 2, "chance": ["dice", "shuffles"], "information": "imperfect", "max_length": {"rounds": 3},
        "capabilities": ["card_check", "list_opponents"], "cooperative": False, "hidden": ["hand", "deck"]}


def test_a_toy_list_is_created_saved_and_checked_t1_t2(toy_game, owner, client):
    client.force_login(owner)
    response = client.post("/lists/new/", {"system": "toyduel", "format": "duel", "name": "Knights",
                                           "visibility": "private"})
    assert response.status_code == 302, main_text(response)
    game_list = GameList.objects.get(owner=owner, name="Knights")
    assert client.get(f"/lists/{game_list.slug}/edit/").status_code == 200
    empty = main_text(client.get(f"/lists/{game_list.slug}/"))
    assert "The deck has 0 cards; it needs at least 4." in empty  # T1

    legal = services.list_update(game_list=game_list, user=owner, document={**KNIGHTS, "name": "Knights"},
                                 expected_version=game_list.version)
    assert client.get(f"/api/lists/{legal.slug}/validation/").json()["legal"] is True
    page = main_text(client.get(f"/lists/{legal.slug}/"))
    assert "Lance Knight" in page and "it needs at least" not in page and "Deck 5 / 4+ T1" in page
    assert_no_slug(page)

    illegal = {**KNIGHTS, "name": "Three giants", "sections": {"deck": [{"card": "TD-005", "qty": 3},
                                                                         {"card": "TD-001", "qty": 1}]}}
    imported = client.post("/api/lists/import/", {"text": "[Deck]\n2 Lance Knight\n2 Flame Mage\n", "system": "toyduel",
                                                  "name": "Imported"}, content_type="application/json")
    assert imported.status_code == 201, imported.json()
    answer = client.post("/api/validate/", illegal, content_type="application/json").json()
    assert answer["legal"] is False
    assert [(v["rule"], v["code"]) for v in answer["violations"]] == [("T2", "toyduel.copies")]
    saved = client.post("/api/lists/", {"document": illegal}, content_type="application/json")
    assert saved.status_code == 201, saved.json()
    page = main_text(client.get(f"/lists/{saved.json()['slug']}/"))
    assert "鋼の巨人 (TD-005): 3 copies; a deck may hold at most 2." in page  # T2, in words
    assert_no_slug(page)
    japanese = main_text(ja(client).get(f"/lists/{saved.json()['slug']}/"))
    assert "3枚。デッキに入れられるのは2枚までです。" in japanese
    assert "デッキ 5 / 4+ T1" in main_text(client.get(f"/lists/{legal.slug}/"))  # the gauge, named as its section


def test_a_toy_simulation_runs_through_the_services_and_its_result_page_shows_it(toy_game, owner, client):
    game_list = services.list_create(owner=owner, document=KNIGHTS)
    run = services.simulation_start(user=owner, game_list=game_list, opponent_slug="sparring-partner",
                                    policy="greedy", games=6, seed=7)
    play_all(run)  # the chunks, played as a worker plays them
    run = SimulationRun.objects.get(pk=run.pk)
    assert run.status == "done", run.error
    assert run.result["wins"] + run.result["losses"] + run.result["draws"] == 6
    assert run.result["ended_by"] == {"rounds": 6}
    client.force_login(owner)
    english = main_text(client.get(f"/simulations/{run.public_id}/"))
    assert "Sparring partner" in english and "Lance Knight" in english
    assert "How often each card of the list was used, per game" in english
    assert_no_slug(english)
    japanese = main_text(ja(client).get(f"/simulations/{run.public_id}/"))
    assert "練習相手" in japanese and "槍の騎士" in japanese
    assert_no_slug(japanese)


def test_every_page_of_the_toy_game_answers_without_a_server_error(toy_game, staff, client):
    """The pages of a toy list, run, replay and card, in both languages: 200, or a clear refusal of what the game
    does not declare (no positions: 400 naming it; no weapon odds: 404)."""
    staff.groups.add(editor_group())  # the data pages too
    client.force_login(staff)
    game_list = services.list_create(owner=staff, document=KNIGHTS)
    run = services.simulation_start(user=staff, game_list=game_list, opponent_slug="sparring-partner",
                                    policy="greedy", games=4, seed=7)
    play_all(run)
    refused = {f"/simulations/{run.public_id}/games/0/position/": 400, "/catalog/toyduel/TD-001/odds/": 404}
    pages = [*(f"/lists/{game_list.slug}/{page}" for page in ("", "edit/", "edit/cards/", "simulate/", "gauntlet/",
                                                               "doctor/", "sheet/", "history/")),
             f"/simulations/{run.public_id}/games/0/", "/simulations/", "/rules/toyduel/", "/lists/new/",
             "/lists/new/?system=toyduel", "/lists/gallery/?system=toyduel", "/lists/import/", "/analysis/",
             "/catalog/toyduel/packages/toy-core/", "/catalog/toyduel/packages/toy-core/battlescribe.zip", "/data/",
             "/data/import/", f"/api/lists/{game_list.slug}/export/?as=text", f"/api/lists/{game_list.slug}/export/?as=ros",
             "/api/systems/toyduel/", "/api/cards/?system=toyduel", "/api/schema/", *refused]
    answers = {}
    for language in ("en", "ja"):
        client.cookies["django_language"] = language
        answers.update({(url, language): client.get(url).status_code for url in pages})
    assert {key: code for key, code in answers.items() if code != refused.get(key[0], 200)} == {}
    replay = main_text(client.get(f"/simulations/{run.public_id}/games/0/"))
    assert "From this turn on" not in replay  # no positions: the replay offers none
    assert "このゲームには局面がありません" in client.get(f"/simulations/{run.public_id}/games/0/position/").content.decode()


def test_the_toy_replay_reads_as_the_toys_own_sentences_in_both_languages(toy_game, owner, client):
    """Its report (report.py, `Presentation.report`): each event a sentence of its own words, the headings the
    site's, and no event kind, slug or engine text on the page."""
    game_list = services.list_create(owner=owner, document=KNIGHTS)
    run = services.simulation_start(user=owner, game_list=game_list, opponent_slug="sparring-partner",
                                    policy="greedy", games=2, seed=7)
    play_all(run)
    client.force_login(owner)
    url = f"/simulations/{run.public_id}/games/0/"
    english = main_text(client.get(url))
    assert re.search(r"(You|The opponent) went first; the duel lasts 3 rounds\.", english), english
    assert re.search(r"Round 1 · Turn 1 \((you|the opponent)\)", english)
    played = re.findall(r"(?:You|The opponent) played ([A-Z][\w ]+?) and rolled [1-6]: \d+ points\.", english)
    assert len(played) == 6 and "Lance Knight" in played  # one card a turn, three rounds, named in English
    assert re.search(r"(You won|The opponent won|The game was a draw): after the last round, on points\.$", english)
    assert "how your side plays: The first card in hand, by code" in english  # its policy in its own words
    assert "cannot put in words" not in english and "=" not in english
    assert_no_slug(english)
    assert not [kind for kind in EVENT_KINDS if re.search(rf"(?<![\w/.\-]){kind}(?![\w/\-])", english)]
    japanese = main_text(ja(client).get(url))
    assert re.search(r"(あなた|相手)が先攻。3ラウンドの決闘。", japanese), japanese
    played = re.findall(r"(?:あなた|相手)は(\S+?)を出し、ダイスは[1-6]：\d+点。", japanese)
    assert len(played) == 6 and "槍の騎士" in played
    assert re.search(r"(あなたの勝利|相手の勝利|引き分け)：最終ラウンド終了時のポイント差。$", japanese)
    assert "あなたの側の戦い方：手札のコード順で最初のカード" in japanese
    assert "文章にできません" not in japanese
    assert_no_slug(japanese)
    assert not [kind for kind in EVENT_KINDS if re.search(rf"(?<![\w/.\-]){kind}(?![\w/\-])", japanese)]
    assert not re.search(r"\b(went|played|rolled|points|greedy)\b", japanese)  # no English sentence on the Japanese page


def test_a_game_that_declares_no_report_still_words_every_event_without_its_kinds(db, settings, owner):
    """Toy Duel without its report.py (`Presentation.report` None): the site's general sentence names each event's
    kind humanised and its cards by their names, says who won and how from `game_over`, and shows no event kind with
    an underscore, no slug and no engine text, in both languages."""
    settings.SECURE_SSL_REDIRECT = False
    load_bundled_catalog()
    unworded = replace(SYSTEM, presentation=replace(SYSTEM.presentation, report=None))
    with registered(unworded):
        call_command("load_packages")
        game_list = services.list_create(owner=owner, document=KNIGHTS)
        run = services.simulation_start(user=owner, game_list=game_list, opponent_slug="sparring-partner",
                                        policy="greedy", games=2, seed=7)
        play_all(run)
        client = Client()
        client.force_login(owner)
        url = f"/simulations/{run.public_id}/games/0/"
        english = main_text(client.get(url))
        japanese = main_text(ja(client).get(url))
    assert "You did something the report cannot put in words yet (play: Lance Knight)." in english, english
    assert re.search(r"(You won|The opponent won|The game was a draw): after the last round, on points\.$", english)
    assert re.search(r"Round 1 · Turn 1 \((you|the opponent)\)", english)  # turn_start: the heading, not a line
    assert "あなたの行動（play：槍の騎士。この記録はまだ文章にできません）。" in japanese, japanese
    assert re.search(r"(あなたの勝利|相手の勝利|引き分け)：最終ラウンド終了時のポイント差。$", japanese)
    for text in (english, japanese):
        assert_no_slug(text)
        assert "game_over" not in text and "turn_start" not in text and "game over" not in text
        assert not re.search(r"\b[a-z_]+=\S|TD-\d{3}", text)  # no key=value, no card code


def _card_form(client: Client, url: str) -> dict[str, list[str]]:
    """What a browser submits for the card editor's form on `url` (tests/web/test_card_editor.py's flow)."""
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200, page.status_code
    return as_post(form_pairs(page.content.decode(), "card-form"))


def test_the_card_editor_drafts_a_toy_card_from_the_schema_its_package_brings(toy_game, make_user):
    """The draft pages read the game's JSON Schema where its entry says it is (`package_schema`, in its package):
    a new card typed into the form, checked, saved into the draft; an existing card's form reads back unchanged."""
    editor = make_user("editor")
    editor.groups.add(editor_group())
    client = Client()
    client.force_login(editor)
    assert main_text(client.get("/data/toyduel/toy-core/"))
    data = _card_form(client, "/data/toyduel/toy-core/cards/new/")
    data.update({"code": ["TD-042"], "name": ["試しの剣士"], "name_en": ["Trial Swordsman"], "kind": ["fighter"],
                 "cost": ["2"], "power": ["5"], "text_en": ["A test blow."]})
    checked = client.post("/data/toyduel/toy-core/cards/new/", {**data, "action": "check"}, HTTP_HX_REQUEST="true")
    assert checked.status_code == 200 and b'id="card-ok"' in checked.content
    saved = client.post("/data/toyduel/toy-core/cards/new/", {**data, "action": "save"})
    assert saved.status_code == 302 and saved["Location"] == "/data/toyduel/toy-core/"
    card = next(card for card in PackageDraft.objects.get(slug="toy-core").data["cards"] if card["code"] == "TD-042")
    assert card == {"code": "TD-042", "name": "試しの剣士", "name_en": "Trial Swordsman", "kind": "fighter",
                    "cost": 2, "power": 5, "text_en": "A test blow."}
    bad = client.post("/data/toyduel/toy-core/cards/new/", {**data, "code": ["TD-043"], "power": ["12"],
                                                             "action": "save"}, HTTP_ACCEPT_LANGUAGE="en")
    assert bad.status_code == 422 and 'href="#f-power"' in bad.content.decode()  # the schema's maximum, at its field
    for language in ("en", "ja"):
        client.cookies["django_language"] = language
        page = main_text(client.get("/data/toyduel/toy-core/cards/TD-001/"))
        assert_no_slug(page)


def test_a_user_proposes_a_correction_to_a_toy_card(toy_game, owner):
    player = Client()
    player.force_login(owner)
    for language in ("en", "ja"):
        player.cookies["django_language"] = language
        assert_no_slug(main_text(player.get("/catalog/toyduel/TD-001/propose/")))
    data = _card_form(player, "/catalog/toyduel/TD-001/propose/")
    data.update({"power": ["2"], "note": ["The print says power 2"]})
    sent = player.post("/catalog/toyduel/TD-001/propose/", {**data, "action": "save"})
    assert sent.status_code == 302 and sent["Location"] == "/catalog/toyduel/TD-001/"
    proposal = CardProposal.objects.get()
    assert proposal.data["power"] == 2 and proposal.before["power"] == 1 and proposal.proposed_by == owner


def test_the_toy_game_leaves_nothing_behind():
    """Registered and let go, the toy leaves the registry and every view and cache of it with the three games."""
    from builder.listio.jsonio import _validator
    from cards.selectors import sample_lists
    from cards.systems import SECTION_LABELS, SYSTEMS as CARD_SYSTEMS
    from rules_engine.construction import RULES, RULESETS

    with registered(SYSTEM):
        assert "toyduel" in CARD_SYSTEMS and "toyduel" in RULESETS and "deck" in SECTION_LABELS
        assert "toyduel" in _validator().schema["properties"]["system"]["enum"]
        assert [sample["key"] for sample in sample_lists("toyduel")] == ["knights"]
    assert list(SYSTEMS) == ["hagmi", "mwda", "warcaster"]
    assert list(CARD_SYSTEMS) == list(RULESETS) == list(SYSTEMS)
    assert "deck" not in SECTION_LABELS and not [rule for rule in RULES if rule.system == "toyduel"]
    assert _validator().schema["properties"]["system"]["enum"] == ["hagmi", "mwda", "warcaster"]
    assert sample_lists("toyduel") == []
