"""The simulation runner: a run's summary depends on its seed only, not on chunking or worker count."""
import json
import random

import pytest

from rules_engine.core.runner import SimulationError, chunk_ranges, merge_summaries, run_games
from rules_engine.core.stats import Summary
from tests.rules_engine.core.test_game import play_race, summarise_race

GAMES = 240


def _json(summary: Summary) -> str:
    return json.dumps(summary.to_dict())


def run_in_chunks(play_one, *, games: int, seed: int, summarise, chunk_size: int) -> Summary:
    """As the Celery workers do: each chunk played alone (run_games with start=), merged in chunk order."""
    return merge_summaries(run_games(play_one, games=len(r), seed=seed, start=r.start, summarise=summarise)
                           for r in chunk_ranges(games, chunk_size))


@pytest.fixture(scope="module")
def reference() -> Summary:
    return run_games(play_race, games=GAMES, seed=2026, summarise=summarise_race)


def test_run_games_counts_every_game_and_is_reproducible(reference):
    assert reference.games == GAMES and reference.tally("winner").total == GAMES
    assert reference.histogram("game_length").total == GAMES
    random.seed(99)  # the global RNG has no say
    assert _json(run_games(play_race, games=GAMES, seed=2026, summarise=summarise_race)) == _json(reference)
    assert _json(run_games(play_race, games=GAMES, seed=2027, summarise=summarise_race)) != _json(reference)


@pytest.mark.parametrize("chunk_size", [1, 7, 50, GAMES, 1000])
def test_same_seed_same_json_whatever_the_chunk_size(reference, chunk_size):
    assert _json(run_in_chunks(play_race, games=GAMES, seed=2026, summarise=summarise_race, chunk_size=chunk_size)) \
        == _json(reference)


def test_a_chunk_played_alone_is_the_same_games_as_in_the_whole_run():
    """A Celery task plays one chunk with run_games(start=...); chunks merged in order make the whole run."""
    parts = [run_games(play_race, games=len(r), seed=5, start=r.start, summarise=summarise_race)
             for r in chunk_ranges(100, 30)]
    stored = [Summary.from_dict(json.loads(json.dumps(p.to_dict(exact=True)))) for p in parts]
    direct = run_in_chunks(play_race, games=100, seed=5, summarise=summarise_race, chunk_size=30)
    assert merge_summaries(stored) == direct


def test_chunks_merged_in_any_order_give_the_same_bytes(reference):
    """Summaries merge exactly (integer arithmetic): the order in which chunks finish does not matter."""
    parts = [run_games(play_race, games=len(r), seed=2026, start=r.start, summarise=summarise_race)
             for r in chunk_ranges(GAMES, 60)]
    assert json.dumps(merge_summaries(reversed(parts)).to_dict(exact=True)) == \
        json.dumps(reference.to_dict(exact=True))


def test_chunk_ranges_cover_every_game_once():
    assert chunk_ranges(10, 4) == [range(0, 4), range(4, 8), range(8, 10)]
    assert chunk_ranges(0, 4) == []
    with pytest.raises(ValueError, match="chunk_size must be an integer ≥ 1"):
        chunk_ranges(10, 0)


def _broken(game_index, rng):
    if game_index == 13:
        raise KeyError("HS-999")
    return {"winner": 0, "turns": 1, "margin": 0}


def test_a_failing_game_is_reported_with_its_index_and_seed():
    with pytest.raises(SimulationError, match=r"game 13 of the run seeded 77 failed: KeyError: 'HS-999'"):
        run_in_chunks(_broken, games=20, seed=77, summarise=summarise_race, chunk_size=5)


@pytest.mark.parametrize("bad", [{"games": -1}, {"games": 1.5}, {"seed": "7"}, {"start": -2}])
def test_run_games_rejects_bad_arguments(bad):
    kwargs = {"games": 3, "seed": 7, "start": 0, **bad}
    with pytest.raises(ValueError, match=next(iter(bad))):
        run_games(play_race, summarise=summarise_race, **kwargs)
