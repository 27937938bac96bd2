"""Cyphers and abilities: the cypher deck, hand and discard pile (drawing with reshuffle, W10 phases 8 and 9),
playing a cypher (W10 phases 3 and 5), the abilities models use (actions, on activation, on deployment) and the
effect vocabulary (docs/data-packages.md "Effect vocabulary") they share.

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

from rules_engine.warcaster import combat, deployment, movement
from rules_engine.warcaster.geometry import norm
from rules_engine.warcaster.models import AREA_TARGETS, CHOSEN_TARGETS, Ability, CypherSpec, Effect, Weapon
from rules_engine.warcaster.state import Model, Table, Unit

CHOSEN = CHOSEN_TARGETS
AREA = AREA_TARGETS


def effect_target(effect: Effect) -> str:
    """The effect's target kind: attacks target an enemy model, `arc` defaults to the origin ("self"),
    effects without a target (draw) give "none"."""
    return effect.target  # worked out once when the card is compiled (models.Effect)


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


def _range(board: Table, effect: Effect) -> float:
    if effect.kind == "attack":
        return effect.get("rng")
    value = effect.get("range")
    return board.size * 2 if value is None else value


def candidates(board: Table, player: int, effect: Effect, origins: Sequence[Model],
               shared: dict[tuple, list[tuple[float, Model]]] | None = None) -> list[Model]:
    """The models a chosen target may be: one per unit, the unit's model nearest an origin (models of one unit
    are interchangeable targets) [interpretation, keeps the choice small]; `any_model` lists every model.

    `shared`: a dict kept while the table does not change (one legal-action listing), so that cyphers with the
    same kind of target through the same arc nodes measure the table once, whatever their range."""
    target = effect_target(effect)
    wounded_only = effect.kind == "heal"
    key = (target, wounded_only, tuple(o.uid for o in origins))
    nearest = shared.get(key) if shared is not None else None
    if nearest is None:
        nearest = _nearest_per_unit(board, player, target, wounded_only, origins)
        if shared is not None:
            shared[key] = nearest
    reach = _range(board, effect)
    return [m for best, m in nearest if best <= reach]


def _nearest_per_unit(board: Table, player: int, target: str, wounded_only: bool,
                      origins: Sequence[Model]) -> list[tuple[float, Model]]:
    """(distance, model) of each unit's model nearest an origin (every model for `any_model`), in uid order.
    A unit's model within reach exists exactly when its nearest one is within reach, so one list serves
    every range."""
    if target.startswith("friendly"):
        pool = board.on_board(player)
    elif target.startswith("enemy"):
        pool = board.on_board(1 - player)
    else:
        pool = board.on_board()
    warjacks_only = target.endswith("warjack")
    per_model = target == "any_model"
    found: dict[int, tuple[float, Model]] = {}
    starts = [(o.x, o.y, o.spec.radius) for o in origins]
    ox, oy, orad = starts[0] if len(starts) == 1 else (0.0, 0.0, 0.0)
    for model in pool:  # in uid order, so a later model of a unit replaces it only when strictly nearer
        spec = model.spec
        if warjacks_only and spec.kind != "warjack":
            continue
        if wounded_only and model.health >= spec.health:
            continue
        x, y, r = model.x, model.y, spec.radius
        if len(starts) == 1:  # geometry.gap, inline: this runs for every model in every cypher listing
            best = max(0.0, norm(ox - x, oy - y) - orad - r)
        else:
            best = min(max(0.0, norm(sx - x, sy - y) - sr - r) for sx, sy, sr in starts)
        key = model.uid if per_model else model.unit
        held = found.get(key)
        if held is None or best < held[0]:
            found[key] = (best, model)
    # In uid order already: keys go in as the pool is read, and a unit's models have consecutive uids.
    return list(found.values())


def arc_nodes(board: Table, player: int) -> list[Model]:
    return board.arc_nodes(player)


def cypher_options(board: Table, player: int, cypher: CypherSpec,
                   shared: dict[tuple, list[tuple[float, Model]]] | None = None) -> list[int | None]:
    """The choices a cypher can be played with: chosen model uids, arc node uids (area cyphers), or [None].
    `shared`: see `candidates` (one dict for every cypher listed on an unchanged table)."""
    nodes = arc_nodes(board, player)
    if not nodes:
        return []
    chosen = cypher.choice
    if chosen is not None:
        if chosen.kind == "attack":
            weapon_type = chosen.get("type", "ranged")
            nodes = [n for n in nodes if not board.blocked(n, weapon_type)]  # W15 system failure: cyphers too
            if not nodes:  # every node may not make that attack: the cypher cannot be played
                return []
        return [m.uid for m in candidates(board, player, chosen, nodes, shared)]
    if cypher.on_node:
        return [n.uid for n in nodes]
    return [None]


def node_and_target(board: Table, player: int, cypher: CypherSpec, choice: int | None) -> tuple[Model, Model | None]:
    """The arc node a cypher is played through and its chosen model: the chosen node itself for area and
    self cyphers, otherwise the node nearest the chosen model."""
    nodes = arc_nodes(board, player)
    chosen = board.models[choice] if choice is not None else None
    if chosen is None:
        return nodes[0], None
    if cypher.choice is None:
        return chosen, None
    if len(nodes) == 1:
        return nodes[0], chosen
    return board.nearest(chosen, nodes) or nodes[0], chosen


# --- the cypher deck, hand and discard pile
def draw(board: Table, player: int, count: int) -> int:
    """Draw up to `count` cyphers, shuffling the discard pile into a new deck when the deck runs out; returns how
    many were drawn."""
    side = board.sides[player]
    drawn = 0
    for _ in range(count):
        if not side.deck:
            if not side.discard:
                break
            side.deck = side.discard
            side.discard = []
            board.rng.shuffle(side.deck)
            board.log("reshuffle", player, {"cards": len(side.deck)})
        side.hand.append(side.deck.pop())
        drawn += 1
    return drawn


def play_from_hand(board: Table, player: int, code: str, choice: int | None) -> None:
    """W10 phases 3 and 5: play a cypher of the hand with the chosen target, then discard it."""
    side = board.sides[player]
    cypher = side.take_from_hand(code)
    play_cypher(board, player, cypher, choice)
    side.discard.append(cypher)


def discard_from_hand(board: Table, player: int, code: str) -> None:
    """W10 phase 8: a cypher of the hand onto the discard pile."""
    side = board.sides[player]
    cypher = side.take_from_hand(code)
    side.discard.append(cypher)
    board.log("discard", None, {"card": cypher.code})


def on_activation(board: Table, unit: Unit) -> None:
    """A unit is activated (W10 phase 4): its models' `on_activate` abilities whose arc it can pay, paid."""
    for model in unit.alive_models:
        for ability in model.spec.triggered("on_activate"):
            if ability.arc_cost <= unit.arc:
                deployment.spend_unit_arc(board, unit, ability.arc_cost)
                use_ability(board, model, ability, None)


