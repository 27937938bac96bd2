"""HAGMI! positions (rules_engine/hagmi/position.py, docs/positions.md "HAGMI!"): every step of the seeded games
(30 on each push, 100 under `dev.py test --full`) exports to a position that loads back to the same legal actions,
the same export, the same next state and the same result; the module knows every field of the state; bad positions
are refused with the path of the bad field; the example file loads, lists its legal actions and draws on the replay
board."""
from __future__ import annotations

import ast
import copy
import json
import random
from pathlib import Path

import pytest

from rules_engine.core.game import play_out
from rules_engine.core.rng import game_rng
from rules_engine.hagmi import position
from rules_engine.hagmi.board import board_of, codes_of
from rules_engine.positions import (
    PositionError, export_position, legal_moves, load_position, play_ids, simulate_position,
)
from rules_engine.simulation import simulator_for
from tests.rules_engine.hagmi import CATALOG
from tests.rules_engine.test_same_games import benchmark_cases
from tests.support.sizes import sized

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = json.loads((ROOT / "docs/positions/hagmi.position.json").read_text(encoding="utf-8"))
CARDS = CATALOG.cards
CASES = [snapshot for label, snapshot in benchmark_cases().items() if snapshot["system"] == "hagmi"]
GAMES_PER_CASE = sized(3, 10)  # of each of the 10 cases: 30 games on each push, 100 under --full


def _load(doc):
    return load_position(doc, CARDS)


# ---- 1. round trip ---------------------------------------------------------------------------------------------


def test_every_step_of_the_seeded_games_round_trips_and_plays_on_the_same():
    """GAMES_PER_CASE games of each benchmark case (akane-assault against the goldfish, both 機獣 sides and both sample decks,
    with the greedy and the random policy): at every step the position loads to the same legal actions and the
    same export, plays the next action to the same state, and from 2 steps per game plays on to the same end."""
    games = steps = 0
    for case, snapshot in enumerate(CASES):
        prepared = simulator_for("hagmi").prepare(snapshot)
        for index in range(GAMES_PER_CASE):
            rng = game_rng(17, case * 100 + index)
            state = prepared.game.new_initial_state(rng)
            picks = random.Random(index)
            replays = []
            while True:
                doc = export_position("hagmi", state)
                assert json.loads(json.dumps(doc)) == doc
                loaded = load_position(doc, snapshot["cards"])
                assert legal_moves(loaded) == legal_moves(state)
                assert export_position("hagmi", loaded) == doc
                if picks.random() < 0.03:
                    replays.append(doc)
                if state.is_terminal():
                    break
                policy = prepared.policies[state.current_player()]
                action = policy.choose(state, state.rng)
                assert policy.choose(loaded, loaded.rng) == action  # the policy draws from the loaded generator too
                state.apply(action)
                loaded.apply(action)
                assert export_position("hagmi", loaded) == export_position("hagmi", state)
                steps += 1
            for doc in replays[:2]:
                again = load_position(doc, snapshot["cards"])
                play_out(again, prepared.policies, again.rng, 200_000)
                assert (again.winner, again.end_reason, again.turn) == (state.winner, state.end_reason, state.turn)
            games += 1
    assert games == GAMES_PER_CASE * len(CASES) == sized(30, 100) and steps > 20 * games


# ---- 2. the module knows every field ---------------------------------------------------------------------------


def _class(module: str, name: str) -> ast.ClassDef:
    tree = ast.parse((ROOT / "rules_engine/hagmi" / f"{module}.py").read_text(encoding="utf-8"))
    return next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == name)


def _annotated(cls: ast.ClassDef) -> set[str]:
    return {node.target.id for node in cls.body
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)}


