"""The game/state protocol every rules engine implements, modelled on OpenSpiel's game API.

A `Game` (a ruleset and its options, bound to two sides) makes an initial `State` from a `random.Random`
that the state owns for all its randomness. A `State` tells whose turn it is, which actions are legal,
applies one, and knows when the game is over and what each player scored. Actions are small hashable
values (tuples or strings); `legal_actions()` must list them in a deterministic order so that a seeded
policy picks the same one every time. A state may expose `describe(action) -> str` for people.

Randomness: every engine rolls its dice and shuffles inside `apply()` with the state's own rng, so there are no
chance nodes to sample (OpenSpiel's kChancePlayerId has no counterpart here).
"""
from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from rules_engine.core.events import EventLog

if TYPE_CHECKING:
    from rules_engine.core.policies import Policy

__all__ = [
    "Action", "TERMINAL", "DEFAULT_MAX_STEPS", "State", "Game", "EngineError", "IllegalActionError",
    "StepLimitError", "play_out", "apply_checked",
]

Action = Hashable

# The pseudo-player id of a finished game, as in OpenSpiel (kTerminalPlayerId).
TERMINAL = -4

DEFAULT_MAX_STEPS = 100_000


@runtime_checkable
class State(Protocol):
    events: EventLog
    turn: int

    def current_player(self) -> int: ...

    def legal_actions(self) -> list[Action]: ...

    def apply(self, action: Action) -> None:
        """Play `action`; one not in `legal_actions()` raises IllegalActionError and changes nothing."""
        ...

    def is_terminal(self) -> bool: ...

    def returns(self) -> tuple[float, ...]: ...

    def clone(self) -> State: ...


@runtime_checkable
class Game(Protocol):
    name: str
    num_players: int

    def new_initial_state(self, rng: random.Random) -> State:
        """A new game dealt with `rng` (its dice). The engines also take `first_player` (0 or 1: who takes the
        first turn; None: the game's own option or roll) and `setup_rngs` (one generator per player for that side's
        set-up shuffles and placement; None: `rng`), which a simulation run passes (rules_engine.core.seats)."""
        ...


class EngineError(Exception):
    """A game could not be played on: a bug in an engine or a policy, never a user's mistake."""


class IllegalActionError(EngineError):
    pass


class StepLimitError(EngineError):
    pass


def _describe(state: State, action: Action) -> str:
    describe = getattr(state, "describe", None)
    if callable(describe):
        try:
            return f"{describe(action)} ({action!r})"
        except Exception:  # a description must never hide the real error
            pass
    return repr(action)


def apply_checked(state: State, action: Action, *, chooser: str = "caller") -> None:
    """Apply `action`; the state refuses an illegal one (`State.apply` raises IllegalActionError: legality is
    checked once, there), and this says who chose it and what was legal instead."""
    try:
        state.apply(action)
    except IllegalActionError as error:
        legal = state.legal_actions()
        raise IllegalActionError(
            f"{chooser} chose illegal action {action!r} on turn {state.turn} "
            f"for player {state.current_player()}; legal: {', '.join(_describe(state, a) for a in legal) or 'none'}"
        ) from error


class Watcher(Protocol):
    """Who watches a game being played (a replay's board): shown the state once set up and after every action, and
    each chosen action before it is applied. It only reads: the game is the same with or without it."""

    def seen(self, state: State) -> None: ...

    def before(self, state: State, action: Action) -> None: ...


def play_out(
    state: State, policies: Sequence[Policy], rng: random.Random | Sequence[random.Random],
    max_steps: int = DEFAULT_MAX_STEPS, watcher: Watcher | None = None,
) -> State:
    """Play `state` to its end in place (and return it): `policies[p]` chooses for player p, with `rng[p]` when
    `rng` is one generator per player (a run's: each side's own policy stream, rules_engine.core.seats), or with
    the one generator `rng` for every player (positions, tests). The state's own generator (its dice) is never
    handed to a policy.

    Every chosen action is checked (by the state's `apply`). Raises StepLimitError if the game is not over after
    `max_steps` actions (every game must terminate), IllegalActionError if a policy breaks the rules.
    """
    if isinstance(rng, random.Random):
        rngs: Sequence[random.Random] = [rng] * len(policies)
    else:
        rngs = rng
        if len(rngs) != len(policies):
            raise EngineError(f"{len(policies)} policies but {len(rngs)} policy generators")
    steps = 0
    choosers = [f"policy {policy.name!r} (player {player})" for player, policy in enumerate(policies)]  # for errors
    if watcher is not None:
        watcher.seen(state)
    while not state.is_terminal():
        if steps >= max_steps:
            raise StepLimitError(f"game not over after {max_steps} actions (turn {state.turn})")
        player = state.current_player()
        if not 0 <= player < len(policies):
            raise EngineError(f"turn {state.turn}: player {player} has no policy ({len(policies)} given)")
        action = policies[player].choose(state, rngs[player])
        if watcher is not None:
            watcher.before(state, action)
        apply_checked(state, action, chooser=choosers[player])
        steps += 1
        if watcher is not None:
            watcher.seen(state)
    return state
