"""Writes of tournament events (docs/events.md; HackSoft services: `_check_*` validates and raises, then one
transaction writes; nothing is written when a check fails).

An event pins the data (its system's package versions when it is made); a player joins and submits one of their
lists, a text list or a roster file: a locked snapshot checked against the pinned versions, kept with every earlier
one. The lists lock at the deadline (or earlier by hand); the organiser may move the pins to the newest versions
until then, which checks every submission again. Bad input is a 400 (ListInputError, code event.invalid) whose
details name the field; an action the event's state refuses is a 409 (EventClosed).
"""
from __future__ import annotations

from datetime import date, datetime
from datetime import timezone as dt_timezone
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import dateparse, timezone

from builder import event_selectors
from builder import selectors
from builder.errors import EventClosed, ListInputError, ListNotFound, ListPermissionDenied
from builder.models import (
    Event, EventEntrant, EventSubmission, GameList, ListsShown, Registration, SubmissionSource,
)
from cards.models import GameSystem
from cards.storable_text import surrogate_problem

from .lists import check_owner, list_import_file, list_import_text

CODE = "event.invalid"
MAX_NAME = 150
MAX_PLACE = 200
MAX_DISPLAY_NAME = 100
MAX_PLAYERS = 1_000  # the largest player cap (and the most entrants of an event without a cap)
MAX_EVENTS = 200  # events one user organises
MAX_SUBMISSIONS = 50  # submissions one entrant keeps in an event's history
EDITABLE = ("name", "format", "date", "place", "player_cap", "registration", "deadline", "lists_shown", "publish_at")


def _invalid(message: str, path: str, **details: Any) -> ListInputError:
    return ListInputError(message, code=CODE, details={"path": path, **details})


# --- checks (raise, never write) ----------------------------------------------------------------------------


def _text(value: Any, path: str, limit: int, *, required: bool) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise _invalid(f"{path}: expected text, got {type(value).__name__}.", path)
    value = " ".join(value.split())  # one printed line: no line breaks or runs of spaces
    if required and not value:
        raise _invalid(f"{path}: required (at most {limit} characters).", path)
    if len(value) > limit:
        raise _invalid(f"{path}: at most {limit} characters, got {len(value)}.", path, limit=limit)
    if "\x00" in value or surrogate_problem(value):
        raise _invalid(f"{path}: contains a character that cannot be stored (U+0000 or a lone surrogate).", path)
    return value


def _date(value: Any, path: str) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    try:
        parsed = dateparse.parse_date(value) if isinstance(value, str) else None
    except ValueError:  # "2026-13-40": the shape of a date, not a day of the calendar
        parsed = None
    if parsed is None:
        raise _invalid(f"{path}: expected a date as YYYY-MM-DD, got {str(value)[:40]!r}.", path)
    return parsed


def _datetime(value: Any, path: str, *, required: bool) -> datetime | None:
    if value is None or value == "":
        if required:
            raise _invalid(f"{path}: required: a date and time (YYYY-MM-DDTHH:MM, with an offset or in UTC).", path)
        return None
    parsed = value if isinstance(value, datetime) else None
    if parsed is None and isinstance(value, str):
        try:
            parsed = dateparse.parse_datetime(value)
        except ValueError:
            parsed = None
    if parsed is None:
        raise _invalid(f"{path}: expected a date and time as YYYY-MM-DDTHH:MM, got {str(value)[:40]!r}.", path)
    if timezone.is_naive(parsed):
        parsed = timezone.make_aware(parsed, timezone.get_current_timezone())
    try:
        parsed.astimezone(dt_timezone.utc)  # as the database stores it: 9999-12-31T23:59-05:00 is past year 9999
    except (OverflowError, ValueError):
        raise _invalid(f"{path}: {str(value)[:40]!r} is out of the range of dates this site keeps.", path) from None
    return parsed


def _player_cap(value: Any) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= MAX_PLAYERS:
        raise _invalid(f"player_cap: expected a whole number from 2 to {MAX_PLAYERS}, or none, got {value!r}.",
                       "player_cap")
    return value


def _choice(value: Any, choices, path: str) -> str:
    if value not in choices.values:
        raise _invalid(f"{path}: must be one of {', '.join(choices.values)}, not {str(value)[:40]!r}.", path)
    return value


