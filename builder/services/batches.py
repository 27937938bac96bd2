"""Gauntlet and list doctor runs on the simulation workers (docs/simulations.md, "Gauntlet and doctor
runs in the workers").

A gauntlet plays one list against several weighted opponents; the doctor plays the list and up to K single changes
of it against them, on the same seeds. Both freeze a hangar.batch/1 (rules_engine.batch, rules_engine.doctor) in a
SimulationRun of kind "gauntlet" / "doctor"; its chunks are played, stored, merged, cancelled and re-queued by the
same machinery as a plain run (builder.services.runs_submit, runs_chunks, runs_merge, runs_stop, runs_watchdog),
so the result is the same whatever the workers.

An opponent is {"opponent": sample opponent slug, "weight": w} or {"list": saved list id, "weight": w}: a list
played by `opponent_policy` (or `policy`), which must be public (in the gallery) or the user's own. Bad input is a
SimulationInvalid (400) whose details name the path (opponents[1].list, changes, ...); nothing is written.
"""
from __future__ import annotations

import math
from typing import Any, NamedTuple

from django.conf import settings

from builder import event_selectors, selectors
from builder.errors import DoctorApplyRefused, ListNotFound, ListPermissionDenied, SimulationInvalid, SimulationLimitExceeded
from builder.models import ACTIVE_STATUSES, GameList, ListRevision, RunKind, RunStatus, SimulationRun
from rules_engine import doctor as doctor_engine
from rules_engine.batch import MAX_LEGS, batch_chunks, check_batch, gauntlet_batch
from rules_engine import simulation as engine
from rules_engine.systems import system as game_system

from .lists import check_document, list_update
from .runs_input import (
    catalog_of, check_games_limit, check_list_cards, check_opponent_policy, check_policy, check_seats,
    load_simulator_modules, opponent_of,
)
from .runs_submit import simulation_chunk_size, start_run

DEFAULT_CHANGES = 10
MAX_WEIGHT = 1_000_000


def _document(*, game_list: GameList | None, document: Any) -> dict[str, Any]:
    if (game_list is None) == (document is None):
        raise SimulationInvalid("Give exactly one of 'list' (a saved list id) or 'document' (a hangar.list/1 JSON).",
                                details={"path": "list"})
    if game_list is not None:
        return selectors.list_document(game_list)
    doc, _system = check_document(document)
    return doc


def _weight(value: Any, path: str) -> float:
    if value is None:
        return 1.0
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (0 <= value <= MAX_WEIGHT) \
            or (isinstance(value, float) and not math.isfinite(value)):
        raise SimulationInvalid(f"{path}: expected a number from 0 to {MAX_WEIGHT}, got {value!r}.",
                                details={"path": path})
    return float(value)


def _list_opponent(user, system: str, catalog, slug: Any, path: str) -> tuple[str, dict[str, Any]]:
    """A saved list as an opponent: one the user may see (public, unlisted — whoever has its link may open and copy
    it — or their own), not in the trash; anyone else's private list is refused without its name."""
    if not isinstance(slug, str) or not slug:
        raise SimulationInvalid(f"{path}: expected the id of a saved list.", details={"path": path})
    well_formed = selectors.LIST_SLUG.fullmatch(slug) is not None  # e.g. a NUL, which PostgreSQL refuses
    game_list = (GameList.objects.select_related("system").prefetch_related("entries").filter(slug=slug).first()
                 if well_formed else None)
    if game_list is None or not selectors.list_can_see(game_list, user):
        raise SimulationInvalid(
            f"{path}: no list {slug!r} you may play against: an opponent list must be public (in the gallery), "
            "unlisted (given by its link) or one of your own.", code="simulation.opponent_list",
            details={"path": path, "list": slug})
    if game_list.deleted_at is not None:
        raise SimulationInvalid(f"{path}: list {slug!r} is in the trash; restore it first.",
                                code="simulation.opponent_list", details={"path": path, "list": slug})
    if game_list.system.slug != system:
        raise SimulationInvalid(
            f"{path}: list {slug!r} is a {game_list.system.slug} list; it cannot play a {system} list.",
            code="simulation.opponent_list", details={"path": path, "list": slug})
    document = selectors.list_document(game_list)
    check_list_cards(document, catalog, path=f"{path} ({slug}): ")
    key = f"list:{slug}"
    try:
        return key, game_system(system).list_opponent(document, slug=key, name=game_list.name or slug)
    except ValueError as exc:
        raise SimulationInvalid(f"{path}: {exc}.", details={"path": path}) from exc


