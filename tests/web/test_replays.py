"""Replay pages: one game of a run as a game report in the page's language,
turn by turn, drawn on the table (MWDA, Warcaster) or on the HAGMI board."""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from django.utils import translation

from builder import services
from builder.models import SimulationRun
from builder.web import gamereport
from rules_engine.replay import replay_events
from tests.support.simulations import play_all, published, small_chunks  # noqa: F401  (records chunk messages)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_chunks")]

PACKAGES = Path(__file__).resolve().parents[2] / "cards" / "packages"
SAMPLES = {"mwda": ("steel-wolves-pack", "highland-line"), "warcaster": ("isa-thunder-lancers", "marcher-frontier-posse"),
           "hagmi": ("akane-assault", "sample-vanguard"), "coop": ("hibari-skirmish", "coop-ironshell-cradle")}
ROOT = Path(__file__).resolve().parents[2]


def sample_run(make_list, owner, system: str, *, name: str = "Sample", finish: bool = True) -> SimulationRun:
    """A finished run of 4 games of a bundled list against a bundled opponent (system "coop": HAGMI co-op)."""
    list_name, opponent = SAMPLES[system]
    system = "hagmi" if system == "coop" else system
    document = json.loads((PACKAGES / system / "lists" / f"{list_name}.json").read_text(encoding="utf-8"))
    game_list = make_list({**document, "name": name})
    run = services.simulation_start(user=owner, game_list=game_list, opponent_slug=opponent, policy="greedy",
                                    games=4, seed=11)
    if finish:
        play_all(run)
        run.refresh_from_db()
    return run


def drawing_of(page: str) -> dict:
    found = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', page, re.S)
    assert found, "the drawing data is embedded with json_script"
    return json.loads(found.group(1))


@pytest.mark.parametrize("system", ["mwda", "warcaster"])
def test_the_replay_draws_the_game_the_run_counted(make_list, owner, owner_client, published, system):
    run = sample_run(make_list, owner, system)
    assert run.status == "done"
    outcomes = []
    for index in range(run.games):
        response = owner_client.get(f"/simulations/{run.public_id}/games/{index}/")
        assert response.status_code == 200
        page = response.content.decode()
        game = replay_events(run.snapshot, run.seed, index)
        outcomes.append(game["outcome"])
        assert f'class="outcome-{game["outcome"]}"' in page
        drawing = drawing_of(page)
        turns = len({event["turn"] for event in game["events"]})
        assert len(drawing["frames"]) == turns and page.count("<li data-frame=") == turns  # one step per turn
        final = drawing["frames"][-1]
        for piece_id, x, y, health, alive in final["at"]:  # the final positions, drawn without JavaScript too
            assert f'data-piece="{piece_id}" transform="translate({x} {y})"' in page
            assert 0 <= x <= drawing["table"]["width"] and 0 <= y <= drawing["table"]["height"]
        eliminated = [e for e in game["events"] if e["kind"] in ("eliminated", "destroyed")]
        assert sum(1 for row in final["at"] if not row[4]) == len(eliminated)
        attacks = sum(len(frame["attacks"]) for frame in drawing["frames"])
        assert attacks == sum(1 for e in game["events"] if e["kind"] == "attack")
    result = run.result
    assert (outcomes.count("win"), outcomes.count("loss"), outcomes.count("draw")) == (
        result["wins"], result["losses"], result["draws"])


def test_the_mwda_table_has_its_terrain_and_the_warcaster_table_its_objective(make_list, owner, owner_client,
                                                                              published):
    mwda = owner_client.get(f"/simulations/{sample_run(make_list, owner, 'mwda').public_id}/games/0/").content
    assert b'viewBox="0 0 36.0 36.0"' in mwda and b'class="terrain ' in mwda
    warcaster = sample_run(make_list, owner, "warcaster")
    page = owner_client.get(f"/simulations/{warcaster.public_id}/games/1/").content.decode()
    assert 'viewBox="0 0 30.0 30.0"' in page and '<circle class="objective" cx="15.0" cy="15.0" r="3">' in page
    assert 'class="gate side-' in page  # W10 gates placed during the game


