"""A simulation run's input, checked before anything is written (docs/simulations.md): the plugin simulators
(HANGAR_SIMULATOR_MODULES), the policies and seat mode, the opponent, the list's cards, the frozen snapshot
(hangar.snapshot/1) and the engine's own check of a run. Each `check_*` raises (400, 429) and writes nothing.
"""
from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from django.conf import settings

from builder.errors import SimulationInvalid, SimulationLimitExceeded, SimulationListTooLarge
from cards.models import Opponent
from cards.selectors import catalog_for
from rules_engine import simulation as engine
from rules_engine.core import seats as seat_modes

DEFAULT_POLICY = "greedy"
MAX_POLICY = 64


# --- plugin hook --------------------------------------------------------------------------------------------

_LOADED_MODULES: set[str] = set()


def load_simulator_modules() -> None:
    """Import the modules named by settings.HANGAR_SIMULATOR_MODULES (each registers a Simulator when imported).

    Called by the Celery tasks module at worker start and before any run is checked or merged, so the web
    process and every worker know the same simulators. A wrong path fails loudly (ImportError).
    """
    for path in settings.HANGAR_SIMULATOR_MODULES:
        if path not in _LOADED_MODULES:
            importlib.import_module(path)
            _LOADED_MODULES.add(path)


# --- snapshots ----------------------------------------------------------------------------------------------


def check_policy(policy: Any) -> str:
    if policy is None or policy == "":
        return DEFAULT_POLICY
    if not isinstance(policy, str) or len(policy) > MAX_POLICY:
        raise SimulationInvalid(f"policy: expected a policy name such as {DEFAULT_POLICY!r}, got {policy!r}.",
                                details={"path": "policy"})
    return policy


def check_opponent_policy(opponent_policy: Any) -> str | None:
    """Who plays the other side: None or "" = the list's policy plays both sides (kept out of the
    snapshot, so such runs hash as before)."""
    if opponent_policy is None or opponent_policy == "":
        return None
    if not isinstance(opponent_policy, str) or len(opponent_policy) > MAX_POLICY:
        raise SimulationInvalid(
            f"opponent_policy: expected a policy name such as {DEFAULT_POLICY!r}, got {opponent_policy!r}.",
            details={"path": "opponent_policy"},
        )
    return opponent_policy


def check_seats(seats: Any) -> str:
    """The run's seat mode (rules_engine.core.seats): None or "" = "both"; else one of both, list-first, random
    (400 naming `seats` otherwise)."""
    try:
        return seat_modes.check_seats(seats)
    except ValueError as exc:
        raise SimulationInvalid(f"seats: {exc}.", details={"path": "seats", "choices": list(seat_modes.SEAT_MODES)}
                                ) from None


def catalog_of(system: str):
    catalog = catalog_for(system)
    if catalog is None:
        raise SimulationInvalid(f"system: no cards are loaded for {system!r}.", details={"path": "system"})
    return catalog


def opponent_of(system: str, opponent_slug: Any, *, path: str = "opponent") -> dict[str, Any]:
    """The opponent dict a snapshot freezes for sample opponent `opponent_slug` ({"slug", **its package data})."""
    if not isinstance(opponent_slug, str) or not opponent_slug:
        raise SimulationInvalid(
            f"{path}: required, the slug of a sample opponent (GET /api/systems/{system}/opponents/).",
            details={"path": path},
        )
    opponent = Opponent.objects.filter(system__slug=system, slug=opponent_slug).first()
    if opponent is None:
        known = sorted(Opponent.objects.filter(system__slug=system).values_list("slug", flat=True))
        raise SimulationInvalid(
            f"{path}: {system} has no opponent {opponent_slug!r}; expected one of: {', '.join(known) or 'none'}.",
            details={"path": path},
        )
    return {"slug": opponent.slug, **opponent.data}


def check_list_cards(document: Mapping[str, Any], catalog, *, path: str = "") -> None:
    """Every card of a normalised list document is in the catalog (else 400 naming the section and position)."""
    system = document["system"]
    for section, entries in document["sections"].items():
        for position, entry in enumerate(entries):
            if entry["card"] not in catalog.cards:
                where = f"{path}sections.{section}[{position}]"
                raise SimulationInvalid(
                    f"{where}: card {entry['card']!r} is not in the {system} catalog.",
                    code="list.unknown_card", details={"path": where, "card": entry["card"]},
                )


def simulation_snapshot_build(
    *, document: dict[str, Any], opponent_slug: Any, policy: Any = None, opponent_policy: Any = None,
    seats: Any = None,
) -> dict[str, Any]:
    """The hangar.snapshot/1 of a normalised list document against the current catalog (rules_engine.simulation.
    build_snapshot: the list, every card it and the opponent use, the opponent's dict, the policy, the seat mode,
    the options)."""
    system = document["system"]
    catalog = catalog_of(system)
    opponent = opponent_of(system, opponent_slug)
    policy, opponent_policy = check_policy(policy), check_opponent_policy(opponent_policy)
    seats = check_seats(seats)
    check_list_cards(document, catalog)
    load_simulator_modules()
    try:  # the same snapshot as `manage.py simulate` builds, so both share stored results
        return engine.build_snapshot(document, catalog.cards, opponent, policy=policy, opponent_policy=opponent_policy,
                                     seats=seats)
    except engine.SimulationInputError as exc:
        raise SimulationInvalid(str(exc)) from exc


# --- checks (raise, write nothing) --------------------------------------------------------------------------


def check_games_limit(games: Any) -> None:
    """Past settings.HANGAR_MAX_GAMES (and the engine's MAX_GAMES): 429 with the limit in the message."""
    limit = min(settings.HANGAR_MAX_GAMES, engine.MAX_GAMES)
    if isinstance(games, int) and not isinstance(games, bool) and games > limit:
        raise SimulationLimitExceeded(
            f"games: {games} games is more than the {limit} a run may play; split it into smaller runs.",
            details={"path": "games", "limit": limit},
        )


def check_snapshot(snapshot: Any, *, games: Any, seed: Any) -> None:
    """The engine's own check of the run and a full `prepare` of the snapshot, here, so bad input is a 400 now
    rather than a failed run later."""
    load_simulator_modules()
    check_games_limit(games)
    try:
        simulator = engine.check_run(snapshot, games=games, seed=seed)  # the list's size first: cheap
        simulator.prepare(snapshot)
    except engine.ListTooLargeToSimulate as exc:
        raise SimulationListTooLarge(
            str(exc), details={"path": "list", "system": exc.system, "size": exc.size, "limit": exc.limit}
        ) from exc
    except engine.SimulationInputError as exc:
        raise SimulationInvalid(str(exc)) from exc