class EventOpponent(NamedTuple):
    """A list of a tournament event's field (builder.event_selectors.event_field): its locked snapshot, played as a
    list opponent. Only expand_fields makes one (no JSON body can), so a snapshot never comes from a request."""

    key: str
    name: str
    document: dict[str, Any]
    weight: float


def _event_field(user, system: str, given: dict[str, Any], path: str) -> list[tuple[str, Any]]:
    """The entries of {"event": id}: the event's distinct lists, weighted by how many players brought each, when
    `user` may see its lists (after they are shown; the organiser always)."""
    extra = sorted(set(given) - {"event"})
    if extra:
        raise SimulationInvalid(f"{path}: an event's field takes no {extra[0]!r}: its lists are weighted by how "
                                "many players brought each.", details={"path": f"{path}.{extra[0]}"})
    try:
        event = event_selectors.event_get(slug=given["event"], user=user)
    except ListNotFound:
        event = None
    entries = event_selectors.event_field(event, user=user) if event is not None else []
    if event is None or not event_selectors.event_lists_visible(event, user):
        raise SimulationInvalid(f"{path}.event: no event {str(given['event'])[:40]!r} whose lists you may see "
                                "(an event's lists are shown when its organiser publishes them).",
                                code="simulation.event", details={"path": f"{path}.event"})
    if event.system.slug != system:
        raise SimulationInvalid(f"{path}.event: event {event.slug!r} plays {event.system.slug}; it cannot play a "
                                f"{system} list.", code="simulation.event", details={"path": f"{path}.event"})
    if not entries:
        raise SimulationInvalid(f"{path}.event: no list has been submitted to event {event.slug!r}.",
                                code="simulation.event", details={"path": f"{path}.event"})
    return [(f"{path}.event lists[{number}]",
             EventOpponent(entry["key"], entry["name"], entry["document"], float(entry["weight"])))
            for number, entry in enumerate(entries)]


def _event_opponent(system: str, catalog, given: EventOpponent, path: str) -> dict[str, Any]:
    check_list_cards(given.document, catalog, path=f"{path} ({given.name}): ")
    try:
        return game_system(system).list_opponent(given.document, slug=given.key, name=given.name)
    except ValueError as exc:
        raise SimulationInvalid(f"{path}: {exc}.", details={"path": path}) from exc


def _event_of(given: EventOpponent) -> str:
    return event_selectors.event_field_key(given.key)[0]


def _cut_events(expanded: list[tuple[str, Any]], most: int) -> list[tuple[str, Any]]:
    """An event's field past what the run may play keeps its lists brought by most players (event_field's order:
    the most brought first, then by name), sharing the room the other opponents leave between the events given
    (at least one list each; with less room than that the whole request is refused by the caller). The result pages
    say how many of the event's lists and players were played (builder/web/eventfield.py `event_coverage`)."""
    events = [_event_of(given) for _path, given in expanded if isinstance(given, EventOpponent)]
    if len(expanded) <= most or not events:
        return expanded
    distinct = list(dict.fromkeys(events))
    room = most - (len(expanded) - len(events))
    if room < len(distinct):
        return expanded
    share = {slug: room // len(distinct) + (1 if number < room % len(distinct) else 0)
             for number, slug in enumerate(distinct)}
    kept: list[tuple[str, Any]] = []
    for path, given in expanded:
        if isinstance(given, EventOpponent):
            slug = _event_of(given)
            if share[slug] <= 0:
                continue
            share[slug] -= 1
        kept.append((path, given))
    return kept