def test_a_finished_run_replays_for_anyone_with_its_link(make_list, owner, other_client, client, published):
    run = sample_run(make_list, owner, "mwda")
    for visitor in (other_client, client):
        assert visitor.get(f"/simulations/{run.public_id}/games/2/").status_code == 200


def test_an_unfinished_run_replays_for_its_owner_only(make_list, owner, owner_client, other_client, published):
    run = sample_run(make_list, owner, "mwda", finish=False)
    assert run.status != "done"
    assert owner_client.get(f"/simulations/{run.public_id}/games/0/").status_code == 200
    assert other_client.get(f"/simulations/{run.public_id}/games/0/").status_code == 404


def test_a_game_outside_the_run_is_a_404_saying_which_games_exist(make_list, owner, owner_client, published):
    run = sample_run(make_list, owner, "mwda")
    response = owner_client.get(f"/simulations/{run.public_id}/games/4/")
    assert response.status_code == 404 and "games 1 to 4; there is no game 5" in response.content.decode()
    assert owner_client.get(f"/simulations/{run.public_id}/games/-1/").status_code == 404  # not even a route
    assert owner_client.get("/simulations/nosuchrun/games/0/").status_code == 404


def test_the_run_page_links_to_its_replays(make_list, owner, owner_client, published):
    run = sample_run(make_list, owner, "warcaster")
    page = owner_client.get(f"/simulations/{run.public_id}/").content.decode()
    assert f'action="/simulations/{run.public_id}/games/0/"' in page and 'name="game"' in page
    response = owner_client.get(f"/simulations/{run.public_id}/games/0/", {"game": "3"})  # game 3, counted from 1
    assert response.status_code == 302 and response["Location"] == f"/simulations/{run.public_id}/games/2/"
    bad = owner_client.get(f"/simulations/{run.public_id}/games/0/", {"game": "three"})
    assert bad.status_code == 400 and "Give the game as a number (1, 2, 3, ...), not &#x27;three&#x27;." in bad.content.decode()
    ja = owner_client.get(f"/simulations/{run.public_id}/games/9/", HTTP_ACCEPT_LANGUAGE="ja")
    assert ja.status_code == 404 and "このシミュレーションの対戦は第1戦から第4戦までです。第10戦はありません。" in ja.content.decode()


def test_user_text_is_escaped(make_list, owner, owner_client, published):
    run = sample_run(make_list, owner, "mwda", name='<script>alert("x")</script>')
    page = owner_client.get(f"/simulations/{run.public_id}/games/0/").content.decode()
    assert '<script>alert("x")</script>' not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page


def test_the_page_is_in_japanese_for_japanese_readers(make_list, owner, owner_client, published):
    run = sample_run(make_list, owner, "mwda")
    page = owner_client.get(f"/simulations/{run.public_id}/games/0/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "第1戦のリプレイ" in page and "第0戦" not in page and "戦闘記録" in page  # counted from 1


# --- the game report -------------------------------------------------------------------------------

RAW = re.compile(r"=|\bP[01]\b|\bTrue\b|\bFalse\b|\bNone\b|\b(?:HS|HT|HB|HM|MW|WC)-\w+|\b0\d\d\b|_")


def logged_kinds(system: str) -> set[str]:
    """Every kind the engine's source logs: `log("kind", ...)`, `log_game("kind", ...)` in rules_engine/<game>/."""
    kinds = set()
    for path in (ROOT / "rules_engine" / system).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("log", "log_game") and node.args):
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    kinds.add(first.value)
                elif isinstance(first, ast.IfExp):  # "dismantled" if dismantle else "destroyed"
                    kinds.update(x.value for x in (first.body, first.orelse) if isinstance(x, ast.Constant))
    return kinds


@pytest.mark.parametrize("system", ["hagmi", "mwda", "warcaster"])
def test_every_kind_an_engine_logs_has_a_sentence(system):
    kinds = logged_kinds(system)
    if system == "warcaster":
        kinds |= {"charge", "recall"}  # logged as action[0] (the charging phase's two actions)
    assert len(kinds) > 10
    assert kinds <= gamereport.known_kinds(system), f"no sentence for: {sorted(kinds - gamereport.known_kinds(system))}"


