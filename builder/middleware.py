"""Refuse over-large API request bodies with a clear JSON 413 before any view reads them.

The lists API already does this itself (builder.api.views.BodySizeLimitMixin); this middleware extends the same
answer to every /api/ endpoint (the catalog API included). Add it to MIDDLEWARE right after SecurityMiddleware:

    "builder.middleware.RequestSizeLimitMiddleware",
"""
from __future__ import annotations

from django.conf import settings
from django.http import JsonResponse

from builder.api.errors import error_body, too_large_message

API_PREFIX = "/api/"


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