def expand_fields(user, system: str, opponents: list[Any], most: int | None = None) -> list[tuple[str, Any]]:
    """(path, opponent) of every opponent given, a {"field": id} replaced by the field's entries that `user` may
    see and play (builder.selectors.field_opponents), each with the path "opponents[i].field entries[j]", and an
    {"event": id} by the event's field (its lists, EventOpponent). Given `most` (the opponents the run may play),
    an event's field past it keeps its most brought lists (_cut_events)."""
    expanded: list[tuple[str, Any]] = []
    for index, given in enumerate(opponents):
        path = f"opponents[{index}]"
        if isinstance(given, dict) and "event" in given:
            expanded.extend(_event_field(user, system, given, path))
            continue
        if not (isinstance(given, dict) and "field" in given):
            expanded.append((path, given))
            continue
        extra = sorted(set(given) - {"field"})
        if extra:
            raise SimulationInvalid(f"{path}: a field takes no {extra[0]!r}: its entries carry their own weights.",
                                    details={"path": f"{path}.{extra[0]}"})
        try:
            field = selectors.field_get(slug=given["field"], user=user)
        except ListNotFound:
            raise SimulationInvalid(f"{path}.field: no field {given['field']!r} you may see.",
                                    code="simulation.field", details={"path": f"{path}.field"}) from None
        if field.system.slug != system:
            raise SimulationInvalid(f"{path}.field: field {field.slug!r} is a {field.system.slug} field; it cannot "
                                    f"play a {system} list.", code="simulation.field",
                                    details={"path": f"{path}.field"})
        entries = selectors.field_opponents(field, user=user)
        if not entries:
            raise SimulationInvalid(f"{path}.field: field {field.slug!r} has no opponent you may play against.",
                                    code="simulation.field", details={"path": f"{path}.field"})
        expanded.extend((f"{path}.field entries[{number}]", entry) for number, entry in enumerate(entries))
    return expanded if most is None else _cut_events(expanded, most)


def check_opponents(user, system: str, catalog, opponents: Any, *, most: int = MAX_LEGS,
                    events_most: int | None = None) -> list[tuple[str, float, dict[str, Any]]]:
    """(key, weight, opponent dict) of every opponent given, in order (sample slugs keyed by slug, lists by
    "list:<id>"); a {"field": id} stands for the field's entries (expand_fields); an {"event": id} for the event's
    lists, cut to the room `most` (or `events_most`, when smaller) leaves them (_cut_events); 400 naming
    opponents[i] for anything wrong."""
    if not isinstance(opponents, list) or not opponents:
        raise SimulationInvalid(
            'opponents: expected a non-empty array of {"opponent": slug, "weight": w}, {"list": id, "weight": w}, '
            '{"field": id} or {"event": id}.', details={"path": "opponents"})
    if len(opponents) > most:
        raise SimulationInvalid(f"opponents: at most {most} opponents here, {len(opponents)} given.",
                                code="simulation.too_many_opponents",
                                details={"path": "opponents", "limit": most, "given": len(opponents)})
    expanded = expand_fields(user, system, opponents, min(most, events_most or most))
    if len(expanded) > most:
        raise SimulationInvalid(f"opponents: at most {most} opponents here, {len(expanded)} given with the "
                                "field's entries.", code="simulation.too_many_opponents",
                                details={"path": "opponents", "limit": most, "given": len(expanded)})
    found: list[tuple[str, float, dict[str, Any]]] = []
    for path, given in expanded:
        if isinstance(given, EventOpponent):
            if any(given.key == seen for seen, _w, _o in found):
                raise SimulationInvalid(f"{path}: {given.key} is given twice.", details={"path": path})
            found.append((given.key, given.weight, _event_opponent(system, catalog, given, path)))
            continue
        if not isinstance(given, dict) or ("opponent" in given) == ("list" in given):
            raise SimulationInvalid(f'{path}: expected {{"opponent": slug}} or {{"list": id}} (exactly one), '
                                    "with an optional \"weight\".", details={"path": path})
        extra = sorted(set(given) - {"opponent", "list", "weight"})
        if extra:
            raise SimulationInvalid(f"{path}: unknown field {extra[0]!r} (expected opponent or list, and weight).",
                                    details={"path": f"{path}.{extra[0]}"})
        weight = _weight(given.get("weight"), f"{path}.weight")
        if "opponent" in given:
            opponent = opponent_of(system, given["opponent"], path=f"{path}.opponent")
            key = opponent["slug"]
        else:
            key, opponent = _list_opponent(user, system, catalog, given["list"], f"{path}.list")
        if any(key == seen for seen, _w, _o in found):
            raise SimulationInvalid(f"{path}: {key} is given twice.", details={"path": path})
        found.append((key, weight, opponent))
    if not any(weight > 0 for _k, weight, _o in found):
        raise SimulationInvalid("opponents: at least one opponent needs a weight above 0.",
                                details={"path": "opponents"})
    return found


