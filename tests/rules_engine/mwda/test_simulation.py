"""The MWDA simulator behind `simulate` and the Celery chunks (docs/design.md §2.4, §3–§4)."""
import json
import random

import pytest

from rules_engine.core.runner import merge_summaries
from rules_engine.simulation import (
    SimulationInputError, build_snapshot, chunks, play_chunk, simulate, simulation_result, snapshot_hash,
)
from tests.rules_engine.mwda import LISTS, OPPONENTS, PACKAGE

CARDS = {card["code"]: card for card in PACKAGE["cards"]}
ARMY = LISTS["steel-wolves-pack"]


def snapshot(opponent="highland-line", policy="greedy", document=ARMY, options=None):
    return build_snapshot(document, CARDS, OPPONENTS[opponent], policy=policy, options=options)


def test_snapshot_freezes_exactly_the_units_the_list_and_opponent_use():
    snap = snapshot("goldfish")
    listed = {entry["card"] for entry in ARMY["sections"]["army"]}
    assert set(snap["cards"]) == listed | {entry["card"] for entry in OPPONENTS["goldfish"]["units"]}
    army = snapshot("republic-knight-guard")
    assert set(army["cards"]) == listed | {"MW-007", "MW-004", "MW-001"}
    assert snapshot_hash(snap) == snapshot_hash(json.loads(json.dumps(snap)))


def test_one_and_two_workers_give_the_same_result_byte_for_byte():
    """docs/design.md §2.4: the same seed gives the same summary whatever the number of processes."""
    snap = snapshot(options={"max_rounds": 4})
    one = simulate(snap, games=600, seed=3, workers=1)
    two = simulate(snap, games=600, seed=3, workers=2)
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)


def test_chunks_played_anywhere_merge_to_the_whole_run():
    snap = snapshot("republic-knight-guard", policy="random", options={"max_rounds": 3})
    whole = simulate(snap, games=700, seed=11)
    pieces = [play_chunk(snap, seed=11, start=c.start, count=len(c)) for c in reversed(chunks(700, snap))]
    assert simulation_result(merge_summaries(reversed(pieces)), snap, games=700, seed=11) == whole


def test_global_random_state_does_not_change_a_run():
    snap = snapshot(policy="random")
    first = simulate(snap, games=40, seed=5)
    random.seed(999)
    random.random()
    assert simulate(snap, games=40, seed=5) == first


def test_result_reports_what_the_issue_asks_for():
    result = simulate(snapshot("goldfish"), games=60, seed=2)
    assert result["wins"] + result["losses"] + result["draws"] == 60
    low, high = result["win_rate_interval"]
    assert low <= result["win_rate"] <= high
    assert sum(result["rounds"]["histogram"].values()) == 60
    assert 1 <= result["rounds"]["mean"] <= 10
    assert result["points_lost"]["mean"] <= result["points_destroyed"]["mean"]  # the goldfish never shoots
    assert result["orders_per_round"]["mean"] <= 3
    for key in ("units_surviving", "heat_shutdowns"):
        assert result[key]["mean"] is not None
    codes = {row["card"] for row in result["unit_damage"]}
    assert codes <= {entry["card"] for entry in ARMY["sections"]["army"]} and codes
    assert all(row["name"] == CARDS[row["card"]]["name"] for row in result["unit_damage"])
    assert set(result["ended_by"]) <= {"eliminated", "rounds"}


def test_greedy_beats_random_and_the_defensive_policy_is_available():
    greedy = simulate(snapshot("goldfish"), games=60, seed=4)
    rand = simulate(snapshot("goldfish", policy="random"), games=60, seed=4)
    assert greedy["points_destroyed"]["mean"] > rand["points_destroyed"]["mean"]
    defensive = simulate(snapshot(policy="defensive"), games=20, seed=4)
    assert defensive["policy"] == "defensive" and defensive["wins"] + defensive["losses"] + defensive["draws"] == 20


def test_max_rounds_option_caps_the_battle():
    result = simulate(snapshot(options={"max_rounds": 2}), games=20, seed=1)
    assert set(result["rounds"]["histogram"]) <= {"1", "2"}


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda s: s.update(policy="clairvoyant"), "unknown policy"),
        (lambda s: s.update(options={"hand_limit": 7}), "unknown MWDA option"),
        (lambda s: s.update(options={"attack_dice": 0}), "attack_dice"),
        (lambda s: s.update(cards="nope"), "snapshot.cards"),
        (lambda s: s["cards"].pop("MW-010"), "MW-010"),
        (lambda s: s["cards"]["MW-012"].update(primary={"min_range": 4}), "MW-012.*primary.max_range"),
        (lambda s: s["cards"]["MW-010"].update(dial=[]), "MW-010.*dial"),
        (lambda s: s["list"]["sections"]["army"][0].update(qty="two"), "qty"),
        (lambda s: s["opponent"].update(kind="coop"), "opponent.kind"),
        (lambda s: s["list"]["sections"].update(army=[]), "no units"),
    ],
)
def test_bad_snapshots_are_refused_with_the_field_named(change, message):
    snap = json.loads(json.dumps(snapshot()))
    change(snap)
    with pytest.raises(SimulationInputError, match=message):
        simulate(snap, games=1, seed=1)
