"""MechWarrior: Dark Age search policy `mwda-search`: rules_engine/core/search.py's flat Monte Carlo with this
game's hooks.

Nothing on the table is hidden in MWDA: both armies, every dial, heat and token are in plain view. The one thing a
player cannot know is the future: the attack dice and every later roll, which live in the state's rng. A
determinization is therefore a clone with a fresh `random.Random` seeded from the policy's rng (docs/simulations.md
"Search policy").
"""
from __future__ import annotations

import random
from typing import Any

from rules_engine.core.policies import register_policy
from rules_engine.core.search import SearchPolicy, fresh_rng
from rules_engine.mwda.policies import OPPORTUNITY, GreedyPolicy, chance_at, push_cost, resolve


def material(state: Any) -> tuple[list[float], list[float]]:
    """Points destroyed by each side (§2.3: they decide the battle) and what is left of each army (points × the
    share of its dial left)."""
    left = [0.0, 0.0]
    for unit in state.units:
        if unit.alive:
            dial = len(unit.spec.dial)
            left[unit.side] += unit.spec.points * (dial - unit.click) / dial
    return list(state.points_destroyed), left


def pending_blows(state: Any, side: int) -> float:
    """What `side` can strike on its turn before the enemy answers (M10): its order count (M2) of its units' best
    attacks from where they stand (a shot, or a charge within the move allowance), each less its push's cost
    (M11), at the enemies where they stand."""
    values: list[float] = []
    for unit in state.units:
        if unit.alive and unit.side == side and unit.tokens < 2:
            value = chance_at(state, unit, unit.x, unit.y) - push_cost(unit, careful=False)
            if value > 0.0:
                values.append(value)
    values.sort(reverse=True)
    return sum(values[:state.orders[side]])


class MwdaHooks:
    def __init__(self) -> None:
        self._greedy = GreedyPolicy()
        self._root: tuple[list[float], list[float]] = ([0.0, 0.0], [0.0, 0.0])  # `material` where the search starts
        self._share = 1.0  # the share of the decider's losses counted (the greedy's `resolve`, with `draw`)
        self.draw = 1.0  # the decider's uniform draw for its patience, set by the search policy for each decision

    def greedy(self) -> GreedyPolicy:
        return GreedyPolicy()

    def rank(self, state: Any, actions: list[Any]) -> list[float]:
        self._greedy._nearest = {}  # the greedy's per-decision caches (set by its choose)
        self._greedy._here = {}
        self._greedy._later = state.round < state.options["max_rounds"]
        self._share = self._greedy._resolve = resolve(state, state.active, self.draw)
        self._root = material(state)  # rank runs once per searched decision, at its root
        return [self._greedy.score(state, action) for action in actions]

    def determinize(self, state: Any, player: int, rng: random.Random) -> Any:
        world = state.clone()
        world.rng = fresh_rng(rng)
        return world

    def evaluate(self, state: Any, player: int) -> float:
        """Points destroyed (§2.3: they decide the battle) and what is left of each army (points × dial left).
        When the decider has lost patience (`policies.resolve` with its draw: a side level or behind late in the
        battle, a draw winning it nothing), its losses since the search began count at its share, and the blows
        the side to move strikes before the other can answer (M10: `pending_blows`) count too: the rollout stops
        before the decider's blow back, which its step into the enemy's reach is for."""
        destroyed, left = material(state)
        root_destroyed, root_left = self._root
        other = 1 - player
        diff = (destroyed[player] - destroyed[other]) + 0.5 * (left[player] - left[other])
        lost = (destroyed[other] - root_destroyed[other]) + 0.5 * (root_left[player] - left[player])
        if self._share >= 1.0 or state.is_terminal():
            return diff / (abs(diff) + 100.0)
        if lost > 0.0:
            diff += (1.0 - self._share) * lost  # only the share of the decider's losses counts
        blows = pending_blows(state, state.active)
        blows *= OPPORTUNITY  # counted as the greedy counts a blow back (policies.OPPORTUNITY)
        diff += blows if state.active == player else -blows
        return diff / (abs(diff) + 100.0)

    def turn_count(self, state: Any) -> int:
        return state.turn


class MwdaSearchPolicy(SearchPolicy):
    """`mwda-search`: 3 greedy-ranked orders × 4 dice samples, each rolled out by greedy to the end of the next
    turn (horizon 2: this one and the opponent's); greedy's own order keeps a margin of 0.1 (`prior`)."""

    name = "mwda-search"
    hooks = MwdaHooks()
    candidates = 3
    rollouts = 4
    horizon = 2
    prior = 0.1

    def choose(self, state: Any, rng: random.Random) -> Any:
        """The search (rules_engine/core/search.py), after one draw of `rng` for the decider's patience (the
        greedy's `resolve`)."""
        self.hooks.draw = rng.random()
        return super().choose(state, rng)


register_policy("mwda-search")(MwdaSearchPolicy)
