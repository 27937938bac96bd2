"""Reads of tournament events (docs/events.md): who may see an event, its lists and its field; its state (locked,
published); its entrants with their current submissions; the check of a list against the event's pinned versions;
the verification code of a submission's sheet.

Who sees what (the permission matrix, tests/security/test_permission_matrix.py):
- the organiser and staff: everything, always;
- an entrant: the event, their own submissions; the other entrants' lists once the lists are shown;
- anyone else: an event with open registration (a join-code event only with its code), and its lists once shown;
- nothing of a list (its page, sheet, verification code, the API, the event's field) before the lists are shown.
"""
from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils import timezone

from cards.selectors import catalog_pinned
from cards.systems import SYSTEMS
from rules_engine.construction import validate_list

from .errors import ListInputError, ListNotFound
from .models import Event, EventEntrant, EventSubmission, ListsShown, Registration

VERIFICATION_HEX = 10
EVENT_SLUG_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def _now(at: datetime | None = None) -> datetime:
    return at or timezone.now()


def _uid(user) -> int | None:
    return user.pk if user is not None and user.is_authenticated else None


def _is_staff(user) -> bool:
    return bool(user is not None and user.is_authenticated and user.is_staff)


# --- state ----------------------------------------------------------------------------------------------------


def event_is_locked(event: Event, at: datetime | None = None) -> bool:
    """Locked by hand, or the deadline has passed (the lock is automatic: no task needs to run)."""
    return event.locked_at is not None or _now(at) >= event.deadline


def event_locked_at(event: Event) -> datetime | None:
    """When the lists locked (by hand or at the deadline), or None while they are open."""
    if event.locked_at is not None:
        return min(event.locked_at, event.deadline)
    return event.deadline if _now() >= event.deadline else None


def event_lists_shown(event: Event, at: datetime | None = None) -> bool:
    """Whether the entrants' lists are shown to the players: at once (open), from the publish time or when the
    organiser published them, never (organiser only)."""
    if event.lists_shown == ListsShown.OPEN:
        return True
    if event.lists_shown == ListsShown.ORGANISER:
        return False
    if event.published_at is not None:
        return True
    return event.publish_at is not None and _now(at) >= event.publish_at and event_is_locked(event, at)


def event_status(event: Event) -> str:
    """"open" (lists may be submitted), "locked" (they may not; not shown yet), "published" (locked and shown)."""
    if not event_is_locked(event):
        return "open"
    return "published" if event_lists_shown(event) else "locked"


# --- who may see what ---------------------------------------------------------------------------------------------


def event_entrant(event: Event, user, *, active: bool = True) -> EventEntrant | None:
    """The user's registration in the event (only one not withdrawn when `active`), or None."""
    uid = _uid(user)
    if uid is None:
        return None
    entrant = EventEntrant.objects.filter(event=event, player_id=uid).first()
    if entrant is None or (active and entrant.withdrawn_at is not None):
        return None
    return entrant


def event_is_organiser(event: Event, user) -> bool:
    """The organiser, or staff (who may run any event's list side)."""
    return event.organiser_id == _uid(user) or _is_staff(user)


def event_role(event: Event, user) -> str:
    """"organiser", "staff", "entrant", "user" (signed in, not in the event) or "anonymous"."""
    if _uid(user) is None:
        return "anonymous"
    if event.organiser_id == user.pk:
        return "organiser"
    if user.is_staff:
        return "staff"
    return "entrant" if event_entrant(event, user) is not None else "user"


def event_can_see(event: Event, user, code: str | None = None) -> bool:
    """The event's page: open registration for anyone; a join-code event for its organiser, staff, its entrants
    (withdrawn ones too) and whoever gives its code."""
    if event.registration == Registration.OPEN or event_is_organiser(event, user):
        return True
    if code and code.strip().upper() == event.join_code:
        return True
    return event_entrant(event, user, active=False) is not None


