"""Shared scenario builders for the Warcaster engine tests (bundled package, models placed by hand, scripted dice)."""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from rules_engine.warcaster.game import WarcasterGame, WarcasterState
from rules_engine.warcaster.state import Model, Unit

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = json.loads((ROOT / "cards/packages/warcaster/core-sample.json").read_text(encoding="utf-8"))
CARDS = {card["code"]: card for card in PACKAGE["cards"]}
OPPONENTS = {opp["slug"]: opp for opp in PACKAGE["opponents"]}
# The package as it was on the scale of the earlier W11 reading (option dice_scale = "stat_plus_dice"): the tests of
# that reading, and the same games it played before the dice pools (test_dice_scale.py).
OLD_SCALE_PACKAGE = json.loads((ROOT / "tests/rules_engine/fixtures/warcaster_old_scale/core-sample.json")
                               .read_text(encoding="utf-8"))
OLD_CARDS = {card["code"]: card for card in OLD_SCALE_PACKAGE["cards"]}
# The readings the old scale was played with: W11 stat + dice, W13 ⌈POW/2⌉ blast damage.
OLD_SCALE_OPTIONS = {"dice_scale": "stat_plus_dice", "blast_damage": "half_pow"}
LISTS = {path.stem: json.loads(path.read_text(encoding="utf-8"))
         for path in sorted((ROOT / "cards/packages/warcaster/lists").glob("*.json"))}

# Action-die faces (index into 0,0,0,1,1,2) and power-die faces (index into 0,1,1,1,1,2) by strikes.
ACTION = {0: 0, 1: 3, 2: 5}
POWER = {0: 0, 1: 1, 2: 5}


class Scripted(random.Random):
    """A Random whose randrange/randint return the scripted values first (die face indices, d6 results)."""

    def __init__(self, values: list[int] | None = None) -> None:
        super().__init__(0)
        self.values = list(values or [])

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
        if self.values:
            return self.values.pop(0)
        return super().randrange(start, stop, step)

    def randint(self, a: int, b: int) -> int:
        return self.randrange(a, b + 1)


def action_dice(*strikes: int) -> list[int]:
    return [ACTION[s] for s in strikes]


def power_dice(*strikes: int) -> list[int]:
    return [POWER[s] for s in strikes]


def force_list(entries: list[dict[str, Any]], rack: list[str] = ()) -> dict[str, Any]:
    return {"schema": "hangar.list/1", "system": "warcaster", "format": "skirmish", "name": "test",
            "sections": {"force": entries, "rack": [{"card": c, "qty": 1} for c in rack]}}


def table(mine: list[tuple[dict[str, Any], list[tuple[float, float]]]],
          theirs: list[tuple[str, list[tuple[float, float]]]], *, rack: list[str] = (),
          options: dict[str, Any] | None = None, cards: dict[str, Any] | None = None) -> WarcasterState:
    """A state with player 0's units (list entries) and goldfish units (codes) standing where given."""
    game = WarcasterGame(force_list([entry for entry, _ in mine], rack), cards or CARDS,
                         {"kind": "goldfish", "units": [{"card": code, "qty": 1} for code, _ in theirs]}, options)
    state = game.new_initial_state(random.Random(0))
    positions = [spots for _, spots in mine] + [spots for _, spots in theirs]
    units = [state.units[u] for u in state.sides[0].units] + [state.units[u] for u in state.sides[1].units]
    for unit, spots in zip(units, positions):
        unit.status = "board"
        for model, (x, y) in zip(unit.models, spots):
            model.x, model.y = x, y
        for model in unit.models[len(spots):]:
            model.alive, model.health = False, 0
    state.invalidate()
    return state


def old_scale_table(mine: list[tuple[dict[str, Any], list[tuple[float, float]]]],
                    theirs: list[tuple[str, list[tuple[float, float]]]], *, rack: list[str] = (),
                    options: dict[str, Any] | None = None) -> WarcasterState:
    """`table` on the old-scale package with W11's earlier reading (option dice_scale = "stat_plus_dice") and
    W13's reading made for it (blast_damage = "half_pow")."""
    return table(mine, theirs, rack=rack, options={**OLD_SCALE_OPTIONS, **(options or {})}, cards=OLD_CARDS)


def unit_of(state: WarcasterState, player: int, index: int = 0) -> Unit:
    return state.units[state.sides[player].units[index]]


def model_of(state: WarcasterState, player: int, index: int = 0, model: int = 0) -> Model:
    return unit_of(state, player, index).models[model]


def events(state: WarcasterState, kind: str, since: int = 0) -> list[Any]:
    return [e for e in list(state.events)[since:] if e.kind == kind]
