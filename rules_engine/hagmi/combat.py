"""HAGMI! battle: declaring attacks, counter (反撃) and intercept (守護), damage order, multi-attack (RULES.md
§1.3 battle phase, §1.4 H10–H13).

The 機獣 side defends by the rules, never by choice (`beast_defence`, H32, option `beasts_defend`).

A combat is data (`Combat`) so that a game can stop for a decision (the defender's choice, an emergency window
緊急 between two hits of a multi-attack) and be cloned. Its `schedule` is a list of *exchanges*; each exchange
is a list of *steps*; each step is the set of sides ("A" attacker, "D" defender) that hit simultaneously.
`build_schedule` encodes H11's four cases; the emergency window opens before the first exchange and between
two exchanges (H10). Also here: 照明弾 ending the battle phase (`end_battle_phase`, H10) and an armament's wear
when its on_defend skill is used (`wear_armament`). Damage itself is damage.py's.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from rules_engine.hagmi import damage
from rules_engine.hagmi.actions import COUNTER, NO_DEFEND, Action, Intercept, intercept
from rules_engine.hagmi.skills import Ctx, condition_holds, resolve_all
from rules_engine.hagmi.state import Unit

if TYPE_CHECKING:
    from rules_engine.hagmi.game import HagmiState
    from rules_engine.hagmi.state import Table

ATTACKER, DEFENDER, SIMULTANEOUS = "A", "D", "="


@dataclass(slots=True)
class Combat:
    attacker: int  # attacking unit uid
    side: int  # its controller
    targets: list[Any]  # targets still to fight: unit uids, ("player", index) or ("mothership", index) (H34)
    target: Any = None  # the current (original) target
    defender: int | None = None  # the unit that counters or intercepts
    intercepted: bool = False
    schedule: list[list[list[str]]] = field(default_factory=list)
    exchange: int = 0

    def copy(self) -> Combat:
        """An independent copy (HagmiState.clone); targets are uids or ("player", index) tuples."""
        return Combat(attacker=self.attacker, side=self.side, targets=list(self.targets), target=self.target,
                      defender=self.defender, intercepted=self.intercepted,
                      schedule=[[list(step) for step in exchange] for exchange in self.schedule],
                      exchange=self.exchange)


def first_to_hit(state: "HagmiState", attacker: Unit, defender: Unit) -> str:
    """先制攻撃 first, then the longer 射程; equal → simultaneous."""
    fa, fd = state.has_flag(attacker, "first_strike"), state.has_flag(defender, "first_strike")
    if fa != fd:
        return ATTACKER if fa else DEFENDER
    ra, rd = state.cards[attacker.uid].range, state.cards[defender.uid].range
    if ra != rd:
        return ATTACKER if ra > rd else DEFENDER
    return SIMULTANEOUS


def build_schedule(attacker_hits: int, defender_hits: int, first: str) -> list[list[list[str]]]:
    """H11: the exchanges of one combat.

    - no defender: the attacker's hits alone, one per exchange;
    - simultaneous (same range): hit for hit; the side with more hits continues alone;
    - one side first (longer range / first strike): its hits but the last alone, then the normal exchange
      (its last hit, then the other side's first), then the other side's remaining hits alone.
    """
    if defender_hits == 0:
        return [[[ATTACKER]] for _ in range(attacker_hits)]
    if first == SIMULTANEOUS:
        return [[[side for side, n in ((ATTACKER, attacker_hits), (DEFENDER, defender_hits)) if i < n]]
                for i in range(max(attacker_hits, defender_hits))]
    lead, lag = (ATTACKER, DEFENDER) if first == ATTACKER else (DEFENDER, ATTACKER)
    n_lead, n_lag = (attacker_hits, defender_hits) if first == ATTACKER else (defender_hits, attacker_hits)
    return ([[[lead]] for _ in range(n_lead - 1)] + [[[lead], [lag]]] + [[[lag]] for _ in range(n_lag - 1)])


def pay_fuel(state: "HagmiState", unit: Unit) -> bool:
    """Pay 燃費 from the unit's fuel (newest first) to the discard; False if it cannot."""
    cost = state.cards[unit.uid].fuel_cost
    if len(unit.fuel) < cost or unit.down:
        return False
    for _ in range(cost):
        state.owner_discard(unit.owner).append(unit.fuel.pop())
    return True


def can_defend(state: "HagmiState", unit: Unit) -> bool:
    return not unit.down and len(unit.fuel) >= state.cards[unit.uid].fuel_cost and state.is_player_side(unit.owner)


def declare_attack(state: "HagmiState", uid: int, targets: tuple[Any, ...]) -> None:
    unit = state.find_unit(uid)
    assert unit is not None
    if state.is_player_side(unit.owner):
        pay_fuel(state, unit)
    unit.attacked = True
    state.log("attack", unit.owner, {"unit": state.cards[uid].code, "uid": uid,
                                     "targets": [_label(state, t) for t in targets]})
    state.combat = Combat(attacker=uid, side=unit.owner, targets=list(targets))
    first = targets[0] if targets else None
    resolve_all(Ctx(state, unit.owner, source=uid, target=first), state.cards[uid].skills_for("on_attack"))
    next_target(state)


def _label(state: "HagmiState", target: Any) -> Any:
    return list(target) if isinstance(target, tuple) else state.cards[target].code


def _alive(state: "HagmiState", target: Any) -> bool:
    if isinstance(target, tuple):
        if target[0] == "mothership":  # H34: a mothership with no core left is no longer a target
            return not state.over and state.beasts is not None and state.beasts.cores > 0
        return not state.over
    return state.find_unit(target) is not None


def attacker_able(state: "HagmiState", combat: Combat) -> bool:
    unit = state.find_unit(combat.attacker)
    return unit is not None and not unit.down


def defense_options(state: "HagmiState") -> list[Action]:
    """The defender's choices for the current target: counter, intercept with another unit, or nothing."""
    combat = state.combat
    assert combat is not None
    side = state.opponent_of(combat.side)
    target_unit = state.find_unit(combat.target) if isinstance(combat.target, int) else None
    if not state.decides(side):
        return [beast_defence(state, side, target_unit)]  # the goldfish and the 機獣 side never choose
    options: list[Action] = []
    if target_unit is not None and can_defend(state, target_unit):
        options.append(COUNTER)
    for unit in state.units_of(side):
        if unit is not target_unit and can_defend(state, unit):
            options.append(intercept(unit.uid))
    options.append(NO_DEFEND)
    return options


def beast_defence(state: "HagmiState", side: int, target: Unit | None) -> Action:
    """H32: most 機獣 never defend. Option beasts_defend = "never" [interpretation]: none does; "card": a 機獣
    whose card has a static `defend` skill does (反撃 with `how` counter or both, 守護 with intercept or both),
    unless down (ダウン: no skills), paying nothing. The 機獣 side never chooses, so it is automatic: the attacked
    機獣 counters if it can, otherwise the first that can intercept does (action order, then earliest entered)."""
    beasts = state.beasts
    if beasts is None or side != beasts.index or state.options["beasts_defend"] != "card":
        return NO_DEFEND
    if target is not None and _beast_defends(state, target, "counter"):
        return COUNTER
    for unit in sorted(beasts.beasts, key=lambda u: (state.cards[u.uid].action_order, u.presence)):
        if unit is not target and _beast_defends(state, unit, "intercept"):
            return intercept(unit.uid)
    return NO_DEFEND


def _beast_defends(state: "HagmiState", unit: Unit, how: str) -> bool:
    if unit.down:
        return False
    ctx = Ctx(state, unit.owner, source=unit.uid)
    return any(skill.kind == "defend" and skill.get("how", "both") in (how, "both") and condition_holds(state, ctx, skill)
               for skill in state.cards[unit.uid].static_self)


def next_target(state: "HagmiState") -> None:
    """Start the combat against the next living target, or end the attack."""
    combat = state.combat
    assert combat is not None
    while combat.targets and not state.over and not state.battle_closed and attacker_able(state, combat):
        target = combat.targets.pop(0)
        if not _alive(state, target):
            continue
        combat.target, combat.defender, combat.intercepted, combat.exchange = target, None, False, 0
        options = defense_options(state)
        if len(options) == 1:
            apply_defense(state, options[0])
        else:
            state.decision = ("defend", state.opponent_of(combat.side))
            state._legal = options  # the legal actions of this decision, listed once
        return
    end_combat(state)


def apply_defense(state: "HagmiState", choice: Action) -> None:
    combat = state.combat
    assert combat is not None
    defender: Unit | None = None
    how = choice.kind
    if how == "counter":
        defender = state.find_unit(combat.target)
    elif how == "intercept":
        defender = state.find_unit(cast(Intercept, choice).unit)
        combat.intercepted = True
    attacker = state.find_unit(combat.attacker)
    assert attacker is not None
    if defender is not None:
        pay_fuel(state, defender)
        combat.defender = defender.uid
        state.log("defend", defender.owner, {"how": how, "unit": state.cards[defender.uid].code})
        _on_defend(state, defender, attacker)
    defender = state.find_unit(combat.defender)
    attacker = state.find_unit(combat.attacker)
    if attacker is None:
        finish_target(state)
        return
    a_hits = state.cards[attacker.uid].hits
    d_hits = state.cards[defender.uid].hits if defender is not None else 0
    first = first_to_hit(state, attacker, defender) if defender is not None else ATTACKER
    combat.schedule = build_schedule(a_hits, d_hits, first)
    state.open_window_or_exchange()


def _on_defend(state: "HagmiState", defender: Unit, attacker: Unit) -> None:
    """防御時 skills of the defending unit and its armaments (an armament loses 1 耐久 per use)."""
    ctx = Ctx(state, defender.owner, source=defender.uid, attacker=attacker.uid, chosen=defender.uid)
    if not defender.down:
        resolve_all(ctx, state.cards[defender.uid].skills_for("on_defend"))
    for armament in list(defender.armaments):
        skills = state.cards[armament].skills_for("on_defend")
        if not skills or state.find_unit(defender.uid) is not defender:
            continue
        resolve_all(Ctx(state, defender.owner, source=armament, attacker=attacker.uid), skills)
        wear_armament(state, defender, armament)


def _victim(state: "HagmiState", combat: Combat) -> Any:
    if combat.defender is not None and combat.intercepted:
        return state.find_unit(combat.defender)
    if isinstance(combat.target, tuple):
        return combat.target
    return state.find_unit(combat.target)


def _hit(state: "HagmiState", combat: Combat, side: str, amount: int) -> None:
    attacker = state.find_unit(combat.attacker)
    if side == DEFENDER:
        if attacker is not None:
            damage.damage_unit(state, attacker, amount, unreducible=_unreducible(state, combat.defender),
                              by_player=state.opponent_of(combat.side))
        return
    victim = _victim(state, combat)
    unreducible = _unreducible(state, combat.attacker)
    if isinstance(victim, Unit):
        excess = damage.damage_unit(state, victim, amount, unreducible=unreducible, by_player=combat.side)
        if combat.intercepted and excess and attacker is not None and state.has_flag(attacker, "pierce"):
            state.log("pierce", combat.side, {"amount": excess})  # 貫通: the excess carries to the original target
            original = combat.target if isinstance(combat.target, tuple) else state.find_unit(combat.target)
            damage.deal_damage(state, original, excess, unreducible=unreducible, by_player=combat.side,
                              attacker=combat.attacker)
    elif victim is not None:
        damage.deal_damage(state, victim, amount, unreducible=unreducible, by_player=combat.side,
                           attacker=combat.attacker)


def _unreducible(state: "HagmiState", uid: int | None) -> bool:
    unit = state.find_unit(uid)
    return unit is not None and state.has_flag(unit, "unreducible")


def goes_on(state: "HagmiState", combat: Combat) -> bool:
    """Whether the current fight has hits left to resolve (H10)."""
    if state.over or state.battle_closed or not attacker_able(state, combat):
        return False  # H10: an attacker unable to attack, or 照明弾, voids the remaining hits
    victim = _victim(state, combat)
    if victim is None or (isinstance(victim, tuple) and not _alive(state, victim)):
        return False  # H10: the target is destroyed: the remaining hits are lost, never retargeted
    return combat.exchange < len(combat.schedule)


def close_window(state: "Table", combat: Combat) -> None:
    """The emergency window closes when the hits go on: its once-per-window notes go (H10, skills.py)."""
    used = state.players[state.opponent_of(combat.side)].used
    if used:
        for key in [key for key in used if key.startswith("window:")]:
            used.discard(key)


def replace_unit(combat: Combat, old: int, new: int) -> None:
    """H22: a unit refitted during a battle stays in it: the refit card takes its place [interpretation]."""
    if combat.attacker == old:
        combat.attacker = new
    if combat.target == old:
        combat.target = new
    if combat.defender == old:
        combat.defender = new
    combat.targets = [new if target == old else target for target in combat.targets]


def run_exchange(state: "HagmiState") -> None:
    """Resolve one exchange step by step; then the next emergency window, or the end of this target."""
    combat = state.combat
    assert combat is not None
    close_window(state, combat)
    if not goes_on(state, combat):
        finish_target(state)
        return
    for step in combat.schedule[combat.exchange]:
        hits = []
        for side in step:
            unit = state.find_unit(combat.attacker if side == ATTACKER else combat.defender)
            if unit is not None and not unit.down:  # destroyed before its turn: deals none
                hits.append((side, state.firepower(unit)))
        for side, amount in hits:  # simultaneous within a step
            _hit(state, combat, side, amount)
        if state.over:
            break
    combat.exchange += 1
    if goes_on(state, combat):
        state.open_window_or_exchange()
    else:
        finish_target(state)


def finish_target(state: "HagmiState") -> None:
    """End the fight against one target: this attack's reductions and modifiers expire."""
    for unit in state.all_units():
        unit.shields.clear()
        if unit.mods:
            unit.mods = [m for m in unit.mods if m[2] not in ("attack", "battle")]
    if state.combat is not None:
        next_target(state)


def end_combat(state: "HagmiState") -> None:
    state.combat = None
    state.after_combat()


def end_battle_phase(state: "Table") -> None:
    """照明弾: the battle phase ends now; the remaining hits of a multi-attack are void (H10)."""
    state.battle_closed = True  # 照明弾 (H10)
    state.log("end_battle_phase", None, {})


def wear_armament(state: "HagmiState", unit: Unit, armament: int) -> None:
    """An armament loses 1 耐久 each time its on_defend skill is used; at 0 it breaks and is discarded."""
    player = state.players[unit.owner]
    player.durability[armament] = player.durability.get(armament, 1) - 1
    if player.durability[armament] <= 0 and armament in unit.armaments:
        unit.armaments.remove(armament)
        del player.durability[armament]
        player.discard.append(armament)
        state.log("armament_broken", unit.owner, {"card": state.cards[armament].code})
