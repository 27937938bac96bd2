"""Shared scenario builders for the MechWarrior: Dark Age engine tests (bundled package + test-only units)."""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from rules_engine.mwda.game import MwdaGame, MwdaState
from rules_engine.mwda.geometry import Layout
from rules_engine.mwda.state import Unit

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = json.loads((ROOT / "cards/packages/mwda/core-sample.json").read_text(encoding="utf-8"))
LISTS = {path.stem: json.loads(path.read_text(encoding="utf-8"))
         for path in sorted((ROOT / "cards/packages/mwda/lists").glob("*.json"))}
OPPONENTS = {opp["slug"]: opp for opp in PACKAGE["opponents"]}

HEAT = [{"primary_damage": 0, "secondary_damage": 0, "move": -2},
        {"primary_damage": -1, "secondary_damage": 0, "move": -4},
        {"primary_damage": -1, "secondary_damage": -1, "move": -6},
        {"shutdown": True}]


def _clicks(n: int, **stats: int) -> list[dict[str, int]]:
    return [dict(stats) for _ in range(n)]


# Test-only units (original numbers): each makes one rule easy to see.
TEST_CARDS = [
    {"code": "T-MECH", "name": "試験メック", "kind": "mech", "points": 100, "faction": "mercenary",
     "primary": {"min_range": 0, "max_range": 10, "damage_type": "ballistic"},
     "secondary": {"min_range": 0, "max_range": 6, "damage_type": "energy"},
     "dial": _clicks(6, primary_damage=3, secondary_damage=2, move=10, attack=9, defense=16),
     "heat_dial": HEAT, "vent": 2},
    {"code": "T-ACE", "name": "試験必中メック", "kind": "mech", "points": 100, "faction": "mercenary",
     "abilities": ["jump"],
     "primary": {"min_range": 0, "max_range": 10, "damage_type": "energy"},
     "secondary": {"min_range": 0, "max_range": 6, "damage_type": "ballistic"},
     "dial": _clicks(6, primary_damage=3, secondary_damage=2, move=10, attack=20, defense=16),
     "heat_dial": HEAT, "vent": 2},
    {"code": "T-DUD", "name": "試験不発メック", "kind": "mech", "points": 100, "faction": "mercenary",
     "abilities": ["jump"],
     "primary": {"min_range": 0, "max_range": 10, "damage_type": "ballistic"},
     "secondary": {"min_range": 0, "max_range": 6, "damage_type": "ballistic"},
     "dial": _clicks(6, primary_damage=3, secondary_damage=2, move=10, attack=0, defense=16),
     "heat_dial": HEAT, "vent": 2},
    {"code": "T-TANK", "name": "試験戦車", "kind": "vehicle", "points": 50, "faction": "mercenary",
     "primary": {"min_range": 0, "max_range": 8, "damage_type": "ballistic"},
     "dial": _clicks(4, primary_damage=2, move=8, attack=20, defense=16)},
    {"code": "T-INF", "name": "試験歩兵", "kind": "infantry", "points": 20, "faction": "mercenary",
     "primary": {"min_range": 0, "max_range": 6, "damage_type": "ballistic"},
     "dial": _clicks(5, primary_damage=1, move=8, attack=9, defense=14)},
    {"code": "T-ART", "name": "試験砲車", "kind": "vehicle", "points": 60, "faction": "mercenary",
     "primary": {"min_range": 4, "max_range": 14, "damage_type": "ballistic"},
     "dial": _clicks(4, primary_damage=2, move=6, attack=20, defense=15)},
]
CARDS: dict[str, dict[str, Any]] = {card["code"]: card for card in PACKAGE["cards"] + TEST_CARDS}
EMPTY = Layout("empty", ())


def army(*codes: str) -> dict[str, Any]:
    return {"schema": "hangar.list/1", "system": "mwda", "sections": {"army": [{"card": c, "qty": 1} for c in codes]}}


def battle(mine: list[tuple[str, float, float]], theirs: list[tuple[str, float, float]], *, goldfish: bool = False,
           layout: Layout = EMPTY, seed: int = 0, **options: Any) -> MwdaState:
    """Player 0's turn 1 with the given units at the given positions (code, x, y) on `layout`."""
    codes = [code for code, _, _ in theirs]
    opponent = ({"kind": "goldfish", "units": [{"card": c, "qty": 1} for c in codes]} if goldfish
                else {"kind": "army", "list": army(*codes)})
    game = MwdaGame(army(*(code for code, _, _ in mine)), CARDS, opponent, {"first_player": 0, **options})
    state = game.new_initial_state(random.Random(seed))
    state.layout = layout
    for unit, (_, x, y) in zip(state.units, mine + theirs):
        state.place(unit, x, y)
    return state


def unit(state: MwdaState, uid: int) -> Unit:
    return state.units[uid]


def actions_of(state: MwdaState, kind: str, uid: int | None = None) -> list[tuple]:
    return [a for a in state.legal_actions() if a[0] == kind and (uid is None or a[1] == uid)]
