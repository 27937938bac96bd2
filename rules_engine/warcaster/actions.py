"""The actions of a Warcaster game (W10), one typed record per kind.

Each record is a `typing.NamedTuple` whose first field `kind` is the action's name: a record equals, hashes,
sorts and serialises to JSON exactly like the bare tuple it stands for (`Attack("attack", 3, 1) ==
("attack", 3, 1)`), so stored replays and the same-games fingerprints do not depend on which one is used. The
engine builds them with the constructor functions below (`attack(3, 1)`), which hand out one shared record per
distinct action: a record is immutable and equal by value, and making a tuple subclass instance costs several
times a bare tuple (`tuple.__new__`, a GC-tracked subtype object): made anew for every legal-action listing they
cost 7 % of a compiled game (callgrind, issue 16); looked up, under 1 %. A phase with a single legal action is played
automatically.

W10 phase 2, charging:
- `Charge("charge", holder, uid)`: 1 arc from the pool onto a unit (`holder` "unit") or a gate ("gate");
- `Recall("recall", holder, uid)`: all the arc of that unit or gate back to the pool;
- `PASS` (`Pass("pass")`): no more charging.

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

from typing import Final, NamedTuple, Union


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


_CHARGE: Final[dict[tuple[str, str, int], Charge]] = {}


def charge(holder: str, uid: int) -> Charge:
    key = ("charge", holder, uid)
    found = _CHARGE.get(key)
    if found is None:
        found = _CHARGE[key] = _NEW(Charge, key)
    return found


_RECALL: Final[dict[tuple[str, str, int], Recall]] = {}


def recall(holder: str, uid: int) -> Recall:
    key = ("recall", holder, uid)
    found = _RECALL.get(key)
    if found is None:
        found = _RECALL[key] = _NEW(Recall, key)
    return found


_PLAY_CYPHER: Final[dict[tuple[str, str, int | None], PlayCypher]] = {}


def play_cypher(code: str, choice: int | None) -> PlayCypher:
    key = ("cypher", code, choice)
    found = _PLAY_CYPHER.get(key)
    if found is None:
        found = _PLAY_CYPHER[key] = _NEW(PlayCypher, key)
    return found


_ACTIVATE: Final[dict[tuple[str, int], Activate]] = {}


def activate(unit: int) -> Activate:
    key = ("activate", unit)
    found = _ACTIVATE.get(key)
    if found is None:
        found = _ACTIVATE[key] = _NEW(Activate, key)
    return found


_MOVE: Final[dict[tuple[str, str], Move]] = {}


def move(mode: str) -> Move:
    key = ("move", mode)
    found = _MOVE.get(key)
    if found is None:
        found = _MOVE[key] = _NEW(Move, key)
    return found


_ATTACK: Final[dict[tuple[str, int, int], Attack]] = {}


def attack(target_unit: int, arc: int) -> Attack:
    key = ("attack", target_unit, arc)
    found = _ATTACK.get(key)
    if found is None:
        found = _ATTACK[key] = _NEW(Attack, key)
    return found


_USE_ABILITY: Final[dict[tuple[str, int, int, int | None], UseAbility]] = {}


def use_ability(model: int, ability: int, choice: int | None) -> UseAbility:
    key = ("ability", model, ability, choice)
    found = _USE_ABILITY.get(key)
    if found is None:
        found = _USE_ABILITY[key] = _NEW(UseAbility, key)
    return found


_DEPLOY: Final[dict[tuple[str, int, int], Deploy]] = {}


def deploy(unit: int, gate: int) -> Deploy:
    key = ("deploy", unit, gate)
    found = _DEPLOY.get(key)
    if found is None:
        found = _DEPLOY[key] = _NEW(Deploy, key)
    return found


_PLACE_GATE: Final[dict[tuple[str, int], PlaceGate]] = {}


def place_gate(spot: int) -> PlaceGate:
    key = ("gate", spot)
    found = _PLACE_GATE.get(key)
    if found is None:
        found = _PLACE_GATE[key] = _NEW(PlaceGate, key)
    return found


_DISCARD: Final[dict[tuple[str, str], Discard]] = {}


def discard(code: str) -> Discard:
    key = ("discard", code)
    found = _DISCARD.get(key)
    if found is None:
        found = _DISCARD[key] = _NEW(Discard, key)
    return found
