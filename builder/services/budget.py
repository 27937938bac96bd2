"""Engine work budgets: the ONE estimator of what a request, a run or a command will play (docs/api.md "Engine work
budgets"), and the checks that refuse work over its budget before anything is played.

The estimate is in **engine seconds** (the compiled engine on the development machine): games × the game's
measured cost of one game (`PlayBounds.game_seconds`, from the registry of game systems) × the policy's measured
cost relative to greedy (`policy_factors`: search is about 60–110 times greedy) × how much longer the options let a
game last (`length_factor`: `max_turns` 90 000 instead of 60 counts 1 500 times) × the size of the position or list
against the size the cost was measured at (at least 1; squared for a position, whose bigger hand or table multiplies
the choices of every decision), plus the reading of the position and the actions played.

- `position_cost(doc, games=, policy=, actions=)`: POST /api/positions/, the analysis page, "simulate from here"
  and `manage.py position`.
- `run_cost(frozen, games)`: a simulation, gauntlet or doctor run (its snapshot, or its batch of legs); the same
  for `manage.py simulate` and `manage.py doctor`.
- `check_budget(cost, limit, ...)`: WorkOverBudget (400: the limit, the estimate, the path of the field that made
  the work dear, and how to get more) when the estimate is over the limit.

Budgets (hangar/settings.py): `HANGAR_WEB_BUDGET_SECONDS` (1 s) for what a web or API request plays while it waits,
`HANGAR_RUN_BUDGET_SECONDS` (3 600 s) for one queued run and for a command. The per-minute allowance of engine work
of an address or a user is builder.throttles.WorkThrottle, charged with these same estimates.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings

from builder.errors import WorkOverBudget
from rules_engine.bounds import PlayBounds, position_items
from rules_engine.simulation import list_size
from rules_engine.systems import SYSTEMS

# Reading a position and listing its legal actions: 1.0-1.3 ms for the example positions (28-90 items: objects and
# strings), counted 50 µs an item; each action played (found among the legal actions, then played) 0.06-0.4 ms on
# them, counted 10 µs an item (docs/benchmarks.md "Bounded work: games").
LOAD_SECONDS_PER_ITEM = 0.00005
ACTION_SECONDS_PER_ITEM = 0.00001


COMMAND_MORE = "play fewer games, or raise HANGAR_RUN_BUDGET_SECONDS (the budget of a run and of a command)"
RUN_MORE = "play fewer games, opponents or changes, or greedy instead of search"


def web_budget() -> float:
    return float(settings.HANGAR_WEB_BUDGET_SECONDS)


def run_budget() -> float:
    return float(settings.HANGAR_RUN_BUDGET_SECONDS)


def bounds_of(system: Any) -> PlayBounds | None:
    entry = SYSTEMS.get(system) if isinstance(system, str) else None
    return entry.bounds if entry is not None else None


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def position_cost(doc: Any, *, games: Any = None, policy: Any = "greedy", actions: Any = ()) -> float:
    """Estimated engine seconds of loading `doc`, playing `actions` from it and `games` games on with `policy`
    (0 for a position of no known system: it is refused before anything is played)."""
    if not isinstance(doc, Mapping):
        return 0.0
    bounds = bounds_of(doc.get("system"))
    if bounds is None:
        return 0.0
    items = position_items(doc)
    played = len(actions) if isinstance(actions, (list, tuple)) else 0
    cost = items * LOAD_SECONDS_PER_ITEM + played * items * ACTION_SECONDS_PER_ITEM
    size = max(1.0, items / bounds.typical_items) ** 2  # a bigger hand or table multiplies the choices of each turn
    per_game = bounds.game_seconds * bounds.policy_factor(str(policy or "greedy")) \
        * bounds.length_factor(doc.get("options")) * size
    return cost + _count(games) * per_game


def _snapshot_game_cost(snapshot: Mapping[str, Any]) -> float:
    bounds = bounds_of(snapshot.get("system"))
    if bounds is None:
        return 0.0
    opponent = snapshot.get("opponent") if isinstance(snapshot.get("opponent"), Mapping) else {}
    sizes = [list_size(snapshot.get("list") or {})]
    if isinstance(opponent.get("list"), Mapping):
        sizes.append(list_size(opponent["list"]))
    size = max(1.0, max(sizes) / bounds.typical_list_size)
    policy = str(snapshot.get("policy") or "greedy")
    other = str(snapshot.get("opponent_policy") or policy)
    factor = (bounds.policy_factor(policy) + bounds.policy_factor(other)) / 2
    return bounds.game_seconds * factor * bounds.length_factor(snapshot.get("options")) * size


def run_cost(frozen: Mapping[str, Any], games: Any) -> float:
    """Estimated engine seconds of a run of `games` games of a snapshot, or of every leg of a batch (a gauntlet's
    opponents); a doctor's `games` is its budget over all its legs (each game counted at its dearest leg)."""
    legs = frozen.get("legs")
    if isinstance(legs, list) and frozen.get("kind") == "doctor":  # `games` is the doctor's budget over all its legs
        costs = [_snapshot_game_cost(leg.get("snapshot") or {}) for leg in legs if isinstance(leg, Mapping)]
        per_game = max(costs) if costs else 0.0
    elif isinstance(legs, list):
        per_game = sum(_snapshot_game_cost(leg.get("snapshot") or {}) for leg in legs if isinstance(leg, Mapping))
    else:
        per_game = _snapshot_game_cost(frozen)
    return _count(games) * per_game


