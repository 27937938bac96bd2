"""HAGMI! legal actions: what a player may do at each decision (RULES.md §1.3 main and battle phases, H10 the
emergency window, H20 秘策 plays, H21–H24 refit / design / 秘匿機構 choices), as the records of actions.py.

`HagmiState.legal_actions` (game.py) asks `main_actions`, `attack_actions`, `emergency_actions` (H10: emergency
orders and the 緊急 skills of cards on the battlefield) or combat.py's `defense_options` by decision. The lists
have a fixed order; payments are listed without duplicates (cards of the same code are interchangeable), at most
`max_payment_options` per card, cheapest first; a card's targets and a multi-N attack's target sets are cut at
`max_target_options`.
"""
from __future__ import annotations

from itertools import chain, combinations, islice
from typing import TYPE_CHECKING, Any, Iterable

from rules_engine.hagmi import actions as actions_of
from rules_engine.hagmi.actions import BATTLE, Action
from rules_engine.hagmi.beasts import mothership_targetable
from rules_engine.hagmi.refit import design_materials, equip_ok, hidden_ready, skill_choices
from rules_engine.hagmi.skills import CHOSEN_TARGETS, Ctx, condition_holds, once_key, window_key
from rules_engine.hagmi.state import ENTERED, Unit

if TYPE_CHECKING:
    from rules_engine.hagmi.state import Table


def payment_order(state: Table, player: int) -> list[int]:
    """The hand cheapest first (ties: code, then uid), the order payments are listed in."""
    cards = state.cards
    return sorted(state.players[player].hand, key=lambda uid: (cards[uid].cost, cards[uid].code, uid))


def payments(state: Table, player: int, exclude: int, cost: int,
              ordered: list[int] | None = None) -> list[tuple[int, ...]]:
    """Up to `max_payment_options` ways to pay `cost` with hand cards other than `exclude`, no two with the
    same codes. `ordered`: `payment_order(state, player)` when the caller already has it (one sort per listing)."""
    if cost == 0:
        return [()]
    if ordered is None:
        ordered = payment_order(state, player)
    code = {uid: state.cards[uid].code for uid in ordered if uid != exclude}
    limit = int(state.options["max_payment_options"])
    seen: set[tuple[str, ...]] = set()
    found: list[tuple[int, ...]] = []
    for combo in combinations(code, cost):  # dicts keep `ordered`'s order
        key = tuple(map(code.__getitem__, combo))
        if key not in seen:
            seen.add(key)
            found.append(combo)
            if len(found) >= limit:
                break
    return found


def playable_cards(state: Table, player: int, emergency: bool) -> list[int]:
    """One card per code: from hand (not 秘策-only cards, H20) and 秘策 cards usable from 秘策."""
    me, all_cards = state.players[player], state.cards
    seen: set[str] = set()
    cards = []
    window = "emergency" if emergency else "main"
    for zone, from_secret in ((me.hand, False), (me.secret, True)):
        for uid in zone:
            card = all_cards[uid]
            if card.play_window == window and card.usable_from_secret == from_secret and card.code not in seen:
                seen.add(card.code)
                cards.append(uid)
    return cards


def targets_for(state: Table, player: int, uid: int, trigger: str) -> list[Any] | None:
    """The choices a card's first targeted skill offers; None when it cannot be played now."""
    card = state.cards[uid]
    if card.category == "unit":
        direct = direct_refit(card) if uid in state.players[player].secret else None
        if direct is not None:  # H22: a 秘策 card that refits a battlefield card directly
            return skill_choices(state, player, uid, direct) or None
        return [None]
    if card.category == "armament":
        return [u.uid for u in state.players[player].units if equip_ok(card, state.cards[u.uid])] or None
    skills = card.skills_for(trigger)
    if not skills:
        return [None] if card.subtype == "facility" and trigger == "on_play" else None
    return skill_targets(state, player, uid, skills)