@pytest.mark.parametrize("system", ["hagmi", "coop", "mwda", "warcaster"])
def test_every_event_of_seeded_games_reads_as_a_sentence_in_both_languages(make_list, owner, published, system):
    run = sample_run(make_list, owner, system)
    coop = system == "coop"
    seen: set[str] = set()
    for index in range(run.games):
        game = replay_events(run.snapshot, run.seed, index)
        seen |= {event["kind"] for event in game["events"]}
        for lang in ("en", "ja"):
            with translation.override(lang):
                turns = gamereport.report(run.system, game, run.snapshot["cards"], coop=coop)
                outcome = gamereport.outcome(run.system, game, coop=coop)
            assert [t["turn"] for t in turns] == sorted({e["turn"] for e in game["events"]})
            lines = [line for turn in turns for line in turn["lines"]] + [t["heading"] for t in turns]
            lines += [outcome["words"], outcome["reason"]]
            for line in lines:
                assert not RAW.search(line), f"{lang}: engine text in {line!r}"
                assert "%(" not in line and line.strip()
                if lang == "ja":
                    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", line), f"not Japanese: {line!r}"
            if lang == "en":
                assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", " ".join(lines)), "Japanese on an English page"
            said = sum(1 for e in game["events"] if e["kind"] not in gamereport.silent_kinds(run.system))
            assert len(lines) >= said * 0.5  # every event that matters is worded (draw runs are merged)
    assert seen <= gamereport.known_kinds(run.system), sorted(seen - gamereport.known_kinds(run.system))


def test_a_kind_no_table_knows_still_gets_words(make_list, owner, published):
    namer = gamereport.Namer(system="mwda", cards={})
    with translation.override("en"):
        text = gamereport.sentence("mwda", {"kind": "orbital_strike", "turn": 3, "player": 1,
                                            "data": {"unit": 2, "hit": True}}, namer)
    assert text == "The opponent did something the report cannot put in words yet (orbital strike)."
    with translation.override("ja"):
        text = gamereport.sentence("mwda", {"kind": "orbital_strike", "turn": 3, "player": None, "data": {}}, namer)
    assert "=" not in text and "orbital strike" in text and "出来事" in text


