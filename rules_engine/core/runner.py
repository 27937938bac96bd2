"""Run many seeded games and fold their records into one mergeable `Summary` (DESIGN.md §4).

Game i of a run seeded S always plays with `game_rng(S, i)`, so its record does not depend on the chunk or
worker that plays it. A run is split into chunks of consecutive game indices (`chunk_ranges`); each chunk's
summary is merged in chunk-index order (`merge_summaries`). Summaries merge exactly (integer arithmetic, see
stats.py), so the result is the same bit for bit whatever the chunk size, the number of workers or the merge
order. A Celery task computes one chunk with `run_games(..., start=r.start, games=len(r))`.

`play_one(game_index, rng) -> record` plays one game and returns a mapping describing it;
`summarise(summary, record)` adds that record to a summary. `run_games` counts the game (`summary.games`).
"""
from __future__ import annotations

import importlib
import multiprocessing
import pickle
import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Union

from rules_engine.core.rng import game_rng
from rules_engine.core.stats import Summary

__all__ = [
    "PlayOne", "Summarise", "CallableSpec", "DEFAULT_CHUNK_SIZE", "SimulationError", "run_games", "chunk_ranges",
    "merge_summaries", "run_chunks", "resolve_callable", "run_parallel",
]

PlayOne = Callable[[int, random.Random], Mapping[str, Any]]
Summarise = Callable[[Summary, Mapping[str, Any]], None]
ChunkDone = Callable[[int, Summary], None]
# A picklable top-level callable (or functools.partial of one), or an import path "package.module:name".
CallableSpec = Union[str, Callable[..., Any]]

DEFAULT_CHUNK_SIZE = 500


class SimulationError(Exception):
    """A game of a run failed; the message names the game index and the run seed to reproduce it."""


def _check_int(name: str, value: Any, minimum: int | None = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or (minimum is not None and value < minimum):
        bound = "" if minimum is None else f" ≥ {minimum}"
        raise ValueError(f"{name} must be an integer{bound}, got {value!r}")
    return value


def run_games(
    play_one: PlayOne, *, games: int, seed: int, start: int = 0, summarise: Summarise
) -> Summary:
    """Play games start .. start + games - 1 of the run seeded `seed`, in order, into a new Summary."""
    _check_int("games", games)
    _check_int("seed", seed, None)
    _check_int("start", start)
    summary = Summary()
    for index in range(start, start + games):
        try:
            record = play_one(index, game_rng(seed, index))
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


def run_chunks(
    play_one: PlayOne,
    *,
    games: int,
    seed: int,
    summarise: Summarise,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    on_chunk: ChunkDone | None = None,
) -> Summary:
    """Play the run chunk by chunk in this process; `on_chunk(chunk_index, chunk_summary)` reports progress."""
    def chunks() -> Iterable[Summary]:
        for index, r in enumerate(chunk_ranges(games, chunk_size)):
            part = run_games(play_one, games=len(r), seed=seed, start=r.start, summarise=summarise)
            if on_chunk is not None:
                on_chunk(index, part)
            yield part

    _check_int("seed", seed, None)
    return merge_summaries(chunks())


def resolve_callable(spec: CallableSpec) -> Callable[..., Any]:
    """A callable from a spec: itself, or the object at import path "package.module:name" (or "package.module.name")."""
    if callable(spec):
        return spec
    if not isinstance(spec, str) or not spec:
        raise ValueError(f"expected a callable or an import path 'package.module:name', got {spec!r}")
    module_name, sep, attr = spec.partition(":")
    if not sep:
        module_name, _, attr = spec.rpartition(".")
    if not module_name or not attr:
        raise ValueError(f"import path {spec!r} must look like 'package.module:name'")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"import path {spec!r}: cannot import module {module_name!r} ({exc})") from exc
    target: Any = module
    for part in attr.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise ValueError(f"import path {spec!r}: {module_name!r} has no attribute {attr!r}") from None
    if not callable(target):
        raise ValueError(f"import path {spec!r} names a {type(target).__name__}, not a callable")
    return target


def _check_spec(name: str, spec: CallableSpec) -> None:
    resolve_callable(spec)  # fail here, in the caller's process, with a clear message
    try:
        pickle.dumps(spec)
    except Exception as exc:
        raise ValueError(
            f"{name} must be picklable to run in worker processes: a top-level function, a functools.partial "
            f"of one with picklable arguments, or an import path 'package.module:name' (got {spec!r}: {exc})"
        ) from exc


def _run_chunk(task: tuple[CallableSpec, CallableSpec, int, int, int]) -> Summary:
    """Worker entry point (top level, so spawn can find it): play one chunk."""
    play_spec, summarise_spec, seed, start, games = task
    return run_games(
        resolve_callable(play_spec), games=games, seed=seed, start=start, summarise=resolve_callable(summarise_spec)
    )


def run_parallel(
    play_one_spec: CallableSpec,
    games: int,
    seed: int,
    workers: int = 1,
    *,
    summarise: CallableSpec,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    on_chunk: ChunkDone | None = None,
) -> Summary:
    """Play the run over `workers` local processes (spawned, so safe on every platform and beside threads).

    The chunking depends only on `chunk_size`, never on `workers`, and chunks merge in index order, so the
    result is the same byte for byte whatever `workers` is. `workers=1` plays in this process.
    `on_chunk(chunk_index, chunk_summary)` is called in chunk-index order as results arrive.
    """
    _check_int("workers", workers, 1)
    _check_int("seed", seed, None)
    _check_spec("play_one_spec", play_one_spec)
    _check_spec("summarise", summarise)
    ranges = chunk_ranges(games, chunk_size)
    tasks = [(play_one_spec, summarise, seed, r.start, len(r)) for r in ranges]
    processes = min(workers, len(tasks))

    def collect(parts: Iterable[Summary]) -> Summary:
        merged = Summary()
        for index, part in enumerate(parts):
            if on_chunk is not None:
                on_chunk(index, part)
            merged.merge(part)
        return merged

    if processes <= 1:
        return collect(map(_run_chunk, tasks))
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        return collect(pool.imap(_run_chunk, tasks))
