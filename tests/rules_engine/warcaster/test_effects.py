"""Continuous effects (W15): their stat changes and the end-of-round roll that keeps or ends each of them."""
from __future__ import annotations

from rules_engine.warcaster import combat

import pytest

from tests.rules_engine.warcaster import CARDS, Scripted, action_dice, events, model_of, table, unit_of

FULL = CARDS["WC-011"]["stats"]["health"]  # the goldfish warjack's health

JACK = {"card": "WC-010", "qty": 1, "options": {"cortex": "WC-K01", "weapons": ["WC-W01", "WC-W04"]}}


def _board():
    # player 0: a light warjack; player 1: a heavy warjack (goldfish, no loadout)
    return table([(JACK, [(5, 5)])], [("WC-011", [(25, 25)])])


@pytest.mark.parametrize("effect, stat, change", [
    ("fire", "rat", -1), ("fire", "mat", -1), ("corrosion", "arm", -1), ("lockdown", "spd", -2),
    ("tune_up", "rat", 1), ("tune_up", "mat", 1), ("tune_up", "def", 1),
])
def test_w15_effect_changes_stats(effect, stat, change):
    """W15: fire RAT/MAT −1, corrosion ARM −1, lockdown SPD −2 (the unit), tune up RAT/MAT/DEF +1."""
    state = _board()
    model = model_of(state, 1)
    before = state.stat(model, stat)
    assert combat.apply_effect(state, model, effect, 0, "test")
    assert state.stat(model, stat) == before + change


@pytest.mark.parametrize("roll, blocked, free", [(2, "melee", "ranged"), (5, "ranged", "melee")])
def test_w15_system_failure_rolls_d6_on_application(roll, blocked, free):
    """W15: system failure rolls 1d6 when applied: 1–3 no melee attacks, 4–6 no ranged attacks."""
    state = _board()
    model = model_of(state, 0)
    state.rng = Scripted([roll])
    combat.apply_effect(state, model, "system_failure", 1, "test")
    assert state.blocked(model, blocked) and not state.blocked(model, free)


def test_w15_warjack_only_effects_and_immunity():
    """System failure and tune up only affect warjacks; a model immune to fire never receives it."""
    state = table([(JACK, [(5, 5)])], [("WC-004", [(20, 20)]), ("WC-005", [(25, 25)])])
    trooper, breaker = model_of(state, 1, 0), model_of(state, 1, 1)
    assert not combat.apply_effect(state, trooper, "system_failure", 0, "test")
    assert not combat.apply_effect(state, trooper, "tune_up", 0, "test")
    assert not combat.apply_effect(state, breaker, "fire", 0, "test")  # 耐熱装甲 Heat Shielding
    assert trooper.effects == {} and breaker.effects == {}


@pytest.mark.parametrize("effect", ["fire", "corrosion", "lockdown", "system_failure", "tune_up"])
def test_w15_a_strike_keeps_the_effect(effect):
    """W15: at the end of the pulse round, one action die per effect: a strike keeps it for the next round; fire
    and corrosion then deal damage equal to the strikes, straight to health (ARM ignored)."""
    state = _board()
    model = model_of(state, 1)
    state.rng = Scripted([1])  # system failure's d6 (unused otherwise: popped only when rolled)
    combat.apply_effect(state, model, effect, 0, "test")
    state.rng = Scripted(action_dice(2))
    combat.roll_continuous_effects(state)
    kept = unit_of(state, 1).lockdown if effect == "lockdown" else effect in model.effects
    assert kept
    assert model.health == FULL - (2 if effect in ("fire", "corrosion") else 0)
    roll, = [e for e in events(state, "effect") if e.data["change"] == "kept"]
    assert roll.data["roll"] == 2


@pytest.mark.parametrize("effect", ["fire", "corrosion", "lockdown", "system_failure", "tune_up"])
def test_w15_no_strike_ends_the_effect(effect):
    state = _board()
    model = model_of(state, 1)
    state.rng = Scripted([1])
    combat.apply_effect(state, model, effect, 0, "test")
    state.rng = Scripted(action_dice(0))
    combat.roll_continuous_effects(state)
    assert not unit_of(state, 1).lockdown and model.effects == {}
    assert model.health == FULL
    assert [e.data["change"] for e in events(state, "effect")][-1] == "ended"


def test_w15_effects_from_weapon_qualities_on_a_hit():
    """A hit with a fire / lockdown / system failure weapon applies the effect (W15) to the target."""
    lancer = {"card": "WC-010", "qty": 1, "options": {"cortex": "WC-K01", "weapons": ["WC-W04"]}}
    state = table([(lancer, [(15, 10)])], [("WC-011", [(15, 12.2)])])
    # W11 pools: MAT 4 action dice (1 strike) beat DEF 2 (none); the damage roll's POW 5 dice; then the d6
    state.rng = Scripted(action_dice(1, 0, 0, 0) + action_dice(0, 0) + action_dice(0, 0, 0, 0, 0) + [6])
    combat.attack_with_unit(state, unit_of(state, 0), unit_of(state, 1), 0)
    assert model_of(state, 1).effects == {"system_failure": 2}  # 6: no ranged attacks


@pytest.mark.parametrize("effect", ["fire", "corrosion"])
@pytest.mark.parametrize("direct, health", [(True, FULL - 2), (False, FULL)])
def test_w15_fire_and_corrosion_damage_is_direct_to_health_past_a_shield(effect, direct, health):
    """W15: the damage of a kept fire or corrosion is 「ヘルスへの直接ダメージ」 (seed 003): a cypher's shield does
    not absorb it. Option `continuous_damage_direct` = false lets the shield take it first (the old reading)."""
    state = table([(JACK, [(5, 5)])], [("WC-011", [(25, 25)])], options={"continuous_damage_direct": direct})
    model = model_of(state, 1)
    combat.apply_effect(state, model, effect, 0, "test")
    model.shield = 3
    state.rng = Scripted(action_dice(2))
    combat.roll_continuous_effects(state)
    assert model.health == health and model.shield == (3 if direct else 1)


def test_a_boolean_option_takes_only_true_or_false():
    with pytest.raises(ValueError, match="continuous_damage_direct: expected true or false"):
        table([(JACK, [(5, 5)])], [("WC-011", [(25, 25)])], options={"continuous_damage_direct": 1})
