"""The pieces of a Warcaster game (`Model`, `Unit`, `Gate`, `Side`) and `Table`, which holds them and answers the
questions about them.

`Table` holds everything on and off the table (units, models, gates, arc pools, cypher decks), the event log and
the game's own `random.Random`, and the queries the rules ask: what is on the table (cached), edge-to-edge gaps,
the nearest model, a model's current stat with auras and continuous effects (W15), what system failure blocks
(W15), a unit's arc limit; plus the primitive everything uses, `log`. `WarcasterState` (game.py) is a `Table` with the turn
flow; the rules (combat.py, cyphers.py, movement.py, deployment.py) are functions of it.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules_engine.core.events import EventLog
from rules_engine.warcaster.geometry import Disc, norm
from rules_engine.warcaster.models import CypherSpec, ModelSpec, UnitSpec



@dataclass(slots=True)
class Model:
    uid: int
    unit: int
    player: int
    spec: ModelSpec
    health: int
    x: float = -1.0
    y: float = -1.0
    alive: bool = True
    effects: dict[str, int] = field(default_factory=dict)  # W15: effect → 1 (system_failure: 1 melee / 2 ranged blocked)
    mods: list[tuple[str, int, str]] = field(default_factory=list)  # (stat, amount, "turn" | "round")
    shield: int = 0

    @property
    def disc(self) -> Disc:
        return self.x, self.y, self.spec.radius


@dataclass(slots=True)
class Unit:
    uid: int
    player: int
    spec: UnitSpec
    models: list[Model]
    status: str = "reserve"  # "reserve" | "board" | "destroyed"
    arc: int = 0
    activated: bool = False
    lockdown: bool = False  # W15: the unit's SPD −2
    alive_cache: list[Model] | None = field(default=None, repr=False, compare=False)

    @property
    def alive_models(self) -> list[Model]:
        """Its living models: a shared list, kept until one dies (`forget_alive`); never mutate it."""
        found = self.alive_cache
        if found is None:
            found = self.alive_cache = [m for m in self.models if m.alive]
        return found

    def forget_alive(self) -> None:
        self.alive_cache = None


@dataclass(slots=True)
class Gate:
    uid: int
    player: int
    x: float
    y: float
    arc: int = 0


@dataclass(slots=True)
class Side:
    player: int
    goldfish: bool
    units: list[int]
    pool: int  # arc not on the table
    deck: list[CypherSpec]
    hand: list[CypherSpec] = field(default_factory=list)
    discard: list[CypherSpec] = field(default_factory=list)
    gates: list[Gate] = field(default_factory=list)
    vp: int = 0

    def take_from_hand(self, code: str) -> CypherSpec:
        """Take the first card with this code out of the hand (by position: `list.remove` would compare the
        frozen cards field by field)."""
        for index, cypher in enumerate(self.hand):
            if cypher.code == code:
                del self.hand[index]
                return cypher
        raise ValueError(f"player {self.player} holds no cypher {code!r}")


class Table:
    """Units, models, gates, arc and cyphers of both sides, plus the log and the rng, and the queries about them."""

    def __init__(self, options: dict[str, Any], rng: random.Random, copy_of: Table | None = None) -> None:
        """An empty table; or, with `copy_of`, a copy of that one's pieces (immutable specs and events shared)."""
        self.options = options  # a plain dict (WarcasterGame.options): read on every attack and listing
        self.rng = rng
        self.events = EventLog()
        self.turn = 0
        self.round = 1
        self.player = 0
        self.units: list[Unit] = []
        self.models: list[Model] = []
        self.sides: list[Side] = []
        self.size = float(options["table_size"])
        self.centre = (self.size / 2, self.size / 2)
        self._board_cache: tuple[list[Model], ...] | None = None  # both, player 0, player 1, arc nodes 0, 1
        self._aura_bearers: list[list[Model]] = [[], []]
        self._gaps: dict[tuple[int, int], float] = {}
        # While frozen (`freeze`): by model uid, that model's stats worked out so far (None: none yet).
        self._stats: list[dict[str, int] | None] | None = None
        self._set_aside: list[dict[str, int] | None] | None = None
        self.memo: dict[Any, Any] | None = None  # a policy's derived values while frozen
        source = copy_of
        if source is None:
            return
        self.events = source.events.copy()
        self.turn, self.round, self.player = source.turn, source.round, source.player
        self.models = [Model(m.uid, m.unit, m.player, m.spec, m.health, m.x, m.y, m.alive, dict(m.effects),
                             list(m.mods), m.shield) for m in source.models]
        self.units = [Unit(u.uid, u.player, u.spec, [self.models[m.uid] for m in u.models], u.status, u.arc,
                           u.activated, u.lockdown) for u in source.units]
        self.sides = [Side(s.player, s.goldfish, list(s.units), s.pool, list(s.deck), list(s.hand), list(s.discard),
                           [Gate(g.uid, g.player, g.x, g.y, g.arc) for g in s.gates], s.vp) for s in source.sides]
        self.index_auras()

    # --- logging
    def log(self, kind: str, player: int | None, data: dict[str, Any]) -> None:
        """Log an event of `player` (None: the player whose turn it is), ~450 a game (EventLog.record)."""
        self.events.record(kind, self.turn, self.player if player is None else player, data)

    def log_game(self, kind: str, data: dict[str, Any]) -> None:
        """Log an event of the game itself (player null): setup, round end, game over."""
        self.events.record(kind, self.turn, None, data)

    # --- queries
    def on_board(self, player: int | None = None) -> list[Model]:
        """Living models on the table (of one player, or both). A shared, cached list: never mutate it."""
        cache = self._board_cache or self._fill_board_cache()
        return cache[0] if player is None else cache[player + 1]

    def arc_nodes(self, player: int) -> list[Model]:
        """A player's living arc nodes (アークノード) on the table. Shared and cached like `on_board`."""
        cache = self._board_cache or self._fill_board_cache()
        return cache[player + 3]

    def _fill_board_cache(self) -> tuple[list[Model], ...]:
        both = [m for m in self.models if m.alive and self.units[m.unit].status == "board"]
        sides = [m for m in both if m.player == 0], [m for m in both if m.player == 1]
        nodes = [m for m in sides[0] if m.spec.arc_node], [m for m in sides[1] if m.spec.arc_node]
        self._board_cache = (both, *sides, *nodes)
        return self._board_cache

    def invalidate(self) -> None:
        """Forget the cached table contents (after a model dies, moves, or is deployed or set up by hand)."""
        self._board_cache = None
        self._gaps = {}
        for unit in self.units:
            unit.forget_alive()

    def gap_between(self, a: Model, b: Model) -> float:
        """Edge-to-edge distance of two models, cached until a model moves (`invalidate`)."""
        key = (a.uid, b.uid)
        found = self._gaps.get(key)
        if found is None:
            found = self._gaps[key] = max(0.0, norm(a.x - b.x, a.y - b.y) - a.spec.radius - b.spec.radius)
        return found

    def units_on_board(self, player: int) -> list[Unit]:
        return [self.units[u] for u in self.sides[player].units if self.units[u].status == "board"]

    def reserves(self, player: int) -> list[Unit]:
        return [self.units[u] for u in self.sides[player].units if self.units[u].status == "reserve"]

    def arc_limit(self, unit: Unit) -> int:
        if unit.spec.kind == "hero":
            return unit.spec.max_foc
        return int(self.options["unit_arc_limit"])

    # --- a still table, for policies
    def freeze(self) -> None:
        """A policy is about to weigh the legal actions, and nothing on the table changes until `thaw`: each stat
        is worked out once, and the policy may keep its own derived values in `memo`."""
        self._stats, self.memo = [None] * len(self.models), {}

    def previewing(self, on: bool) -> None:
        """While a policy previews a move (movement.preview, `on`): stats are worked out afresh, not remembered
        (auras depend on where models stand); after it (not `on`), the remembered ones are back."""
        if on:
            self._set_aside, self._stats = self._stats, None
        else:
            self._stats, self._set_aside = self._set_aside, None

    def thaw(self) -> None:
        """Forget what `freeze` remembered, so no action is ever applied with a stale value."""
        self._stats = self.memo = None

    def stat(self, model: Model, name: str, *, ignore_cover: bool = False) -> int:
        """A model's current stat: printed + static self mods + auras + temporary mods + continuous effects."""
        stats = self._stats
        if stats is None or ignore_cover:  # cover is ignored only by spray, never while a policy weighs actions
            return self._stat(model, name, ignore_cover)
        known = stats[model.uid]
        if known is None:
            known = stats[model.uid] = {}
        found = known.get(name)
        if found is None:
            found = known[name] = self._stat(model, name, False)
        return found

    def _stat(self, model: Model, name: str, ignore_cover: bool) -> int:
        value = model.spec.base[name]  # printed + static self mods
        for stat, amount, _ in model.mods:
            if stat == name:
                value += amount
        effects = model.effects
        if effects:
            if name in ("rat", "mat") and "fire" in effects:
                value -= 1
            if name == "arm" and "corrosion" in effects:
                value -= 1
            if name in ("rat", "mat", "def") and "tune_up" in effects:
                value += 1
        if name == "spd" and self.units[model.unit].lockdown:
            value -= 2
        for other in self._aura_bearers[model.player]:  # auras of friendly models on the table, within range
            if other is model or not other.alive or self.units[other.unit].status != "board":
                continue
            for aura in other.spec.auras:
                if (aura.stat == name and not (ignore_cover and aura.cover)
                        and self.gap_between(model, other) <= aura.range):
                    value += aura.amount
        return max(0, value)

    def index_auras(self) -> None:
        """Remember which models carry auras (mantlets, attachments): `stat` looks only at those."""
        self._aura_bearers = [[m for m in self.models if m.player == p and m.spec.auras] for p in (0, 1)]

    def nearest(self, model: Model, candidates: list[Model]) -> Model | None:
        best: Model | None = None  # min by (gap, uid), written out: min(key=...) is a slow call once compiled
        best_gap = 0.0
        for other in candidates:
            d = self.gap_between(model, other)
            if best is None or d < best_gap or d == best_gap and other.uid < best.uid:
                best, best_gap = other, d
        return best

    # --- continuous effects (W15)
    def blocked(self, model: Model, weapon_type: str) -> bool:
        """System failure (W15) forbids melee (mode 1) or ranged (mode 2) attacks, cypher attacks included."""
        mode = model.effects.get("system_failure") if model.effects else None
        return mode == (1 if weapon_type == "melee" else 2)


def invariant_problems(table: Table) -> list[str]:
    """Broken invariants (tests, debugging): negative or excess arc, arc not conserved, too many gates, health out
    of range."""
    problems = []
    for side in table.sides:
        total = side.pool + sum(g.arc for g in side.gates)
        total += sum(table.units[u].arc for u in side.units)
        if side.pool < 0 or total != table.options["arc_pool"]:
            problems.append(f"player {side.player}: arc pool {side.pool}, total {total}")
        if len(side.gates) > table.options["gates"]:
            problems.append(f"player {side.player}: {len(side.gates)} gates")
        for gate in side.gates:
            if not 0 <= gate.arc <= table.options["gate_arc_limit"]:
                problems.append(f"gate {side.player}/{gate.uid}: arc {gate.arc}")
    for unit in table.units:
        if not 0 <= unit.arc <= table.arc_limit(unit):
            problems.append(f"unit {unit.uid}: arc {unit.arc}")
    for model in table.models:
        if not 0 <= model.health <= model.spec.health or model.alive != (model.health > 0):
            problems.append(f"model {model.uid}: health {model.health}")
    return problems
