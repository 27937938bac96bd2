"""W11 at the real stat scale: dice pools of MAT/RAT, DEF and POW (option dice_scale = "pools",
the default), their exact odds (odds.py) against brute force and a 10⁶-roll sample, the engine's rolls with
scripted dice, simulations of the sample forces, and the earlier reading (dice_scale = "stat_plus_dice") playing
exactly the games it played before."""
from __future__ import annotations

import collections
import hashlib
import itertools
import json
import math
import random
from fractions import Fraction
from pathlib import Path

import pytest

from rules_engine.core.game import play_out
from rules_engine.core.rng import game_rng
from rules_engine.simulation import build_snapshot, simulator_for
from rules_engine.warcaster import combat, deployment, odds
from rules_engine.warcaster.game import DEFAULT_OPTIONS, WarcasterGame
from tests.rules_engine.warcaster import (CARDS, LISTS, OLD_CARDS, OLD_SCALE_OPTIONS, OLD_SCALE_PACKAGE, OPPONENTS, Scripted,
                                          action_dice, events, model_of, power_dice, table, unit_of)

A, P = odds.ACTION_FACES, odds.POWER_FACES
MARKSMAN = {"card": "WC-006", "qty": 1}  # RAT 5, Longshot Rifle POW 4 Armor-Piercing
MILITIA = {"card": "WC-015", "qty": 1}  # RAT 3, Hunting Rifle POW 3
IWAO_RIFLE = {"card": "WC-011", "qty": 1, "options": {"cortex": "WC-K02", "weapons": ["WC-W01"]}}  # RAT 4, POW 4


def brute(pool: tuple[tuple[int, ...], ...]) -> collections.Counter:
    """Every outcome of a pool of dice, each die's 6 faces equally likely: strikes -> number of outcomes."""
    return collections.Counter(sum(faces) for faces in itertools.product(*pool))


def test_w11_default_reading_is_pools_with_ties_to_the_defender():
    assert DEFAULT_OPTIONS["dice_scale"] == "pools" and DEFAULT_OPTIONS["attack_ties"] == "defender"


@pytest.mark.parametrize("action, power", [(0, 0), (1, 0), (0, 1), (2, 1), (3, 2), (4, 0)])
def test_strike_distribution_is_the_brute_force_count_of_every_outcome(action, power):
    counts = brute((A,) * action + (P,) * power)
    total = 6 ** (action + power)
    assert odds.strike_distribution(action, power) == tuple(Fraction(counts[k], total) for k in range(max(counts) + 1))


@pytest.mark.parametrize("ties", odds.ATTACK_TIES)
@pytest.mark.parametrize("attack, power, defence", [(a, p, d) for a in range(4) for p in range(2) for d in range(4)])
def test_w11_hit_probability_against_brute_force(attack, power, defence, ties):
    """Pools: attack strikes (MAT/RAT action dice + power dice) beat the DEF action dice's strikes; a tie goes to
    `attack_ties`. Counted over every outcome of both rolls."""
    pool = (A,) * attack + (P,) * power + (A,) * defence
    hits = 0
    for faces in itertools.product(*pool):
        mine, theirs = sum(faces[:attack + power]), sum(faces[attack + power:])
        hits += mine > theirs or (mine == theirs and ties == "attacker")
    assert odds.hit_probability(attack, defence, power, ties=ties) == Fraction(hits, 6 ** len(pool))


@pytest.mark.parametrize("armor_piercing", [False, True])
@pytest.mark.parametrize("pow_, arm, power", [(p, a, w) for p in range(5) for a in range(4) for w in range(2)])
def test_w11_damage_distribution_against_brute_force(pow_, arm, power, armor_piercing):
    """Pools: damage = strikes of POW action dice + power dice − ARM (Armor-Piercing: ARM − 1), minimum 0."""
    armour = max(0, arm - 1) if armor_piercing else arm
    counts: collections.Counter = collections.Counter()
    for strikes, n in brute((A,) * pow_ + (P,) * power).items():
        counts[max(0, strikes - armour)] += n
    total = 6 ** (pow_ + power)
    dist = odds.damage_distribution(pow_, arm, power, armor_piercing=armor_piercing)
    assert sum(dist) == 1
    assert dist == tuple(Fraction(counts[d], total) for d in range(len(dist)))


