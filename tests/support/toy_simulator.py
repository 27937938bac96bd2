"""A TEST-ONLY simulator: a seeded dice race, registered as system "toy" (never a real game system).

It stands in for the HAGMI engine in the simulation pipeline tests until rules_engine/hagmi/simulation.py lands.
Worker processes load it through the plugin hook HANGAR_SIMULATOR_MODULES=tests.support.toy_simulator.

The race: the list's side and the opponent each roll `dice` six-sided dice per turn, the list adding its cards'
`speed` (the sum over the list's entries); the first to reach `target` points wins (the list rolls first).
`dice` sets the work per game, so a chunk can be made to take as long as a test or benchmark needs.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules_engine.core.stats import Summary
from rules_engine.simulation import SNAPSHOT_SCHEMA, SimulationInputError, register_simulator

SYSTEM = "toy"


class DiceRace:
    system = SYSTEM

    def prepare(self, snapshot: Mapping[str, Any]) -> dict[str, int]:
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
        return {"speed": speed, "target": target, "dice": dice}

    def play_one(self, prepared: Mapping[str, int], game_index: int, rng: Any) -> dict[str, Any]:
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
