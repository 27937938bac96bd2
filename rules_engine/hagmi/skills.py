"""The HAGMI! skill registry: one parameter schema per skill kind (docs/data-packages.md §3; each kind's handler is
in skill_effects.py), and how skills resolve: conditions, once per turn, their targets (RULES.md §1.5, H20, H24 once per presence).

A skill is data (`{"kind", "trigger", params}`); `validate_skill` checks it when a card is parsed and `resolve`
runs its kind's handler during play. Kinds that are *passive* (`reduce_damage` on `static`, `first_strike`,
`pierce`, `unreducible`, static `firepower_mod` / `armor_mod`) are read by the combat code through
`state.py`'s queries; their handler applies them when they are *activated* (e.g. 決闘宣言's first strike).
The handlers (skill_effects.py) call the rules by concern (damage.py, zones.py, combat.py, refit.py, beasts.py),
which resolve the skills their events trigger through `resolve_all`; this module imports none of them: `resolve`
finds a kind's handler in HANDLERS, where skill_effects.py binds it.

Skills used by an action: `use_main_skill` (a main skill), `use_emergency_skill` (H10: a 緊急 skill of a card on the
battlefield, in an emergency window, once per window: `window_key`), refit.py's `use_hidden`; `action_ctx` reads the
action's target (a unit, a refit pair H22, a unit card to produce).

Target choice: a target chosen by the player is part of the action (`Ctx.chosen`); a triggered skill with no
chosen target picks one automatically and deterministically (`auto_target`): an enemy unit with the least
armor left, or the friendly unit with the most firepower (ties: lowest card uid).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping

from rules_engine.core.catalog import CardDataError

if TYPE_CHECKING:
    from rules_engine.hagmi.cards import Skill
    from rules_engine.hagmi.state import Table

TRIGGERS = frozenset({
    "on_enter", "on_destroyed", "on_attack", "on_defend", "emergency", "counter", "static",
    "hidden_mechanism", "main", "on_play", "on_turn_start", "on_turn_end",
})
TARGETS = frozenset({
    "self", "you", "opponent", "all_opponents", "target", "attacker", "enemy_unit", "all_enemy_units",
    "friendly_unit", "all_friendly_units", "equipped_unit", "all_units",
})
CHOSEN_TARGETS = frozenset({"enemy_unit", "friendly_unit"})
DURATIONS = frozenset({"attack", "battle", "turn", "permanent"})
COMMON = frozenset({"kind", "trigger", "text", "text_en", "once_per_turn", "condition"})
CONDITION_KEYS = frozenset({"target_types", "self_types", "target_category", "min_fuel", "min_units",
                            "max_damage_deck", "range_longer"})


class Ctx:
    """Where a skill resolves: its controller, source card, chosen target and the battle it belongs to.

    A plain class, not a dataclass: mypyc builds a compiled dataclass's annotations when this module loads, and
    Table (state.py) is only imported for type checking here."""

    __slots__ = ("state", "player", "source", "chosen", "attacker", "target", "data")

    def __init__(self, state: Table, player: int, source: int | None = None, chosen: Any = None,
                 attacker: int | None = None, target: Any = None, data: dict | None = None) -> None:
        self.state = state  # the game (HagmiState); skills only use the table (state.py) and the rule modules
        self.player = player
        self.source = source  # card uid of the skill's card
        self.chosen = chosen  # unit uid chosen by the action (or by the first skill of the card)
        self.attacker = attacker  # the unit attacking `source` (counter, on_defend)
        self.target = target  # what the current attack is aimed at
        self.data: dict = {} if data is None else data


Handler = Callable[[Ctx, "Skill"], None]


@dataclass(frozen=True)
class SkillKind:
    name: str
    required: Mapping[str, Callable[[Any], bool]]
    optional: Mapping[str, Callable[[Any], bool]]


REGISTRY: dict[str, SkillKind] = {}  # kind -> its parameters: what a card may say (validate_skill)
HANDLERS: dict[str, Handler] = {}  # kind -> what it does in play: bound by skill_effects.py, which game.py imports


def _pos_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 1


def _nonneg_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _target(v: Any) -> bool:
    return v in TARGETS


def _bool(v: Any) -> bool:
    return isinstance(v, bool)


def _one_of(*values: str) -> Callable[[Any], bool]:
    return lambda v: v in values


def _subset_of(*values: str) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, (list, tuple)) and bool(v) and all(x in values for x in v)


def _str_list(v: Any) -> bool:
    return isinstance(v, (list, tuple)) and all(isinstance(x, str) for x in v)


def declare(kind: str, required: Mapping[str, Callable] | None = None,
            optional: Mapping[str, Callable] | None = None) -> None:
    """Declare a skill kind with its parameter schema (name → check)."""
    REGISTRY[kind] = SkillKind(kind, dict(required or {}), dict(optional or {}))


def handles(kind: str) -> Callable[[Handler], Handler]:
    """Bind the handler of a declared kind (skill_effects.py)."""
    if kind not in REGISTRY:
        raise ValueError(f"skill kind {kind!r} is not declared in skills.py")

    def decorator(handler: Handler) -> Handler:
        HANDLERS[kind] = handler
        return handler

    return decorator


def validate_skill(code: str, where: str, raw: Mapping[str, Any], trigger_required: bool = True) -> None:
    """Refuse an unknown kind, trigger or parameter, or a bad value, naming the card and the field."""
    kind = raw.get("kind")
    spec = REGISTRY.get(kind)  # type: ignore[arg-type]
    if spec is None:
        raise CardDataError(code, f"{where}.kind", f"unknown skill kind {kind!r}; known: {', '.join(sorted(REGISTRY))}")
    trigger = raw.get("trigger")
    if trigger_required and trigger not in TRIGGERS:
        raise CardDataError(code, f"{where}.trigger", f"unknown trigger {trigger!r}")
    if not trigger_required and trigger is not None and trigger not in TRIGGERS:
        raise CardDataError(code, f"{where}.trigger", f"unknown trigger {trigger!r}")
    for key, value in raw.items():
        if key in COMMON:
            continue
        check = spec.required.get(key) or spec.optional.get(key)
        if check is None:
            raise CardDataError(code, f"{where}.{key}", f"parameter not known for skill kind {kind!r}")
        if not check(value):
            raise CardDataError(code, f"{where}.{key}", f"bad value {value!r} for skill kind {kind!r}")
    for key in spec.required:
        if key not in raw:
            raise CardDataError(code, f"{where}.{key}", f"required by skill kind {kind!r}")
    condition = raw.get("condition", {})
    if not isinstance(condition, Mapping) or set(condition) - CONDITION_KEYS:
        raise CardDataError(code, f"{where}.condition", f"unknown condition keys {sorted(set(condition) - CONDITION_KEYS)}")


def resolve(ctx: Ctx, skill: "Skill") -> None:
    """Run one skill's handler if its condition holds (and, when `once_per_turn`, it is unused this turn)."""
    if condition_holds(ctx.state, ctx, skill) and use_once(ctx.state, ctx, skill):
        HANDLERS[skill.kind](ctx, skill)


