"""HAGMI! positions (`hangar.position/1`): `dump(state)` writes a HagmiState as a position document and
`load(doc, cards, rng)` builds one back (rules_engine/positions.py is the shared envelope; docs/positions.md
"HAGMI!" is the format).

The document: "options" (those that differ from game.py's DEFAULT_OPTIONS), "opponent" ({"kind": "goldfish"},
{"kind": "deck"} or {"kind": "coop", "mothership": CODE}), "turn", "active", "decision" (main / battle / defend /
emergency and who decides; null once the game is over), "battle_closed" (照明弾, H10), "presence_counter", "result"
(null, or the winner and the end reason), "sides" (player 0's zones, then player 1's or the 機獣 side's), "combat"
(the attack in progress, H10, H11) and "beast_queue" (the 機獣 still to attack this turn, H33). Cards are
"CODE#UID" (position_cards.py); tops of decks are the end of their lists, as in the engine.

Everything `HagmiState._copy_from` copies is here but the event log (a loaded state logs from an empty one: no
rule reads earlier events) and the cached legal actions (listed again from the state).
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules_engine.core import outcome
from rules_engine.core.catalog import CardDataError
from rules_engine.core.events import EventLog
from rules_engine.hagmi.beasts import BeastSide
from rules_engine.hagmi.combat import Combat, build_schedule, first_to_hit
from rules_engine.hagmi.game import CHOICES, DEFAULT_OPTIONS, HagmiGame, HagmiState
from rules_engine.hagmi.position_cards import CardReader, max_explicit_uid, ref, refs, unit_doc
from rules_engine.hagmi.state import Player, Unit
from rules_engine.position_fields import (
    PositionError, key_path, need_bool, need_choice, need_int, need_list, need_object, need_strings, shown,
)

__all__ = ["dump", "load", "STATE_FIELDS", "UNIT_FIELDS", "PLAYER_FIELDS", "BEAST_FIELDS", "COMBAT_FIELDS"]

# What the module knows of each class (tests/rules_engine/test_position_hagmi.py fails on a new field).
STATE_FIELDS = frozenset({"game", "options", "rng", "events", "turn", "active", "winner", "over", "battle_closed",
                          "end_reason", "presence_counter", "combat", "decision", "beast_queue", "cards", "players",
                          "beasts", "_legal"})
UNIT_FIELDS = frozenset({"uid", "owner", "presence", "fuel", "stored", "armaments", "damage", "hard_damage", "mods",
                         "shields", "barrier", "flags", "down", "attacked", "used", "cores"})
PLAYER_FIELDS = frozenset({"index", "kind", "weapons", "tactics", "damage_deck", "hand", "secret", "units",
                           "facilities", "loose_armaments", "discard", "removed", "durability", "used"})
BEAST_FIELDS = frozenset({"index", "mothership", "cores", "deck", "chargers", "beasts", "appearing", "no_cores",
                          "discard", "removed", "fired", "resolving"})
COMBAT_FIELDS = frozenset({"attacker", "side", "targets", "target", "defender", "intercepted", "schedule", "exchange"})

TOP_KEYS = ("format", "system", "random", "note", "list", "options", "opponent", "turn", "active", "decision",
            "battle_closed", "presence_counter", "result", "sides", "combat", "beast_queue")
OPPONENT_KEYS = ("kind", "mothership", "slug", "name", "name_en", "description", "description_en", "damage_deck",
                 "beast_deck", "list")  # a run snapshot's descriptor; its lists are not read (the sides hold the zones)
PLAYER_ZONES = ("weapons", "tactics", "damage_deck", "hand", "secret")
TABLE_ZONES = ("facilities", "loose_armaments", "discard", "removed")
PLAYER_KEYS = PLAYER_ZONES + ("units",) + TABLE_ZONES + ("used",)
ZONE_KIND = {"weapons": "weapons", "tactics": "tactics", "damage_deck": "damage_deck", "hand": "card",
             "secret": "card", "facilities": "facility", "loose_armaments": "armament", "discard": "card",
             "removed": "card"}
BEAST_KEYS = ("cores", "deck", "chargers", "beasts", "discard", "removed", "attrition_fired", "appearing", "no_cores",
              "resolving", "used")
BEAST_ZONES = ("deck", "chargers", "discard", "removed")
COMBAT_KEYS = ("attacker", "side", "targets", "target", "defender", "intercepted", "schedule", "exchange")
DECISIONS = ("main", "battle", "defend", "emergency")  # game.py's decisions (apply dispatches on them)
END_REASONS = (outcome.DAMAGE_DECK_EMPTY, outcome.CORES_DESTROYED, outcome.TURN_LIMIT, outcome.STEP_LIMIT)
EMPTY_LIST: Mapping[str, Any] = {"sections": {}}


# ---- dump ---------------------------------------------------------------------------------------------------------


def dump(state: HagmiState) -> dict[str, Any]:
    """The position of `state`, every field written (but the format, system and random: the core adds them)."""
    beasts = state.beasts
    opponent: dict[str, Any] = {"kind": state.players[1].kind if beasts is None else "coop"}
    if beasts is not None:
        opponent["mothership"] = beasts.mothership.code
    decision = state.decision
    return {
        "options": {key: value for key, value in state.options.items() if DEFAULT_OPTIONS.get(key) != value},
        "opponent": opponent,
        "turn": state.turn,
        "active": state.active,
        "decision": None if decision is None else {"kind": decision[0], "player": decision[1]},
        "battle_closed": state.battle_closed,
        "presence_counter": state.presence_counter,
        "result": {"winner": state.winner, "reason": state.end_reason} if state.over else None,
        "sides": [_side_doc(state, index) for index in range(2)],
        "combat": None if state.combat is None else _combat_doc(state, state.combat),
        "beast_queue": refs(state, state.beast_queue),
    }


def _side_doc(state: HagmiState, index: int) -> dict[str, Any]:
    player, beasts = state.players[index], state.beasts
    if beasts is not None and index == beasts.index:
        if any(getattr(player, zone) for zone in PLAYER_ZONES + TABLE_ZONES + ("units", "durability")):
            raise ValueError(f"side {index}: the 機獣 side's player holds cards, which a position cannot write")
        doc: dict[str, Any] = {"cores": beasts.cores, "deck": refs(state, beasts.deck),
                               "chargers": refs(state, beasts.chargers),
                               "beasts": [unit_doc(state, unit, {}) for unit in beasts.beasts],
                               "discard": refs(state, beasts.discard), "removed": refs(state, beasts.removed),
                               "attrition_fired": sorted(beasts.fired)}
        if beasts.appearing or beasts.no_cores or beasts.resolving:  # only in the middle of a charge (H30)
            doc.update(appearing=refs(state, beasts.appearing), no_cores=refs(state, sorted(beasts.no_cores)),
                       resolving=beasts.resolving)
        doc["used"] = sorted(player.used)
        return doc
    doc = {zone: refs(state, getattr(player, zone)) for zone in PLAYER_ZONES}
    doc["units"] = [unit_doc(state, unit, player.durability) for unit in player.units]
    doc.update({zone: refs(state, getattr(player, zone)) for zone in TABLE_ZONES})
    doc["used"] = sorted(player.used)
    return doc


def _target_doc(state: HagmiState, target: Any) -> Any:
    return None if target is None else list(target) if isinstance(target, tuple) else ref(state, target)


def _combat_doc(state: HagmiState, combat: Combat) -> dict[str, Any]:
    return {"attacker": ref(state, combat.attacker), "side": combat.side,
            "targets": [_target_doc(state, target) for target in combat.targets],
            "target": _target_doc(state, combat.target),
            "defender": None if combat.defender is None else ref(state, combat.defender),
            "intercepted": combat.intercepted,
            "schedule": [[list(step) for step in exchange] for exchange in combat.schedule],
            "exchange": combat.exchange}


# ---- load ---------------------------------------------------------------------------------------------------------


def load(doc: Mapping[str, Any], cards: Mapping[str, Any], rng: random.Random) -> HagmiState:
    """The HagmiState of position `doc` (cards: code -> catalog card), with `rng` as its generator."""
    need_object(doc, "", TOP_KEYS)
    if "list" in doc and not isinstance(doc["list"], Mapping):
        raise PositionError("list", "expected a hangar.list/1 document (an object)")
    options = _options(doc.get("options", {}))
    opponent = _opponent(doc.get("opponent", {"kind": "goldfish"}), cards)
    try:
        game = HagmiGame(EMPTY_LIST, cards, opponent, options)
    except CardDataError as error:
        raise PositionError("opponent.mothership", str(error)) from None
    except ValueError as error:  # opening_split, or first_player in 機獣討滅戦線: the message names the option
        name = str(error).split('"')[1] if str(error).startswith('option "') else "opening_split"
        raise PositionError(f"options.{name}", str(error)) from None
    # A new game of empty decks (its set-up uses a generator of its own), then every field from the document.
    state = HagmiState(game, random.Random(0))
    state.rng, state.events, state._legal = rng, EventLog(), None
    sides = doc.get("sides")
    if not isinstance(sides, list) or len(sides) != 2:
        raise PositionError("sides", "expected a list of two sides, player 0 first")
    reader = CardReader(game, cards, max_explicit_uid([sides, doc.get("combat"), doc.get("beast_queue")]) + 1)
    beasts = state.beasts
    presences: list[tuple[Unit, bool]] = []
    players: list[Player] = []
    for index in range(2):
        if beasts is not None and index == beasts.index:
            players.append(_beast_side(reader, sides[index], f"sides[{index}]", beasts, presences))
        else:
            kind = "deck" if index == 0 else str(opponent["kind"])
            players.append(_player(reader, sides[index], f"sides[{index}]", index, kind, presences))
    state.players, state.cards = players, reader.card_list()
    state.presence_counter = _presences(doc, presences)
    _turn(state, doc)
    state.combat = _combat(reader, state, doc.get("combat"))
    state.beast_queue = [_queued(reader, state, value, f"beast_queue[{i}]")
                         for i, value in enumerate(need_list(doc.get("beast_queue", []), "beast_queue"))]
    _check_decision(state, doc)
    return state


def _options(value: Any) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise PositionError("options", f"expected an object, got {shown(value)}")
    for key, given in value.items():
        if key not in DEFAULT_OPTIONS:
            raise PositionError(f"options.{key}", f"unknown option (known: {', '.join(DEFAULT_OPTIONS)})")
        default = DEFAULT_OPTIONS[key]
        if type(given) is not type(default):
            raise PositionError(f"options.{key}", f"expected {type(default).__name__} like {default!r}, got {given!r}")
        if key in CHOICES and given not in CHOICES[key]:  # the engine's choices (game.py CHOICES)
            allowed = ", ".join(str(choice).lower() if isinstance(choice, bool) else str(choice)
                                for choice in CHOICES[key])
            raise PositionError(f"options.{key}", f"expected one of {allowed}, got {given!r}")
        if isinstance(given, int) and not isinstance(given, bool) and given < 0:
            raise PositionError(f"options.{key}", f"expected an integer ≥ 0, got {given}")
    return dict(value)


def _opponent(value: Any, cards: Mapping[str, Any]) -> dict[str, Any]:
    value = need_object(value, "opponent", OPPONENT_KEYS)
    kind = need_choice(value.get("kind"), "opponent.kind", ("goldfish", "deck", "coop"))
    if kind != "coop":
        return {"kind": kind}
    ship = value.get("mothership")
    if not isinstance(ship, str) or ship not in cards:
        raise PositionError("opponent.mothership", f"unknown card code {ship!r}")
    return {"kind": "coop", "mothership": ship}


def _player(reader: CardReader, doc: Any, path: str, index: int, kind: str,
            presences: list[tuple[Unit, bool]]) -> Player:
    doc = need_object(doc, path, PLAYER_KEYS)
    player = Player(index=index, kind=kind)
    for zone in PLAYER_ZONES:
        setattr(player, zone, reader.read_list(doc, zone, path, ZONE_KIND[zone]))
    for i, raw in enumerate(need_list(doc.get("units", []), key_path(path, "units"))):
        unit, given = reader.unit(raw, f"{path}.units[{i}]", index, beast=False)
        player.units.append(unit)
        presences.append((unit, given))
    for zone in TABLE_ZONES:
        setattr(player, zone, reader.read_list(doc, zone, path, ZONE_KIND[zone]))
    player.durability = reader.durability[index]
    player.used = need_strings(doc.get("used", []), key_path(path, "used"))
    return player


def _beast_side(reader: CardReader, doc: Any, path: str, side: BeastSide,
                presences: list[tuple[Unit, bool]]) -> Player:
    """The 機獣 side (H30–H33) into `side`; returns its (empty) player, which keeps once-per-turn keys."""
    doc = need_object(doc, path, BEAST_KEYS)
    ship = side.mothership
    side.cores = need_int(doc.get("cores", ship.cores), key_path(path, "cores"), high=ship.cores)
    for zone in BEAST_ZONES:
        setattr(side, zone, reader.read_list(doc, zone, path, "beast_card"))
    side.beasts = []
    for i, raw in enumerate(need_list(doc.get("beasts", []), key_path(path, "beasts"))):
        unit, given = reader.unit(raw, f"{path}.beasts[{i}]", side.index, beast=True)
        side.beasts.append(unit)
        presences.append((unit, given))
    held = side.cores + sum(unit.cores for unit in side.beasts)
    if held > ship.cores:
        raise PositionError(f"{path}.cores", f"{held} 機獣核 in all (mothership and 機獣) but the mothership "
                                             f"{ship.code} has {ship.cores} (H30)")
    side.appearing = reader.read_list(doc, "appearing", path, "beast_card")
    listed = need_list(doc.get("no_cores", []), key_path(path, "no_cores"))
    no_cores = [reader.find(value, f"{path}.no_cores[{i}]", []) for i, value in enumerate(listed)]
    for i, uid in enumerate(no_cores):
        if uid not in side.appearing:
            raise PositionError(f"{path}.no_cores[{i}]", "only a set-aside (appearing) 機獣 enters without cores (H31)")
    side.no_cores = set(no_cores)
    side.resolving = need_int(doc.get("resolving", 0), key_path(path, "resolving"))
    side.fired = set()
    what = f" (an index of {ship.code}'s attrition abilities)"  # H30
    for i, fired in enumerate(need_list(doc.get("attrition_fired", []), key_path(path, "attrition_fired"))):
        side.fired.add(need_int(fired, f"{path}.attrition_fired[{i}]", 0, len(ship.attrition) - 1, what))
    player = Player(index=side.index, kind="coop")
    player.used = need_strings(doc.get("used", []), key_path(path, "used"))
    return player


def _presences(doc: Mapping[str, Any], presences: list[tuple[Unit, bool]]) -> int:
    """Units without a presence get new ones after the highest given; the counter is at least every presence."""
    top = max((unit.presence for unit, given in presences if given), default=0)
    for unit, given in presences:
        if not given:
            top += 1
            unit.presence = top
    counter = need_int(doc.get("presence_counter", top), "presence_counter")
    if counter < top:
        raise PositionError("presence_counter", f"{counter} is below a unit's presence ({top}): the counter numbers "
                                                "every entry onto the battlefield")
    return counter


def _turn(state: HagmiState, doc: Mapping[str, Any]) -> None:
    state.active = need_int(doc.get("active", 0), "active", high=1)
    state.battle_closed = need_bool(doc.get("battle_closed", False), "battle_closed")
    result = doc.get("result")
    if result is None:
        state.over, state.winner, state.end_reason = False, None, None
    else:
        result = need_object(result, "result", ("winner", "reason"))
        winner = result.get("winner")
        if winner is not None and (isinstance(winner, bool) or not isinstance(winner, int) or winner not in (0, 1)):
            raise PositionError("result.winner", f"expected 0, 1 or null (a draw), got {winner!r}")
        reason = need_choice(result.get("reason"), "result.reason", END_REASONS)
        state.over, state.winner, state.end_reason = True, winner, str(reason)
    limit = int(state.options["max_turns"])
    state.turn = need_int(doc.get("turn", 1), "turn", low=1, high=None if state.over else limit)
    beasts = state.beasts
    if (not state.over and beasts is not None and beasts.cores == 0
            and not any(unit.cores for unit in beasts.beasts)):
        raise PositionError(f"sides[{beasts.index}].cores", "no 機獣核 left on the mothership or any 機獣: the players "
                                                            "have won (H33); give a result")


def _target(reader: CardReader, state: HagmiState, value: Any, path: str) -> Any:
    """A combat target: a card reference (a unit, or a card that was one), ["player", index] or, in 機獣討滅戦線,
    ["mothership", index] (H34)."""
    if isinstance(value, list):
        if (len(value) != 2 or value[0] not in ("player", "mothership") or value[1] not in (0, 1)
                or not isinstance(value[1], int) or isinstance(value[1], bool)):
            raise PositionError(path, f'expected ["player", 0 or 1], ["mothership", 0 or 1] or a card "CODE#UID", '
                                      f'got {value!r}')
        return (str(value[0]), int(value[1]))
    return reader.find(value, path, list(state.all_units()))


def _combat(reader: CardReader, state: HagmiState, value: Any) -> Combat | None:
    if value is None:
        return None
    doc = need_object(value, "combat", COMBAT_KEYS)
    units = list(state.all_units())
    if "attacker" not in doc:
        raise PositionError("combat.attacker", "missing: the attacking unit")
    attacker = reader.find(doc["attacker"], "combat.attacker", units)
    unit = state.find_unit(attacker)
    side = need_int(doc.get("side", unit.owner if unit is not None else state.active), "combat.side", high=1)
    if not state.over and (unit is None or unit.owner != side):
        raise PositionError("combat.attacker", f"not a unit of side {side} on the battlefield: the attacker of a "
                                               "combat in progress")
    targets = need_list(doc.get("targets", []), "combat.targets")
    combat = Combat(attacker=attacker, side=side,
                    targets=[_target(reader, state, v, f"combat.targets[{i}]") for i, v in enumerate(targets)])
    combat.target = _target(reader, state, doc["target"], "combat.target") if doc.get("target") is not None else None
    if doc.get("defender") is not None:
        combat.defender = reader.find(doc["defender"], "combat.defender", units)
    combat.intercepted = need_bool(doc.get("intercepted", False), "combat.intercepted")
    combat.schedule = _schedule(need_list(doc.get("schedule", []), "combat.schedule"))
    combat.exchange = need_int(doc.get("exchange", 0), "combat.exchange")
    return combat


def _schedule(value: list[Any]) -> list[list[list[str]]]:
    """H11: exchanges, each a list of steps, each the sides that hit together ("A" attacker, "D" defender)."""
    schedule = []
    for i, exchange in enumerate(value):
        if not isinstance(exchange, list) or not exchange:
            raise PositionError(f"combat.schedule[{i}]", 'expected a list of steps such as [["A"], ["D"]]')
        steps = []
        for j, step in enumerate(exchange):
            if (not isinstance(step, list) or not step or len(set(step)) != len(step)
                    or any(side not in ("A", "D") for side in step)):
                raise PositionError(f"combat.schedule[{i}][{j}]", f'expected ["A"], ["D"] or ["A", "D"], got {step!r}')
            steps.append(list(step))
        schedule.append(steps)
    return schedule


def _queued(reader: CardReader, state: HagmiState, value: Any, path: str) -> int:
    beasts = state.beasts
    uid = reader.find(value, path, beasts.beasts if beasts is not None else [])
    if beasts is None or state.cards[uid].category != "beast":  # (left over after 照明弾 ends a 機獣 turn, H10)
        raise PositionError(path, "only 機獣 wait to attack (H33): the queue is the 機獣 turn's attackers")
    return uid


def _check_decision(state: HagmiState, doc: Mapping[str, Any]) -> None:
    """The decision and who takes it; a defend or emergency decision needs the attack it belongs to (H10)."""
    value = doc.get("decision")
    if value is None:
        if not state.over:
            raise PositionError("decision", "missing: a game that is not over waits for a decision")
        state.decision = None
        return
    if state.over:
        raise PositionError("decision", "the game is over (result is given): the decision must be null")
    if isinstance(value, str):
        value = {"kind": value}
    value = need_object(value, "decision", ("kind", "player"))
    kind = need_choice(value.get("kind"), "decision.kind", DECISIONS)
    in_combat = kind in ("defend", "emergency")
    combat = state.combat
    deciding = 1 - state.active if in_combat else state.active
    player = need_int(value.get("player", deciding), "decision.player", high=1)
    if not state.decides(player):
        raise PositionError("decision.player", f"player {player} ({state.players[player].kind}) never decides")
    if not in_combat:
        if player != state.active:
            raise PositionError("decision.player", f"a {kind} decision is the active player's ({state.active})")
        if combat is not None:
            raise PositionError("combat", f"an attack is in progress only during a defend or emergency decision, "
                                          f"not {kind}")
    else:
        if combat is None:
            raise PositionError("decision.kind", f"the {kind} decision needs the attack in progress (combat)")
        if combat.target is None:
            raise PositionError("combat.target", f"missing: the target the {kind} decision is about")
        if combat.side != state.active or player != 1 - combat.side:
            raise PositionError("decision.player", f"the attacked player ({1 - combat.side}) decides, and the "
                                                   f"attacker is the active player's ({state.active})")
        if kind == "emergency":
            _emergency_schedule(state, combat, doc)
    state.decision = (str(kind), player)


def _emergency_schedule(state: HagmiState, combat: Combat, doc: Mapping[str, Any]) -> None:
    """An emergency window comes between two exchanges (H10): a hit is left; a missing schedule is H11's."""
    schedule_given = isinstance(doc.get("combat"), Mapping) and "schedule" in doc["combat"]
    attacker, defender = state.find_unit(combat.attacker), state.find_unit(combat.defender)
    if not schedule_given and attacker is not None:
        a_hits = state.cards[attacker.uid].hits
        d_hits = state.cards[defender.uid].hits if defender is not None else 0
        first = first_to_hit(state, attacker, defender) if defender is not None else "A"
        combat.schedule = build_schedule(a_hits, d_hits, first)
    if combat.exchange >= len(combat.schedule):
        raise PositionError("combat.exchange", f"exchange {combat.exchange} of {len(combat.schedule)}: an "
                                               "emergency window needs a hit still to come (H10)")
