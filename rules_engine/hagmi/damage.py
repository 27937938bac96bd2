"""HAGMI! damage and destruction (RULES.md §1.4: H12 解体, H13 damage and unreducible damage) and the effects that
change a unit in play: reductions (軽減, ダメージを0に, ダメージを受けない), barrier counters, modifications, granted
flags (先制攻撃, 貫通, 軽減できないダメージ) and ダウン.

A player's damage is dealt card by card from the damage deck (H9: each card's counter skill resolves; damage
taken with the deck already empty loses the game); a unit's damage is measured against its armor left (state.py
`armor_left`), and a unit with none left is destroyed (zones.py `remove_unit`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_engine.core import outcome
from rules_engine.hagmi import beasts, zones
from rules_engine.hagmi.skills import Ctx, resolve_all
from rules_engine.hagmi.state import Unit

if TYPE_CHECKING:
    from rules_engine.hagmi.cards import Skill
    from rules_engine.hagmi.state import Table


# ---- damage (H13) --------------------------------------------------------------------------------------------

def reductions(state: Table, unit: Unit, amount: int) -> int:
    """The damage left after every reducing effect: no_damage, barrier counter, nullify, reduce."""
    if any(kind == "no_damage" for kind, _ in unit.shields):
        return 0
    if unit.barrier:
        unit.barrier -= 1
        return 0
    if any(kind == "nullify" and (not limit or amount <= limit) for kind, limit in unit.shields):
        return 0
    reduce = sum(v for kind, v in unit.shields if kind == "reduce")
    return max(0, amount - reduce - static_reduction(state, unit))


def static_reduction(state: Table, unit: Unit) -> int:
    """H13: the static (常時) reduce_damage skills that apply to `unit`: its own card's unless down (option
    static_reduce_damage = "own_card" [interpretation]); with "equipped_and_facilities" also those of the armaments
    it carries (`equipped_unit`) and of its controller's facilities (設備, `all_friendly_units` / `all_units`, with
    their `target_types`), as static firepower and armor modifications are read (state.py `static_skills`)."""
    if state.options["static_reduce_damage"] == "equipped_and_facilities":
        statics = state.static_skills(unit)
    else:
        statics = () if unit.down else state.cards[unit.uid].static_self
    return sum(skill.get("amount") for skill in statics if skill.kind == "reduce_damage")


def damage_unit(state: Table, unit: Unit, amount: int, *, unreducible: bool, by_player: int | None) -> int:
    """Deal damage to a unit; returns the excess over its remaining armor (for 貫通)."""
    if amount <= 0 or state.find_unit(unit.uid) is not unit:
        return 0
    left_before = state.armor_left(unit)
    if unreducible:  # H13: every reduction ignored; a barrier counter is still removed
        if unit.barrier:
            unit.barrier -= 1
        unit.hard_damage += amount
        dealt = amount
    else:
        dealt = reductions(state, unit, amount)
        unit.damage += dealt
    state.log("damage", unit.owner, {"unit": unit.uid, "amount": dealt, "unreducible": unreducible})
    check_destroyed(state, unit, by_player=by_player)
    return max(0, dealt - left_before)


def check_destroyed(state: Table, unit: Unit, by_player: int | None) -> None:
    """A unit with no armor left is destroyed (an armor of 0 with no damage too: a modifier can bring it there)."""
    if state.find_unit(unit.uid) is unit and state.armor_left(unit) <= 0 and (unit.damage or unit.hard_damage
                                                                           or state.armor(unit) == 0):
        zones.remove_unit(state, unit, destroyed_by=by_player)


def deal_damage(state: Table, obj: Any, amount: int, *, unreducible: bool = False, source: int | None = None,
                by_player: int | None = None, attacker: int | None = None) -> int:
    """Damage to a unit, to a player (("player", index)) or to the mothership (("mothership", index), H34);
    returns the excess over a unit's armor left."""
    if isinstance(obj, Unit):
        return damage_unit(state, obj, amount, unreducible=unreducible, by_player=by_player)
    if isinstance(obj, tuple) and obj[0] == "player":
        damage_player(state, obj[1], amount, attacker=attacker if attacker is not None else source)
    elif isinstance(obj, tuple) and obj[0] == "mothership":
        beasts.damage_mothership(state, obj[1], amount)
    return 0


def damage_player(state: Table, index: int, amount: int, attacker: int | None = None) -> None:
    """H9: each point turns up a damage card (陣地) and resolves its counter skill. A player who takes damage
    while the damage deck is already empty loses (option `player_loss` = "empty_deck", the rule since HAGMI!02);
    damage beyond the cards left is lost. `player_loss` = "cannot_turn_up" (HAGMI!01) loses as soon as a point
    of damage finds no card to turn up."""
    if not state.is_player_side(index) or amount <= 0:
        return
    player = state.players[index]
    for point in range(amount):
        if state.over:
            return
        if not player.damage_deck:
            if point and state.options["player_loss"] == "empty_deck":
                state.log("damage_player", index, {"card": None, "lost": amount - point})
                return  # H9: the deck ran out during this damage: the rest is lost, the game goes on
            state.log("damage_player", index, {"card": None})
            state.finish(state.opponent_of(index), outcome.DAMAGE_DECK_EMPTY)
            return
        uid = player.damage_deck.pop()
        state.log("damage_player", index, {"card": state.cards[uid].code})
        player.discard.append(uid)
        resolve_all(Ctx(state, index, source=uid, attacker=attacker), state.cards[uid].skills_for("counter"))


# ---- effects on a unit in play -------------------------------------------------------------------------------

def add_shield(state: Table, obj: Any, kind: str, skill: Skill) -> None:
    """This attack's reduction on a unit: "reduce" by `amount`, "nullify" up to `max_damage`, or "no_damage"."""
    if isinstance(obj, Unit):
        value = skill.get("amount", 0) if kind == "reduce" else skill.get("max_damage", 0)
        obj.shields.append((kind, value))


def add_barrier(state: Table, obj: Any, count: int) -> None:
    if isinstance(obj, Unit):
        obj.barrier += count


def add_modifier(state: Table, obj: Any, stat: str, amount: int, duration: str) -> None:
    """A firepower / armor modification for `duration` ("attack", "battle", "turn", "permanent")."""
    if isinstance(obj, Unit):
        obj.mods.append([stat, amount, duration])
        check_destroyed(state, obj, by_player=None)


def grant_flag(state: Table, obj: Any, flag: str) -> None:
    if isinstance(obj, Unit):
        obj.flags.add(flag)


def set_down(state: Table, obj: Any) -> None:
    """ダウン: a down unit neither attacks nor defends and its own skills are off until its standby."""
    if isinstance(obj, Unit):
        obj.down = True
        state.log("down", obj.owner, {"unit": obj.uid})
