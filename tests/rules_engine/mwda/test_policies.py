"""The MWDA heuristic and search policies' decisions about where to stand (M10: a move and an attack are two orders, so the
unit that ends a move inside an enemy's reach is attacked first).

Each position here is one where the greedy policy used to make the bad choice: walk to its own best range inside
the reach of an enemy that then shoots first, or charge into base contact where a stronger enemy finishes it."""
from __future__ import annotations

import random

import pytest

from rules_engine.core.policies import get_policy
from rules_engine.mwda import actions as A
from rules_engine.mwda.policies import RESOLVE_FLOOR, RESOLVE_TURNS, end_point, impatience, resolve, threat_at
from rules_engine.mwda.search import MwdaHooks, pending_blows
from tests.rules_engine.mwda import battle


def _choice(state, name: str = "mwda-greedy"):
    return get_policy(name).choose(state, random.Random(0))


def test_greedy_does_not_walk_into_the_range_of_an_enemy_that_would_shoot_first():
    """M10/M15: 17.75″ apart, both mechs shoot to 10″ and move 10″. Walking to 9.5″ (the old choice) ends the
    turn inside the enemy's range: it shoots first. The greedy walks to the edge of the enemy's reach instead,
    ½″ outside it (the defensive policy falls back)."""
    state = battle([("T-MECH", 18.0, 5.0)], [("T-MECH", 18.0, 24.0)])
    mover, enemy = state.units
    assert ("move", mover.uid, enemy.uid, False) in state.legal_actions()  # the old greedy's choice
    x, y = end_point(state, mover, enemy.uid, False)
    assert state.edge(mover, enemy) > 10 and y == pytest.approx(enemy.y - 2 * mover.spec.radius - 9.5)
    assert threat_at(state, mover, x, y) > 0 == threat_at(state, mover, mover.x, mover.y)
    choice = _choice(state)
    assert choice == ("advance", mover.uid, enemy.uid, False)
    assert _choice(state, "mwda-defensive") != ("move", mover.uid, enemy.uid, False)
    state.apply(choice)
    assert state.edge(mover, enemy) == pytest.approx(10.5)
    assert not any(a[0] == "shoot" for a in state.legal_actions())  # the enemy's turn: nothing to shoot


def test_greedy_still_closes_in_on_an_enemy_it_outranges():
    """The mech (10″ range) walks to 9.5″ of infantry that shoots to 6″ and moves 8″: nothing answers it there."""
    state = battle([("T-MECH", 18.0, 5.0)], [("T-INF", 18.0, 24.0)])
    mover, enemy = state.units
    assert _choice(state) == ("move", mover.uid, enemy.uid, False)


def test_greedy_does_not_charge_where_a_stronger_enemy_then_finishes_it():
    """M16 charge: the infantry could charge the enemy infantry for 1 damage, but it would end in base contact
    within the enemy mech's 10″ range (out of it where it stands): the mech's 3 damage costs more than it wins."""
    state = battle([("T-INF", 18.0, 10.0)], [("T-INF", 18.0, 19.0), ("T-MECH", 18.0, 28.0)])
    mover, infantry, mech = state.units
    charge = ("charge", mover.uid, infantry.uid)
    assert charge in state.legal_actions()  # the old greedy's choice
    assert _choice(state) != charge


def test_greedy_falls_back_from_an_enemy_it_cannot_answer():
    """Artillery (4–14″) can shoot the mech (10″ range) 12″ away; the mech cannot shoot back this turn. Walking
    to 9.5″ would still take a shot first; falling back out of 14″ takes none."""
    state = battle([("T-MECH", 18.0, 14.0)], [("T-ART", 18.0, 28.25)])
    mover, artillery = state.units
    assert not [a for a in state.legal_actions() if a[0] == "shoot"]
    assert _choice(state) in (("move", mover.uid, -1, False), ("move", mover.uid, -1, True))


class _Draw(random.Random):
    """A policy stream whose uniform draw is fixed: the greedy's one draw per decision (`resolve`)."""

    def __init__(self, value: float) -> None:
        super().__init__(0)
        self.value = value

    def random(self) -> float:
        return self.value


