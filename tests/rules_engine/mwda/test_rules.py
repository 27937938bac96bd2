"""One test (or a few) per MWDA game rule, M2 and M10–M17, plus game end and scoring (RULES.md §2.3)."""
import random

import pytest

from rules_engine.mwda import geometry as geo
from rules_engine.mwda.game import MwdaGame, orders_per_round
from rules_engine.mwda.units import unit_spec
from tests.rules_engine.mwda import CARDS, LISTS, OPPONENTS, actions_of, army, battle

TOUCH = 1.26  # centre distance of two standard bases in base contact


def events(state, kind):
    return [e.data for e in state.events.of_kind(kind)]


def test_m2_orders_per_round_are_points_over_100_rounded_up_plus_mobile_hq():
    """M2: 288 points with 移動司令部 → 3 + 1 = 4 orders, fixed however many units are lost."""
    specs = [unit_spec(CARDS[e["card"]]) for e in LISTS["republic-knight-guard"]["sections"]["army"]]
    assert orders_per_round(specs) == 4
    game = MwdaGame(LISTS["republic-knight-guard"], CARDS, OPPONENTS["steel-wolves-pack"])
    assert game.orders == (4, 3)
    assert orders_per_round([unit_spec(CARDS["T-INF"])]) == 1


def test_m10_one_order_per_unit_per_turn_and_vent_takes_no_token():
    """M10: each unit at most one order per turn; every order counts; vent (冷却) gives no action token."""
    state = battle([("T-MECH", 10, 5), ("T-MECH", 20, 5)], [("T-TANK", 18, 30)])
    assert state.orders_left == 2
    state.units[1].heat = 1
    state.apply(("move", 0, 2, False))
    assert state.units[0].tokens == 1 and state.orders_left == 1
    assert not [a for a in state.legal_actions() if len(a) > 1 and a[1] == 0]
    state.apply(("vent", 1))
    assert state.units[1].tokens == 0 and state.units[1].heat == 0
    assert state.current_player() == 1  # both orders used: the turn passed
    orders = events(state, "order")
    assert [o["unit"] for o in orders] == [0, 1]


def test_m11_pushing_costs_a_mech_heat_and_a_vehicle_a_token_and_damage():
    """M11: a second token makes a mech take 1 heat instead; a vehicle takes the token and 1 damage."""
    state = battle([("T-MECH", 10, 5), ("T-TANK", 20, 5)], [("T-MECH", 15, 12)])
    mech, tank = state.units[0], state.units[1]
    mech.tokens = tank.tokens = 1
    state.apply(("shoot", 0, 2, 0))
    assert (mech.tokens, mech.heat) == (1, 1)
    state.apply(("shoot", 1, 2, 0))
    assert (tank.tokens, tank.click) == (2, 1)
    assert [p["penalty"] for p in events(state, "push")] == ["heat", "damage"]


def test_m11_a_unit_with_two_tokens_cannot_be_ordered():
    state = battle([("T-TANK", 10, 5), ("T-TANK", 20, 5)], [("T-MECH", 15, 12)])
    state.units[0].tokens = 2
    assert all(len(a) == 1 or a[1] != 0 for a in state.legal_actions())
    assert actions_of(state, "shoot", 1)


def test_m12_units_not_ordered_lose_their_tokens_and_mechs_vent_one_heat():
    """M12: at the end of the turn every unit that got no order loses its tokens; mechs also vent 1."""
    state = battle([("T-MECH", 10, 5), ("T-MECH", 20, 5), ("T-TANK", 30, 5)], [("T-TANK", 18, 30)])
    idle, ordered, tank = state.units[0], state.units[1], state.units[2]
    idle.tokens, idle.heat = 1, 2
    ordered.tokens, ordered.heat = 1, 1
    tank.tokens = 1
    state.apply(("move", 1, 3, False))
    state.apply(("pass",))
    assert (idle.tokens, idle.heat) == (0, 1)
    assert tank.tokens == 0
    assert (ordered.tokens, ordered.heat) == (1, 2)  # pushed: +1 heat, no automatic vent