def test_sentences_name_cards_units_and_sides(make_list, owner, owner_client, published):
    run = sample_run(make_list, owner, "mwda")
    game = replay_events(run.snapshot, run.seed, 0)
    with translation.override("en"):
        turns = gamereport.report("mwda", game, run.snapshot["cards"])
    text = "\n".join(line for turn in turns for line in turn["lines"])
    assert "Steel Wolves Strike Troopers 1" in text and "Steel Wolves Strike Troopers 2" in text  # two of one card
    assert turns[0]["heading"] == "Setup" and turns[1]["heading"] == "Round 1 · Turn 1 (you)"
    attack = next(line for line in text.splitlines() if " against defense " in line)
    assert re.search(r"attack \d+ \+ dice [\d+]+, \d+ in all, against defense \d+, a (miss|hit for \d+ damage"
                     r"( \(\d+ of \d+ clicks left\)|: .+ was eliminated \(\d+ points\))?)\.$", attack)  # M15, M16
    page = owner_client.get(f"/simulations/{run.public_id}/games/0/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "ラウンド1・ターン1（あなた）" in page and "を配置（" in page
    assert "結果" in page and f"{run.opponent}<" not in page and "greedy" not in page
    assert run.snapshot["opponent"]["name"] in page  # the opponent by its package name, never its slug


@pytest.mark.parametrize("system", ["mwda", "warcaster"])
def test_tokens_are_labelled_with_unit_names(make_list, owner, owner_client, published, system):
    run = sample_run(make_list, owner, system)
    page = owner_client.get(f"/simulations/{run.public_id}/games/0/").content.decode()
    drawing = drawing_of(page)
    labels = [piece["label"] for piece in drawing["pieces"]]
    names = [piece["name"] for piece in drawing["pieces"]]
    assert len(set(labels)) == len(labels) and len(set(names)) == len(names)  # "Hound 1", "Hound 2"
    for piece in drawing["pieces"]:
        assert not re.fullmatch(r"\d{3}", piece["label"]) and 1 <= len(piece["label"]) <= 4
        assert f'<span class="legend-name">{piece["name"]}</span>' in page.replace("&#x27;", "'")
    if system == "mwda":
        assert "Steel Wolves Strike Troopers 2" in names


def board_sides(board: dict, side: int) -> dict:
    return board["sides"][side]


@pytest.mark.parametrize("system", ["hagmi", "coop"])
def test_the_hagmi_board_counts_follow_the_game(make_list, owner, owner_client, published, system):
    run = sample_run(make_list, owner, system)
    game = replay_events(run.snapshot, run.seed, 1)
    boards = game["boards"]
    turns = sorted({event["turn"] for event in game["events"]})
    assert [board["turn"] for board in boards] == turns  # one board per turn of the report
    you = board_sides(boards[0], 0)
    list_doc = json.loads((PACKAGES / "hagmi" / "lists" / f"{SAMPLES[system][0]}.json").read_text(encoding="utf-8"))
    damage = sum(entry["qty"] for entry in list_doc["sections"]["damage"])
    secret = sum(entry["qty"] for entry in list_doc["sections"].get("secret", []))
    assert (you["hand"], you["damage_deck"], you["secret"], you["units"]) == (4, damage, secret, [])  # opening 2/2
    for board in boards:  # the damage deck left = the deck less every damage card turned up so far
        taken = sum(1 for e in game["events"] if e["kind"] == "damage_player" and e["player"] == 0
                    and e["data"]["card"] and e["turn"] <= board["turn"])
        assert board_sides(board, 0)["damage_deck"] == damage - taken
        for side in (0, 1):  # the units on the battlefield = those that entered less those that left, by the log
            so_far = [e for e in game["events"] if e["player"] == side and e["turn"] <= board["turn"]]
            if any(e["kind"] in ("refit", "design", "return_to_hand") for e in so_far):
                continue  # a unit changed its card or left without a uid in the log
            entered = {e["data"]["uid"] for e in so_far if e["kind"] in ("enter", "beast_enter")}
            left = {e["data"]["uid"] for e in so_far if e["kind"] in ("destroyed", "dismantled")}
            assert {u["uid"] for u in board_sides(board, side)["units"]} == entered - left, board["turn"]
    if system == "coop":
        beasts = board_sides(boards[-1], 1)
        assert beasts["kind"] == "coop" and beasts["mothership"] == "HM-001"
        cores = [e for e in game["events"] if e["kind"] == "life_cores"]
        if cores:
            first = cores[0]
            board = next(b for b in boards if b["turn"] == first["turn"])
            assert board_sides(board, 1)["cores"] <= first["data"]["left"]
    page = owner_client.get(f"/simulations/{run.public_id}/games/1/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    frames = re.findall(r'<section class="board-frame" data-board-frame="(\d+)"[^>]*?( hidden)?>', page)
    assert len(frames) == len(turns) and [hidden for _, hidden in frames].count("") == 1
    assert frames[-1][1] == ""  # without JavaScript: the final board
    final = page[page.index(f'data-board-frame="{len(turns) - 1}"'):]
    last = board_sides(boards[-1], 0)
    assert f"<dt>手札</dt><dd>{last['hand']}</dd>" in final and f"<dt>ダメージデッキ</dt><dd>{last['damage_deck']}</dd>" in final
    assert "秘策" in final and "廃棄" in final
    if system == "coop":
        assert "母艦の機獣核" in final and "機獣側" in final


@pytest.mark.parametrize("system", ["hagmi", "coop"])
def test_watching_the_hagmi_board_keeps_the_game_the_run_counted(make_list, owner, published, system):
    from rules_engine.core.game import play_out
    from rules_engine.simulation import simulator_for

    run = sample_run(make_list, owner, system)
    simulator = simulator_for("hagmi")
    outcomes = []
    for index in range(run.games):
        game = replay_events(run.snapshot, run.seed, index)
        prepared = simulator.prepare(run.snapshot)
        plan = simulator.plan(prepared, run.seed, index)  # the run's game: its seat and streams
        plain = play_out(simulator.new_state(prepared, plan), prepared.policies, plan.policies,
                         max_steps=simulator.max_steps)
        assert game["events"] == plain.events.to_list()
        assert game["record"] == {**simulator.record(plain), "seat": simulator.seat_of(plan, plain)}
        outcomes.append(game["outcome"])
    result = run.result
    assert (outcomes.count("win"), outcomes.count("loss"), outcomes.count("draw")) == (
        result["wins"], result["losses"], result["draws"])


def test_a_hit_its_damage_and_the_kill_read_as_one_sentence():
    namer = gamereport.Namer(system="mwda", cards={}, pieces={0: (0, "Tartan"), 5: (1, "Hound 1")})
    events = [
        {"kind": "turn_start", "turn": 3, "player": 0, "data": {"round": 2, "orders": 3}},
        {"kind": "attack", "turn": 3, "player": 0, "data": {"unit": 0, "target": 5, "attack_kind": "shoot",
                                                            "weapon": "primary", "roll": [6, 1, 2], "attack": 9,
                                                            "defense": 17, "hit": True, "damage": 3}},
        {"kind": "damage", "turn": 3, "player": 1, "data": {"unit": 5, "amount": 3, "click": 3, "clicks": 3,
                                                            "source": 0, "reason": "shoot"}},
        {"kind": "eliminated", "turn": 3, "player": 1, "data": {"unit": 5, "code": "MW-008", "points": 26, "by": 0}},
    ]
    with translation.override("en"):
        [turn] = gamereport.report("mwda", {"events": events}, {}, namer=namer)
    assert turn["heading"] == "Round 2 · Turn 3 (you)"
    assert turn["lines"] == ["Tartan shot at the opponent's Hound 1: attack 9 + dice 6+1+2, 18 in all, against "
                             "defense 17, a hit for 3 damage: the opponent's Hound 1 was eliminated (26 points)."]
    hagmi = gamereport.Namer(system="hagmi", cards={"HS-001": {"name": "紅蓮丸", "name_en": "Guren-maru"}},
                             codes={4: "HS-001"})
    events = [{"kind": "turn_start", "turn": 2, "player": 1, "data": {}},
              {"kind": "damage", "turn": 2, "player": 0, "data": {"unit": 4, "amount": 3, "unreducible": False}},
              {"kind": "destroyed", "turn": 2, "player": 0, "data": {"card": "HS-001", "uid": 4}}]
    with translation.override("ja"):
        [turn] = gamereport.report("hagmi", {"events": events}, hagmi.cards, namer=hagmi)
    assert turn["heading"] == "ターン2（相手）" and turn["lines"] == ["あなたの紅蓮丸が3ダメージを受けて破壊された。"]


def test_w10_a_charging_phases_recalls_read_as_one_sentence_in_both_languages():
    """W10 phase 2: recalls of any amount from several holders (one event per arc) make one sentence; a log from
    before (no "amount": a holder's whole arc) keeps its own."""
    namer = gamereport.Namer(system="warcaster", cards={}, units={2: (0, "Starsteel Infantry")})

    def recall(holder, uid, arc, pool, amount=1):
        return {"kind": "recall", "turn": 4, "player": 0,
                "data": {"holder": holder, "uid": uid, "amount": amount, "arc": arc, "pool": pool}}

    events = [{"kind": "turn_start", "turn": 4, "player": 0, "data": {"round": 1, "turn_in_round": 2}},
              recall("gate", 0, 4, 1), recall("unit", 2, 1, 2), recall("gate", 0, 3, 3), recall("gate", 1, 2, 4)]
    with translation.override("en"):
        [turn] = gamereport.report("warcaster", {"events": events}, {}, namer=namer)
    assert turn["lines"] == ["You recalled 2 arc from void gate 1, 1 arc from Starsteel Infantry and 1 arc from void "
                             "gate 2 (4 in the pool)."]
    with translation.override("ja"):
        [turn] = gamereport.report("warcaster", {"events": events[:3]}, {}, namer=namer)
    assert turn["lines"] == ["あなたはヴォイドゲートからアーク1とStarsteel Infantryからアーク1を回収（プール2）。"]
    old = {"kind": "recall", "turn": 4, "player": 0, "data": {"holder": "gate", "uid": 0, "arc": 0, "pool": 6}}
    with translation.override("en"):
        [turn] = gamereport.report("warcaster", {"events": [events[0], old]}, {}, namer=namer)
    assert turn["lines"] == ["You recalled the arc of a void gate (6 in the pool)."]
