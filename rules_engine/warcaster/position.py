"""Warcaster positions (`hangar.position/1`, docs/positions.md "Warcaster: Neo-Mechanika"): `dump(state)` writes a
`WarcasterState` as a JSON-able document and `load(doc, cards, rng)` sets one up from such a document, refusing a
bad field with a `PositionError` that names its path (`sides[0].units[2].models[1].health`).

The document (besides the core's format, system and random): `options` (those that differ from DEFAULT_OPTIONS),
`opponent` ({"kind": "goldfish" | "force"}), `turn` (number, pulse round, player, W10 phase, first player, turns
each player has had this round), `activation` (the unit being activated: phases move and act only), `result`
(phase over only), and `sides`, player 0 first: victory points, the arc pool, units (status, arc, activated,
lockdown) with their models (`at` in inches, health, shield, continuous effects, stat changes), void gates, the
cypher hand, the deck (top card first) and the discard pile (in the order discarded). Units and models are
numbered in order (side 0 first), gates per side: a given `uid` must be the one its place gives. The rules read no
event of the log (a loaded state starts an empty one): everything they need is here.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules_engine.core import outcome
from rules_engine.position_fields import (
    PositionError, key_path, need_bool, need_choice, need_int, need_list, need_object, shown,
)
from rules_engine.warcaster.game import DEFAULT_OPTIONS, WarcasterState, _spec_classes
from rules_engine.warcaster.models import STAT_NAMES
from rules_engine.warcaster.position_fields import CardSpecs, need_point, need_uid
from rules_engine.warcaster.state import Gate, Model, Side, Unit

# W10: the phases a position may be in (the engine's names), with the phase number of the turn
PHASES = {"charge": 2, "recall": 2, "cypher1": 3, "activate": 4, "move": 4, "act": 4, "solo": 4, "cypher2": 5,
          "deploy": 6, "gate": 7, "discard": 8, "over": 0}  # recall: the charging phase after a first recall
ACTIVATION_PHASES = ("move", "act")  # an activation in progress: its unit moves, then attacks or uses an ability
END_REASONS = (outcome.ROUNDS, outcome.ANNIHILATION)  # W16
STATUSES = ("reserve", "board", "destroyed")
MODEL_EFFECTS = ("fire", "corrosion", "system_failure", "tune_up")  # W15 (lockdown is the unit's)
WARJACK_ONLY = ("system_failure", "tune_up")
BLOCKS = {1: "melee", 2: "ranged"}  # W15 system failure: what it forbids (the engine's mode 1 / 2)
DURATIONS = ("turn", "round", "static")  # a stat change lasts the turn, the pulse round, or for good
NOWHERE = -1.0  # the engine's coordinate of a model that never stood on the table

TOP_KEYS = ("format", "system", "random", "note", "list", "options", "opponent", "turn", "activation", "result",
            "sides")
TURN_KEYS = ("number", "round", "player", "phase", "first_player", "turns_this_round")
SIDE_KEYS = ("vp", "pool", "units", "gates", "hand", "deck", "discard")
UNIT_KEYS = ("uid", "code", "name", "options", "status", "arc", "activated", "lockdown", "models")
MODEL_KEYS = ("uid", "code", "at", "health", "shield", "effects", "blocks", "mods")
GATE_KEYS = ("uid", "at", "arc")
MOD_KEYS = ("stat", "amount", "duration")

# Where each field of the engine's pieces is in a position (the guard test holds these to the engine's fields, so a
# new field fails it until this module writes and reads it).
STATE_FIELDS = {
    "options": "options", "rng": "random (the core's envelope)", "events": "none: a loaded state logs afresh",
    "turn": "turn.number", "round": "turn.round", "player": "turn.player", "phase": "turn.phase",
    "first": "turn.first_player", "turns_taken": "turn.turns_this_round", "sides": "sides",
    "units": "sides[].units", "models": "sides[].units[].models", "acting": "activation.unit",
    "solo_activation": "activation.solo", "winner": "result.winner", "end_reason": "result.reason",
    "size": "options.table_size", "centre": "options.table_size", "spec_class": "worked out from the units",
    "_board_cache": "cache", "_aura_bearers": "cache", "_gaps": "cache", "_stats": "cache (policy)", "_set_aside": "cache (policy)",
    "memo": "cache (policy)", "_legal": "cache", "_targets": "cache",
}
MODEL_FIELDS = {"uid": "uid", "unit": "its unit", "player": "its side", "spec": "code (and its unit's)",
                "health": "health", "x": "at[0]", "y": "at[1]", "alive": "health > 0", "effects": "effects, blocks",
                "mods": "mods", "shield": "shield"}
UNIT_FIELDS = {"uid": "uid", "player": "its side", "spec": "code, options, models[].code", "models": "models",
               "status": "status", "arc": "arc", "activated": "activated", "lockdown": "lockdown",
               "alive_cache": "cache"}
GATE_FIELDS = {"uid": "uid", "player": "its side", "x": "at[0]", "y": "at[1]", "arc": "arc"}
SIDE_FIELDS = {"player": "its place", "goldfish": "opponent.kind", "units": "units", "pool": "pool", "deck": "deck",
               "hand": "hand", "discard": "discard", "gates": "gates", "vp": "vp"}


# ---- writing -----------------------------------------------------------------------------------------------------


def dump(state: WarcasterState) -> dict[str, Any]:
    """The position of `state` (without format, system and random: the core adds them), every field explicit."""
    doc: dict[str, Any] = {
        "options": {key: state.options[key] for key in DEFAULT_OPTIONS if state.options[key] != DEFAULT_OPTIONS[key]},
        "opponent": {"kind": "goldfish" if state.sides[1].goldfish else "force"},
        "turn": {"number": state.turn, "round": state.round, "player": state.player, "phase": state.phase,
                 "first_player": state.first, "turns_this_round": list(state.turns_taken)},
    }
    if state.acting is not None:
        doc["activation"] = {"unit": state.acting, "solo": state.solo_activation}
    if state.phase == "over":
        doc["result"] = {"winner": state.winner, "reason": state.end_reason}
    doc["sides"] = [_dump_side(state, side) for side in state.sides]
    return doc


def _dump_side(state: WarcasterState, side: Side) -> dict[str, Any]:
    return {"vp": side.vp, "pool": side.pool, "units": [_dump_unit(state.units[u]) for u in side.units],
            "gates": [{"uid": g.uid, "at": [g.x, g.y], "arc": g.arc} for g in side.gates],
            "hand": [c.code for c in side.hand], "deck": [c.code for c in reversed(side.deck)],
            "discard": [c.code for c in side.discard]}


def _dump_unit(unit: Unit) -> dict[str, Any]:
    entry: dict[str, Any] = {"uid": unit.uid, "code": unit.spec.code, "name": unit.spec.name}
    if unit.spec.options:
        entry["options"] = {"cortex": unit.spec.options["cortex"], "weapons": list(unit.spec.options["weapons"])}
    entry.update(status=unit.status, arc=unit.arc, activated=unit.activated, lockdown=unit.lockdown,
                 models=[_dump_model(unit, model) for model in unit.models])
    return entry


def _dump_model(unit: Unit, model: Model) -> dict[str, Any]:
    entry: dict[str, Any] = {"uid": model.uid, "code": model.spec.code}
    if unit.status != "reserve" and (model.x, model.y) != (NOWHERE, NOWHERE):
        entry["at"] = [model.x, model.y]
    entry.update(health=model.health, shield=model.shield, effects=list(model.effects))
    if "system_failure" in model.effects:
        entry["blocks"] = BLOCKS[model.effects["system_failure"]]
    entry["mods"] = [{"stat": stat, "amount": amount, "duration": duration} for stat, amount, duration in model.mods]
    return entry


# ---- reading: the game -------------------------------------------------------------------------------------------


def load(doc: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]], rng: random.Random) -> WarcasterState:
    """The WarcasterState of position `doc` (cards: code → catalog card), with `rng` as its generator."""
    need_object(doc, "", TOP_KEYS)
    if not isinstance(cards, Mapping):
        raise PositionError("cards", "expected an object of card code → card")
    if "list" in doc and not isinstance(doc["list"], Mapping):
        raise PositionError("list", f"expected a hangar.list/1 object, got {shown(doc['list'])}")
    options = _options(doc.get("options", {}))
    opponent = doc.get("opponent", {"kind": "force"})  # a run snapshot's descriptor: only its kind is read here
    if not isinstance(opponent, Mapping):
        raise PositionError("opponent", f'expected {{"kind": "goldfish" | "force"}}, got {shown(opponent)}')
    goldfish = need_choice(opponent.get("kind"), "opponent.kind", ("goldfish", "force")) == "goldfish"
    state = WarcasterState(None, rng)
    state.options = options
    state.size = float(options["table_size"])
    state.centre = (state.size / 2, state.size / 2)
    raw_sides = need_list(doc.get("sides"), "sides")
    if len(raw_sides) != 2:
        raise PositionError("sides", f"expected 2 sides (player 0 first), got {len(raw_sides)}")
    specs = CardSpecs(cards)
    raw_units: list[Mapping[str, Any]] = []
    for player, raw in enumerate(raw_sides):
        _load_side(state, specs, raw, f"sides[{player}]", player, goldfish and player == 1, raw_units)
    state.index_auras()
    state.invalidate()
    state.spec_class = _spec_classes([unit.spec for unit in state.units])
    _load_turn(state, doc.get("turn"), "turn")
    _load_activation(state, doc, raw_units)
    _load_result(state, doc)
    return state


def _options(raw: Any) -> dict[str, Any]:
    """DEFAULT_OPTIONS with the position's own, checked as WarcasterGame checks them."""
    if not isinstance(raw, Mapping):
        raise PositionError("options", f"expected an object of option → value, got {shown(raw)}")
    given = raw
    for key in given:
        if key not in DEFAULT_OPTIONS:
            raise PositionError(key_path("options", str(key)),
                                f"unknown Warcaster option; known: {', '.join(DEFAULT_OPTIONS)}")
    for key, value in given.items():
        default, path = DEFAULT_OPTIONS[key], key_path("options", key)
        if isinstance(default, bool):
            need_bool(value, path)
        elif isinstance(default, int):
            need_int(value, path, 0)
        elif key == "blast_damage":
            need_choice(value, path, ("damage_roll", "half_pow", "half_pow_minus_arm"))
        elif key == "cypher_attack_stat":
            need_choice(value, path, ("foc", "rat"))
        elif not isinstance(value, type(default)):
            raise PositionError(path, f"expected {type(default).__name__}, got {shown(value)}")
    return {**DEFAULT_OPTIONS, **given}