def on_deployment(board: Table, unit: Unit) -> None:
    """A unit is deployed (W10 phase 6): its models' `on_deploy` abilities."""
    for model in unit.alive_models:
        for ability in model.spec.triggered("on_deploy"):
            use_ability(board, model, ability, None)


def play_cypher(board: Table, player: int, cypher: CypherSpec, choice: int | None) -> None:
    node, chosen = node_and_target(board, player, cypher, choice)
    board.log("cypher", player, {"card": cypher.code, "name": cypher.name, "suit": cypher.suit, "node": node.uid,
                                 "target": choice, "at": [node.x, node.y]})
    resolve(board, player, cypher.effects, node, chosen, source=cypher.code, cypher=True)


def use_ability(board: Table, model: Model, ability: Ability, choice: int | None) -> None:
    """An ability of `model` (its arc cost already paid), with the player's chosen target (or automatic)."""
    board.log("ability", model.player, {"model": model.uid, "unit": model.unit, "name": ability.name,
                                        "target": choice})
    chosen = board.models[choice] if choice is not None else None
    resolve(board, model.player, (ability.effect,), model, chosen, source=ability.name, cypher=False)


def ability_options(board: Table, model: Model, ability: Ability) -> list[int | None]:
    if effect_target(ability.effect) in CHOSEN:
        return [m.uid for m in candidates(board, model.player, ability.effect, [model])]
    return [None]


