"""MechWarrior: Dark Age positions (`hangar.position/1`, docs/positions.md "MechWarrior: Dark Age").

`dump(state)` writes a battle in progress as the body of a position document and `load(doc, cards, rng)` builds
the `MwdaState` it describes; rules_engine/positions.py adds the envelope (`format`, `system`, `random`).

A position holds the options that differ from the defaults, the opponent's kind (`army` or `goldfish`: does
player 1 get orders), the table (its layout and terrain), the round, the engine's turn count, the first player,
the player to play and the phase (`orders`, or `over` with its `result`), the orders left this turn, and per side
its M2 order count, its tallies and its units, on the table (`units`) and eliminated (`eliminated`), each with
its uid, card code, base centre `at` [x, y] in inches, dial click, heat, action tokens, whether it was ordered
this turn and the damage it has dealt. Every order resolves within one action, so there is no mid-action state;
the engine keeps no facing (M13: facing is free). No rule reads the event log: a loaded state starts an empty one.

Every bad field raises `PositionError(path, message)` with the field's path (`sides[1].units[0].at`).
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

from rules_engine.core import outcome
from rules_engine.core.catalog import CardDataError
from rules_engine.mwda import geometry as geo
from rules_engine.mwda.game import DEFAULT_OPTIONS, MwdaOptionError, MwdaState, check_options, orders_per_round
from rules_engine.mwda.orders import turn_orders
from rules_engine.mwda.state import Unit
from rules_engine.mwda.units import UnitSpec, unit_spec
from rules_engine.position_fields import (
    PositionError, need_bool, need_choice, need_int, need_list, need_number, need_object, shown,
)

__all__ = ["dump", "load", "PHASES", "STATE_FIELDS", "UNIT_FIELDS"]

ORDERS: Final = "orders"  # the player to play gives orders (M10)
OVER: Final = "over"  # the battle has ended (§2.3): `result` says how
PHASES: Final = (ORDERS, OVER)
REASONS: Final = (outcome.ELIMINATED, outcome.ROUNDS)
EMPTY: Final = geo.Layout("empty", ())  # a table with no terrain, the default of a hand-written position

# Every attribute of the state (Table, state.py, and MwdaState, game.py) and where a position keeps it. The tests
# compare this with the sources, so a new engine field fails a test until this module handles it.
STATE_FIELDS: Final[dict[str, str]] = {
    "options": "options (those that differ from the defaults)",
    "layout": "table",
    "units": "sides[].units and sides[].eliminated",
    "rng": "random (the envelope's)",
    "events": "not kept: a loaded position starts an empty event log",
    "turn": "turn",
    "points_destroyed": "sides[].points_destroyed",
    "shutdowns": "sides[].shutdowns",
    "damage_dealt": "each unit's damage_dealt",
    "_edges": "a cache", "_fire": "a cache", "contact_plans": "a cache", "contact_paths": "a cache",
    "orders": "sides[].orders",
    "goldfish": "opponent.kind",
    "first": "first",
    "round": "round",
    "active": "active",
    "orders_left": "orders_left",
    "ordered": "each unit's ordered",
    "over": "phase", "winner": "result.winner", "end_reason": "result.reason",
    "orders_given": "sides[].orders_given",
    "turns_taken": "derived from turn and first",
    "_legal": "a cache", "shooters": "a cache",
}
UNIT_FIELDS: Final = ("uid", "side", "spec", "x", "y", "click", "heat", "tokens", "alive")

_TOP: Final = ("format", "system", "random", "note", "options", "opponent", "list", "table", "round", "turn",
               "first", "active", "phase", "orders_left", "result", "sides")
_SIDE: Final = ("orders", "points_destroyed", "orders_given", "shutdowns", "units", "eliminated", "note")
_UNIT: Final = ("uid", "code", "name", "at", "click", "heat", "tokens", "ordered", "damage_dealt", "note")
_TABLE: Final = ("size", "deploy_depth", "layout", "terrain")


# ---- writing ------------------------------------------------------------------------------------------------


def dump(state: MwdaState) -> dict[str, Any]:
    """The position of `state`, everything explicit, in a fixed key order."""
    if state.goldfish[0]:
        raise ValueError("player 0 is never a goldfish: this state cannot be written as a position")
    options = {name: state.options[name] for name in DEFAULT_OPTIONS if state.options[name] != DEFAULT_OPTIONS[name]}
    doc: dict[str, Any] = {
        "options": options,
        "opponent": {"kind": "goldfish" if state.goldfish[1] else "army"},
        "table": {"size": geo.TABLE, "deploy_depth": geo.DEPLOY_DEPTH, "layout": state.layout.name,
                  "terrain": [shape.to_dict() for shape in state.layout.shapes]},
        "round": state.round,
        "turn": state.turn,
        "first": state.first,
        "active": state.active,
        "phase": OVER if state.over else ORDERS,
        "orders_left": state.orders_left,
    }
    if state.over:
        doc["result"] = {"winner": state.winner, "reason": state.end_reason}
    doc["sides"] = [{
        "orders": state.orders[side],
        "points_destroyed": state.points_destroyed[side],
        "orders_given": state.orders_given[side],
        "shutdowns": state.shutdowns[side],
        "units": [_unit_doc(state, unit) for unit in state.units if unit.side == side and unit.alive],
        "eliminated": [_unit_doc(state, unit) for unit in state.units if unit.side == side and not unit.alive],
    } for side in (0, 1)]
    return doc


def _unit_doc(state: MwdaState, unit: Unit) -> dict[str, Any]:
    return {"uid": unit.uid, "code": unit.spec.code, "name": unit.spec.name, "at": [unit.x, unit.y],
            "click": unit.click, "heat": unit.heat, "tokens": unit.tokens, "ordered": unit.uid in state.ordered,
            "damage_dealt": state.damage_dealt[unit.uid]}


# ---- reading fields (the plain values: rules_engine/position_fields.py) -------------------------------------------


def _player(value: Any, path: str) -> int:
    if isinstance(value, bool) or value not in (0, 1):
        raise PositionError(path, f"expected player 0 or 1, got {shown(value)}")
    return int(value)


# ---- options, opponent, table -------------------------------------------------------------------------------


def _options(value: Any) -> dict[str, Any]:
    given = need_object(value if value is not None else {}, "options", tuple(DEFAULT_OPTIONS))
    for name in given:
        if name == "first_player" and isinstance(given[name], bool):
            raise PositionError("options.first_player", f'expected "roll", 0 or 1, got {given[name]!r}')
        try:
            check_options({name: given[name]})
        except MwdaOptionError as error:
            raise PositionError(f"options.{name}", str(error)) from None
    return check_options(given)


def _goldfish(value: Any) -> bool:
    """Player 1 a goldfish (never ordered) or an army; a run snapshot's other descriptor fields are ignored."""
    if value is None:
        return False
    if not isinstance(value, Mapping):
        raise PositionError("opponent", f'expected an object like {{"kind": "army"}}, got {shown(value)}')
    return need_choice(value.get("kind"), "opponent.kind", ("army", "goldfish")) == "goldfish"