def skill_targets(state: Table, player: int, uid: int, skills: tuple) -> list[Any] | None:
    for skill in skills:
        if skill.kind == "refit":
            return skill_choices(state, player, uid, skill) or None  # H22
        if skill.kind == "produce":
            zones = tuple(skill.get("from", ("hand",)))
            return produce_choices(state, player, uid, zones, skill) or None
        target = skill.get("target")
        if target in CHOSEN_TARGETS:
            units = state.units_of(player if target == "friendly_unit" else state.opponent_of(player))
            valid = [u.uid for u in units if valid_target(state, u, skill)]
            return valid or None
    return [None]


def valid_target(state: Table, unit: Unit, skill: Any) -> bool:
    if skill.kind == "refuel":
        return len(unit.fuel) < state.cards[unit.uid].cost
    if skill.kind in ("destroy", "dismantle"):
        return (state.cards[unit.uid].cost <= skill.get("max_cost", 99)
                and state.armor_left(unit) <= skill.get("max_armor", 99))
    return True


def produce_choices(state: Table, player: int, uid: int, zones: tuple[str, ...], skill: Any) -> list[int]:
    me = state.players[player]
    seen: set[str] = set()
    choices = []
    for zone in zones:
        for unit_uid in getattr(me, zone):
            card = state.cards[unit_uid]
            if card.category != "unit" or card.cost > skill.get("max_cost", 99) or card.code in seen:
                continue
            played = uid in me.hand or uid in me.secret  # a card played (it costs), or a skill on the battlefield
            spare = (len(me.hand) - (1 if uid in me.hand else 0) - (state.cards[uid].cost if played else 0)
                     - (1 if zone == "hand" else 0))
            if not skill.get("pay_cost", True) or spare >= card.cost:
                seen.add(card.code)
                choices.append(unit_uid)
    return choices


def card_plays(state: Table, player: int, emergency: bool) -> list[Action]:
    actions: list[Action] = []
    trigger = "emergency" if emergency else "on_play"
    ordered = None  # the hand in payment order, sorted once for all the cards listed
    max_targets = int(state.options["max_target_options"])
    for uid in playable_cards(state, player, emergency):
        card = state.cards[uid]
        if card.category == "tactic" and not emergency and card.subtype != "facility" and not card.skills_for("on_play"):
            continue
        targets = targets_for(state, player, uid, trigger)
        if targets is None:
            continue
        cost = card.cost
        if card.category == "unit" and targets != [None] and state.options["direct_refit_cost"] == "free":
            cost = 0  # H22: a 秘策 card refitting directly, with option direct_refit_cost = free
        if ordered is None and cost:
            ordered = payment_order(state, player)
        ways = payments(state, player, uid, cost, ordered)
        if targets == [None] and max_targets > 0:  # the common case: no target to check against the payment
            actions.extend(actions_of.play(uid, payment, None) for payment in ways)
            continue
        for payment in ways:
            for target in targets[:max_targets]:
                chosen_card = target[1] if isinstance(target, tuple) else target
                if chosen_card not in payment:  # a refit / produce card cannot also pay the cost
                    actions.append(actions_of.play(uid, payment, target))
    return actions


def emergency_actions(state: Table, player: int) -> list[Action]:
    """H10: what the attacked player may use in an emergency window (緊急): 緊急 orders from hand (or 秘策, H20),
    then the 緊急 skills of their cards on the battlefield."""
    return card_plays(state, player, emergency=True) + emergency_skill_uses(state, player)


