"""Warcaster's table as a replay draws it (rules_engine/replay.py reaches it through the registry entry's
`table_module`): the table, its models and gates written as the events a replay reads, the table of a setup, and
each model's abilities by name."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules_engine.warcaster.deployment import side_info


def board_events(state: Any, add: Callable[[str, int | None, dict[str, Any]], None]) -> None:
    add("setup", None, {"table": [state.size, state.size], "objective": list(state.centre),
                        "objective_radius": state.options["objective_radius"],
                        "sides": [side_info(state, player) for player in (0, 1)]})
    for model in state.models:
        if model.alive and model.x >= 0:
            add("deploy", model.player, {"models": [[model.uid, model.x, model.y]]})
            if model.health != model.spec.health:
                add("damage", model.player, {"model": model.uid, "health": model.health})
        elif not model.alive:
            add("destroyed", model.player, {"model": model.uid})
    for side in state.sides:
        for gate in side.gates:
            add("gate", side.player, {"gate": gate.uid, "at": [gate.x, gate.y], "arc": gate.arc})


def table_of(setup: Mapping[str, Any]) -> dict[str, Any]:
    """No terrain; the centre objective (W16) and the gates (positions in the log)."""
    width, height = setup.get("table") or (30.0, 30.0)
    centre = setup.get("objective") or (width / 2, height / 2)
    return {"width": float(width), "height": float(height), "name": "", "deploy_depth": None, "terrain": [],
            "objective": {"x": centre[0], "y": centre[1], "r": setup.get("objective_radius", 3)}}


def ability_names(state: Any) -> dict[int, list[str]]:
    """Each model's abilities by the index an action uses (`ability:MODEL:INDEX:CHOICE`), by name."""
    return {model.uid: [ability.name for ability in model.spec.abilities] for model in state.models}
