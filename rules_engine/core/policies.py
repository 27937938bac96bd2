"""Policies choose one of a state's legal actions; the registry maps a policy name (the `--policy` option,
a simulation run's `policy`) to its class.

A policy draws randomness only from the rng it is given. Engines register their own policies
(`greedy`, scripted opponents such as the 機獣 charge procedure) with `@register_policy("name")`.
"""
from __future__ import annotations

import random
from typing import Any, Callable, Protocol, TypeVar, runtime_checkable

from rules_engine.core.game import Action, EngineError, State

__all__ = ["Policy", "POLICIES", "register_policy", "get_policy", "RandomPolicy", "FirstActionPolicy"]


@runtime_checkable
class Policy(Protocol):
    name: str

    def choose(self, state: State, rng: random.Random) -> Action: ...


POLICIES: dict[str, type] = {}

P = TypeVar("P", bound=type)


def register_policy(name: str) -> Callable[[P], P]:
    """Class decorator: register a policy class under `name` (and set its `name`). Names are unique."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"policy name must be a non-empty string, got {name!r}")

    def decorator(cls: P) -> P:
        existing = POLICIES.get(name)
        if existing is not None and existing is not cls:
            raise ValueError(f"policy name {name!r} is already registered by {existing.__qualname__}")
        cls.name = name  # type: ignore[attr-defined]
        POLICIES[name] = cls
        return cls

    return decorator


def get_policy(name: str, **kwargs: Any) -> Policy:
    """A new policy registered under `name`; an unknown name raises ValueError listing the known ones."""
    try:
        cls = POLICIES[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(POLICIES)) or "none"
        raise ValueError(f"unknown policy {name!r}; known policies: {known}") from None
    return cls(**kwargs)


def _legal_or_fail(state: State, policy: str) -> list[Action]:
    actions = state.legal_actions()
    if not actions:
        raise EngineError(f"policy {policy!r}: no legal action on turn {state.turn} for player "
                          f"{state.current_player()} in a game that is not over")
    return actions


@register_policy("random")
class RandomPolicy:
    """Uniform over the legal actions, using only the given rng."""

    name = "random"

    def choose(self, state: State, rng: random.Random) -> Action:
        return rng.choice(_legal_or_fail(state, self.name))


@register_policy("first")
class FirstActionPolicy:
    """Always the first legal action: a deterministic baseline for regression games."""

    name = "first"

    def choose(self, state: State, rng: random.Random) -> Action:
        return _legal_or_fail(state, self.name)[0]