def _layout(value: Any) -> geo.Layout:
    table = need_object(value, "table", _TABLE)
    if "size" in table and need_number(table["size"], "table.size") != geo.TABLE:
        raise PositionError("table.size", f"the engine's table is {geo.TABLE:g}″ square, got {table['size']!r}")
    if "deploy_depth" in table and need_number(table["deploy_depth"], "table.deploy_depth") != geo.DEPLOY_DEPTH:
        raise PositionError("table.deploy_depth", f"the engine's deployment zones are {geo.DEPLOY_DEPTH:g}″ deep, "
                                                  f"got {table['deploy_depth']!r}")
    name = table.get("layout")
    known = {layout.name: layout for layout in (*geo.LAYOUTS, EMPTY)}
    if not isinstance(name, str) or not name:
        raise PositionError("table.layout", f"expected a layout name ({', '.join(known)} or a name of your own "
                                            f"with its terrain), got {name!r}")
    if "terrain" not in table:
        if name not in known:
            raise PositionError("table.layout", f"unknown layout {name!r} (known: {', '.join(known)}); "
                                                "a layout of your own needs its terrain")
        return known[name]
    terrain = need_list(table["terrain"], "table.terrain")
    layout = geo.Layout(name, tuple(_shape(shape, f"table.terrain[{index}]") for index, shape in enumerate(terrain)))
    if name in known:
        if layout != known[name]:
            raise PositionError("table.terrain", f"differs from the terrain of layout {name!r}: give a layout "
                                                 "of your own another name")
        return known[name]
    return layout