def _check_batch(batch: dict[str, Any], *, games: Any, seed: Any) -> None:
    load_simulator_modules()
    check_games_limit(games)
    try:
        check_batch(batch, games=games, seed=seed)
    except engine.SimulationInputError as exc:
        raise SimulationInvalid(str(exc)) from exc


def _snapshots(document, catalog, opponents, policy: str, opponent_policy: str | None, seats: str = "both"
               ) -> list[tuple[str, float, dict[str, Any]]]:
    load_simulator_modules()
    try:  # exactly the snapshot a plain simulation_start builds against each opponent: the rows equal those runs
        return [(key, weight, engine.build_snapshot(document, catalog.cards, opponent, policy=policy,
                                                    opponent_policy=opponent_policy, seats=seats))
                for key, weight, opponent in opponents]
    except engine.SimulationInputError as exc:
        raise SimulationInvalid(str(exc)) from exc


def batch_chunk_size(batch: dict[str, Any], *, seed: int) -> int:
    """Games per chunk of a batch run, one size for every leg: the first leg's measured size (the probe of a plain
    run, simulation_chunk_size), never more than the smallest `chunk_size_for` of the legs. The legs of a doctor
    run play the same opponents with nearly the same list, so the first leg's cost stands for all of them; probing
    every leg would cost the request up to 0.2 s per leg."""
    measured = simulation_chunk_size(batch["legs"][0]["snapshot"], seed=seed)
    return max(1, min([measured] + [engine.chunk_size_for(leg["snapshot"]) for leg in batch["legs"]]))


def _start(user, kind: str, batch: dict[str, Any], game_list, games, seed, opponents, policy) -> SimulationRun:
    _check_batch(batch, games=games, seed=seed)
    legs = len(batch["legs"])
    limit = min(settings.HANGAR_MAX_GAMES, engine.MAX_GAMES)
    label = ",".join(key for key, _w, _o in opponents)
    if kind == RunKind.DOCTOR:  # `games` is the whole run's budget (rules_engine.doctor: screen, then confirm)
        stages = [_doctor_screen(batch, games=games, seed=seed)]
        return start_run(
            user=user, kind=kind, frozen=batch, game_list=game_list, games=games, seed=seed,
            opponent=label if len(label) <= 64 else f"{len(opponents)} opponents", policy=policy,
            chunk_size=lambda: batch_chunk_size(batch, seed=seed),
            chunks_total=lambda size: len(doctor_engine.stage_chunks(batch, stages, size)), stages=stages,
        )
    if legs > 1 and games * legs > limit:  # games is a checked int here
        raise SimulationLimitExceeded(
            f"games: {games} games × {legs} lists and opponents is {games * legs} games, more than the {limit} a "
            "run may play; play fewer games, opponents or changes.",
            details={"path": "games", "limit": limit, "legs": legs})
    return start_run(
        user=user, kind=kind, frozen=batch, game_list=game_list, games=games, seed=seed,
        opponent=label if len(label) <= 64 else f"{len(opponents)} opponents", policy=policy,
        chunk_size=lambda: batch_chunk_size(batch, seed=seed),
        chunks_total=lambda size: len(batch_chunks(batch, games, size)),
    )


