"""MechWarrior: Dark Age reference engine: `MwdaGame` binds the ruleset and its options to two sides.

Player 0 plays a list (`hangar.list/1`, section `army`); player 1 is an opponent from a package: `goldfish`
(stationary units that never get an order) or `army` (a sample list, played by a policy). The game's rng picks
the terrain layout, deploys both armies in their zones and rolls who goes first.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules_engine.core.catalog import CardDataError, entries_of
from rules_engine.mwda import geometry as geo
from rules_engine.mwda import policies  # noqa: F401  (registers the MWDA policies by name)
from rules_engine.mwda.state import MwdaState, Unit
from rules_engine.mwda.units import UnitSpec, unit_spec

POINTS_PER_ORDER = 100  # M2: 100ポイントごとに命令1回

# Ruleset options (RULES.md interpretations); docs/engine-mwda.md explains each.
DEFAULT_OPTIONS: Mapping[str, Any] = {
    "max_rounds": 10,  # §2.3: game ends after this many rounds, won on points destroyed
    "attack_dice": 3,  # M15: attack + 3D6 ≥ defense
    "hindering_defense": 1,  # hindering terrain on the line of fire: target defense +1
    "breakaway_target": 4,  # M14: 1d6 ≥ 4 to break away
    "bases_block_fire": True,  # a third unit's base blocks line of fire
    "dfa_damage_bonus": 1,  # 急降下攻撃: primary damage +1
    "dfa_miss_damage": 1,  # a missed death from above costs the attacker 1 click
    "first_player": "roll",  # "roll" (the game's rng), 0 or 1
    "layout": "random",  # "random" or a layout name from geometry.LAYOUTS
}
_OPTION_CHECKS = {
    "max_rounds": (1, 100), "attack_dice": (1, 10), "hindering_defense": (0, 10), "breakaway_target": (1, 7),
    "dfa_damage_bonus": (0, 10), "dfa_miss_damage": (0, 10),
}
ROW = 12  # units per deployment row


class MwdaOptionError(ValueError):
    pass


def check_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The full option set; an unknown option or a bad value raises MwdaOptionError naming it."""
    options = dict(options or {})
    unknown = set(options) - set(DEFAULT_OPTIONS)
    if unknown:
        raise MwdaOptionError(f"unknown MWDA option(s) {', '.join(sorted(unknown))}; known: "
                              f"{', '.join(sorted(DEFAULT_OPTIONS))}")
    merged = {**DEFAULT_OPTIONS, **options}
    for name, (low, high) in _OPTION_CHECKS.items():
        value = merged[name]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise MwdaOptionError(f"option {name!r}: expected an integer from {low} to {high}, got {value!r}")
    if not isinstance(merged["bases_block_fire"], bool):
        raise MwdaOptionError(f"option 'bases_block_fire': expected true or false, got {merged['bases_block_fire']!r}")
    if merged["first_player"] not in ("roll", 0, 1):
        raise MwdaOptionError(f"option 'first_player': expected \"roll\", 0 or 1, got {merged['first_player']!r}")
    names = [layout.name for layout in geo.LAYOUTS]
    if merged["layout"] != "random" and merged["layout"] not in names:
        raise MwdaOptionError(f"option 'layout': expected \"random\" or one of {', '.join(names)}, "
                              f"got {merged['layout']!r}")
    return merged