def _shape(value: Any, path: str) -> geo.Shape:
    shape = value.get("shape") if isinstance(value, Mapping) else None
    keys = ("shape", "kind", "x0", "y0", "x1", "y1") if shape == "rect" else ("shape", "kind", "cx", "cy", "r")
    fields = need_object(value, path, keys)
    need_choice(shape, f"{path}.shape", ("rect", "circle"))
    kind = need_choice(fields.get("kind"), f"{path}.kind", geo.TERRAIN_KINDS)
    numbers = [need_number(fields.get(key), f"{path}.{key}") for key in keys[2:]]
    if shape == "rect":
        x0, y0, x1, y1 = numbers
        if x1 < x0 or y1 < y0:
            raise PositionError(path, "a rect needs x0 ≤ x1 and y0 ≤ y1")
        return geo.Rect(str(kind), x0, y0, x1, y1)
    cx, cy, r = numbers
    if r <= 0:
        raise PositionError(f"{path}.r", f"expected a radius > 0, got {r!r}")
    return geo.Circle(str(kind), cx, cy, r)


# ---- units --------------------------------------------------------------------------------------------------


class _Entry:
    """One unit as the position gives it, before uids are settled."""

    __slots__ = ("path", "side", "alive", "uid", "spec", "x", "y", "click", "heat", "tokens", "ordered", "damage")

    def __init__(self, path: str, side: int, alive: bool, uid: int, spec: UnitSpec, x: float, y: float) -> None:
        self.path, self.side, self.alive, self.uid, self.spec, self.x, self.y = path, side, alive, uid, spec, x, y
        self.click, self.heat, self.tokens, self.ordered, self.damage = 0, 0, 0, False, 0


def _spec(code: Any, path: str, cards: Mapping[str, Any], specs: dict[str, UnitSpec]) -> UnitSpec:
    if not isinstance(code, str) or code not in cards:
        raise PositionError(path, f"unknown unit code {code!r} (not in the cards)")
    if code not in specs:
        try:
            specs[code] = unit_spec(cards[code])
        except CardDataError as error:
            raise PositionError(path, str(error)) from None
    return specs[code]


def _entry(value: Any, path: str, side: int, alive: bool, cards: Mapping[str, Any],
           specs: dict[str, UnitSpec]) -> _Entry:
    unit = need_object(value, path, _UNIT)
    spec = _spec(unit.get("code"), f"{path}.code", cards, specs)
    if not isinstance(unit.get("name", ""), str):
        raise PositionError(f"{path}.name", f"expected the unit's name (ignored on load), got {unit['name']!r}")
    uid = need_int(unit["uid"], f"{path}.uid", 0) if "uid" in unit else -1
    at = unit.get("at", None if alive else [0.0, 0.0])
    if not isinstance(at, list) or len(at) != 2:
        raise PositionError(f"{path}.at", f"expected [x, y] in inches, got {at!r}")
    x, y = need_number(at[0], f"{path}.at[0]"), need_number(at[1], f"{path}.at[1]")
    entry = _Entry(path, side, alive, uid, spec, x, y)
    clicks = len(spec.dial)
    if alive:  # M16: a unit past its last click has left the table
        entry.click = need_int(unit.get("click", 0), f"{path}.click", 0, clicks - 1)
    else:
        entry.click = need_int(unit.get("click", clicks), f"{path}.click", 0, clicks)
    if spec.is_mech:  # M17: reaching the shutdown click clears the heat, so heat stays below it
        entry.heat = need_int(unit.get("heat", 0), f"{path}.heat", 0, spec.shutdown_heat - 1)
    elif unit.get("heat", 0) != 0:
        raise PositionError(f"{path}.heat", f"a {spec.kind} has no heat dial: heat must be 0, got {unit['heat']!r}")
    entry.tokens = need_int(unit.get("tokens", 0), f"{path}.tokens", 0, 2 if alive else 0)  # M11: at most 2
    entry.ordered = need_bool(unit.get("ordered", False), f"{path}.ordered")
    entry.damage = need_int(unit.get("damage_dealt", 0), f"{path}.damage_dealt", 0)
    return entry


def _entries(sides: list[Any], cards: Mapping[str, Any]) -> list[_Entry]:
    specs: dict[str, UnitSpec] = {}
    entries: list[_Entry] = []
    for side, value in enumerate(sides):
        for zone, alive in (("units", True), ("eliminated", False)):
            for index, unit in enumerate(need_list(value.get(zone, []), f"sides[{side}].{zone}")):
                entries.append(_entry(unit, f"sides[{side}].{zone}[{index}]", side, alive, cards, specs))
    _number_units(entries)
    return entries


def _number_units(entries: list[_Entry]) -> None:
    """Units given without a uid take the lowest free ones in order; the N uids must be 0 … N−1 (they index
    the engine's unit list)."""
    taken: dict[int, str] = {}
    for entry in entries:
        if entry.uid >= 0:
            if entry.uid in taken:
                raise PositionError(f"{entry.path}.uid", f"uid {entry.uid} is also {taken[entry.uid]}'s")
            if entry.uid >= len(entries):
                raise PositionError(f"{entry.path}.uid", f"the {len(entries)} units are numbered 0 … "
                                                         f"{len(entries) - 1}, got {entry.uid}")
            taken[entry.uid] = entry.path
    free = [uid for uid in range(len(entries)) if uid not in taken]
    for entry in entries:
        if entry.uid < 0:
            entry.uid = free.pop(0)


