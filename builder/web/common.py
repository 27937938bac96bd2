"""Shared bits of the web views: htmx detection, error pages and turning service errors into messages."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from builder.listio import ListFormatError
from builder.services import ListServiceError
from builder.throttles import retry_after, throttle_message
from cards.selectors import system_detail

from .presenters import ui_lang


def is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def system_or_404(slug: str):
    system = system_detail(slug)
    if system is None:
        raise Http404(f"No game system {slug!r}.")
    return system


def error_lines(error: Exception) -> list[dict[str, Any]]:
    """What the user must fix: one row per problem with its line, path and suggestions (never a traceback). A list
    file's problems are said in the page's language, once: the message without its "line N:" and "did you mean"
    (the page shows the line number and the suggestions beside it)."""
    if isinstance(error, ListFormatError):
        lang = ui_lang()
        return [{**issue.to_dict(), "message": issue.words(lang)} for issue in error.issues]
    if isinstance(error, ListServiceError):
        details = error.details if isinstance(error.details, dict) else {}
        return [{"message": page_message(error), "line": None, "path": details.get("path"), "suggestions": []}]
    return [{"message": str(error), "line": None, "path": None, "suggestions": []}]


# What a page says for a service error, by its code, in the page's language (the API keeps the service's English
# message, which names ids and limits); a code not listed here shows the service's message.
PAGE_MESSAGES = {
    "permission_denied": _("Only the owner of this list can change it."),
    "not_authenticated": _("Sign in first."),
    "list.deleted": _("This list is in the trash: restore it first."),
    "list.not_deleted": _("This list is not in the trash."),
    "list.conflict": _("This list was changed elsewhere since you opened it: nothing was saved."),
    "request.too_large": _("The file is larger than this site accepts."),
    "history.revision_numbers": _("The revisions to compare must be revision numbers (1, 2, ...)."),
}


def page_message(error: ListServiceError) -> str:
    known = PAGE_MESSAGES.get(error.code)
    return str(known) if known is not None else error.message


def error_page(request: HttpRequest, error: ListServiceError) -> Any:
    """A service error as a page with its status (404 for a list the user may not see, 403, 409, 429, 503...)."""
    lines = error_lines(error)
    if error.code == "not_found":  # the address asked for, not the service's English "No list with id ..."
        lines = [{**lines[0], "message": _("There is nothing at %(path)s, or it is not yours to see.")
                  % {"path": request.path}}]
    return render(request, "error.html", {"error": error, "lines": lines}, status=error.status)


def throttled_page(request: HttpRequest, wait: float | None) -> HttpResponse:
    """429 with Retry-After and a message naming the limit (builder.throttles), as the API answers."""
    error = SimpleNamespace(status=429, code="throttled", message=throttle_message(request, wait))
    lines = [{"message": error.message, "line": None, "path": None, "suggestions": []}]
    response = render(request, "error.html", {"error": error, "lines": lines}, status=429)
    response["Retry-After"] = str(retry_after(wait))
    return response


def forbidden_page(request: HttpRequest, message: str) -> HttpResponse:
    """The site's 403 page saying who may do this (the staff pages, the card editor)."""
    error = SimpleNamespace(status=403, code="permission_denied", message="")
    return render(request, "error.html", {"error": error, "lines": [{"message": message, "line": None}]}, status=403)
