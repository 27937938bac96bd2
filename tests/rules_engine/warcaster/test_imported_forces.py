"""Simulations of two forces imported from BattleScribe data: the test files of
tests/cards/fixtures/battlescribe/ (make_fixtures.py) converted to a package, one force of each of its two
factions, played by the greedy policy through the simulator's public entry points.

- W11: every (weapon, target) pair that occurs has a hit rate strictly between 0 and 1, and so has every single
  attack's exact chance (odds.py) at the real stat scale;
- W16: every game ends after the last pulse round or by annihilation, and the victory points and the winner are
  those W16 gives;
- the same seed plays the same games.
"""
from __future__ import annotations

import json
import math
from collections import defaultdict
from pathlib import Path

import pytest

from rules_engine.formats.battlescribe import convert
from rules_engine.construction import validate_list
from rules_engine.core import outcome
from rules_engine.core.catalog import Catalog
from rules_engine.core.game import play_out
from rules_engine.core.rng import game_rng
from rules_engine.simulation import build_snapshot, simulate, simulator_for
from rules_engine.warcaster import odds
from rules_engine.warcaster.game import DEFAULT_OPTIONS
from rules_engine.warcaster.position import END_REASONS

FOLDER = Path(__file__).resolve().parents[2] / "cards/fixtures/battlescribe/folder"
PACKAGE = convert([FOLDER]).package
CATALOG = Catalog.build("warcaster", PACKAGE["cards"], PACKAGE["formats"])
SKIRMISH = next(f["slug"] for f in PACKAGE["formats"] if f["bs_id"] == "force-skirmish")
GAMES = 150
SEED = 18
MIN_ATTEMPTS = 20  # a pair tried this often shows both a hit and a miss unless its odds are extreme


def force(prefix: str) -> dict:
    """A skirmish force of the catalogue `prefix` (ISA, SL): its hero, two squads, two scouts, the skimmer, the
    barricade and two warjacks on different loadouts, with the game system's twelve cyphers."""
    def code(name: str) -> str:
        return f"BS-{prefix}-{name}"

    return {"schema": "hangar.list/1", "system": "warcaster", "format": SKIRMISH, "name": f"{prefix} test force",
            "sections": {
                "force": [{"card": code("HERO"), "qty": 1}, {"card": code("SQUAD"), "qty": 2},
                          {"card": code("SOLO"), "qty": 2}, {"card": code("VEHICLE"), "qty": 1},
                          {"card": code("MANTLET"), "qty": 1},
                          {"card": code("JACK"), "qty": 1,
                           "options": {"cortex": code("CORTEX1"), "weapons": [code("ARM1"), code("ARM2")]}},
                          {"card": code("JACK"), "qty": 1,
                           "options": {"cortex": code("CORTEX2"), "weapons": [code("ARM2"), code("SHOULDER1")]}}],
                "rack": [{"card": f"BS-CY-{i:02d}", "qty": 1} for i in range(1, 13)]}}


ISA, SL = force("ISA"), force("SL")


def snapshot() -> dict:
    return build_snapshot(ISA, CATALOG.cards, {"kind": "force", "list": SL}, policy="greedy")


def play(seed: int, games: int) -> list:
    simulator = simulator_for("warcaster")
    prepared = simulator.prepare(snapshot())
    states = []
    for index in range(games):
        rng = game_rng(seed, index)
        states.append(play_out(prepared.game.new_initial_state(rng), prepared.policies, rng,
                               max_steps=simulator.max_steps))
    return states


@pytest.fixture(scope="module")
def states():
    return play(SEED, GAMES)


def test_the_two_imported_forces_are_legal_skirmish_forces_of_two_factions():
    factions = {slug: {CATALOG.cards[e["card"]]["faction"] for e in doc["sections"]["force"]}
                for slug, doc in (("isa", ISA), ("sl", SL))}
    assert factions == {"isa": {"iron-star-alliance"}, "sl": {"star-league"}}
    for doc in (ISA, SL):
        report = validate_list(doc, CATALOG)
        assert report["legal"], report["violations"]