def _assigned_to_self(cls: ast.ClassDef, method: str) -> set[str]:
    function = next(node for node in cls.body if isinstance(node, ast.FunctionDef) and node.name == method)
    found = set()
    for node in ast.walk(function):
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AnnAssign) else [])
        for target in targets:
            for leaf in ast.walk(target):
                if isinstance(leaf, ast.Attribute) and isinstance(leaf.value, ast.Name) and leaf.value.id == "self":
                    found.add(leaf.attr)
    return found


def test_position_module_knows_every_field_of_the_state_and_its_pieces():
    """A new field of HagmiState (or Table), Unit, Player, BeastSide or Combat fails here, by name, until
    position.py writes and reads it."""
    state_fields = _assigned_to_self(_class("game", "HagmiState"), "__init__") | _annotated(_class("state", "Table"))
    assert state_fields == position.STATE_FIELDS
    assert _assigned_to_self(_class("game", "HagmiState"), "_copy_from") <= position.STATE_FIELDS
    assert _annotated(_class("state", "Unit")) == position.UNIT_FIELDS
    assert _annotated(_class("state", "Player")) == position.PLAYER_FIELDS
    assert _annotated(_class("beasts", "BeastSide")) == position.BEAST_FIELDS
    assert _annotated(_class("combat", "Combat")) == position.COMBAT_FIELDS


# ---- 3. the example and hand-written positions ------------------------------------------------------------------


def test_the_example_loads_with_its_uids_and_lists_its_legal_actions():
    state = _load(EXAMPLE)
    me, them = state.players
    assert (state.turn, state.active, state.decision) == (5, 0, ("main", 0))
    assert [u.uid for u in me.units] == [1, 5] and me.units[1].damage == 1 and them.units[1].down
    assert me.durability == {4: 1} and state.armor_left(me.units[1]) == 2
    assert them.facilities == [16] and state.armor(them.units[0]) == 7  # 鉄壁号 6 + 整備ドック
    # bare codes are numbered after the highest explicit uid (31), in the order of the document
    assert me.weapons == [32, 33, 34] and state.cards[32].code == "HS-022"
    ids = [move["id"] for move in legal_moves(state)]
    assert "play:22:21:10" in ids and ids[-1] == "battle"  # 狙撃指令 at 鉄壁号, paying with 補給物資
    assert state.events.to_list() == []  # a position carries no history
    again = _load(export_position("hagmi", state))
    assert legal_moves(again) == legal_moves(state)


def test_the_example_is_the_one_in_docs_positions_md():
    text = (ROOT / "docs/positions.md").read_text(encoding="utf-8")
    section = text[text.index("## HAGMI!"):]
    block = section[section.index("```json") + len("```json"):]
    assert json.loads(block[:block.index("```")]) == EXAMPLE


def test_the_example_plays_by_ids_and_simulates():
    state = _load(EXAMPLE)
    # 紅蓮丸 (4 with ロングバレル) at the downed 蒼穹の眼 (armor 2): 鉄壁号 may intercept, then a 緊急 window (H10)
    events = play_ids(state, ["battle", "attack:1:14"])
    assert [e["kind"] for e in events] == ["battle_phase", "attack"]
    assert state.decision == ("defend", 1) and [m["id"] for m in legal_moves(state)] == ["intercept:10", "no_defend"]
    play_ids(state, ["no_defend"])
    assert state.decision == ("emergency", 1) and legal_moves(state)[-1]["id"] == "pass"
    play_ids(state, ["pass"])
    assert state.find_unit(14) is None and 14 in state.players[1].discard
    result = simulate_position(EXAMPLE, CARDS, games=4, seed=1)
    assert result["games"] == 4


def test_the_replay_board_reads_a_loaded_state():
    """rules_engine/hagmi/board.py: board_of(state) and codes_of(state) work on one loaded state."""
    state = _load(EXAMPLE)
    board = board_of(state)
    assert board["turn"] == 5 and [u["code"] for u in board["sides"][1]["units"]] == ["HS-008", "HS-003"]
    assert board["sides"][0]["units"][0]["armaments"] == [{"code": "HS-025", "durability": 1}]
    assert codes_of(state)[20] == "HS-013" and codes_of(state)[0] == ""  # uid 0 is used by no card


