"""Request-level answers that no view gives: a too-large API body (413) and a lost database connection (503).

RequestSizeLimitMiddleware refuses over-large API request bodies with a clear JSON 413 before any view reads them.

The lists API already does this itself (builder.api.views.BodySizeLimitMixin); this middleware extends the same
answer to every /api/ endpoint (the catalog API included). Add it to MIDDLEWARE right after SecurityMiddleware:

    "builder.middleware.RequestSizeLimitMiddleware",
"""
from __future__ import annotations

import codecs
import logging

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse

from builder.api.errors import error_body, too_large_message
from builder.throttles import CACHE_ERRORS

API_PREFIX = "/api/"
DATABASE_DOWN = "The database is unavailable right now (it may be restarting); nothing was changed. Try again in a few seconds."
CACHE_DOWN = "The cache is unavailable right now (it may be restarting); nothing was changed. Try again in a few seconds."
RETRY_AFTER_SECONDS = 5
logger = logging.getLogger("hangar.requests")


class RequestSizeLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and request.path.startswith(API_PREFIX) and self._length(request) > limit:
            return JsonResponse(error_body("request.too_large", too_large_message(limit)), status=413)
        return self.get_response(request)

    @staticmethod
    def _length(request) -> int:
        try:
            return int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return 0


def text_charset_problem(request) -> str | None:
    """Why the body's declared charset cannot be read as text (None when it can). Django accepts any name Python's
    codecs know, and some are not text encodings at all (base64, rot13, hex, zlib...): decoding a body with them
    raises LookupError deep in the parsers. An unknown name is ignored by Django (the body is read as UTF-8)."""
    charset = request.content_params.get("charset") if hasattr(request, "content_params") else None
    if not charset:
        return None
    try:
        info = codecs.lookup(charset)
    except LookupError:
        return None
    if getattr(info, "_is_text_encoding", True):
        return None
    return (f"The request body's charset {charset!r} (Content-Type: {request.META.get('CONTENT_TYPE', '')}) is "
            f"not a text encoding: send the body as UTF-8 (charset=utf-8).")


class BodyCharsetMiddleware:
    """A body whose Content-Type names a codec that is no text encoding (`application/json; charset=base64`) is
    refused with 400 before anything reads it: the API's `parse_error` under /api/, a short text page elsewhere."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        problem = text_charset_problem(request)
        if problem is None:
            return self.get_response(request)
        if request.path.startswith(API_PREFIX):
            return JsonResponse(error_body("parse_error", problem), status=400)
        return HttpResponse(problem, status=400, content_type="text/plain; charset=utf-8")


class DatabaseUnavailableMiddleware:
    """A lost database connection (a restart, a failover), or a cache that cannot be reached (CACHE_URL's Redis
    down), answers 503 with Retry-After — the API's JSON error shape on /api/, a short plain-text page elsewhere (a
    page template would need the database again) — instead of a 500 page. The request's transaction was rolled
    back; Django reconnects on the next request (CONN_HEALTH_CHECKS). The throttles never get here (they count in
    the process's memory while the cache is down: builder.throttles.ThrottleCache); this is the answer for any
    other use of the cache. Last in MIDDLEWARE, so it sees the view's exception first."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, (OperationalError, InterfaceError)):
            what, code, message = "database", "service.database_unavailable", DATABASE_DOWN
        elif isinstance(exception, CACHE_ERRORS):
            what, code, message = "cache", "service.cache_unavailable", CACHE_DOWN
        else:
            return None
        logger.warning("%s unavailable during %s %s: %s", what, request.method, request.path, exception)
        headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
        if request.path.startswith(API_PREFIX):
            return JsonResponse(error_body(code, message), status=503, headers=headers)
        return HttpResponse(message, status=503, content_type="text/plain; charset=utf-8", headers=headers)
