"""HAGMI! search policy `hagmi-search`: rules_engine/core/search.py's flat Monte Carlo with this game's hooks.

What the deciding player does not see, and how a determinization re-deals it (docs/simulations.md "Search policy"):

- the other player's hand, 秘策 (H20: only each card's deck kind is seen), the face-down fuel (燃料) under their
  units, and the order of their 兵器, 作戦 and ダメージ decks;
- the order of the decider's own three decks (their contents are known: the list minus what the decider holds or
  has seen);
- the order of the 機獣 deck (co-op);
- the dice of the future (兵站, 先攻) and every later shuffle: the state's rng, replaced by a fresh one.

Every physical card's origin (兵器, 作戦, ダメージ or 秘策 section of its list) is public: the backs show the deck,
and a 秘策 card taken to hand is seen going there. So the other player's unseen cards are pooled by origin, each
pool sorted by uid (the canonical order: the pool is the list's cards of that origin minus the ones seen, a
function of the information set), shuffled with the policy's rng and dealt back into the same slots (the hand,
秘策, fuel and deck positions that held a card of that origin). The list of the other side is taken as known
(as in play with open lists).
"""
from __future__ import annotations

import random
from typing import Any

from rules_engine.core.policies import register_policy
from rules_engine.core.search import SearchPolicy, fresh_rng
from rules_engine.hagmi import policies as greedy_rules
from rules_engine.hagmi.policies import GreedyPolicy

ZONES = ("hand", "secret", "weapons", "tactics", "damage_deck")
SECTIONS = ("weapons", "tactics", "damage_deck", "secret")  # the order HagmiState gives uids at set-up


def origins(state: Any) -> list[str]:
    """uid → the section of its list the card came from (HagmiState._setup_side hands out uids in this order)."""
    found: list[str] = []
    for side in state.game.sides:
        if side["kind"] == "coop":
            found += ["beast"] * len(side["beast_deck"])
            continue
        for section in SECTIONS:
            found += [section] * len(side.get(section, ()))
    found += ["made"] * (len(state.cards) - len(found))  # cards made later (scenarios): their own pool
    return found


def hidden_slots(player: Any) -> list[tuple[list[int], int]]:
    """Every place of `player`'s that its opponent cannot see into: (zone list, index)."""
    slots: list[tuple[list[int], int]] = []
    for name in ZONES:
        zone = getattr(player, name)
        slots += [(zone, i) for i in range(len(zone))]
    for unit in player.units:
        slots += [(unit.fuel, i) for i in range(len(unit.fuel))]
    return slots


def redeal_hidden(state: Any, owner: int, rng: random.Random) -> None:
    """Re-deal `owner`'s unseen cards (hand, 秘策, fuel, decks) in place, by origin, in canonical order."""
    origin = origins(state)
    slots = hidden_slots(state.players[owner])
    pools: dict[str, list[int]] = {}
    for zone, index in slots:
        pools.setdefault(origin[zone[index]], []).append(zone[index])
    for name in sorted(pools):
        pool = sorted(pools[name])
        rng.shuffle(pool)
        pools[name] = pool
    for zone, index in slots:
        zone[index] = pools[origin[zone[index]]].pop()


def shuffle_own_decks(state: Any, owner: int, rng: random.Random) -> None:
    player = state.players[owner]
    for name in ("weapons", "tactics", "damage_deck"):
        deck = sorted(getattr(player, name))
        rng.shuffle(deck)
        setattr(player, name, deck)


class HagmiHooks:
    def greedy(self) -> GreedyPolicy:
        return GreedyPolicy()

    def __init__(self) -> None:
        self._greedy = GreedyPolicy()

    def rank(self, state: Any, actions: list[Any]) -> list[float]:
        decision = state.decision
        kind = decision[0]
        attack = greedy_rules._attack_facts(state) if kind == "defend" else None
        return [self._greedy._score(state, kind, action, attack) for action in actions]

    def determinize(self, state: Any, player: int, rng: random.Random) -> Any:
        world = state.clone()
        world.rng = fresh_rng(rng)
        for index, side in enumerate(world.players):
            if side.kind == "coop":
                continue
            if index == player:
                shuffle_own_decks(world, index, rng)
            else:
                redeal_hidden(world, index, rng)
        if world.beasts is not None:
            deck = sorted(world.beasts.deck)
            rng.shuffle(deck)
            world.beasts.deck = deck
        return world

    def evaluate(self, state: Any, player: int) -> float:
        """Life (ダメージデッキ cards left: H9) and board (units' cost and armor left) of both sides, squashed."""
        other = 1 - player
        return squash(self._side_value(state, player) - self._side_value(state, other))

    def _side_value(self, state: Any, index: int) -> float:
        value = 0.0
        if state.is_player_side(index):
            me = state.players[index]
            value += 3.0 * len(me.damage_deck) + 0.3 * len(me.hand)
        else:
            value += 6.0 * state.beasts.cores
        for unit in state.units_of(index):
            card = state.cards[unit.uid]
            value += 1.0 + 0.5 * card.cost + 0.3 * state.armor_left(unit) + 0.2 * len(unit.fuel)
        return value

    def turn_count(self, state: Any) -> int:
        return state.turn


def squash(x: float, scale: float = 12.0) -> float:
    """x / (|x| + scale): a score difference into (-1, 1)."""
    return x / (abs(x) + scale)


class HagmiSearchPolicy(SearchPolicy):
    """`hagmi-search`: 4 greedy-ranked candidates × 8 determinizations, each rolled out by greedy to the end of the
    game (a horizon of 60 turns: the rules' own `max_turns`; games last about 8); searched only at decisions with
    ≥ 2 legal actions."""

    name = "hagmi-search"
    hooks = HagmiHooks()
    candidates = 4
    rollouts = 8
    horizon = 60


register_policy("hagmi-search")(HagmiSearchPolicy)
