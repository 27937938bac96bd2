"""Batches: one run of several simulations that share a seed — a gauntlet and the list doctor.

A **batch** (`hangar.batch/1`) is a list of *legs*, each a complete `hangar.snapshot/1`, all played for the same
number of games with the same run seed:

    {
      "schema": "hangar.batch/1",
      "kind": "gauntlet",                     # or "doctor"
      "system": "hagmi",
      "legs": [
        {"key": "sample-vanguard", "weight": 0.7, "snapshot": { hangar.snapshot/1 }},
        {"key": "coop-abyssal-ark", "weight": 0.3, "snapshot": { ... }},
      ]
    }

Game i of every leg plays from `game_plan(seed, i, seats)` (rules_engine.core.seats: its deal, who goes first and
its separate streams), exactly as a plain `simulate` of that leg's snapshot with the same seed does, so a gauntlet
row equals the separate run against that opponent, and the doctor's baseline equals a plain run of the list. Every
leg carries the run's seat mode in its snapshot (`seats`). Because game i of a doctor's changed list has the same
seat, the same dice, the same opponent's deck order and the same opponent's policy stream as game i of the baseline
(only the list's own shuffle and choices differ), the two are *paired* (common random numbers): the per-game
outcomes (a `PerGame` stat, "w"/"l"/"d"), compared game by game, give a much narrower interval for the difference
than two independent runs would.

A batch is cut into chunks leg by leg (`batch_chunks`: leg 0's chunks, then leg 1's, ...); every chunk is a summary
that merges exactly, so the result is the same byte for byte whatever the chunk size, the number of processes or
Celery workers, or the order in which chunks finish (the machinery of rules_engine.simulation).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules_engine.core.runner import SimulationError, chunk_ranges, merge_summaries, run_games
from rules_engine.core.stats import Z_95, Summary
from rules_engine.simulation import (
    ENGINE_VERSION, SNAPSHOT_SCHEMA, SimulationInputError, _prepared, check_run, chunk_size_for, game_player,
    simulation_result,
)

BATCH_SCHEMA = "hangar.batch/1"
KINDS = ("gauntlet", "doctor")
MAX_LEGS = 64  # a gauntlet of many opponents or a doctor's baseline plus its candidate changes
OUTCOMES = "outcomes"  # the PerGame stat of every leg's summary
OUTCOME_CHARS = {"win": "w", "loss": "l", "draw": "d"}

__all__ = [
    "BATCH_SCHEMA", "KINDS", "MAX_LEGS", "OUTCOMES", "check_batch", "batch_chunks", "play_batch_chunk",
    "run_batch", "leg_summaries", "leg_results", "gauntlet_batch", "gauntlet_result", "weighted_total",
    "game_length", "is_batch",
]


def is_batch(value: Any) -> bool:
    return isinstance(value, Mapping) and value.get("schema") == BATCH_SCHEMA


def gauntlet_batch(legs: Sequence[tuple[str, float, Mapping[str, Any]]]) -> dict[str, Any]:
    """A gauntlet: (key, weight, snapshot) per opponent. Weights are kept as given and normalised when read."""
    return _batch("gauntlet", [{"key": key, "weight": weight, "snapshot": dict(snapshot)}
                               for key, weight, snapshot in legs])


def _batch(kind: str, legs: list[dict[str, Any]]) -> dict[str, Any]:
    """The batch, with the list its legs play (`list`: the first leg's, the same in every leg of a gauntlet)."""
    first = legs[0]["snapshot"] if legs else {}
    return {"schema": BATCH_SCHEMA, "kind": kind, "system": first.get("system"), "list": first.get("list") or {},
            "legs": legs}


def check_batch(batch: Any, *, games: Any, seed: Any) -> None:
    """The batch's envelope, every leg's snapshot (`check_run`) and a `prepare` of each: SimulationInputError
    naming the leg (legs[2] ...) on bad input."""
    if not is_batch(batch):
        raise SimulationInputError(f"batch.schema: expected {BATCH_SCHEMA!r}")
    if batch.get("kind") not in KINDS:
        raise SimulationInputError(f"batch.kind: expected one of {', '.join(KINDS)}, got {batch.get('kind')!r}")
    legs = batch.get("legs")
    if not isinstance(legs, list) or not 1 <= len(legs) <= MAX_LEGS:
        raise SimulationInputError(f"batch.legs: expected 1 to {MAX_LEGS} legs")
    keys = set()
    for index, leg in enumerate(legs):
        where = f"legs[{index}]"
        if not isinstance(leg, Mapping) or not isinstance(leg.get("key"), str) or not leg["key"]:
            raise SimulationInputError(f"{where}.key: expected a non-empty string")
        if leg["key"] in keys:
            raise SimulationInputError(f"{where}.key: {leg['key']!r} is given twice")
        keys.add(leg["key"])
        weight = leg.get("weight", 1)
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not (0 <= weight < math.inf):
            raise SimulationInputError(f"{where}.weight: expected a number ≥ 0, got {weight!r}")
        snapshot = leg.get("snapshot")
        if not isinstance(snapshot, Mapping) or snapshot.get("schema") != SNAPSHOT_SCHEMA:
            raise SimulationInputError(f"{where}.snapshot: expected a {SNAPSHOT_SCHEMA} object")
        if snapshot.get("system") != batch.get("system"):
            raise SimulationInputError(f"{where}.snapshot.system: {snapshot.get('system')!r}, but the batch is "
                                       f"{batch.get('system')!r}")
        try:
            simulator = check_run(snapshot, games=games, seed=seed)
            simulator.prepare(snapshot)
        except SimulationInputError as exc:
            raise SimulationInputError(f"{where} ({leg['key']}): {exc}") from None
    if batch["kind"] == "gauntlet" and not any(leg.get("weight", 1) > 0 for leg in legs):
        raise SimulationInputError("batch.legs: at least one opponent needs a weight above 0")


def batch_chunks(batch: Mapping[str, Any], games: int, chunk_size: int | None = None) -> list[tuple[int, range]]:
    """(leg index, game indices) of every chunk, leg by leg. `chunk_size`: the run's stored size for every leg;
    else each leg's `chunk_size_for` (its opponent's)."""
    out: list[tuple[int, range]] = []
    for index, leg in enumerate(batch["legs"]):
        size = chunk_size or chunk_size_for(leg["snapshot"])
        out.extend((index, games_range) for games_range in chunk_ranges(games, size))
    return out


def play_batch_chunk(batch: Mapping[str, Any], *, seed: int, leg: int, start: int, count: int) -> Summary:
    """Play games start .. start+count-1 of one leg: the leg's summary plus each game's outcome by index."""
    snapshot = batch["legs"][leg]["snapshot"]
    simulator, prepared = _prepared(snapshot)

    def summarise(summary: Summary, record: Mapping[str, Any]) -> None:
        simulator.summarise(summary, record)
        summary.per_game(OUTCOMES).add(start + summary.games, OUTCOME_CHARS[record["outcome"]])

    play, plan_for = game_player(simulator, prepared)
    return run_games(play, games=count, seed=seed, start=start, summarise=summarise, plan_for=plan_for)


def _play_task(batch: Mapping[str, Any], seed: int, leg: int, start: int, count: int) -> Summary:
    return play_batch_chunk(batch, seed=seed, leg=leg, start=start, count=count)


def run_batch(batch: Mapping[str, Any], *, games: int, seed: int, workers: int = 1,
              chunk_size: int | None = None,
              on_chunk: Callable[[int, int], None] | None = None) -> list[Summary]:
    """Play a whole batch here (workers=1) or in `workers` local processes; one merged summary per leg, the same
    whatever `workers` and `chunk_size` are. `on_chunk(done, total)` is told after each chunk (progress)."""
    check_batch(batch, games=games, seed=seed)
    plan = batch_chunks(batch, games, chunk_size)
    tasks = [(batch, seed, leg, chunk.start, len(chunk)) for leg, chunk in plan]
    if workers <= 1:
        summaries = []
        for done, task in enumerate(tasks, 1):
            summaries.append(_play_task(*task))
            if on_chunk:
                on_chunk(done, len(tasks))
    else:
        import multiprocessing

        # The batch goes to each process once (its initializer), not with every chunk: a doctor's batch holds dozens
        # of snapshots.
        with multiprocessing.get_context("spawn").Pool(processes=workers, initializer=_set_worker_batch,
                                                       initargs=(batch,)) as pool:
            summaries = []
            for done, summary in enumerate(pool.imap(_star_play, [task[1:] for task in tasks], chunksize=1), 1):
                summaries.append(summary)
                if on_chunk:
                    on_chunk(done, len(tasks))
    return leg_summaries(batch, [(leg, summary) for (leg, _), summary in zip(plan, summaries)])


_WORKER_BATCH: dict[str, Any] = {}


def _set_worker_batch(batch: Mapping[str, Any]) -> None:
    _WORKER_BATCH["batch"] = batch


def _star_play(task: tuple) -> Summary:
    return _play_task(_WORKER_BATCH["batch"], *task)


def leg_summaries(batch: Mapping[str, Any], chunks: Sequence[tuple[int, Summary]]) -> list[Summary]:
    """Merge stored chunk summaries (leg index, summary) into one summary per leg, in chunk order."""
    by_leg: list[list[Summary]] = [[] for _ in batch["legs"]]
    for leg, summary in chunks:
        by_leg[leg].append(summary)
    return [merge_summaries(parts) for parts in by_leg]


def leg_results(batch: Mapping[str, Any], summaries: Sequence[Summary], *, games: int, seed: int) -> list[dict]:
    """Each leg's report, exactly the result a plain `simulate` of its snapshot gives with this seed."""
    results = []
    for leg, summary in zip(batch["legs"], summaries):
        plain = Summary()
        plain.games = summary.games
        plain.stats = {name: stat for name, stat in summary.stats.items() if name != OUTCOMES}
        if summary.games != games:
            raise SimulationError(f"leg {leg['key']}: {summary.games} of {games} games were played")
        results.append(simulation_result(plain, leg["snapshot"], games=games, seed=seed))
    return results


def outcomes_of(summary: Summary, games: int) -> str:
    """The leg's outcome of every game, "w"/"l"/"d" by game index."""
    return summary.per_game(OUTCOMES).text(0, games)


def game_length(result: Mapping[str, Any]) -> tuple[str, float | None]:
    """("turns", mean) for HAGMI (your turns), ("rounds", mean) for MWDA and Warcaster."""
    for name in ("turns", "rounds"):
        value = result.get(name)
        if isinstance(value, Mapping):
            return name, value.get("mean")
    return "turns", None


def weighted_total(rows: Sequence[tuple[float, int, int]]) -> dict[str, Any]:
    """The weighted win rate of a gauntlet from (weight, wins, games) per opponent, weights normalised to add up
    to 1, with a 95 % normal interval (the opponents' runs are independent: var = Σ w² p(1−p)/n)."""
    weight_sum = sum(weight for weight, _, _ in rows)
    if weight_sum <= 0:
        return {"win_rate": 0.0, "win_rate_interval": [0.0, 0.0], "weight": 0.0}
    rate = 0.0
    variance = 0.0
    for weight, wins, games in rows:
        share = weight / weight_sum
        p = wins / games if games else 0.0
        rate += share * p
        variance += share * share * (p * (1 - p) / games if games else 0.0)
    half = Z_95 * math.sqrt(variance)
    return {
        "win_rate": round(rate, 6),
        "win_rate_interval": [round(max(0.0, rate - half), 6), round(min(1.0, rate + half), 6)],
    }


def gauntlet_result(batch: Mapping[str, Any], summaries: Sequence[Summary], *, games: int, seed: int) -> dict:
    """A row per opponent (its plain run's result, its normalised weight, its game length) and the weighted
    total. JSON-ready; the same bytes whatever the workers."""
    results = leg_results(batch, summaries, games=games, seed=seed)
    weight_sum = sum(leg.get("weight", 1) for leg in batch["legs"]) or 1
    rows = []
    for leg, result in zip(batch["legs"], results):
        length_name, length = game_length(result)
        opponent = leg["snapshot"].get("opponent") or {}
        rows.append({
            "key": leg["key"],
            "opponent": opponent.get("slug"),
            "name": opponent.get("name"),
            "name_en": opponent.get("name_en"),
            "kind": opponent.get("kind"),
            "weight": round(leg.get("weight", 1) / weight_sum, 6),
            "win_rate": result["win_rate"],
            "win_rate_interval": result["win_rate_interval"],
            "wins": result["wins"], "losses": result["losses"], "draws": result["draws"],
            "length": {"unit": length_name, "mean": length},
            "ended_by": result.get("ended_by", {}),
            "result": result,
        })
    first = batch["legs"][0]["snapshot"]
    total = weighted_total([(leg.get("weight", 1), row["wins"], games) for leg, row in zip(batch["legs"], rows)])
    lengths = [(row["weight"], row["length"]["mean"]) for row in rows if row["length"]["mean"] is not None]
    total["length"] = {
        "unit": rows[0]["length"]["unit"],
        "mean": round(sum(w * m for w, m in lengths) / (sum(w for w, _ in lengths) or 1), 6) if lengths else None,
    }
    return {
        "kind": "gauntlet",
        "system": batch.get("system"),
        "policy": first.get("policy"),
        **({"opponent_policy": first["opponent_policy"]} if first.get("opponent_policy") else {}),
        "games": games,
        "seed": seed,
        "engine_version": ENGINE_VERSION,
        "opponents": rows,
        "total": total,
    }
