"""Random playouts over every sample list × every bundled opponent (docs/design.md §3.4 random-simulation tests):
invariants after every action, termination within the turn cap, and seed determinism."""
from __future__ import annotations

import random

import pytest

from rules_engine.core.game import Game, State, apply_checked, play_out
from rules_engine.core.policies import RandomPolicy, get_policy
from rules_engine.core.rng import game_rng
from rules_engine.hagmi.game import HagmiGame
from tests.rules_engine.hagmi import CATALOG, LISTS, OPPONENTS, check_invariants

MAX_TURNS = 40
PAIRS = [(lst, opp) for lst in LISTS for opp in OPPONENTS]


def _game(lst: str, opp: str) -> HagmiGame:
    return HagmiGame(LISTS[lst], CATALOG, OPPONENTS[opp], {"max_turns": MAX_TURNS})


def test_game_and_state_follow_the_core_protocol():
    game = _game("akane-assault", "goldfish")
    state = game.new_initial_state(random.Random(1))
    assert isinstance(game, Game) and isinstance(state, State)
    assert state.clone().legal_actions() == state.legal_actions()


@pytest.mark.parametrize("lst, opp", PAIRS)
def test_random_playouts_keep_invariants_after_every_action(lst, opp):
    """Every card in exactly one zone, fuel ≤ cost (designs excepted, H23), armor never negative."""
    game = _game(lst, opp)
    policies = [RandomPolicy(), RandomPolicy()]
    for index in range(12):
        state = game.new_initial_state(game_rng(7, index))
        total = len(state.cards)
        rng = random.Random(index)
        while not state.is_terminal():
            player = state.current_player()
            apply_checked(state, policies[player].choose(state, rng))
            check_invariants(state, total)
        assert state.turn <= MAX_TURNS + 1


@pytest.mark.parametrize("lst, opp", PAIRS)
@pytest.mark.parametrize("policy", ["random", "hagmi-greedy"])
def test_many_playouts_terminate_within_the_turn_cap(lst, opp, policy):
    game = _game(lst, opp)
    policies = [get_policy(policy), get_policy(policy)]
    outcomes = set()
    for index in range(40):
        state = play_out(game.new_initial_state(game_rng(11, index)), policies, random.Random(index), max_steps=20_000)
        check_invariants(state, len(state.cards))
        assert state.turn <= MAX_TURNS + 1 and state.is_terminal()
        outcomes.add(state.winner)
    assert outcomes  # 25 pairs × 2 policies × 40 = 2 000 games, plus 300 checked step by step above


def _play_perturbed(seed: int) -> list:
    game = _game("hibari-skirmish", "sample-fortress")
    state = game.new_initial_state(game_rng(seed, 0))
    rng = random.Random(seed)
    policy = get_policy("random")
    while not state.is_terminal():
        random.seed(random.random())  # perturb the global random state between steps
        random.random()
        state.apply(policy.choose(state, rng))
    return state.events.to_list()


def test_same_seed_gives_the_same_game_whatever_the_global_random_state():
    assert _play_perturbed(5) == _play_perturbed(5)
    assert _play_perturbed(5) != _play_perturbed(6)


def test_clone_is_independent_and_replays_identically():
    game = _game("akane-assault", "coop-ironshell-cradle")
    state = game.new_initial_state(game_rng(3, 0))
    for _ in range(5):  # the first listed actions end this game in 10 (H34: they attack the mothership)
        state.apply(state.legal_actions()[0])
    assert not state.is_terminal()
    twin = state.clone()
    rng_a, rng_b = random.Random(9), random.Random(9)
    policy = RandomPolicy()
    play_out(state, [policy, policy], rng_a)
    assert not twin.is_terminal() or twin.turn == state.turn
    play_out(twin, [policy, policy], rng_b)
    assert twin.events.to_list() == state.events.to_list()


def test_greedy_policy_beats_the_goldfish_faster_than_random():
    game = _game("akane-assault", "goldfish")

    def mean_turns(name: str) -> float:
        turns = []
        for index in range(60):
            state = play_out(game.new_initial_state(game_rng(1, index)), [get_policy(name)] * 2, random.Random(index))
            turns.append(state.turn if state.winner == 0 else MAX_TURNS + 1)
        return sum(turns) / len(turns)

    assert mean_turns("hagmi-greedy") < mean_turns("random")