def _load_turn(state: WarcasterState, raw: Any, path: str) -> None:
    turn = need_object(raw, path, TURN_KEYS)
    options = state.options
    state.phase = need_choice(turn.get("phase"), key_path(path, "phase"), tuple(PHASES))
    state.round = need_int(turn.get("round", 1), key_path(path, "round"), 1, options["rounds"],
                           " (the game's pulse rounds)")
    state.player = need_int(turn.get("player", 0), key_path(path, "player"), 0, 1)
    state.first = need_int(turn.get("first_player", 0), key_path(path, "first_player"), 0, 1)
    where = key_path(path, "turns_this_round")
    taken = need_list(turn.get("turns_this_round", [0, 0]), where)
    limit = options["turns_per_round"]
    if len(taken) != 2:
        raise PositionError(where, f"expected [player 0's, player 1's] turns, got {len(taken)} numbers")
    state.turns_taken = [need_int(count, key_path(where, p), 0, limit, " (turns_per_round)")
                         for p, count in enumerate(taken)]
    if state.phase != "over" and state.turns_taken[state.player] >= limit:
        raise PositionError(key_path(where, state.player), f"player {state.player} is playing a turn, so has had "
                                                           f"fewer than turns_per_round ({limit}) turns this round")
    default = (state.round - 1) * 2 * limit + sum(state.turns_taken) + (0 if state.phase == "over" else 1)
    state.turn = need_int(turn.get("number", default), key_path(path, "number"), 1)
    if state.phase != "over":
        for player in (0, 1):  # the engine ends the game as soon as a side has nothing left (W16)
            if not state.on_board(player) and not state.reserves(player):
                raise PositionError(f"sides[{player}]", "no model on the table and none in reserve: the game is "
                                                        "over (phase \"over\", with a result)")


