"""Replaying one game of a run: game i of a run seeded S is exactly the game it counted."""
from __future__ import annotations

import random

import pytest

from rules_engine.replay import replay_events
from rules_engine.simulation import SimulationInputError, build_snapshot, play_chunk, simulate
from tests.rules_engine import mwda, warcaster
from tests.support.snapshots import bundled_hagmi_snapshot

MWDA_CARDS = {card["code"]: card for card in mwda.PACKAGE["cards"]}


def mwda_snapshot(opponent: str = "highland-line", policy: str = "greedy"):
    return build_snapshot(mwda.LISTS["steel-wolves-pack"], MWDA_CARDS, mwda.OPPONENTS[opponent], policy=policy)


def warcaster_snapshot(opponent: str = "marcher-frontier-posse", policy: str = "greedy"):
    return build_snapshot(warcaster.LISTS["isa-thunder-lancers"], warcaster.CARDS, warcaster.OPPONENTS[opponent],
                          policy=policy)


SNAPSHOTS = {"mwda": mwda_snapshot, "warcaster": warcaster_snapshot}


@pytest.mark.parametrize("system", ["mwda", "warcaster"])
def test_each_replayed_game_is_the_game_the_run_counted(system):
    """The outcomes of replayed games 0..5 add up to the run's wins, losses and draws, and each game's record
    is the one the runner summarised for that index (its chunk of one game: same outcome, same rounds)."""
    snapshot, seed, games = SNAPSHOTS[system](), 17, 6
    result = simulate(snapshot, games=games, seed=seed)
    replays = [replay_events(snapshot, seed, index) for index in range(games)]
    outcomes = [replay["outcome"] for replay in replays]
    assert (outcomes.count("win"), outcomes.count("loss"), outcomes.count("draw")) == (
        result["wins"], result["losses"], result["draws"])
    assert sum(replay["record"]["rounds"] for replay in replays) / games == pytest.approx(result["rounds"]["mean"])
    for index in (0, 3, 5):
        counted = play_chunk(snapshot, seed=seed, start=index, count=1)
        assert counted.tally("outcome")[replays[index]["outcome"]] == 1
        assert counted.mean("rounds").mean == replays[index]["record"]["rounds"]


@pytest.mark.parametrize("system", ["mwda", "warcaster"])
def test_the_event_log_ends_with_the_recorded_result_and_draws_a_table(system):
    replay = replay_events(SNAPSHOTS[system](), 5, 2)
    events = replay["events"]
    assert events[0]["kind"] == "setup" and events[-1]["kind"] == "game_over"
    winner = events[-1]["data"]["winner"]
    assert replay["outcome"] == {0: "win", 1: "loss", None: "draw"}[winner]
    table = replay["table"]
    assert table["width"] == table["height"] == (36.0 if system == "mwda" else 30.0)
    if system == "mwda":  # a terrain layout (M13/M15 terrain) is drawn
        assert table["terrain"] and table["objective"] is None
    else:  # W16: the centre objective
        assert table["objective"] == {"x": 15.0, "y": 15.0, "r": 3}


def test_replay_does_not_depend_on_the_global_random_state():
    snapshot = mwda_snapshot(policy="random")
    random.seed(1)
    first = replay_events(snapshot, 9, 4)
    random.seed(2)
    random.random()
    assert replay_events(snapshot, 9, 4)["events"] == first["events"]
    assert replay_events(snapshot, 9, 5)["events"] != first["events"]  # another index is another game


def test_a_hagmi_game_replays_as_a_text_log_without_table():
    replay = replay_events(bundled_hagmi_snapshot(), 3, 1)
    assert replay["system"] == "hagmi" and replay["table"]["width"] == 0
    assert replay["events"][-1]["kind"] == "game_over"


@pytest.mark.parametrize("seed, index, message", [
    (-1, 0, "seed"), (1, -3, "game index"), (1, True, "game index"), (1, "2", "game index"),
])
def test_bad_seed_or_index_is_refused_with_the_field_named(seed, index, message):
    with pytest.raises(SimulationInputError, match=message):
        replay_events(mwda_snapshot(), seed, index)


def test_a_bad_snapshot_is_refused_with_the_field_named():
    with pytest.raises(SimulationInputError, match="system"):
        replay_events({**mwda_snapshot(), "system": "chess"}, 1, 0)
    with pytest.raises(SimulationInputError, match="snapshot.cards"):
        replay_events({**mwda_snapshot(), "cards": []}, 1, 0)
