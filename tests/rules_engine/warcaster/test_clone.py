"""`clone` of a Warcaster state copies it without sharing anything that changes (hand-written, because the
compiled classes of rules_engine/compiled.py cannot be deep-copied). The compiled engine's own tests are in
tests/rules_engine/test_compiled.py."""
from __future__ import annotations

from rules_engine.warcaster.state import invariant_problems

import random

from rules_engine.core.game import apply_checked
from rules_engine.core.policies import get_policy
from rules_engine.core.rng import game_rng
from rules_engine.warcaster.game import WarcasterGame
from tests.rules_engine.warcaster import CARDS, LISTS, OPPONENTS


def test_clone_is_independent_and_plays_on_identically():
    """`clone` (a hand-written copy: compiled classes cannot be deep-copied) keeps the table, hands, decks, log
    and random state: the original and its clone, given the same choices, write the same log; playing the clone
    leaves the original untouched."""
    game = WarcasterGame(LISTS["isa-starsteel-vanguard"], CARDS, OPPONENTS["marcher-frontier-posse"])
    state = game.new_initial_state(game_rng(5, 0))
    policy = get_policy("random")
    chooser = random.Random(3)
    for _ in range(60):  # into the first turns: units deployed, arc moved, cyphers played
        apply_checked(state, policy.choose(state, chooser))
    before = [e.to_dict() for e in state.events]
    twin = state.clone()
    assert twin.legal_actions() == state.legal_actions() and invariant_problems(twin) == []
    one, two = random.Random(9), random.Random(9)
    while not twin.is_terminal():
        apply_checked(twin, policy.choose(twin, two))
    assert [e.to_dict() for e in state.events] == before  # the original did not move
    while not state.is_terminal():
        apply_checked(state, policy.choose(state, one))
    assert state.events.to_list() == twin.events.to_list()
    assert state.returns() == twin.returns()
