"""A planted weakness for the list doctor's tests: the bundled MWDA Highland Line army with its Cairn Heavy Tank
swapped for a "Decoy Tank" — the same tank, the same 88 points, whose guns can never hurt (attack 0, damage 0): a
unit that can never attack. Against the Republic Knight Guard that measurably costs games (the plain paired run in
tests/rules_engine/test_doctor_stats.py shows it), so the doctor should give the swap back as its confirmed change,
and name the decoy as never used."""
from __future__ import annotations

import copy
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DECOY, TANK = "MW-900", "MW-020"
OPPONENT = "republic-knight-guard"  # there the tank measurably wins games (the plain paired run)
SWAP_BACK = f"swap:army:{DECOY}>{TANK}"


def mwda_package() -> dict:
    """The bundled MWDA package with the decoy tank added to its cards."""
    package = json.loads((ROOT / "cards/packages/mwda/core-sample.json").read_text(encoding="utf-8"))
    tank = next(card for card in package["cards"] if card["code"] == TANK)
    decoy = copy.deepcopy(tank)
    decoy.update(code=DECOY, name="囮戦車", name_en="Decoy Tank")
    for click in decoy["dial"]:
        click["attack"] = 0
        click["primary_damage"] = 0
    package["cards"].append(decoy)
    return package


def strong_army() -> dict:
    return json.loads((ROOT / "cards/packages/mwda/lists/highland-line.json").read_text(encoding="utf-8"))


def weak_army() -> dict:
    """Highland Line with the decoy in place of its heavy tank (still 292 of 300 points: legal)."""
    army = strong_army()
    army["name"] = "Highland Line with a decoy"
    for entry in army["sections"]["army"]:
        if entry["card"] == TANK:
            entry["card"] = DECOY
    return army
