"""Positions (hangar.position/1, docs/positions.md) for the command line, the API and the analysis page.

`position_read(text, source)` parses a position file (a JSON error names its line and column);
`position_analyse(doc, ...)` loads it against the site's catalog (or a run's cards), plays the given action ids
and optionally simulates on, and returns one result that `manage.py position`, `POST /api/positions/` and the
analysis page all present: the position (after the actions), its legal actions, the events played and the summary.
Every refusal is a `PositionInvalid` with the path of the bad field; nothing is stored.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from builder.errors import ListInputError, WorkOverBudget
from cards.storable_text import holds_surrogate, surrogate_places
from rules_engine.core.catalog import CardDataError
from rules_engine.core.game import EngineError
from rules_engine.replay import ability_names, board_events, state_board, state_codes
from rules_engine.positions import (
    FORMAT,
    MAX_POSITION_GAMES,
    PositionError,
    check_bounds,
    export_position,
    legal_moves,
    load_position,
    play_ids,
    simulate_position,
)
from rules_engine.systems import SYSTEMS

from .budget import check_budget, dearest_field, position_cost, web_budget

MAX_POSITION_BYTES = 2 * 1024 * 1024
MAX_PLAYED_ACTIONS = 2_000
DEFAULT_POSITION_GAMES = 100
# Games played while a page or an API request waits (a run of thousands is a simulation run); what they may cost is
# the web budget (builder/services/budget.py: about 1 s of engine work), which fewer games may reach first.
MAX_WEB_POSITION_GAMES = 500
WEB_MORE = ("play fewer games, or play them as a simulation run (POST /api/simulations/ with a list, or "
            "`manage.py position FILE --simulate N` on the command line)")


class PositionInvalid(ListInputError):
    """A position, an action id or a simulation request that cannot be used: `path` names the bad field."""

    def __init__(self, message: str, *, path: str = "", code: str = "position.invalid") -> None:
        super().__init__(message, code=code, details={"path": path})
        self.path = path


def _invalid(error: PositionError, prefix: str = "") -> PositionInvalid:
    path = ".".join(part for part in (prefix, error.path) if part).replace(".[", "[")
    return PositionInvalid(f"{path}: {error.message}" if path else error.message, path=path)


def position_read(text: str | bytes, source: str = "position") -> dict[str, Any]:
    """The JSON object in `text` (a file's bytes or text); a JSON error says the line and column."""
    if isinstance(text, bytes):
        if len(text) > MAX_POSITION_BYTES:
            raise PositionInvalid(f"{source}: larger than {MAX_POSITION_BYTES // 1024 // 1024} MB", path="")
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise PositionInvalid(f"{source}: not UTF-8 text (byte {error.start})", path="") from None
    if len(text) > MAX_POSITION_BYTES:
        raise PositionInvalid(f"{source}: larger than {MAX_POSITION_BYTES // 1024 // 1024} MB", path="")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as error:
        raise PositionInvalid(f"{source}, line {error.lineno}, column {error.colno}: not JSON ({error.msg})",
                              path="") from None
    except RecursionError:
        raise PositionInvalid(f"{source}: nested too deeply", path="") from None
    if not isinstance(doc, dict):
        raise PositionInvalid(f"{source}: a position is a JSON object ({FORMAT})", path="")
    return doc


def position_cards(doc: Mapping[str, Any]) -> Mapping[str, Any]:
    """The site's catalog of the position's system: code → card."""
    from cards.selectors import catalog_for

    system = doc.get("system")
    catalog = catalog_for(system) if isinstance(system, str) else None
    if catalog is None:
        raise PositionInvalid(f"system: no catalog of {system!r} is loaded", path="system")
    from rules_engine.simulation import _plain  # the catalog's read-only mappings as the engines read a snapshot's

    return _plain(catalog.cards)


def position_load(doc: Any, cards: Mapping[str, Any] | None = None) -> Any:
    """The engine state of `doc` (PositionInvalid naming the field when it cannot be loaded)."""
    if not isinstance(doc, Mapping):
        raise PositionInvalid(f"position: a position is a JSON object ({FORMAT})", path="position")
    try:
        return load_position(doc, cards if cards is not None else position_cards(doc))
    except PositionError as error:
        raise _invalid(error) from None
    except CardDataError as error:  # a card of the catalog the engine cannot read
        raise PositionInvalid(str(error), path="cards") from None


def _path(parts: Sequence[str | int]) -> str:
    path = ""
    for part in parts:
        path = f"{path}[{part}]" if isinstance(part, int) else (f"{path}.{part}" if path else str(part))
    return path


def check_storable(doc: Any, actions: Any = (), policy: Any = None) -> None:
    """Every string of a position (its note, names, codes, keys), of the action ids and the policy is text that can
    be stored and sent: a lone surrogate (a `\\udfff` escape in a JSON body) is refused with its path, as in a list
    (cards.storable_text)."""
    for value, prefix in ((doc, ""), (actions, "actions"), (policy, "policy")):
        if not holds_surrogate(value):
            continue
        parts, _is_key, problem = surrogate_places(value, limit=1)[0]
        path = _path([prefix, *parts] if prefix else parts)
        raise PositionInvalid(f"{path}: {problem}." if path else f"{problem}.", path=path)


def check_work(doc: Any, *, actions: Any = (), games: Any = None, policy: Any = "greedy",
               budget: float | None = None, more: str = WEB_MORE, charge: Any = None) -> float:
    """The position's bounds (rules_engine/bounds.py: its length options, zones, sides) and the estimated engine
    work of loading it, playing `actions` and `games` games with `policy` against `budget` (default: the web
    budget), before anything is read or played; `charge(cost)` (a per-minute allowance, builder.throttles) is
    called with the estimate once it is within the budget. Returns the estimate (engine seconds)."""
    check_storable(doc, actions, policy)
    if isinstance(doc, Mapping) and doc.get("system") in SYSTEMS:
        try:
            check_bounds(doc)
        except PositionError as error:
            raise _invalid(error) from None
    else:
        return 0.0  # position_load refuses it with the path of the bad field
    cost = position_cost(doc, games=games, policy=policy, actions=actions)
    limit = web_budget() if budget is None else budget
    what = f"this position with {games} games by {policy}" if games else "this position"
    try:
        check_budget(cost, limit, path=dearest_field(doc, games=games, policy=policy), what=what, more=more)
    except WorkOverBudget as over:  # a position's refusal, as every other: a PositionInvalid naming the field
        refusal = PositionInvalid(over.message, path=over.details["path"], code=over.code)
        refusal.details.update(over.details)
        raise refusal from None
    if charge is not None:
        charge(cost)
    return cost


def position_analyse(doc: Any, *, actions: Sequence[Any] = (), games: int | None = None, seed: int = 1,
                     policy: str = "greedy", cards: Mapping[str, Any] | None = None, budget: float | None = None,
                     more: str = WEB_MORE, charge: Any = None) -> dict[str, Any]:
    """Load `doc`, play `actions` (ids), and with `games` simulate that many games on from there, after checking
    the work is within `budget` (engine seconds; default the web budget: check_work).

    Returns {system, position (after the actions), moves (its legal actions), events (those the actions logged),
    over, summary (or None)}.
    """
    check_work(doc, actions=actions, games=games, policy=policy, budget=budget, more=more, charge=charge)
    state = position_load(doc, cards)
    cards = cards if cards is not None else position_cards(doc)
    if not isinstance(actions, (list, tuple)) or len(actions) > MAX_PLAYED_ACTIONS:
        raise PositionInvalid(f"actions: expected a list of at most {MAX_PLAYED_ACTIONS} action ids", path="actions")
    for index, ident in enumerate(actions):
        if not isinstance(ident, str):
            raise PositionInvalid(f"actions[{index}]: expected an action id (text), got {ident!r}",
                                  path=f"actions[{index}]")
    system = doc["system"]
    try:
        events = play_ids(state, list(actions))
    except PositionError as error:
        raise _invalid(error) from None
    except EngineError as error:  # an engine bug, reported as such rather than as a crash
        raise PositionInvalid(f"actions: the engine could not play this ({error})", path="actions",
                              code="position.engine") from None
    after = export_position(system, state)
    for key in ("list", "opponent", "note"):
        if key in doc and key not in after:
            after[key] = doc[key]
    summary = None
    if games is not None:
        if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_POSITION_GAMES:
            raise PositionInvalid(f"games: expected an integer 1 … {MAX_POSITION_GAMES}", path="games")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise PositionInvalid("seed: expected an integer ≥ 0", path="seed")
        if not isinstance(policy, str) or not policy:
            raise PositionInvalid("policy: expected a policy name such as greedy or random", path="policy")
        try:
            summary = simulate_position(after, cards, games=games, seed=seed, policy=policy)
        except PositionError as error:
            raise _invalid(error) from None
        except EngineError as error:
            raise PositionInvalid(f"games: the engine could not play on from here ({error})", path="games",
                                  code="position.engine") from None
    return {"system": system, "position": after, "moves": legal_moves(state), "events": events,
            "over": bool(state.is_terminal()), "codes": state_codes(system, state), "board": state_board(system, state),
            "table_events": board_events(system, state), "abilities": ability_names(system, state),
            "summary": summary}


