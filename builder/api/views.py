"""Lists REST API (docs/design.md §2.5, docs/api.md). Thin: parse the request, call a selector or a service, serialize.

Errors are raised by the services/selectors and shaped by builder.api.errors.exception_handler.
"""
from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate, login, logout
from django.http import HttpResponse
from django.utils.text import slugify
from django.utils.translation import get_language_from_request
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status, viewsets
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.decorators import action
from rest_framework.exceptions import Throttled
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from builder import selectors, services
from cards.downloads import content_disposition
from builder.models import GameList
from builder.errors import ListInputError, ListNotFound
from builder.throttles import AnonThrottle, LoginFailureThrottle, ScopedThrottle, UserThrottle
from cards.systems import SYSTEMS

from . import serializers as s
from .errors import RequestTooLarge, too_large_message
from .parsers import JSONBodyParser
from .permissions import ListsPermission

LANGS = ["ja", "en"]
EXPORT_KINDS = list(selectors.EXPORT_KINDS)

ERRORS = {
    400: OpenApiResponse(s.ErrorSerializer, description="bad input; the message names the field, path or line"),
    403: OpenApiResponse(s.ErrorSerializer, description="not signed in, or not the owner"),
    404: OpenApiResponse(s.ErrorSerializer, description="no such list, or a private list of someone else"),
    413: OpenApiResponse(s.ErrorSerializer, description="body larger than the upload limit"),
    428: OpenApiResponse(s.ErrorSerializer, description="no version: send `version` or an If-Match header"),
}
LANG_PARAM = OpenApiParameter(
    "lang", str, enum=LANGS, description="message language; default from Accept-Language, else en"
)


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {code: ERRORS[code] for code in codes}


# --- request helpers ----------------------------------------------------------------------------------------


def request_lang(request, default: str | None = None) -> str:
    """`?lang=ja|en`, else `default`, else the Accept-Language header, else English."""
    lang = request.query_params.get("lang")
    if lang is not None:
        if lang not in LANGS:
            raise ListInputError(f"Query parameter 'lang' must be 'ja' or 'en', not {lang!r}.", code="invalid")
        return lang
    if default:
        return default
    if request.META.get("HTTP_ACCEPT_LANGUAGE"):
        return "ja" if get_language_from_request(request._request).startswith("ja") else "en"
    return "en"


def request_version(request, data: dict[str, Any]) -> Any:
    """The version the client edits: `version` in the body, else the If-Match header (`"3"` or `W/"3"`)."""
    if data.get("version") is not None:
        return data["version"]
    header = request.headers.get("If-Match", "").strip()
    if header.startswith("W/"):
        header = header[2:]
    return header.strip('"') or None


def int_param(request, name: str) -> int:
    value = request.query_params.get(name)
    digits = (value or "").strip()
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 10):  # "²" is a digit to str.isdigit()
        raise ListInputError(
            f"Query parameter {name!r} must be a revision number (1, 2, ...), not {value!r}.", code="invalid"
        )
    return int(value)


class BodySizeLimitMixin:
    """Refuse bodies above DATA_UPLOAD_MAX_MEMORY_SIZE with a clear 413 before anything reads them.

    DRF's JSON parser reads the stream directly, so Django's own RequestDataTooBig check would not fire for JSON.
    """

    def initial(self, request, *args, **kwargs):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if limit is not None and length > limit:
            raise RequestTooLarge(too_large_message(limit))
        super().initial(request, *args, **kwargs)


# --- validate without an account ----------------------------------------------------------------------------


class ValidateView(BodySizeLimitMixin, APIView):
    """The body is a hangar.list/1 document; the answer is exactly the docs/design.md §2.3 validation result."""

    permission_classes = [AllowAny]
    parser_classes = [JSONBodyParser]

    @extend_schema(
        operation_id="validate_list",
        summary="Check a list against its system's construction rules (no account needed)",
        request={"application/json": s.LIST_DOCUMENT_SCHEMA},
        parameters=[LANG_PARAM],
        responses={200: s.ValidationResultSerializer, **_errors(400, 413)},
        auth=[],
    )
    def post(self, request):
        return Response(selectors.document_validate(request.data, lang=request_lang(request)))


# --- lists --------------------------------------------------------------------------------------------------


