"""The effect vocabulary (docs/data-packages.md "Effect vocabulary") for cyphers and model abilities.

One handler per effect kind: `attack`, `damage`, `apply_effect`, `remove_effect`, `heal`, `move`, `arc`,
`draw`, `shield`, `stat_mod`. A cypher is played through a friendly arc node (アークノード) on the table: ranges
are measured from it and attack cyphers originate from it. An ability is used by its model.

Targets: the first effect that needs a choice (a `*_model`, `*_unit`, `*_warjack` target, or an attack) is
chosen by the player (the action carries the chosen model's uid); later effects naming the same target act
on the same choice; a later effect with a different target takes the nearest valid one. `all_*` targets take
every such model within `area` of the arc node (the player chooses the node). Moves are automatic: a friendly
model advances towards the nearest enemy, an enemy model is pushed away from the node.
"""
from __future__ import annotations

from collections.abc import Sequence

from rules_engine.warcaster import combat
from rules_engine.warcaster.geometry import gap
from rules_engine.warcaster.models import Ability, CypherSpec, Effect, Weapon
from rules_engine.warcaster.state import Board, Model

CHOSEN = frozenset({"friendly_model", "friendly_unit", "friendly_warjack", "enemy_model", "enemy_unit",
                    "enemy_warjack", "any_model"})
AREA = frozenset({"all_friendly", "all_enemy", "all_models"})


def effect_target(effect: Effect) -> str:
    """The effect's target kind: attacks target an enemy model, `arc` defaults to the origin ("self"),
    effects without a target (draw) give "none"."""
    if effect.kind == "attack":
        return "enemy_model"
    return effect.get("target", "self" if effect.kind == "arc" else "none")


def needs_choice(effects: Sequence[Effect]) -> Effect | None:
    """The effect whose target the player chooses (None when nothing is chosen)."""
    for effect in effects:
        if effect_target(effect) in CHOSEN:
            return effect
    return None


def _side_ok(player: int, model: Model, target: str) -> bool:
    if target.startswith("friendly") or target == "all_friendly":
        return model.player == player
    if target.startswith("enemy") or target == "all_enemy":
        return model.player != player
    return True


def _range(board: Board, effect: Effect) -> float:
    if effect.kind == "attack":
        return effect.get("rng")
    value = effect.get("range")
    return board.size * 2 if value is None else value


def candidates(board: Board, player: int, effect: Effect, origins: Sequence[Model]) -> list[Model]:
    """The models a chosen target may be: one per unit, the unit's model nearest an origin (models of one unit
    are interchangeable targets) [interpretation, keeps the choice small]; `any_model` lists every model."""
    target = effect_target(effect)
    reach = _range(board, effect)
    if target.startswith("friendly"):
        pool = board.on_board(player)
    elif target.startswith("enemy"):
        pool = board.on_board(1 - player)
    else:
        pool = board.on_board()
    warjacks_only = target.endswith("warjack")
    wounded_only = effect.kind == "heal"
    per_model = target == "any_model"
    found: dict[int, tuple[float, int, Model]] = {}
    distance = board.gap_between
    for model in pool:
        if warjacks_only and model.spec.kind != "warjack":
            continue
        if wounded_only and model.health >= model.spec.health:
            continue
        best = min(distance(origin, model) for origin in origins)
        if best > reach:
            continue
        key = model.uid if per_model else model.unit
        if key not in found or (best, model.uid) < found[key][:2]:
            found[key] = (best, model.uid, model)
    return sorted((m for _, _, m in found.values()), key=lambda m: m.uid)


def arc_nodes(board: Board, player: int) -> list[Model]:
    return [m for m in board.on_board(player) if m.spec.arc_node]


def cypher_options(board: Board, player: int, cypher: CypherSpec) -> list[int | None]:
    """The choices a cypher can be played with: chosen model uids, arc node uids (area cyphers), or [None]."""
    nodes = arc_nodes(board, player)
    if not nodes:
        return []
    chosen = needs_choice(cypher.effects)
    if chosen is not None:
        if chosen.kind == "attack":
            weapon_type = chosen.get("type", "ranged")
            nodes = [n for n in nodes if not board.blocked(n, weapon_type)]  # W15 system failure: cyphers too
        return [m.uid for m in candidates(board, player, chosen, nodes)]
    if any(effect_target(e) in AREA or effect_target(e) == "self" for e in cypher.effects):
        return [n.uid for n in nodes]
    return [None]


