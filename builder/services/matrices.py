"""Matchup matrices and "what beats my list" (docs/simulations.md "Matchup matrix and what beats my list").

A matrix plays each of the user's lists (its rows) against each opponent of a field (its columns). Every cell IS a
plain simulation run of that list against that opponent, with the matrix's games, seed, seat mode and policies:
exactly the snapshot `simulation_start` freezes (the gauntlet's `engine.build_snapshot` call), started through
`start_run`, so a cell is reused whenever a stored run answers the same question (the user's own run as is, or a
copy of another player's finished one: `reused_from`) and otherwise played in chunks by the workers like any run.
The matrix record (MatchupMatrix) only groups the cells; its status and progress are its cells'.

The field is a list of weighted opponents in the gauntlet's shape (builder.services.batches.check_opponents):
{"opponent": sample slug, "weight": w} or {"list": saved list id, "weight": w}; a named field's
`selectors.field_opponents(field, user=...)` gives that shape. An opponent list must be one the user may see, as a
gauntlet's (their own, a public one, or another player's unlisted list by its link): another player's private list
never enters a field (400 naming opponents[i]).

"What beats my list" (`beats_start`) is a one-row matrix: the list against every sample opponent and every public
list of its game (the newest first, up to the size bound; how many were left out is kept), or against a named field
the user may see (its entries the user may play, as a gauntlet takes `{"field": id}`) when one is given, and/or a
tournament event's field (`{"event": id}`: its lists, weighted by how many players brought each).

Size: rows × columns ≤ MAX_CELLS and rows × columns × games ≤ settings.HANGAR_MAX_GAMES, else a 400
(`matrix.too_large`) saying the product and the bound; nothing is written.
"""
from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from builder import selectors
from builder.errors import ListPermissionDenied, SimulationInvalid
from builder.models import GameList, MatchupMatrix, MatrixCell, MatrixKind, RunKind, Visibility
from cards.models import Opponent
from rules_engine import simulation as engine

from .batches import check_opponents
from .budget import check_run_work
from .runs_input import (
    catalog_of, check_list_cards, check_opponent_policy, check_policy, check_seats, check_snapshot,
    load_simulator_modules,
)
from .runs_submit import check_broker, check_concurrent_runs, simulation_chunk_size, start_run

MAX_ROWS = 8  # the user's lists in one matrix
MAX_CELLS = 64  # lists × opponents


def _size_error(message: str, **details: Any) -> SimulationInvalid:
    return SimulationInvalid(message, code="matrix.too_large", details=details)


