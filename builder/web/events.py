"""Tournament events, the players' side (docs/web.md "Tournament events: the players' side"; docs/events.md): the
index of events, "my events", making and editing an event, its page, joining, withdrawing and submitting a list, the
locked list of a submission, the event's lists. The organiser's page is builder/web/eventadmin.py.

Thin: every read goes through builder.event_selectors (who may see what: a hidden list is a 404, never a hint),
every write through builder.services.events; a service's refusal is said in the page's language next to the field
it names (its details.path).
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from builder import event_selectors, selectors
from builder.errors import EventClosed, ListInputError, ListNotFound, ListPermissionDenied, ListServiceError
from builder.eventforms import DEFAULT_FORMAT, EventForm, JoinForm, SubmitForm, time_zone_note
from builder.listio import ListFormatError
from builder.models import Event, EventSubmission, ListsShown, Registration, SubmissionSource
from builder.services import events as event_services
from cards.selectors import package_version_get, systems_list

from . import presenters
from .common import error_lines, error_page

MINE_SHOWN = 200
OPEN_SHOWN = 100
MY_LISTS_SHOWN = 100


# --- words ------------------------------------------------------------------------------------------------------


def status_words(status: str) -> str:
    """An event's state (event_selectors.event_status) in words."""
    return {"open": _("Open for lists"), "locked": _("Lists locked"),
            "published": _("Lists locked and shown")}.get(status, status)


def registration_words(value: str) -> str:
    return _("Join code") if value == Registration.CODE else _("Open registration")


def lists_shown_words(event: Event) -> str:
    if event.lists_shown == ListsShown.OPEN:
        return _("Shown to the players as they are submitted")
    if event.lists_shown == ListsShown.ORGANISER:
        return _("Organiser only")
    if event.publish_at is not None:
        return _("Shown at the publish time, %(time)s") % {"time": _when(event.publish_at)}
    return _("Shown when the organiser publishes them")


def source_words(value: str) -> str:
    return {SubmissionSource.LIST: _("a saved list"), SubmissionSource.TEXT: _("a text list"),
            SubmissionSource.ROSTER: _("a roster file")}.get(value, value)


def submission_words(submission: EventSubmission | None) -> str:
    """"Not submitted", "Legal", "Submitted with 2 errors"."""
    if submission is None:
        return _("Not submitted")
    if submission.legal:
        return _("Submitted, legal")
    count = submission.error_count
    if count == 1:
        return _("Submitted with 1 error")
    return _("Submitted with %(count)s errors") % {"count": count}


def _when(moment: datetime | None) -> str:
    if moment is None:
        return ""
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M")


def format_words(event: Event) -> str:
    """The event's format by its name in the page's language (from the pinned data); the default one said so."""
    cat = event_selectors.event_catalog(event)
    slug = event.format or cat.default_format
    fmt = cat.formats.get(slug)
    name = presenters.names(fmt, slug)["main"] if fmt is not None else ""
    if event.format:
        return name or event.format
    return _("the game's default format (%(name)s)") % {"name": name} if name else _("the game's default format")


def pinned_rows(event: Event) -> list[dict[str, str]]:
    """The data the event checks lists against: each package's title and version label."""
    rows = []
    for slug, number in sorted((event.package_versions or {}).items()):
        version = package_version_get(event.system.slug, slug, int(number))
        rows.append({"title": version.title if version else slug, "version": version.version if version else "",
                     "number": number})
    return rows


def event_row(event: Event, user) -> dict[str, Any]:
    """What the index tables show of an event."""
    status = event_selectors.event_status(event)
    return {"event": event, "game": presenters.system_name(event.system.slug), "format": format_words(event),
            "status": status, "status_words": status_words(status), "deadline": _when(event.deadline),
            "open": status == "open", "players": event_selectors.entrant_count(event),
            "organiser": event.organiser_id == getattr(user, "pk", None)}


# --- the index pages ------------------------------------------------------------------------------------------


def event_list(request: HttpRequest) -> HttpResponse:
    """Events with open registration: the coming ones first (soonest first), then the past ones."""
    today = timezone.localdate()
    events = list(event_selectors.events_open()[:OPEN_SHOWN])
    coming = sorted((e for e in events if e.date >= today), key=lambda e: (e.date, e.pk))
    past = [e for e in events if e.date < today]
    return render(request, "events/index.html", {
        "coming": [event_row(e, request.user) for e in coming],
        "past": [event_row(e, request.user) for e in past]})