def node_and_target(board: Board, player: int, cypher: CypherSpec, choice: int | None) -> tuple[Model, Model | None]:
    """The arc node a cypher is played through and its chosen model: the chosen node itself for area and
    self cyphers, otherwise the node nearest the chosen model."""
    nodes = arc_nodes(board, player)
    chosen = board.models[choice] if choice is not None else None
    if chosen is None:
        return nodes[0], None
    if needs_choice(cypher.effects) is None:
        return chosen, None
    return board.nearest(chosen, nodes) or nodes[0], chosen


def play_cypher(board: Board, player: int, cypher: CypherSpec, choice: int | None) -> None:
    node, chosen = node_and_target(board, player, cypher, choice)
    board.log("cypher", player, card=cypher.code, name=cypher.name, suit=cypher.suit, node=node.uid,
              target=choice, at=[node.x, node.y])
    resolve(board, player, cypher.effects, node, chosen, source=cypher.code, cypher=True)


def use_ability(board: Board, model: Model, ability: Ability, choice: int | None) -> None:
    """An ability of `model` (its arc cost already paid), with the player's chosen target (or automatic)."""
    board.log("ability", model.player, model=model.uid, unit=model.unit, name=ability.name, target=choice)
    chosen = board.models[choice] if choice is not None else None
    resolve(board, model.player, (ability.effect,), model, chosen, source=ability.name, cypher=False)


def ability_options(board: Board, model: Model, ability: Ability) -> list[int | None]:
    if effect_target(ability.effect) in CHOSEN:
        return [m.uid for m in candidates(board, model.player, ability.effect, [model])]
    return [None]


def resolve(board: Board, player: int, effects: Sequence[Effect], origin: Model, chosen: Model | None, *,
            source: str, cypher: bool) -> None:
    first = needs_choice(effects)
    chosen_kind = effect_target(first) if chosen is not None and first is not None else None
    for effect in effects:
        if not origin.alive and not cypher:
            return
        target = effect_target(effect)
        if target == chosen_kind or effect.kind == "attack" and chosen is not None:
            pick = chosen
        elif target in CHOSEN:
            found = candidates(board, player, effect, [origin])
            pick = board.nearest(origin, found)
            if pick is None:
                continue
        else:
            pick = None
        HANDLERS[effect.kind](board, player, effect, origin, pick, source, cypher)


def _affected(board: Board, player: int, effect: Effect, origin: Model, pick: Model | None) -> list[Model]:
    """The models an effect acts on: self, the chosen model (its whole unit for unit targets), `all_*` within
    `area` of the origin, plus matching models within `area` of the chosen one."""
    target = effect_target(effect)
    if target in ("self", "none"):
        return [origin] if origin.alive else []
    area = effect.get("area")
    if target in AREA:
        return [m for m in board.on_board() if _side_ok(player, m, target)
                and gap(m.disc, origin.disc) <= (area or 0)]
    if pick is None or not pick.alive:
        return []
    chosen = board.units[pick.unit].alive_models if target.endswith("unit") else [pick]
    if area:
        chosen_units = {pick.unit}
        for model in board.on_board():
            if model in chosen or not _side_ok(player, model, target) or gap(model.disc, pick.disc) > area:
                continue
            if target.endswith("unit"):
                if model.unit not in chosen_units:
                    chosen_units.add(model.unit)
                    chosen += board.units[model.unit].alive_models
            elif not target.endswith("warjack") or model.spec.kind == "warjack":
                chosen.append(model)
    return chosen


