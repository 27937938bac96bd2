"""What each kind of skill does in play (the kinds and their parameters: skills.py).

Each handler calls the rules by concern (damage.py, zones.py, combat.py, refit.py, beasts.py), which resolve the
skills their events trigger through skills.resolve_all; skills.resolve finds the handler in skills.HANDLERS, where
this module binds it. game.py imports this module, so every game in play has its handlers.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.hagmi import beasts, combat, damage, refit, zones
from rules_engine.hagmi.skills import Ctx, Handler, handles, resolve_targets

if TYPE_CHECKING:
    from rules_engine.hagmi.cards import Skill


@handles("deal_damage")
def _deal_damage(ctx: Ctx, skill: "Skill") -> None:
    for obj in resolve_targets(ctx.state, ctx, skill):
        damage.deal_damage(ctx.state, obj, skill.get("amount"), unreducible=bool(skill.get("unreducible", False)),
                              source=ctx.source, by_player=ctx.player)


@handles("draw")
def _draw(ctx: Ctx, skill: "Skill") -> None:
    for _ in range(skill.get("count")):
        zones.draw_card(ctx.state, ctx.player, skill.get("deck", "choice"))


@handles("charge")
def _charge(ctx: Ctx, skill: "Skill") -> None:
    if ctx.state.beasts is not None:
        beasts.charge(ctx.state, skill.get("amount"))  # 充填:N (H30)


def _shield(kind: str) -> Handler:
    def handler(ctx: Ctx, skill: "Skill") -> None:
        for obj in resolve_targets(ctx.state, ctx, skill):
            if skill.trigger == "static":
                continue  # read by damage.reductions() while on the battlefield
            damage.add_shield(ctx.state, obj, kind, skill)
    return handler


handles("reduce_damage")(_shield("reduce"))  # 軽減 (爆発反応装甲)
handles("nullify_damage")(_shield("nullify"))  # ダメージを0に
handles("no_damage")(_shield("no_damage"))  # ダメージを受けない (騎士道精神)


@handles("barrier")
def _barrier(ctx: Ctx, skill: "Skill") -> None:
    for obj in resolve_targets(ctx.state, ctx, skill):
        damage.add_barrier(ctx.state, obj, skill.get("count"))


def _modifier(stat: str) -> Handler:
    def handler(ctx: Ctx, skill: "Skill") -> None:
        if skill.trigger == "static":
            return  # static modifiers are read by state.firepower()/armor()
        for obj in resolve_targets(ctx.state, ctx, skill):
            damage.add_modifier(ctx.state, obj, stat, skill.get("amount"), skill.get("duration", "turn"))
    return handler


handles("firepower_mod")(_modifier("firepower"))
handles("armor_mod")(_modifier("armor"))


def _grant(flag: str) -> Handler:
    def handler(ctx: Ctx, skill: "Skill") -> None:
        if skill.trigger == "static":
            return  # read by state.has_flag()
        for obj in resolve_targets(ctx.state, ctx, skill, default="self"):
            damage.grant_flag(ctx.state, obj, flag)
    return handler


handles("first_strike")(_grant("first_strike"))  # 先制攻撃
handles("pierce")(_grant("pierce"))  # 貫通
handles("unreducible")(_grant("unreducible"))  # 軽減できないダメージ (H13)


@handles("defend")
def _defend(ctx: Ctx, skill: "Skill") -> None:
    """H32: a 機獣 that defends (反撃 / 守護, default both), static on a 機獣 card: read by combat.py
    `beast_defence` with option beasts_defend = "card"; nothing to do when it resolves."""


@handles("end_battle_phase")
def _end_battle_phase(ctx: Ctx, skill: "Skill") -> None:
    combat.end_battle_phase(ctx.state)  # 照明弾: remaining multi-attack hits are void (H10)


@handles("dismantle")
def _dismantle(ctx: Ctx, skill: "Skill") -> None:
    for obj in resolve_targets(ctx.state, ctx, skill):
        if ctx.state.cost_of(obj) <= skill.get("max_cost", 99):
            zones.remove_unit(ctx.state, obj, dismantle=True)  # 解体 (H12)


@handles("destroy")
def _destroy(ctx: Ctx, skill: "Skill") -> None:
    for obj in resolve_targets(ctx.state, ctx, skill):
        if ctx.state.cost_of(obj) <= skill.get("max_cost", 99) and ctx.state.armor_left(obj) <= skill.get("max_armor", 99):
            zones.remove_unit(ctx.state, obj, destroyed_by=ctx.player)


@handles("refit")
def _refit(ctx: Ctx, skill: "Skill") -> None:
    """H21, H22: the (source unit, refit card) pair chosen by the action; a triggered refit takes the first of
    its choices (an automatic choice, like a triggered skill's target)."""
    pair = ctx.data.get("refit")
    if pair is None and ctx.source is not None:
        choices = refit.skill_choices(ctx.state, ctx.player, ctx.source, skill)
        pair = choices[0] if choices else None
    if pair is not None:
        refit.refit(ctx.state, ctx.player, pair[0], pair[1])


@handles("refuel")
def _refuel(ctx: Ctx, skill: "Skill") -> None:
    for obj in resolve_targets(ctx.state, ctx, skill):
        zones.refuel(ctx.state, ctx.player, obj, skill.get("amount"), skill.get("source", "weapons_deck"))  # 補給


@handles("down")
def _down(ctx: Ctx, skill: "Skill") -> None:
    for obj in resolve_targets(ctx.state, ctx, skill):
        damage.set_down(ctx.state, obj)  # ダウン


@handles("return_to_hand")
def _return_to_hand(ctx: Ctx, skill: "Skill") -> None:
    for obj in resolve_targets(ctx.state, ctx, skill):
        zones.return_to_hand(ctx.state, obj)


@handles("search_secret")
def _search_secret(ctx: Ctx, skill: "Skill") -> None:
    zones.search_secret(ctx.state, ctx.player, skill.get("category"), tuple(skill.get("types", ())), skill.get("to", "hand"))


@handles("summon_beast")
def _summon_beast(ctx: Ctx, skill: "Skill") -> None:
    if ctx.state.beasts is not None:
        beasts.summon(ctx.state, skill.get("count"), skill.get("from", "beast_deck"), skill.get("max_cost"))  # H31


@handles("produce")
def _produce(ctx: Ctx, skill: "Skill") -> None:
    unit = ctx.data.get("produce")  # the unit card chosen in the action (緊急生産)
    if unit is not None:
        zones.produce(ctx.state, ctx.player, unit, pay_cost=bool(skill.get("pay_cost", True)))
