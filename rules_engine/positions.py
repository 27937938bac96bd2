"""Positions (`hangar.position/1`): one game state of one system as a JSON document, like chess's FEN.

A position holds the options, whose turn and which phase or decision, every zone in order and the randomness for
what follows (docs/positions.md). This module is the envelope every system shares:

- `load_position(doc, cards)` checks the envelope (`format`, `system`, `random`) and hands the rest to the
  system's position module (`rules_engine/<system>/position.py`: `dump(state)` and `load(doc, cards, rng)`), which
  refuses a bad field with a `PositionError` naming its path (`sides[0].hand[2]`), reading plain values with the
  shared readers of rules_engine/position_fields.py (which defines PositionError; it is imported from here too).
- `export_position(system, state)` writes a state back: `load_position(export_position(...))` gives a state with
  the same legal actions that plays on exactly as the original, because `random` carries the generator's whole
  state (`{"mt19937": [...]}`); a hand-written position gives `{"seed": S}` instead.
- `legal_moves(state)` lists the legal actions, each with a stable `id` made from the action record
  (`play:12:3+5:-`), its record and its description; `play_ids(state, ids)` plays them in order.
- `simulate_position(doc, cards, games=N, seed=S, policy=P)` plays N games on from the position, game i with
  `game_rng(S, i)` as every run does, into the same summary as a run (rules_engine.simulation).

Pure Python: no Django.
"""
from __future__ import annotations

import importlib
import random
from collections.abc import Mapping, Sequence
from typing import Any

from rules_engine.core.game import DEFAULT_MAX_STEPS, play_out
from rules_engine.core.rng import game_rng
from rules_engine.core.stats import Summary
from rules_engine.position_fields import PositionError  # defined with the field readers; imported from here too

__all__ = ["FORMAT", "PositionError", "position_systems", "load_position", "export_position", "position_module",
           "action_id", "legal_moves", "find_action", "play_ids", "simulate_position", "rng_dump", "rng_load"]

FORMAT = "hangar.position/1"
_MT_WORDS = 625  # random.Random's Mersenne Twister: 624 words and the index
MAX_POSITION_GAMES = 10_000


def position_systems() -> dict[str, str]:
    """slug -> the position module of every registered game that declares the "positions" capability."""
    from rules_engine.systems import with_capability

    return {entry.slug: entry.position_module for entry in with_capability("positions")}


def position_module(system: Any) -> Any:
    modules = position_systems()
    if not isinstance(system, str) or system not in modules:
        raise PositionError("system", f"expected one of {', '.join(sorted(modules))}, got {system!r}")
    return importlib.import_module(modules[system])


# ---- randomness -----------------------------------------------------------------------------------------------


def rng_dump(rng: random.Random) -> dict[str, Any]:
    """The generator's whole state: 625 words of the Mersenne Twister (and a pending gauss, always None here)."""
    version, words, gauss = rng.getstate()
    return {"mt19937": list(words), "gauss": gauss}


def rng_load(value: Any, path: str = "random") -> random.Random:
    """`{"seed": S}` (a new generator seeded S) or `{"mt19937": [625 words], "gauss": null}` (that exact state)."""
    if not isinstance(value, Mapping):
        raise PositionError(path, 'expected {"seed": S} or {"mt19937": [...]}')
    unknown = set(value) - {"seed", "mt19937", "gauss"}
    if unknown:
        raise PositionError(f"{path}.{sorted(unknown)[0]}", "unknown field")
    if "seed" in value:
        seed = value["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise PositionError(f"{path}.seed", f"expected an integer ≥ 0, got {seed!r}")
        if "mt19937" in value:
            raise PositionError(f"{path}.mt19937", "give either seed or mt19937, not both")
        return random.Random(seed)
    words = value.get("mt19937")
    if not isinstance(words, list) or len(words) != _MT_WORDS:
        raise PositionError(f"{path}.mt19937", f"expected a list of {_MT_WORDS} integers")
    for index, word in enumerate(words):
        if isinstance(word, bool) or not isinstance(word, int) or not 0 <= word < 2 ** 32:
            raise PositionError(f"{path}.mt19937[{index}]", f"expected an integer 0 … 2³²−1, got {word!r}")
    if not 1 <= words[-1] <= 624:
        raise PositionError(f"{path}.mt19937[{_MT_WORDS - 1}]", "the generator's index must be 1 … 624")
    gauss = value.get("gauss")
    if gauss is not None and (isinstance(gauss, bool) or not isinstance(gauss, (int, float))):
        raise PositionError(f"{path}.gauss", f"expected null or a number, got {gauss!r}")
    rng = random.Random()
    rng.setstate((3, tuple(words), gauss))
    return rng


# ---- loading and writing ----------------------------------------------------------------------------------------


def load_position(doc: Any, cards: Mapping[str, Any]) -> Any:
    """The engine state of position `doc` (cards from `cards`: code → catalog card); PositionError if it is bad."""
    if not isinstance(doc, Mapping):
        raise PositionError("", f"a position is a JSON object, not {type(doc).__name__}")
    if doc.get("format") != FORMAT:
        raise PositionError("format", f"expected {FORMAT!r}, got {doc.get('format')!r}")
    module = position_module(doc.get("system"))
    check_bounds(doc)
    rng = rng_load(doc.get("random", {"seed": 0}))
    try:
        return module.load(doc, cards, rng)
    except PositionError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:  # a shape no check foresaw
        raise PositionError("", f"this position cannot be set up: {type(error).__name__}: {error}") from None


def check_bounds(doc: Mapping[str, Any]) -> None:
    """Refuse a position past its game's bounds (rules_engine/bounds.py: the length options, a zone, a side, the
    whole position) before anything of it is read: PositionError naming the field."""
    from rules_engine.bounds import check_position_bounds
    from rules_engine.systems import system

    bounds = system(doc["system"]).bounds
    if bounds is not None:
        check_position_bounds(doc, bounds)


def export_position(system: str, state: Any) -> dict[str, Any]:
    """The position of `state` (a `system` engine state), with the generator's exact state."""
    body = position_module(system).dump(state)
    return {"format": FORMAT, "system": system, **body, "random": rng_dump(state.rng)}


# ---- actions ----------------------------------------------------------------------------------------------------


def _token(value: Any, depth: int) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (tuple, list)):
        joiner = "+" if depth == 0 else "."
        return joiner.join(_token(item, depth + 1) for item in value) if value else "_"
    return str(value)