def gauntlet_start(
    *, user, game_list: GameList | None = None, document: Any = None, opponents: Any, policy: Any = None,
    opponent_policy: Any = None, seats: Any = None, games: Any, seed: Any,
) -> SimulationRun:
    """Start (or reuse) a gauntlet run: the list against every opponent, `games` games each on seed `seed` with
    seat mode `seats`; its result (gauntlet_result) has a row per opponent, each exactly the plain run against it,
    and the weighted total. Raises SimulationInvalid (400), SimulationLimitExceeded (429) or
    SimulationBrokerUnavailable (503)."""
    doc = _document(game_list=game_list, document=document)
    catalog = catalog_of(doc["system"])
    policy, opponent_policy = check_policy(policy), check_opponent_policy(opponent_policy)
    seats = check_seats(seats)
    check_list_cards(doc, catalog)
    found = check_opponents(user, doc["system"], catalog, opponents)
    batch = gauntlet_batch(_snapshots(doc, catalog, found, policy, opponent_policy, seats))
    return _start(user, RunKind.GAUNTLET, batch, game_list, games, seed, found, policy)


def _check_changes(changes: Any, opponents: int) -> int:
    most = MAX_LEGS // opponents - 1
    if isinstance(changes, bool) or not isinstance(changes, int) or changes < 1:
        raise SimulationInvalid(f"changes: expected a whole number from 1 to {most}, got {changes!r}.",
                                details={"path": "changes"})
    if changes > most:
        raise SimulationInvalid(
            f"changes: at most {most} changes with {opponents} opponent{'s' if opponents > 1 else ''} "
            f"(a doctor run plays at most {MAX_LEGS} lists × opponents), {changes} asked.",
            details={"path": "changes", "limit": most})
    return changes


def _doctor_screen(batch: dict[str, Any], *, games: int, seed: int) -> dict[str, Any]:
    """The screen stage of a doctor run of budget `games`; a budget below the doctor's minimum is a 400
    (doctor.too_few_games) naming `games`, with the minimum and why."""
    try:
        return doctor_engine.screen_stage(batch, games=games, seed=seed)
    except doctor_engine.TooFewGames as exc:
        raise SimulationInvalid(str(exc), code="doctor.too_few_games",
                                details={"path": "games", "minimum": exc.minimum, "given": exc.games,
                                         "changes": exc.changes, "opponents": exc.opponents}) from exc