def test_m13_move_goes_up_to_the_allowance_and_run_doubles_it():
    """M13: 移動力 inches along the path; ラン declared: 2×; the move event records the path."""
    walk = battle([("T-MECH", 18, 2)], [("T-TANK", 18, 34)])
    walk.apply(("move", 0, 1, False))
    assert walk.units[0].y == pytest.approx(12.0)
    run = battle([("T-MECH", 18, 2)], [("T-TANK", 18, 34)])
    assert ("move", 0, 1, True) in run.legal_actions()
    run.apply(("move", 0, 1, True))
    assert run.units[0].y == pytest.approx(22.0)
    move = events(run, "move")[-1]
    assert move["run"] and move["origin"] == [18.0, 2.0] and move["to"] == [18.0, 22.0]
    assert move["length"] == pytest.approx(20.0)


def test_m13_a_move_stops_at_the_best_range_and_goes_around_bases():
    state = battle([("T-MECH", 18, 10), ("T-TANK", 18, 13)], [("T-TANK", 18, 25)])
    state.apply(("move", 0, 2, False))
    mover, blocker = state.units[0], state.units[1]
    assert state.edge(mover, state.units[2]) == pytest.approx(9.5)
    assert state.edge(mover, blocker) >= -1e-9  # never ends overlapping
    path = events(state, "move")[-1]["path"]
    assert len(path) >= 3  # detoured around the friendly tank in the way


def test_m13_a_move_to_the_edge_of_an_enemys_reach_stops_half_an_inch_outside_it():
    """M13: the move order may also stop ½″ outside an enemy's reach — the longest max range of its weapons (T-ART:
    14″), or its move allowance when that is longer and it can charge (T-TANK: 8″ range, 8″ move) — walking in, or
    backing off when the unit stands inside it. It is an order like any move: logged as `move`, one token."""
    state = battle([("T-MECH", 18, 2)], [("T-ART", 6, 34), ("T-TANK", 30, 34)])
    mover, artillery, tank = state.units
    assert state.reach(artillery) == 14 and state.reach(tank) == 8
    assert ("advance", 0, artillery.uid, False) in state.legal_actions()
    state.apply(("advance", 0, artillery.uid, True))
    assert state.edge(mover, artillery) == pytest.approx(14.5)
    assert events(state, "order")[-1]["order"] == "move" and mover.tokens == 1
    back = battle([("T-MECH", 18, 20)], [("T-ART", 18, 30)])
    back.apply(("advance", 0, 1, False))
    assert back.edge(back.units[0], back.units[1]) == pytest.approx(14.5)
    assert back.units[0].y < 20
    assert back.describe(("advance", 0, 1, False)).endswith("to just outside the reach of 試験砲車")


def test_m14_breakaway_needs_4_to_6_and_a_failure_spends_the_order():
    """M14: in base contact with an enemy, moving needs 1d6 ≥ 4; on a failure the order is spent."""
    outcomes = set()
    for seed in range(40):
        state = battle([("T-MECH", 18, 10)], [("T-TANK", 18, 10 + TOUCH)], seed=seed)
        state.apply(("move", 0, -1, False))
        roll = events(state, "breakaway")[0]
        moved = state.units[0].y != 10
        assert roll["success"] == (roll["roll"] >= 4) == moved
        assert state.units[0].tokens == 1 and state.orders_given[0] == 1
        outcomes.add(moved)
    assert outcomes == {True, False}


def test_m13_only_mechs_run_unless_the_option_lets_every_kind():
    """M13: ラン (run) is in the mech stat block only (seed 002); option `run_all_kinds` lets vehicles and infantry
    run too."""
    state = battle([("T-MECH", 18, 2), ("T-TANK", 8, 2), ("T-INF", 28, 2)], [("T-TANK", 18, 34)])
    runs = {action[1] for action in actions_of(state, "move") if action[3]}
    assert runs == {0}
    every = battle([("T-MECH", 18, 2), ("T-TANK", 8, 2), ("T-INF", 28, 2)], [("T-TANK", 18, 34)],
                   run_all_kinds=True)
    assert {action[1] for action in actions_of(every, "move") if action[3]} == {0, 1, 2}


def test_m14_breakaway_from_a_friendly_unit_too_unless_the_option_says_enemy():
    """M14: a unit in base contact with another unit (seed: 他のユニット) rolls to leave, a friendly one too; option
    `breakaway_from` = "enemy" keeps the roll for enemy contact only."""
    state = battle([("T-MECH", 18, 10), ("T-TANK", 18, 10 + TOUCH)], [("T-TANK", 18, 30)])
    state.apply(("move", 0, -1, False))
    assert len(events(state, "breakaway")) == 1
    enemy_only = battle([("T-MECH", 18, 10), ("T-TANK", 18, 10 + TOUCH)], [("T-TANK", 18, 30)],
                        breakaway_from="enemy")
    enemy_only.apply(("move", 0, -1, False))
    assert not events(enemy_only, "breakaway")


