"""A TEST-ONLY simulator: a seeded dice race, registered as system "toy" (never a real game system).

It stands in for the HAGMI engine in the simulation pipeline tests until rules_engine/hagmi/simulation.py lands.
Worker processes load it through the plugin hook HANGAR_SIMULATOR_MODULES=tests.support.toy_simulator.

The race: the list's side and the opponent each roll `dice` six-sided dice per turn, the list adding its cards'
`speed` (the sum over the list's entries); the first to reach `target` points wins (the list rolls first).
`dice` sets the work per game, so a chunk can be made to take as long as a test or benchmark needs.

Fault injection (tests/services/test_faults.py): a worker started with HANGAR_TOY_FAULTS=PATH reads the JSON plan at
PATH (when the file exists) as it prepares a snapshot, e.g. {"game": 1500, "action": "raise", "once": true}:
- "raise": game `game` raises RuntimeError (once: only the first time any worker reaches it, then it plays normally);
- "wait": the worker that first reaches game `game` waits there until PATH.release exists (never, to hang it until
  the test SIGKILLs it; or until the test has restarted a service under it), then plays the game normally.
The first firing creates PATH.fired holding the worker process id. The plan never changes a game's result, and the
snapshot stays the same, so the run must still equal the in-process `simulate` of that snapshot.
"""
from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rules_engine.core.stats import Summary
from rules_engine.simulation import SNAPSHOT_SCHEMA, SimulationInputError, register_simulator

SYSTEM = "toy"
FAULTS_ENV = "HANGAR_TOY_FAULTS"
WAIT_LIMIT = 300.0  # seconds a "wait" fault waits for its release file at most


def fault_plan() -> dict[str, Any] | None:
    """The fault plan of this process (HANGAR_TOY_FAULTS), or None."""
    path = os.environ.get(FAULTS_ENV)
    if not path or not Path(path).exists():
        return None
    plan = json.loads(Path(path).read_text())
    if plan.get("action") not in ("raise", "wait") or not isinstance(plan.get("game"), int):
        raise ValueError(f"{path}: expected {{'game': int, 'action': 'raise'|'wait', 'once': bool}}, got {plan!r}")
    return {**plan, "fired": f"{path}.fired", "release": f"{path}.release"}


def _fire(fault: Mapping[str, Any]) -> bool:
    """Record the firing in PATH.fired; False when the fault fires once and has fired already."""
    flags = os.O_CREAT | os.O_WRONLY | (os.O_EXCL if fault.get("once", True) else os.O_APPEND)
    try:
        descriptor = os.open(fault["fired"], flags)
    except FileExistsError:
        return False
    with os.fdopen(descriptor, "w") as fired:
        fired.write(f"{os.getpid()}\n")
    return True


def _inject(fault: Mapping[str, Any], game_index: int) -> None:
    if not _fire(fault):
        return
    if fault["action"] == "raise":
        raise RuntimeError(f"toy fault injected at game {game_index}")
    deadline = time.monotonic() + WAIT_LIMIT
    while not Path(fault["release"]).exists() and time.monotonic() < deadline:
        time.sleep(0.02)


class DiceRace:
    system = SYSTEM

    def prepare(self, snapshot: Mapping[str, Any]) -> dict[str, Any]:
        options = snapshot.get("options") or {}
        cards = snapshot.get("cards") or {}
        speed = 0
        for section, entries in (snapshot.get("list") or {}).get("sections", {}).items():
            for position, entry in enumerate(entries):
                card = cards.get(entry.get("card"))
                if card is None:
                    raise SimulationInputError(
                        f"list.sections.{section}[{position}]: card {entry.get('card')!r} is not in the snapshot"
                    )
                speed += int(card.get("speed", 0)) * int(entry.get("qty", 1))
        target, dice = options.get("target", 60), options.get("dice", 4)
        for name, value in (("target", target), ("dice", dice)):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10_000:
                raise SimulationInputError(f"options.{name}: expected an integer from 1 to 10000, got {value!r}")
        return {"speed": speed, "target": target, "dice": dice, "fault": fault_plan()}

    def play_one(self, prepared: Mapping[str, Any], game_index: int, rng: Any) -> dict[str, Any]:
        fault = prepared["fault"]
        if fault is not None and fault["game"] == game_index:
            _inject(fault, game_index)
        scores, turns = [0, 0], 0
        dice, target = prepared["dice"], prepared["target"]
        while True:
            turns += 1
            for side, bonus in ((0, prepared["speed"]), (1, 0)):
                scores[side] += sum(rng.randint(1, 6) for _ in range(dice)) + bonus
                if scores[side] >= target:
                    winner = "list" if side == 0 else "opponent"
                    return {"winner": winner, "turns": turns, "margin": scores[0] - scores[1]}

    def summarise(self, summary: Summary, record: Mapping[str, Any]) -> None:
        summary.tally("winner").add(record["winner"])
        summary.histogram("turns").add(record["turns"])
        summary.mean("margin").add(record["margin"])

    def result(self, summary: Summary, snapshot: Mapping[str, Any], *, games: int, seed: int) -> dict[str, Any]:
        low, high = summary.tally("winner").wilson("list")
        return {
            "win_rate": round(summary.tally("winner").rate("list"), 6),
            "win_rate_95": [round(low, 6), round(high, 6)],
            "summary": summary.to_dict(),
        }

    def opponents(self) -> list[str]:
        return ["racer"]

    def referenced_cards(self, opponent: Mapping[str, Any]) -> set[str]:
        return set()  # the racer uses no cards


register_simulator(DiceRace())


def write_fault_plan(path: Path, *, game: int, action: str, once: bool = True) -> None:
    """Write the plan that workers started with HANGAR_TOY_FAULTS=path follow (see the module docstring)."""
    path.write_text(json.dumps({"game": game, "action": action, "once": once}))


def toy_snapshot(*, speed: int = 1, target: int = 60, dice: int = 4, policy: str = "greedy") -> dict[str, Any]:
    """A complete hangar.snapshot/1 for the toy system."""
    return {
        "schema": SNAPSHOT_SCHEMA,
        "system": SYSTEM,
        "list": {"schema": "hangar.list/1", "system": SYSTEM, "format": None, "name": "Toy racer",
                 "sections": {"main": [{"card": "TOY-1", "qty": 1}]}},
        "cards": {"TOY-1": {"code": "TOY-1", "name": "試験走者", "name_en": "Test Runner", "speed": speed}},
        "opponent": {"slug": "racer", "kind": "racer", "name": "Racer"},
        "policy": policy,
        "options": {"target": target, "dice": dice},
    }
