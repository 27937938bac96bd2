"""How a stored run is cut into chunks (docs/simulations.md): the (leg, game indices) of every chunk by its global
index, a doctor run's stages and each chunk's seed, and the words that name a chunk in a failure. Every worker, the
merge and the watchdog cut a run the same way from what was stored at submit. Reads only; writes nothing.
"""
from __future__ import annotations

from typing import Any

from builder.models import RunKind, SimulationRun
from rules_engine import doctor as doctor_engine
from rules_engine import simulation as engine
from rules_engine.batch import batch_chunks


def run_chunks(run: SimulationRun) -> list[tuple[int | None, range]]:
    """(leg, game indices) of every chunk of the run, by global chunk index: leg None for a plain run, cut by the
    chunk size stored at submit (the simulator's default for a run stored before chunk sizes were measured); for a
    gauntlet or doctor run, the batch's legs one after the other (rules_engine.batch.batch_chunks), every leg cut by
    the run's one stored chunk size, so every worker and the watchdog cut it the same way; a doctor run's stages one
    after the other (rules_engine.doctor.stage_chunks: its screen's chunks are the batch's, its confirm stage's come
    after them once the screen is merged)."""
    if run.kind == RunKind.DOCTOR:
        return [(leg, games) for _stage, leg, games in doctor_plan(run)]
    if run.kind == RunKind.GAUNTLET:
        return [(leg, games) for leg, games in batch_chunks(run.snapshot, run.games, run.chunk_size)]
    return [(None, games) for games in engine.chunks(run.games, run.snapshot, run.chunk_size)]


def doctor_stages(run: SimulationRun) -> list[dict[str, Any]]:
    """A doctor run's stages as stored; a doctor run stored before stages were: one stage of every leg on the run
    seed (what it played)."""
    if run.stages:
        return list(run.stages)
    return [{"stage": doctor_engine.SCREEN, "round": 0, "seed": run.seed, "games": run.games,
             "legs": list(range(len((run.snapshot or {}).get("legs") or [])))}]


def doctor_plan(run: SimulationRun) -> list[tuple[int, int, range]]:
    return doctor_engine.stage_chunks(run.snapshot, doctor_stages(run), run.chunk_size)


def run_chunk_seed(run: SimulationRun, index: int) -> int:
    """The seed chunk `index` plays on: the run seed, or for a doctor run the seed of the chunk's stage."""
    if run.kind != RunKind.DOCTOR:
        return run.seed
    stage, _leg, _games = doctor_plan(run)[index]
    return int(doctor_stages(run)[stage]["seed"])


def run_chunk_ranges(run: SimulationRun) -> list[range]:
    """The game indices of every chunk of the run (run_chunks without the legs)."""
    return [games for _leg, games in run_chunks(run)]


def leg_key(run: SimulationRun, leg: int | None) -> str | None:
    if leg is None:
        return None
    try:
        return str(run.snapshot["legs"][leg]["key"])
    except (KeyError, IndexError, TypeError):
        return None


def chunk_label(index: int, games: range | None, leg: str | None = None) -> str:
    where = f" of {leg}" if leg else ""
    return f"chunk {index} (games {games.start}-{games.stop - 1}{where})" if games else f"chunk {index}"
