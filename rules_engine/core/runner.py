"""Run many seeded games and fold their records into one mergeable `Summary` (docs/design.md §3.3).

Game i of a run seeded S always plays with `game_rng(S, i)` (or, given `plan_for`, with `plan_for(S, i)`: the
game's deal, seat and streams, rules_engine.core.seats), so its record does not depend on the chunk or worker that
plays it. A run is split into chunks of consecutive game indices (`chunk_ranges`); each chunk's
summary is merged in chunk-index order (`merge_summaries`). Summaries merge exactly (integer arithmetic, see
stats.py), so the result is the same bit for bit whatever the chunk size, the number of workers or the merge
order. A Celery task computes one chunk with `run_games(..., start=r.start, games=len(r))`.

`play_one(game_index, rng) -> record` plays one game (`rng`: what `plan_for` gives, by default the generator) and
returns a mapping describing it; `summarise(summary, record)` adds that record to a summary. `run_games` counts the game (`summary.games`).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rules_engine.core.rng import game_rng
from rules_engine.core.stats import Summary

__all__ = ["PlayOne", "Summarise", "DEFAULT_CHUNK_SIZE", "SimulationError", "run_games", "chunk_ranges",
           "merge_summaries"]

PlayOne = Callable[[int, Any], Mapping[str, Any]]
Summarise = Callable[[Summary, Mapping[str, Any]], None]

DEFAULT_CHUNK_SIZE = 500


class SimulationError(Exception):
    """A game of a run failed; the message names the game index and the run seed to reproduce it."""


def _check_int(name: str, value: Any, minimum: int | None = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or (minimum is not None and value < minimum):
        bound = "" if minimum is None else f" ≥ {minimum}"
        raise ValueError(f"{name} must be an integer{bound}, got {value!r}")
    return value


def run_games(
    play_one: PlayOne, *, games: int, seed: int, start: int = 0, summarise: Summarise,
    plan_for: Callable[[int, int], Any] = game_rng,
) -> Summary:
    """Play games start .. start + games - 1 of the run seeded `seed`, in order, into a new Summary. Game i is
    played with `plan_for(seed, i)` (default `game_rng`: one generator for everything)."""
    _check_int("games", games)
    _check_int("seed", seed, None)
    _check_int("start", start)
    summary = Summary()
    for index in range(start, start + games):
        try:
            record = play_one(index, plan_for(seed, index))
            summarise(summary, record)
        except SimulationError:
            raise
        except Exception as exc:
            raise SimulationError(
                f"game {index} of the run seeded {seed} failed: {type(exc).__name__}: {exc}"
            ) from exc
        summary.games += 1
    return summary


def chunk_ranges(games: int, chunk_size: int = DEFAULT_CHUNK_SIZE) -> list[range]:
    """Split game indices [0, games) into consecutive ranges of `chunk_size` (the last may be shorter)."""
    _check_int("games", games)
    _check_int("chunk_size", chunk_size, 1)
    return [range(lo, min(lo + chunk_size, games)) for lo in range(0, games, chunk_size)]


def merge_summaries(summaries: Iterable[Summary]) -> Summary:
    """Merge summaries in the order given (chunk-index order) into a new Summary."""
    merged = Summary()
    for summary in summaries:
        merged.merge(summary)
    return merged
