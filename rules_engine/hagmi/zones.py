"""HAGMI! zones: cards moving between decks, hand, 秘策, discard and the battlefield (RULES.md §1.3 兵站 and the
main phase's plays, §1.5 H20 秘策, H12 解体 as removal, H23's fuel cap for 補給; 緊急生産).

Drawing (`draw_card`, the 兵站 draw step `logistics_draw`), playing a card (`play_card`), a unit entering
(`enter_unit`: its on_enter skills resolve) and leaving (`remove_unit`: destroyed or dismantled; a 機獣 leaves
by beasts.py `remove_beast`), back to hand, 補給 (`refuel`), 秘策 searches and 緊急生産 (`produce`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_engine.core.dice import roll
from rules_engine.hagmi import beasts
from rules_engine.hagmi.skills import Ctx, action_ctx, resolve_all
from rules_engine.hagmi.state import ENTERED, Unit

if TYPE_CHECKING:
    from rules_engine.hagmi.state import Table


# ---- drawing and playing -------------------------------------------------------------------------------------

def draw_card(state: Table, index: int, deck: str) -> int | None:
    """Draw from 兵器 ("weapons") or 作戦 ("tactics"); "choice" takes the fuller deck. Empty: nothing."""
    if not state.is_player_side(index):
        return None
    player = state.players[index]
    if deck == "choice":
        deck = "weapons" if len(player.weapons) >= len(player.tactics) else "tactics"
    pile = player.weapons if deck == "weapons" else player.tactics
    if not pile:
        return None
    uid = pile.pop()
    player.hand.append(uid)
    state.log("draw", index, {"deck": deck})
    return uid


def logistics_draw(state: Table, index: int) -> None:
    """兵站: 2 dice; 1–3 draws from 作戦, 4–6 from 兵器; doubles draw 1 more from that deck."""
    dice = roll(state.rng, 6, 2)
    state.log("logistics", index, {"dice": list(dice)})
    decks = ["weapons" if die >= 4 else "tactics" for die in dice]
    if dice[0] == dice[1]:
        decks.append(decks[0])
    for deck in decks:
        draw_card(state, index, deck)


def play_card(state: Table, player: int, uid: int, payment: tuple[int, ...], target: Any, trigger: str) -> None:
    """Play a card from hand or 秘策 (a Play action): a unit enters with the payment as its fuel; an armament is
    equipped on the target unit; a facility stays; an order resolves its `trigger` skills, then is discarded."""
    me = state.players[player]
    card = state.cards[uid]
    if card.category == "unit" and isinstance(target, tuple):  # H22: a 秘策 card refitting a battlefield card
        for paid in payment:  # its cost (option direct_refit_cost): the refit card takes over the source's fuel
            me.hand.remove(paid)
        me.discard.extend(payment)
        state.log("play", player, {"card": card.code, "paid": len(payment)})
        skills = card.skills_for(trigger)
        resolve_all(action_ctx(state, player, uid, target, skills), skills)  # refit.py moves it from 秘策
        return
    zone = me.hand if uid in me.hand else me.secret
    zone.remove(uid)
    for paid in payment:
        me.hand.remove(paid)
    state.log("play", player, {"card": card.code, "paid": len(payment)})
    if card.category == "unit":
        enter_unit(state, player, uid, list(payment))  # the paid cards become its fuel (燃料)
        return
    me.discard.extend(payment)
    if card.category == "armament":
        unit = state.find_unit(target)
        assert unit is not None
        unit.armaments.append(uid)
        me.durability[uid] = card.durability
        resolve_all(Ctx(state, player, source=uid), card.skills_for("on_enter"))
        return
    if card.subtype == "facility":
        me.facilities.append(uid)
        resolve_all(Ctx(state, player, source=uid), card.skills_for("on_enter"))
        return
    skills = card.skills_for(trigger)
    ctx = action_ctx(state, player, uid, target, skills)
    me.discard.append(uid)  # an order (指令) resolves, then goes to discard (廃棄)
    resolve_all(ctx, skills)


# ---- the battlefield -----------------------------------------------------------------------------------------

def enter_unit(state: Table, index: int, uid: int, fuel: list[int], stored: list[int] | None = None,
               chosen: int | None = None) -> Unit:
    """A unit enters the battlefield with its fuel; its on_enter skills resolve."""
    state.presence_counter += 1
    unit = Unit(uid=uid, owner=index, presence=state.presence_counter, fuel=list(fuel), stored=list(stored or []))
    if not state.options["attack_on_entry"]:
        unit.used.add(ENTERED)  # cleared at its controller's next standby (option attack_on_entry = false)
    state.players[index].units.append(unit)
    state.log("enter", index, {"card": state.cards[uid].code, "uid": uid, "fuel": len(fuel)})
    resolve_all(Ctx(state, index, source=uid, chosen=chosen), state.cards[uid].skills_for("on_enter"))
    return unit


def remove_unit(state: Table, unit: Unit, *, dismantle: bool = False, destroyed_by: int | None = None) -> None:
    """Destroyed: to discard with its fuel, on_destroyed fires. Dismantled (H12): removed from the game,
    no on_destroyed."""
    if state.find_unit(unit.uid) is not unit:
        return
    if not state.is_player_side(unit.owner):
        beasts.remove_beast(state, unit, dismantle=dismantle, destroyed_by=destroyed_by)
        return
    player = state.players[unit.owner]
    player.units.remove(unit)
    card = state.cards[unit.uid]
    state.log("dismantled" if dismantle else "destroyed", unit.owner, {"card": card.code, "uid": unit.uid})
    if dismantle:
        player.removed.append(unit.uid)
    else:
        player.discard.append(unit.uid)
    player.discard.extend(unit.fuel + unit.stored + unit.armaments)
    for armament in unit.armaments:
        player.durability.pop(armament, None)
    if not dismantle and not unit.down:
        skills = card.skills_for("on_destroyed")
        resolve_all(Ctx(state, unit.owner, source=unit.uid), skills)


def return_to_hand(state: Table, obj: Any) -> None:
    """手札に戻す: the unit card to hand; its fuel, stored cards and armaments to discard."""
    if not isinstance(obj, Unit) or not state.is_player_side(obj.owner) or state.find_unit(obj.uid) is not obj:
        return
    player = state.players[obj.owner]
    player.units.remove(obj)
    player.hand.append(obj.uid)
    player.discard.extend(obj.fuel + obj.stored + obj.armaments)
    state.log("return_to_hand", obj.owner, {"card": state.cards[obj.uid].code})


def refuel(state: Table, index: int, obj: Any, amount: int, source: str) -> None:
    """補給: top cards of `source` become fuel; never above the unit's cost (H23 too)."""
    if not isinstance(obj, Unit) or not state.is_player_side(obj.owner):
        return
    player = state.players[index]
    pile = {"weapons_deck": player.weapons, "tactics_deck": player.tactics, "hand": player.hand,
            "discard": player.discard}[source]
    added = 0
    while added < amount and pile and len(obj.fuel) < state.cards[obj.uid].cost:
        obj.fuel.append(pile.pop())
        added += 1
    if added:
        state.log("refuel", index, {"unit": obj.uid, "amount": added})


