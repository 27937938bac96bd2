"""How big a game can be, and what playing one costs: each game's `PlayBounds` (declared in its
rules_engine/<game>/system.py, read through the registry, rules_engine/systems.py).

- The **bounds** are the real maxima of the game's formats, taken generously (docs/positions.md "Bounds"): the
  options that set a game's length (`length_options`: HAGMI `max_turns`, MWDA `max_rounds`, Warcaster `rounds` and
  `turns_per_round`), the most cards or units in one zone of a side (`zones`), the most pieces of one side all zones
  together (`side_items`) and of a whole position (`position_items`). `check_position_bounds(doc, bounds)` refuses
  a position past them with a `PositionError` naming the field, BEFORE the game's position module reads any of it:
  a hand of 50 000 cards is refused after counting, never dealt.
- The **cost** of one game (`game_seconds`) is measured: engine seconds of one greedy game played on from the
  game's example position (docs/positions/<game>.position.json) at the default length, with the compiled engine
  (the build every deployment makes; plain Python takes about twice as long) on the development machine (2 vCPUs,
  Intel Xeon; `benchmarks/bench_bounded_games.py --costs`, docs/benchmarks.md "Bounded work: games"), rounded up.
  `policy_factors` is the measured cost of a game by each policy relative to greedy's, and `typical_items` /
  `typical_list_size` the size the cost was measured at: a bigger position or list costs proportionally more, a
  longer game (`length_factor`) proportionally more.

Pure Python: no Django. builder/services/budget.py turns these into a budget check for every entry that plays.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules_engine.position_fields import PositionError, key_path, need_int

LENGTH_WHAT = " (a longer game is past any real one: docs/positions.md \"Bounds\")"


@dataclass(frozen=True)
class PlayBounds:
    """The bounds and the measured cost of one game system's games."""

    length_options: Mapping[str, tuple[int, int]]  # option → (its default, the most a position or run may ask)
    zones: Mapping[str, int]  # a side's list-valued field → the most items it may hold
    side_items: int  # cards, units, models, gates... of one side, counted through every zone
    position_items: int  # the whole position (both sides, the combat, the terrain...), `list` and `random` apart
    game_seconds: float  # one greedy game on from the example position at the default length (compiled engine)
    typical_items: int  # the items of the example position the cost was measured on
    typical_list_size: int  # a list of the size most played (cards, units) for a run's estimate
    policy_factors: Mapping[str, float] = field(default_factory=dict)  # policy → cost of its game / greedy's
    sides_key: str = "sides"

    def policy_factor(self, policy: str) -> float:
        """The cost of `policy`'s game relative to greedy's: a full name (`hagmi-search`) counts as its alias
        (`search`); any other name with "search" in it as the dearest known policy; any other as greedy (the
        scripted and first-action policies are no dearer; an unknown name is refused by the engine before it
        plays)."""
        name = str(policy or "greedy")
        for alias, factor in self.policy_factors.items():
            if name == alias or name.endswith(f"-{alias}"):
                return factor
        if "search" in name:
            return max(self.policy_factors.values(), default=1.0)
        return 1.0

    def length_factor(self, options: Any) -> float:
        """How much longer a game may last with `options` than with the defaults (at least 1)."""
        factor = 1.0
        options = options if isinstance(options, Mapping) else {}
        for name, (default, _most) in self.length_options.items():
            value = options.get(name, default)
            if isinstance(value, int) and not isinstance(value, bool) and value > default:
                factor *= value / default
        return factor


def count_items(value: Any, stop: int) -> int:
    """The objects and strings in decoded JSON `value` (numbers and booleans not counted), without recursion;
    counting stops just past `stop`, so a huge document costs no more than a small one."""
    count = 0
    stack = [value]
    while stack and count <= stop:
        item = stack.pop()
        if isinstance(item, str):
            count += 1
        elif isinstance(item, Mapping):
            count += 1
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return count


def check_options_length(options: Any, bounds: PlayBounds, path: str = "options") -> None:
    """Each length option within 1 … its bound (a wrong type is the game's own check's to word)."""
    if not isinstance(options, Mapping):
        return
    for name, (_default, most) in bounds.length_options.items():
        value = options.get(name)
        if isinstance(value, int) and not isinstance(value, bool):
            need_int(value, key_path(path, name), 1, most, what=LENGTH_WHAT)


def check_position_bounds(doc: Mapping[str, Any], bounds: PlayBounds) -> None:
    """Refuse a position past the game's bounds (PositionError naming the field): its length options, each zone
    of each side, each side and the whole position. Reads only lengths and counts: no card is looked up."""
    check_options_length(doc.get("options"), bounds)
    sides = doc.get(bounds.sides_key)
    if isinstance(sides, list):
        if len(sides) > 2:
            raise PositionError(bounds.sides_key, f"expected two sides, got {len(sides)}")
        for index, side in enumerate(sides):
            if not isinstance(side, Mapping):
                continue
            path = key_path(bounds.sides_key, index)
            for zone, most in bounds.zones.items():
                value = side.get(zone)
                if isinstance(value, list) and len(value) > most:
                    raise PositionError(key_path(path, zone), f"{len(value)} items; at most {most} (more than any "
                                                              "format of the game holds)")
            items = count_items(side, bounds.side_items)
            if items > bounds.side_items:
                raise PositionError(path, f"more than {bounds.side_items} cards, units and other items in one side "
                                          "(more than any format of the game holds)")
    rest = {key: value for key, value in doc.items() if key not in ("list", "random")}
    if count_items(rest, bounds.position_items) > bounds.position_items:
        raise PositionError("", f"more than {bounds.position_items} cards, units and other items in one position "
                                "(more than any format of the game holds)")


def position_items(doc: Mapping[str, Any], stop: int = 1_000_000) -> int:
    """The items of a position that its games' cost grows with (its sides and the rest, not `list`/`random`)."""
    return count_items({key: value for key, value in doc.items() if key not in ("list", "random")}, stop)