def check_event_system(system: Any) -> GameSystem:
    found = GameSystem.objects.filter(slug=system).first() if isinstance(system, str) else None
    if found is None:
        known = ", ".join(GameSystem.objects.order_by("slug").values_list("slug", flat=True))
        raise _invalid(f"system: unknown game {str(system)[:40]!r}; expected one of: {known}.", "system")
    return found


def _check_format(event: Event, value: Any) -> str:
    value = _text(value, "format", 64, required=False)
    if value and value not in event_selectors.event_catalog(event).formats:
        known = ", ".join(event_selectors.event_catalog(event).formats)
        raise _invalid(f"format: {value!r} is not a format of {event.system.slug}'s pinned data; expected one of: "
                       f"{known}.", "format")
    return value


def _check_times(event: Event) -> None:
    if event.lists_shown == ListsShown.AT_PUBLISH and event.publish_at is not None \
            and event.publish_at < event.deadline:
        raise _invalid("publish_at: the lists cannot be shown before they lock: choose a publish time at or after "
                       "the list deadline.", "publish_at")
    if event.lists_shown != ListsShown.AT_PUBLISH:
        event.publish_at = None


def _apply(event: Event, data: dict[str, Any]) -> None:
    """Set the editable fields given in `data` on `event` (unsaved), each checked."""
    unknown = sorted(set(data) - set(EDITABLE) - {"system"})
    if unknown:
        raise _invalid(f"{unknown[0]}: unknown field; an event has {', '.join(EDITABLE)}.", unknown[0])
    if "name" in data:
        event.name = _text(data["name"], "name", MAX_NAME, required=True)
    if "place" in data:
        event.place = _text(data["place"], "place", MAX_PLACE, required=False)
    if "date" in data:
        event.date = _date(data["date"], "date")
    if "player_cap" in data:
        event.player_cap = _player_cap(data["player_cap"])
    if "registration" in data:
        event.registration = _choice(data["registration"], Registration, "registration")
    if "lists_shown" in data:
        event.lists_shown = _choice(data["lists_shown"], ListsShown, "lists_shown")
    if "deadline" in data:
        event.deadline = _datetime(data["deadline"], "deadline", required=True)
    if "publish_at" in data:
        event.publish_at = _datetime(data["publish_at"], "publish_at", required=False)
    if "format" in data:
        event.format = _check_format(event, data["format"])
    _check_times(event)


def check_organiser(event: Event, user) -> None:
    """Only the organiser (or staff) runs an event: others get 404 when they cannot see it, else 403."""
    if event_selectors.event_is_organiser(event, user):
        return
    if not event_selectors.event_can_see(event, user):
        raise ListNotFound(f"No event with id {event.slug!r}.")
    raise ListPermissionDenied("Only the event's organiser can do this.")


def _check_open(event: Event, action: str) -> None:
    if event_selectors.event_is_locked(event):
        raise EventClosed(f"The lists of this event are locked: {action} is no longer possible.",
                          code="event.locked")


# --- the organiser ------------------------------------------------------------------------------------------


def event_create(*, organiser, data: dict[str, Any]) -> Event:
    """A new event organised by `organiser`, its data pinned at its system's newest package versions. `data` holds
    system, name, date and deadline (required), and format, place, player_cap, registration, lists_shown,
    publish_at."""
    if not isinstance(data, dict):
        raise _invalid("The body must be a JSON object of the event's fields.", "")
    if Event.objects.filter(organiser=organiser).count() >= MAX_EVENTS:
        raise _invalid(f"You organise {MAX_EVENTS} events, the most one player may; delete an old one first.", "")
    for required in ("system", "name", "date", "deadline"):
        if data.get(required) in (None, ""):
            raise _invalid(f"{required}: required.", required)
    system = check_event_system(data["system"])
    pins = selectors.package_versions_now(system.slug)
    if not pins:
        raise _invalid(f"system: no data of {system.slug} is loaded yet; an operator must load its packages.",
                       "system")
    event = Event(organiser=organiser, system=system, package_versions=pins,
                  date=timezone.localdate(), deadline=timezone.now())
    _apply(event, {key: value for key, value in data.items() if key != "system"})
    event.save()
    return event


