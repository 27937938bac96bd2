"""The OpenAPI schema tells the truth about the error answers every endpoint can give (REST_FRAMEWORK
DEFAULT_SCHEMA_CLASS).

Some error statuses do not come from a view's own code but from how it is set up, so each view's `extend_schema`
would have to repeat them (and would forget them on the next endpoint). Found by the API fuzz run (tests/fuzz),
which checks every answer against this schema. Added to each operation when its view can give them:

- 403 when the view reads credentials: a wrong token or session is refused whatever the endpoint;
- 404 on a paginated index: `?page=` past the last page (or not a page number);
- 400, 413 and 415 when the operation takes a body: unreadable JSON, larger than the upload limit (the
  RequestSizeLimitMiddleware answers 413 for every /api/ path), or sent with no or another Content-Type;
- 429 when the view has throttles (builder.throttles: per client, per user, sign-ups, failed sign-ins, simulations).

Every error has the one shape of builder.api.errors (`{"error": {"code", "message", "details"}}`), so an error
response documented without a body (e.g. `OpenApiResponse(description=...)` in the catalog views) gets that shape.
"""
from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse

from .serializers import ErrorSerializer

IMPLIED = {
    400: "the body is not valid JSON, or not the expected object; the message names the problem",
    403: "the credentials sent (token or session) are not valid",
    404: "no such page of results (`page` past the last page, or not a page number)",
    413: "body larger than the upload limit",
    415: "the body's Content-Type is missing or not one this operation reads",
    429: "too many requests: the message names the limit; wait the Retry-After header's seconds",
}


class HangarAutoSchema(AutoSchema):
    def _implied_error_codes(self) -> list[int]:
        view, codes = self.view, []
        if self.method in ("POST", "PUT", "PATCH") and self._get_request_body() is not None:
            codes += [400, 413, 415]
        if view.get_authenticators():
            codes.append(403)
        if self.method == "GET" and self._get_paginator() is not None and self._is_list_view():
            codes.append(404)
        if view.get_throttles():
            codes.append(429)
        return codes

    def _get_response_bodies(self, direction: str = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        for code in self._implied_error_codes():
            if str(code) not in responses:
                error = OpenApiResponse(ErrorSerializer, description=IMPLIED[code])
                responses[str(code)] = self._get_response_for_code(error, str(code), direction=direction)
        for code, response in responses.items():
            if code.startswith("4") and "content" not in response:
                error = OpenApiResponse(ErrorSerializer, description=response.get("description", ""))
                responses[code] = self._get_response_for_code(error, code, direction=direction)
        return dict(sorted(responses.items()))
