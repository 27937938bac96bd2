"""The tournament sheet of a list (printable: the list, its legality, a verification code and link) and the page
that checks a verification code.
"""
from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from builder import event_exports, event_selectors, selectors
from builder.forms import SheetForm, VerifyForm
from builder.services import ListNotFound, ListServiceError

from . import presenters
from .common import error_page
from .lists import list_or_error, list_view


SHEET_SESSION_KEY = "hangar.sheet.{slug}"  # the player and event this browser remembers for a list's sheet


@require_http_methods(["GET", "POST"])
def list_sheet(request: HttpRequest, slug: str) -> HttpResponse:
    """Printable: the list, its legality, a verification code (sha256 of the canonical JSON + revision) and link.

    `?player=&event=` print a player name and an event on the sheet; they are never part of the list. POST
    `remember` keeps them for this list in the visitor's session (this browser only), `forget` drops them; both
    answer a redirect to the sheet with them in its address."""
    try:
        game_list = list_or_error(request, slug)
    except ListServiceError as error:
        return error_page(request, error)
    key = SHEET_SESSION_KEY.format(slug=game_list.slug)
    if request.method == "POST":
        form = SheetForm(request.POST)
        form.is_valid()
        people = {name: form.cleaned_data.get(name, "") for name in ("player", "event")}
        if "forget" in request.POST:
            request.session.pop(key, None)
            messages.success(request, _("The sheet no longer remembers the player and event."))
            return redirect("list_sheet", slug=game_list.slug)
        request.session[key] = people
        messages.success(request, _("This browser remembers the player and event for this list's sheet."))
        return redirect(f"{reverse('list_sheet', kwargs={'slug': game_list.slug})}?{urlencode(people)}")
    remembered = request.session.get(key) or {}
    sheet_form = SheetForm(request.GET if ("player" in request.GET or "event" in request.GET) else remembered)
    sheet_form.is_valid()
    revision = selectors.revision_list(game_list).first()
    document = revision.document if revision else selectors.list_document(game_list)
    result = selectors.document_validate(document, lang=presenters.ui_lang())
    context = list_view(game_list, document, result)
    context.update({
        "revision": revision,
        "code": presenters.verification_code(document, revision.number if revision else 0),
        "verify_url": request.build_absolute_uri(reverse("verify")),
        "share_url": request.build_absolute_uri(reverse("list_detail", kwargs={"slug": game_list.slug})),
        "sheet_form": sheet_form, "player": sheet_form.cleaned_data.get("player", ""),
        "event": sheet_form.cleaned_data.get("event", ""), "remembered": bool(remembered),
    })
    return render(request, "lists/sheet.html", context)


def verify(request: HttpRequest) -> HttpResponse:
    """An organiser types the list link/ID and the code from a sheet: does the sheet match the stored list?"""
    form = VerifyForm(request.GET or None)
    outcome: dict[str, Any] | None = None
    if request.GET and form.is_valid():
        outcome = _verify(request, form.cleaned_data["list"], form.cleaned_data["code"])
    return render(request, "lists/verify.html", {"form": form, "outcome": outcome})


def _verify(request: HttpRequest, slug: str, code: str) -> dict[str, Any]:
    if event_selectors.parse_submission_code(code) is not None:
        return _verify_submission(request, slug, code)
    parsed = presenters.parse_verification_code(code)
    if parsed is None:
        return {"ok": False, "reason": "format"}
    _digest, number = parsed
    try:
        game_list = list_or_error(request, slug)
        revision = selectors.revision_get(game_list, number)
    except ListNotFound:
        return {"ok": False, "reason": "missing", "revision": number}
    ok = presenters.verification_code(revision.document, revision.number) == code.strip().lower().replace(" ", "")
    latest = selectors.revision_list(game_list).first()
    result = selectors.document_validate(revision.document, lang=presenters.ui_lang())
    return {"ok": ok, "reason": "" if ok else "mismatch", "list": game_list, "revision": revision,
            "latest": latest.number if latest else None, "legal": result.get("legal"),
            "sections": (presenters.section_rows(revision.document, presenters.catalog(game_list.system.slug))
                         if ok else [])}


def _verify_submission(request: HttpRequest, public_id: str, code: str) -> dict[str, Any]:
    """An event's sheet: its submission ID and its `-e<number>` code (event_selectors.submission_code, bound to the
    event, the locked list and the pinned versions). A submission the reader may not see is "missing", exactly as
    one that does not exist (nothing of a hidden list leaks, not even that it exists)."""
    parsed = event_selectors.parse_submission_code(code)
    assert parsed is not None
    _digest, number = parsed
    try:
        submission = event_selectors.submission_get(public_id=public_id, user=request.user)
    except ListNotFound:
        return {"ok": False, "event_sheet": True, "reason": "missing"}
    ok = event_selectors.submission_code(submission) == code.strip().lower().replace(" ", "")
    if not ok:
        return {"ok": False, "event_sheet": True, "reason": "mismatch"}
    event = submission.entrant.event
    cat = event_exports.submission_catalog(submission)
    result = event_selectors.submission_validation(submission, lang=presenters.ui_lang())
    current = event_selectors.current_submission(submission.entrant)
    return {"ok": True, "event_sheet": True, "reason": "", "submission": submission, "event": event,
            "player": submission.entrant.display_name, "legal": bool(result.get("legal")),
            "violations": presenters.violation_rows(result, cat),
            "replaced_by": current.number if current is not None and current.number != submission.number else None,
            "withdrawn": submission.entrant.withdrawn_at is not None,
            "sections": presenters.section_rows(submission.document, cat)}