def doctor_start(
    *, user, game_list: GameList | None = None, document: Any = None, opponents: Any, changes: Any = DEFAULT_CHANGES,
    policy: Any = None, opponent_policy: Any = None, seats: Any = None, games: Any, seed: Any,
) -> SimulationRun:
    """Start (or reuse) a list doctor run of `games` games in all (its budget): the (legal) list and up to `changes`
    single changes of it (candidate_changes) screened against every opponent on the same seeds, then the leaders
    replayed on fresh seeds (rules_engine.doctor: the confirm stage, added when the screen is merged); its result
    (doctor_result) has the list's own rows (exactly the plain runs of the screen's games), the cards it rarely used
    and every change with its verdict. A budget below the minimum is a 400 (doctor.too_few_games, path games)."""
    doc = _document(game_list=game_list, document=document)
    catalog = catalog_of(doc["system"])
    policy, opponent_policy = check_policy(policy), check_opponent_policy(opponent_policy)
    seats = check_seats(seats)
    check_list_cards(doc, catalog)
    room = (MAX_LEGS // (changes + 1) if isinstance(changes, int) and not isinstance(changes, bool) and changes >= 1
            else None)  # an event's field leaves room for the changes asked
    found = check_opponents(user, doc["system"], catalog, opponents, most=MAX_LEGS // 2, events_most=room)
    limit = _check_changes(changes, len(found))
    try:
        candidates = doctor_engine.candidate_changes(doc, catalog, limit=limit)
    except ValueError as exc:
        raise SimulationInvalid(f"list: {exc}", code="doctor.illegal_list", details={"path": "list"}) from exc
    snapshots = _snapshots(doc, catalog, found, policy, opponent_policy, seats)
    batch = doctor_engine.doctor_batch(snapshots[0][2], candidates, snapshots, catalog.cards)
    return _start(user, RunKind.DOCTOR, batch, game_list, games, seed, found, policy)


def impact_start(
    *, user, game_list: GameList | None = None, document: Any = None, opponents: Any, policy: Any = None,
    opponent_policy: Any = None, seats: Any = None, games: Any, seed: Any,
) -> SimulationRun:
    """Start (or reuse) "test every card": a list doctor run (variant impact) whose changes are exactly one copy
    out of every distinct card of the list (rules_engine.doctor.impact_changes; a removal that breaks a
    construction rule is measured anyway and marked), within a budget of `games` games: the screen on the run seed,
    the clearest effects confirmed on fresh seeds; each card's verdict is helps, hurts or no detectable effect after
    Holm's correction. More distinct cards × opponents than a run may hold, or a budget below the minimum, is a 400
    (path opponents / games)."""
    doc = _document(game_list=game_list, document=document)
    catalog = catalog_of(doc["system"])
    policy, opponent_policy = check_policy(policy), check_opponent_policy(opponent_policy)
    seats = check_seats(seats)
    check_list_cards(doc, catalog)
    try:
        candidates = doctor_engine.impact_changes(doc, catalog)
    except ValueError as exc:
        raise SimulationInvalid(f"list: {exc}.", code="impact.too_few_cards", details={"path": "list"}) from exc
    found = check_opponents(user, doc["system"], catalog, opponents, most=MAX_LEGS // 2,
                            events_most=max(1, MAX_LEGS // (len(candidates) + 1)))  # an event's field fits the cards
    lists = (len(candidates) + 1) * len(found)
    if lists > MAX_LEGS:
        raise SimulationInvalid(
            f"opponents: {len(candidates)} distinct cards against {len(found)} opponents is {lists} lists to play, "
            f"more than the {MAX_LEGS} a run may hold; give at most {max(1, MAX_LEGS // (len(candidates) + 1))} "
            "opponents.", code="impact.too_many_lists",
            details={"path": "opponents", "limit": MAX_LEGS, "cards": len(candidates)})
    snapshots = _snapshots(doc, catalog, found, policy, opponent_policy, seats)
    batch = doctor_engine.doctor_batch(snapshots[0][2], candidates, snapshots, catalog.cards,
                                       variant=doctor_engine.IMPACT)
    return _start(user, RunKind.DOCTOR, batch, game_list, games, seed, found, policy)


def doctor_change_document(run: SimulationRun, change_key: Any) -> dict[str, Any]:
    """The list document of change `change_key` of a doctor run, as the run froze it (a leg's about.document)."""
    if run.kind != RunKind.DOCTOR:
        raise SimulationInvalid(f"Run {run.public_id} is a {run.kind} run; only a list doctor run has changes "
                                "to apply.", code="doctor.not_doctor", details={"path": "run"})
    if not isinstance(change_key, str) or not change_key:
        raise SimulationInvalid("change: expected the key of one of the run's changes (result.changes[].key).",
                                details={"path": "change"})
    for leg in (run.snapshot or {}).get("legs") or []:
        if leg.get("change") == change_key and change_key != doctor_engine.BASELINE:
            document = (leg.get("about") or {}).get("document")
            if isinstance(document, dict):
                return document
    known = sorted({leg.get("change") for leg in (run.snapshot or {}).get("legs") or []
                    if leg.get("change") not in (None, doctor_engine.BASELINE)})
    shown = ", ".join(known[:5]) + (", ..." if len(known) > 5 else "")
    raise SimulationInvalid(f"change: run {run.public_id} has no change {change_key!r}"
                            + (f"; its changes are: {shown}." if known else "; it tried no change."),
                            code="doctor.unknown_change", details={"path": "change"})


class AppliedChange(NamedTuple):
    """What doctor_apply saved: `game_list, revision = doctor_apply(...)`; `.number` is the revision's number."""

    game_list: GameList
    revision: ListRevision

    @property
    def number(self) -> int:
        return self.revision.number


class Refusal(NamedTuple):
    """Why a doctor's change cannot be applied: `reason` is "playing", "incomplete", "list_changed" or
    "not_confirmed" (pages put it in words of their language), `message` says it in English with the run's and the list's ids."""

    reason: str
    message: str


def apply_refusal(run: SimulationRun, game_list: GameList | None = None) -> Refusal | None:
    """Why a change of doctor run `run` cannot be applied now (None: it can). A change stands for its
    figures only when the run is done (a running run's ranking can still change; a cancelled or failed run's is
    incomplete) and the list still holds the cards the run played (edits of its name or notes do not count)."""
    if run.status != RunStatus.DONE:
        if run.status in ACTIVE_STATUSES:
            return Refusal("playing", f"Run {run.public_id} is still playing ({run.chunks_done} of "
                           f"{run.chunks_total} parts done): its ranking can still change. Apply a change when it "
                           "is done.")
        ended = "was cancelled" if run.status == RunStatus.CANCELLED else "failed"
        return Refusal("incomplete", f"Run {run.public_id} {ended} before all its games were played, so its "
                       "ranking is incomplete. Run the doctor again.")
    game_list = game_list or GameList.objects.select_related("system").filter(pk=run.game_list_id).first()
    if game_list is not None:
        played = selectors.list_cards((run.snapshot or {}).get("list"))
        if played is not None and selectors.list_cards(selectors.list_document(game_list)) != played:
            return Refusal("list_changed", f"List {game_list.slug} has changed since run {run.public_id}: the "
                           "run's figures are for the cards it had then. Run the doctor again on the list as it "
                           "is now.")
    return None


def _unconfirmed(run: SimulationRun, change_key: Any) -> Refusal | None:
    """A change the doctor did not confirm better on fresh seeds (its verdict is "no detectable effect" or "worse")
    is never applied: its measured effect may be luck (docs/simulations.md "List doctor")."""
    for change in (run.result or {}).get("changes") or []:
        if change.get("key") == change_key and change.get("confirmed"):
            return None
    return Refusal("not_confirmed", f"Change {change_key!r} of run {run.public_id} was not confirmed better on fresh "
                   "games: its effect may be luck, so it is not applied. Only a confirmed change can be applied.")


def doctor_apply(*, user, run: SimulationRun, change_key: Any) -> AppliedChange:
    """Save change `change_key` of doctor run `run` as a new revision of the run's list (list_update: only the
    list's owner, not in the trash); returns (the updated list, the new revision). Only a finished run's change
    whose list still holds the cards the run played is applied (DoctorApplyRefused, 409, says why otherwise); the
    new revision keeps the list's name, notes and format as they are now and takes the change's cards."""
    document = doctor_change_document(run, change_key)
    if run.game_list_id is None:
        raise SimulationInvalid(
            f"Run {run.public_id} has no saved list (it was started from a posted document, or its list was "
            "deleted): save the change's document (result.changes[].key → the list) as a new list instead.",
            code="doctor.no_list", details={"path": "run"})
    game_list = GameList.objects.select_related("system").get(pk=run.game_list_id)
    if game_list.owner_id != getattr(user, "pk", None):
        if selectors.list_can_see(game_list, user):
            raise ListPermissionDenied("Only the owner of this list can change it.")
        raise ListNotFound(f"No list with id {game_list.slug!r}.")
    refusal = apply_refusal(run, game_list) or _unconfirmed(run, change_key)
    if refusal is not None:
        raise DoctorApplyRefused(refusal.message, details={"path": "run", "reason": refusal.reason})
    current = selectors.list_document(game_list)
    saved = list_update(game_list=game_list, user=user, document={**current, "sections": document["sections"]},
                        expected_version=game_list.version)
    revision = saved.revisions.select_related("author").order_by("-number").first()
    return AppliedChange(saved, revision)


__all__ = ["AppliedChange", "DEFAULT_CHANGES", "Refusal", "apply_refusal", "check_opponents", "expand_fields", "doctor_apply", "doctor_change_document", "doctor_start",
           "impact_start",
           "gauntlet_start"]