def resolve_all(ctx: Ctx, skills: tuple["Skill", ...]) -> None:
    """Several skills of one card with the same trigger, in order; a chosen target carries over (不退転)."""
    for skill in skills:
        if ctx.state.is_over():
            return
        if ctx.chosen is None and skill.get("target") in CHOSEN_TARGETS:
            ctx.chosen = auto_target(ctx.state, ctx, skill)
        resolve(ctx, skill)


def condition_holds(state: Table, ctx: Ctx, skill: Skill) -> bool:
    """A skill's `condition` (min_fuel, self_types, min_units, max_damage_deck) holds now."""
    cond = skill.condition
    if not cond:
        return True
    source = state.find_unit(ctx.source)
    if "min_fuel" in cond and (source is None or len(source.fuel) < cond["min_fuel"]):
        return False
    if "self_types" in cond and (source is None or not set(cond["self_types"]) & set(state.cards[source.uid].types)):
        return False
    if "min_units" in cond and len(state.units_of(ctx.player)) < cond["min_units"]:
        return False
    if "max_damage_deck" in cond and state.is_player_side(ctx.player):
        if len(state.players[ctx.player].damage_deck) > cond["max_damage_deck"]:
            return False
    return True


def use_once(state: Table, ctx: Ctx, skill: Skill) -> bool:
    """`once_per_turn`: at most once per turn per card on the battlefield. `main` skills are limited by
    the action that uses them (game.py), everything else here. Returns False when already used."""
    if not skill.once_per_turn or skill.trigger == "main":
        return True
    used, key = once_key(state, ctx.player, ctx.source, skill)
    if key in used:
        return False
    used.add(key)
    return True