def resolve(board: Table, player: int, effects: Sequence[Effect], origin: Model, chosen: Model | None, *,
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


def _affected(board: Table, player: int, effect: Effect, origin: Model, pick: Model | None) -> list[Model]:
    """The models an effect acts on: self, the chosen model (its whole unit for unit targets), `all_*` within
    `area` of the origin, plus matching models within `area` of the chosen one."""
    target = effect_target(effect)
    if target in ("self", "none"):
        return [origin] if origin.alive else []
    area = effect.get("area")
    if target in AREA:
        return [m for m in board.on_board()
                if _side_ok(player, m, target) and board.gap_between(m, origin) <= (area or 0)]
    if pick is None or not pick.alive:
        return []
    chosen = list(board.units[pick.unit].alive_models) if target.endswith("unit") else [pick]
    if area:
        chosen_units = {pick.unit}
        for model in board.on_board():
            if model in chosen or not _side_ok(player, model, target) or board.gap_between(model, pick) > area:
                continue
            if target.endswith("unit"):
                if model.unit not in chosen_units:
                    chosen_units.add(model.unit)
                    chosen += board.units[model.unit].alive_models
            elif not target.endswith("warjack") or model.spec.kind == "warjack":
                chosen.append(model)
    return chosen


def _attack(board: Table, player: int, effect: Effect, origin: Model, pick: Model | None, source: str,
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
        deployment.spend_unit_arc(board, unit, arc)
    combat.make_attack(board, origin, pick, weapon, arc, stat=stat, origin="cypher" if cypher else "ability")


def _damage(board: Table, player: int, effect: Effect, origin: Model, pick: Model | None, source: str,
            cypher: bool) -> None:
    for model in _affected(board, player, effect, origin, pick):
        combat.deal_damage(board, model, int(effect.get("amount")), source, player)


def _apply_effect(board: Table, player: int, effect: Effect, origin: Model, pick: Model | None, source: str,
                  cypher: bool) -> None:
    name = effect.get("effect")
    done_units: set[int] = set()
    for model in _affected(board, player, effect, origin, pick):
        if name == "lockdown":
            if model.unit in done_units:
                continue
            done_units.add(model.unit)
        combat.apply_effect(board, model, name, player, source)


def _remove_effect(board: Table, player: int, effect: Effect, origin: Model, pick: Model | None, source: str,
                   cypher: bool) -> None:
    for model in _affected(board, player, effect, origin, pick):
        combat.remove_effect(board, model, effect.get("effect"))


def _heal(board: Table, player: int, effect: Effect, origin: Model, pick: Model | None, source: str,
          cypher: bool) -> None:
    for model in _affected(board, player, effect, origin, pick):
        healed = min(int(effect.get("amount")), model.spec.health - model.health)
        if healed > 0:
            model.health += healed
            board.log("heal", model.player, {"model": model.uid, "amount": healed, "health": model.health,
                                             "source": source})


def _move(board: Table, player: int, effect: Effect, origin: Model, pick: Model | None, source: str,
          cypher: bool) -> None:
    distance = float(effect.get("distance"))
    moved = []
    for model in _affected(board, player, effect, origin, pick):
        if model.player == player:
            changed = movement.advance(board, model, distance)
        else:
            changed = movement.push_away(board, model, origin, distance)
        if changed:
            moved.append([model.uid, model.x, model.y])
    board.log("move", player, {"unit": pick.unit if pick else origin.unit, "models": moved, "source": source,
                               "place": bool(effect.get("place"))})


def _arc(board: Table, player: int, effect: Effect, origin: Model, pick: Model | None, source: str,
         cypher: bool) -> None:
    model = pick if pick is not None else origin
    unit = board.units[model.unit]
    put = deployment.put_arc(board, unit, int(effect.get("amount")))
    board.log("arc", player, {"unit": unit.uid, "amount": put, "arc": unit.arc, "source": source})


def _draw(board: Table, player: int, effect: Effect, origin: Model, pick: Model | None, source: str,
          cypher: bool) -> None:
    drawn = draw(board, player, int(effect.get("count")))
    board.log("draw", player, {"count": drawn, "hand": len(board.sides[player].hand), "source": source})


def _shield(board: Table, player: int, effect: Effect, origin: Model, pick: Model | None, source: str,
            cypher: bool) -> None:
    for model in _affected(board, player, effect, origin, pick):
        model.shield += int(effect.get("amount"))
        board.log("shield", model.player, {"model": model.uid, "shield": model.shield, "source": source})


def _stat_mod(board: Table, player: int, effect: Effect, origin: Model, pick: Model | None, source: str,
              cypher: bool) -> None:
    duration = effect.get("duration", "round")
    for model in _affected(board, player, effect, origin, pick):
        model.mods.append((effect.get("stat"), int(effect.get("amount")), duration))
        board.log("stat_mod", model.player, {"model": model.uid, "stat": effect.get("stat"),
                                             "amount": effect.get("amount"), "duration": duration, "source": source})


HANDLERS = {
    "attack": _attack, "damage": _damage, "apply_effect": _apply_effect, "remove_effect": _remove_effect,
    "heal": _heal, "move": _move, "arc": _arc, "draw": _draw, "shield": _shield, "stat_mod": _stat_mod,
}
combat.ABILITY_RUNNER[:] = [use_ability]  # the attacker's on-hit abilities (combat.after_attack)