@pytest.mark.parametrize("stat, defence, power", [(3, 4, 0), (4, 6, 1), (2, 9, 2), (5, 5, 0)])
def test_w11_stat_plus_dice_odds_against_brute_force_and_the_greedy_floats(stat, defence, power):
    """The earlier reading: a hit when stat + strikes on 3 action dice + power dice ≥ DEF; damage POW + strikes −
    ARM. The greedy policy keeps combat.py's own floats for it (the same games to the last bit)."""
    counts = brute((A,) * 3 + (P,) * power)
    total = 6 ** (3 + power)
    exact = Fraction(sum(n for k, n in counts.items() if stat + k >= defence), total)
    assert odds.hit_probability(stat, defence, power, scale="stat_plus_dice") == exact
    assert combat.hit_chance(stat, defence, 3, power) == pytest.approx(float(exact), abs=1e-12)
    mean = odds.mean(odds.damage_distribution(6, 8, power, scale="stat_plus_dice"))
    assert mean == Fraction(sum(n * max(0, 6 + k - 8) for k, n in counts.items()), total)
    assert combat.expected_damage(6, 8, 3, power) == pytest.approx(float(mean), abs=1e-12)


def test_w11_exact_odds_against_a_million_rolls():
    """10⁶ rolls of RAT 3 + 1 power die against DEF 2, and of a POW 4 damage roll + 1 power die against ARM 2,
    with a fixed seed: every frequency within its 99.9% interval (z = 3.29) of the exact odds."""
    n, z = 10 ** 6, 3.2905
    rng = random.Random(18)
    attack = rng.choices(A, k=3 * n)
    power = rng.choices(P, k=n)
    defence = rng.choices(A, k=2 * n)
    hits = sum(1 for i in range(n)
               if attack[3 * i] + attack[3 * i + 1] + attack[3 * i + 2] + power[i] > defence[2 * i] + defence[2 * i + 1])
    p = float(odds.hit_probability(3, 2, 1))
    assert 0 < p < 1 and abs(hits / n - p) <= z * math.sqrt(p * (1 - p) / n)
    damage = rng.choices(A, k=4 * n)
    power = rng.choices(P, k=n)
    seen = collections.Counter(max(0, damage[4 * i] + damage[4 * i + 1] + damage[4 * i + 2] + damage[4 * i + 3]
                                   + power[i] - 2) for i in range(n))
    for d, exact in enumerate(odds.damage_distribution(4, 2, 1)):
        q = float(exact)
        assert abs(seen[d] / n - q) <= z * math.sqrt(q * (1 - q) / n) + 1e-12, (d, seen[d] / n, q)


# --- the engine's rolls (scripted dice: die-face indices in roll order)
def test_w11_pools_attack_roll_against_defence_roll_then_damage_roll_minus_arm():
    """RAT 4 action dice + 2 power dice (2 arc) against DEF 2 action dice; damage: POW 4 action dice + the same
    2 power dice − ARM 5; the arc goes back to the pool."""
    state = table([(IWAO_RIFLE, [(15, 5)])], [("WC-011", [(15, 12)])])
    attacker = unit_of(state, 0)
    deployment.put_arc(state, attacker, 2)
    state.rng = Scripted(action_dice(0, 1, 0, 0) + power_dice(1, 0) + action_dice(1, 0)
                         + action_dice(2, 2, 1, 0) + power_dice(2, 1))
    combat.attack_with_unit(state, attacker, unit_of(state, 1), 2)
    attack, = events(state, "attack")
    assert (attack.data["stat"], attack.data["defence"]) == (4, 2)
    assert (attack.data["strikes"], attack.data["defence_strikes"], attack.data["hit"]) == (2, 1, True)
    roll, = events(state, "damage_roll")
    assert (roll.data["strikes"], roll.data["arm"], roll.data["amount"]) == (8, 5, 3)
    assert model_of(state, 1).health == CARDS["WC-011"]["stats"]["health"] - 3
    assert attacker.arc == 0


@pytest.mark.parametrize("ties, hit", [("defender", False), ("attacker", True)])
def test_w11_equal_strikes_go_to_the_defender_unless_the_option_says_otherwise(ties, hit):
    state = table([(MILITIA, [(15, 5)])], [("WC-015", [(15, 12)])], options={"attack_ties": ties})
    state.rng = Scripted(action_dice(1, 0, 0) + action_dice(0, 1, 0) + action_dice(0, 0, 0))
    combat.attack_with_unit(state, unit_of(state, 0), unit_of(state, 1), 0)
    attack, = events(state, "attack")
    assert (attack.data["strikes"], attack.data["defence_strikes"], attack.data["hit"]) == (1, 1, hit)
    assert bool(events(state, "damage_roll")) is hit


def test_w11_no_strikes_never_hit_even_against_no_strikes():
    state = table([(MILITIA, [(15, 5)])], [("WC-015", [(15, 12)])])
    state.rng = Scripted(action_dice(0, 0, 0) + action_dice(0, 0, 0))
    combat.attack_with_unit(state, unit_of(state, 0), unit_of(state, 1), 0)
    assert [e.data["hit"] for e in events(state, "attack")] == [False] and not events(state, "damage_roll")