def test_w11_hit_rates_strictly_between_0_and_1_for_every_weapon_and_target_pair(states):
    """W11 at the real scale: no (weapon, target) pair hits always or never. Every attack's exact chance, from the
    stat, DEF and power dice its event records, is strictly between 0 and 1; every pair tried at least
    MIN_ATTEMPTS times (most attacks) both hit and missed, as often as those chances say (within 5 σ)."""
    pairs: dict[tuple[str, str], list[float]] = defaultdict(list)
    hits: dict[tuple[str, str], int] = defaultdict(int)
    for state in states:
        for event in state.events.of_kind("attack"):
            data = event.data
            key = (data["weapon"], state.models[data["target"]].spec.code)
            chance = odds.hit_probability(data["stat"], data["defence"], data["arc"])
            assert 0 < chance < 1, (key, data)
            pairs[key].append(float(chance))
            hits[key] += data["hit"]
    attacks = sum(len(chances) for chances in pairs.values())
    tried = {key: chances for key, chances in pairs.items() if len(chances) >= MIN_ATTEMPTS}
    assert attacks > 5000 and len(pairs) > 30
    assert sum(len(chances) for chances in tried.values()) >= 0.9 * attacks
    weapons = {weapon for weapon, _ in tried}
    assert {"Arc Pistol", "Carbine", "Long Rifle", "Flame Jet", "Arc Cannon", "Rocket Pod"} <= weapons
    assert any(weapon.startswith("BS-CY-") for weapon in weapons)  # attack cyphers too
    for key, chances in tried.items():
        rate = hits[key] / len(chances)
        assert 0 < rate < 1, (key, hits[key], len(chances))
        expected = sum(chances)
        spread = math.sqrt(sum(p * (1 - p) for p in chances))
        assert abs(hits[key] - expected) <= 5 * spread + 1, (key, hits[key], expected)


def test_w16_every_game_ends_after_the_last_pulse_round_or_by_annihilation(states):
    """W16: the game ends after `rounds` pulse rounds, or when a side has no model on the table and none in
    reserve; each side's victory points are the CST of the enemy units destroyed plus the objective's points, and
    the side with more wins (equal: a draw)."""
    reasons = set()
    for state in states:
        end = state.outcome()
        assert end is not None and end.reason in END_REASONS and end.reason in (outcome.ROUNDS,
                                                                                outcome.ANNIHILATION)
        reasons.add(end.reason)
        last = state.events[len(state.events) - 1]
        assert last.kind == "game_over" and last.data["reason"] == end.reason
        if end.reason == outcome.ROUNDS:
            assert state.round == DEFAULT_OPTIONS["rounds"]
            assert len(state.events.of_kind("round_end")) == DEFAULT_OPTIONS["rounds"]
        else:
            assert any(not state.on_board(p) and not state.reserves(p) for p in (0, 1))
        earned = [0, 0]
        for event in state.events:
            if event.kind == "unit_destroyed":
                earned[event.data["vp_to"]] += event.data["cst"]
            elif event.kind == "score":
                assert event.data["reason"] == "objective"
                earned[event.player] += DEFAULT_OPTIONS["objective_points"]
        vp = [state.sides[0].vp, state.sides[1].vp]
        assert vp == earned == last.data["vp"]
        assert end.winner == (0 if vp[0] > vp[1] else 1 if vp[1] > vp[0] else None)
    assert outcome.ROUNDS in reasons


def test_the_same_seed_plays_the_same_games_and_another_seed_others():
    first, again, other = play(5, 6), play(5, 6), play(6, 6)
    logs = [[json.dumps(s.events.to_list(), sort_keys=True) for s in run] for run in (first, again, other)]
    assert logs[0] == logs[1]
    assert logs[0] != logs[2]
    assert simulate(snapshot(), games=12, seed=5) == simulate(snapshot(), games=12, seed=5, workers=2)
