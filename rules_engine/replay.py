"""Replay one game of a simulation run from its frozen snapshot: the event log the table is redrawn from.

Game i of a run seeded S always plays from `game_plan(S, i, seats)` (rules_engine.core.seats: its deal, who goes
first, its dice, each side's set-up and policy streams), so playing that one game again, with the snapshot's
simulator and the same policies and streams as `play_game`, gives exactly the game the run counted.
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
from rules_engine.simulation import SimulationInputError, simulator_for

__all__ = ["replay_events", "find_game", "table_of", "step_turns", "position_at", "board_events", "state_board", "state_codes",
           "ability_names"]

def find_game(snapshot: Mapping[str, Any], seed: int, outcome: str, *, games: int, tries: int) -> int | None:
    """The index of the first game of the run (snapshot, seed, `games` games) whose outcome for the list is
    `outcome` ("win", "loss" or "draw"), looking at most at the first `tries` games (each is played again, exactly
    as the run played it); None when none of them has it."""
    from rules_engine.simulation import game_player

    simulator = simulator_for(snapshot.get("system"))
    play, plan_for = game_player(simulator, simulator.prepare(snapshot))
    for index in range(min(games, tries)):
        if play(index, plan_for(seed, index)).get("outcome") == outcome:
            return index
    return None


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
    # The same steps as BaseSimulator.play_game, keeping the state (play_game keeps only the record).
    plan = simulator.plan(prepared, seed, game_index)
    state = simulator.new_state(prepared, plan)
    max_steps = getattr(simulator, "max_steps", 100_000)
    board = importlib.import_module(_BOARD_MODULES[system]) if system in _BOARD_MODULES else None
    watcher = board.Boards() if board is not None else None  # the HAGMI board of every turn (hagmi/board.py)
    play_out(state, prepared.policies, plan.policies, max_steps, watcher=watcher)
    boards: list[dict[str, Any]] = watcher.finish(state) if watcher is not None else []
    events = state.events.to_list()
    record = simulator.record(state)
    record["seat"] = simulator.seat_of(plan, state)
    return {
        "system": system,
        "table": table_of(system, events),
        "events": events,
        "outcome": record.get("outcome"),
        "record": record,
        "boards": boards,
        "codes": board.codes_of(state) if board is not None else {},
    }


def step_turns(events: list[dict[str, Any]]) -> list[int]:
    """The turn of each step of a replay: its events grouped by turn, in order (the replay page's steps)."""
    turns: list[int] = []
    for event in events:
        if not turns or turns[-1] != event["turn"]:
            turns.append(event["turn"])
    return turns


class _PositionAt:
    """Watches a replayed game and exports the position at the first decision after turn `turn` (or the final
    state when the game ends in that turn): what "simulate from here" and "download this step" start from."""

    def __init__(self, system: str, turn: int) -> None:
        self.system, self.turn = system, turn
        self.position: dict[str, Any] | None = None

    def seen(self, state: Any) -> None:
        if self.position is None and (state.turn > self.turn or state.is_terminal()):
            from rules_engine.positions import export_position

            self.position = export_position(self.system, state)

    def before(self, state: Any, action: Any) -> None:
        return None


def position_at(snapshot: Mapping[str, Any], seed: int, game_index: int, step: int) -> dict[str, Any]:
    """The position (hangar.position/1) after step `step` of game `game_index` of the run seeded `seed`: the state
    at the first decision of the turn after the step's turn, with the generator's exact state, so the game played
    on from it with the run's policies is the very game of the run. It names the run's list and opponent.

    Raises SimulationInputError naming the field when the game or the step does not exist.
    """
    game = replay_events(snapshot, seed, game_index)
    turns = step_turns(game["events"])
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step < len(turns):
        raise SimulationInputError(f"step: this game has steps 0 to {len(turns) - 1}, not {step!r}")
    system = snapshot["system"]
    simulator = simulator_for(system)
    prepared = simulator.prepare(snapshot)
    plan = simulator.plan(prepared, seed, game_index)
    state = simulator.new_state(prepared, plan)
    watcher = _PositionAt(system, turns[step])
    play_out(state, prepared.policies, plan.policies, getattr(simulator, "max_steps", 100_000), watcher=watcher)
    position = watcher.position or {}
    # The list's cards (to summarise games card by card), never its name or notes: a shared run's step may be
    # downloaded by anyone with the run's link, and a private list's name stays its owner's (docs/security.md).
    position["list"] = {key: value for key, value in (snapshot.get("list") or {}).items()
                        if key not in ("name", "notes", "description", "author", "tags")}
    position["opponent"] = position.get("opponent") or snapshot.get("opponent") or {}
    position["note"] = f"game {game_index} of the run seeded {seed}, after step {step} (turn {turns[step]})"
    return position


def state_board(system: str, state: Any) -> dict[str, Any] | None:
    """A card game's board as `state` stands (HAGMI: rules_engine/hagmi/board.py `board_of`); None for a game
    drawn on a table (`board_events`)."""
    if system not in _BOARD_MODULES:
        return None
    return importlib.import_module(_BOARD_MODULES[system]).board_of(state)


def state_codes(system: str, state: Any) -> dict[int, str]:
    """A card game's card code by uid (the log names cards by uid); none for the other games."""
    if system not in _BOARD_MODULES:
        return {}
    return importlib.import_module(_BOARD_MODULES[system]).codes_of(state)


def _table(system: Any) -> Any:
    """The module that draws the game's table (its registry entry's `table_module`), or None (a card game)."""
    from rules_engine.systems import SYSTEMS

    entry = SYSTEMS.get(system) if isinstance(system, str) else None
    return importlib.import_module(entry.table_module) if entry is not None and entry.table_module else None


def ability_names(system: str, state: Any) -> dict[int, list[str]]:
    """Each model's abilities by the index an action uses (Warcaster `ability:MODEL:INDEX:CHOICE`), by name."""
    table = _table(system)
    return table.ability_names(state) if table is not None else {}


def board_events(system: str, state: Any) -> list[dict[str, Any]]:
    """The table as `state` stands, written as the events a replay draws it from (`setup`, `deploy`, `gate`,
    `damage`), turn 0: the analysis page draws a position with the replay's table and names its pieces as the
    replay does. HAGMI (a card game) has none: its board is read from the state (hagmi/board.py)."""
    events: list[dict[str, Any]] = []

    def add(kind: str, player: int | None, data: dict[str, Any]) -> None:
        events.append({"kind": kind, "turn": 0, "player": player, "data": data})

    table = _table(system)
    if table is not None:
        table.board_events(state, add)
    return events


def table_of(system: Any, events: list[dict[str, Any]]) -> dict[str, Any]:
    """The table the game was played on, from its `setup` event: size in inches, terrain, objective (the game's
    table module). HAGMI (a card game) has no table: width and height are 0.
    """
    setup = next((event["data"] for event in events if event["kind"] == "setup"), {})
    table = _table(system)
    if table is not None:
        return table.table_of(setup)
    return {"width": 0.0, "height": 0.0, "name": "", "deploy_depth": None, "terrain": [], "objective": None}