def _load_activation(state: WarcasterState, doc: Mapping[str, Any], raw_units: list[Mapping[str, Any]]) -> None:
    """W10 phase 4: the unit being activated (phases move and act) and whether it is the extra solo."""
    if state.phase not in ACTIVATION_PHASES:
        if "activation" in doc:
            raise PositionError("activation", f"only during an activation (phases {', '.join(ACTIVATION_PHASES)}); "
                                              f"the phase is {state.phase!r}")
        return
    if "activation" not in doc:
        raise PositionError("turn.phase", f"phase {state.phase!r} needs the unit being activated: "
                                          "\"activation\": {\"unit\": UID}")
    raw = need_object(doc["activation"], "activation", ("unit", "solo"))
    uid = need_int(raw.get("unit"), "activation.unit", 0, len(state.units) - 1, " (a unit's uid)")
    unit = state.units[uid]
    if unit.player != state.player or unit.status != "board" or not unit.spec.can_activate:
        raise PositionError("activation.unit", f"unit {uid} is not a unit of player {state.player} on the table "
                                               "that can activate")
    if "activated" not in raw_units[uid]:
        unit.activated = True
    elif not unit.activated:
        raise PositionError(f"sides[{unit.player}].units[{state.sides[unit.player].units.index(uid)}].activated",
                            "the unit being activated has activated (true)")
    state.acting = uid
    state.solo_activation = need_bool(raw.get("solo", False), "activation.solo")
    if state.solo_activation and not unit.spec.is_solo:
        raise PositionError("activation.solo", f"unit {uid} ({unit.spec.code}) is not a solo")


