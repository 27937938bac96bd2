"""Moving and placing models: the move of an activated unit (W10 phase 4: advance, go for the objective, hold),
moving one model straight towards a point around the others (geometry.move_towards), the automatic advance of
cyphers and abilities, and placing a unit's models on the table (deployment W10 phase 6, the goldfish's set-up).

Movement [interpretation]: a model moves up to its SPD (W15 lockdown: −2) straight towards its goal and stops at
the first model in its way or the table edge; models of a unit move one after the other.
"""
from __future__ import annotations

from rules_engine.warcaster.geometry import free_spot, move_towards
from rules_engine.warcaster.state import Model, Side, Table, Unit


def move_model(table: Table, model: Model, dest: tuple[float, float], distance: float, stop_at: float) -> bool:
    """Move a model straight towards `dest` (see geometry.move_towards) around every other model on the table;
    True if it moved."""
    obstacles = [m.disc for m in table.on_board() if m is not model]
    x, y = move_towards(model.disc, dest, distance, stop_at, obstacles, table.size)
    if (x, y) == (model.x, model.y):
        return False
    model.x, model.y = x, y
    table._gaps = {}  # the gaps of the moved model are stale (the cached on-table lists still hold)
    return True


def advance(table: Table, model: Model, distance: float) -> bool:
    """Move towards the nearest enemy model, stopping once its longest usable weapon reaches it (W15: not a
    weapon system failure blocks); with no enemy on the table, towards the centre objective (W16)."""
    target = table.nearest(model, table.on_board(1 - model.player))
    if target is None:
        return move_model(table, model, table.centre, distance, table.options["objective_radius"] / 2)
    reach = max((w.rng for w in model.spec.weapons if not table.blocked(model, w.type)), default=1)
    stop_at = model.spec.radius + target.spec.radius + max(reach - 0.25, 0.1)
    return move_model(table, model, (target.x, target.y), distance, stop_at)


def move_unit(table: Table, unit: Unit, mode: str) -> None:
    """The activated unit's move (W10 phase 4): each living model with SPD > 0 advances, or moves towards the
    centre objective ("objective"); "hold" stays (and logs nothing)."""
    if mode == "hold":
        return
    moved = []
    for model in unit.alive_models:
        spd = table.stat(model, "spd")
        if spd <= 0:
            continue
        if mode == "advance":
            changed = advance(table, model, spd)
        else:
            changed = move_model(table, model, table.centre, spd, table.options["objective_radius"] / 2)
        if changed:
            moved.append([model.uid, model.x, model.y])
    table.log("move", None, {"unit": unit.uid, "mode": mode, "models": moved})


def preview(table: Table, unit: Unit, mode: str, extra: float = 0.0) -> list[tuple[Model, float, float]]:
    """Move the unit as `move_unit` would (a policy weighing its move reads the table there; `extra` inches more,
    as a cypher's advance before it), without logging; returns each model's position before, for `restore`.
    Stats remembered by a frozen table (auras depend on where models stand) are set aside until then."""
    before = [(model, model.x, model.y) for model in unit.alive_models]
    table.previewing(True)
    if mode == "hold":
        return before
    for model in unit.alive_models:
        spd = table.stat(model, "spd")
        if spd <= 0:
            continue
        if mode == "advance":
            advance(table, model, spd + extra)
        else:
            move_model(table, model, table.centre, spd + extra, table.options["objective_radius"] / 2)
    return before


def restore(table: Table, before: list[tuple[Model, float, float]]) -> None:
    """Put the models of a `preview` back where they stood."""
    for model, x, y in before:
        model.x, model.y = x, y
    table._gaps = {}
    table.previewing(False)


def push_away(table: Table, model: Model, origin: Model, distance: float) -> bool:
    """An enemy model moved by a cypher or ability: pushed straight away from the origin."""
    dx, dy = model.x - origin.x, model.y - origin.y
    return move_model(table, model, (model.x + dx * 100, model.y + dy * 100), distance, 0)


def place(table: Table, unit: Unit, x: float, y: float, within: float) -> None:
    """Put a unit on the table: each model on a free spot within `within` of (x, y) (twice that if crowded),
    facing the far edge; logs the `deploy` event."""
    unit.status = "board"
    table.invalidate()
    facing = (x, table.size - y)
    others = [m.disc for m in table.on_board() if m.unit != unit.uid]
    placed = []
    for model in unit.models:
        spot = (free_spot(x, y, model.spec.radius, within, others, table.size, facing)
                or free_spot(x, y, model.spec.radius, within * 2, others, table.size, facing) or (x, y))
        model.x, model.y = spot
        others.append(model.disc)
        placed.append([model.uid, model.x, model.y])
    table.log("deploy", unit.player, {"unit": unit.uid, "code": unit.spec.code, "models": placed, "at": [x, y]})


def set_up_goldfish(table: Table, side: Side) -> None:
    """The goldfish's units stand in its half from the start (stationary targets), spread along a line 7″ from
    its edge."""
    units = [table.units[u] for u in side.units]
    y = table.size - 7 if side.player == 1 else 7.0
    for i, unit in enumerate(units):
        x = table.size * (i + 1) / (len(units) + 1)
        place(table, unit, x, y, 2.5)