def orders_per_round(specs: list[UnitSpec]) -> int:
    """M2: ⌈starting points / 100⌉ + order bonuses (移動司令部), fixed for the whole game."""
    points = sum(spec.points for spec in specs)
    if points <= 0:
        return 0
    return -(-points // POINTS_PER_ORDER) + sum(spec.order_bonus for spec in specs)


class Side:
    """One side's army as engine data: unit specs in list order, and whether it is a goldfish."""

    __slots__ = ("specs", "goldfish")

    def __init__(self, specs: list[UnitSpec], goldfish: bool) -> None:
        self.specs, self.goldfish = specs, goldfish


class MwdaGame:
    """The MWDA ruleset bound to a list (player 0) and an opponent (player 1)."""

    name = "mwda"
    num_players = 2

    def __init__(self, player_list: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]],
                 opponent: Mapping[str, Any], options: Mapping[str, Any] | None = None) -> None:
        self.options = check_options(options)
        self._cards = cards
        self._specs: dict[str, UnitSpec] = {}
        self.sides = (
            Side(self._army(player_list, "list"), goldfish=False),
            self._opponent(opponent),
        )
        for index, side in enumerate(self.sides):
            if not side.specs:
                raise CardDataError("-", "list" if index == 0 else "opponent", "the army has no units (M4)")
        self.orders = (orders_per_round(self.sides[0].specs), orders_per_round(self.sides[1].specs))

    def spec(self, code: Any, where: str) -> UnitSpec:
        if code not in self._specs:
            if not isinstance(code, str) or code not in self._cards:
                raise CardDataError(str(code), where, "unknown card code (not in the snapshot's cards)")
            self._specs[code] = unit_spec(self._cards[code])
        return self._specs[code]

    def _entries(self, entries: Any, where: str) -> list[UnitSpec]:
        specs = []
        for at, code, qty, _entry in entries_of(entries, where):
            specs += [self.spec(code, f"{at}.card")] * qty
        return specs

    def _army(self, document: Any, where: str) -> list[UnitSpec]:
        sections = document.get("sections") if isinstance(document, Mapping) else None
        if not isinstance(sections, Mapping):
            raise CardDataError("-", f"{where}.sections", "expected an object with an `army` section")
        return self._entries(sections.get("army", []), f"{where}.sections.army")

    def _opponent(self, opponent: Any) -> Side:
        kind = opponent.get("kind") if isinstance(opponent, Mapping) else None
        if kind == "goldfish":
            return Side(self._entries(opponent.get("units"), "opponent.units"), goldfish=True)
        if kind == "army":
            return Side(self._army(opponent.get("list"), "opponent.list"), goldfish=False)
        raise CardDataError("-", "opponent.kind", f"expected goldfish or army, got {kind!r}")

    def new_initial_state(self, rng: random.Random) -> MwdaState:
        options = self.options
        if options["layout"] == "random":
            layout = geo.choose_layout(rng)
        else:
            layout = next(lay for lay in geo.LAYOUTS if lay.name == options["layout"])
        units: list[Unit] = []
        for player, side in enumerate(self.sides):
            for (x, y), spec in zip(deployment(len(side.specs), player, rng), side.specs):
                units.append(Unit(len(units), player, spec, x, y))
        first = rng.randrange(2) if options["first_player"] == "roll" else options["first_player"]
        state = MwdaState(options=options, layout=layout, units=units, orders=self.orders,
                          goldfish=(self.sides[0].goldfish, self.sides[1].goldfish), first=first, rng=rng)
        state.log("setup", None, {"table": layout.to_dict(), "first": first, "orders": list(self.orders),
                                  "max_rounds": options["max_rounds"]})
        for unit in units:
            state.log("deploy", unit.side, {"unit": unit.uid, "code": unit.spec.code, "name": unit.spec.name,
                                            "unit_kind": unit.spec.kind, "points": unit.spec.points,
                                            "radius": unit.spec.radius, "clicks": len(unit.spec.dial),
                                            "at": state.position(unit)})
        state.start_turn()
        return state


def deployment(count: int, player: int, rng: random.Random) -> list[geo.Point]:
    """Base centres in the player's zone (within 8″ of its edge, terrain-free by layout design): rows of up
    to 12 spread across the table, jittered by the rng; player 1 mirrors player 0."""
    rows = [(2.0, min(count, ROW)), (5.5, count - ROW)] if count > ROW else [(2.0, count)]
    if count > 2 * ROW:
        raise CardDataError("-", "army", f"{count} units do not fit a deployment zone (at most {2 * ROW})")
    points = []
    for depth, n in rows:
        gap = geo.TABLE / n
        for i in range(n):
            x = gap * (i + 0.5) + rng.uniform(-0.4, 0.4)
            y = depth + rng.uniform(-0.5, 0.5)
            points.append((x, y if player == 0 else geo.TABLE - y))
    return points
