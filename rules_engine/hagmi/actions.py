"""HAGMI! actions as typed records: one NamedTuple per action kind (RULES.md §1.3–§1.5, H10, H20–H24).

The first field, `kind`, is the action's name, the others its choices in a fixed order, so a record equals,
hashes, sorts and JSON-serialises exactly like the bare tuple it stands for (`Play("play", 3, (5,), None) ==
("play", 3, (5,), None)`): the stored replays, the same-games fingerprints and tests comparing bare tuples keep
working. `state.legal_actions()` lists them in a fixed order and `state.describe(action)` says one in words.

Main phase (`decision` "main"):

- `Play("play", card, payment, target)`: play a card from hand (or a 秘策 card usable from 秘策, H20) paying
  `payment` (hand card uids; a unit's payment becomes its 燃料). `target`: a unit uid, None, a
  (source unit uid, refit card uid) pair for a refit (改装, H21, H22), or the unit card to put onto the
  battlefield for 緊急生産.
- `UseSkill("skill", card, skill_index, target)`: a `main` skill of a unit or facility (`skill_index` into the
  card's skills), with its chosen target, a (source unit uid, refit card uid) pair for a refit skill (H22: a
  unit that refits itself, 「改装元カード」が改装する能力), or None.
- `UseHidden("hidden", unit, target)`: a design unit's 秘匿機構 (H24).
- `ProduceDesign("design", design, materials)`: produce a 設計兵装 from 秘策 with these material units (H23).
- `BATTLE` = `Battle("battle")`: go to the battle phase.

Battle phase (`decision` "battle"):

- `Attack("attack", unit, targets)`: the unit attacks these targets in order (unit uids, ("player", index) or,
  in 機獣討滅戦線, ("mothership", index): H34).
- `END` = `EndBattle("end")`: end the battle phase and the turn.

Defence (`decision` "defend", the attacked player):

- `COUNTER` = `Counter("counter",)`: the attacked unit counters (反撃).
- `Intercept("intercept", unit)`: another unit intercepts (守護).
- `NO_DEFEND` = `NoDefend("no_defend",)`: no defence.

Emergency window 緊急 (`decision` "emergency", the attacked player, before the first hit and between two, H10):

- `Play("play", card, payment, target)`: an emergency card, as above.
- `UseSkill("skill", card, skill_index, target)`: a 緊急 skill of a unit (not ダウン), its armament or a facility
  of the attacked player on the battlefield, as above (once per window; `once_per_turn` as the card says).
- `PASS` = `Pass("pass",)`: let the hits go on.

A target ("player", index) stands for a player, ("mothership", index) for the 機獣 side's mothership (母艦, H34). Payments are listed without duplicates (cards of the same code
are interchangeable) and at most `max_payment_options` per card, cheapest cards first; target lists (a card's
targets, a multi-N attack's target sets) are cut at `max_target_options`.

The constructor functions (`play`, `attack`, ...) build a record without the NamedTuple's Python-level `__new__`
(the engine's hot code lists hundreds of actions a game); the classes are for reading and for tests.
"""
from __future__ import annotations

from typing import Any, Final, NamedTuple, Sequence, Union


class Play(NamedTuple):
    kind: str
    card: int
    payment: tuple[int, ...]
    target: Any


class UseSkill(NamedTuple):
    kind: str
    card: int
    skill_index: int
    target: Any


class UseHidden(NamedTuple):
    kind: str
    unit: int
    target: Any


class ProduceDesign(NamedTuple):
    kind: str
    design: int
    materials: tuple[int, ...]


class Battle(NamedTuple):
    kind: str


class Attack(NamedTuple):
    kind: str
    unit: int
    targets: tuple[Any, ...]


class EndBattle(NamedTuple):
    kind: str


class Counter(NamedTuple):
    kind: str


class Intercept(NamedTuple):
    kind: str
    unit: int


class NoDefend(NamedTuple):
    kind: str


class Pass(NamedTuple):
    kind: str


Action = Union[Play, UseSkill, UseHidden, ProduceDesign, Battle, Attack, EndBattle, Counter, Intercept, NoDefend, Pass]

BATTLE: Final = Battle("battle")
END: Final = EndBattle("end")
COUNTER: Final = Counter("counter")
NO_DEFEND: Final = NoDefend("no_defend")
PASS: Final = Pass("pass")


def play(card: int, payment: tuple[int, ...], target: Any) -> Play:
    return tuple.__new__(Play, ("play", card, payment, target))


def use_skill(card: int, skill_index: int, target: Any) -> UseSkill:
    return tuple.__new__(UseSkill, ("skill", card, skill_index, target))


def use_hidden(unit: int, target: Any) -> UseHidden:
    return tuple.__new__(UseHidden, ("hidden", unit, target))


def produce_design(design: int, materials: tuple[int, ...]) -> ProduceDesign:
    return tuple.__new__(ProduceDesign, ("design", design, materials))


def attack(unit: int, targets: tuple[Any, ...]) -> Attack:
    return tuple.__new__(Attack, ("attack", unit, targets))


def intercept(unit: int) -> Intercept:
    return tuple.__new__(Intercept, ("intercept", unit))


def describe(cards: Sequence[Any], action: Any) -> str:
    """An action in words: cards by name (`cards`: the state's cards by uid), a refit pair as "refit A into B",
    a player as "player N", a skill by its kind."""
    def name(uid: Any) -> str:
        return str(cards[uid].name) if isinstance(uid, int) else repr(uid)

    def words(target: Any) -> str:
        if isinstance(target, int):
            return name(target)
        if isinstance(target, tuple) and len(target) == 2 and target[0] == "player":
            return f"player {target[1]}"
        if isinstance(target, tuple) and len(target) == 2 and target[0] == "mothership":
            return "the mothership"  # 母艦 (H34)
        if isinstance(target, tuple) and len(target) == 2 and all(isinstance(x, int) for x in target):
            return f"refit {name(target[0])} into {name(target[1])}"  # 改装 (H22)
        return "" if target is None else repr(target)

    kind = action[0]
    if kind == "play":
        text = f"play {name(action[1])}"
        if action[2]:
            text += " paying " + ", ".join(name(uid) for uid in action[2])
        target = words(action[3])
        return f"{text}: {target}" if target else text
    if kind in ("skill", "hidden"):
        card = cards[action[1]]
        skill = card.skills[action[2]].kind if kind == "skill" else "秘匿機構"
        target = words(action[-1])
        return f"use {name(action[1])}'s skill {skill}" + (f": {target}" if target else "")
    if kind == "design":
        return f"produce {name(action[1])} from " + ", ".join(name(uid) for uid in action[2])
    if kind == "attack":
        return f"attack with {name(action[1])}: " + ", ".join(words(target) for target in action[2])
    if kind == "intercept":
        return f"intercept with {name(action[1])}"
    return str(kind)
