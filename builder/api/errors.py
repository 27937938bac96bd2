"""One error shape for the whole API: {"error": {"code", "message", "details"}}.

DRF's own exceptions (validation, authentication, throttling, 404...) are wrapped into it; the builder's domain
errors (builder.errors), list-file errors (builder.listio.ListFormatError, which adds "issues" with line
numbers and paths) and Django's RequestDataTooBig (a body above DATA_UPLOAD_MAX_MEMORY_SIZE -> 413) are mapped here
too, so views stay thin and no bad input ever becomes a 500.
"""
from __future__ import annotations

from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse
from django.views.defaults import bad_request as page_bad_request
from django.views.defaults import page_not_found, permission_denied, server_error as page_server_error
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from builder.listio import ListFormatError
from builder.errors import ListConflict, ListServiceError
from builder.throttles import retry_after, throttle_message


def error_body(code: str, message: str, details: Any = None, **extra: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "details": details, **extra}}


def too_large_message(limit: int) -> str:
    return f"The request body is too large: the limit is {limit // 1024} KiB ({limit} bytes)."


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "request.too_large"
    default_detail = "The request body is too large."


def _conflict_response(exc: ListConflict, context: dict[str, Any]) -> Response:
    from .serializers import GameListSerializer  # the serializer imports services; import late to avoid a cycle

    current = GameListSerializer(exc.current, context={"request": context.get("request")}).data
    body = error_body(exc.code, exc.message, current=current, submitted=exc.submitted)
    return Response(body, status=exc.status, headers={"ETag": f'"{exc.current.version}"'})


def _first_message(data: Any) -> str | None:
    """The first human message in DRF's nested field errors, prefixed with its field path."""
    if isinstance(data, dict):
        for key, value in data.items():
            inner = _first_message(value)
            if inner:
                return inner if key == "non_field_errors" else f"{key}: {inner}"
    elif isinstance(data, list):
        for value in data:
            inner = _first_message(value)
            if inner:
                return inner
    elif data:
        return str(data)
    return None


def not_found(request, exception=None):
    """handler404 (hangar/urls.py): a path under /api/ that matches no route (a list id with characters no id has,
    a revision number that is not a number...) gets the API's JSON error, like any other 404 of the API; pages
    keep the site's HTML 404."""
    if request.path.startswith("/api/"):
        return JsonResponse(error_body("not_found", f"Nothing at {request.path}: no such API endpoint or id."),
                            status=404)
    return page_not_found(request, exception)


def bad_request(request, exception=None):
    """handler400: what Django itself refuses before any view (a Host header not in ALLOWED_HOSTS, another
    SuspiciousOperation) is the API's JSON error under /api/; pages keep the site's 400."""
    if request.path.startswith("/api/"):
        message = "Bad request: the Host header names no host this site answers for." \
            if type(exception).__name__ == "DisallowedHost" else "Bad request: the request cannot be read."
        return JsonResponse(error_body("bad_request", message), status=400)
    return page_bad_request(request, exception)


def forbidden(request, exception=None):
    """handler403: JSON under /api/ (DRF answers its own 403s; this is Django's PermissionDenied)."""
    if request.path.startswith("/api/"):
        return JsonResponse(error_body("permission_denied", "You may not do this."), status=403)
    return permission_denied(request, exception)


def server_error(request):
    """handler500: an unexpected error under /api/ is the API's JSON error (the traceback goes to the log, never
    to the client); pages keep the site's 500 page."""
    if request.path.startswith("/api/"):
        return JsonResponse(error_body("server_error", "Something went wrong on the server: the error is logged "
                                                       "for the site's operators. Try again later."), status=500)
    return page_server_error(request)


def exception_handler(exc, context):
    from django.conf import settings

    if isinstance(exc, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return Response(error_body("request.too_large", too_large_message(limit)), status=413)
    if isinstance(exc, ListFormatError):
        return Response({"error": exc.to_dict()}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, ListConflict):
        return _conflict_response(exc, context)
    if isinstance(exc, ListServiceError):
        wait = getattr(exc, "wait", None)  # WorkQuotaExceeded: when the client's engine work allowance comes back
        headers = {"Retry-After": str(retry_after(wait))} if wait is not None else None
        return Response({"error": exc.to_dict()}, status=exc.status, headers=headers)

    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    data = response.data
    if isinstance(data, dict) and "error" in data:
        return response
    detail = getattr(exc, "detail", None)
    code = str(getattr(detail, "code", None) or getattr(exc, "default_code", "error"))
    if isinstance(data, dict) and set(data) == {"detail"}:
        message, details = str(data["detail"]), None
    else:
        message = _first_message(data) or "The request is not valid."
        details = data
    if isinstance(exc, exceptions.ValidationError):
        code = "invalid"
    if isinstance(exc, exceptions.Throttled):  # say which limit, and when to come back (docs/security.md)
        message = throttle_message(context.get("request"), exc.wait)
        response["Retry-After"] = str(retry_after(exc.wait))
    response.data = error_body(code, message, details)
    return response