@login_required
def event_mine(request: HttpRequest) -> HttpResponse:
    """The events I organise and those I entered, with the deadline, the time left and my status."""
    organised, entered = [], []
    for event in event_selectors.events_mine(user=request.user)[:MINE_SHOWN]:
        row = event_row(event, request.user)
        if row["organiser"]:
            organised.append(row)
            continue
        entrant = event_selectors.event_entrant(event, request.user, active=False)
        current = event_selectors.current_submission(entrant) if entrant is not None else None
        row["withdrawn"] = entrant is not None and entrant.withdrawn_at is not None
        row["mine"] = _("Withdrawn") if row["withdrawn"] else submission_words(current)
        row["legal"] = current is not None and current.legal
        row["submitted"] = current is not None
        entered.append(row)
    return render(request, "events/mine.html", {"organised": organised, "entered": entered})


# --- making and editing an event ---------------------------------------------------------------------------


def _form_choices(system: str | None = None) -> dict[str, Any]:
    """The games, and their formats grouped by game (only the event's game's once it is made)."""
    games = [game for game in systems_list() if system is None or game.slug == system]
    return {"systems": [(game.slug, presenters.system_name(game.slug)) for game in games],
            "formats": [(presenters.system_name(game.slug),
                         [(fmt.slug, fmt.label) for fmt in presenters.format_options(game)]) for game in games]}


# A refusal of the service in the page's language, by the field it names (the service says it in English).
def _refusal_words(error: ListServiceError) -> str:
    details = error.details if isinstance(error.details, dict) else {}
    path = str(details.get("path") or "")
    if isinstance(error, EventClosed) and error.code == "event.locked":
        return _("The lists of this event are locked: this can no longer change.")
    words = {
        "format": _("This format is not one of the game's formats in the event's data: choose one of the list."),
        "publish_at": _("The lists cannot be shown before they lock: choose a publish time at or after the list "
                        "deadline."),
        "system": _("No data of this game is loaded yet: choose another game."),
        "name": _("Give the event a name (at most %(n)s characters).") % {"n": event_services.MAX_NAME},
        "place": _("The place is at most %(n)s characters.") % {"n": event_services.MAX_PLACE},
        "player_cap": _("A player cap is a whole number from 2 to %(n)s, or empty.") % {
            "n": event_services.MAX_PLAYERS},
        "deadline": _("Give the list deadline as a date and time."),
        "date": _("Give the event's date."),
        "code": _("This is not the event's join code."),
        "display_name": _("Your name as the event shows it is at most %(n)s characters.") % {
            "n": event_services.MAX_DISPLAY_NAME},
    }
    if path in words:
        return str(words[path])
    if error.code == "event.full":
        return _("This event is full: %(n)s players have joined.") % {"n": details.get("cap", "")}
    if path == "" and isinstance(error, ListInputError) and "organise" in error.message:
        return _("You organise the most events one player may: delete an old one first.")
    return error_lines(error)[0]["message"]


def _refused(request: HttpRequest, error: ListServiceError, denied: str | None = None) -> HttpResponse:
    """A refusal as the error page, in the page's language: `denied` says who may do this (a 403)."""
    if isinstance(error, ListPermissionDenied):
        error = ListPermissionDenied(denied or _("Only the event's organiser can do this."),
                                     code="event.permission_denied")
    elif isinstance(error, EventClosed):
        error = EventClosed(_refusal_words(error), code=error.code, details=error.details)
    return error_page(request, error)


def _put_refusal(form, error: ListServiceError) -> None:
    details = error.details if isinstance(error.details, dict) else {}
    path = str(details.get("path") or "")
    form.add_error(path if path in form.fields else None, _refusal_words(error))