def once_key(state: Table, player: int, source: int | None, skill: Skill) -> tuple[set[str], str]:
    """Where a once-per-turn use is noted: the unit's own keys (a new presence starts afresh), or its controller's
    keyed by the card for a facility or an armament."""
    unit = state.find_unit(source)
    key = f"{skill.trigger}:{skill.kind}"
    if unit is not None:
        return unit.used, key
    return state.players[player].used, f"{source}:{key}"


def action_ctx(state: Table, player: int, source: int, target: Any, skills: tuple["Skill", ...]) -> Ctx:
    """The context of a card or skill used by an action, from the action's target: a unit uid (`chosen`), a
    (source unit, refit card) pair for a refit (H22), or the unit card a 緊急生産 puts onto the battlefield."""
    ctx = Ctx(state, player, source=source, chosen=target if isinstance(target, int) else None)
    if isinstance(target, tuple) and len(target) == 2 and all(isinstance(x, int) for x in target):
        ctx.data["refit"] = target
    if any(s.kind == "produce" for s in skills):
        ctx.chosen, ctx.data["produce"] = None, target
    return ctx


def auto_target(state: Table, ctx: Ctx, skill: Skill) -> int | None:
    """A deterministic choice for a triggered skill: the enemy unit with the least armor left, or the
    friendly unit with the most firepower (for a refuel: among those with room for fuel)."""
    if skill.get("target") == "enemy_unit":
        units = state.units_of(state.opponent_of(ctx.player))
        best = min(units, key=lambda u: (state.armor_left(u), u.uid), default=None)
    else:
        units = state.units_of(ctx.player)
        if skill.kind == "refuel":
            units = [u for u in units if len(u.fuel) < state.cards[u.uid].cost]
        best = min(units, key=lambda u: (-state.firepower(u), u.uid), default=None)
    return None if best is None else best.uid


def resolve_targets(state: Table, ctx: Ctx, skill: Skill, default: str | None = None) -> list[Any]:
    """The objects a skill acts on: Unit objects or ("player", index)."""
    target = skill.get("target", default)
    me, them = ctx.player, state.opponent_of(ctx.player)
    if target == "self":
        found = state.find_unit(ctx.source)
        return [found] if found else []
    if target == "you":
        return [("player", me)]
    if target in ("opponent", "all_opponents"):
        return [("player", them)] if state.is_player_side(them) else []
    if target in ("enemy_unit", "friendly_unit"):
        found = state.find_unit(ctx.chosen)
        side = them if target == "enemy_unit" else me
        return [found] if found is not None and found.owner == side else []
    if target == "attacker":
        found = state.find_unit(ctx.attacker)
        return [found] if found else []
    if target == "target":
        found = state.find_unit(ctx.target) if isinstance(ctx.target, int) else None
        return [found] if found else ([ctx.target] if isinstance(ctx.target, tuple) else [])
    if target == "equipped_unit":
        return [u for u in state.units_of(me) if ctx.source in u.armaments]
    if target == "all_enemy_units":
        return list(state.units_of(them))
    if target == "all_friendly_units":
        return [u for u in state.units_of(me) if state.types_ok(skill, u)]
    if target == "all_units":
        return list(state.all_units())
    return []


def turn_skills(state: Table, index: int, trigger: str) -> None:
    """A player's facilities' and units' `trigger` skills (on_turn_start / on_turn_end), in play order."""
    # Runs twice a turn for every card in play, and most cards have no such skill: look at the skills first.
    player = state.players[index]
    for uid in list(player.facilities):
        skills = state.cards[uid].skills_for(trigger)
        if skills:
            resolve_all(Ctx(state, index, source=uid), skills)
    for unit in list(player.units):
        skills = state.cards[unit.uid].skills_for(trigger)
        if skills and state.find_unit(unit.uid) is unit and not unit.down:
            resolve_all(Ctx(state, index, source=unit.uid), skills)