def _load_result(state: WarcasterState, doc: Mapping[str, Any]) -> None:
    """W16: who won and why (phase over only)."""
    if state.phase != "over":
        if "result" in doc:
            raise PositionError("result", f"only when the game is over (phase \"over\"); the phase is {state.phase!r}")
        return
    if "result" not in doc:
        raise PositionError("turn.phase", "phase \"over\" needs the result: {\"winner\": 0 | 1 | null, \"reason\": "
                                          f"{' | '.join(repr(r) for r in END_REASONS)}}}")
    raw = need_object(doc["result"], "result", ("winner", "reason"))
    vp = state.sides[0].vp, state.sides[1].vp
    state.end_reason = need_choice(raw.get("reason"), "result.reason", END_REASONS)
    state.winner = need_choice(raw.get("winner", 0 if vp[0] > vp[1] else 1 if vp[1] > vp[0] else None),
                               "result.winner", (0, 1, None))


# ---- reading: a side, its units, models, gates and cyphers ---------------------------------------------------------


def _load_side(state: WarcasterState, specs: CardSpecs, raw: Any, path: str, player: int, goldfish: bool,
               raw_units: list[Mapping[str, Any]]) -> None:
    given = need_object(raw, path, SIDE_KEYS)
    options = state.options
    side = Side(player, goldfish, [], 0, [], vp=need_int(given.get("vp", 0), key_path(path, "vp"), 0))
    state.sides.append(side)
    for index, unit_raw in enumerate(need_list(given.get("units", []), key_path(path, "units"))):
        unit_path = key_path(key_path(path, "units"), index)
        unit = _load_unit(state, specs, unit_raw, unit_path, player, goldfish)
        raw_units.append(unit_raw)
        side.units.append(unit.uid)
    gates = need_list(given.get("gates", []), key_path(path, "gates"))
    if len(gates) > options["gates"]:
        raise PositionError(key_path(path, "gates"), f"at most {options['gates']} void gates (option gates), "
                                                     f"got {len(gates)}")
    for index, gate_raw in enumerate(gates):
        where = key_path(key_path(path, "gates"), index)
        gate = need_object(gate_raw, where, GATE_KEYS)
        need_uid(gate, where, index)
        if "at" not in gate:
            raise PositionError(key_path(where, "at"), "a void gate needs its place [x, y] in inches")
        x, y = need_point(gate["at"], key_path(where, "at"), 0.0, state.size, "a void gate")
        arc = need_int(gate.get("arc", 0), key_path(where, "arc"), 0, options["gate_arc_limit"],
                       " (gate_arc_limit)")
        side.gates.append(Gate(index, player, x, y, arc))
    for zone in ("hand", "deck", "discard"):
        codes = need_list(given.get(zone, []), key_path(path, zone))
        if goldfish and codes:
            raise PositionError(key_path(path, zone), "the goldfish plays no cyphers: it holds none")
        found = [specs.cypher(code, key_path(key_path(path, zone), i)) for i, code in enumerate(codes)]
        if zone == "hand":
            side.hand = found
        elif zone == "deck":
            side.deck = found[::-1]  # the engine draws from the end of its list: the position gives the top first
        else:
            side.discard = found
    held = sum(state.units[u].arc for u in side.units) + sum(g.arc for g in side.gates)
    owned = options["arc_pool"]
    if "pool" in given:
        side.pool = need_int(given["pool"], key_path(path, "pool"), 0)
        if side.pool + held != owned:
            raise PositionError(key_path(path, "pool"), f"the pool ({side.pool}) and the arc on units and gates "
                                                        f"({held}) add up to the side's arc_pool ({owned})")
    elif held > owned:
        raise PositionError(path, f"more arc on units and gates ({held}) than the side owns (arc_pool {owned})")
    else:
        side.pool = owned - held


