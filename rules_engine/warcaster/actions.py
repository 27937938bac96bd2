"""The actions of a Warcaster game (W10), one typed record per kind.

Each record is a `typing.NamedTuple` whose first field `kind` is the action's name: a record equals, hashes,
sorts and serialises to JSON exactly like the bare tuple it stands for (`Attack("attack", 3, 1) ==
("attack", 3, 1)`), so stored replays and the same-games fingerprints do not depend on which one is used. The
engine builds them with the constructor functions below (`attack(3, 1)`), which hand out one shared record per
distinct action: a record is immutable and equal by value, and making a tuple subclass instance costs several
times a bare tuple (`tuple.__new__`, a GC-tracked subtype object): made anew for every legal-action listing they
cost 7 % of a compiled game (callgrind). The shared records are kept in lists indexed by the actions'
uids (a dict keyed by the whole tuple cost as much again in hashing); uids are small and per game, so the lists
stay short. A phase with a single legal action is played
automatically.

W10 phase 2, charging (charging.py): either one charge or any amount of recalls, from several holders:
- `Charge("charge", holder, uid)`: 1 arc from the pool onto a unit (`holder` "unit") or a gate ("gate"); it ends
  the phase;
- `Recall("recall", holder, uid, amount)`: `amount` arc of that unit or gate back to the pool (option
  `charging_recall` "any": 1 arc, and the phase goes on to recall more, from the same holder or another, until
  `END`; "one_holder": all its arc, and the phase ends);
- `PASS` (`Pass("pass")`): charge nothing and recall nothing;
- `END` (`End("end")`), once a recall is made: no more recalling.

W10 phases 3 and 5, cyphers:
- `PlayCypher("cypher", code, choice)`: play a cypher of the hand; `choice` is the chosen model's uid, the arc
  node's uid (area and self cyphers), or None;
- `PASS`.

W10 phase 4, activation (then the extra solo, with the same actions):
- `Activate("activate", unit)`: activate that unit (in the solo phase: a solo);
- `PASS`: activate no (more) unit;
- then `Move("move", mode)`, mode one of `MOVE_MODES`: "advance" (towards the nearest enemy), "objective"
  (towards the centre) or "hold" (the only one when the unit cannot move);
- then `Attack("attack", target_unit, arc)`: every model of the unit attacks the target unit, `arc` buying power
  dice for the first attack (W11); `UseAbility("ability", model, ability, choice)`: that model's ability number
  `ability` at the chosen model (or None); `WAIT` (`Wait("wait")`): no attack.

W10 phase 6, deployment:
- `Deploy("deploy", unit, gate)`: deploy a reserve unit through one of the player's gates, paying its CST from
  the gate's arc;
- `END` (`End("end")`): no more deployment.

W10 phase 7, gate placement:
- `PlaceGate("gate", spot)`: place a void gate on spot number `spot` of `gate_spots`;
- `PASS`.

W10 phase 8, discard:
- `Discard("discard", code)`: discard a cypher with that code;
- `PASS` (not while the hand is above its limit).
"""
from __future__ import annotations

from typing import Any, Final, NamedTuple, Union


class Pass(NamedTuple):
    kind: str


class Charge(NamedTuple):
    kind: str
    holder: str  # "unit" | "gate"
    uid: int


class Recall(NamedTuple):
    kind: str
    holder: str  # "unit" | "gate"
    uid: int
    amount: int  # arc recalled (回収)


class PlayCypher(NamedTuple):
    kind: str
    code: str
    choice: int | None


class Activate(NamedTuple):
    kind: str
    unit: int


class Move(NamedTuple):
    kind: str
    mode: str  # one of MOVE_MODES


class Attack(NamedTuple):
    kind: str
    target_unit: int
    arc: int


class UseAbility(NamedTuple):
    kind: str
    model: int
    ability: int  # its index in the model's abilities (not `index`: tuple.index)
    choice: int | None


class Wait(NamedTuple):
    kind: str


class Deploy(NamedTuple):
    kind: str
    unit: int
    gate: int


class End(NamedTuple):
    kind: str


class PlaceGate(NamedTuple):
    kind: str
    spot: int


class Discard(NamedTuple):
    kind: str
    code: str


Action = Union[Pass, Charge, Recall, PlayCypher, Activate, Move, Attack, UseAbility, Wait, Deploy, End, PlaceGate,
               Discard]

MOVE_MODES: Final = ("advance", "objective", "hold")
_NEW: Final = tuple.__new__

PASS: Final = Pass("pass")
WAIT: Final = Wait("wait")
END: Final = End("end")


def _in_row(row: list[Any], index: int) -> bool:
    return 0 <= index < len(row)


def _row_of(rows: list[list[Any]], index: int) -> list[Any]:
    """Row `index` of a cache (made, with the rows before it, on first use; index ≥ 0)."""
    while len(rows) <= index:
        rows.append([])
    return rows[index]