def test_m14_no_breakaway_roll_without_base_contact():
    state = battle([("T-MECH", 18, 10)], [("T-TANK", 18, 20)])
    state.apply(("move", 0, -1, False))
    assert not events(state, "breakaway")


def test_m15_hit_when_attack_plus_3d6_reaches_defense():
    """M15: attack + 3D6 ≥ defense; option attack_dice changes the number of dice."""
    for seed in range(30):
        state = battle([("T-MECH", 18, 10)], [("T-MECH", 18, 18)], seed=seed)
        state.apply(("shoot", 0, 1, 0))
        attack = events(state, "attack")[0]
        assert len(attack["roll"]) == 3
        assert attack["hit"] == (attack["attack"] + sum(attack["roll"]) >= attack["defense"])
    two = battle([("T-MECH", 18, 10)], [("T-MECH", 18, 18)], attack_dice=2)
    two.apply(("shoot", 0, 1, 0))
    assert len(events(two, "attack")[0]["roll"]) == 2


def test_m15_range_band_and_secondary_weapon():
    """M15: only targets within [min, max] of the weapon used; the secondary has its own range and damage."""
    state = battle([("T-MECH", 18, 10)], [("T-TANK", 18, 10 + 1.25 + 8)])  # 8″ away
    assert actions_of(state, "shoot", 0) == [("shoot", 0, 1, 0)]
    close = battle([("T-ACE", 18, 10)], [("T-TANK", 18, 10 + 1.25 + 5)])  # 5″ away
    assert actions_of(close, "shoot", 0) == [("shoot", 0, 1, 0), ("shoot", 0, 1, 1)]
    close.apply(("shoot", 0, 1, 1))
    assert events(close, "attack")[0]["weapon"] == "secondary" and close.units[1].click == 2
    artillery = battle([("T-ART", 18, 10)], [("T-TANK", 18, 10 + 1.25 + 3)])  # inside its 4″ minimum
    assert not actions_of(artillery, "shoot", 0)


def test_m15_line_of_fire_blocked_by_blocking_terrain_and_hindering_adds_defense():
    wall = geo.Layout("wall", (geo.Rect(geo.BLOCKING, 16, 13, 20, 15),))
    assert not actions_of(battle([("T-MECH", 18, 10)], [("T-TANK", 18, 18)], layout=wall), "shoot")
    wood = geo.Layout("wood", (geo.Circle(geo.HINDERING, 18, 14, 1.5),))
    state = battle([("T-MECH", 18, 10)], [("T-TANK", 18, 18)], layout=wood)
    state.apply(("shoot", 0, 1, 0))
    assert events(state, "attack")[0]["defense"] == 16 + 1


def test_m15_cannot_shoot_an_enemy_in_base_contact_with_a_friend_unless_touching_it():
    state = battle([("T-MECH", 18, 10), ("T-TANK", 18, 18 - TOUCH)], [("T-TANK", 18, 18)])
    assert not [a for a in actions_of(state, "shoot", 0) if a[2] == 2]
    assert ("shoot", 1, 2, 0) in state.legal_actions()


def test_m16_damage_turns_the_dial_and_eliminates_past_the_last_click():
    """M16: one click per point; past the last click the unit is eliminated (and the game may end)."""
    state = battle([("T-ACE", 18, 10)], [("T-MECH", 18, 15), ("T-MECH", 30, 30)])
    target = state.units[1]
    target.click = 4  # 2 clicks left, T-ACE deals 3
    state.apply(("shoot", 0, 1, 1))  # secondary, ballistic 2
    assert not target.alive and events(state, "eliminated")[0]["unit"] == 1
    assert state.points_destroyed == [100, 0]


def test_m16_energy_weapons_deal_only_1_damage_to_infantry():
    state = battle([("T-ACE", 18, 10), ("T-ACE", 25, 10)], [("T-INF", 18, 14), ("T-INF", 25, 14)])
    state.apply(("shoot", 0, 2, 0))  # primary: energy, 3 damage
    state.apply(("shoot", 1, 3, 1))  # secondary: ballistic, 2 damage
    assert state.units[2].click == 1 and state.units[3].click == 2


