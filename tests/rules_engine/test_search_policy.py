"""The search policies (rules_engine/core/search.py): `<game>-search` plays every game to a legal
end, never looks at hidden information (shuffling what the decider cannot see, and replacing the state's rng,
changes no choice), plays the same games from the same seed, and `simulate --policy search` works.

The budgets here are small (the tests run the pure-Python engines too); the strength is measured, not asserted:
benchmarks/bench_search.py, docs/benchmarks.md "Search policy"."""
from __future__ import annotations

import json
import random
from io import StringIO
from pathlib import Path
from typing import Any

import pytest

from rules_engine.core.game import play_out
from rules_engine.core.policies import POLICIES, get_policy
from rules_engine.core.rng import game_rng
from rules_engine.hagmi.search import origins as hagmi_origins
from rules_engine.simulation import build_snapshot, simulator_for

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = {"hagmi": "sample-vanguard", "mwda": "republic-knight-guard", "warcaster": "isa-starsteel-vanguard"}
GREEDY = {"hagmi": "hagmi-greedy", "mwda": "mwda-greedy", "warcaster": "warcaster-greedy"}
SMALL = {"candidates": 2, "rollouts": 2, "horizon": 1}  # a cheap budget: these tests are about rules, not strength


def package(system: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    folder = ROOT / "cards" / "packages" / system
    core = json.loads(next(folder.glob("*.json")).read_text(encoding="utf-8"))
    return {card["code"]: card for card in core["cards"]}, core["opponents"]


def mirrored_game(system: str) -> Any:
    """The sample list against itself, built as the simulator builds it."""
    cards, opponents = package(system)
    opponent = next(o for o in opponents if o["slug"] == SAMPLES[system])
    snapshot = build_snapshot(opponent["list"], cards, opponent, policy="search")
    return simulator_for(system).prepare(snapshot).game


class Recording:
    """A policy that remembers every action it chose."""

    def __init__(self, policy: Any) -> None:
        self.policy, self.name, self.chosen = policy, policy.name, []

    def choose(self, state: Any, rng: random.Random) -> Any:
        action = self.policy.choose(state, rng)
        self.chosen.append(action)
        return action


def test_the_search_policies_are_registered_and_aliased():
    for system in SAMPLES:
        simulator = simulator_for(system)
        assert simulator.policy_name("search") == f"{system}-search"
        assert f"{system}-search" in POLICIES


@pytest.mark.parametrize("system", list(SAMPLES))
def test_search_plays_to_a_legal_end_on_either_seat(system):
    game = mirrored_game(system)
    for index in range(2):
        rng = game_rng(20, index)
        search = get_policy(f"{system}-search", **SMALL)
        policies = [search, get_policy(GREEDY[system])] if index == 0 else [get_policy(GREEDY[system]), search]
        state = play_out(game.new_initial_state(rng), policies, rng, max_steps=20_000)  # apply checks every action
        assert state.is_terminal() and state.outcome() is not None
        assert search.decisions > 0


@pytest.mark.parametrize("system", list(SAMPLES))
def test_same_seed_same_games(system):
    game = mirrored_game(system)

    def play() -> tuple[list[Any], Any, int]:
        rng = game_rng(7, 0)
        search = Recording(get_policy(f"{system}-search", **SMALL))
        state = play_out(game.new_initial_state(rng), [search, search], rng, max_steps=20_000)
        return search.chosen, state.outcome(), len(state.events)

    assert play() == play()


# ---- hidden information: another state of the same information set gets the same choice -------------------------

def shuffle_hagmi(state: Any, player: int, rng: random.Random) -> None:
    """Another deal the decider cannot tell apart: the other player's unseen cards (hand, 秘策, fuel, decks)
    permuted among the places that hold a card of the same origin, and the decider's own decks reordered."""
    origin = hagmi_origins(state)
    for index, side in enumerate(state.players):
        if side.kind == "coop":
            continue
        if index == player:
            for name in ("weapons", "tactics", "damage_deck"):
                rng.shuffle(getattr(side, name))
            continue
        slots = [(getattr(side, name), i) for name in ("damage_deck", "tactics", "hand", "weapons", "secret")
                 for i in range(len(getattr(side, name)))]
        slots += [(unit.fuel, i) for unit in side.units for i in range(len(unit.fuel))]
        by_origin: dict[str, list[tuple[list[int], int]]] = {}
        for zone, i in slots:
            by_origin.setdefault(origin[zone[i]], []).append((zone, i))
        for places in by_origin.values():
            uids = [zone[i] for zone, i in places]
            rng.shuffle(uids)
            for (zone, i), uid in zip(places, uids):
                zone[i] = uid


def shuffle_warcaster(state: Any, player: int, rng: random.Random) -> None:
    for index, side in enumerate(state.sides):
        if index == player:
            rng.shuffle(side.deck)
            continue
        pool = side.hand + side.deck
        rng.shuffle(pool)
        side.hand, side.deck = pool[: len(side.hand)], pool[len(side.hand):]


SHUFFLE = {"hagmi": shuffle_hagmi, "mwda": lambda state, player, rng: None, "warcaster": shuffle_warcaster}


def hidden_view(system: str, state: Any) -> Any:
    """What the shuffle may change: the other side's hidden zones (to see that the test is not vacuous)."""
    other = 1 - state.current_player()
    if system == "hagmi":
        side = state.players[other]
        return (list(side.hand), list(side.weapons), list(side.tactics), list(side.secret))
    if system == "warcaster":
        return [c.code for c in state.sides[other].hand]
    return None


class Checking:
    """The search policy, asked each decision on the real state and on a shuffled copy with another rng, with
    the same seed: both choices must be the same."""

    def __init__(self, system: str) -> None:
        self.system = system
        # horizon 2: the rollouts play the other side's turn too, where its hand and draws matter
        self.policy = get_policy(f"{system}-search", **{**SMALL, "horizon": 2})
        self.name, self.checked, self.changed = self.policy.name, 0, 0
        self.shuffler = random.Random(99)

    def choose(self, state: Any, rng: random.Random) -> Any:
        if len(state.legal_actions()) < 2:
            return self.policy.choose(state, rng)
        seed = rng.getrandbits(64)
        other = state.clone()
        other.rng = random.Random(self.shuffler.getrandbits(64))  # other future dice
        SHUFFLE[self.system](other, state.current_player(), self.shuffler)
        self.changed += hidden_view(self.system, other) != hidden_view(self.system, state)
        before = state.rng.getstate()
        action = self.policy.choose(state, random.Random(seed))
        assert state.rng.getstate() == before  # the search never draws from the state's dice
        assert self.policy.choose(other, random.Random(seed)) == action, f"turn {state.turn}"
        self.checked += 1
        return action


@pytest.mark.parametrize("system", list(SAMPLES))
def test_the_search_never_looks_at_hidden_information(system):
    game = mirrored_game(system)
    rng = game_rng(11, 0)
    checking = Checking(system)
    policies = [checking, get_policy(GREEDY[system])]
    state = play_out(game.new_initial_state(rng), policies, rng, max_steps=20_000)
    assert state.is_terminal()
    assert checking.checked >= 5
    if system != "mwda":  # MWDA hides nothing but the dice
        assert checking.changed >= checking.checked // 2  # the shuffles did change what the decider cannot see


# ---- the simulate command ----------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_simulate_command_with_policy_search():
    from django.core.management import call_command

    from tests.support.bundled_catalog import load_bundled_catalog

    load_bundled_catalog()
    out = StringIO()
    path = ROOT / "cards/packages/hagmi/lists/akane-assault.json"
    call_command("simulate", str(path), "--opponent", "sample-fortress", "--games", "4", "--seed", "3",
                 "--policy", "search", "--json", stdout=out)
    result = json.loads(out.getvalue())
    assert result["games"] == 4 and result["policy"] == "search"
    assert result["wins"] + result["losses"] + result["draws"] == 4
