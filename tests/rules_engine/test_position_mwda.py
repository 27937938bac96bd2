"""MechWarrior: Dark Age positions (rules_engine/mwda/position.py, docs/positions.md): every step of 100 seeded
games exports to a position that loads back to the same legal actions and plays on exactly as the original; the
module knows every field of the state; each kind of bad position is refused with the path of its bad field; the
example file (the one in docs/positions.md) loads."""
from __future__ import annotations

import ast
import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from rules_engine.core.game import play_out
from rules_engine.core.policies import get_policy
from rules_engine.core.rng import game_rng
from rules_engine.mwda import position
from rules_engine.mwda.game import MwdaGame
from rules_engine.positions import PositionError, export_position, legal_moves, load_position, play_ids
from tests.rules_engine.mwda import CARDS, LISTS, OPPONENTS
from tests.support.sizes import sized

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "positions" / "mwda.position.json"
PAIRS = [(lst, opp) for lst in LISTS for opp in OPPONENTS]  # 3 lists × 4 opponents (one a goldfish)
GAMES = sized(24, 100)  # 24: every pair twice, games 0, 10 and 20 greedy (docs/testing.md)
GREEDY_EVERY = 10  # game 0, 10, 20, …: both players greedy; the others random
PLAY_ON_STEPS = 3  # per game, this many steps are played on to the end from their position


def _json(doc: dict[str, Any]) -> dict[str, Any]:
    """Through JSON text and back: the position is plain JSON."""
    return json.loads(json.dumps(doc, ensure_ascii=False))


def _outcome(state) -> tuple:
    return state.winner, state.end_reason, state.turn, state.round


# ---- 1. round trip -------------------------------------------------------------------------------------------


def test_every_step_of_the_seeded_games_round_trips_and_plays_on_the_same():
    """At every step, the exported position loads to the same legal actions and the same export; the
    policy chooses the same action from it, which logs the same events and leads to the same next position; and a
    few steps per game, played on to the end from the position, give the original game's outcome."""
    steps = played_on = 0
    for index in range(GAMES):
        lst, opp = PAIRS[index % len(PAIRS)]
        game = MwdaGame(LISTS[lst], CARDS, OPPONENTS[opp])
        policy = get_policy("mwda-greedy" if index % GREEDY_EVERY == 0 else "random")
        state = game.new_initial_state(game_rng(17, index))
        checks: list[tuple[int, dict[str, Any]]] = []  # (step, position) to play on once the game is over
        step = 0
        while True:
            doc = _json(export_position("mwda", state))
            twin = load_position(doc, CARDS)
            assert legal_moves(twin) == legal_moves(state), (index, step)
            assert export_position("mwda", twin) == doc, (index, step)
            assert twin.events.to_list() == []  # a position carries no history
            if state.is_terminal():
                break
            if step % 23 == 0 and len(checks) < PLAY_ON_STEPS:  # the start, then every 23rd
                checks.append((step, doc))
            action = policy.choose(state, state.rng)
            assert policy.choose(twin, twin.rng) == action, (index, step)
            before = len(state.events.to_list())
            state.apply(action)
            twin.apply(action)
            assert twin.events.to_list() == state.events.to_list()[before:], (index, step)
            assert export_position("mwda", twin) == export_position("mwda", state), (index, step)
            step += 1
            steps += 1
        for at, doc in checks:
            again = load_position(doc, CARDS)
            play_out(again, [policy, policy], again.rng, max_steps=20_000)
            assert _outcome(again) == _outcome(state), (index, at)
            played_on += 1
    assert steps > 30 * GAMES and played_on > 2 * GAMES  # ~40 steps a game


def test_an_exported_position_is_plain_json_in_a_fixed_key_order():
    game = MwdaGame(LISTS["republic-knight-guard"], CARDS, OPPONENTS["goldfish"])
    state = game.new_initial_state(random.Random(4))
    doc = export_position("mwda", state)
    assert _json(doc) == doc
    assert list(doc) == ["format", "system", "options", "opponent", "table", "round", "turn", "first", "active",
                         "phase", "orders_left", "sides", "random"]
    assert doc["opponent"] == {"kind": "goldfish"} and doc["sides"][0]["orders"] == 4  # M2: 288 points + HQ
    assert list(doc["sides"][0]["units"][0]) == ["uid", "code", "name", "at", "click", "heat", "tokens", "ordered",
                                                 "damage_dealt"]
    assert doc["table"]["layout"] == state.layout.name and doc["table"]["size"] == 36.0