LIST_FILTERS = [
    OpenApiParameter("scope", str, enum=["mine", "public"], description="mine (default, signed in) or public"),
    OpenApiParameter("system", str, enum=list(SYSTEMS)),
    OpenApiParameter("format", str, description="format slug, e.g. tactics-v4"),
    OpenApiParameter("legal", bool),
    OpenApiParameter("deleted", bool, description="with scope=mine: your trash"),
    OpenApiParameter("card", str, description="with scope=public: the lists using a card (its code, or words of its "
                     "name)"),
    OpenApiParameter("faction", str, description="with scope=public: the lists with a card of this faction"),
    OpenApiParameter("sort", str, enum=["newest", "forks"], description="with scope=public: newest first (default) "
                     "or most forked first"),
]
VERSION_HEADER = OpenApiParameter(
    "If-Match", str, location=OpenApiParameter.HEADER, required=False,
    description="the list version you edited (instead of `version` in the body)",
)
CONFLICT = OpenApiResponse(s.ErrorSerializer, description="stale version: error.current and error.submitted")


class _NoFormatQuerySettings:
    """DRF settings as they are, except that `?format=` does not pick a renderer."""

    URL_FORMAT_OVERRIDE = None

    def __getattr__(self, name: str) -> Any:
        return getattr(api_settings, name)


class FormatIsAFilterNegotiation(DefaultContentNegotiation):
    """On the lists API `?format=tactics-v4` filters by game format; answers are JSON (or the browsable API by
    Accept header)."""

    settings = _NoFormatQuerySettings()


