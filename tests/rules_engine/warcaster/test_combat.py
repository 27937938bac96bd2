"""Attacks and damage (W11) and the multi-model weapon qualities strafe (W12), blast (W13), spray (W14).

These scenarios are those of W11's earlier reading (option dice_scale = "stat_plus_dice"), on the package as it was
on that scale (tests/rules_engine/fixtures/warcaster_old_scale): the dice pools of the default reading are tested in
test_dice_pools.py."""
from __future__ import annotations

from rules_engine.warcaster import combat, deployment
from tests.rules_engine.warcaster import Scripted, action_dice, events, model_of, old_scale_table, power_dice, unit_of

IWAO_RIFLE = {"card": "WC-011", "qty": 1, "options": {"cortex": "WC-K02", "weapons": ["WC-W01"]}}
IWAO_MISSILES = {"card": "WC-011", "qty": 1, "options": {"cortex": "WC-K02", "weapons": ["WC-W03"]}}
OOTSUNO_STRAFE = {"card": "WC-021", "qty": 1, "options": {"cortex": "WC-K04", "weapons": ["WC-W09"]}}
NOGITSUNE_SPRAY = {"card": "WC-020", "qty": 1, "options": {"cortex": "WC-K04", "weapons": ["WC-W06"]}}
MARKSMAN = {"card": "WC-006", "qty": 1}


def test_w11_arc_buys_power_dice_for_the_attack_and_the_damage_roll():
    """W11: hit when RAT + strikes ≥ DEF; damage = POW + strikes − ARM; 1 power die per arc spent, on both rolls."""
    state = old_scale_table([(IWAO_RIFLE, [(15, 5)])], [("WC-011", [(15, 12)])])
    attacker = unit_of(state, 0)
    deployment.put_arc(state, attacker, 2)
    pool = state.sides[0].pool
    state.rng = Scripted(action_dice(0, 0, 0) + power_dice(2, 2) + action_dice(2, 2, 2) + power_dice(1, 1))
    combat.attack_with_unit(state, attacker, unit_of(state, 1), 2)
    attack, = events(state, "attack")
    assert (attack.data["arc"], attack.data["strikes"], attack.data["hit"]) == (2, 4, True)
    damage, = events(state, "damage")
    assert damage.data["amount"] == 6 + 8 - 8  # POW 6 + 8 strikes − ARM 8
    assert model_of(state, 1).health == 18 - 6
    assert attacker.arc == 0 and state.sides[0].pool == pool + 2  # spent arc goes back to the pool


def test_w11_a_miss_deals_no_damage():
    """W11: RAT 5 + 0 strikes < DEF 6 misses: no damage roll."""
    state = old_scale_table([(MARKSMAN, [(15, 5)])], [("WC-011", [(15, 12)])])
    model_of(state, 1).mods.append(("def", 3, "round"))  # DEF 3 + 3 = 6
    state.rng = Scripted(action_dice(0, 0, 0))
    combat.attack_with_unit(state, unit_of(state, 0), unit_of(state, 1), 0)
    assert [e.data["hit"] for e in events(state, "attack")] == [False]
    assert events(state, "damage") == [] and model_of(state, 1).health == 18


def test_w12_strafe_extra_attacks_hit_enemies_near_the_target_each_with_after_attack_rules():
    """W12: 1 power die right after the target is chosen; one extra attack per strike on enemy models within 2″ of
    the target (never friends); each is a separate attack, so the Hunter Cortex's on-hit move fires for each."""
    state = old_scale_table([(OOTSUNO_STRAFE, [(15, 4)]), (MARKSMAN, [(15, 13.5)])],
                  [("WC-004", [(15, 12), (16.5, 12), (13.5, 12), (25, 25)])])
    target = model_of(state, 1, 0, 0)
    hit = action_dice(1, 0, 0) + action_dice(0, 0, 0)  # RAT 3 + 1 ≥ DEF 4; damage 6 + 0 − 4 = 2
    state.rng = Scripted(power_dice(2) + hit * 3)
    combat.make_attack(state, model_of(state, 0), target, model_of(state, 0).spec.weapons[0], 0)
    strafe, = events(state, "strafe")
    assert strafe.data["strikes"] == 2
    assert sorted(strafe.data["extra"]) == sorted([model_of(state, 1, 0, 1).uid, model_of(state, 1, 0, 2).uid])
    attacks = events(state, "attack")
    assert [a.data["origin"] for a in attacks] == ["weapon", "strafe", "strafe"]
    assert model_of(state, 0, 1).uid not in {a.data["target"] for a in attacks}  # the friendly marksman is spared
    assert len(events(state, "after_attack")) == 3
    assert [e.data["name"] for e in events(state, "ability")] == ["Run Down"] * 3  # on_hit, once per attack


