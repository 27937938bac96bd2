"""Refit (改装, H21, H22), design production (設計兵装, H23) and 秘匿機構 (H24) — RULES.md §1.5."""
from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

from rules_engine.hagmi import combat, zones
from rules_engine.hagmi.cards import REFIT_TYPE, HagmiCard, Skill
from rules_engine.hagmi.skills import Ctx, action_ctx, resolve_all
from rules_engine.hagmi.state import Unit

if TYPE_CHECKING:
    from rules_engine.hagmi.state import Table

HIDDEN_KEY = "hidden_mechanism"


def equip_ok(armament: HagmiCard, unit: HagmiCard) -> bool:
    """装備条件: `equip.types` lists types of which the unit needs one; none listed → any unit."""
    return armament.equip_types is None or bool(set(armament.equip_types) & set(unit.types))


def can_refit(source: HagmiCard, target: HagmiCard) -> bool:
    """H21, H22: the refit target carries [改装], has the same 搭乗者名 and shares ≥ 2 types other than [改装]."""
    if not target.is_unit or target.category == "design" or REFIT_TYPE not in target.types:
        return False
    if not source.pilot or source.pilot != target.pilot:
        return False
    shared = (set(source.types) & set(target.types)) - {REFIT_TYPE}
    return len(shared) >= 2


def refit_choices(state: "Table", player: int, sources: tuple[str, ...] = ("hand", "secret"),
                  exclude: int | None = None, only_unit: int | None = None,
                  cards: tuple[int, ...] | None = None) -> list[tuple[int, int]]:
    """(source unit uid, refit card uid) pairs a refit effect could use now: the refit card from `sources` (not
    `exclude`) or one of `cards`; the source any friendly unit, or only `only_unit`."""
    me = state.players[player]
    if cards is not None:
        pool = list(cards)
    else:
        pool = [uid for zone in sources for uid in getattr(me, zone) if uid != exclude]
    seen: set[tuple[int, str]] = set()
    choices = []
    for unit in me.units:
        if only_unit is not None and unit.uid != only_unit:
            continue
        for uid in pool:
            key = (unit.uid, state.cards[uid].code)
            if key not in seen and can_refit(state.cards[unit.uid], state.cards[uid]):
                seen.add(key)
                choices.append((unit.uid, uid))
    return choices


def skill_choices(state: "Table", player: int, uid: int, skill: Skill) -> list[tuple[int, int]]:
    """H22: the (source unit, refit card) pairs a refit skill of card `uid` offers. `source: self`: the card's own
    unit refits (「改装元カード」が改装する能力); `into: self`: the card itself, played from 秘策, refits a friendly
    unit (秘策から直接戦場のカードを改装する); otherwise any friendly unit into a card of `from` (改装用カード)."""
    if skill.get("into") == "self":
        return refit_choices(state, player, cards=(uid,))
    zones_from = tuple(skill.get("from", ("hand", "secret")))
    return refit_choices(state, player, zones_from, exclude=uid,
                         only_unit=uid if skill.get("source") == "self" else None)


def refit(state: "Table", player: int, source_uid: int, new_uid: int) -> None:
    """H22: the new card enters stacked over the source and takes over all its information: fuel, modifications,
    armaments (an armament whose condition fails stays on the battlefield unequipped), damage, barrier counters,
    this turn's effects and ダウン; in a battle, it takes the source's place [interpretation]."""
    me = state.players[player]
    source = state.find_unit(source_uid)
    zone = me.hand if new_uid in me.hand else me.secret if new_uid in me.secret else None
    if source is None or zone is None or not can_refit(state.cards[source_uid], state.cards[new_uid]):
        return
    zone.remove(new_uid)
    new_card = state.cards[new_uid]
    state.presence_counter += 1
    unit = Unit(uid=new_uid, owner=player, presence=state.presence_counter, fuel=source.fuel,
                stored=source.stored + [source_uid], damage=source.damage, hard_damage=source.hard_damage,
                mods=source.mods, shields=source.shields, barrier=source.barrier, flags=source.flags,
                down=source.down, attacked=source.attacked)
    if state.combat is not None:
        combat.replace_unit(state.combat, source_uid, new_uid)
    for armament in source.armaments:
        if equip_ok(state.cards[armament], new_card):
            unit.armaments.append(armament)
        else:
            me.loose_armaments.append(armament)
            me.durability.pop(armament, None)
    me.units[me.units.index(source)] = unit
    state.log("refit", player, {"source": state.cards[source_uid].code, "card": new_card.code})
    resolve_all(Ctx(state, player, source=new_uid), new_card.skills_for("on_enter"))


def design_materials(state: "Table", player: int, design_uid: int) -> list[tuple[int, ...]]:
    """H23: every choice of exactly T of your units (T = the design's type count) that each share a type
    with the design and whose costs total at least the design's cost."""
    design = state.cards[design_uid]
    count = len(design.types)
    eligible = [u.uid for u in state.players[player].units if set(state.cards[u.uid].types) & set(design.types)]
    if count == 0 or len(eligible) < count:
        return []
    return [combo for combo in combinations(eligible, count)
            if sum(state.cards[uid].cost for uid in combo) >= design.cost]


def produce_design(state: "Table", player: int, design_uid: int, materials: tuple[int, ...]) -> None:
    """H23: the design comes from 秘策, stores its materials and keeps the sum of their fuel (even above its
    cost); it inherits no modifications or armaments (those stay on the battlefield unequipped)."""
    me = state.players[player]
    units = [state.find_unit(uid) for uid in materials]
    if design_uid not in me.secret or any(u is None or u.owner != player for u in units):
        return
    me.secret.remove(design_uid)
    fuel: list[int] = []
    stored: list[int] = []
    for unit in units:
        assert unit is not None
        me.units.remove(unit)
        fuel += unit.fuel
        stored += unit.stored + [unit.uid]
        me.loose_armaments.extend(unit.armaments)
        for armament in unit.armaments:
            me.durability.pop(armament, None)
    state.log("design", player, {"card": state.cards[design_uid].code,
                                 "materials": [state.cards[u].code for u in materials]})
    zones.enter_unit(state, player, design_uid, fuel, stored)


def hidden_ready(state: "Table", unit: Unit) -> bool:
    """H24: a design's 秘匿機構 may be used once per turn per design unit (a new presence resets it)."""
    return (not unit.down and HIDDEN_KEY not in unit.used
            and bool(state.cards[unit.uid].skills_for("hidden_mechanism")))


def use_hidden(state: "Table", player: int, uid: int, chosen: Any) -> None:
    unit = state.find_unit(uid)
    if unit is None or not hidden_ready(state, unit):
        return
    unit.used.add(HIDDEN_KEY)
    state.log("hidden_mechanism", player, {"card": state.cards[uid].code})
    skills = state.cards[uid].skills_for("hidden_mechanism")
    resolve_all(action_ctx(state, player, uid, chosen, skills), skills)