# ---- 2. the module knows every field -------------------------------------------------------------------------


def _self_attributes(path: Path, class_name: str) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    cls = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == class_name)
    names = set()
    for node in ast.walk(cls):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, ast.AnnAssign) else []
        for target in targets:
            for leaf in ast.walk(target):
                if isinstance(leaf, ast.Attribute) and isinstance(leaf.value, ast.Name) and leaf.value.id == "self":
                    names.add(leaf.attr)
    return names


def test_the_position_module_knows_every_field_of_the_state_and_of_a_unit():
    """A field added to Table, MwdaState or Unit later fails here, naming it, until position.py keeps it."""
    engine = ROOT / "rules_engine" / "mwda"
    fields = _self_attributes(engine / "state.py", "Table") | _self_attributes(engine / "game.py", "MwdaState")
    assert fields - set(position.STATE_FIELDS) == set(), "state fields position.py does not handle"
    assert set(position.STATE_FIELDS) - fields == set(), "position.py names fields the state no longer has"
    state = load_position(json.loads(EXAMPLE.read_text(encoding="utf-8")), CARDS)
    if hasattr(state, "__dict__"):  # pure Python: the attributes the state really carries
        assert set(vars(state)) == set(position.STATE_FIELDS)
    tree = ast.parse((engine / "state.py").read_text(encoding="utf-8"))
    unit = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "Unit")
    slots = next(node.value for node in unit.body if isinstance(node, ast.Assign)
                 and ast.unparse(node.targets[0]) == "__slots__")
    assert tuple(ast.literal_eval(slots)) == position.UNIT_FIELDS


# ---- 3. bad positions ----------------------------------------------------------------------------------------


def _example() -> dict[str, Any]:
    return json.loads(EXAMPLE.read_text(encoding="utf-8"))


def _set(doc: dict[str, Any], path: str, value: Any) -> None:
    """Set the field at a dotted path with [i] items (`sides[0].units[1].at`); value DELETE removes it."""
    keys = [int(part) if part.isdigit() else part for part in re.findall(r"[^.\[\]]+", path)]
    where: Any = doc
    for key in keys[:-1]:
        where = where[key]
    if value is DELETE:
        del where[keys[-1]]
    else:
        where[keys[-1]] = value


DELETE = object()
U0 = "sides[0].units[0]"  # Tartan (MW-019), a mech: 8 clicks, shutdown at heat 4, ordered this turn
U1 = "sides[0].units[1]"  # the heavy tank (MW-020): a vehicle on a large base (radius 1″)
U3 = "sides[1].units[0]"  # Rouga (MW-010), a mech: 6 clicks

