"""Replay one game of a simulation run from its frozen snapshot: the event log the table is redrawn from.

Game i of a run seeded S always plays with `game_rng(S, i)` (rules_engine.core.runner), so playing that one game
again, with the snapshot's simulator and the same policies as `play_one`, gives exactly the game the run counted.
`replay_events` returns the game's event log and its record (the same record `simulator.record` gave the run).
A card game (HAGMI!) has no table to redraw from its log: its board module (`rules_engine/<game>/board.py`, found
by `_BOARD_MODULES`) watches the state while it plays and gives the board at the end of every turn (`boards`) and
each card's code by uid (`codes`); watching only reads the state, so the game and its events stay the same.
Pure Python: no Django.
"""
from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from rules_engine.core.game import play_out
from rules_engine.core.rng import game_rng
from rules_engine.simulation import SimulationInputError, simulator_for

__all__ = ["replay_events", "table_of"]

# The games whose board is read from the state rather than redrawn from the log (rules_engine/<game>/board.py).
_BOARD_MODULES = {"hagmi": "rules_engine.hagmi.board"}


def replay_events(snapshot: Mapping[str, Any], seed: int, game_index: int) -> dict[str, Any]:
    """Play game `game_index` of the run seeded `seed` again; return its table, event log, outcome and record.

    Raises SimulationInputError naming the field when the snapshot, the seed or the index cannot be replayed.
    """
    if not isinstance(snapshot, Mapping):
        raise SimulationInputError("snapshot: expected a JSON object")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise SimulationInputError(f"seed: expected an integer ≥ 0, got {seed!r}")
    if isinstance(game_index, bool) or not isinstance(game_index, int) or game_index < 0:
        raise SimulationInputError(f"game index: expected an integer ≥ 0, got {game_index!r}")
    system = snapshot.get("system")
    simulator = simulator_for(system)
    prepared = simulator.prepare(snapshot)
    rng = game_rng(seed, game_index)
    # The same steps as BaseSimulator.play_one, keeping the state (play_one keeps only the record).
    state = prepared.game.new_initial_state(rng)
    max_steps = getattr(simulator, "max_steps", 100_000)
    board = importlib.import_module(_BOARD_MODULES[system]) if system in _BOARD_MODULES else None
    watcher = board.Boards() if board is not None else None  # the HAGMI board of every turn (hagmi/board.py)
    play_out(state, prepared.policies, rng, max_steps, watcher=watcher)
    boards: list[dict[str, Any]] = watcher.finish(state) if watcher is not None else []
    events = state.events.to_list()
    record = simulator.record(state)
    return {
        "system": system,
        "table": table_of(system, events),
        "events": events,
        "outcome": record.get("outcome"),
        "record": record,
        "boards": boards,
        "codes": board.codes_of(state) if board is not None else {},
    }


def table_of(system: Any, events: list[dict[str, Any]]) -> dict[str, Any]:
    """The table the game was played on, from its `setup` event: size in inches, terrain, objective.

    HAGMI (a card game) has no table: width and height are 0.
    """
    setup = next((event["data"] for event in events if event["kind"] == "setup"), {})
    if system == "mwda":  # the 36″×36″ table with one of the terrain layouts (docs/engine-mwda.md)
        table = setup.get("table") or {}
        size = float(table.get("size") or 36.0)
        return {"width": size, "height": size, "name": table.get("name", ""),
                "deploy_depth": table.get("deploy_depth"), "terrain": list(table.get("terrain") or []),
                "objective": None}
    if system == "warcaster":  # no terrain; the centre objective (W16) and the gates (positions in the log)
        width, height = setup.get("table") or (30.0, 30.0)
        centre = setup.get("objective") or (width / 2, height / 2)
        return {"width": float(width), "height": float(height), "name": "", "deploy_depth": None, "terrain": [],
                "objective": {"x": centre[0], "y": centre[1], "r": setup.get("objective_radius", 3)}}
    return {"width": 0.0, "height": 0.0, "name": "", "deploy_depth": None, "terrain": [], "objective": None}
