"""The HAGMI simulator behind `simulate` and the Celery chunks (docs/design.md §3-§4)."""
import json
import random
from pathlib import Path

import pytest

from rules_engine.core.runner import merge_summaries
from rules_engine.simulation import (
    SimulationInputError, build_snapshot, chunks, play_chunk, simulate, simulation_result, snapshot_hash,
)

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = json.loads((ROOT / "cards/packages/hagmi/core.json").read_text(encoding="utf-8"))
CARDS = {card["code"]: card for card in PACKAGE["cards"]}
OPPONENTS = {opponent["slug"]: opponent for opponent in PACKAGE["opponents"]}
DECK = json.loads((ROOT / "cards/packages/hagmi/lists/akane-assault.json").read_text(encoding="utf-8"))


def snapshot(opponent="goldfish", policy="greedy", document=DECK):
    return build_snapshot(document, CARDS, OPPONENTS[opponent], policy=policy)


def test_snapshot_freezes_exactly_the_cards_the_list_and_opponent_use():
    snap = snapshot("coop-ironshell-cradle")
    listed = {entry["card"] for entries in DECK["sections"].values() for entry in entries}
    opponent = OPPONENTS["coop-ironshell-cradle"]
    beasts = {entry["card"] for entry in opponent["beast_deck"]}
    assert set(snap["cards"]) == listed | beasts | {opponent["mothership"]}
    assert snapshot_hash(snap) == snapshot_hash(json.loads(json.dumps(snap)))


def test_chunks_played_anywhere_merge_to_the_whole_run():
    snap = snapshot("coop-abyssal-ark", policy="random")  # co-op chunks are 500 games: three chunks here
    whole = simulate(snap, games=1200, seed=11)
    assert len(chunks(1200, snap)) == 3
    pieces = [play_chunk(snap, seed=11, start=chunk.start, count=len(chunk)) for chunk in reversed(chunks(1200, snap))]
    merged = merge_summaries(reversed(pieces))
    assert simulation_result(merged, snap, games=1200, seed=11) == whole


def test_global_random_state_does_not_change_a_run():
    """Randomness comes only from the run seed (docs/design.md §3.2: the RLCard/PettingZoo seed test)."""
    snap = snapshot("coop-abyssal-ark", policy="random")
    first = simulate(snap, games=60, seed=5)
    random.seed(999)
    random.random()
    assert simulate(snap, games=60, seed=5) == first


def test_every_bundled_opponent_can_be_played():
    for slug in OPPONENTS:
        result = simulate(snapshot(slug), games=10, seed=1)
        assert result["wins"] + result["losses"] + result["draws"] == 10, slug
        assert result["opponent"] == slug


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda s: s.update(policy="clairvoyant"), "unknown policy"),
        (lambda s: s.update(options={"hand_limit": 7}), "unknown HAGMI option"),
        (lambda s: s.update(cards="nope"), "snapshot.cards"),
        (lambda s: s.update(schema="hangar.snapshot/0"), "snapshot.schema"),
        (lambda s: s["list"].update(sections=[]), r"list\.sections: expected an object"),
        (lambda s: s["list"]["sections"].update(weapons=5), r'field "list\.sections\.weapons": expected a list of \{card, qty\} entries'),
        (lambda s: s["list"]["sections"].update(weapons=["HS-001"]), r'field "list\.sections\.weapons\[0\]": expected an entry object'),
    ],
)
def test_bad_snapshots_are_refused_with_the_field_named(change, message):
    snap = snapshot()
    change(snap)
    with pytest.raises(SimulationInputError, match=message):
        simulate(snap, games=1, seed=1)


@pytest.mark.parametrize("games, seed", [(0, 1), (100_001, 1), (10, -1), ("10", 1)])
def test_run_parameters_are_checked(games, seed):
    with pytest.raises(SimulationInputError):
        simulate(snapshot(), games=games, seed=seed)


def test_damage_by_turn_follows_each_of_the_lists_turns():
    """The result's damage per turn, turn by turn (a line on the result page): one row per turn reached, in order,
    over the games that reached it (every game has a first turn, fewer reach the later ones)."""
    result = simulate(snapshot(), games=40, seed=5)
    rows = result["damage_per_turn"]["by_turn"]
    assert [row["turn"] for row in rows] == list(range(1, len(rows) + 1))
    assert rows[0]["games"] == 40 and all(a["games"] >= b["games"] for a, b in zip(rows, rows[1:]))
    assert len(rows) == max(int(turns) for turns in result["turns"]["histogram"])
    assert all(row["mean"] >= 0 for row in rows) and any(row["mean"] > 0 for row in rows)
