"""The envelope every position shares (rules_engine/positions.py, docs/positions.md): format and
system, the generator's state, action ids, playing ids and their refusals, each naming the bad field's path."""
from __future__ import annotations

import json
import random
import re
import shlex
from pathlib import Path

import pytest

from rules_engine.positions import (
    FORMAT,
    PositionError,
    action_id,
    export_position,
    find_action,
    legal_moves,
    load_position,
    play_ids,
    rng_dump,
    rng_load,
)
from tests.rules_engine.test_position_hagmi import CARDS as HAGMI_CARDS
from tests.rules_engine.mwda import CARDS as MWDA_CARDS
from tests.rules_engine.warcaster import CARDS as WARCASTER_CARDS

ROOT = Path(__file__).resolve().parents[2]
CARDS = {"hagmi": HAGMI_CARDS, "mwda": MWDA_CARDS, "warcaster": WARCASTER_CARDS}


def example(system: str) -> dict:
    return json.loads((ROOT / "docs" / "positions" / f"{system}.position.json").read_text(encoding="utf-8"))


def test_the_generator_state_round_trips_exactly():
    rng = random.Random(41)
    rng.random()
    again = rng_load(json.loads(json.dumps(rng_dump(rng))))
    assert [rng.random() for _ in range(5)] == [again.random() for _ in range(5)]
    assert rng_load({"seed": 3}).random() == random.Random(3).random()


@pytest.mark.parametrize("value, path", [
    ("seven", "random"), ({"seed": -1}, "random.seed"), ({"seed": True}, "random.seed"),
    ({"seed": 1, "mt19937": []}, "random.mt19937"), ({"mt19937": [1, 2]}, "random.mt19937"),
    ({"mt19937": [0] * 624 + [900]}, "random.mt19937[624]"), ({"mt19937": [-1] + [0] * 623 + [1]}, "random.mt19937[0]"),
    ({"salt": 1}, "random.salt"), ({"mt19937": [0] * 624 + [1], "gauss": "x"}, "random.gauss"),
])
def test_a_bad_generator_is_refused_with_its_path(value, path):
    with pytest.raises(PositionError) as refused:
        rng_load(value)
    assert refused.value.path == path


@pytest.mark.parametrize("doc, path", [
    ([], ""), ({"system": "mwda"}, "format"), ({"format": "hangar.position/0", "system": "mwda"}, "format"),
    ({"format": FORMAT, "system": "chess"}, "system"), ({"format": FORMAT, "system": "mwda", "random": 3}, "random"),
])
def test_a_bad_envelope_is_refused_with_its_path(doc, path):
    with pytest.raises(PositionError) as refused:
        load_position(doc, {})
    assert refused.value.path == path


def test_action_ids_say_the_record_in_shell_safe_words():
    assert action_id(("play", 12, (3, 5), None)) == "play:12:3+5:-"
    assert action_id(("attack", 4, (("player", 1),))) == "attack:4:player.1"
    assert action_id(("move", 3, 7, True)) == "move:3:7:yes"
    assert action_id(("play", 23, (), (5, 23))) == "play:23:_:5+23"
    assert action_id(("pass",)) == "pass"


@pytest.mark.parametrize("system", ["hagmi", "mwda", "warcaster"])
def test_every_legal_action_of_an_example_has_its_own_id_that_plays_it(system):
    state = load_position(example(system), CARDS[system])
    moves = legal_moves(state)
    ids = [move["id"] for move in moves]
    assert len(set(ids)) == len(ids) and all(shlex.quote(i) == i for i in ids), ids
    assert all(re.fullmatch(r"[A-Za-z0-9_:+.\-~]+", i) for i in ids)
    for move, action in zip(moves, state.legal_actions()):
        assert find_action(state, move["id"]) == action
        assert find_action(state, move["action"]) == action  # the record as a list is accepted too
    before = export_position(system, state)
    play_ids(state, [ids[-1]])
    assert export_position(system, state) != before


def test_an_id_that_is_not_legal_names_its_place_and_the_legal_ids():
    state = load_position(example("mwda"), CARDS["mwda"])
    first = legal_moves(state)[0]["id"]
    with pytest.raises(PositionError) as refused:
        play_ids(state, ["no:such", first])
    assert refused.value.path == "actions[0]" and first in refused.value.message