def event_update(*, event: Event, user, data: dict[str, Any]) -> Event:
    """Change an event's fields (EDITABLE). Once the lists locked, the format, deadline, player cap and
    registration stay as they were (EventClosed); the name, date, place and publish settings still change."""
    check_organiser(event, user)
    if not isinstance(data, dict):
        raise _invalid("The body must be a JSON object of the event's fields.", "")
    if "system" in data and data["system"] != event.system.slug:
        raise _invalid("system: an event's game cannot change; make a new event.", "system")
    locked = event_selectors.event_is_locked(event)
    if locked:
        frozen = [key for key in ("format", "deadline", "player_cap", "registration") if key in data
                  and data[key] != _current(event, key)]
        if frozen:
            raise EventClosed(f"{frozen[0]}: the lists of this event are locked; it can no longer change.",
                              code="event.locked", details={"path": frozen[0]})
    _apply(event, {key: value for key, value in data.items() if key != "system"})
    if locked and event.locked_at is None and timezone.now() < event.deadline:
        event.locked_at = timezone.now()  # moving the deadline later does not reopen locked lists
    with transaction.atomic():
        event.save()
        if "format" in data:
            _recheck(event)
    return event


def _current(event: Event, key: str) -> Any:
    value = getattr(event, key)
    return value.isoformat() if isinstance(value, (date, datetime)) else value


def event_lock(*, event: Event, user) -> Event:
    """Lock the lists now (before the deadline): no submission is taken any more."""
    check_organiser(event, user)
    if event_selectors.event_is_locked(event):
        return event
    event.locked_at = timezone.now()
    event.save(update_fields=["locked_at", "updated_at"])
    return event


def event_publish(*, event: Event, user) -> Event:
    """Show the lists to the players now (an event whose lists are shown at a publish time); only once locked."""
    check_organiser(event, user)
    if event.lists_shown == ListsShown.ORGANISER:
        raise EventClosed("This event's lists are for the organiser only; change that setting to publish them.",
                          code="event.organiser_only")
    if not event_selectors.event_is_locked(event):
        raise EventClosed("Lock the lists before publishing them: a player could still change theirs.",
                          code="event.not_locked")
    if event.lists_shown == ListsShown.AT_PUBLISH and event.published_at is None:
        event.published_at = timezone.now()
        event.save(update_fields=["published_at", "updated_at"])
    return event


def event_repin(*, event: Event, user) -> Event:
    """Move the pinned data to the system's newest package versions (until the lists lock), and check every
    submission again against them."""
    check_organiser(event, user)
    _check_open(event, "moving the pinned data")
    with transaction.atomic():
        event.package_versions = selectors.package_versions_now(event.system.slug)
        if event.format and event.format not in event_selectors.event_catalog(event).formats:
            event.format = ""  # the newest data dropped the format: the default one
        event.save(update_fields=["package_versions", "format", "updated_at"])
        _recheck(event)
    return event


def event_delete(*, event: Event, user) -> None:
    check_organiser(event, user)
    event.delete()


def _recheck(event: Event) -> None:
    for submission in EventSubmission.objects.filter(entrant__event=event).select_related("entrant__event"):
        _check_submission(event, submission)
        submission.save(update_fields=["legal", "error_count", "warning_count", "validation", "package_versions",
                                       "document"])


# --- the players -----------------------------------------------------------------------------------------------


def event_join(*, event: Event, user, code: str = "", display_name: Any = None) -> EventEntrant:
    """Register `user` in the event (with its join code when it has join-code registration); joining again
    after withdrawing restores the registration and its submissions."""
    if user is None or not user.is_authenticated:
        raise ListPermissionDenied("Sign in to join an event.")
    if event.registration == Registration.CODE and not event_selectors.event_is_organiser(event, user) \
            and (code or "").strip().upper() != event.join_code \
            and event_selectors.event_entrant(event, user, active=False) is None:
        raise _invalid("code: this event takes players by its join code; the code given is not it.", "code")
    name = _text(display_name if display_name not in (None, "") else user.get_username(), "display_name",
                 MAX_DISPLAY_NAME, required=True)
    _check_open(event, "joining")
    with transaction.atomic():
        Event.objects.select_for_update().filter(pk=event.pk).first()  # one joiner at a time: the cap holds
        entrant = EventEntrant.objects.filter(event=event, player=user).first()
        if entrant is not None and entrant.withdrawn_at is None:
            if display_name not in (None, "") and entrant.display_name != name:
                entrant.display_name = name
                entrant.save(update_fields=["display_name"])
            return entrant
        cap = event.player_cap or MAX_PLAYERS
        if event_selectors.entrant_count(event) >= cap:
            raise EventClosed(f"This event is full: {cap} players have joined.", code="event.full",
                              details={"cap": cap})
        if entrant is None:
            return EventEntrant.objects.create(event=event, player=user, display_name=name)
        entrant.withdrawn_at = None
        entrant.display_name = name
        entrant.save(update_fields=["withdrawn_at", "display_name"])
        return entrant


