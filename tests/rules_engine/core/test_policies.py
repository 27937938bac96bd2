"""The policy registry and the random policy."""
import random
from collections import Counter

import pytest

from rules_engine.core.game import EngineError
from rules_engine.core.policies import POLICIES, FirstActionPolicy, Policy, RandomPolicy, get_policy, register_policy
from rules_engine.core.rng import game_rng
from tests.rules_engine.core.test_game import DiceRace


def test_builtin_policies_are_registered_by_name():
    assert POLICIES["random"] is RandomPolicy and POLICIES["first"] is FirstActionPolicy
    policy = get_policy("random")
    assert isinstance(policy, RandomPolicy) and isinstance(policy, Policy) and policy.name == "random"


def test_unknown_policy_is_a_value_error_listing_known_names():
    with pytest.raises(ValueError, match=r"unknown policy 'greedyy'; known policies: .*first.*random"):
        get_policy("greedyy")


def test_register_policy_refuses_a_second_class_under_a_taken_name(monkeypatch):
    monkeypatch.setattr("rules_engine.core.policies.POLICIES", dict(POLICIES))

    @register_policy("test-scripted")
    class Scripted:
        def __init__(self, prefer: str = "walk") -> None:
            self.prefer = prefer

        def choose(self, state, rng):
            return self.prefer

    assert get_policy("test-scripted", prefer="roll").prefer == "roll"
    assert Scripted.name == "test-scripted"
    with pytest.raises(ValueError, match="already registered by .*Scripted"):
        register_policy("test-scripted")(type("Other", (), {}))


def test_random_policy_is_uniform_over_legal_actions_and_seeded():
    state = DiceRace().new_initial_state(random.Random(0))  # at 0, so roll / walk / rest are legal
    rng = game_rng(11, 0)
    picks = Counter(RandomPolicy().choose(state, rng) for _ in range(3000))
    assert set(picks) == {"roll", "walk", "rest"}
    assert all(850 < n < 1150 for n in picks.values())
    first, second = game_rng(11, 0), game_rng(11, 0)
    assert [RandomPolicy().choose(state, first) for _ in range(50)] == [
        RandomPolicy().choose(state, second) for _ in range(50)
    ]


def test_policies_fail_clearly_when_a_live_state_has_no_legal_action():
    state = DiceRace().new_initial_state(random.Random(0))
    state.legal_actions = lambda: []  # type: ignore[method-assign]
    for policy in (RandomPolicy(), FirstActionPolicy()):
        with pytest.raises(EngineError, match=f"policy '{policy.name}': no legal action on turn 1"):
            policy.choose(state, random.Random(0))