def _standoff(round_: int, points: tuple[int, int]):
    """Two mechs (10″ range, 10″ move) ½″ outside each other's reach; player 0 (first) to order, in `round_`
    with `points` destroyed."""
    state = battle([("T-MECH", 18.0, 5.0)], [("T-MECH", 18.0, 5.0 + 10.5 + 2 * 1.0)])
    mover, enemy = state.units
    state.place(enemy, 18.0, mover.y + 10.5 + mover.spec.radius + enemy.spec.radius)
    state.round = round_
    state.points_destroyed = list(points)
    return state, mover, enemy


def test_greedy_level_on_points_late_in_the_battle_steps_into_the_enemy_reach():
    """§2.3: at the round limit equal points are a draw, which wins neither side anything. Level at 0–0 with 6 game
    turns left (round 8, the first player's turn) and losing patience (a low draw), the mech steps into its own
    range, inside the enemy's: it is shot first (M10) but a 1:1 trade is worth a win. Early in the battle, or
    with patience left (a high draw), it holds ½″ outside the enemy's reach; on its last turn (round 10 of 10)
    nothing follows to hit back with, so it holds too."""
    state, mover, enemy = _standoff(8, (0, 0))
    assert state.edge(mover, enemy) == pytest.approx(10.5)
    step_in = ("move", mover.uid, enemy.uid, False)
    assert step_in in state.legal_actions()
    assert impatience(state, 0) == pytest.approx(1 - 6 / RESOLVE_TURNS)  # round 8 to 10: 6 game turns
    assert get_policy("mwda-greedy").choose(state, _Draw(0.0)) == step_in
    assert get_policy("mwda-greedy").choose(state, _Draw(0.99)) != step_in
    early, mover, enemy = _standoff(1, (0, 0))
    assert impatience(early, 0) == 0.0
    assert get_policy("mwda-greedy").choose(early, _Draw(0.0)) != ("move", mover.uid, enemy.uid, False)
    last, mover, enemy = _standoff(10, (0, 0))  # the round limit's round: no turn follows for a blow back
    assert impatience(last, 0) > 0.8
    assert get_policy("mwda-greedy").choose(last, _Draw(0.0)) != ("move", mover.uid, enemy.uid, False)


def test_greedy_ahead_on_points_keeps_out_of_the_enemy_reach_to_the_end():
    """§2.3: a side ahead on points destroyed wins at the round limit: with the same standoff late in the battle
    it never steps into the enemy's reach (M10: it would be shot first), whatever its draw; the side behind may."""
    state, mover, enemy = _standoff(8, (30, 0))
    assert impatience(state, 0) == 0.0 and resolve(state, 0, 0.0) == 1.0
    choice = get_policy("mwda-greedy").choose(state, _Draw(0.0))
    assert choice != ("move", mover.uid, enemy.uid, False)
    state.apply(choice)
    assert state.edge(mover, enemy) > 10.0  # still outside the enemy's reach
    behind, _, _ = _standoff(8, (0, 30))
    assert impatience(behind, 0) > 0.0 and resolve(behind, 0, 0.0) == RESOLVE_FLOOR


def test_search_that_lost_patience_counts_the_blows_it_strikes_first():
    """The search's rollouts stop at the start of the decider's turn, before its blow back (M10: the side to move
    strikes first). Level late in the battle (§2.3: a draw wins nothing) and with a low draw, its evaluation
    counts the blows it can strike from where its units stand; with patience left it counts material only, as
    when it is ahead."""
    state, mover, enemy = _standoff(8, (0, 0))
    state.place(enemy, 18.0, mover.y + 9.0 + mover.spec.radius + enemy.spec.radius)  # inside the mover's range
    assert ("shoot", mover.uid, enemy.uid, 0) in state.legal_actions()
    blows = pending_blows(state, 0)
    assert blows > 0.0
    hooks = MwdaHooks()
    hooks.draw = 0.0
    hooks.rank(state, state.legal_actions())  # the search's root: the decider's share of its losses, material
    assert hooks.evaluate(state, 0) > 0.0
    hooks.draw = 0.99
    hooks.rank(state, state.legal_actions())
    assert hooks.evaluate(state, 0) == 0.0
    ahead, _, _ = _standoff(8, (30, 0))
    hooks.draw = 0.0
    hooks.rank(ahead, ahead.legal_actions())
    assert hooks._share == 1.0