def _check_table(entries: list[_Entry], layout: geo.Layout) -> None:
    """Units on the table: each base wholly on it, off terrain that stops movement, on no other base (M13)."""
    standing = [entry for entry in entries if entry.alive]
    for index, entry in enumerate(standing):
        r = entry.spec.radius
        if not geo.inside_table(entry.x, entry.y, r):
            raise PositionError(f"{entry.path}.at", f"the base (radius {r:g}″) centred at [{entry.x:g}, {entry.y:g}] "
                                                    f"is not wholly on the {geo.TABLE:g}″ table")
        for shape in layout.stops_movement:
            if shape.distance_to_point(entry.x, entry.y) < r - geo.EPS:
                raise PositionError(f"{entry.path}.at", f"the base stands on {shape.kind} terrain, where no unit "
                                                        "may stand")
        for other in standing[:index]:
            gap = geo.edge_distance(entry.x, entry.y, r, other.x, other.y, other.spec.radius)
            if gap < -geo.EPS:
                raise PositionError(f"{entry.path}.at", f"the base overlaps {other.path}'s by {-gap:.3g}″: bases "
                                                        "never overlap")


# ---- the whole position -------------------------------------------------------------------------------------


def load(doc: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]], rng: random.Random) -> MwdaState:
    """The `MwdaState` of position `doc`, with `rng` as its generator; PositionError names a bad field."""
    need_object(doc, "", _TOP)
    options = _options(doc.get("options"))
    goldfish = _goldfish(doc.get("opponent"))
    if "list" in doc and not isinstance(doc["list"], Mapping):
        raise PositionError("list", f"expected a hangar.list/1 document, got {shown(doc['list'])}")
    layout = _layout(doc.get("table", {"layout": EMPTY.name}))
    sides = doc.get("sides")
    if not isinstance(sides, list) or len(sides) != 2:
        raise PositionError("sides", "expected a list of two sides, player 0 first")
    for side, value in enumerate(sides):
        need_object(value, f"sides[{side}]", _SIDE)
    entries = _entries(sides, cards)
    for side in (0, 1):
        if not any(entry.side == side for entry in entries):
            raise PositionError(f"sides[{side}].units", "a side needs at least one unit (M4), on the table or "
                                                         "eliminated")
    _check_table(entries, layout)
    orders = (_orders(sides[0], 0, entries), _orders(sides[1], 1, entries))

    chosen = options["first_player"]
    first = _player(doc.get("first", chosen if chosen in (0, 1) else 0), "first")
    if chosen in (0, 1) and first != chosen:
        raise PositionError("first", f"option first_player makes player {chosen} first, got {first}")
    active = _player(doc.get("active", first), "active")
    phase = need_choice(doc.get("phase", ORDERS), "phase", PHASES)
    max_rounds = options["max_rounds"]
    round_ = need_int(doc.get("round", 1), "round", 1, max_rounds)
    expected = 2 * (round_ - 1) + (1 if active == first else 2)
    turn = need_int(doc.get("turn", expected), "turn", 1)
    ordered = {entry.uid for entry in entries if entry.ordered}
    state = MwdaState(options=options, layout=layout, units=[_unit(entry) for entry in _by_uid(entries)],
                      orders=orders, goldfish=(False, goldfish), first=first, rng=rng)
    state.turn, state.round, state.active, state.ordered = turn, round_, active, ordered
    state.turns_taken[first], state.turns_taken[1 - first] = (turn + 1) // 2, turn // 2
    for entry in entries:
        state.damage_dealt[entry.uid] = entry.damage
    for side in (0, 1):
        state.points_destroyed[side] = _points_destroyed(sides[side], side, entries)
        state.shutdowns[side] = need_int(sides[side].get("shutdowns", 0), f"sides[{side}].shutdowns", 0)
        given = sum(1 for entry in entries if entry.side == side and entry.ordered)
        path = f"sides[{side}].orders_given"
        state.orders_given[side] = need_int(sides[side].get("orders_given", given), path, 0)
    if phase == ORDERS:
        _check_orders_phase(doc, state, entries, expected)
    else:
        _check_over(doc, state)
    return state