BAD = [
    # (what, [(path, value), ...], the path the error names)
    ("unknown top-level field", [("colour", "red")], "colour"),
    ("unknown option", [("options.fog", True)], "options.fog"),
    ("option of the wrong type", [("options.max_rounds", "ten")], "options.max_rounds"),
    ("first_player true is not a player", [("options.first_player", True)], "options.first_player"),
    ("opponent kind", [("opponent", {"kind": "ghosts"})], "opponent.kind"),
    ("list not an object", [("list", [1])], "list"),
    ("unknown layout", [("table.layout", "moon")], "table.layout"),
    ("table size", [("table.size", 48)], "table.size"),
    ("deploy depth", [("table.deploy_depth", 6)], "table.deploy_depth"),
    ("terrain of a known layout changed", [("table.terrain", [])], "table.terrain"),
    ("terrain kind", [("table.layout", "mine"), ("table.terrain", [{"shape": "circle", "kind": "lava", "cx": 1,
                                                                     "cy": 1, "r": 1}])], "table.terrain[0].kind"),
    ("terrain shape", [("table.layout", "mine"), ("table.terrain", [{"shape": "star"}])], "table.terrain[0].shape"),
    ("sides not two", [("sides", [{}])], "sides"),
    ("side not an object", [("sides", [{"units": []}, 3])], "sides[1]"),
    ("side field", [("sides[0].colour", "red")], "sides[0].colour"),
    ("units not a list", [("sides[0].units", {})], "sides[0].units"),
    ("a side with no units", [("sides", [{"units": []}, {"units": [{"code": "MW-010", "at": [14, 22]}]}])],
     "sides[0].units"),
    ("unknown unit code", [(f"{U0}.code", "XX-001")], f"{U0}.code"),
    ("unit code missing", [(f"{U0}.code", DELETE)], f"{U0}.code"),
    ("unit field", [(f"{U0}.facing", 90)], f"{U0}.facing"),
    ("uid twice", [(f"{U1}.uid", 0)], f"{U1}.uid"),
    ("uid past the units", [(f"{U1}.uid", 8)], f"{U1}.uid"),
    ("uid a string", [(f"{U1}.uid", "1")], f"{U1}.uid"),
    ("at not a pair", [(f"{U0}.at", [1.0])], f"{U0}.at"),
    ("at a string", [(f"{U0}.at", ["a", 2.0])], f"{U0}.at[0]"),
    ("at missing", [(f"{U0}.at", DELETE)], f"{U0}.at"),
    ("off the table", [(f"{U0}.at", [35.8, 9.0])], f"{U0}.at"),
    ("off the table by a large base", [(f"{U1}.at", [24.0, 0.9])], f"{U1}.at"),
    ("on blocking terrain", [(f"{U0}.at", [7.0, 16.0])], f"{U0}.at"),
    ("overlapping bases", [(f"{U1}.at", [18.0, 9.5])], f"{U1}.at"),
    ("click past the dial", [(f"{U0}.click", 8)], f"{U0}.click"),
    ("negative click", [(f"{U0}.click", -1)], f"{U0}.click"),
    ("click a float", [(f"{U0}.click", 1.0)], f"{U0}.click"),
    ("eliminated click past the end", [("sides[1].eliminated[0].click", 4)], "sides[1].eliminated[0].click"),
    ("heat at the shutdown click", [(f"{U0}.heat", 4)], f"{U0}.heat"),
    ("negative heat", [(f"{U3}.heat", -1)], f"{U3}.heat"),
    ("heat on a vehicle", [(f"{U1}.heat", 1)], f"{U1}.heat"),
    ("three tokens", [(f"{U1}.tokens", 3)], f"{U1}.tokens"),
    ("tokens on an eliminated unit", [("sides[1].eliminated[0].tokens", 1)], "sides[1].eliminated[0].tokens"),
    ("ordered not a bool", [(f"{U1}.ordered", 1)], f"{U1}.ordered"),
    ("name not a string", [(f"{U1}.name", 5)], f"{U1}.name"),
    ("more orders than M2 allows", [("sides[0].orders", 4)], "sides[0].orders"),
    ("no orders", [("sides[0].orders", 0)], "sides[0].orders"),
    ("points destroyed not the eliminated units'", [("sides[0].points_destroyed", 100)], "sides[0].points_destroyed"),
    ("negative shutdowns", [("sides[1].shutdowns", -2)], "sides[1].shutdowns"),
    ("unknown phase", [("phase", "movement")], "phase"),
    ("phase over with no result", [("phase", "over")], "result"),
    ("a result while orders are given", [("result", {"winner": 0, "reason": "rounds"})], "result"),
    ("over by elimination with both sides standing", [("phase", "over"), ("result", {"winner": 0,
                                                      "reason": "eliminated"})], "result.reason"),
    ("over by rounds with the wrong winner", [("phase", "over"), ("result", {"winner": 1, "reason": "rounds"})],
     "result.winner"),
    ("unknown end reason", [("phase", "over"), ("result", {"winner": 0, "reason": "boredom"})], "result.reason"),
    ("round past max_rounds", [("round", 11)], "round"),
    ("round zero", [("round", 0)], "round"),
    ("turn that does not match round and player", [("turn", 4)], "turn"),
    ("active not a player", [("active", 2)], "active"),
    ("first against the first_player option", [("first", 1)], "first"),
    ("a goldfish to play", [("opponent", {"kind": "goldfish"}), ("active", 1), (f"{U0}.ordered", False)], "active"),
    ("orders left above the order count", [("orders_left", 3)], "orders_left"),
    ("no order left", [("orders_left", 0)], "orders_left"),
    ("an ordered unit of the player not to play", [(f"{U3}.ordered", True)], f"{U3}.ordered"),
    ("every order used", [(f"{U1}.ordered", True), (f"{U1}.tokens", 1), ("sides[0].units[2].ordered", True),
                          ("orders_left", DELETE)], "orders_left"),
    ("no unit can be ordered", [(f"{U1}.tokens", 2), ("sides[0].units[2].tokens", 2)], "sides[0].units"),
    ("a side eliminated but the battle goes on", [("sides[1].eliminated", [{"code": c} for c in
                                                  ("MW-008", "MW-010", "MW-012", "MW-008", "MW-009")]),
                                                  ("sides[1].units", [])],
     "sides[1].units"),
]