def event_get(*, slug: Any, user, code: str | None = None) -> Event:
    """The event `slug` if `user` may see it, else ListNotFound (404: a join-code event is not revealed)."""
    if not isinstance(slug, str) or not slug or len(slug) > 32 or not set(slug) <= EVENT_SLUG_CHARS:
        raise ListNotFound(f"No event with id {str(slug)[:40]!r}.")
    event = Event.objects.select_related("organiser", "system").filter(slug=slug).first()
    if event is None or not event_can_see(event, user, code):
        raise ListNotFound(f"No event with id {slug!r}.")
    return event


def event_lists_visible(event: Event, user) -> bool:
    """Every entrant's list: the organiser and staff always; anyone who may see the event once they are shown."""
    if event_is_organiser(event, user):
        return True
    return event_lists_shown(event) and event_can_see(event, user)


def submission_can_see(submission: EventSubmission, user) -> bool:
    """A submission: its player always; otherwise as every list of its event (event_lists_visible)."""
    if submission.entrant.player_id == _uid(user):
        return True
    return event_lists_visible(submission.entrant.event, user)


def submission_get(*, public_id: Any, user) -> EventSubmission:
    """A submission `user` may see, else ListNotFound (a hidden list is not revealed, not even that it exists)."""
    if not isinstance(public_id, str) or not public_id or len(public_id) > 32 \
            or not set(public_id) <= EVENT_SLUG_CHARS:
        raise ListNotFound(f"No submission with id {str(public_id)[:40]!r}.")
    submission = (EventSubmission.objects.select_related("entrant", "entrant__event", "entrant__event__system",
                                                         "entrant__event__organiser", "entrant__player")
                  .filter(public_id=public_id).first())
    if submission is None or not submission_can_see(submission, user):
        raise ListNotFound(f"No submission with id {public_id!r}.")
    return submission


def event_submissions(event: Event, user, *, history: bool = False) -> list[EventSubmission]:
    """The submissions of `event` that `user` may read, in joining order: the current one of every entrant when the
    lists are visible to them (event_lists_visible), else only their own (an entrant's, withdrawn too); never
    another player's before the lists are shown. `history`: every submission (newest first per player) instead of
    the current ones, for the organiser and staff of every player (withdrawn ones too), for anyone else of their
    own only."""
    organiser = event_is_organiser(event, user)
    uid = _uid(user)
    if history and not organiser:
        entrants = [entrant for entrant in entrants_with_lists(event, withdrawn=True) if entrant.player_id == uid]
    elif event_lists_visible(event, user):
        entrants = entrants_with_lists(event, withdrawn=history)
    else:
        entrants = [entrant for entrant in entrants_with_lists(event, withdrawn=True) if entrant.player_id == uid]
    found: list[EventSubmission] = []
    for entrant in entrants:
        for submission in entrant.history if history else [entrant.current] if entrant.current else []:
            submission.entrant = entrant  # the prefetched rows: their entrant (and its event) without a query
            found.append(submission)
    return found


# --- lists of events --------------------------------------------------------------------------------------------


def _system_filter(events: QuerySet[Event], system: Any) -> QuerySet[Event]:
    """Only the events of `system` (a game's slug; None or "" for every game); another value is a 400."""
    if system in (None, ""):
        return events
    if not isinstance(system, str) or system not in SYSTEMS:
        raise ListInputError(f"Query parameter 'system': unknown game {str(system)[:40]!r}; expected one of "
                             f"{', '.join(SYSTEMS)}.", code="event.bad_filter", details={"path": "system"})
    return events.filter(system__slug=system)


def events_open(*, system: str | None = None) -> QuerySet[Event]:
    """Events with open registration, the coming ones first (by date), then the past ones."""
    events = Event.objects.select_related("system", "organiser").filter(registration=Registration.OPEN)
    return _system_filter(events, system).order_by("-date", "-id")


def events_mine(*, user, system: str | None = None) -> QuerySet[Event]:
    """The events the user organises or has entered (withdrawn ones too), the newest date first."""
    uid = _uid(user)
    if uid is None:
        return Event.objects.none()
    events = (Event.objects.select_related("system", "organiser")
              .filter(Q(organiser_id=uid) | Q(entrants__player_id=uid)).distinct())
    return _system_filter(events, system).order_by("-date", "-id")