def event_withdraw(*, event: Event, user, entrant: EventEntrant | None = None) -> EventEntrant:
    """A player leaves the event (or the organiser removes `entrant`) before the lists lock; the submissions are
    kept, and joining again restores them."""
    if entrant is None:
        entrant = event_selectors.event_entrant(event, user)
        if entrant is None:
            raise ListNotFound("You have not joined this event.")
    elif entrant.event_id != event.pk:
        raise ListNotFound("No such player in this event.")
    else:
        check_organiser(event, user)
    _check_open(event, "withdrawing")
    entrant.withdrawn_at = timezone.now()
    entrant.save(update_fields=["withdrawn_at"])
    return entrant


def _check_submission(event: Event, submission: EventSubmission) -> None:
    """Check the submission's snapshot against the event's pinned data (in the event's format); set it on the row."""
    submission.document = event_selectors.event_document(event, submission.document)
    result = event_selectors.event_validate(event, submission.document)
    severities = [violation.get("severity") for violation in result.get("violations", [])]
    submission.legal = bool(result.get("legal"))
    submission.error_count = severities.count("error")
    submission.warning_count = severities.count("warning")
    submission.validation = result
    submission.package_versions = dict(event.package_versions or {})


def event_submit(*, event: Event, user, game_list: GameList | None = None, text: Any = None,
                 filename: str | None = None, content: bytes | None = None) -> EventSubmission:
    """Submit a list to the event: one of the user's saved lists, a text list (`text`) or a roster / list file
    (`filename`, `content`: .ros, .rosz, .txt, .json), which becomes a private list of the player's as well. The
    snapshot is locked: later edits of the list do not change it; submitting again before the lock replaces it as
    the player's list and keeps the earlier one. An illegal list is taken, flagged with its violations."""
    entrant = event_selectors.event_entrant(event, user)
    if entrant is None:
        if event_selectors.event_is_organiser(event, user) or event_selectors.event_can_see(event, user):
            raise ListPermissionDenied("Join the event before submitting a list.")
        raise ListNotFound(f"No event with id {event.slug!r}.")
    given = [name for name, value in (("list", game_list), ("text", text), ("file", content)) if value is not None]
    if len(given) != 1:
        raise _invalid("Give exactly one of a saved list, a text list or a file.", "list")
    _check_open(event, "submitting a list")
    if entrant.submissions.count() >= MAX_SUBMISSIONS:
        raise _invalid(f"You have submitted {MAX_SUBMISSIONS} lists to this event, the most it keeps.", "list")
    with transaction.atomic():
        source = SubmissionSource.LIST
        if text is not None:
            game_list = list_import_text(owner=user, text=text, system=event.system.slug)
            source = SubmissionSource.TEXT
        elif content is not None:
            game_list = list_import_file(owner=user, filename=filename or "", content=content,
                                         system=event.system.slug)
            source = SubmissionSource.ROSTER if (filename or "").lower().endswith((".ros", ".rosz")) \
                else SubmissionSource.TEXT
        assert game_list is not None
        if game_list.owner_id != user.pk or game_list.deleted_at is not None:
            check_owner(game_list, user)  # 404 / 403 for another player's list
            raise _invalid(f"list: list {game_list.slug!r} is in the trash; restore it first.", "list")
        if game_list.system_id != event.system_id:
            raise _invalid(f"list: list {game_list.slug!r} is a {game_list.system.slug} list; this event plays "
                           f"{event.system.slug}.", "list")
        revision = selectors.revision_list(game_list).first()
        document = revision.document if revision is not None else selectors.list_document(game_list)
        last = entrant.submissions.aggregate(last=Max("number"))["last"] or 0
        submission = EventSubmission(entrant=entrant, number=last + 1, document=document, source=source,
                                     game_list=game_list, list_revision=revision.number if revision else None)
        _check_submission(event, submission)
        submission.save()
    return submission