def _combat_doc(kind: str, **combat) -> dict:
    doc = copy.deepcopy(EXAMPLE)
    doc["decision"] = {"kind": kind, "player": 1}
    doc["combat"] = {"attacker": "HS-016", "targets": [], "target": "HS-008", **combat}
    return doc


def test_a_defence_decision_loads_with_the_attack_in_progress():
    """H10, H11: the attacked player counters, intercepts or lets it through; the attacker is found by its code."""
    state = _load(_combat_doc("defend"))
    assert state.combat.attacker == 5 and state.combat.side == 0
    assert [move["id"] for move in legal_moves(state)] == ["counter", "no_defend"]  # 蒼穹の眼 is down
    play_ids(state, ["counter"])
    assert any(e.kind == "defend" for e in state.events)


def test_an_emergency_window_gets_h11s_schedule_when_none_is_given():
    """H10: between two hits of ツインファング's 2×2 the attacked player may play 緊急 cards; H11: same range, hit
    for hit, so the schedule is two exchanges of simultaneous hits."""
    state = _load(_combat_doc("emergency", defender="HS-008#10", exchange=1))
    assert state.combat.schedule == [[["A", "D"]], [["A"]]]
    ids = [move["id"] for move in legal_moves(state)]
    assert ids[-1] == "pass" and any(i.startswith("play:30:") for i in ids)  # 照明弾


def test_a_coop_position_loads_with_its_beasts_and_cores():
    doc = {"format": "hangar.position/1", "system": "hagmi", "opponent": {"kind": "coop", "mothership": "HM-001"},
           "turn": 3, "decision": "battle",
           "sides": [{"units": [{"card": "HS-009", "fuel": []}], "damage_deck": ["HS-049"]},
                     {"cores": 7, "beasts": [{"card": "HB-007", "cores": 1}], "chargers": ["HB-005"],
                      "deck": ["HB-001", "HB-002"]}]}
    state = _load(doc)
    assert state.beasts.cores == 7 and state.beasts.beasts[0].cores == 1 and state.beasts.index == 1
    hound, beast = state.players[0].units[0].uid, state.beasts.beasts[0].uid
    assert [move["id"] for move in legal_moves(state)] == [f"attack:{hound}:{beast}", f"attack:{hound}:mothership.1",
                                                          "end"]  # H34: the mothership is a target too
    assert board_of(state)["sides"][1]["cores"] == 7
    assert _load(export_position("hagmi", state)).beasts.cores == 7


# ---- 4. bad positions ------------------------------------------------------------------------------------------


def _coop(**side) -> dict:
    return {"format": "hangar.position/1", "system": "hagmi", "opponent": {"kind": "coop", "mothership": "HM-001"},
            "turn": 2, "decision": "main", "sides": [{}, {"cores": 5, **side}]}


def _set(path: str, value):
    doc = copy.deepcopy(EXAMPLE)
    target = doc
    keys = path.replace("[", ".").replace("]", "").split(".")
    for key in keys[:-1]:
        target = target[int(key)] if key.isdigit() else target[key]
    last = keys[-1]
    if value is KeyError:
        del target[int(last) if last.isdigit() else last]
    else:
        target[int(last) if last.isdigit() else last] = value
    return doc


