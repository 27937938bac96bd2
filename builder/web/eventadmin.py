"""Tournament events, the organiser's side (docs/events.md): the organiser's page (every player, submission time,
legality and violations, who has not submitted), the lock, publication, moving the pinned data, removing a player;
each player's sheet bound to the event, the printable pack and the exports (CSV, JSON, PDF pack).

Thin: reads through builder.event_selectors and builder.event_exports, writes through builder.services.events. Only
the organiser (or staff) runs an event (services.events.check_organiser: 404 for whoever cannot see the event,
403 otherwise); a player's sheet is shown to its player, the organiser and staff, and to others only once the
event shows its lists (event_selectors.submission_can_see: 404 otherwise, nothing of the list leaks).
"""
from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote, urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from builder import event_exports, event_selectors, selectors
from builder.errors import ListNotFound, ListServiceError
from builder.models import Event, EventEntrant, EventSubmission, ListsShown
from builder.services import events as event_services

from . import presenters
from .common import error_page

# What the organiser's page says when the event's state refuses an action (the service's message is English).
REFUSALS = {
    "event.locked": gettext_lazy("The lists of this event are locked: this can no longer be done."),
    "event.not_locked": gettext_lazy("Lock the lists before publishing them: a player could still change theirs."),
    "event.organiser_only": gettext_lazy("This event's lists are for the organiser only: change that setting to "
                                         "publish them."),
}


def _organised(request: HttpRequest, slug: str) -> Event:
    """The event if the user runs it (organiser or staff): ListNotFound (404) or ListPermissionDenied (403)."""
    event = event_selectors.event_get(slug=slug, user=request.user)
    event_services.check_organiser(event, request.user)
    return event


def _when(value) -> str:
    return date_format(timezone.localtime(value), "DATETIME_FORMAT") if value else ""


# --- the organiser's page ----------------------------------------------------------------------------------------


def _player_rows(event: Event, lang: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[EventEntrant]]:
    """(players with a list, players without one, withdrawn players)."""
    submitted, missing = [], []
    for row in event_exports.entrant_rows(event, lang=lang):
        entrant = row["entrant"]
        item: dict[str, Any] = {"entrant": entrant, "username": entrant.player.get_username(),
                                "email": entrant.player.email}
        if row["submission"] is None:
            missing.append(item)
            continue
        submission = row["submission"]
        item.update({
            "submission": submission, "legal": row["legal"], "errors": row["errors"], "warnings": row["warnings"],
            "violations": presenters.violation_rows(row["validation"], row["catalog"]),
            "earlier": len(entrant.history) - 1, "identity": row["identity"], "size": row["size"],
            "list_name": submission.document.get("name") or "",
            "sheet_url": reverse("event_sheet", kwargs={"slug": event.slug, "public_id": submission.public_id}),
        })
        submitted.append(item)
    withdrawn = [entrant for entrant in event_selectors.entrants_with_lists(event, withdrawn=True)
                 if entrant.withdrawn_at is not None]
    return submitted, missing, withdrawn


def _reminder(request: HttpRequest, event: Event, missing: list[dict[str, Any]]) -> dict[str, Any]:
    """The reminder to the players without a list: a text to copy (the page's language) and a mailto: link to
    those who gave an e-mail address (bcc, so that no one sees the others' addresses)."""
    link = request.build_absolute_uri(reverse("event_detail", kwargs={"slug": event.slug}))
    deadline = f"{_when(event.deadline)} ({timezone.get_current_timezone_name()})"
    subject = _("Your list for %(event)s") % {"event": event.name}
    text = _("Hello! Your list for %(event)s has not been submitted yet. Please submit it before %(deadline)s "
             "on the event's page: %(link)s") % {"event": event.name, "deadline": deadline, "link": link}
    emails = [row["email"] for row in missing if row["email"]]
    mailto = ""
    if emails:
        mailto = "mailto:?" + urlencode({"bcc": ",".join(emails), "subject": subject, "body": text},
                                        quote_via=quote, safe="@,")
    return {"text": text, "mailto": mailto, "emails": len(emails)}


