"""Random playouts over every sample list × every bundled opponent (docs/design.md §3.4 random-simulation tests):
invariants after every action (bases never overlap, one order per unit per turn, tokens ≤ 2, dials in
bounds), every battle ends, and seed determinism with the global random state perturbed."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from rules_engine.core.game import Game, State, apply_checked, play_out
from rules_engine.core.policies import get_policy
from rules_engine.core.rng import game_rng
from rules_engine.mwda import geometry as geo
from rules_engine.mwda.game import MwdaGame
from tests.rules_engine.mwda import CARDS, LISTS, OPPONENTS

PAIRS = [(lst, opp) for lst in LISTS for opp in OPPONENTS]


def _game(lst: str, opp: str) -> MwdaGame:
    return MwdaGame(LISTS[lst], CARDS, OPPONENTS[opp])


def check_invariants(state) -> None:
    alive = [u for u in state.units if u.alive]
    for i, unit in enumerate(alive):
        assert geo.inside_table(unit.x, unit.y, unit.spec.radius), unit.spec.code
        assert 0 <= unit.tokens <= 2
        assert 0 <= unit.click < len(unit.spec.dial)
        assert 0 <= unit.heat < max(unit.spec.shutdown_heat, 1)
        for other in alive[i + 1:]:
            assert state.edge(unit, other) >= -1e-6, (unit.spec.code, other.spec.code)
    if not state.is_terminal():
        assert 0 < state.orders_left <= state.orders[state.active]
        assert len(state.ordered) == state.orders[state.active] - state.orders_left


def check_log(state) -> None:
    """From the event log: no unit ordered twice in a turn, never more orders than the order count (M10)."""
    per_turn: dict[int, Counter] = {}
    for event in state.events.of_kind("order"):
        per_turn.setdefault(event.turn, Counter())[event.data["unit"]] += 1
    for turn, counts in per_turn.items():
        assert max(counts.values()) == 1, f"turn {turn}: a unit ordered twice"
        assert sum(counts.values()) <= max(state.orders), turn
    over = state.events.of_kind("game_over")
    assert len(over) == 1 and state.round <= state.options["max_rounds"]


def test_game_and_state_follow_the_core_protocol():
    game = _game("highland-line", "steel-wolves-pack")
    state = game.new_initial_state(random.Random(1))
    assert isinstance(game, Game) and isinstance(state, State)
    assert state.clone().legal_actions() == state.legal_actions()


@pytest.mark.parametrize("lst, opp", PAIRS)
def test_random_playouts_keep_invariants_after_every_action(lst, opp):
    game = _game(lst, opp)
    policy = get_policy("random")
    for index in range(25):
        state = game.new_initial_state(game_rng(7, index))
        rng = random.Random(index)
        check_invariants(state)
        steps = 0
        while not state.is_terminal():
            apply_checked(state, policy.choose(state, rng))
            check_invariants(state)
            steps += 1
            assert steps < 5_000
        check_log(state)


@pytest.mark.parametrize("lst, opp", PAIRS)
def test_heuristic_playouts_end_and_keep_the_order_rules(lst, opp):
    """12 pairs × 2 policies × 30 = 720 battles (plus 300 checked step by step above): every one ends."""
    game = _game(lst, opp)
    reasons = Counter()
    for name in ("mwda-greedy", "mwda-defensive"):
        policies = [get_policy(name), get_policy(name)]
        for index in range(30):
            state = play_out(game.new_initial_state(game_rng(11, index)), policies, random.Random(index),
                             max_steps=5_000)
            check_invariants(state)
            check_log(state)
            reasons[state.end_reason] += 1
    assert set(reasons) <= {"eliminated", "rounds"}


def _play_perturbed(seed: int, policy: str) -> list:
    game = _game("steel-wolves-pack", "highland-line")
    rng = game_rng(seed, 0)
    state = game.new_initial_state(rng)
    chooser = get_policy(policy)
    while not state.is_terminal():
        random.seed(random.random())  # perturb the global random state between steps
        apply_checked(state, chooser.choose(state, rng))
    return state.events.to_list()


@pytest.mark.parametrize("policy", ["random", "mwda-greedy"])
def test_same_seed_same_battle_whatever_the_global_random_state(policy):
    """docs/design.md §3.2: randomness comes only from the game's rng (the RLCard / PettingZoo seed test)."""
    first = _play_perturbed(5, policy)
    random.seed(12345)
    assert _play_perturbed(5, policy) == first
    assert _play_perturbed(6, policy) != first


def test_clone_plays_on_identically():
    game = _game("republic-knight-guard", "highland-line")
    state = game.new_initial_state(game_rng(3, 0))
    policy = get_policy("mwda-greedy")
    for _ in range(6):
        state.apply(policy.choose(state, state.rng))
    twin = state.clone()
    play_out(state, [policy, policy], random.Random(0))
    play_out(twin, [policy, policy], random.Random(0))
    assert state.events == twin.events and twin.winner == state.winner


def test_event_log_is_enough_to_redraw_the_table():
    """Every unit's position can be followed from deploy and move events to where it stands at the end."""
    game = _game("steel-wolves-pack", "republic-knight-guard")
    state = play_out(game.new_initial_state(game_rng(9, 0)), [get_policy("mwda-greedy")] * 2, random.Random(0))
    where = {}
    for event in state.events:
        if event.kind == "deploy":
            where[event.data["unit"]] = event.data["at"]
        elif event.kind == "move":
            assert event.data["origin"] == where[event.data["unit"]]
            where[event.data["unit"]] = event.data["to"]
        elif event.kind == "attack":
            assert event.data["origin"] == where[event.data["unit"]] and event.data["to"] == where[event.data["target"]]
    for unit in state.units:
        if unit.alive:
            assert where[unit.uid] == pytest.approx([unit.x, unit.y], abs=1e-3)
    assert state.events.of_kind("setup")[0].data["table"]["terrain"] == state.layout.to_dict()["terrain"]