def _event_data(form: EventForm, event: Event | None) -> dict[str, Any]:
    """The form's values as the service takes them; editing, only the fields that changed (a locked event refuses
    a change of its deadline, cap, format or registration, not the same value sent again)."""
    data = form.cleaned_data
    values = {"name": data["name"], "format": data["format"] or DEFAULT_FORMAT, "date": data["date"],
              "place": data["place"], "player_cap": data["player_cap"], "registration": data["registration"],
              "deadline": data["deadline"], "lists_shown": data["lists_shown"], "publish_at": data["publish_at"]}
    if event is None:
        return {"system": data["system"], **values}

    def same(key: str, value: Any) -> bool:
        now = getattr(event, key)
        if isinstance(now, datetime) and isinstance(value, datetime):
            return now.replace(second=0, microsecond=0) == value.replace(second=0, microsecond=0)
        return now == value

    return {key: value for key, value in values.items() if not same(key, value)}


def _local(moment: datetime | None) -> datetime | None:
    return timezone.localtime(moment) if moment is not None else None


@login_required
@require_http_methods(["GET", "POST"])
def event_new(request: HttpRequest) -> HttpResponse:
    choices = _form_choices()
    system = request.GET.get("system")
    initial = {"system": system if system in dict(choices["systems"]) else None,
               "date": timezone.localdate(), "registration": Registration.OPEN,
               "lists_shown": ListsShown.AT_PUBLISH}
    form = EventForm(request.POST or None, initial=initial, **choices)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                event = event_services.event_create(organiser=request.user, data=_event_data(form, None))
            except ListServiceError as error:
                _put_refusal(form, error)
            else:
                messages.success(request, _("The event is made. Share its page with the players."))
                return redirect("event_detail", slug=event.slug)
        status = 400
    return render(request, "events/edit.html", {"form": form, "event": None, "zone": time_zone_note()},
                  status=status)


def _organised(request: HttpRequest, slug: str) -> Event:
    """The event if the user organises it (or is staff): 404 when they may not see it, else 403."""
    event = event_selectors.event_get(slug=slug, user=request.user, code=request.GET.get("code"))
    event_services.check_organiser(event, request.user)
    return event