def _load_unit(state: WarcasterState, specs: CardSpecs, raw: Any, path: str, player: int, goldfish: bool) -> Unit:
    given = need_object(raw, path, UNIT_KEYS)
    need_uid(given, path, len(state.units))
    if "name" in given and not isinstance(given["name"], str):
        raise PositionError(key_path(path, "name"), f"expected the unit's name (a string), "
                                                    f"got {shown(given['name'])}")
    raw_models = need_list(given.get("models", []), key_path(path, "models"))
    spec = specs.unit(given, raw_models, path, goldfish)
    status = given.get("status")
    if status is None:  # by default: on the table if a model stands there, destroyed if every model has health 0
        placed = any(isinstance(m, Mapping) and "at" in m for m in raw_models)
        gone = bool(raw_models) and all(isinstance(m, Mapping) and m.get("health") == 0 for m in raw_models)
        status = "board" if placed else "destroyed" if gone else "reserve"
    need_choice(status, key_path(path, "status"), STATUSES)
    unit = Unit(len(state.units), player, spec, [], status)
    state.units.append(unit)
    if raw_models and len(raw_models) != len(spec.models):
        raise PositionError(key_path(path, "models"), f"unit {spec.code} has {len(spec.models)} model(s): give "
                                                      f"each (a destroyed one with health 0), got {len(raw_models)}")
    if not raw_models and status != "reserve":
        raise PositionError(key_path(path, "models"), "a unit on the table (or destroyed) needs its models")
    for index, mspec in enumerate(spec.models):
        where = key_path(key_path(path, "models"), index)
        model = _load_model(state, unit, mspec, raw_models[index] if raw_models else {}, where)
        unit.models.append(model)
        state.models.append(model)
    unit.arc = need_int(given.get("arc", 0), key_path(path, "arc"), 0, state.arc_limit(unit),
                        " (a hero: its FOC; other units: unit_arc_limit)")
    unit.activated = need_bool(given.get("activated", False), key_path(path, "activated"))
    unit.lockdown = need_bool(given.get("lockdown", False), key_path(path, "lockdown"))
    _check_unit(unit, given, path)
    return unit