@pytest.mark.parametrize("code, arm", [("WC-006", 2 - 1), ("WC-015", 2)])
def test_w11_armor_piercing_reduces_arm_by_one(code, arm):
    """「ARMを1減らして」: the Longshot Rifle (Armor-Piercing) meets ARM 2 − 1; the Hunting Rifle meets ARM 2."""
    state = table([({"card": code, "qty": 1}, [(15, 5)])], [("WC-017", [(15, 12)])])
    pow_ = CARDS[code]["weapons"][0]["pow"]
    state.rng = Scripted(action_dice(2, 2, 2, 2, 2)[:CARDS[code]["stats"]["rat"]] + action_dice(0, 0, 0, 0)
                         + action_dice(1, 1, 1, 1)[:pow_])
    combat.attack_with_unit(state, unit_of(state, 0), unit_of(state, 1), 0)
    roll, = events(state, "damage_roll")
    assert (roll.data["arm"], roll.data["amount"]) == (arm, pow_ - arm)


@pytest.mark.parametrize("option, value", [("dice_scale", "d6"), ("attack_ties", "draw")])
def test_w11_the_dice_options_are_validated(option, value):
    with pytest.raises(ValueError, match=f"options.{option}: expected"):
        WarcasterGame(LISTS["isa-starsteel-vanguard"], CARDS, OPPONENTS["isa-starsteel-vanguard"], {option: value})


def test_the_sample_package_is_on_the_community_scale():
    """MAT/RAT 3–6, DEF 2–5, ARM 2–5, POW 1–6, health (DMG) 1–5, CST 1–4."""
    ranges = {"mat": (3, 6), "rat": (3, 6), "def": (2, 5), "arm": (2, 5), "health": (1, 5)}
    for code, card in CARDS.items():
        for stat, (low, high) in ranges.items():
            if stat in card.get("stats", {}):
                assert low <= card["stats"][stat] <= high, (code, stat)
        if "cst" in card:
            assert 1 <= card["cst"] <= 4, code
        pows = [w["pow"] for w in card.get("weapons", [])] + ([card["pow"]] if card.get("kind") == "weapon" else [])
        pows += [e["pow"] for e in card.get("effects", []) + card.get("abilities", []) if e["kind"] == "attack"]
        assert all(1 <= p <= 6 for p in pows), code


# --- simulations of two sample forces
def _games(opponent: str, count: int, seed: int) -> list:
    game = WarcasterGame(LISTS["isa-starsteel-vanguard"], CARDS, OPPONENTS[opponent])
    simulator = simulator_for("warcaster")
    snapshot = build_snapshot(LISTS["isa-starsteel-vanguard"], CARDS, OPPONENTS[opponent], policy="greedy")
    policies = simulator.prepare(snapshot).policies
    return [play_out(game.new_initial_state(game_rng(seed, i)), policies, game_rng(seed, i)) for i in range(count)]


@pytest.mark.parametrize("opponent", ["marcher-frontier-posse", "isa-thunder-lancers"])
def test_w11_w16_simulated_forces_hit_sometimes_miss_sometimes_and_end_by_w16(opponent):
    """Every weapon × target pair that occurs has exact odds strictly between 0 and 1 (from the logged stat, DEF
    and arc), and an observed hit rate strictly between 0 and 1 where it occurs 30 times or more; every game ends
    by W16 (3 pulse rounds or annihilation, the side with more victory points winning)."""
    seen: dict[tuple[str, str], list[int]] = collections.defaultdict(lambda: [0, 0])
    codes: dict[int, str] = {}
    for state in _games(opponent, 30, 18):
        for model in (m for unit in state.units for m in unit.models):
            codes[model.uid] = model.spec.code
        for event in events(state, "attack"):
            d = event.data
            chance = odds.hit_probability(d["stat"], d["defence"], d["arc"])
            assert 0 < chance < 1, d
            pair = seen[(d["weapon"], codes[d["target"]])]
            pair[0] += 1
            pair[1] += d["hit"]
        assert state.end_reason in ("rounds", "annihilation")
        assert state.round <= DEFAULT_OPTIONS["rounds"]
        vp = [side.vp for side in state.sides]
        assert state.winner == (None if vp[0] == vp[1] else int(vp[1] > vp[0]))
    assert seen
    common = {pair: (n, hits) for pair, (n, hits) in seen.items() if n >= 30}
    assert common and all(0 < hits < n for n, hits in common.values()), common


def test_simulated_games_are_reproducible_by_seed():
    logs = [[state.events.to_list() for state in _games("marcher-frontier-posse", 3, 7)] for _ in range(2)]
    assert logs[0] == logs[1]