@login_required
def event_manage(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        event = _organised(request, slug)
    except ListServiceError as error:
        return error_page(request, error)
    lang = presenters.ui_lang()
    submitted, missing, withdrawn = _player_rows(event, lang)
    status = event_selectors.event_status(event)
    newest = selectors.package_versions_now(event.system.slug)
    pins = event_exports.pin_rows(event.package_versions or {}, event.system.slug, newest=newest)
    return render(request, "events/manage.html", {
        "event": event, "status": status, "locked": status != "open",
        "locked_at": event_selectors.event_locked_at(event),
        "system_name": presenters.system_name(event.system.slug),
        "format_name": event_exports.format_name({"format": event.format}, event_selectors.event_catalog(event)),
        "submitted": submitted, "missing": missing, "withdrawn": withdrawn,
        "illegal": sum(1 for row in submitted if not row["legal"]),
        "reminder": _reminder(request, event, missing) if missing and status == "open" else None,
        "can_publish": event.lists_shown == ListsShown.AT_PUBLISH and event.published_at is None
        and status == "locked",
        "published": status == "published",
        "pins": pins, "pins_moved": any(pin["moved"] for pin in pins),
        "size_label": event_exports.size_label(event.system.slug),
        "exports": [("csv", _("CSV (one row per player)")), ("json", _("JSON (every list)")),
                    ("pdf-pack", _("PDF pack (one sheet per page)"))],
    })


def _action(request: HttpRequest, slug: str, act) -> HttpResponse:
    """A button of the organiser's page: `act(event)` calls the service and returns what happened in words; then
    back to the page (a refusal of the event's state as a message there, never an error page)."""
    try:
        event = _organised(request, slug)
    except ListServiceError as error:
        return error_page(request, error)
    try:
        done = act(event)
    except ListServiceError as error:
        if error.status == 403:
            return error_page(request, error)
        known = REFUSALS.get(error.code)
        messages.error(request, str(known) if known is not None else error.message)
    else:
        messages.success(request, done)
    return redirect("event_manage", slug=event.slug)


@login_required
@require_POST
def event_lock(request: HttpRequest, slug: str) -> HttpResponse:
    def act(event: Event) -> str:
        event_services.event_lock(event=event, user=request.user)
        return _("The lists are locked: no player can submit or change a list any more.")

    return _action(request, slug, act)


@login_required
@require_POST
def event_publish(request: HttpRequest, slug: str) -> HttpResponse:
    def act(event: Event) -> str:
        event_services.event_publish(event=event, user=request.user)
        return _("The lists are published: the players can see them, and the event's field can be played.")

    return _action(request, slug, act)


@login_required
@require_POST
def event_repin(request: HttpRequest, slug: str) -> HttpResponse:
    def act(event: Event) -> str:
        event_services.event_repin(event=event, user=request.user)
        return _("The event now checks the lists against the newest data; every submission was checked again.")

    return _action(request, slug, act)


@login_required
@require_POST
def event_remove_player(request: HttpRequest, slug: str, entrant: int) -> HttpResponse:
    def act(event: Event) -> str:
        found = EventEntrant.objects.filter(event=event, pk=entrant, withdrawn_at__isnull=True).first()
        if found is None:
            raise ListNotFound(_("That player is not in this event (any more)."))
        event_services.event_withdraw(event=event, user=request.user, entrant=found)
        return _("%(player)s is removed from the event; their lists are kept.") % {"player": found.display_name}

    return _action(request, slug, act)


# --- a player's sheet ----------------------------------------------------------------------------------------------


def _submission(request: HttpRequest, slug: str, public_id: str) -> EventSubmission:
    """The submission of event `slug` the user may see (its player, the organiser, staff; others once the lists
    are shown), else ListNotFound: a hidden list is a 404 like one that does not exist."""
    submission = event_selectors.submission_get(public_id=public_id, user=request.user)
    if submission.entrant.event.slug != slug:
        raise ListNotFound(f"No submission with id {public_id!r}.")
    return submission


def sheet_context(request: HttpRequest, submission: EventSubmission, *, prefix: str = "") -> dict[str, Any]:
    """What a sheet shows (the sheet page and each sheet of the pack)."""
    event = submission.entrant.event
    cat = event_exports.submission_catalog(submission)
    result = event_selectors.submission_validation(submission, lang=presenters.ui_lang())
    gauges = event_exports.submission_gauges(submission)
    code = event_selectors.submission_code(submission)
    current = event_selectors.current_submission(submission.entrant)
    return {
        "submission": submission, "entrant": submission.entrant, "event": event, "document": submission.document,
        "prefix": prefix or submission.public_id,
        "system_name": presenters.system_name(event.system.slug),
        "format_name": event_exports.format_name(submission.document, cat),
        "sections": presenters.section_rows(submission.document, cat),
        "result": result, "violations": presenters.violation_rows(result, cat),
        "counters": presenters.counters(event.system.slug, gauges, cat),
        "identity": event_exports.list_identity(submission.document, cat),
        "size": event_exports.list_size(submission.document, cat),
        "size_label": event_exports.size_label(event.system.slug),
        "pins": event_exports.pin_rows(submission.package_versions or {}, event.system.slug),
        "code": code,
        "verify_url": request.build_absolute_uri(reverse("verify")),
        "verify_query": urlencode({"list": submission.public_id, "code": code}),
        "replaced_by": current.number if current is not None and current.number != submission.number else None,
        "withdrawn": submission.entrant.withdrawn_at is not None,
    }


def event_sheet(request: HttpRequest, slug: str, public_id: str) -> HttpResponse:
    try:
        submission = _submission(request, slug, public_id)
    except ListServiceError as error:
        return error_page(request, error)
    context = sheet_context(request, submission)
    context["can_manage"] = event_selectors.event_is_organiser(submission.entrant.event, request.user)
    return render(request, "events/sheet.html", context)


# --- the pack and the exports --------------------------------------------------------------------------------


@login_required
def event_pack(request: HttpRequest, slug: str) -> HttpResponse:
    """Every player's sheet, one per printed page (the players with a current submission, in joining order)."""
    try:
        event = _organised(request, slug)
    except ListServiceError as error:
        return error_page(request, error)
    sheets = [sheet_context(request, entrant.current) for entrant in event_selectors.entrants_with_lists(event)
              if entrant.current is not None]
    return render(request, "events/pack.html", {"event": event, "sheets": sheets,
                                                "system_name": presenters.system_name(event.system.slug)})


@login_required
def event_export(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    """A download: csv (UTF-8 with a BOM, so that Excel reads Japanese), json or pdf-pack; 404 for another kind."""
    try:
        event = _organised(request, slug)
    except ListServiceError as error:
        return error_page(request, error)
    if kind not in event_exports.EXPORT_KINDS:
        raise Http404(f"No export {kind[:20]!r}.")
    lang = presenters.ui_lang()
    if kind == "csv":
        body: bytes = ("\ufeff" + event_exports.export_csv(event, lang=lang)).encode("utf-8")
    elif kind == "json":
        body = json.dumps(event_exports.export_json(event), ensure_ascii=False, indent=2).encode("utf-8")
    else:
        body = event_exports.export_pdf_pack(event, lang=lang,
                                             verify_url=request.build_absolute_uri(reverse("verify")))
    response = HttpResponse(body, content_type=event_exports.CONTENT_TYPES[kind])
    name = event_exports.export_filename(event, kind)
    ascii_name = name.encode("ascii", "ignore").decode() or f"event-lists.{event_exports.EXTENSIONS[kind]}"
    if ascii_name.startswith("-"):
        ascii_name = f"event{ascii_name}"
    response["Content-Disposition"] = f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(name)}"
    return response