BAD = [
    # unknown codes, uids, wrong types
    ("unknown card", _set("sides.0.hand.0", "XX-001"), "sides[0].hand[0]", "unknown card code"),
    ("duplicate uid", _set("sides.1.hand.0", "HS-030#20"), "sides[1].hand[0]", "already used at sides[0].hand[0]"),
    ("card not a string", _set("sides.0.hand.1", 21), "sides[0].hand[1]", "expected a card"),
    ("zone not a list", _set("sides.0.tactics", "HS-043"), "sides[0].tactics", "expected a list"),
    ("sides", _set("sides", [{}]), "sides", "two sides"),
    ("unknown field", _set("sides.0.graveyard", []), "sides[0].graveyard", "unknown field"),
    ("unknown top field", _set("phase", "main"), "phase", "unknown field (known: format, system, random, note,"),
    ("turn type", _set("turn", "5"), "turn", 'expected an integer 1 … 60, got "5"'),
    ("down type", _set("sides.1.units.1.down", "yes"), "sides[1].units[1].down", 'expected true or false, got "yes"'),
    ("mod shape", _set("sides.0.units.0.mods", [["speed", 1, "turn"]]), "sides[0].units[0].mods[0]", "stat"),
    ("shield shape", _set("sides.0.units.0.shields", [["reduce", -1]]), "sides[0].units[0].shields[0]", "kind"),
    ("flag", _set("sides.0.units.0.flags", ["flying"]), "sides[0].units[0].flags[0]", "first_strike"),
    # cards in the wrong zone (H3, H7, units, armaments, facilities, 機獣, 母艦)
    ("tactic in weapons deck", _set("sides.0.weapons.0", "HS-043"), "sides[0].weapons[0]", "H3"),
    ("design in a deck", _set("sides.0.weapons.0", "HS-060"), "sides[0].weapons[0]", "秘策 only"),
    ("tactic as a unit", _set("sides.0.units.1.card", "HS-043#5"), "sides[0].units[1].card", "not a unit"),
    ("unit as an armament", _set("sides.0.units.0.armaments.0", "HS-009#4"), "sides[0].units[0].armaments[0].card",
     "not an armament"),
    ("order as a facility", _set("sides.1.facilities.0", "HS-036#16"), "sides[1].facilities[0]", "not a facility"),
    ("beast in hand", _set("sides.0.hand.3", "HB-001"), "sides[0].hand[3]", "機獣"),
    ("mothership in discard", _set("sides.0.discard.0", "HM-001"), "sides[0].discard[0]", "opponent.mothership"),
    # counts that break a rule
    ("negative damage", _set("sides.0.units.1.damage", -1), "sides[0].units[1].damage", "≥ 0"),
    ("durability above the card's", _set("sides.0.units.0.armaments.0.durability", 3),
     "sides[0].units[0].armaments[0].durability", "0 … 2"),
    ("negative durability", _set("sides.0.units.0.armaments.0.durability", -1),
     "sides[0].units[0].armaments[0].durability", "0 … 2"),
    ("fuel above cost", _set("sides.0.units.0.fuel", ["HS-037#2", "HS-045#3", "HS-044"]), "sides[0].units[0].fuel",
     "above the cost"),
    ("cores on a unit", _set("sides.0.units.0.cores", 1), "sides[0].units[0].cores", "0 … 0"),
    ("turn past the limit", _set("turn", 61), "turn", "1 … 60"),
    ("presence counter", _set("presence_counter", 1), "presence_counter", "below a unit's presence"),
    # decisions and the combat
    ("unknown decision", _set("decision", {"kind": "draw"}), "decision.kind", "expected one of"),
    ("defend without combat", _set("decision", {"kind": "defend", "player": 1}), "decision.kind", "needs the attack"),
    ("emergency without combat", _set("decision", "emergency"), "decision.kind", "needs the attack"),
    ("active out of range", _set("active", 2), "active", "0 … 1"),
    ("not the active player", _set("decision", {"kind": "main", "player": 1}), "decision.player", "active player"),
    ("no decision", _set("decision", None), "decision", "waits for a decision"),
    ("decision after the end", _set("result", {"winner": 0, "reason": "damage with an empty damage deck"}),
     "decision", "must be null"),
    ("bad end reason", _set("result", {"winner": 0, "reason": "eliminated"}), "result.reason", "expected one of"),
    ("combat in the main phase", _set("combat", {"attacker": "HS-001#1", "targets": []}), "combat", "only during"),
    ("attacker not a unit", _combat_doc("defend", attacker="HS-029#21"), "combat.attacker", "not a unit of side 0"),
    ("ambiguous attacker", _combat_doc("defend", attacker="HS-022"), "combat.attacker", "0 units"),
    ("no target", _combat_doc("defend", target=None), "combat.target", "missing"),
    ("bad target", _combat_doc("defend", targets=[["player", 3]]), "combat.targets[0]", '["player", 0 or 1]'),
    ("unknown target uid", _combat_doc("defend", target="HS-008#99"), "combat.target", "no card"),
    ("schedule", _combat_doc("emergency", schedule=[[["A", "X"]]]), "combat.schedule[0][0]", '["A"]'),
    ("emergency after the last hit", _combat_doc("emergency", exchange=2), "combat.exchange", "a hit still to come"),
    ("the wrong side defends", _combat_doc("defend") | {"decision": {"kind": "defend", "player": 0}},
     "decision.player", "the attacked player"),
    # options and the opponent
    ("unknown option", _set("options", {"hand_limit": 7}), "options.hand_limit", "unknown option"),
    ("option type", _set("options", {"max_turns": "60"}), "options.max_turns", "expected int"),
    ("option choice", _set("options", {"damage_clears": "sometimes"}), "options.damage_clears", "expected one of"),
    ("opening split", _set("options", {"opening_split": "two"}), "options.opening_split", "W/T"),
    ("opponent kind", _set("opponent", {"kind": "robot"}), "opponent.kind",
     'expected one of "goldfish", "deck", "coop", got "robot"'),
    ("mothership", _set("opponent", {"kind": "coop", "mothership": "HB-001"}), "opponent.mothership", "母艦"),
    ("unknown mothership", _set("opponent", {"kind": "coop", "mothership": "HM-999"}), "opponent.mothership",
     "unknown card code"),
    ("goldfish decides", _set("opponent", {"kind": "goldfish"}) | {"active": 1, "decision": "main"},
     "decision.player", "never decides"),
    # the 機獣 side (H30–H33)
    ("more cores than the mothership", _coop(cores=9, beasts=[{"card": "HB-007", "cores": 2}]), "sides[1].cores",
     "has 10"),
    ("cores above the mothership's", _coop(cores=11), "sides[1].cores", "0 … 10"),
    ("players have won", _coop(cores=0), "sides[1].cores", "H33"),
    ("unit on the 機獣 side", _coop(beasts=["HS-009"]), "sides[1].beasts[0].card", "only 機獣"),
    ("beast on a player's side", _coop() | {"sides": [{"units": ["HB-001"]}, {"cores": 5}]}, "sides[0].units[0].card",
     "機獣"),
    ("beast with fuel", _coop(beasts=[{"card": "HB-001", "fuel": ["HS-009"]}]), "sides[1].beasts[0].fuel", "no fuel"),
    ("attrition index", _coop(attrition_fired=[5]), "sides[1].attrition_fired[0]", "attrition"),
    ("coop side decides", _coop() | {"active": 1}, "decision.player", "never decides"),
    ("a unit in the beast queue",
     _coop() | {"beast_queue": ["HS-009#4"], "sides": [{"units": ["HS-009#4"]}, {"cores": 5}]}, "beast_queue[0]",
     "only 機獣"),
]


@pytest.mark.parametrize("doc, path, words", [case[1:] for case in BAD], ids=[case[0] for case in BAD])
def test_a_bad_position_is_refused_with_the_path_of_the_bad_field(doc, path, words):
    with pytest.raises(PositionError) as raised:
        _load(doc)
    assert raised.value.path == path, raised.value
    assert words in raised.value.message, raised.value


def test_the_bad_positions_differ_from_a_good_one_only_where_they_say():
    """The cases above are single faults: the example and the co-op skeleton load."""
    _load(EXAMPLE)
    _load(_coop())