def emergency_skill_uses(state: Table, player: int) -> list[Action]:
    """H10: the 緊急 skills of the player's units (not ダウン) and their armaments, and of their facilities: each
    once per window (skills.py `use_emergency_skill`), `once_per_turn` as the card says (and every one with the
    option `emergency_skill_limit` = `turn`), when its condition holds and it has a target."""
    me = state.players[player]
    sources: list[int] = []
    for unit in me.units:
        if not unit.down:
            sources.append(unit.uid)
            sources.extend(unit.armaments)
    sources.extend(me.facilities)
    actions: list[Action] = []
    per_turn = state.options["emergency_skill_limit"] == "turn"
    cut = int(state.options["max_target_options"])
    for uid in sources:
        for index, skill in state.cards[uid].emergency_skills:
            if window_key(uid, index) in me.used:
                continue
            if skill.once_per_turn or per_turn:
                used, key = once_key(state, player, uid, skill)
                if key in used:
                    continue
            if not condition_holds(state, Ctx(state, player, source=uid), skill):
                continue
            for target in (skill_targets(state, player, uid, (skill,)) or [])[:cut]:
                actions.append(actions_of.use_skill(uid, index, target))
    return actions


def direct_refit(card: Any) -> Any:
    """H22: the card's refit skill `into: self` (a 秘策 card that refits a battlefield card directly), or None."""
    for skill in card.skills_for("on_play"):
        if skill.kind == "refit" and skill.get("into") == "self":
            return skill
    return None


def main_actions(state: Table, player: int) -> list[Action]:
    actions = card_plays(state, player, emergency=False)
    me = state.players[player]
    seen_designs: set[str] = set()
    for uid in me.secret:
        card = state.cards[uid]
        if card.category == "design" and card.code not in seen_designs:
            seen_designs.add(card.code)
            actions += [actions_of.produce_design(uid, materials) for materials in design_materials(state, player, uid)]
    for source, skill_index, skill, used in main_skills(state, player):
        if skill.once_per_turn and used:
            continue
        for target in skill_targets(state, player, source, (skill,)) or []:
            actions.append(actions_of.use_skill(source, skill_index, target))
    for unit in me.units:
        hidden = state.cards[unit.uid].skills_for("hidden_mechanism")
        if hidden and hidden_ready(state, unit):
            for target in skill_targets(state, player, unit.uid, hidden) or []:
                actions.append(actions_of.use_hidden(unit.uid, target))
    actions.append(BATTLE)
    return actions


def main_skills(state: Table, player: int) -> Iterable[tuple[int, int, Any, bool]]:
    me = state.players[player]
    for unit in me.units:
        if not unit.down:
            for i, skill in state.cards[unit.uid].main_skills:
                yield unit.uid, i, skill, f"main{i}" in unit.used
    for uid in me.facilities:
        for i, skill in state.cards[uid].main_skills:
            yield uid, i, skill, f"{uid}:main{i}" in me.used


def attack_actions(state: Table, player: int) -> list[Action]:
    """RULES §1.3 battle phase: each unit attacks once, paying 燃費; targets by 攻撃範囲 (the opponent's units and
    the opponent; in 機獣討滅戦線 the 機獣 and the mothership, H34); with the option attack_on_entry = false, not in
    the turn it entered (zones.py `enter_unit` marks it)."""
    them = state.opponent_of(player)
    candidates: list[Any] = [u.uid for u in state.units_of(them)]
    if state.is_player_side(them):
        candidates.append(("player", them))
    elif mothership_targetable(state, them):  # H34: in 機獣討滅戦線 the players attack the mothership too
        candidates.append(("mothership", them))
    actions: list[Action] = []
    cut = int(state.options["max_target_options"])
    for unit in state.players[player].units:
        card = state.cards[unit.uid]
        if unit.attacked or unit.down or len(unit.fuel) < card.fuel_cost or not candidates or ENTERED in unit.used:
            continue
        limit = card.max_targets
        if limit is None:
            actions.append(actions_of.attack(unit.uid, tuple(candidates)))
            continue
        # target sets by size, then in order, cut at max_target_options: only the first `cut` are generated
        sizes = range(1, min(limit, len(candidates)) + 1)
        sets = chain.from_iterable(combinations(candidates, size) for size in sizes)
        options = list(islice(sets, cut)) if cut >= 0 else list(sets)[:cut]
        actions += [actions_of.attack(unit.uid, targets) for targets in options]
    return actions