def check_budget(cost: float, limit: float, *, path: str, what: str, more: str) -> None:
    """WorkOverBudget when `cost` (estimated engine seconds) is over `limit`; `what` names the work, `more` says
    how to get more (a simulation run, fewer games, another policy)."""
    if cost <= limit:
        return
    raise WorkOverBudget(
        f"{path}: {what} is estimated at {cost:,.1f} s of engine work, over the limit of {limit:g} s; {more}",
        details={"path": path, "limit_seconds": limit, "estimate_seconds": round(cost, 3)},
    )


def dearest_field(doc: Mapping[str, Any], *, games: Any, policy: Any) -> str:
    """The field a refusal names: the policy when it is not greedy's price, else a longer game's option, else the
    number of games."""
    bounds = bounds_of(doc.get("system"))
    if bounds is not None and bounds.policy_factor(str(policy or "greedy")) > 2:
        return "policy"
    if bounds is not None and bounds.length_factor(doc.get("options")) > 1:
        options = doc.get("options") if isinstance(doc.get("options"), Mapping) else {}
        for name, (default, _most) in bounds.length_options.items():
            if isinstance(options.get(name), int) and options[name] > default:
                return f"options.{name}"
    return "games" if _count(games) else "position"


def _run_policies(frozen: Mapping[str, Any]) -> list[tuple[str | None, str]]:
    legs = frozen.get("legs")
    snapshots = [leg.get("snapshot") or {} for leg in legs if isinstance(leg, Mapping)] \
        if isinstance(legs, list) else [frozen]
    return [(snapshot.get("system"), str(snapshot.get(key) or snapshot.get("policy") or "greedy"))
            for snapshot in snapshots for key in ("policy", "opponent_policy")]


def check_run_work(frozen: Mapping[str, Any], games: Any, *, budget: float | None = None,
                   more: str = RUN_MORE) -> float:
    """A run (or a command) of `games` games of a snapshot or a batch within `budget` (default the run budget):
    WorkOverBudget naming `policy` when a dear policy made it so, else `games`. Returns the estimate."""
    cost = run_cost(frozen, games)
    dear = any((bounds := bounds_of(system)) is not None and bounds.policy_factor(policy) > 2
               for system, policy in _run_policies(frozen))
    legs = frozen.get("legs")
    if isinstance(legs, list) and frozen.get("kind") == "doctor":
        what = (f"a test-every-card run of {games} games in all" if frozen.get("variant") == "impact"
                else f"a list doctor run of {games} games in all")
    else:
        what = f"{games} games" + (f" × {len(legs)} lists and opponents" if isinstance(legs, list) and len(legs) > 1
                                   else "")
    check_budget(cost, run_budget() if budget is None else budget, path="policy" if dear else "games", what=what,
                 more=more)
    return cost