def action_id(action: Any) -> str:
    """A stable, shell-friendly id of an action record: its kind and its fields, `:`-separated (tuples `+`-joined,
    a tuple inside them `.`-joined; None is `-`, an empty tuple `_`): `play:12:3+5:-`, `attack:4:player.1`,
    `move:3:7:yes`; every character is safe in a shell."""
    if isinstance(action, tuple) and action and isinstance(action[0], str):
        return ":".join([action[0], *(_token(field, 0) for field in action[1:])])
    return _token(action, 0)


def _plain(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_plain(item) for item in value]
    return value


def legal_moves(state: Any) -> list[dict[str, Any]]:
    """The legal actions in the engine's order: {id, action (the record as a list), text (in words)}.
    Two actions with the same id (never expected) are told apart by `~2`, `~3`, … in order."""
    moves: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    describe = getattr(state, "describe", None)
    for action in ([] if state.is_terminal() else state.legal_actions()):
        ident = action_id(action)
        seen[ident] = seen.get(ident, 0) + 1
        if seen[ident] > 1:
            ident = f"{ident}~{seen[ident]}"
        text = describe(action) if callable(describe) else repr(action)
        moves.append({"id": ident, "action": _plain(action), "text": text})
    return moves


def find_action(state: Any, ident: Any, path: str = "actions") -> Any:
    """The legal action whose id is `ident` (or whose record, as a list, equals it); PositionError if none."""
    if state.is_terminal():
        raise PositionError(path, "the game is over: there is no action to play")
    for move, action in zip(legal_moves(state), state.legal_actions()):
        if move["id"] == ident or (isinstance(ident, list) and move["action"] == ident):
            return action
    legal = ", ".join(move["id"] for move in legal_moves(state))
    raise PositionError(path, f"{ident!r} is not a legal action here; legal: {legal or 'none'}")


def play_ids(state: Any, ids: Sequence[Any], path: str = "actions") -> list[dict[str, Any]]:
    """Play the actions `ids` in order (each chosen among the legal actions of the state it meets); return the
    events they logged. PositionError names the first id that is not legal (`actions[2]`), after the ones before
    it were played."""
    start = len(state.events.to_list())
    for index, ident in enumerate(ids):
        state.apply(find_action(state, ident, f"{path}[{index}]"))
    return state.events.to_list()[start:]


# ---- simulation from a position -----------------------------------------------------------------------------------


def position_snapshot(doc: Mapping[str, Any], cards: Mapping[str, Any], policy: str) -> dict[str, Any]:
    """The run snapshot a position's games are summarised against: its list and opponent if it names them."""
    system = doc.get("system")
    listed = doc.get("list") if isinstance(doc.get("list"), Mapping) else {"system": system, "sections": {}}
    opponent = doc.get("opponent") if isinstance(doc.get("opponent"), Mapping) else {}
    return {"system": system, "list": listed, "cards": dict(cards), "opponent": dict(opponent), "policy": policy,
            "options": {}}


def simulate_position(doc: Mapping[str, Any], cards: Mapping[str, Any], *, games: int, seed: int,
                      policy: str = "greedy") -> dict[str, Any]:
    """Play `games` games on from the position (game i with game_rng(seed, i); both players with `policy`) and
    return the summary a run gives (`simulation_result`), with the position's figures."""
    from rules_engine.core.policies import get_policy
    from rules_engine.simulation import SimulationInputError, simulation_result, simulator_for

    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_POSITION_GAMES:
        raise PositionError("games", f"expected an integer 1 … {MAX_POSITION_GAMES}, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise PositionError("seed", f"expected an integer ≥ 0, got {seed!r}")
    load_position(doc, cards)  # refuse a bad position (its bounds included) before playing anything
    simulator = simulator_for(doc["system"])
    try:
        chosen = get_policy(simulator.policy_name(policy))
    except ValueError as error:
        raise PositionError("policy", str(error)) from None
    snapshot = position_snapshot(doc, cards, policy)
    summary = Summary()
    max_steps = getattr(simulator, "max_steps", DEFAULT_MAX_STEPS)
    for index in range(games):
        rng = game_rng(seed, index)
        state = position_module(doc["system"]).load(doc, cards, rng)
        play_out(state, [chosen, chosen], rng, max_steps)
        simulator.summarise(summary, simulator.record(state))
        summary.games += 1
    try:
        return simulation_result(summary, snapshot, games=games, seed=seed)
    except SimulationInputError as error:
        raise PositionError("", str(error)) from None