def test_w12_no_strike_no_extra_attack():
    state = old_scale_table([(OOTSUNO_STRAFE, [(15, 4)])], [("WC-004", [(15, 12), (16.5, 12)])])
    state.rng = Scripted(power_dice(0) + action_dice(1, 0, 0) + action_dice(0, 0, 0))
    combat.make_attack(state, model_of(state, 0), model_of(state, 1), model_of(state, 0).spec.weapons[0], 0)
    assert len(events(state, "attack")) == 1 and len(events(state, "after_attack")) == 1


def test_w13_blast_hits_the_two_nearest_models_including_the_attacker():
    """W13: on a hit, the 2 nearest models within 2″ of the target (friend or foe, the attacker included) take
    ⌈POW/2⌉ = 3 blast damage; the third nearest does not."""
    state = old_scale_table([(IWAO_MISSILES, [(15, 10.2)])],
                  [("WC-004", [(15, 12), (16.3, 12), (15, 13.7), (25, 25)])])
    attacker, target = model_of(state, 0), model_of(state, 1, 0, 0)
    state.rng = Scripted(action_dice(0, 0, 0) + action_dice(0, 0, 0))  # RAT 4 ≥ DEF 4: a hit
    combat.make_attack(state, attacker, target, attacker.spec.weapons[0], 0)
    blast, = events(state, "blast")
    assert blast.data["hit"] is True
    assert blast.data["victims"] == [model_of(state, 1, 0, 1).uid, attacker.uid]
    assert attacker.health == 18 - 3
    assert model_of(state, 1, 0, 2).alive  # third nearest: untouched
    assert len(events(state, "after_attack")) == 1  # blast damage is not an attack


def test_w13_blast_on_a_miss_damages_the_target():
    """W13: when the attack misses, the target itself takes the blast damage (and nobody else)."""
    state = old_scale_table([(IWAO_MISSILES, [(15, 4)])], [("WC-006", [(15, 12)]), ("WC-004", [(16.3, 12)])])
    attacker, target = model_of(state, 0), model_of(state, 1)
    state.rng = Scripted(action_dice(0, 0, 0))  # RAT 4 + 0 < DEF 5: a miss
    combat.make_attack(state, attacker, target, attacker.spec.weapons[0], 0)
    blast, = events(state, "blast")
    assert (blast.data["hit"], blast.data["victims"]) == (False, [target.uid])
    assert target.health == 5 - 3
    assert model_of(state, 1, 1).health == 1


def test_w13_blast_damage_option():
    state = old_scale_table([(IWAO_MISSILES, [(15, 4)])], [("WC-006", [(15, 12)])], options={"blast_damage": "half_pow_minus_arm"})
    attacker, target = model_of(state, 0), model_of(state, 1)
    state.rng = Scripted(action_dice(0, 0, 0))
    combat.make_attack(state, attacker, target, attacker.spec.weapons[0], 0)
    assert target.health == 5 - (3 - 3)  # ⌈6/2⌉ − ARM 3


def test_w14_spray_hits_friends_beyond_the_target_ignores_cover_and_triggers_nothing_on_them():
    """W14: every model on the line through the target and beyond is hit, friend or foe; cover (a mantlet's DEF
    aura) is ignored; only the target's attack is an attack: one after-attack, one on-hit move."""
    state = old_scale_table([(NOGITSUNE_SPRAY, [(15, 5)]), (MARKSMAN, [(15, 10)])],
                  [("WC-004", [(15, 8), (19, 8)]), ("WC-019", [(16.7, 8.3)])])
    attacker, target = model_of(state, 0), model_of(state, 1, 0, 0)
    assert state.stat(target, "def") == 5 and state.stat(target, "def", ignore_cover=True) == 4
    state.rng = Scripted(action_dice(0, 0, 0))  # RAT 4 + 0 ≥ DEF 4 only because cover is ignored
    combat.make_attack(state, attacker, target, attacker.spec.weapons[0], 0)
    attack, = events(state, "attack")
    assert (attack.data["defence"], attack.data["hit"]) == (4, True)
    spray, = events(state, "spray")
    friend = model_of(state, 0, 1)
    assert spray.data["models"] == [friend.uid]  # beyond the target; the off-line trooper is not hit
    assert friend.uid in [e.data["target"] for e in events(state, "damage_roll")]  # hit automatically
    assert friend.uid in [e.data.get("model") for e in events(state, "effect")]  # and set on fire
    assert len(events(state, "after_attack")) == 1
    assert [e.data["name"] for e in events(state, "ability")] == ["Run Down"]


def test_w14_without_spray_cover_counts():
    state = old_scale_table([(MARKSMAN, [(15, 2)])], [("WC-004", [(15, 8)]), ("WC-019", [(16.7, 8.3)])])
    state.rng = Scripted(action_dice(0, 0, 0))  # RAT 5 + 0 ≥ DEF 4 + 1 cover
    combat.attack_with_unit(state, unit_of(state, 0), unit_of(state, 1), 0)
    assert events(state, "attack")[0].data["defence"] == 5
