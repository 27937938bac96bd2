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
from rules_engine.mwda.policies import RESOLVE_FLOOR, GreedyPolicy, impatience


class MwdaHooks:
    def __init__(self) -> None:
        self._greedy = GreedyPolicy()

    def greedy(self) -> GreedyPolicy:
        return GreedyPolicy()

    def rank(self, state: Any, actions: list[Any]) -> list[float]:
        self._greedy._nearest = {}  # the greedy's per-decision caches (set by its choose)
        self._greedy._here = {}
        self._greedy._resolve = 1.0 - impatience(state, state.active) * (1.0 - RESOLVE_FLOOR)  # its expected share
        return [self._greedy.score(state, action) for action in actions]

    def determinize(self, state: Any, player: int, rng: random.Random) -> Any:
        world = state.clone()
        world.rng = fresh_rng(rng)
        return world

    def evaluate(self, state: Any, player: int) -> float:
        """Points destroyed (§2.3: they decide the battle) and what is left of each army (points × dial left)."""
        left = [0.0, 0.0]
        for unit in state.units:
            if unit.alive:
                dial = len(unit.spec.dial)
                left[unit.side] += unit.spec.points * (dial - unit.click) / dial
        destroyed = state.points_destroyed
        other = 1 - player
        diff = (destroyed[player] - destroyed[other]) + 0.5 * (left[player] - left[other])
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


register_policy("mwda-search")(MwdaSearchPolicy)
