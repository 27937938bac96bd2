"""A search policy for any engine: flat Monte Carlo over determinized, truncated greedy rollouts.

At a decision with at least two legal actions the policy

1. ranks the legal actions with the game's greedy scores and keeps the best `candidates` (ties in listing order);
2. draws `rollouts` determinizations of the state from the deciding player's information set (`Hooks.determinize`:
   a clone whose hidden zones — the other side's hand, deck order and face-down cards, the decider's own deck
   order — are re-dealt from the unseen cards in a canonical order, and whose rng is a fresh `random.Random`
   seeded from the policy's rng, so no rollout can foresee the real future dice or shuffles);
3. in each determinization plays every candidate, then lets the game's greedy policy play both sides for
   `horizon` more turns (or to the end of the game, at most `max_steps` actions), and scores the result from the
   decider's side: the game's returns at a finished game, else `Hooks.evaluate` (a heuristic in (-1, 1));
4. picks the candidate with the best mean score; greedy's own first choice gets `prior` added to its mean and wins
   ties, so a search policy only moves away from greedy's choice when the rollouts say another is better.

Every candidate is rolled out from the same determinization with the same dice (common random numbers: the
rollouts of one determinization are clones of one state with one fresh rng), which removes most of the noise from
the comparison. The budget of a decision is at most `candidates × rollouts` rollouts of `horizon` turns (each game's budget:
docs/simulations.md "Search policy"). Decisions with a single legal action, and those a game's `should_search`
leaves out, are greedy's.

The policy reads nothing of the real state that the decider could not see: the determinization is a function of
the information set and the policy's rng only (tests/rules_engine/test_search_policy.py checks that shuffling the
hidden zones and replacing the state's rng changes no choice). It draws only from the rng it is given: the same
seed plays the same games.

No Django here (rules_engine never imports it). The per-game hooks live in rules_engine/<game>/search.py.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from rules_engine.core.game import Action, EngineError, State

__all__ = ["Hooks", "SearchPolicy", "fresh_rng", "canonical_shuffle", "redeal"]


class Hooks(Protocol):
    """What a game gives the search: its greedy policy (rollouts and ranking), how to rank, determinize, evaluate."""

    def greedy(self) -> Any: ...

    def rank(self, state: Any, actions: list[Action]) -> list[float]:
        """The greedy score of each action (higher is better), in the order given."""
        ...

    def determinize(self, state: Any, player: int, rng: random.Random) -> Any:
        """A clone of `state` consistent with what `player` knows, its hidden zones re-dealt and its rng fresh,
        drawn with `rng` only: a function of the information set and `rng`."""
        ...

    def evaluate(self, state: Any, player: int) -> float:
        """How good an unfinished `state` is for `player`, in (-1, 1) (1: as good as a win)."""
        ...

    def turn_count(self, state: Any) -> int:
        """A counter that grows by one each turn (the rollout horizon is counted in it)."""
        ...


def fresh_rng(rng: random.Random) -> random.Random:
    """A new generator for a determinized state, seeded from the policy's rng (never from the state's)."""
    return random.Random(rng.getrandbits(64))


def canonical_shuffle(items: list[Any], rng: random.Random, key: Any) -> list[Any]:
    """`items` sorted by `key` (so the result depends on the multiset only, never on the order they were found
    in), then shuffled with `rng`."""
    pool = sorted(items, key=key)
    rng.shuffle(pool)
    return pool


def redeal(pool: list[Any], sizes: Sequence[int]) -> list[list[Any]]:
    """Cut a shuffled pool into consecutive parts of the given sizes (the last part takes any rest)."""
    parts: list[list[Any]] = []
    at = 0
    for index, size in enumerate(sizes):
        end = len(pool) if index == len(sizes) - 1 else at + size
        parts.append(pool[at:end])
        at = end
    return parts


class SearchPolicy:
    """Flat Monte Carlo with determinized, truncated greedy rollouts (module docstring). A game's search policy
    subclasses it with its hooks and budget."""

    name = "search"
    hooks: Hooks
    candidates = 3  # the greedy-ranked actions searched
    rollouts = 4  # determinizations per decision; every candidate is rolled out in each
    horizon = 2  # turns played on by greedy after the candidate (then `evaluate`)
    max_steps = 400  # actions per rollout at most (a safety net: the horizon ends rollouts first)
    prior = 0.0  # added to greedy's own choice's mean score: how much better another must look to be chosen

    def __init__(self, *, candidates: int | None = None, rollouts: int | None = None,
                 horizon: int | None = None, prior: float | None = None) -> None:
        if prior is not None:
            self.prior = prior
        if candidates is not None:
            self.candidates = candidates
        if rollouts is not None:
            self.rollouts = rollouts
        if horizon is not None:
            self.horizon = horizon
        if self.candidates < 1 or self.rollouts < 1 or self.horizon < 0:
            raise ValueError(f"{self.name}: candidates and rollouts must be ≥ 1 and horizon ≥ 0")
        self.greedy = self.hooks.greedy()
        self.decisions = 0  # decisions searched (≥ 2 candidates), for the benchmark
        self.simulated = 0  # rollout actions played

    def shortlist(self, state: State, actions: list[Action]) -> list[Action]:
        """The best `candidates` actions by greedy score; on equal scores the one listed first."""
        scores = self.hooks.rank(state, actions)
        order = sorted(range(len(actions)), key=lambda i: (-scores[i], i))
        return [actions[i] for i in order[: self.candidates]]

    def should_search(self, state: State, actions: list[Action]) -> bool:
        """Whether this decision is worth searching (a game may skip decisions that cannot matter)."""
        return len(actions) >= 2

    def choose(self, state: State, rng: random.Random) -> Action:
        actions = state.legal_actions()
        if not actions:
            raise EngineError(f"policy {self.name!r}: no legal action on turn {state.turn}")
        if not self.should_search(state, actions):
            return self.greedy.choose(state, rng) if len(actions) > 1 else actions[0]
        shortlist = self.shortlist(state, actions)
        if len(shortlist) < 2:
            return shortlist[0]
        self.decisions += 1
        player = state.current_player()
        totals = [0.0] * len(shortlist)
        for _ in range(self.rollouts):
            draw = random.Random(rng.getrandbits(64))  # one draw of the policy's rng per determinization
            world = self.hooks.determinize(state, player, draw)
            for index, action in enumerate(shortlist):
                totals[index] += self.rollout(world.clone(), action, player, draw)
        totals[0] += self.prior * self.rollouts
        best = 0
        for index in range(1, len(shortlist)):
            if totals[index] > totals[best] + 1e-9:
                best = index
        return shortlist[best]

    def rollout(self, state: Any, action: Action, player: int, rng: random.Random) -> float:
        """Play `action`, then greedy for both sides for `horizon` turns; the decider's score."""
        hooks, greedy = self.hooks, self.greedy
        state.apply(action)
        stop = hooks.turn_count(state) + self.horizon
        steps = 0
        while not state.is_terminal() and hooks.turn_count(state) < stop and steps < self.max_steps:
            state.apply(greedy.choose(state, rng))
            steps += 1
        self.simulated += steps + 1
        if state.is_terminal():
            return float(state.returns()[player])
        return hooks.evaluate(state, player)