@pytest.mark.parametrize("what, changes, path", BAD, ids=[case[0] for case in BAD])
def test_a_bad_position_is_refused_with_the_path_of_its_bad_field(what, changes, path):
    doc = _example()
    for where, value in changes:
        _set(doc, where, value)
    with pytest.raises(PositionError) as caught:
        load_position(doc, CARDS)
    assert caught.value.path == path, caught.value
    assert caught.value.message and "Error:" not in caught.value.message  # checked by position.py, not a crash


def test_a_bad_card_is_refused_with_its_unit_path():
    cards = copy.deepcopy(CARDS)
    cards["MW-020"]["dial"] = []
    with pytest.raises(PositionError) as caught:
        load_position(_example(), cards)
    assert caught.value.path == "sides[0].units[1].code" and "dial" in caught.value.message


def test_options_differ_from_the_defaults_only_and_unknown_ones_are_refused():
    doc = _example()
    doc["options"] = {"max_rounds": 5, "breakaway_from": "enemy", "first_player": 0}
    state = load_position(doc, CARDS)
    assert (state.options["max_rounds"], state.options["breakaway_from"]) == (5, "enemy")
    assert export_position("mwda", state)["options"] == doc["options"]


# ---- hand-written positions: the defaults ----------------------------------------------------------------------


def test_a_hand_written_position_needs_only_codes_and_places():
    """Defaults: an empty table, player 0 first and to play in round 1, uids in order, no damage, heat, tokens or
    orders given; M2's order count from the units' points; points destroyed from the eliminated units."""
    doc = {"format": "hangar.position/1", "system": "mwda",
           "sides": [{"units": [{"code": "MW-019", "at": [10, 4]}, {"code": "MW-017", "at": [20, 4]}]},
                     {"units": [{"code": "MW-010", "at": [18, 30]}], "eliminated": [{"code": "MW-008"}]}]}
    state = load_position(doc, CARDS)
    assert [u.spec.code for u in state.units] == ["MW-019", "MW-017", "MW-010", "MW-008"]
    assert [u.alive for u in state.units] == [True, True, True, False]
    assert state.layout.name == "empty" and state.layout.shapes == ()
    assert (state.turn, state.round, state.first, state.active, state.orders_left) == (1, 1, 0, 0, 3)
    assert state.orders == (3, 2) and state.points_destroyed == [26, 0]
    assert state.units[3].click == 3 and state.units[0].x == 10.0
    assert state.rng.random() == random.Random(0).random()  # no "random": seed 0
    written = export_position("mwda", state)
    assert load_position(written, CARDS).legal_actions() == load_position(doc, CARDS).legal_actions()


def test_a_finished_battle_loads_with_no_legal_action():
    doc = _example()
    doc.update(phase="over", result={"winner": 0, "reason": "rounds"}, orders_left=0)
    state = load_position(doc, CARDS)
    assert state.is_terminal() and state.outcome() == (0, "rounds") and legal_moves(state) == []


def test_a_custom_layout_keeps_its_terrain():
    doc = _example()
    doc["table"] = {"layout": "one-wood", "terrain": [{"shape": "circle", "kind": "hindering", "cx": 18, "cy": 18,
                                                       "r": 3}]}
    state = load_position(doc, CARDS)
    assert state.layout.name == "one-wood" and state.layout.hinders[0].r == 3.0
    assert export_position("mwda", state)["table"]["terrain"] == [{"shape": "circle", "kind": "hindering",
                                                                   "cx": 18.0, "cy": 18.0, "r": 3.0}]


# ---- 4. the example ----------------------------------------------------------------------------------------------


def test_the_example_loads_plays_and_is_the_one_in_the_docs():
    text = (ROOT / "docs" / "positions.md").read_text(encoding="utf-8")
    section = text.split("## MechWarrior: Dark Age", 1)[1].split("\n## ", 1)[0]
    shown = re.search(r"```json\n(.*?)\n```", section, re.S)
    assert shown is not None and json.loads(shown.group(1)) == _example()
    state = load_position(_example(), CARDS)
    assert (state.round, state.turn, state.active, state.orders_left) == (3, 5, 0, 2)
    assert state.units[0].heat == 1 and state.ordered == {0} and not state.units[6].alive
    assert state.points_destroyed == [26, 0]
    ids = [move["id"] for move in legal_moves(state)]
    assert "shoot:1:5:0" in ids and not any(i.startswith(("move:0:", "shoot:0:")) for i in ids)  # M10: ordered
    events = play_ids(state, ["shoot:1:5:0"])
    assert [e["kind"] for e in events][:2] == ["order", "attack"] and state.orders_left == 1
