"""Warcaster search policy `warcaster-search`: rules_engine/core/search.py's flat Monte Carlo with this game's
hooks.

Hidden from the deciding player (docs/simulations.md "Search policy"): the other player's cypher hand and the
order of their cypher deck; the order of the decider's own cypher deck; and the future dice and reshuffles (the
state's rng, replaced by a fresh one). Everything else (the table, arc, gates, both discard piles, victory points)
is open. The other player's unseen cyphers are their list's cypher deck minus their discard pile: the hand and
the deck are pooled, sorted by code (the canonical order), shuffled with the policy's rng and dealt back, as many
to the hand as it held. The decider's own deck is sorted and shuffled the same way (its contents are known).
"""
from __future__ import annotations

import random
from typing import Any

from rules_engine.core.policies import register_policy
from rules_engine.core.search import SearchPolicy, fresh_rng
from rules_engine.warcaster.policies import WarcasterGreedyPolicy


def _code(cypher: Any) -> str:
    return cypher.code


def redeal_hidden(state: Any, owner: int, rng: random.Random) -> None:
    side = state.sides[owner]
    pool = sorted(side.hand + side.deck, key=_code)
    rng.shuffle(pool)
    held = len(side.hand)
    side.hand, side.deck = pool[:held], pool[held:]


def shuffle_own_deck(state: Any, owner: int, rng: random.Random) -> None:
    side = state.sides[owner]
    deck = sorted(side.deck, key=_code)
    rng.shuffle(deck)
    side.deck = deck


class WarcasterHooks:
    def __init__(self) -> None:
        self._greedy = WarcasterGreedyPolicy()

    def greedy(self) -> WarcasterGreedyPolicy:
        return WarcasterGreedyPolicy()

    def rank(self, state: Any, actions: list[Any]) -> list[float]:
        state.freeze()
        try:
            return [self._greedy._score(state, action) for action in actions]
        finally:
            state.thaw()

    def determinize(self, state: Any, player: int, rng: random.Random) -> Any:
        world = state.clone()
        world.rng = fresh_rng(rng)
        for index in range(len(world.sides)):
            if index == player:
                shuffle_own_deck(world, index, rng)
            else:
                redeal_hidden(world, index, rng)
        return world

    def evaluate(self, state: Any, player: int) -> float:
        """Victory points (W16) and what is left of each force: a unit's CST (its points if destroyed) by the share
        of its models' health left."""
        value = [2.0 * side.vp for side in state.sides]
        for unit in state.units:
            if unit.status == "destroyed":
                continue
            total = sum(m.spec.health for m in unit.models) or 1
            alive = sum(m.health for m in unit.models if m.alive)
            value[unit.player] += unit.spec.cst * alive / total
        diff = value[player] - value[1 - player]
        return diff / (abs(diff) + 10.0)

    def turn_count(self, state: Any) -> int:
        return state.turn


class WarcasterSearchPolicy(SearchPolicy):
    """`warcaster-search`: 3 greedy-ranked choices × 3 determinizations, each rolled out by greedy for 2 turns."""

    name = "warcaster-search"
    hooks = WarcasterHooks()
    candidates = 3
    rollouts = 3
    horizon = 2
    skip = ("discard",)  # phases left to greedy: the discard is optional and greedy keeps its cyphers (W10 phase 8)

    def should_search(self, state: Any, actions: list[Any]) -> bool:
        return len(actions) >= 2 and state.phase not in self.skip


register_policy("warcaster-search")(WarcasterSearchPolicy)