def entrant_count(event: Event) -> int:
    return EventEntrant.objects.filter(event=event, withdrawn_at__isnull=True).count()


def entrants_with_lists(event: Event, *, withdrawn: bool = False) -> list[EventEntrant]:
    """The event's entrants in joining order, each with `.current` (their latest submission or None) and
    `.history` (every submission, newest first)."""
    entrants = (EventEntrant.objects.filter(event=event).select_related("player")
                .prefetch_related(Prefetch("submissions", queryset=EventSubmission.objects.order_by("-number")))
                .order_by("joined_at", "id"))
    if not withdrawn:
        entrants = entrants.filter(withdrawn_at__isnull=True)
    found = list(entrants)
    for entrant in found:
        entrant.event = event  # their event without a query each (a sheet's code, a check in its language)
        entrant.history = list(entrant.submissions.all())
        entrant.current = entrant.history[0] if entrant.history else None
    return found


def current_submission(entrant: EventEntrant) -> EventSubmission | None:
    return entrant.submissions.order_by("-number").first()


def submissions_of_list(game_list) -> list[EventSubmission]:
    """The current submissions (one per event) taken from a list: the list page says when one differs from it."""
    found: dict[int, EventSubmission] = {}
    for submission in (EventSubmission.objects.filter(game_list=game_list, entrant__withdrawn_at__isnull=True)
                       .select_related("entrant", "entrant__event").order_by("-number")):
        current = current_submission(submission.entrant)
        if current is not None and current.pk == submission.pk:
            found.setdefault(submission.entrant.event_id, submission)
    return list(found.values())


# --- the check against the pinned data ---------------------------------------------------------------------------


def event_catalog(event: Event):
    """The catalog at the event's pinned package versions (cards.selectors.catalog_pinned)."""
    return catalog_pinned(event.system.slug, event.package_versions or {})


def event_document(event: Event, document: dict[str, Any]) -> dict[str, Any]:
    """A list's document as the event checks it: in the event's format (its default when the event names none)."""
    return {**document, "format": event.format or None}


