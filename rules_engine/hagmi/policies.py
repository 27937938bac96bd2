"""HAGMI! policies. `random` is the core's (rules_engine.core.policies.RandomPolicy); `hagmi-greedy` is a
one-ply heuristic: it develops units (the biggest it can pay for, paying with its cheapest cards), uses cards
that have a target, attacks when the exchange favours it, counters / intercepts when the defender survives or
takes the attacker with it, and spends emergency cards to save a unit that would be destroyed.

The 機獣 side and the goldfish never choose: the state plays them by the rules (beasts.py), so any policy can
be given for player 1 in those games.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, cast

from rules_engine.core.policies import register_policy
from rules_engine.hagmi.actions import Action, Attack, Intercept, Play, UseSkill
from rules_engine.hagmi.cards import Skill
from rules_engine.hagmi.state import Unit

if TYPE_CHECKING:  # game.py imports this module (to register the policy)
    from rules_engine.hagmi.game import HagmiState

_TACTIC_SCORES = {
    "refit": 70, "destroy": 60, "dismantle": 60, "deal_damage": 55, "draw": 30, "refuel": 40,
    "armor_mod": 25, "firepower_mod": 25, "search_secret": 25, "barrier": 35, "down": 30,
}


def _potential(state: HagmiState, unit: Unit) -> int:
    return state.firepower(unit) * state.cards[unit.uid].hits


def _attack_facts(state: HagmiState) -> tuple[Unit | None, int, int | None]:
    """The current attacker, its potential damage and its armor left (None, 0, None once it is gone)."""
    combat = state.combat
    assert combat is not None  # asked during a defence decision: a combat is in progress
    attacker = state.find_unit(combat.attacker)
    if attacker is None:
        return None, 0, None
    return attacker, _potential(state, attacker), state.armor_left(attacker)


class GreedyPolicy:
    name = "hagmi-greedy"

    def choose(self, state: HagmiState, rng: random.Random) -> Any:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]  # nothing to weigh (scoring never has side effects)
        decision = state.decision
        assert decision is not None  # a state with legal actions is waiting for a decision
        kind = decision[0]
        # The attacker is the same for every choice of a defence: looked at once.
        attack = _attack_facts(state) if kind == "defend" else None
        best, best_score = actions[0], self._score(state, kind, actions[0], attack)
        for action in actions[1:]:  # the first of the best-scoring actions
            score = self._score(state, kind, action, attack)
            if score > best_score:
                best, best_score = action, score
        return best

    def _score(self, state: HagmiState, kind: str, action: Action, attack: tuple | None) -> float:
        # A plain chain, not getattr(f"_score_{kind}") and a partial: native calls once compiled.
        if kind == "main":
            return self._score_main(state, action)
        if kind == "battle":
            return self._score_battle(state, action)
        if kind == "defend":
            return self._score_defend(state, action, attack)
        if kind == "emergency":
            return self._score_emergency(state, action)
        raise ValueError(f"hagmi-greedy: no scoring for decision {kind!r}")

    # main phase: develop first, then battle
    def _score_main(self, state: HagmiState, action: Action) -> float:
        kind = action.kind
        if kind == "battle":
            return 10
        if kind == "design":
            return 200
        if kind == "hidden":
            return 80
        if kind == "skill":
            return 40
        play = cast(Play, action)
        card = state.cards[play.card]
        paid = sum(state.cards[uid].cost for uid in play.payment)
        if card.category == "unit":
            return 100 + 10 * card.cost - paid
        if card.category == "armament":
            return 50 - paid
        if card.subtype == "facility":
            return 45 - paid
        skills = card.skills_for("on_play")
        score = max((_TACTIC_SCORES.get(s.kind, 15) for s in skills), default=0)
        return score - paid if score > 10 + paid else 0

    # battle phase: attacks that favour us
    def _score_battle(self, state: HagmiState, action: Action) -> float:
        if action.kind == "end":
            return 0
        attack = cast(Attack, action)
        attacker = state.find_unit(attack.unit)
        assert attacker is not None  # a legal attack's unit is on the battlefield
        power = _potential(state, attacker)
        score = 0.0
        for target in attack.targets:
            if isinstance(target, tuple):
                score += 20 + power
                continue
            enemy = state.find_unit(target)
            assert enemy is not None  # so are its target units
            kills = power >= state.armor_left(enemy)
            risk = _potential(state, enemy) >= state.armor_left(attacker) and len(enemy.fuel) >= state.cards[enemy.uid].fuel_cost
            score += 30 * kills - 25 * risk + power
        return score / len(attack.targets) if attack.targets else 0

    def _score_defend(self, state: HagmiState, action: Action, attack: tuple | None = None) -> float:
        """`attack`: `_attack_facts(state)`, the same for every choice of one decision (choose passes it)."""
        how = action.kind
        if how == "no_defend":
            return 0
        attacker, incoming, attacker_armor = attack or _attack_facts(state)
        combat = state.combat
        assert combat is not None  # a defence decision belongs to a combat
        defender = state.find_unit(combat.target if how == "counter" else cast(Intercept, action).unit)
        assert defender is not None  # counter and intercept are offered for units on the battlefield only
        kills = attacker is not None and _potential(state, defender) >= attacker_armor
        if how == "counter":
            return 50 + 10 * kills
        survives = state.armor_left(defender) > incoming
        return 30 * survives + 20 * kills - 15

    def _score_emergency(self, state: HagmiState, action: Action) -> float:
        """An emergency card, or a 緊急 skill of a card on the battlefield (it costs no card: a little more)."""
        if action.kind == "pass":
            return 0
        combat = state.combat
        assert combat is not None  # the emergency window (緊急) opens during a combat only
        if action.kind == "skill":
            use = cast(UseSkill, action)
            skills: tuple[Skill, ...] = (state.cards[use.card].skills[use.skill_index],)
            bonus = 5
            # the unit it helps: its chosen target, else the skill's own unit (or the one its armament equips)
            victim = state.find_unit(use.target) if isinstance(use.target, int) else state.find_unit(use.card)
            if victim is None:
                units = state.units_of(state.opponent_of(combat.side))
                victim = next((u for u in units if use.card in u.armaments), None)
        else:
            play = cast(Play, action)
            skills, bonus = state.cards[play.card].skills_for("emergency"), 0
            victim = state.find_unit(play.target) if isinstance(play.target, int) else None
        attacker = state.find_unit(combat.attacker)
        incoming = _potential(state, attacker) if attacker else 0
        threatened = (victim is not None and victim.uid in (combat.defender, combat.target)
                      and state.armor_left(victim) <= incoming)
        for skill in skills:
            if skill.kind in ("no_damage", "nullify_damage") and threatened:
                return 40 + bonus
            if skill.kind == "end_battle_phase" and isinstance(combat.target, tuple) and incoming >= 3:
                return 30 + bonus
            if skill.kind == "produce":
                return 20 + bonus
            if bonus and skill.kind in ("barrier", "reduce_damage", "armor_mod", "return_to_hand") and threatened:
                return 30 + bonus  # a free skill that may save the unit
        return -1


# Registered after the class (not with the decorator), so that mypyc compiles it as a native class.
register_policy("hagmi-greedy")(GreedyPolicy)
