"""The actions of a MechWarrior: Dark Age battle, as typed records.

Each record is a `typing.NamedTuple` whose first field `kind` is the action's name, so it equals, hashes, sorts
and serialises to JSON exactly like the bare tuple it stands for (`Shoot("shoot", 3, 7, 0) == ("shoot", 3, 7, 0)`):
the same-games fingerprints and stored replays do not see the difference, and tests may compare with bare tuples.
`MwdaState.legal_actions()` lists them in a fixed order: `PASS`, then for each unit that may be ordered (M10/M11)
its vent, shoot, close, charge, dfa, move and advance actions.

- `Pass` ("pass",) — give no more orders this turn (the turn also ends by itself when the orders are used up or
  no unit can be ordered);
- `Vent` ("vent", uid) — 冷却: a mech removes `vent` heat clicks; an order, but no action token (M10, M17);
- `Move` ("move", uid, toward, run) — move towards enemy `toward` to the unit's best range (primary max range −
  ½″), or away from the nearest enemy when `toward` is -1; `run` doubles the allowance (M13); breakaway first (M14);
- `Advance` ("advance", uid, toward, run) — the move order (M13) to the edge of enemy `toward`'s reach: towards it
  (or back from it) to stand ½″ outside the longest max range of its weapons, or its move allowance when that is
  longer and it can charge (`Table.reach`); offered when that place differs from the `Move`'s; logged as a move;
- `Shoot` ("shoot", uid, target, weapon) — ranged attack, weapon 0 primary / 1 secondary (M15, M16);
- `Close` ("close", uid, target) — close combat 白兵戦 against an enemy in base contact (M16);
- `Charge` ("charge", uid, target) — 突撃: move up to the move allowance into base contact, then close combat;
- `Dfa` ("dfa", uid, target) — 急降下攻撃 (jump units): land in base contact over anything, close combat with
  +`dfa_damage_bonus` damage; on a miss the attacker takes `dfa_miss_damage`.

`uid` is the ordered unit's and `target`/`toward` an enemy's index in `state.units` (fewer than 2²⁰ units). The
engine builds records with the constructor functions below (`shoot(uid, target, weapon)`, ...); `record` turns a
bare tuple into its record.
"""
from __future__ import annotations

from typing import Any, Final, NamedTuple, Union, cast


class Pass(NamedTuple):
    kind: str  # "pass"


class Vent(NamedTuple):
    kind: str  # "vent"
    uid: int


class Move(NamedTuple):
    kind: str  # "move"
    uid: int
    toward: int  # an enemy's uid, or -1: away from the nearest enemy
    run: bool


class Advance(NamedTuple):
    kind: str  # "advance"
    uid: int
    toward: int  # an enemy's uid
    run: bool


class Shoot(NamedTuple):
    kind: str  # "shoot"
    uid: int
    target: int
    weapon: int  # 0 primary, 1 secondary


class Close(NamedTuple):
    kind: str  # "close"
    uid: int
    target: int


class Charge(NamedTuple):
    kind: str  # "charge"
    uid: int
    target: int


class Dfa(NamedTuple):
    kind: str  # "dfa"
    uid: int
    target: int


PASS: Final = Pass("pass")


# The constructors the engine uses. A record is made once per distinct action and kept (records never change; an
# army has at most a few hundred units): calling a NamedTuple class runs its Python-level `__new__`, and even
# `tuple.__new__` builds the tuple twice, both slow in the hot legal-action loop, where a dict lookup by an int key
# is as cheap as the bare tuple was (and a record found again is the same object, which `list.index` finds first).
_VENTS: Final[dict[int, Vent]] = {}
_MOVES: Final[dict[int, Move]] = {}
_ADVANCES: Final[dict[int, Advance]] = {}
_SHOOTS: Final[dict[int, Shoot]] = {}
_CLOSES: Final[dict[int, Close]] = {}
_CHARGES: Final[dict[int, Charge]] = {}
_DFAS: Final[dict[int, Dfa]] = {}


def vent(uid: int) -> Vent:
    found = _VENTS.get(uid)
    if found is None:
        found = _VENTS[uid] = tuple.__new__(Vent, ("vent", uid))
    return found


def move(uid: int, toward: int, run: bool) -> Move:
    key = (uid << 21) | ((toward + 1) << 1) | run  # toward ≥ -1
    found = _MOVES.get(key)
    if found is None:
        found = _MOVES[key] = tuple.__new__(Move, ("move", uid, toward, run))
    return found


def advance(uid: int, toward: int, run: bool) -> Advance:
    key = (uid << 21) | (toward << 1) | run
    found = _ADVANCES.get(key)
    if found is None:
        found = _ADVANCES[key] = tuple.__new__(Advance, ("advance", uid, toward, run))
    return found


def shoot(uid: int, target: int, weapon: int) -> Shoot:
    key = (uid << 21) | (target << 1) | weapon  # weapon 0 or 1
    found = _SHOOTS.get(key)
    if found is None:
        found = _SHOOTS[key] = tuple.__new__(Shoot, ("shoot", uid, target, weapon))
    return found


def close(uid: int, target: int) -> Close:
    key = (uid << 20) | target
    found = _CLOSES.get(key)
    if found is None:
        found = _CLOSES[key] = tuple.__new__(Close, ("close", uid, target))
    return found


def charge(uid: int, target: int) -> Charge:
    key = (uid << 20) | target
    found = _CHARGES.get(key)
    if found is None:
        found = _CHARGES[key] = tuple.__new__(Charge, ("charge", uid, target))
    return found


def dfa(uid: int, target: int) -> Dfa:
    key = (uid << 20) | target
    found = _DFAS.get(key)
    if found is None:
        found = _DFAS[key] = tuple.__new__(Dfa, ("dfa", uid, target))
    return found


Order = Union[Vent, Move, Advance, Shoot, Close, Charge, Dfa]  # an order to one unit (`uid`)
Attack = Union[Shoot, Close, Charge, Dfa]  # an order that attacks `target`
Action = Union[Pass, Order]

_RECORDS: Final[dict[str, Any]] = {"pass": Pass, "vent": Vent, "move": Move, "advance": Advance, "shoot": Shoot,
                                    "close": Close, "charge": Charge, "dfa": Dfa}


def record(action: tuple) -> Action:
    """The record equal to `action` (a bare tuple, e.g. from a stored replay or a test); ValueError if its kind is
    unknown or its length wrong."""
    if isinstance(action, (Pass, Vent, Move, Advance, Shoot, Close, Charge, Dfa)):
        return action
    kind = action[0] if action else None
    cls = _RECORDS.get(kind) if isinstance(kind, str) else None
    if cls is None or len(action) != len(cls._fields):
        raise ValueError(f"not an MWDA action: {action!r}")
    return cast(Action, tuple.__new__(cls, action))