def search_secret(state: Table, index: int, category: str | None, types: tuple[str, ...], to: str) -> None:
    """Take the first matching 秘策 card to hand (or onto the battlefield) (H20)."""
    player = state.players[index]
    for uid in player.secret:
        card = state.cards[uid]
        if (category is None or card.category == category) and (not types or set(types) & set(card.types)):
            player.secret.remove(uid)
            state.log("search_secret", index, {"to": to})
            if to == "battlefield" and card.is_unit:
                enter_unit(state, index, uid, [])
            else:
                player.hand.append(uid)
            return


def pay_cards(state: Table, index: int, exclude: int, cost: int) -> list[int] | None:
    """An automatic payment (緊急生産): the cheapest other hand cards, or None if the hand is too small."""
    hand = [uid for uid in state.players[index].hand if uid != exclude]
    if len(hand) < cost:
        return None
    return sorted(hand, key=lambda uid: (state.cards[uid].cost, uid))[:cost]


def produce(state: Table, index: int, uid: int, pay_cost: bool = True) -> None:
    """緊急生産: put a unit card from hand or 秘策 onto the battlefield outside the main phase."""
    player = state.players[index]
    zone = player.hand if uid in player.hand else player.secret if uid in player.secret else None
    if zone is None:
        return
    payment: list[int] = []
    if pay_cost:
        found = pay_cards(state, index, uid, state.cards[uid].cost)
        if found is None:
            return
        payment = found
        for paid in payment:
            player.hand.remove(paid)
    zone.remove(uid)
    state.log("produce", index, {"card": state.cards[uid].code})
    enter_unit(state, index, uid, payment)
