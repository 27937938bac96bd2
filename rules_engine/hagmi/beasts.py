"""機獣討滅戦線 (co-op): the 機獣 side, run by the rules themselves (RULES.md §1.6, H30–H33).

The charge procedure (充填) follows H30 step by step:

1–3. `_reveal`: per point of charge, reveal the top 機獣 card; cost > chargers → it becomes a charger (充填機);
     cost < chargers → it is set aside as an appearing beast (登場機獣) and discards its energy consumption
     (消費エネルギー) in chargers, newest first; cost = chargers → option `equal_cost` ("appears" default, or
     "charger").
4–7. `_enter_appearing`: the set-aside beasts enter; each takes its life cores (ライフコア) from the mothership
     in action order (行動順序); their on_enter effects resolve in action order — a beast entering meanwhile is
     set aside, a charge meanwhile repeats 1–2 — then the newly set-aside beasts enter and 5–6 repeat.
8.   `check_attrition`: each 機獣核損耗能力 whose threshold is reached fires, larger thresholds first; a charge
     from one restarts the procedure at step 1.

H31: beasts summoned by an effect (`summon`) skip the cost check, use no chargers and take no life cores; their
on_enter effects still fire.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rules_engine.core import outcome
from rules_engine.hagmi.skills import Ctx, resolve_all
from rules_engine.hagmi.state import Unit

if TYPE_CHECKING:
    from rules_engine.hagmi.cards import HagmiCard
    from rules_engine.hagmi.state import Table


@dataclass
class BeastSide:
    index: int
    mothership: "HagmiCard"
    cores: int  # 機獣核 left on the mothership
    deck: list[int] = field(default_factory=list)  # 機獣デッキ, top = end
    chargers: list[int] = field(default_factory=list)  # 充填機, newest last
    beasts: list[Unit] = field(default_factory=list)  # 機獣 on the battlefield
    appearing: list[int] = field(default_factory=list)  # 登場機獣 set aside (H30 step 2, 6)
    no_cores: set[int] = field(default_factory=set)  # set-aside beasts entering by H31 (no life cores)
    discard: list[int] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    fired: set[int] = field(default_factory=set)  # attrition abilities already fired
    resolving: int = 0  # > 0 while step 6 runs: charges and summons only set beasts aside

    def copy(self) -> BeastSide:
        """An independent copy (HagmiState.clone); the mothership card is shared (it is immutable)."""
        return BeastSide(index=self.index, mothership=self.mothership, cores=self.cores, deck=list(self.deck),
                         chargers=list(self.chargers), beasts=[unit.copy() for unit in self.beasts],
                         appearing=list(self.appearing), no_cores=set(self.no_cores), discard=list(self.discard),
                         removed=list(self.removed), fired=set(self.fired), resolving=self.resolving)


def _side(state: "Table") -> BeastSide:
    assert state.beasts is not None
    return state.beasts


def _top_card(state: "Table", side: BeastSide) -> int | None:
    if not side.deck and side.discard and state.options.get("beast_deck_reshuffle", True):
        side.deck, side.discard = side.discard, []
        state.rng.shuffle(side.deck)
        state.log("beast_deck_reshuffled", side.index, {})
    return side.deck.pop() if side.deck else None


def _reveal(state: "Table", amount: int) -> None:
    """H30 steps 1–3: reveal `amount` cards; chargers grow, appearing beasts are set aside."""
    side = _side(state)
    for _ in range(amount):
        uid = _top_card(state, side)
        if uid is None:
            return
        card = state.cards[uid]
        chargers = len(side.chargers)
        appears = card.cost < chargers or (card.cost == chargers and state.options.get("equal_cost", "appears") == "appears")
        state.log("charge_reveal", side.index, {"card": card.code, "cost": card.cost, "chargers": chargers,
                                                "result": "appearing" if appears else "charger"})
        if not appears:
            side.chargers.append(uid)
            continue
        side.appearing.append(uid)
        for _ in range(min(card.energy, len(side.chargers))):  # 消費エネルギー: newest chargers first
            side.discard.append(side.chargers.pop())


def _enter_appearing(state: "Table") -> None:
    """H30 steps 4–7 for everything set aside, batch after batch."""
    side = _side(state)
    while side.appearing and not state.over:
        batch, side.appearing = side.appearing, []
        entered: list[Unit] = []
        for uid in batch:  # step 4
            state.presence_counter += 1
            unit = Unit(uid=uid, owner=side.index, presence=state.presence_counter)
            side.beasts.append(unit)
            entered.append(unit)
            state.log("beast_enter", side.index, {"card": state.cards[uid].code, "uid": uid})
        in_order = sorted(entered, key=lambda u: (state.cards[u.uid].action_order, entered.index(u)))
        for unit in in_order:  # step 5: life cores, in action order
            if unit.uid in side.no_cores:
                side.no_cores.discard(unit.uid)
                continue
            taken = min(state.cards[unit.uid].life_cores, side.cores)
            if taken:
                side.cores -= taken
                unit.cores += taken
                state.log("life_cores", side.index, {"card": state.cards[unit.uid].code, "cores": taken,
                                                     "left": side.cores})
        side.resolving += 1  # step 6: nested beasts are set aside, nested charges only reveal
        try:
            for unit in in_order:
                if state.find_unit(unit.uid) is unit:
                    resolve_all(Ctx(state, side.index, source=unit.uid), state.cards[unit.uid].skills_for("on_enter"))
        finally:
            side.resolving -= 1
        # step 7: the loop enters the newly set-aside beasts


def charge(state: "Table", amount: int) -> None:
    """充填:N — the whole H30 procedure, or only steps 1–2 when called from an on_enter effect (step 6)."""
    side = _side(state)
    state.log("charge", side.index, {"amount": amount})
    _reveal(state, amount)
    if side.resolving:
        return
    _enter_appearing(state)
    check_attrition(state)


def check_attrition(state: "Table") -> None:
    """H30 step 8: fire reached attrition abilities, larger thresholds first; a charge restarts at step 1."""
    side = _side(state)
    while not state.over:
        reached = [(a.at, i) for i, a in enumerate(side.mothership.attrition) if i not in side.fired and side.cores <= a.at]
        if not reached:
            break
        at, index = max(reached)
        side.fired.add(index)
        state.log("attrition", side.index, {"at": at, "cores": side.cores})
        resolve_all(Ctx(state, side.index), side.mothership.attrition[index].effects)
    check_victory(state)


def summon(state: "Table", count: int, source: str, max_cost: int | None) -> None:
    """H31: beasts put onto the battlefield by an effect — no cost check, no chargers, no life cores."""
    side = _side(state)
    pile = side.deck if source == "beast_deck" else side.discard
    for _ in range(count):
        pick = next((uid for uid in reversed(pile) if max_cost is None or state.cards[uid].cost <= max_cost), None)
        if pick is None:
            break
        pile.remove(pick)
        side.appearing.append(pick)
        side.no_cores.add(pick)
        state.log("summon_beast", side.index, {"card": state.cards[pick].code, "source": source})
    if not side.resolving:
        _enter_appearing(state)
        check_attrition(state)


def remove_beast(state: "Table", unit: Unit, *, dismantle: bool, destroyed_by: int | None) -> None:
    """A 機獣 leaves: its cores are destroyed with it; a bounty (賞金首) rewards its destroyer even when down
    (H32); dismantling (H12) removes it from the game without on_destroyed."""
    side = _side(state)
    side.beasts.remove(unit)
    card = state.cards[unit.uid]
    (side.removed if dismantle else side.discard).append(unit.uid)
    state.log("dismantled" if dismantle else "destroyed", side.index, {"card": card.code, "uid": unit.uid,
                                                                       "cores": unit.cores})
    unit.cores = 0
    if not dismantle:
        if card.bounty is not None and destroyed_by is not None and state.is_player_side(destroyed_by):
            resolve_all(Ctx(state, destroyed_by), (card.bounty,))
        if not unit.down:
            resolve_all(Ctx(state, side.index, source=unit.uid), card.skills_for("on_destroyed"))
    check_victory(state)


def damage_mothership(state: "Table", index: int, amount: int) -> None:
    """H34: the players attack the mothership (母艦) as they attack the opponent in a one-on-one game; each
    hit destroys one of its 機獣核 whatever its damage [interpretation, option `mothership_attack` = "hits"; "cores":
    one core per point of damage]. Its attrition abilities whose threshold is reached then fire (H30 step 8) and
    victory is checked (H33)."""
    side = _side(state)
    if index != side.index or amount <= 0 or state.over:
        return
    per_hit = state.options.get("mothership_attack", "hits") == "hits"
    destroyed = min(1 if per_hit else amount, side.cores)
    side.cores -= destroyed
    state.log("mothership_damage", side.index, {"amount": destroyed, "left": side.cores})
    check_attrition(state)


def mothership_targetable(state: "Table", index: int) -> bool:
    """H34: the mothership is an attack target while it holds a core (option `mothership_attack`)."""
    side = state.beasts
    return (side is not None and index == side.index and side.cores > 0
            and state.options.get("mothership_attack", "hits") != "never")


def check_victory(state: "Table") -> None:
    """H33: the players win when the mothership has no cores and no 機獣 on the battlefield holds one."""
    side = _side(state)
    if side.cores == 0 and not any(b.cores for b in side.beasts):
        state.finish(1 - side.index, outcome.CORES_DESTROYED)


def beast_turn_start(state: "Table") -> list[int]:
    """The 機獣 turn up to the attacks: standby (ダウン recovers, H32), on_turn_start, charge phase.
    Returns the attackers' uids in action order."""
    side = _side(state)
    for unit in side.beasts:
        unit.down = False
        unit.used.clear()
    for unit in sorted(side.beasts, key=lambda u: state.cards[u.uid].action_order):
        if state.find_unit(unit.uid) is unit and not unit.down:
            resolve_all(Ctx(state, side.index, source=unit.uid), state.cards[unit.uid].skills_for("on_turn_start"))
    if not state.over:
        charge(state, int(state.options.get("charge_per_turn", 1)))
    return [u.uid for u in sorted(side.beasts, key=lambda u: (state.cards[u.uid].action_order, u.presence))]


def beast_target(state: "Table") -> int:
    """H33: the player with the most damage cards left (ties: the earliest player)."""
    players = [p for p in range(2) if state.is_player_side(p)]
    return max(players, key=lambda p: (len(state.players[p].damage_deck), -p))