def test_m16_close_combat_needs_base_contact_and_uses_primary_damage():
    apart = battle([("T-ACE", 18, 10)], [("T-MECH", 18, 14)])
    assert not actions_of(apart, "close")
    touching = battle([("T-ACE", 18, 10)], [("T-MECH", 18, 10 + TOUCH)])
    touching.apply(("close", 0, 1))
    assert touching.units[1].click == 3


def test_charge_moves_into_base_contact_then_attacks():
    state = battle([("T-ACE", 18, 10)], [("T-MECH", 18, 17)])
    state.apply(("charge", 0, 1))
    assert state.in_contact(state.units[0], state.units[1])
    assert events(state, "attack")[0]["attack_kind"] == "charge" and state.units[1].click == 3


def test_death_from_above_jumps_over_bases_and_a_miss_hurts_the_attacker():
    wall = [("T-TANK", x, 13) for x in (14.5, 15.8, 17.1, 18.4, 19.7, 21.0)]
    state = battle([("T-ACE", 18, 10)] + wall, [("T-MECH", 18, 17)])
    assert ("dfa", 0, 7) in state.legal_actions()
    state.apply(("dfa", 0, 7))
    assert state.units[7].click == 3 + 1  # primary + dfa_damage_bonus
    missing = battle([("T-DUD", 18, 10)], [("T-MECH", 18, 17)], attack_dice=1)
    missing.apply(("dfa", 0, 1))
    assert missing.units[0].click == 1 and missing.units[1].click == 0


def test_m17_heat_modifies_damage_and_move():
    """M17: heat click N adds heat_dial[N-1] to the mech's damage and move."""
    state = battle([("T-ACE", 18, 2)], [("T-MECH", 18, 34), ("T-MECH", 5, 30)])
    state.units[0].heat = 2  # primary −1, move −4
    state.apply(("move", 0, 1, False))
    assert state.units[0].y == pytest.approx(2 + 6)
    shot = battle([("T-ACE", 18, 10)], [("T-MECH", 18, 15)])
    shot.units[0].heat = 2
    shot.apply(("shoot", 0, 1, 0))
    assert shot.units[1].click == 3 - 1


def test_m17_pushing_to_the_shutdown_click_shuts_the_mech_down_for_a_turn():
    """M17: at the last heat click the mech shuts down: heat clears, it cannot be ordered next turn."""
    state = battle([("T-MECH", 18, 10), ("T-TANK", 30, 5)], [("T-TANK", 18, 30)])
    mech = state.units[0]
    mech.tokens, mech.heat = 1, 3
    state.apply(("move", 0, 2, False))
    assert events(state, "shutdown") and (mech.heat, mech.tokens) == (0, 2) and state.shutdowns == [1, 0]
    state.apply(("pass",))  # player 0's turn ends; the mech was ordered so it keeps its tokens
    assert mech.tokens == 2
    state.apply(("pass",))  # player 1's turn
    assert not [a for a in state.legal_actions() if len(a) > 1 and a[1] == 0]
    state.apply(("pass",))  # not ordered this turn: M12 clears the tokens
    assert mech.tokens == 0


def test_game_ends_when_one_side_is_eliminated():
    state = battle([("T-ACE", 18, 10)], [("T-INF", 18, 14)])
    state.units[1].click = 4
    state.apply(("shoot", 0, 1, 1))
    assert state.is_terminal() and state.winner == 0 and state.returns() == (1.0, -1.0)
    assert events(state, "game_over")[0]["reason"] == "eliminated"


def test_game_ends_after_max_rounds_won_on_points_destroyed():
    """§2.3 (option max_rounds): after the last round, more points destroyed wins."""
    state = battle([("T-MECH", 2, 2), ("T-INF", 10, 2)], [("T-TANK", 34, 34), ("T-INF", 30, 34)], max_rounds=1,
                   goldfish=True)
    state.units[3].alive = False
    state.points_destroyed[0] = 20
    state.apply(("pass",))
    assert state.is_terminal() and state.winner == 0 and state.end_reason == "rounds" and state.round == 1


def test_goldfish_never_gets_an_order():
    game = MwdaGame(army("T-MECH"), CARDS, OPPONENTS["goldfish"])
    state = game.new_initial_state(random.Random(3))
    while not state.is_terminal():
        assert state.current_player() == 0
        state.apply(("pass",))
    assert not [e for e in state.events.of_kind("order") if e.player == 1]