def _attack(board: Board, player: int, effect: Effect, origin: Model, pick: Model | None, source: str,
            cypher: bool) -> None:
    if pick is None or not pick.alive or board.blocked(origin, effect.get("type", "ranged")):
        return
    weapon = Weapon(source, effect.get("type", "ranged"), effect.get("rng"), effect.get("pow"),
                    frozenset(effect.get("qualities") or ()))
    unit = board.units[origin.unit]
    stat = None
    arc = 0
    if cypher:
        # An attack cypher uses the arc node's FOC (option cypher_attack_stat) and spends its unit's arc.
        stat = board.stat(origin, board.options["cypher_attack_stat"])
        arc = min(unit.arc, board.options["max_arc_per_attack"])
        board.spend_unit_arc(unit, arc)
    combat.make_attack(board, origin, pick, weapon, arc, stat=stat, origin="cypher" if cypher else "ability")


def _damage(board: Board, player: int, effect: Effect, origin: Model, pick: Model | None, source: str,
            cypher: bool) -> None:
    for model in _affected(board, player, effect, origin, pick):
        board.deal_damage(model, int(effect.get("amount")), source, player)


def _apply_effect(board: Board, player: int, effect: Effect, origin: Model, pick: Model | None, source: str,
                  cypher: bool) -> None:
    name = effect.get("effect")
    done_units: set[int] = set()
    for model in _affected(board, player, effect, origin, pick):
        if name == "lockdown":
            if model.unit in done_units:
                continue
            done_units.add(model.unit)
        board.apply_effect(model, name, player, source)


def _remove_effect(board: Board, player: int, effect: Effect, origin: Model, pick: Model | None, source: str,
                   cypher: bool) -> None:
    for model in _affected(board, player, effect, origin, pick):
        board.remove_effect(model, effect.get("effect"))


def _heal(board: Board, player: int, effect: Effect, origin: Model, pick: Model | None, source: str,
          cypher: bool) -> None:
    for model in _affected(board, player, effect, origin, pick):
        healed = min(int(effect.get("amount")), model.spec.health - model.health)
        if healed > 0:
            model.health += healed
            board.log("heal", model.player, model=model.uid, amount=healed, health=model.health, source=source)


def _move(board: Board, player: int, effect: Effect, origin: Model, pick: Model | None, source: str,
          cypher: bool) -> None:
    distance = float(effect.get("distance"))
    moved = []
    for model in _affected(board, player, effect, origin, pick):
        if model.player == player:
            changed = board.advance(model, distance)
        else:  # pushed straight away from the origin
            dx, dy = model.x - origin.x, model.y - origin.y
            changed = board.move_model(model, (model.x + dx * 100, model.y + dy * 100), distance, 0)
        if changed:
            moved.append([model.uid, model.x, model.y])
    board.log("move", player, unit=pick.unit if pick else origin.unit, models=moved, source=source,
              place=bool(effect.get("place")))


def _arc(board: Board, player: int, effect: Effect, origin: Model, pick: Model | None, source: str,
         cypher: bool) -> None:
    model = pick if pick is not None else origin
    unit = board.units[model.unit]
    put = board.put_arc(unit, int(effect.get("amount")))
    board.log("arc", player, unit=unit.uid, amount=put, arc=unit.arc, source=source)


def _draw(board: Board, player: int, effect: Effect, origin: Model, pick: Model | None, source: str,
          cypher: bool) -> None:
    drawn = board.draw(player, int(effect.get("count")))
    board.log("draw", player, count=drawn, hand=len(board.sides[player].hand), source=source)


def _shield(board: Board, player: int, effect: Effect, origin: Model, pick: Model | None, source: str,
            cypher: bool) -> None:
    for model in _affected(board, player, effect, origin, pick):
        model.shield += int(effect.get("amount"))
        board.log("shield", model.player, model=model.uid, shield=model.shield, source=source)


def _stat_mod(board: Board, player: int, effect: Effect, origin: Model, pick: Model | None, source: str,
              cypher: bool) -> None:
    duration = effect.get("duration", "round")
    for model in _affected(board, player, effect, origin, pick):
        model.mods.append((effect.get("stat"), int(effect.get("amount")), duration))
        board.log("stat_mod", model.player, model=model.uid, stat=effect.get("stat"), amount=effect.get("amount"),
                  duration=duration, source=source)


HANDLERS = {
    "attack": _attack, "damage": _damage, "apply_effect": _apply_effect, "remove_effect": _remove_effect,
    "heal": _heal, "move": _move, "arc": _arc, "draw": _draw, "shield": _shield, "stat_mod": _stat_mod,
}