_CHARGE: Final[list[list[Charge]]] = [[], []]  # by holder (0: unit, 1: gate), then by uid
_RECALL: Final[list[list[list[Recall]]]] = [[], []]  # by holder, then by uid, then by amount


def charge(holder: str, uid: int) -> Charge:
    if holder == "unit":
        row = _CHARGE[0]
    elif holder == "gate":
        row = _CHARGE[1]
    else:
        return _NEW(Charge, ("charge", holder, uid))
    if _in_row(row, uid):
        return row[uid]
    if uid < 0:
        return _NEW(Charge, ("charge", holder, uid))
    while len(row) <= uid:
        row.append(_NEW(Charge, ("charge", holder, len(row))))
    return row[uid]


def recall(holder: str, uid: int, amount: int) -> Recall:
    if holder == "unit":
        rows = _RECALL[0]
    elif holder == "gate":
        rows = _RECALL[1]
    else:
        return _NEW(Recall, ("recall", holder, uid, amount))
    if uid < 0 or amount < 0:
        return _NEW(Recall, ("recall", holder, uid, amount))
    row = _row_of(rows, uid)
    while len(row) <= amount:
        row.append(_NEW(Recall, ("recall", holder, uid, len(row))))
    return row[amount]


_PLAY_CYPHER: Final[dict[str, list[PlayCypher]]] = {}  # by code, then by choice + 1 (None: 0)


def play_cypher(code: str, choice: int | None) -> PlayCypher:
    index = 0 if choice is None else choice + 1
    row = _PLAY_CYPHER.get(code)
    if row is None:
        row = _PLAY_CYPHER[code] = [_NEW(PlayCypher, ("cypher", code, None))]
    if _in_row(row, index):
        return row[index]
    if index < 0:
        return _NEW(PlayCypher, ("cypher", code, choice))
    while len(row) <= index:
        row.append(_NEW(PlayCypher, ("cypher", code, len(row) - 1)))
    return row[index]


_ACTIVATE: Final[list[Activate]] = []


def activate(unit: int) -> Activate:
    row = _ACTIVATE
    if _in_row(row, unit):
        return row[unit]
    if unit < 0:
        return _NEW(Activate, ("activate", unit))
    while len(row) <= unit:
        row.append(_NEW(Activate, ("activate", len(row))))
    return row[unit]


_MOVE: Final[dict[str, Move]] = {mode: Move("move", mode) for mode in MOVE_MODES}


def move(mode: str) -> Move:
    found = _MOVE.get(mode)
    return _NEW(Move, ("move", mode)) if found is None else found


_ATTACK: Final[list[list[Attack]]] = []  # by target unit, then by arc


def attack(target_unit: int, arc: int) -> Attack:
    if target_unit < 0 or arc < 0:
        return _NEW(Attack, ("attack", target_unit, arc))
    row = _row_of(_ATTACK, target_unit)
    while len(row) <= arc:
        row.append(_NEW(Attack, ("attack", target_unit, len(row))))
    return row[arc]


_USE_ABILITY: Final[list[list[list[UseAbility]]]] = []  # by model, then ability, then choice + 1 (None: 0)


def use_ability(model: int, ability: int, choice: int | None) -> UseAbility:
    index = 0 if choice is None else choice + 1
    if model < 0 or ability < 0 or index < 0:
        return _NEW(UseAbility, ("ability", model, ability, choice))
    abilities = _row_of(_USE_ABILITY, model)
    while len(abilities) <= ability:
        abilities.append([])
    row = abilities[ability]
    if not row:
        row.append(_NEW(UseAbility, ("ability", model, ability, None)))
    while len(row) <= index:
        row.append(_NEW(UseAbility, ("ability", model, ability, len(row) - 1)))
    return row[index]


_DEPLOY: Final[list[list[Deploy]]] = []  # by unit, then by gate


def deploy(unit: int, gate: int) -> Deploy:
    if unit < 0 or gate < 0:
        return _NEW(Deploy, ("deploy", unit, gate))
    row = _row_of(_DEPLOY, unit)
    while len(row) <= gate:
        row.append(_NEW(Deploy, ("deploy", unit, len(row))))
    return row[gate]


_PLACE_GATE: Final[list[PlaceGate]] = []


def place_gate(spot: int) -> PlaceGate:
    row = _PLACE_GATE
    if _in_row(row, spot):
        return row[spot]
    if spot < 0:
        return _NEW(PlaceGate, ("gate", spot))
    while len(row) <= spot:
        row.append(_NEW(PlaceGate, ("gate", len(row))))
    return row[spot]


_DISCARD: Final[dict[str, Discard]] = {}


def discard(code: str) -> Discard:
    found = _DISCARD.get(code)
    if found is None:
        found = _DISCARD[code] = _NEW(Discard, ("discard", code))
    return found