def event_validate(event: Event, document: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    """The construction check (docs/design.md §2.3) of a list in the event's format, against its pinned data."""
    return validate_list(event_document(event, document), event_catalog(event), lang=lang)


def submission_validation(submission: EventSubmission, lang: str = "en") -> dict[str, Any]:
    """The stored check in English; another language is computed again against the same pinned versions."""
    if lang == "en" and submission.validation:
        return submission.validation
    event = submission.entrant.event
    return validate_list(submission.document, catalog_pinned(event.system.slug, submission.package_versions or {}),
                         lang=lang)


# --- the sheet's verification code ------------------------------------------------------------------------------


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def submission_code(submission: EventSubmission) -> str:
    """The event sheet's code: first 10 hex of sha256 over the event, the submission, its locked snapshot and the
    pinned versions it was checked against, then `-e<number>`. A list changed later, another event or other pins
    give another code."""
    payload = {"event": submission.entrant.event.slug, "submission": submission.public_id,
               "document": submission.document, "pins": submission.package_versions or {}}
    digest = hashlib.sha256(_canonical(payload).encode("utf-8")).hexdigest()
    return f"{digest[:VERIFICATION_HEX]}-e{submission.number}"


def parse_submission_code(code: str) -> tuple[str, int] | None:
    """("abcdef0123", 2) from "abcdef0123-e2" (spaces and case forgiven), or None when it is not such a code."""
    text = (code or "").strip().lower().replace(" ", "")
    digest, sep, number = text.partition("-e")
    if not sep or len(digest) != VERIFICATION_HEX or any(ch not in "0123456789abcdef" for ch in digest):
        return None
    if not (number.isascii() and number.isdigit()) or len(number) > 9:
        return None
    return digest, int(number)


# --- the event's field ----------------------------------------------------------------------------------------


def event_field(event: Event, *, user) -> list[dict[str, Any]]:
    """The event's field as a gauntlet, the doctor or a matrix plays it: each distinct list the entrants brought
    (their current submissions, the same cards counted once) weighted by how many players brought it:
    [{"key", "name", "document", "weight", "players": [display names]}]. [] for a reader who may not see the
    lists (before they are shown)."""
    if not event_lists_visible(event, user):
        return []
    groups: dict[str, dict[str, Any]] = {}
    for entrant in entrants_with_lists(event):
        if entrant.current is None:
            continue
        sections = entrant.current.document.get("sections") or {}
        digest = hashlib.sha256(_canonical(sections).encode("utf-8")).hexdigest()[:12]
        group = groups.setdefault(digest, {"key": f"event:{event.slug}:{digest}",
                                           "name": entrant.current.document.get("name") or entrant.display_name,
                                           "document": entrant.current.document, "weight": 0, "players": []})
        group["weight"] += 1
        group["players"].append(entrant.display_name)
    return sorted(groups.values(), key=lambda group: (-group["weight"], group["name"]))



FIELD_CHOICES_SCANNED = 200  # events looked at, at most, to find those whose lists the reader may see


def event_field_choices(*, user, system: str, limit: int = 20) -> list[Event]:
    """The events whose field `user` may play a `system` list against, newest first (by date), at most `limit`:
    those they organise or entered, or with open registration, whose lists they may see (event_lists_visible:
    after the lists are shown; the organiser always) and to which at least one list was submitted. Each has
    `.players`: how many players (not withdrawn) brought a list."""
    uid = _uid(user)
    reach = Q(registration=Registration.OPEN)
    if uid is not None:
        reach |= Q(organiser_id=uid) | Q(entrants__player_id=uid)
    with_lists = Q(entrants__withdrawn_at__isnull=True, entrants__submissions__isnull=False)
    candidates = (Event.objects.select_related("system", "organiser").filter(reach, system__slug=system)
                  .distinct().order_by("-date", "-id")[:FIELD_CHOICES_SCANNED])
    found: list[Event] = []
    ids = [event.pk for event in candidates]
    players = dict(Event.objects.filter(pk__in=ids).annotate(
        players=Count("entrants", filter=with_lists, distinct=True)).values_list("pk", "players"))
    for event in candidates:
        event.players = players.get(event.pk, 0)
        if event.players and event_lists_visible(event, user):
            found.append(event)
            if len(found) >= limit:
                break
    return found


def event_field_choice(*, slug: Any, user, system: str) -> Event | None:
    """The event `slug` as event_field_choices would offer it (its game, its lists visible to `user`, one
    submitted at least; e.g. an event reached by its link), with `.players`; None otherwise."""
    try:
        event = event_get(slug=slug, user=user)
    except ListNotFound:
        return None
    if event.system.slug != system or not event_lists_visible(event, user):
        return None
    event.players = (EventEntrant.objects.filter(event=event, withdrawn_at__isnull=True,
                                                 submissions__isnull=False).distinct().count())
    return event if event.players else None


def event_field_key(key: Any) -> tuple[str, str] | None:
    """(event slug, digest) of an opponent key of an event's field ("event:<slug>:<digest>", event_field), else
    None."""
    if not isinstance(key, str) or not key.startswith("event:"):
        return None
    slug, sep, digest = key[len("event:"):].rpartition(":")
    if not sep or not slug or not set(slug) <= EVENT_SLUG_CHARS:
        return None
    return slug, digest


def events_of_keys(keys, *, user) -> dict[str, Event | None]:
    """{event slug: the event, or None when `user` may not see it (or it is gone)} for every event named by an
    opponent key among `keys` (a result page says where an opponent came from, naming only an event the reader may
    see)."""
    slugs = {parsed[0] for parsed in map(event_field_key, keys) if parsed is not None}
    if not slugs:
        return {}
    events = {event.slug: event for event in Event.objects.select_related("system").filter(slug__in=slugs)}
    return {slug: events[slug] if slug in events and event_can_see(events[slug], user) else None for slug in slugs}