# --- the earlier reading reproduces the games it played
OLD_FINGERPRINTS = json.loads((Path(__file__).parents[1] / "fixtures/warcaster_old_scale/same_games.json")
                              .read_text(encoding="utf-8"))
OLD_CASES = sorted(label.removeprefix("warcaster: ") for label in OLD_FINGERPRINTS["cases"])


@pytest.mark.parametrize("label", OLD_CASES)
def test_w11_stat_plus_dice_on_the_old_scale_plays_the_same_games_as_before(label):
    """W11: dice_scale = "stat_plus_dice" with the package as it was: the 60 games of the benchmark case have the
    event logs recorded before the dice pools came in (ENGINE_VERSION 2026.12.3); the greedy cases as re-recorded
    when the greedy policy began to contest the W16 centre objective (2026.12.4), and again when it came to weigh
    each move where it leaves the unit, to value move cyphers and to count the spill of spray and blast (policy
    changes, no rule); W13 blast damage as
    ⌈POW/2⌉ (blast_damage = "half_pow"), the reading that went with that scale."""
    opponents = {o["slug"]: o for o in OLD_SCALE_PACKAGE["opponents"]}
    slug, policy = label.split(" vs ")[1].split(" (")
    snapshot = build_snapshot(LISTS["isa-starsteel-vanguard"], OLD_CARDS, opponents[slug], policy=policy.rstrip(")"),
                              options=OLD_SCALE_OPTIONS)
    simulator = simulator_for("warcaster")
    prepared = simulator.prepare(snapshot)
    logs = hashlib.sha256()
    for index in range(OLD_FINGERPRINTS["games"]):
        rng = game_rng(OLD_FINGERPRINTS["seed"], index)
        state = play_out(prepared.game.new_initial_state(rng), prepared.policies, rng,
                         max_steps=getattr(simulator, "max_steps", 100_000))
        logs.update(json.dumps(state.events.to_list(), sort_keys=True, ensure_ascii=False).encode())
    assert logs.hexdigest() == OLD_FINGERPRINTS["cases"][f"warcaster: {label}"]


# --- W13 blast damage at the real scale
OOTSUNO_ROCKETS = {"card": "WC-021", "qty": 1, "options": {"cortex": "WC-K04", "weapons": ["WC-W08"]}}  # RAT 3, POW 4 blast


def _blast_on_a_miss(options=None):
    """Ootsuno's Rocket Launcher misses Ridge Sharpshooter (DEF 4, ARM 2, health 3); the blast damage roll then
    shows 3 strikes."""
    state = table([(OOTSUNO_ROCKETS, [(15, 6)])], [("WC-017", [(15, 14)])], options=options)
    attacker, target = model_of(state, 0), model_of(state, 1)
    state.rng = Scripted(action_dice(0, 0, 0) + action_dice(0, 0, 0, 0) + action_dice(1, 1, 1, 0))
    combat.make_attack(state, attacker, target, attacker.spec.weapons[0], 0)
    return state, target


def test_w13_blast_damage_is_a_damage_roll_against_arm_by_default():
    """W13 (option blast_damage = "damage_roll", the default): blast damage passes DEF but meets ARM, as seed 003's
    「高DEF低ARMユニットを仕留める」 has it: on a miss the target takes a damage roll of the weapon's POW (4 action
    dice, no power dice) against its ARM: 3 strikes − ARM 2 = 1."""
    assert DEFAULT_OPTIONS["blast_damage"] == "damage_roll"
    state, target = _blast_on_a_miss()
    blast, = events(state, "blast")
    assert (blast.data["hit"], blast.data["victims"]) == (False, [target.uid])
    roll, = events(state, "damage_roll")
    assert (roll.data["target"], roll.data["pow"], roll.data["strikes"], roll.data["arm"]) == (target.uid, 4, 3, 2)
    assert target.health == 3 - 1
    assert [e.data["source"] for e in events(state, "damage")] == ["blast"]


def test_w13_blast_half_pow_option_ignores_arm():
    """W13, option blast_damage = "half_pow" (the reading made for W11's stat_plus_dice scale): ⌈4/2⌉ = 2 straight
    to health, whatever the dice and the ARM."""
    state, target = _blast_on_a_miss({"blast_damage": "half_pow"})
    assert not events(state, "damage_roll")
    assert target.health == 3 - 2


def test_w13_blast_option_is_validated():
    with pytest.raises(ValueError, match="options.blast_damage: expected 'damage_roll' or 'half_pow'"):
        WarcasterGame(LISTS["isa-starsteel-vanguard"], CARDS, OPPONENTS["isa-starsteel-vanguard"], {"blast_damage": "all"})