def use_main_skill(state: Table, player: int, source: int, index: int, target: Any) -> None:
    """A UseSkill action: a `main` skill of a unit or facility, once per turn by its key (H-main skills)."""
    skill = state.cards[source].skills[index]
    unit = state.find_unit(source)
    if unit is not None:
        unit.used.add(f"main{index}")
    else:
        state.players[player].used.add(f"{source}:main{index}")
    state.log("skill", player, {"card": state.cards[source].code, "skill": skill.kind})
    resolve_all(action_ctx(state, player, source, target, (skill,)), (skill,))


def window_key(source: int, index: int) -> str:
    """The note that a 緊急 skill was used in the emergency window now open (the attacked player's keys)."""
    return f"window:{source}:{index}"


def use_emergency_skill(state: Table, player: int, source: int, index: int, target: Any) -> None:
    """H10: a UseSkill action in an emergency window (緊急): a 緊急 skill of a card of the attacked player on the
    battlefield (a unit, its armament, a facility). Once per window [interpretation]; with the option
    `emergency_skill_limit` = `turn`, once per turn too; `once_per_turn` as the card says."""
    skill = state.cards[source].skills[index]
    state.players[player].used.add(window_key(source, index))
    if state.options["emergency_skill_limit"] == "turn" and not skill.once_per_turn:
        used, key = once_key(state, player, source, skill)
        used.add(key)
    state.log("skill", player, {"card": state.cards[source].code, "skill": skill.kind})
    ctx = action_ctx(state, player, source, target, (skill,))
    combat = state.combat
    if combat is not None:  # what the attack is about: for "attacker" / "target" skills
        ctx.attacker, ctx.target = combat.attacker, combat.target
    resolve_all(ctx, (skill,))


# ---- the kinds of skill a card may use, with their parameters (what each does: skill_effects.py) ----------------

_DURATION = {"duration": lambda v: v in DURATIONS}
declare("deal_damage", {"amount": _pos_int, "target": _target}, {"unreducible": _bool})
declare("draw", {"count": _pos_int}, {"deck": _one_of("weapons", "tactics", "choice")})
declare("charge", {"amount": _pos_int})  # 充填:N (H30)
declare("reduce_damage", {"amount": _pos_int, "target": _target})  # 軽減 (爆発反応装甲)
declare("nullify_damage", {"target": _target}, {"max_damage": _pos_int})  # ダメージを0に
declare("no_damage", {"target": _target})  # ダメージを受けない (騎士道精神)
declare("barrier", {"count": _pos_int, "target": _target})
declare("firepower_mod", {"amount": _int, "target": _target}, _DURATION)
declare("armor_mod", {"amount": _int, "target": _target}, _DURATION)
declare("first_strike", {}, {"target": _target})  # 先制攻撃
declare("pierce", {}, {"target": _target})  # 貫通
declare("unreducible", {}, {"target": _target})  # 軽減できないダメージ (H13)
declare("defend", {}, {"how": _one_of("counter", "intercept", "both")})  # H32
declare("end_battle_phase")  # 照明弾 (H10)
declare("dismantle", {"target": _target}, {"max_cost": _nonneg_int})  # 解体 (H12)
declare("destroy", {"target": _target}, {"max_cost": _nonneg_int, "max_armor": _nonneg_int})
declare("refit", {}, {"source": _one_of("self", "friendly_unit"), "from": _subset_of("hand", "secret"),
                      "into": _one_of("self")})  # H21, H22
declare("refuel", {"amount": _pos_int, "target": _target},
        {"source": _one_of("weapons_deck", "tactics_deck", "hand", "discard")})  # 補給
declare("down", {"target": _target})  # ダウン
declare("return_to_hand", {"target": _target})
declare("search_secret", {}, {"category": _one_of("unit", "armament", "tactic", "damage", "design"),
                              "types": _str_list, "to": _one_of("hand", "battlefield")})
declare("summon_beast", {"count": _pos_int}, {"from": _one_of("beast_deck", "discard"), "max_cost": _nonneg_int})  # H31
declare("produce", {}, {"from": _subset_of("hand", "secret"), "max_cost": _nonneg_int, "pay_cost": _bool})  # 緊急生産