class ListViewSet(BodySizeLimitMixin, viewsets.GenericViewSet):
    """Deck and army lists: private, unlisted or public; every save is a revision; writes need the version."""

    content_negotiation_class = FormatIsAFilterNegotiation
    lookup_field = "slug"
    lookup_value_regex = r"[A-Za-z0-9_-]+"
    permission_classes = [ListsPermission]
    serializer_class = s.GameListSerializer
    queryset = GameList.objects.none()  # every read goes through builder.selectors

    def _get(self) -> GameList:
        return selectors.list_get(slug=self.kwargs["slug"], user=self.request.user)

    def _show(self, game_list: GameList, code: int = status.HTTP_200_OK) -> Response:
        data = s.GameListSerializer(game_list, context=self.get_serializer_context()).data
        return Response(data, status=code, headers={"ETag": f'"{game_list.version}"'})

    @extend_schema(summary="Your lists, your trash, or the public gallery", parameters=LIST_FILTERS,
                   responses={200: s.GameListSummarySerializer(many=True), **_errors(400, 403)})
    def list(self, request):
        params = request.query_params
        lists = selectors.list_search(
            user=request.user,
            scope=params.get("scope") or "mine",
            system=params.get("system"),
            format=params.get("format"),
            legal=params.get("legal"),
            deleted=params.get("deleted"),
            **({key: params.get(key) for key in ("card", "faction", "sort")} if params.get("scope") == "public" else {}),
        )
        page = self.paginate_queryset(lists)
        return self.get_paginated_response(
            s.GameListSummarySerializer(page, many=True, context=self.get_serializer_context()).data
        )

    @extend_schema(summary="Save a new list (an illegal list is saved and flagged)", request=s.ListCreateSerializer,
                   responses={201: s.GameListSerializer, **_errors(400, 403, 413)})
    def create(self, request):
        form = s.ListCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        game_list = services.list_create(owner=request.user, **form.validated_data)
        response = self._show(game_list, status.HTTP_201_CREATED)
        response["Location"] = response.data["url"]
        return response

    @extend_schema(summary="One list (private: owner only)", responses={200: s.GameListSerializer, **_errors(404)})
    def retrieve(self, request, slug=None):
        return self._show(services.list_validation_refresh(game_list=self._get()))

    def _update(self, request, *, partial: bool) -> Response:
        form = s.ListUpdateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        if not partial and "document" not in data:
            raise ListInputError("document: required for PUT (use PATCH to change only some fields).",
                                 code="invalid", details={"path": "document"})
        game_list = services.list_update(
            game_list=self._get(),
            user=request.user,
            document=data.get("document"),
            notes=data.get("notes"),
            visibility=data.get("visibility"),
            expected_version=request_version(request, data),
        )
        return self._show(game_list)

    @extend_schema(summary="Replace a list's document (owner only; needs version or If-Match)",
                   request=s.ListUpdateSerializer, parameters=[VERSION_HEADER],
                   responses={200: s.GameListSerializer, **_errors(400, 403, 404, 413), 409: CONFLICT,
                              **_errors(428)})
    def update(self, request, slug=None):
        return self._update(request, partial=False)

    @extend_schema(summary="Change some of document, notes, visibility (owner only; needs version or If-Match)",
                   request=s.ListUpdateSerializer, parameters=[VERSION_HEADER],
                   responses={200: s.GameListSerializer, **_errors(400, 403, 404, 413), 409: CONFLICT,
                              **_errors(428)})
    def partial_update(self, request, slug=None):
        return self._update(request, partial=True)

    @extend_schema(summary="Move a list to the trash (soft delete; owner only)",
                   responses={204: None, **_errors(403, 404)})
    def destroy(self, request, slug=None):
        services.list_delete(game_list=self._get(), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(summary="Take a list out of the trash (owner only)", request=None,
                   responses={200: s.GameListSerializer, **_errors(400, 403, 404)})
    @action(detail=True, methods=["post"])
    def restore(self, request, slug=None):
        return self._show(services.list_restore(game_list=self._get(), user=request.user))

    @extend_schema(summary="Copy a visible list into a new private list of yours, named \"Copy of <name>\"",
                   request=None, parameters=[OpenApiParameter(
                       "lang", str, enum=LANGS, description="language of the copy's name (\"Copy of …\" or "
                       "\"… のコピー\"); default from Accept-Language, else en")],
                   responses={201: s.GameListSerializer, **_errors(400, 403, 404)})  # 400: your list, in the trash
    @action(detail=True, methods=["post"])
    def fork(self, request, slug=None):
        fork = services.list_fork(game_list=self._get(), user=request.user, lang=request_lang(request))
        return self._show(fork, status.HTTP_201_CREATED)

    @extend_schema(summary="The list's validation result", parameters=[LANG_PARAM],
                   responses={200: s.ValidationResultSerializer, **_errors(400, 404)})
    @action(detail=True, methods=["get"])
    def validation(self, request, slug=None):
        return Response(selectors.list_validation(self._get(), lang=request_lang(request)))

    @extend_schema(
        summary="Download the list as text, hangar.list/1 JSON or a BattleScribe / New Recruit roster",
        parameters=[
            OpenApiParameter("as", str, enum=EXPORT_KINDS,
                             description="json (default), text, ros or rosz (a BattleScribe roster, plain or zipped: "
                                         "Warcaster lists of imported BattleScribe cards only)"),
            OpenApiParameter("lang", str, enum=LANGS, description="text section headers; default ja"),
        ],
        responses={(200, "text/plain"): OpenApiTypes.STR, (200, "application/json"): s.LIST_DOCUMENT_SCHEMA,
                   (200, "application/xml"): OpenApiTypes.STR, (200, "application/zip"): OpenApiTypes.BINARY,
                   **_errors(400, 404)},
    )
    @action(detail=True, methods=["get"])
    def export(self, request, slug=None):
        kind = request.query_params.get("as", "json")
        if kind not in EXPORT_KINDS:
            raise ListInputError(f"Query parameter 'as' must be one of {', '.join(EXPORT_KINDS)}, not {kind!r}.",
                                 code="invalid")
        game_list = self._get()
        document = selectors.list_document(game_list)
        content_type, suffix = selectors.EXPORT_KINDS[kind]
        # a list that cannot be a roster raises RosterExportError: a 400 naming each card (builder.api.errors)
        body = selectors.list_export(document, kind, lang=request_lang(request, default="ja"))
        response = HttpResponse(body, content_type=content_type)
        # the list's own name (a Japanese name stays Japanese), an ASCII name with its id for old clients
        response["Content-Disposition"] = content_disposition(
            f"{game_list.name or game_list.slug}.{suffix}",
            fallback=f"{slugify(game_list.name) or 'list'}-{game_list.slug}.{suffix}")
        return response

    @extend_schema(
        summary="Import a list from the text format, a hangar.list/1 document, or an uploaded .txt/.json file",
        request={"application/json": s.ListImportSerializer, "multipart/form-data": s.ListImportSerializer},
        responses={201: s.GameListSerializer, **_errors(400, 403, 413)},
    )
    @action(detail=False, methods=["post"], url_path="import",
            parser_classes=[JSONBodyParser, MultiPartParser, FormParser])
    def import_list(self, request):
        form = s.ListImportSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        common = {"owner": request.user, "name": data.get("name"), "notes": data["notes"],
                  "visibility": data["visibility"]}
        if "file" in data:
            upload = data["file"]
            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            if upload.size > limit:
                raise RequestTooLarge(too_large_message(limit))
            game_list = services.list_import_file(filename=upload.name, content=upload.read(),
                                                  system=data.get("system"), **common)
        elif "text" in data:
            game_list = services.list_import_text(text=data["text"], system=data.get("system"), **common)
        else:
            game_list = services.list_import_json(raw=data["json"], **common)
        return self._show(game_list, status.HTTP_201_CREATED)

    @extend_schema(summary="The list's saved revisions, newest first",
                   responses={200: s.RevisionSummarySerializer(many=True), **_errors(404)})
    @action(detail=True, methods=["get"])
    def revisions(self, request, slug=None):
        page = self.paginate_queryset(selectors.revision_list(self._get()))
        return self.get_paginated_response(s.RevisionSummarySerializer(page, many=True).data)

    @extend_schema(summary="One revision: the document, notes and visibility as saved",
                   parameters=[OpenApiParameter("number", int, location=OpenApiParameter.PATH)],
                   responses={200: s.RevisionSerializer, **_errors(404)})
    @action(detail=True, methods=["get"], url_path=r"revisions/(?P<number>[0-9]+)")
    def revision(self, request, slug=None, number=None):
        game_list = self._get()
        if len(number) > 10:  # a number Python would not even parse (over 4300 digits) is no revision either
            raise ListNotFound(f"List {game_list.slug!r} has no revision {number[:12]}….")
        return Response(s.RevisionSerializer(selectors.revision_get(game_list, int(number))).data)

    @extend_schema(
        summary="What changed between two revisions",
        parameters=[OpenApiParameter("from", int, required=True), OpenApiParameter("to", int, required=True)],
        responses={200: s.RevisionDiffSerializer, **_errors(400, 404)},
    )
    @action(detail=True, methods=["get"])
    def diff(self, request, slug=None):
        game_list = self._get()
        return Response(selectors.revision_diff(game_list, int_param(request, "from"), int_param(request, "to")))


# --- auth ---------------------------------------------------------------------------------------------------


def _token_payload(user, token: str) -> dict[str, str]:
    return {"token": token, "username": user.get_username()}


class SignupView(BodySizeLimitMixin, APIView):
    """Username, password (checked by the site's password rules) and optional email; throttled per client."""

    permission_classes = [AllowAny]
    throttle_classes = [ScopedThrottle, AnonThrottle, UserThrottle]
    throttle_scope = "signup"

    @extend_schema(summary="Create an account; returns an API token", request=s.SignupSerializer,
                   responses={201: s.TokenSerializer, **_errors(400)}, auth=[])
    def post(self, request):
        form = s.SignupSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        user, token = services.user_signup(**form.validated_data)
        return Response(_token_payload(user, token), status=status.HTTP_201_CREATED)


def check_login_budget(request) -> LoginFailureThrottle:
    """Failed sign-ins are limited per client address (scope `login`, docs/security.md): 429 once spent."""
    throttle = LoginFailureThrottle()
    wait = throttle.begin(request)  # takes one attempt from the budget; a successful sign-in gives it back
    if wait is not None:
        raise Throttled(wait)
    return throttle


class TokenView(BodySizeLimitMixin, ObtainAuthToken):
    """POST username + password, get the API token (`Authorization: Token <key>`). Failed attempts are throttled."""

    parser_classes = [JSONBodyParser, FormParser, MultiPartParser]

    @extend_schema(summary="Get your API token", request=s.LoginSerializer,
                   responses={200: s.TokenSerializer, **_errors(400),
                              429: OpenApiResponse(s.ErrorSerializer, description="too many failed sign-ins")},
                   auth=[])
    def post(self, request, *args, **kwargs):
        throttle = check_login_budget(request)
        form = self.get_serializer(data=request.data)
        form.is_valid(raise_exception=True)  # a failure keeps the attempt it took from the budget
        user = form.validated_data["user"]
        throttle.succeeded(request)
        return Response(_token_payload(user, services.user_token(user=user)))


class LoginView(BodySizeLimitMixin, APIView):
    """Session sign-in for browser clients (send the CSRF token on later writes). JSON only: a cross-site HTML
    form cannot send JSON, so no other site can sign a visitor into an account (login CSRF). Failed attempts are
    throttled."""

    permission_classes = [AllowAny]
    parser_classes = [JSONBodyParser]

    @extend_schema(summary="Sign in with a session cookie", request={"application/json": s.LoginSerializer},
                   responses={200: s.UserSerializer, **_errors(400),
                              415: OpenApiResponse(s.ErrorSerializer, description="a body that is not JSON"),
                              429: OpenApiResponse(s.ErrorSerializer, description="too many failed sign-ins")},
                   auth=[])
    def post(self, request):
        throttle = check_login_budget(request)
        form = s.LoginSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        user = authenticate(request._request, **form.validated_data)
        if user is None:  # a failure keeps the attempt it took from the budget
            raise ListInputError("Wrong username or password.", code="auth.failed")
        throttle.succeeded(request)
        login(request._request, user)
        return Response(s.UserSerializer(user).data)


class LogoutView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(summary="End the session", request=None, responses={204: None})
    def post(self, request):
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(summary="The signed-in user", responses={200: s.UserSerializer, **_errors(403)})
    def get(self, request):
        return Response(s.UserSerializer(request.user).data)