def _check_unit(unit: Unit, given: Mapping[str, Any], path: str) -> None:
    """What a unit of each status can be (the engine never makes anything else)."""
    living = [m for m in unit.models if m.alive]
    if unit.activated and not unit.spec.can_activate:
        raise PositionError(key_path(path, "activated"), f"a {unit.spec.kind} never activates")
    if unit.status == "board" and not living:
        raise PositionError(key_path(path, "status"), "every model is destroyed: the unit's status is \"destroyed\"")
    if unit.status == "destroyed" and living:
        raise PositionError(key_path(path, "status"), "a destroyed unit has no living model (health 0)")
    if unit.status != "board" and unit.arc:
        raise PositionError(key_path(path, "arc"), f"a unit not on the table ({unit.status}) holds no arc")
    if unit.status == "reserve":
        if unit.activated or unit.lockdown:
            raise PositionError(key_path(path, "activated" if unit.activated else "lockdown"),
                                "a unit in reserve has not activated and carries no lockdown")
        for index, model in enumerate(unit.models):
            if model.health != model.spec.health or model.shield or model.effects or model.mods:
                raise PositionError(key_path(key_path(path, "models"), index),
                                    "a model in reserve is unharmed, with no shield, effect or stat change")
    for index, model in enumerate(unit.models):
        if unit.status == "board" and model.alive and model.x == NOWHERE:
            raise PositionError(key_path(key_path(key_path(path, "models"), index), "at"),
                                "a model on the table needs its place [x, y] in inches")


def _load_model(state: WarcasterState, unit: Unit, mspec: Any, raw: Any, path: str) -> Model:
    """One model (paths are made only for an error: a simulation from a position loads one every game)."""
    given = need_object(raw, path, MODEL_KEYS)
    uid = len(state.models)
    if given.get("uid", uid) != uid or isinstance(given.get("uid"), bool):
        need_uid(given, path, uid)
    if given.get("code", mspec.code) != mspec.code:
        raise PositionError(key_path(path, "code"), f"expected {mspec.code!r} (this model of unit "
                                                    f"{unit.spec.code}), got {shown(given['code'])}")
    health = given.get("health", mspec.health)
    if type(health) is not int or not 0 <= health <= mspec.health:
        need_int(health, key_path(path, "health"), 0, mspec.health,
                 f" (the model's health is at most {mspec.health})")
    x = y = NOWHERE
    if "at" in given:
        if unit.status == "reserve":
            raise PositionError(key_path(path, "at"), "a model in reserve is not on the table")
        x, y = need_point(given["at"], path + ".at", mspec.radius, state.size, "a model's base")
    shield = given.get("shield", 0)
    if type(shield) is not int or shield < 0:
        need_int(shield, key_path(path, "shield"), 0)
    effects: dict[str, int] = {}
    names = given.get("effects")
    if names:
        where = key_path(path, "effects")
        for index, name in enumerate(need_list(names, where)):
            at = key_path(where, index)
            if name == "lockdown":
                raise PositionError(at, "lockdown is on the unit (W15): give the unit \"lockdown\": true")
            need_choice(name, at, MODEL_EFFECTS)
            if name in effects:
                raise PositionError(at, f"{name} is given twice")
            if name in WARJACK_ONLY and mspec.kind != "warjack":
                raise PositionError(at, f"{name} is on warjacks only (W15); {mspec.code} is a {mspec.kind}")
            if name in mspec.immunities:
                raise PositionError(at, f"{mspec.code} is immune to {name}")
            effects[name] = 1
    elif names is not None:
        need_list(names, key_path(path, "effects"))
    if "system_failure" in effects:
        blocks = need_choice(given.get("blocks"), key_path(path, "blocks"), tuple(BLOCKS.values()))
        effects["system_failure"] = 1 if blocks == "melee" else 2
    elif "blocks" in given:
        raise PositionError(key_path(path, "blocks"), "only with the effect system_failure")
    mods: list[tuple[str, int, str]] = []
    raw_mods = given.get("mods")
    if raw_mods:
        where = key_path(path, "mods")
        for index, mod_raw in enumerate(need_list(raw_mods, where)):
            at = key_path(where, index)
            mod = need_object(mod_raw, at, MOD_KEYS)
            stat = need_choice(mod.get("stat"), key_path(at, "stat"), STAT_NAMES)
            amount = need_int(mod.get("amount"), key_path(at, "amount"), low=None)
            duration = need_choice(mod.get("duration", "round"), key_path(at, "duration"), DURATIONS)
            mods.append((stat, amount, duration))
    elif raw_mods is not None:
        need_list(raw_mods, key_path(path, "mods"))
    return Model(uid, unit.uid, unit.player, mspec, health, x, y, health > 0, effects, mods, shield)