@login_required
@require_http_methods(["GET", "POST"])
def event_edit(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        event = _organised(request, slug)
    except ListServiceError as error:
        return _refused(request, error)
    initial = {"system": event.system.slug, "format": event.format, "name": event.name, "date": event.date,
               "place": event.place, "player_cap": event.player_cap, "registration": event.registration,
               "deadline": _local(event.deadline), "lists_shown": event.lists_shown,
               "publish_at": _local(event.publish_at)}
    form = EventForm(request.POST or None, initial=initial, editing=True, **_form_choices(event.system.slug))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                event_services.event_update(event=event, user=request.user, data=_event_data(form, event))
            except ListServiceError as error:
                _put_refusal(form, error)
            else:
                messages.success(request, _("The event is saved."))
                return redirect("event_detail", slug=event.slug)
        status = 400
    return render(request, "events/edit.html", {"form": form, "event": event, "zone": time_zone_note(),
                                                "locked": event_selectors.event_is_locked(event)}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def event_delete(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: the confirmation; POST: delete the event, its registrations and every submission."""
    try:
        event = _organised(request, slug)
        if request.method == "POST":
            event_services.event_delete(event=event, user=request.user)
            messages.success(request, _("The event is deleted."))
            return redirect("event_mine")
    except ListServiceError as error:
        return _refused(request, error)
    return render(request, "events/delete.html", {"event": event,
                                                  "players": event_selectors.entrant_count(event)})


# --- an event's page --------------------------------------------------------------------------------------


def _my_lists(event: Event, user) -> list[tuple[str, str]]:
    found = selectors.list_search(user=user, scope="mine", system=event.system.slug)[:MY_LISTS_SHOWN]
    return [(item.slug, item.name or _("(untitled)")) for item in found]


def submission_view(submission: EventSubmission) -> dict[str, Any]:
    """A submission's check in the page's language, its violations with the cards' names (the list page's rows)."""
    event = submission.entrant.event
    result = event_selectors.submission_validation(submission, presenters.ui_lang())
    cat = event_selectors.event_catalog(event)
    return {"submission": submission, "result": result, "violations": presenters.violation_rows(result, cat),
            "words": submission_words(submission), "when": _when(submission.created_at),
            "source": source_words(submission.source), "name": submission.document.get("name") or _("(untitled)")}


def _detail(request: HttpRequest, event: Event, *, code: str | None = None, join_form: JoinForm | None = None,
            submit_form: SubmitForm | None = None, submit_way: str | None = None,
            submit_issues: list | None = None, status: int = 200) -> HttpResponse:
    user = request.user
    state = event_selectors.event_status(event)
    locked = event_selectors.event_is_locked(event)
    organiser = event_selectors.event_is_organiser(event, user)
    entrant = event_selectors.event_entrant(event, user)
    left = event_selectors.event_entrant(event, user, active=False) if entrant is None else None
    players = event_selectors.entrant_count(event)
    context: dict[str, Any] = {
        "event": event, "game": presenters.system_name(event.system.slug), "format": format_words(event),
        "status": state, "status_words": status_words(state), "locked": locked, "deadline": _when(event.deadline),
        "open": not locked, "locked_at": _when(event_selectors.event_locked_at(event)),
        "registration_words": registration_words(event.registration),
        "lists_shown_words": lists_shown_words(event), "pinned": pinned_rows(event), "players": players,
        "full": event.player_cap is not None and players >= event.player_cap,
        "organiser": organiser, "is_organiser": event.organiser_id == getattr(user, "pk", None),
        "entrant": entrant, "withdrawn": left is not None and left.withdrawn_at is not None,
        "code": code or "", "zone": time_zone_note(),
        "lists_visible": event_selectors.event_lists_visible(event, user),
    }
    if organiser and event.registration == Registration.CODE:
        link = reverse("event_detail", kwargs={"slug": event.slug})
        context["share_url"] = request.build_absolute_uri(f"{link}?code={event.join_code}")
    if user.is_authenticated and entrant is None and not locked:
        context["join_form"] = join_form or JoinForm(initial={"display_name": left.display_name if left else "",
                                                              "code": code or ""})
        context["needs_code"] = event.registration == Registration.CODE and not organiser and left is None
    if entrant is not None:
        history = list(entrant.submissions.order_by("-number"))
        context["current"] = submission_view(history[0]) if history else None
        context["history"] = [{"submission": item, "words": submission_words(item), "when": _when(item.created_at),
                               "source": source_words(item.source),
                               "name": item.document.get("name") or _("(untitled)")} for item in history[1:]]
        my_lists = _my_lists(event, user)
        context["my_lists"] = my_lists
        if not locked:
            context["submit_form"] = submit_form or SubmitForm(lists=my_lists)
            context["submit_way"] = submit_way
            context["submit_issues"] = submit_issues or []
    if context["lists_visible"] and user.is_authenticated:
        context["simulate_lists"] = context.get("my_lists") or _my_lists(event, user)
    return render(request, "events/detail.html", context, status=status)


def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    code = request.GET.get("code")
    try:
        event = event_selectors.event_get(slug=slug, user=request.user, code=code)
    except ListServiceError as error:
        return _refused(request, error)
    return _detail(request, event, code=code)


@login_required
@require_POST
def event_join(request: HttpRequest, slug: str) -> HttpResponse:
    code = request.GET.get("code") or request.POST.get("code")  # the link's code shows the page; the form's joins
    try:
        event = event_selectors.event_get(slug=slug, user=request.user, code=code)
    except ListServiceError as error:
        return _refused(request, error)
    form = JoinForm(request.POST)
    status = 400
    if form.is_valid():
        try:
            event_services.event_join(event=event, user=request.user, code=form.cleaned_data["code"] or code or "",
                                      display_name=form.cleaned_data["display_name"] or None)
        except ListServiceError as error:
            _put_refusal(form, error)
            status = error.status
        else:
            messages.success(request, _("You joined the event. Submit your list before the deadline."))
            return redirect("event_detail", slug=event.slug)
    return _detail(request, event, code=code, join_form=form, status=status)


@login_required
@require_POST
def event_withdraw(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        event = event_selectors.event_get(slug=slug, user=request.user)
        event_services.event_withdraw(event=event, user=request.user)
    except ListServiceError as error:
        return _refused(request, error)
    messages.success(request, _("You left the event. Your submissions are kept: join again to get them back."))
    return redirect("event_detail", slug=event.slug)


@login_required
@require_POST
def event_submit(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        event = event_selectors.event_get(slug=slug, user=request.user)
        if event_selectors.event_entrant(event, request.user) is None:
            event_services.event_submit(event=event, user=request.user, text="")  # its refusal: join first / 404
    except ListServiceError as error:
        return _refused(request, error, denied=_("Join the event before submitting a list."))
    form = SubmitForm(request.POST, request.FILES, lists=_my_lists(event, request.user))
    way = request.POST.get("way")
    issues: list[dict[str, Any]] = []
    status = 400
    if form.is_valid():
        data = form.cleaned_data
        try:
            if data["way"] == "list":
                game_list = selectors.list_get(slug=data["list"], user=request.user)
                submission = event_services.event_submit(event=event, user=request.user, game_list=game_list)
            elif data["way"] == "text":
                submission = event_services.event_submit(event=event, user=request.user, text=data["text"])
            else:
                upload = data["file"]
                submission = event_services.event_submit(event=event, user=request.user, filename=upload.name,
                                                         content=upload.read())
        except ListFormatError as error:
            issues = error_lines(error)
        except ListServiceError as error:
            status = 409 if isinstance(error, EventClosed) else 400
            form.add_error(None, _submit_refusal_words(error, data["way"]))
        else:
            if submission.legal:
                messages.success(request, _("Your list is submitted: it is legal."))
            else:
                messages.warning(request, _("Your list is submitted, but it is not legal: see what is wrong below. "
                                            "You may submit again until the deadline."))
            return redirect("event_detail", slug=event.slug)
    return _detail(request, event, submit_form=form, submit_way=way, submit_issues=issues, status=status)


def _submit_refusal_words(error: ListServiceError, way: str) -> str:
    """Why a submission was refused, in the page's language."""
    if isinstance(error, EventClosed):
        return _refusal_words(error)
    if error.message.startswith("You have submitted"):
        return _("You have submitted the most lists this event keeps (%(n)s).") % {
            "n": event_services.MAX_SUBMISSIONS}
    details = error.details if isinstance(error.details, dict) else {}
    if way == "list" and (isinstance(error, (ListNotFound, ListPermissionDenied)) or details.get("path") == "list"):
        return _("This is not a list of yours of this event's game (or it is in the trash): choose another.")
    return error_lines(error)[0]["message"]


# --- the event's lists --------------------------------------------------------------------------------------


def event_lists(request: HttpRequest, slug: str) -> HttpResponse:
    """Every entrant's current list, once the lists are shown (the organiser always): else 404."""
    try:
        event = event_selectors.event_get(slug=slug, user=request.user, code=request.GET.get("code"))
        if not event_selectors.event_lists_visible(event, request.user):
            raise ListNotFound(f"No lists of event {slug!r}.")
    except ListServiceError as error:
        return _refused(request, error)
    rows = []
    for entrant in event_selectors.entrants_with_lists(event):
        current = entrant.current
        rows.append({"player": entrant.display_name, "current": current,
                     "name": (current.document.get("name") or _("(untitled)")) if current else "",
                     "words": submission_words(current), "legal": current is not None and current.legal,
                     "when": _when(current.created_at) if current else ""})
    return render(request, "events/lists.html", {
        "event": event, "rows": rows, "game": presenters.system_name(event.system.slug),
        "format": format_words(event), "status_words": status_words(event_selectors.event_status(event))})


def event_submission(request: HttpRequest, slug: str, public_id: str) -> HttpResponse:
    """A submitted list as it was locked, checked against the event's pinned data: its player, the organiser, and
    everyone who may see the event once the lists are shown; else 404."""
    try:
        submission = event_selectors.submission_get(public_id=public_id, user=request.user)
        event = submission.entrant.event
        if event.slug != slug:
            raise ListNotFound(f"No submission with id {public_id!r}.")
    except ListServiceError as error:
        return _refused(request, error)
    cat = event_selectors.event_catalog(event)
    document = submission.document
    context = submission_view(submission)
    current = event_selectors.current_submission(submission.entrant)
    context.update({
        "event": event, "entrant": submission.entrant, "game": presenters.system_name(event.system.slug),
        "format": format_words(event), "sections": presenters.section_rows(document, cat),
        "pinned": pinned_rows(event), "is_current": current is not None and current.pk == submission.pk,
        "sheet": submission.entrant.player_id == getattr(request.user, "pk", None)
        or event_selectors.event_is_organiser(event, request.user),
    })
    return render(request, "events/submission.html", context)
