"""Warcaster positions (`hangar.position/1`, rules_engine/warcaster/position.py, docs/positions.md): every step of
the seeded games (20 on each push: every list against every opponent; 100 under `dev.py test --full`) exports to a position that loads back to the same legal actions and plays on exactly as the game
did; the position module knows every field of the engine's pieces; each kind of bad position is refused with the
path of its bad field; the docs' example loads."""
from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest

from rules_engine.core.game import play_out
from rules_engine.core.policies import get_policy
from rules_engine.core.rng import game_rng
from rules_engine.positions import PositionError, export_position, legal_moves, load_position
from rules_engine.warcaster import position
from rules_engine.warcaster.game import WarcasterGame
from rules_engine.warcaster.state import invariant_problems
from tests.rules_engine.warcaster import CARDS, LISTS, OPPONENTS, force_list
from tests.support.sizes import sized

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "positions" / "warcaster.position.json"
GAMES = sized(20, 100)  # 20: each of the 4 lists against each of the 5 opponents once, games 9 and 19 greedy
PLAYOUT_EVERY = 70  # from step 35, 105, … of each game (about 2 a game), a loaded position is played to the end


def _case(index: int) -> tuple[WarcasterGame, str]:
    """Game `index`: the lists and opponents in turn; every tenth with the greedy policy, the others random."""
    lists, opponents = sorted(LISTS), sorted(OPPONENTS)
    game = WarcasterGame(LISTS[lists[index % len(lists)]], CARDS,
                         OPPONENTS[opponents[(index // len(lists)) % len(opponents)]])
    return game, "warcaster-greedy" if index % 10 == 9 else "random"


def test_every_step_of_the_seeded_games_exports_loads_and_plays_on_the_same():
    """The issue's round trip: at every step, export → load gives the same legal actions and the same position;
    the policy chooses the same action on both (the policies use the state's generator, as runs do), and after it
    both positions are the same again; from a few steps per game, the loaded position played to the end with the
    same policy ends exactly as the game did (its final position, winner, end reason and turn)."""
    kinds: set[str] = set()
    steps = played_out = 0
    for index in range(GAMES):
        game, name = _case(index)
        policy = get_policy(name)
        state = game.new_initial_state(game_rng(17, index))
        playouts = []
        step = 0
        while not state.is_terminal():
            doc = export_position("warcaster", state)
            loaded = load_position(doc, CARDS)
            assert legal_moves(loaded) == legal_moves(state), (index, step)
            assert export_position("warcaster", loaded) == doc, (index, step)
            assert invariant_problems(loaded) == []
            if step % PLAYOUT_EVERY == PLAYOUT_EVERY // 2:
                playouts.append(load_position(doc, CARDS))
            action = policy.choose(state, state.rng)
            assert policy.choose(loaded, loaded.rng) == action, (index, step)
            state.apply(action)
            loaded.apply(action)
            assert export_position("warcaster", loaded) == export_position("warcaster", state), (index, step)
            kinds.add(doc["turn"]["phase"])
            step += 1
        steps += step
        played_out += len(playouts)
        final = export_position("warcaster", state)
        ended = load_position(final, CARDS)
        assert ended.is_terminal() and legal_moves(ended) == [] and export_position("warcaster", ended) == final
        for played in playouts:
            play_out(played, [policy, policy], played.rng)
            assert played.outcome() == state.outcome() and played.turn == state.turn
            assert export_position("warcaster", played) == final
    assert steps > 100 * GAMES and played_out > 1.5 * GAMES, (steps, played_out)  # ~130 steps a game
    assert kinds >= {"charge", "cypher1", "activate", "move", "act", "solo", "cypher2", "deploy", "gate", "discard"}


def test_units_the_sample_lists_do_not_have_round_trip_too():
    """An attachment no hero of the list takes (a solo of its own), an attachment with the first of the two heroes
    it may join, two warjacks of one chassis with different loadouts, a goldfish warjack without one: a few random
    games, every step exported and loaded back to the same position."""
    force = force_list([{"card": "WC-002", "qty": 1}, {"card": "WC-003", "qty": 1}, {"card": "WC-013", "qty": 1},
                        {"card": "WC-012", "qty": 1}, {"card": "WC-014", "qty": 1},
                        {"card": "WC-010", "qty": 1, "options": {"cortex": "WC-K01", "weapons": ["WC-W01"]}},
                        {"card": "WC-010", "qty": 1, "options": {"cortex": "WC-K04", "weapons": ["WC-W05"]}}],
                       rack=["WC-C01", "WC-C09", "WC-C12", "WC-C16", "WC-C19", "WC-C23"])
    goldfish = {"kind": "goldfish", "units": [{"card": "WC-021", "qty": 1}, {"card": "WC-005", "qty": 1}]}
    game = WarcasterGame(force, CARDS, goldfish)
    kinds = [(u.spec.code, u.spec.kind, len(u.models)) for u in game.new_initial_state(random.Random(0)).units]
    assert kinds[:4] == [("WC-002", "hero", 1), ("WC-013", "hero", 2), ("WC-012", "hero", 1), ("WC-010", "warjack", 1)]
    assert ("WC-003", "solo", 1) in kinds
    policy = get_policy("random")
    for seed in range(3):
        state = game.new_initial_state(game_rng(5, seed))
        while not state.is_terminal():
            doc = export_position("warcaster", state)
            loaded = load_position(doc, CARDS)
            assert export_position("warcaster", loaded) == doc and legal_moves(loaded) == legal_moves(state)
            state.apply(policy.choose(state, state.rng))
    attached = load_position(doc, CARDS).units[1]
    assert [m.spec.code for m in attached.models] == ["WC-013", "WC-014"]


# ---- the guard: position.py knows every field of the engine's pieces ----------------------------------------------


def _class(module: str, name: str) -> ast.ClassDef:
    tree = ast.parse((ROOT / "rules_engine" / "warcaster" / f"{module}.py").read_text(encoding="utf-8"))
    return next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == name)


def _assigned_on_self(cls: ast.ClassDef) -> set[str]:
    """Every `self.NAME` a method of the class assigns (plainly, annotated, augmented or in a tuple)."""
    found = set()
    for node in ast.walk(cls):
        targets = (node.targets if isinstance(node, ast.Assign) else [node.target]
                   if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else [])
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute) and isinstance(part.value, ast.Name) and part.value.id == "self":
                    found.add(part.attr)
    return found


def _dataclass_fields(cls: ast.ClassDef) -> set[str]:
    return {node.target.id for node in cls.body
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)}


def test_the_position_module_knows_every_field_of_the_state_and_its_pieces():
    """A field the engine adds later (to Table, WarcasterState, Model, Unit, Gate or Side) fails here, named, until
    rules_engine/warcaster/position.py writes and reads it (and lists it in its *_FIELDS)."""
    state_fields = _assigned_on_self(_class("state", "Table")) | _assigned_on_self(_class("game", "WarcasterState"))
    known = set(position.STATE_FIELDS)
    assert state_fields == known, f"new: {sorted(state_fields - known)}, gone: {sorted(known - state_fields)}"
    for name, known in (("Model", position.MODEL_FIELDS), ("Unit", position.UNIT_FIELDS),
                        ("Gate", position.GATE_FIELDS), ("Side", position.SIDE_FIELDS)):
        fields = _dataclass_fields(_class("state", name))
        assert fields == set(known), f"{name}: new {sorted(fields - set(known))}, gone {sorted(set(known) - fields)}"
    state = load_position(json.loads(EXAMPLE.read_text(encoding="utf-8")), CARDS)
    if hasattr(state, "__dict__"):  # the pure-Python engine: the live attributes too
        assert set(vars(state)) == set(position.STATE_FIELDS)


# ---- bad positions: each refused with the path of its bad field ---------------------------------------------------


def _example() -> dict:
    return json.loads(EXAMPLE.read_text(encoding="utf-8"))


def _set(path: str, value):
    """A change to the example: set the value at a dotted path (`sides.0.units.1.arc`); `value` DELETE removes it."""
    def change(doc):
        *parents, last = path.split(".")
        target = doc
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        key = int(last) if isinstance(target, list) else last
        if value is DELETE:
            del target[key]
        else:
            target[key] = value
    return change


def _all(*changes):
    def change(doc):
        for one in changes:
            one(doc)
    return change


DELETE = object()
AYA, DRONE = "sides.0.units.0", "sides.0.units.0.models.1"
BAD = [
    # unknown codes, or a card of another kind
    ("unknown model code", _set("sides.0.units.2.code", "WC-999"), "sides[0].units[2].code", "unknown model code"),
    ("unknown cypher code", _set("sides.0.hand.1", "WC-C99"), "sides[0].hand[1]", "unknown cypher code"),
    ("a model as a cypher", _set("sides.1.deck.0", "WC-001"), "sides[1].deck[0]", "not a cypher"),
    ("unknown cortex", _set("sides.0.units.3.options.cortex", "WC-K99"), "sides[0].units[3].options.cortex",
     "unknown card code"),
    ("attachment of another hero", _set("sides.1.units.0.models.1.code", "WC-003"), "sides[1].units[0].models[1].code",
     "does not attach to WC-012"),
    ("a model of another code", _set("sides.0.units.1.models.0.code", "WC-005"), "sides[0].units[1].models[0].code",
     "expected 'WC-004'"),
    # counts that break a rule
    ("health above the maximum", _set(f"{DRONE}.health", 3), "sides[0].units[0].models[1].health", "at most 2"),
    ("negative health", _set(f"{DRONE}.health", -1), "sides[0].units[0].models[1].health", "0 … 2"),
    ("negative arc", _set(f"{AYA}.arc", -1), "sides[0].units[0].arc", "0 … 4"),
    ("hero arc above its FOC", _set(f"{AYA}.arc", 5), "sides[0].units[0].arc", "FOC"),
    ("unit arc above the limit", _set("sides.0.units.1.arc", 4), "sides[0].units[1].arc", "unit_arc_limit"),
    ("gate arc above the limit", _set("sides.0.gates.0.arc", 9), "sides[0].gates[0].arc", "gate_arc_limit"),
    ("arc that does not add up", _set("sides.0.pool", 3), "sides[0].pool", "arc_pool (15)"),
    ("more arc than owned", _set("sides.1.gates", [{"at": [6.0, 25.5], "arc": 8}, {"at": [24.0, 25.5], "arc": 8}]),
     "sides[1]", "more arc on units and gates (17)"),
    ("arc on a reserve unit", _set("sides.1.units.3.arc", 1), "sides[1].units[3].arc", "holds no arc"),
    ("too many gates", _set("sides.0.gates", [{"at": [6.0, 4.5]}] * 4), "sides[0].gates", "at most 3"),
    ("a squad's models miscounted", _set("sides.0.units.1.models", [{"at": [8.0, 9.0]}]), "sides[0].units[1].models",
     "has 5 model(s)"),
    ("negative shield", _set("sides.0.units.0.models.0.shield", -2), "sides[0].units[0].models[0].shield", "≥ 0"),
    ("the goldfish holds cyphers", _set("opponent.kind", "goldfish"), "sides[1].hand", "plays no cyphers"),
    ("turns above the round's", _set("turn.turns_this_round", [5, 1]), "turn.turns_this_round[0]", "fewer than"),
    ("round above the game's", _set("turn.round", 4), "turn.round", "pulse rounds"),
    # pieces off the table
    ("a model off the table", _set(f"{AYA}.models.0.at", [30.5, 3.0]), "sides[0].units[0].models[0].at",
     "off the table"),
    ("a base over the edge", _set(f"{AYA}.models.0.at", [0.3, 3.0]), "sides[0].units[0].models[0].at", "radius 0.6"),
    ("a gate off the table", _set("sides.0.gates.0.at", [15.0, -1.0]), "sides[0].gates[0].at", "off the table"),
    ("a living model with no place", _set(f"{AYA}.models.0.at", DELETE), "sides[0].units[0].models[0].at",
     "needs its place"),
    ("a reserve model on the table", _all(_set("sides.0.units.3.status", "reserve"),
                                          _set("sides.0.units.3.models", [{"at": [3.0, 3.0]}])),
     "sides[0].units[3].models[0].at", "in reserve"),
    # impossible phases and decisions
    ("unknown phase", _set("turn.phase", "combat"), "turn.phase", 'expected one of "charge", "recall",'),
    ("an activation phase with no activation", _set("activation", DELETE), "turn.phase", "needs the unit"),
    ("an activation outside one", _set("turn.phase", "deploy"), "activation", "only during an activation"),
    ("the enemy's unit activated", _set("activation.unit", 4), "activation.unit", "player 0"),
    ("a reserve unit activated", _set("activation.unit", 3), "activation.unit", None),
    ("a non-solo as the extra solo", _set("activation.solo", True), "activation.solo", "not a solo"),
    ("over with no result", _all(_set("activation", DELETE), _set("turn.phase", "over")), "turn.phase",
     "needs the result"),
    ("a result while playing", _set("result", {"winner": 0, "reason": "rounds"}), "result", "only when"),
    ("unknown end reason", _all(_set("activation", DELETE), _set("turn.phase", "over"),
                                _set("result", {"reason": "surrender"})), "result.reason", None),
    ("a game over that goes on", _set("sides.1.units", [{"code": "WC-015", "models": [{"health": 0}] * 5}]),
     "sides[1]", "the game is over"),
    ("a destroyed unit alive", _set("sides.1.units.2.models.0.health", 1), "sides[1].units[2].status", None),
    ("a unit on the table with none alive", _all(_set("sides.0.units.1.status", "board"),
                                                 _set("sides.0.units.1.models", [{"health": 0}] * 5)),
     "sides[0].units[1].status", "destroyed"),
    # continuous effects
    ("unknown effect", _set("sides.1.units.1.models.0.effects", ["poison"]), "sides[1].units[1].models[0].effects[0]",
     None),
    ("lockdown on a model", _set("sides.1.units.1.models.0.effects", ["lockdown"]),
     "sides[1].units[1].models[0].effects[0]", "on the unit"),
    ("system failure on a hero", _set("sides.1.units.0.models.0.effects", ["system_failure"]),
     "sides[1].units[0].models[0].effects[0]", "warjacks only"),
    ("system failure blocking nothing", _set("sides.1.units.1.models.0.blocks", DELETE),
     "sides[1].units[1].models[0].blocks", None),
    ("an unknown stat change", _set("sides.1.units.1.models.0.mods", [{"stat": "luck", "amount": 1}]),
     "sides[1].units[1].models[0].mods[0].stat", None),
    # wrong types, unknown fields, numbering
    ("sides as an object", _set("sides", {}), "sides", "expected a list"),
    ("one side", _set("sides", [{}]), "sides", "2 sides"),
    ("a unit as a list", _set("sides.0.units.2", []), "sides[0].units[2]", "expected an object"),
    ("round as a string", _set("turn.round", "2"), "turn.round",
     'expected an integer 1 … 3 (the game\'s pulse rounds), got "2"'),
    ("activated as a number", _set(f"{AYA}.activated", 1), "sides[0].units[0].activated", "true or false"),
    ("a place as text", _set(f"{AYA}.models.0.at", "12,11"), "sides[0].units[0].models[0].at", "[x, y]"),
    ("health as a float", _set(f"{DRONE}.health", 2.5), "sides[0].units[0].models[1].health", None),
    ("an unknown field", _set(f"{AYA}.colour", "red"), "sides[0].units[0].colour",
     "unknown field (known: uid, code, name, options, status,"),
    ("an unknown option", _set("options", {"speed": 2}), "options.speed", "unknown Warcaster option"),
    ("an option of the wrong type", _set("options", {"hand_limit": "5"}), "options.hand_limit", None),
    ("a boolean option as 1", _set("options", {"continuous_damage_direct": 1}), "options.continuous_damage_direct",
     "true or false"),
    ("unknown opponent", _set("opponent", {"kind": "ghost"}), "opponent.kind", None),
    ("a uid out of order", _set("sides.1.units.0.uid", 9), "sides[1].units[0].uid", "expected 4"),
    ("a model uid out of order", _set(f"{AYA}.models.1.uid", 0), "sides[0].units[0].models[1].uid", "expected 1"),
    ("a gate uid out of order", _set("sides.0.gates.0.uid", 2), "sides[0].gates[0].uid", "expected 0"),
    ("no turn", _set("turn", DELETE), "turn", "expected an object"),
]


@pytest.mark.parametrize("label, change, path, words", BAD, ids=[case[0] for case in BAD])
def test_a_bad_position_is_refused_naming_the_bad_field(label, change, path, words):
    doc = _example()
    change(doc)
    with pytest.raises(PositionError) as error:
        load_position(doc, CARDS)
    assert error.value.path == path, str(error.value)
    assert words is None or words in error.value.message, str(error.value)


# ---- the example of docs/positions.md -----------------------------------------------------------------------------


def test_the_docs_example_loads_and_is_the_one_in_the_docs():
    """docs/positions/warcaster.position.json loads (Commander Aya about to act, round 2) and is the example
    of docs/positions.md's Warcaster section."""
    doc = _example()
    state = load_position(doc, CARDS)
    assert (state.phase, state.acting, state.round, state.player) == ("act", 0, 2, 0)
    assert state.units[0].models[1].spec.code == "WC-003" and state.units[0].spec.cst == 5  # the drone joined Aya
    assert state.sides[0].pool == 15 - 2 - 1 - 3 and state.models[11].effects == {"fire": 1, "system_failure": 2}
    assert state.sides[0].deck[-1].code == "WC-C06"  # the top card, written first
    assert "attack:5:2" in [move["id"] for move in legal_moves(state)] and invariant_problems(state) == []
    docs = (ROOT / "docs" / "positions.md").read_text(encoding="utf-8")
    section = docs[docs.index("## Warcaster: Neo-Mechanika"):]
    block = section[section.index("```json") + len("```json"):]
    assert json.loads(block[:block.index("```")]) == doc