def _by_uid(entries: list[_Entry]) -> list[_Entry]:
    ordered: list[_Entry | None] = [None] * len(entries)
    for entry in entries:
        ordered[entry.uid] = entry
    return [entry for entry in ordered if entry is not None]


def _unit(entry: _Entry) -> Unit:
    unit = Unit(entry.uid, entry.side, entry.spec, entry.x, entry.y)
    unit.click, unit.heat, unit.tokens, unit.alive = entry.click, entry.heat, entry.tokens, entry.alive
    return unit


def _orders(side: Mapping[str, Any], index: int, entries: list[_Entry]) -> int:
    """M2: ⌈starting points / 100⌉ + order bonuses, from every unit of the side (eliminated ones too)."""
    allowed = orders_per_round([entry.spec for entry in entries if entry.side == index])
    if "orders" not in side:
        return allowed
    orders = need_int(side["orders"], f"sides[{index}].orders", 1)
    if orders > allowed:
        points = sum(entry.spec.points for entry in entries if entry.side == index)
        raise PositionError(f"sides[{index}].orders", f"{orders} orders, but {points} points of units allow "
                                                      f"{allowed} (M2: one per 100 points, plus order bonuses)")
    return orders


def _points_destroyed(side: Mapping[str, Any], index: int, entries: list[_Entry]) -> int:
    """§2.3: the points of the other side's eliminated units, whatever eliminated them."""
    lost = sum(entry.spec.points for entry in entries if entry.side != index and not entry.alive)
    path = f"sides[{index}].points_destroyed"
    if need_int(side.get("points_destroyed", lost), path, 0) != lost:
        raise PositionError(path, f"must be {lost}, the points of the other side's eliminated units, "
                                  f"got {side['points_destroyed']!r}")
    return lost


def _check_orders_phase(doc: Mapping[str, Any], state: MwdaState, entries: list[_Entry], expected: int) -> None:
    """Phase `orders`: the battle goes on and the player to play can give an order (M10, M11)."""
    if doc.get("result") is not None:
        raise PositionError("result", 'a result belongs to phase "over"')
    for side in (0, 1):
        if not any(entry.alive and entry.side == side for entry in entries):
            raise PositionError(f"sides[{side}].units", 'this side has no unit left, so the battle is over '
                                                        '(§2.3): give phase "over" and its result')
    active = state.active
    if state.turn != expected:
        raise PositionError("turn", f"round {state.round} with player {active} to play (player {state.first} "
                                    f"first) is turn {expected}, got {state.turn}")
    if state.goldfish[active]:
        raise PositionError("active", "a goldfish opponent never gets an order: player 1 cannot be to play")
    for entry in entries:
        if entry.ordered and entry.side != active:
            raise PositionError(f"{entry.path}.ordered", f"only units of the player to play ({active}) can have "
                                                         "been ordered this turn")
    left = turn_orders(state, active) - len(state.ordered)  # M2 (option mobile_hq_bonus)
    if left < 1:
        raise PositionError("orders_left", f"{len(state.ordered)} units were ordered this turn, so none of player "
                                           f"{active}'s {left + len(state.ordered)} orders is left (M2, M10)")
    state.orders_left = need_int(doc.get("orders_left", left), "orders_left", 1, left)
    if not state.orderable():
        raise PositionError(f"sides[{active}].units", "no unit of the player to play can take an order (each has "
                                                      "been ordered this turn or carries 2 tokens, M10/M11)")


def _check_over(doc: Mapping[str, Any], state: MwdaState) -> None:
    """Phase `over`: the result, as §2.3 gives it (a side eliminated, or the points after the last round)."""
    if doc.get("result") is None:
        raise PositionError("result", 'phase "over" needs its result: {"winner": 0, 1 or null, "reason": ...}')
    result = need_object(doc["result"], "result", ("winner", "reason"))
    reason = need_choice(result.get("reason"), "result.reason", REASONS)
    winner = result.get("winner")
    if winner is not None:
        winner = _player(winner, "result.winner")
    standing = [any(unit.alive and unit.side == side for unit in state.units) for side in (0, 1)]
    if reason == outcome.ELIMINATED:
        if all(standing):
            raise PositionError("result.reason", "both sides still have units on the table")
        due = None if not any(standing) else (0 if standing[0] else 1)
    else:
        mine, theirs = state.points_destroyed
        due = 0 if mine > theirs else 1 if theirs > mine else None
    if winner != due:
        raise PositionError("result.winner", f"by {reason} the winner is {due!r}, got {winner!r}")
    left = max(state.orders)
    state.orders_left = need_int(doc.get("orders_left", 0), "orders_left", 0, left)
    state.over, state.winner, state.end_reason = True, winner, str(reason)
