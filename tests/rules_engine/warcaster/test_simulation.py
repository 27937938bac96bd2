"""The Warcaster simulator behind `simulate` and the Celery chunks (docs/design.md §3-§4)."""
from __future__ import annotations

import json
import random

import pytest

from rules_engine.core.runner import merge_summaries
from rules_engine.simulation import (
    SimulationInputError, build_snapshot, play_chunk, simulate, simulation_result, simulator_for,
)
from tests.rules_engine.warcaster import CARDS, LISTS, OPPONENTS

LIST = LISTS["isa-thunder-lancers"]


def snapshot(opponent="goldfish", policy="greedy", document=LIST, options=None):
    return build_snapshot(document, CARDS, OPPONENTS[opponent], policy=policy, options=options)


def test_referenced_cards_cover_the_opponents_whole_list_with_warjack_options():
    simulator = simulator_for("warcaster")
    vanguard = simulator.referenced_cards(OPPONENTS["isa-starsteel-vanguard"])
    assert {"WC-010", "WC-K01", "WC-W01", "WC-W02", "WC-K02", "WC-W03", "WC-W04", "WC-C01", "WC-C25"} <= vanguard
    assert simulator.referenced_cards(OPPONENTS["goldfish"]) == {"WC-004", "WC-015", "WC-011", "WC-009"}
    snap = snapshot("marcher-dust-raiders")
    assert {"WC-K03", "WC-W10", "WC-W11", "WC-C28"} <= set(snap["cards"])


def test_result_fields():
    result = simulate(snapshot("marcher-frontier-posse"), games=20, seed=3)
    assert result["wins"] + result["losses"] + result["draws"] == 20
    low, high = result["win_rate_interval"]
    assert low <= result["win_rate"] <= high
    for key in ("victory_points", "victory_points_against", "units_destroyed", "units_lost", "rounds"):
        assert result[key]["mean"] is not None, key
    assert result["cyphers_played"] and all(c["name"] == CARDS[c["card"]]["name"] for c in result["cyphers_played"])
    assert set(result["effects_applied"]) <= {"fire", "corrosion", "lockdown", "system_failure", "tune_up"}
    assert sum(result["ended_by"].values()) == 20


def test_goldfish_never_scores_or_destroys():
    result = simulate(snapshot("goldfish"), games=20, seed=1)
    assert result["victory_points_against"]["mean"] <= 0.5  # only friendly fire can give it points
    assert result["win_rate"] >= 0.8


def test_workers_do_not_change_the_result():
    """Same seed, 1 or 2 processes: byte-identical JSON (2 chunks of CHUNK_SIZE)."""
    snap = snapshot("goldfish", policy="random")
    one = simulate(snap, games=520, seed=9, workers=1)
    two = simulate(snap, games=520, seed=9, workers=2)
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)


def test_chunks_played_anywhere_merge_to_the_whole_run():
    snap = snapshot("marcher-dust-raiders", policy="random")
    whole = simulate(snap, games=30, seed=4)
    pieces = [play_chunk(snap, seed=4, start=start, count=10) for start in (20, 0, 10)]
    merged = merge_summaries([pieces[1], pieces[2], pieces[0]])
    assert simulation_result(merged, snap, games=30, seed=4) == whole


def test_global_random_state_does_not_change_a_run():
    snap = snapshot("isa-thunder-lancers")
    first = simulate(snap, games=10, seed=5)
    random.seed(999)
    random.random()
    assert simulate(snap, games=10, seed=5) == first


def test_every_bundled_opponent_can_be_played_from_every_sample_list():
    for name, document in LISTS.items():
        for slug in OPPONENTS:
            result = simulate(snapshot(slug, document=document), games=2, seed=1)
            assert result["opponent"] == slug and result["games"] == 2, (name, slug)


def _without(code):
    snap = snapshot("isa-starsteel-vanguard")
    del snap["cards"][code]
    return snap


@pytest.mark.parametrize("make, message", [
    (lambda: {**snapshot(), "policy": "clairvoyant"}, "unknown policy"),
    (lambda: snapshot(options={"hand_size": 7}), "unknown Warcaster option"),
    (lambda: snapshot(options={"attack_dice": "three"}), "options.attack_dice"),
    (lambda: {**snapshot(), "cards": "nope"}, "snapshot.cards"),
    (lambda: {**snapshot(), "opponent": {"slug": "x", "kind": "horde"}}, "opponent.kind"),
    (lambda: _without("WC-W03"), r"card WC-W03, field \"opponent.list.sections.force\[6\].options.weapons\[0\]\""),
    (lambda: _without("WC-002"), r"card WC-002, field \"list.sections.force\[0\].card\""),
])
def test_bad_snapshots_are_refused_with_the_field_named(make, message):
    with pytest.raises(SimulationInputError, match=message):
        simulate(make(), games=1, seed=1)


def test_a_warjack_without_loadout_in_a_list_is_refused():
    document = json.loads(json.dumps(LIST))
    del document["sections"]["force"][5]["options"]
    with pytest.raises(SimulationInputError, match=r"card WC-010, field \"list.sections.force\[5\].options\""):
        simulate(snapshot(document=document), games=1, seed=1)


def test_bad_card_data_names_the_card_and_field():
    cards = json.loads(json.dumps(CARDS))
    cards["WC-002"]["weapons"][0]["qualities"] = ["explode"]
    snap = build_snapshot(LIST, cards, OPPONENTS["goldfish"], policy="greedy")
    with pytest.raises(SimulationInputError, match=r"card WC-002, field \"weapons\[0\].qualities\".*explode"):
        simulate(snap, games=1, seed=1)