def check_matrix_size(rows: int, columns: int, games: Any) -> None:
    """rows × columns ≤ MAX_CELLS and rows × columns × games ≤ HANGAR_MAX_GAMES (400 matrix.too_large)."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SimulationInvalid(f"games: expected a whole number of games per cell (1 or more), got {games!r}.",
                                details={"path": "games"})
    cells = rows * columns
    if cells > MAX_CELLS:
        raise _size_error(f"opponents: {rows} lists × {columns} opponents is {cells} cells, more than the "
                          f"{MAX_CELLS} a matrix may have; choose fewer lists or opponents.",
                          path="opponents", cells=cells, limit=MAX_CELLS)
    limit = min(settings.HANGAR_MAX_GAMES, engine.MAX_GAMES)
    if cells * games > limit:
        raise _size_error(f"games: {rows} lists × {columns} opponents × {games} games is {cells * games} games, "
                          f"more than the {limit} a matrix may play; play fewer games per cell (at most "
                          f"{max(1, limit // cells)} here), lists or opponents.",
                          path="games", games=cells * games, limit=limit, most_per_cell=max(1, limit // cells))


def _own_lists(user, lists: Any) -> list[GameList]:
    """The user's own lists named by id, in order: any other (someone else's, missing, trashed) is a 400 naming
    lists[i] with the same words, so a private list of another player is not told from a missing one."""
    if not isinstance(lists, list) or not lists:
        raise SimulationInvalid("lists: expected a non-empty array of the ids of your lists.",
                                details={"path": "lists"})
    if len(lists) > MAX_ROWS:
        raise _size_error(f"lists: at most {MAX_ROWS} lists in a matrix, {len(lists)} given.", path="lists",
                          limit=MAX_ROWS)
    found: list[GameList] = []
    for index, slug in enumerate(lists):
        path = f"lists[{index}]"
        game_list = None
        if isinstance(slug, str) and selectors.LIST_SLUG.fullmatch(slug):
            game_list = (GameList.objects.select_related("system").prefetch_related("entries")
                         .filter(slug=slug, owner_id=getattr(user, "pk", None), deleted_at__isnull=True).first())
        if game_list is None:
            raise SimulationInvalid(f"{path}: you have no list {slug!r} (a matrix's rows are your own lists, not in "
                                    "the trash).", details={"path": path})
        if any(seen.pk == game_list.pk for seen in found):
            raise SimulationInvalid(f"{path}: list {slug!r} is given twice.", details={"path": path})
        if found and game_list.system_id != found[0].system_id:
            raise SimulationInvalid(f"{path}: list {slug!r} is a {game_list.system.slug} list and lists[0] a "
                                    f"{found[0].system.slug} list; a matrix plays lists of one game.",
                                    details={"path": path})
        found.append(game_list)
    return found


def _column(key: str, weight: float, opponent: dict[str, Any]) -> dict[str, Any]:
    column = {"key": key, "weight": weight, "name": opponent.get("name") or key,
              "name_en": opponent.get("name_en") or "", "kind": opponent.get("kind") or ""}
    if key.startswith("list:"):
        column["list"] = key[len("list:"):]
    return column


def _start(user, kind: str, game_lists: list[GameList], opponents: list[tuple[str, float, dict[str, Any]]], *,
           games: int, seed: Any, seats: str, policy: str, opponent_policy: str | None, left_out: int = 0
           ) -> MatchupMatrix:
    system = game_lists[0].system.slug
    catalog = catalog_of(system)
    check_matrix_size(len(game_lists), len(opponents), games)
    load_simulator_modules()
    frozen: list[tuple[int, int, GameList, dict[str, Any]]] = []
    for row, game_list in enumerate(game_lists):
        document = selectors.list_document(game_list)
        check_list_cards(document, catalog, path=f"lists[{row}] ({game_list.slug}): ")
        for column, (_key, _weight, opponent) in enumerate(opponents):
            try:  # exactly the snapshot a plain simulation_start freezes for this list and opponent
                snapshot = engine.build_snapshot(document, catalog.cards, opponent, policy=policy,
                                                 opponent_policy=opponent_policy, seats=seats)
            except engine.SimulationInputError as exc:
                raise SimulationInvalid(f"lists[{row}] against opponents[{column}]: {exc}") from exc
            check_snapshot(snapshot, games=games, seed=seed)
            check_run_work(snapshot, games)  # every cell's budget before any is written (start_run checks again)
            frozen.append((row, column, game_list, snapshot))
    check_concurrent_runs(user)  # the matrix counts once; its cells are not refused for each other
    check_broker()
    probe: list[int] = []

    def chunk_size(snapshot):
        def size() -> int:  # the first new cell's measured size stands for the others (a gauntlet's rule)
            if not probe:
                probe.append(simulation_chunk_size(snapshot, seed=seed))
            return max(1, min(probe[0], engine.chunk_size_for(snapshot)))
        return size

    cells = []
    for row, column, game_list, snapshot in frozen:
        before = selectors.simulation_find_reusable(
            user=user, kind=RunKind.SIMULATION, snapshot_hash=engine.snapshot_hash(snapshot),
            opponent=str(snapshot["opponent"]["slug"])[:64], policy=str(snapshot.get("policy") or "")[:64],
            games=games, seed=seed, engine_version=engine.ENGINE_VERSION)
        run = start_run(
            user=user, kind=RunKind.SIMULATION, frozen=snapshot, game_list=game_list, games=games, seed=seed,
            opponent=str(snapshot["opponent"]["slug"]), policy=str(snapshot.get("policy") or ""),
            chunk_size=chunk_size(snapshot), chunks_total=lambda size, s=snapshot: len(engine.chunks(games, s, size)),
            count_active=False)
        cells.append((row, column, run, before is not None))
    with transaction.atomic():
        matrix = MatchupMatrix.objects.create(
            owner=user, kind=kind, system=system, games=games, seed=seed, seats=seats, policy=policy,
            opponent_policy=opponent_policy or "", left_out=left_out,
            rows=[{"list": game_list.slug, "name": game_list.name or ""} for game_list in game_lists],
            columns=[_column(key, weight, opponent) for key, weight, opponent in opponents])
        MatrixCell.objects.bulk_create([MatrixCell(matrix=matrix, row=row, column=column, run=run, reused=reused)
                                        for row, column, run, reused in cells])
    return matrix


def matrix_start(*, user, lists: Any, opponents: Any, games: Any, seed: Any, seats: Any = None, policy: Any = None,
                 opponent_policy: Any = None) -> MatchupMatrix:
    """Start a matchup matrix: each of the user's `lists` against each opponent of `opponents` (the gauntlet's
    weighted shape), `games` games per cell on seed `seed`. Every cell is a plain run, reused when stored.
    Raises SimulationInvalid (400: bad input, matrix.too_large), SimulationLimitExceeded (429: too many runs at
    once) or SimulationBrokerUnavailable (503); nothing is written then."""
    game_lists = _own_lists(user, lists)
    system = game_lists[0].system.slug
    policy, opponent_policy, seats = check_policy(policy), check_opponent_policy(opponent_policy), check_seats(seats)
    found = check_opponents(user, system, catalog_of(system), opponents, most=MAX_CELLS,
                            events_most=max(1, MAX_CELLS // len(game_lists)))  # an event's field fits the rows
    check_matrix_size(len(game_lists), len(found), games)
    return _start(user, MatrixKind.MATRIX, game_lists, found, games=games, seed=seed, seats=seats, policy=policy,
                  opponent_policy=opponent_policy)


def beats_field(game_list: GameList, *, user, most: int = MAX_CELLS) -> tuple[list[dict[str, Any]], int]:
    """The field of "what beats my list": every sample opponent of the list's game, then every public list of the
    game that has cards (the newest first; never the list itself, never a private or unlisted list), at most `most`
    opponents; and how many public lists were left out past that."""
    system = game_list.system.slug
    field: list[dict[str, Any]] = [{"opponent": slug} for slug in Opponent.objects.filter(system__slug=system)
                                   .order_by("slug").values_list("slug", flat=True)][:most]
    public = (GameList.objects.filter(system__slug=system, visibility=Visibility.PUBLIC, deleted_at__isnull=True)
              .exclude(pk=game_list.pk).annotate(entry_count=Count("entries")).filter(entry_count__gt=0)
              .order_by("-created_at", "-id").values_list("slug", flat=True))
    room = max(0, most - len(field))
    field += [{"list": slug} for slug in public[:room]]
    return field, max(0, public.count() - room)


def beats_start(*, user, game_list: GameList, games: Any, seed: Any, seats: Any = None, policy: Any = None,
                opponent_policy: Any = None, field: Any = None, event: Any = None) -> MatchupMatrix:
    """Start "what beats my list": the user's own `game_list` against every sample opponent and public list of its
    game (beats_field), `games` games each. The field is cut to what fits the size bound for `games` (at least
    one opponent); the matrix keeps how many public lists were left out. Given a named `field` (its id), the list
    plays that field's opponents instead (those the user may see: another player's private list never enters),
    refused whole (matrix.too_large) when they do not fit the size bound; given an `event` (its id), the lists of
    that event's field (each weighted by how many players brought it; only once the lists are shown to the user),
    with the named field's opponents or alone."""
    if game_list.owner_id != getattr(user, "pk", None):  # a list the user may see (the caller's list_get)
        raise ListPermissionDenied("Only the owner of this list can ask what beats it.")
    (game_list,) = _own_lists(user, [game_list.slug])
    system = game_list.system.slug
    policy, opponent_policy, seats = check_policy(policy), check_opponent_policy(opponent_policy), check_seats(seats)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        check_matrix_size(1, 1, games)
    if field not in (None, "") or event not in (None, ""):
        named: list[dict[str, Any]] = []
        if field not in (None, ""):
            if not isinstance(field, str):
                raise SimulationInvalid("field: expected the id of a field.", code="simulation.field",
                                        details={"path": "field"})
            named.append({"field": field})
        if event not in (None, ""):
            if not isinstance(event, str):
                raise SimulationInvalid("event: expected the id of an event.", code="simulation.event",
                                        details={"path": "event"})
            named.append({"event": event})
        found = check_opponents(user, system, catalog_of(system), named, most=MAX_CELLS)
        check_matrix_size(1, len(found), games)
        return _start(user, MatrixKind.BEATS, [game_list], found, games=games, seed=seed, seats=seats,
                      policy=policy, opponent_policy=opponent_policy)
    limit = min(settings.HANGAR_MAX_GAMES, engine.MAX_GAMES)
    field, left_out = beats_field(game_list, user=user, most=max(1, min(MAX_CELLS, limit // games)))
    catalog = catalog_of(system)
    found = []
    for opponent in field:  # a public list that cannot play here (a card no longer in the catalog) is left out
        try:
            found += check_opponents(user, system, catalog, [opponent])
        except SimulationInvalid:
            left_out += 1
    if not found:
        raise SimulationInvalid(f"list: there is no sample opponent or public list of {system} to play against.",
                                details={"path": "list"})
    return _start(user, MatrixKind.BEATS, [game_list], found, games=games, seed=seed, seats=seats, policy=policy,
                  opponent_policy=opponent_policy, left_out=left_out)


def matrix_cancel(*, matrix: MatchupMatrix, user) -> MatchupMatrix:
    """Cancel the user's matrix: every cell still queued or running that only this matrix waits for is cancelled (a
    stored cell stays as it is). A cell is a plain run, which may answer another question too: a run this matrix
    reused (the user's own simulation, or a run another of their matrices started) or one another matrix of theirs
    reused plays on for that matrix or simulation while it is not cancelled; `matrix.kept_playing` counts them (0 when
    none). The matrix is marked cancelled (`cancelled_at`), so that a run it shares is cancelled with the last matrix
    waiting for it."""
    from .runs_stop import simulation_cancel

    from builder.errors import SimulationNotActive

    MatchupMatrix.objects.filter(pk=matrix.pk, cancelled_at__isnull=True).update(cancelled_at=timezone.now())
    matrix.refresh_from_db(fields=["cancelled_at"])
    kept = 0
    for cell in matrix.cells.select_related("run"):
        run = cell.run
        if not (run.is_active and run.owner_id == user.pk):
            continue
        if _still_wanted(run, matrix):
            kept += 1
            continue
        try:
            simulation_cancel(run=run, user=user)
        except SimulationNotActive:  # it finished meanwhile: it stays as it is
            pass
    matrix.kept_playing = kept
    return matrix


def _still_wanted(run, matrix: MatchupMatrix) -> bool:
    """Whether a cell's run answers a question besides `matrix`: a simulation started on its own (no matrix started
    it: no cell holds it unreused) or another matrix of the user not cancelled."""
    holders = MatrixCell.objects.filter(run_id=run.pk)
    if not holders.filter(reused=False).exists():  # started on its own, then reused by matrices
        return True
    return holders.exclude(matrix_id=matrix.pk).filter(matrix__cancelled_at__isnull=True).exists()


__all__ = ["MAX_CELLS", "MAX_ROWS", "beats_field", "beats_start", "check_matrix_size", "matrix_cancel",
           "matrix_start"]
