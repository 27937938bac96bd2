"""Tournament events REST API (docs/api.md "Tournament events"): make and run an event, join it, submit a list (a
locked snapshot checked against the event's pinned data), read the submissions and the event's field.

Thin: builder.event_selectors reads and decides who may see what, builder.services.events writes; the views only
translate a request into those calls and their answers into JSON. Who may see what:
- an event with open registration: anyone; a join-code event: its organiser, staff, its players and whoever gives
  its code (`?code=`, or `code` in the body of a join); anyone else gets a 404, the event is not revealed;
- the organiser and staff run it (change, lock, publish, move the pins, remove a player, delete): anyone else who
  may see the event gets a 403;
- the lists: a player always sees their own submissions; everyone else's only once the lists are shown (the
  organiser and staff always); before that, nothing of another player's list is in any answer.
Errors: 400 (event.invalid with details.path), 403, 404, 409 (event.locked, event.full, event.not_locked,
event.organiser_only) from builder.errors, shaped by builder.api.errors.
"""
from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import BasePermission
from rest_framework.response import Response

from builder import event_selectors, selectors
from builder.errors import ListInputError, ListNotFound
from builder.models import Event, EventEntrant, EventSubmission, ListsShown, Registration, SubmissionSource
from builder.services import events as event_services
from builder.throttles import AnonThrottle, UserThrottle
from cards.systems import SYSTEMS

from .errors import RequestTooLarge, too_large_message
from .parsers import JSONBodyParser
from .serializers import LIST_DOCUMENT_SCHEMA, ErrorSerializer, ViolationSerializer
from .views import LANG_PARAM, BodySizeLimitMixin, request_lang

CODE = "event.invalid"
ROLES = ["organiser", "staff", "entrant", "user", "anonymous"]
STATUSES = ["open", "locked", "published"]
SIGN_IN = "Sign in (session or 'Authorization: Token <key>') to use events."


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description)


ERRORS = {
    400: _error("bad input (event.invalid): the message and details.path name the field (name, deadline, "
                "player_cap, publish_at, code, list, text, file...); a list text or file that cannot be read "
                "names its lines"),
    403: _error("not signed in, or not allowed: not the event's organiser (or staff), not one of its players"),
    404: _error("no such event (or a join-code event without its code), player, submission or list, or lists "
                "that are not shown to you yet"),
    409: _error("the event's state refuses it: event.locked (the lists are locked), event.full (the player cap "
                "is reached), event.not_locked (publish after the lock), event.organiser_only (lists never shown)"),
    413: _error("body (or uploaded file) larger than the upload limit"),
}


QUERY_ERROR = _error("a bad query parameter (mine, system, history, lang): the message and details.path name it")


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {code: ERRORS[code] for code in codes}


def _invalid(message: str, path: str) -> ListInputError:
    return ListInputError(message, code=CODE, details={"path": path})


def _flag(request, name: str) -> bool:
    """A yes/no query parameter: 1/true/yes or 0/false/no (absent: no); anything else is a 400 naming it."""
    value = request.query_params.get(name)
    if value is None:
        return False
    text = value.strip().lower()
    if text in ("1", "true", "yes"):
        return True
    if text in ("", "0", "false", "no"):
        return False
    raise ListInputError(f"Query parameter {name!r} must be 1 or 0 (true or false), not {value[:40]!r}.",
                         code="event.bad_filter", details={"path": name})


def _signed_in(request) -> None:
    if not (request.user and request.user.is_authenticated):
        raise NotAuthenticated(SIGN_IN)


def _body(request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise _invalid(f"The body must be a JSON object, not {type(request.data).__name__}.", "")
    return request.data


def _text_param(data: dict[str, Any], name: str) -> str | None:
    value = data.get(name)
    if value is None or isinstance(value, str):
        return value
    raise _invalid(f"{name}: expected text, got {type(value).__name__}.", name)


def _when(value) -> str | None:
    return serializers.DateTimeField().to_representation(value) if value is not None else None


# --- parameters -----------------------------------------------------------------------------------------------


CODE_PARAM = OpenApiParameter(
    "code", str, description="the event's join code: needed to see a join-code event unless you organise it, have "
                             "joined it or are staff (without it such an event is a 404)")
EVENT_FILTERS = [
    OpenApiParameter("mine", str, enum=["1", "0"], description="1: the events you organise or have entered "
                                                                "(signed in), instead of the open ones"),
    OpenApiParameter("system", str, enum=list(SYSTEMS), description="only the events of this game"),
]
HISTORY_PARAM = OpenApiParameter(
    "history", str, enum=["1", "0"], description="1: every submission (newest first per player) instead of the "
                                                  "current ones: the organiser's and staff's of every player, "
                                                  "anyone else's of their own")


# --- request bodies (documented; each field is checked by builder.services.events, which names it) --------------


class EventCreateSerializer(serializers.Serializer):
    system = serializers.ChoiceField(choices=list(SYSTEMS), help_text="the game; its data is pinned now")
    name = serializers.CharField(max_length=event_services.MAX_NAME)
    date = serializers.DateField(help_text="the day of the event (YYYY-MM-DD)")
    deadline = serializers.DateTimeField(help_text="when the lists lock (with an offset, else the site's time zone)")
    format = serializers.CharField(required=False, allow_blank=True, max_length=64,
                                   help_text="a format of the game (GET /api/systems/{slug}/formats/); \"\" or "
                                             "absent: the game's default")
    place = serializers.CharField(required=False, allow_blank=True, max_length=event_services.MAX_PLACE)
    player_cap = serializers.IntegerField(required=False, allow_null=True, min_value=2,
                                          max_value=event_services.MAX_PLAYERS, help_text="null: no cap")
    registration = serializers.ChoiceField(choices=Registration.choices, required=False, default=Registration.OPEN,
                                           help_text="open: anyone signed in may join, the event is listed; code: "
                                                     "only who has the join code")
    lists_shown = serializers.ChoiceField(choices=ListsShown.choices, required=False, default=ListsShown.AT_PUBLISH,
                                          help_text="open: as soon as submitted; publish: from publish_at (at or "
                                                    "after the deadline) or when the organiser publishes them; "
                                                    "organiser: never to the players")
    publish_at = serializers.DateTimeField(required=False, allow_null=True,
                                           help_text="with lists_shown publish: when the lists are shown")


class EventUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(required=False, max_length=event_services.MAX_NAME)
    date = serializers.DateField(required=False)
    deadline = serializers.DateTimeField(required=False, help_text="frozen once the lists are locked (409)")
    format = serializers.CharField(required=False, allow_blank=True, max_length=64,
                                   help_text="frozen once the lists are locked; every submission is checked again")
    place = serializers.CharField(required=False, allow_blank=True, max_length=event_services.MAX_PLACE)
    player_cap = serializers.IntegerField(required=False, allow_null=True, min_value=2,
                                          max_value=event_services.MAX_PLAYERS,
                                          help_text="frozen once the lists are locked")
    registration = serializers.ChoiceField(choices=Registration.choices, required=False,
                                           help_text="frozen once the lists are locked")
    lists_shown = serializers.ChoiceField(choices=ListsShown.choices, required=False)
    publish_at = serializers.DateTimeField(required=False, allow_null=True)


class JoinSerializer(serializers.Serializer):
    code = serializers.CharField(required=False, allow_blank=True, max_length=16,
                                 help_text="the join code of a join-code event (any case); a wrong one is a 404")
    display_name = serializers.CharField(required=False, allow_blank=True, max_length=event_services.MAX_DISPLAY_NAME,
                                         help_text="the name on your sheet and in the event's lists (default: "
                                                   "your username); joining again changes it")


class SubmitSerializer(serializers.Serializer):
    """Exactly one of `list` and `text` (JSON), or `file` (multipart)."""

    list = serializers.CharField(required=False, max_length=32, help_text="the id of one of your saved lists "
                                                                          "(its current revision is taken)")
    text = serializers.CharField(required=False, trim_whitespace=False,
                                 help_text="or a list in the text format (docs/list-formats.md): saved as a "
                                           "private list of yours as well")


class SubmitFileSerializer(SubmitSerializer):
    file = serializers.FileField(required=False, help_text="or a .ros/.rosz roster (BattleScribe, New Recruit), a "
                                                           ".txt list or a .json hangar.list/1 file")


# --- answers --------------------------------------------------------------------------------------------------


class EventSerializer(serializers.Serializer):
    slug = serializers.CharField(help_text="the event's id")
    url = serializers.SerializerMethodField(help_text="the event's web page")
    system = serializers.CharField(source="system.slug")
    format = serializers.SerializerMethodField(help_text="the format every list is checked in; null: the game's "
                                                         "default")
    name = serializers.CharField()
    date = serializers.DateField()
    place = serializers.CharField(allow_blank=True)
    player_cap = serializers.IntegerField(allow_null=True, help_text="null: no cap")
    players = serializers.SerializerMethodField(help_text="players registered now (withdrawn ones not counted)")
    registration = serializers.ChoiceField(choices=Registration.choices)
    join_code = serializers.SerializerMethodField(help_text="the organiser's and staff's only; null for anyone else")
    deadline = serializers.DateTimeField(help_text="the lists lock then, automatically")
    locked = serializers.SerializerMethodField(help_text="no list can be submitted any more")
    locked_at = serializers.SerializerMethodField(help_text="when the lists locked (by hand or at the deadline)")
    lists_shown = serializers.ChoiceField(choices=ListsShown.choices)
    publish_at = serializers.DateTimeField(allow_null=True)
    published = serializers.SerializerMethodField(help_text="the players' lists are shown (to whoever may see the "
                                                            "event) and form the event's field")
    status = serializers.SerializerMethodField(help_text="open (lists taken), locked, published (locked and shown)")
    package_versions = serializers.DictField(child=serializers.IntegerField(),
                                             help_text="the pinned data: {package: version} every list is checked "
                                                       "against")
    organiser = serializers.CharField(source="organiser.username")
    my_role = serializers.SerializerMethodField(help_text="what you are to the event")

    def _user(self):
        return self.context["request"].user

    def get_url(self, event: Event) -> str:
        return self.context["request"].build_absolute_uri(reverse("event_detail", kwargs={"slug": event.slug}))

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_format(self, event: Event) -> str | None:
        return event.format or None

    def get_players(self, event: Event) -> int:
        return event_selectors.entrant_count(event)

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_join_code(self, event: Event) -> str | None:
        return event.join_code if event_selectors.event_is_organiser(event, self._user()) else None

    def get_locked(self, event: Event) -> bool:
        return event_selectors.event_is_locked(event)

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_locked_at(self, event: Event) -> str | None:
        return _when(event_selectors.event_locked_at(event))

    def get_published(self, event: Event) -> bool:
        return event_selectors.event_lists_shown(event)

    @extend_schema_field({"type": "string", "enum": STATUSES})  # a plain enum: "status" names other choice sets
    def get_status(self, event: Event) -> str:
        return event_selectors.event_status(event)

    @extend_schema_field({"type": "string", "enum": ROLES})
    def get_my_role(self, event: Event) -> str:
        return event_selectors.event_role(event, self._user())


class SubmissionSerializer(serializers.Serializer):
    public_id = serializers.CharField(help_text="the submission's id")
    number = serializers.IntegerField(help_text="1, 2, ... per player: the highest is the player's list")
    player = serializers.CharField(source="entrant.display_name", help_text="the player's display name")
    submitted_at = serializers.DateTimeField(source="created_at")
    source = serializers.ChoiceField(choices=SubmissionSource.choices)
    list = serializers.SerializerMethodField(help_text="the saved list it was taken from: to its player, the "
                                                       "organiser and staff only (null for anyone else, or when "
                                                       "the list is gone)")
    list_revision = serializers.IntegerField(allow_null=True, help_text="the list's revision it was taken from")
    legal = serializers.BooleanField(help_text="against the event's pinned data, in its format")
    error_count = serializers.IntegerField()
    warning_count = serializers.IntegerField()
    violations = serializers.SerializerMethodField(help_text="in the request's language (?lang=, Accept-Language)")
    verification_code = serializers.SerializerMethodField(
        help_text="the code on the player's event sheet: bound to the event, this locked snapshot and the pins")
    package_versions = serializers.DictField(child=serializers.IntegerField(),
                                             help_text="the pins it was checked against")
    document = serializers.SerializerMethodField(help_text="the locked hangar.list/1 snapshot")

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_list(self, submission: EventSubmission) -> str | None:
        user = self.context["request"].user
        if submission.game_list_id is None:
            return None
        mine = user.is_authenticated and submission.entrant.player_id == user.pk
        if not (mine or event_selectors.event_is_organiser(submission.entrant.event, user)):
            return None
        return submission.game_list.slug

    @extend_schema_field(ViolationSerializer(many=True))
    def get_violations(self, submission: EventSubmission) -> list[dict]:
        return event_selectors.submission_validation(submission, self.context.get("lang", "en")).get("violations", [])

    def get_verification_code(self, submission: EventSubmission) -> str:
        return event_selectors.submission_code(submission)

    @extend_schema_field(LIST_DOCUMENT_SCHEMA)
    def get_document(self, submission: EventSubmission) -> dict:
        return submission.document


class SubmissionSummarySerializer(serializers.Serializer):
    public_id = serializers.CharField()
    number = serializers.IntegerField()
    submitted_at = serializers.DateTimeField(source="created_at")
    source = serializers.ChoiceField(choices=SubmissionSource.choices)
    name = serializers.SerializerMethodField(help_text="the list's name")
    legal = serializers.BooleanField()
    error_count = serializers.IntegerField()
    warning_count = serializers.IntegerField()
    verification_code = serializers.SerializerMethodField()

    def get_name(self, submission: EventSubmission) -> str:
        name = submission.document.get("name") if isinstance(submission.document, dict) else None
        return name if isinstance(name, str) else ""

    def get_verification_code(self, submission: EventSubmission) -> str:
        return event_selectors.submission_code(submission)


class PlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="the player's id in the event (DELETE .../players/{id}/ removes them)")
    display_name = serializers.CharField()
    username = serializers.CharField(source="player.username")
    joined_at = serializers.DateTimeField()
    withdrawn_at = serializers.DateTimeField(allow_null=True)
    submitted = serializers.SerializerMethodField(help_text="has submitted a list")
    submissions = serializers.SerializerMethodField(help_text="how many lists they submitted in all")
    current = serializers.SerializerMethodField(help_text="their list now (their latest submission), or null")

    def get_submitted(self, entrant: EventEntrant) -> bool:
        return entrant.current is not None

    def get_submissions(self, entrant: EventEntrant) -> int:
        return len(entrant.history)

    @extend_schema_field(SubmissionSummarySerializer(allow_null=True))
    def get_current(self, entrant: EventEntrant) -> dict | None:
        if entrant.current is None:
            return None
        entrant.current.entrant = entrant
        return SubmissionSummarySerializer(entrant.current).data


class FieldListSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="the list's key in a gauntlet's or a matrix's result")
    name = serializers.CharField(allow_blank=True)
    weight = serializers.IntegerField(help_text="how many players brought it (the same cards counted once)")
    share = serializers.FloatField(help_text="weight / the players with a list, 0-1")
    players = serializers.ListField(child=serializers.CharField(), help_text="the players' display names")
    document = serializers.JSONField(help_text="the locked hangar.list/1 snapshot: its cards")


class EventFieldSerializer(serializers.Serializer):
    event = serializers.CharField(help_text="the event's id: play this field as the opponent {\"event\": id} of a "
                                            "gauntlet, the list doctor, test every card or a matrix")
    system = serializers.CharField()
    players = serializers.IntegerField(help_text="the players with a list")
    lists = FieldListSerializer(many=True)


# --- examples -----------------------------------------------------------------------------------------------


CREATE_EXAMPLE = OpenApiExample(
    "A store's winter cup", request_only=True,
    value={"system": "hagmi", "name": "Winter Cup", "date": "2026-12-20", "deadline": "2026-12-19T18:00:00+09:00",
           "format": "tactics-v4", "place": "Akihabara", "player_cap": 16, "registration": "code",
           "lists_shown": "publish", "publish_at": "2026-12-20T10:00:00+09:00"})
EVENT_EXAMPLE = OpenApiExample(
    "An event", response_only=True,
    value={"slug": "Ev12ab34", "url": "https://hangar.example/events/Ev12ab34/", "system": "hagmi",
           "format": "tactics-v4", "name": "Winter Cup", "date": "2026-12-20", "place": "Akihabara",
           "player_cap": 16, "players": 9, "registration": "code", "join_code": "K7PQ2XWM",
           "deadline": "2026-12-19T09:00:00Z", "locked": False, "locked_at": None, "lists_shown": "publish",
           "publish_at": "2026-12-20T01:00:00Z", "published": False, "status": "open",
           "package_versions": {"core": 3}, "organiser": "store", "my_role": "organiser"})
JOIN_EXAMPLE = OpenApiExample("Join with the code", request_only=True,
                              value={"code": "K7PQ2XWM", "display_name": "Aoi"})
SUBMIT_EXAMPLES = [
    OpenApiExample("One of your lists", request_only=True, value={"list": "Xy12ab34"}),
    OpenApiExample("A text list", request_only=True,
                   value={"text": "System: hagmi\nFormat: tactics-v4\n[兵器]\n2 HS-001\n"}),
]


# --- the view -------------------------------------------------------------------------------------------------


class EventsPermission(BasePermission):
    """Making an event and "my events" need an account; anyone may read the open events and an event they may
    see (the rest is decided per event by builder.event_selectors / builder.services.events)."""

    message = SIGN_IN

    def has_permission(self, request, view) -> bool:
        if request.user and request.user.is_authenticated:
            return True
        if view.action == "create":
            return False
        if view.action == "list":
            return not _flag(request, "mine")
        return True


class EventViewSet(BodySizeLimitMixin, viewsets.GenericViewSet):
    """Tournament events: registration, submissions checked against pinned data, the lock, publication, the field."""

    lookup_field = "slug"
    lookup_value_regex = r"[A-Za-z0-9_-]+"
    permission_classes = [EventsPermission]
    parser_classes = [JSONBodyParser]
    serializer_class = EventSerializer
    queryset = Event.objects.none()  # every read goes through builder.event_selectors

    def get_throttles(self):
        return [AnonThrottle(), UserThrottle()]

    def _event(self, code: Any = None) -> Event:
        if not isinstance(code, str) or not code:
            code = self.request.query_params.get("code")
        return event_selectors.event_get(slug=self.kwargs["slug"], user=self.request.user, code=code)

    def _show(self, event: Event, code: int = status.HTTP_200_OK) -> Response:
        return Response(EventSerializer(event, context=self.get_serializer_context()).data, status=code)

    def _submissions(self, submissions, *, many: bool = False):
        context = {**self.get_serializer_context(), "lang": request_lang(self.request)}
        return SubmissionSerializer(submissions, many=many, context=context).data

    def _submission_url(self, event: Event, submission: EventSubmission) -> str:
        return self.request.build_absolute_uri(reverse("events-submission", kwargs={
            "slug": event.slug, "public_id": submission.public_id}))

    # --- events -------------------------------------------------------------------------------------------

    @extend_schema(summary="Events with open registration (newest date first), or yours (?mine=1)",
                   parameters=EVENT_FILTERS,
                   responses={200: EventSerializer(many=True), 400: QUERY_ERROR, **_errors(403)})
    def list(self, request):
        system = request.query_params.get("system")
        if _flag(request, "mine"):
            events = event_selectors.events_mine(user=request.user, system=system)
        else:
            events = event_selectors.events_open(system=system)
        page = self.paginate_queryset(events)
        return self.get_paginated_response(EventSerializer(page, many=True,
                                                           context=self.get_serializer_context()).data)

    @extend_schema(summary="Organise an event: its game's data is pinned at the newest package versions",
                   request=EventCreateSerializer, examples=[CREATE_EXAMPLE, EVENT_EXAMPLE],
                   responses={201: EventSerializer, **_errors(400, 403, 413)})
    def create(self, request):
        event = event_services.event_create(organiser=request.user, data=_body(request))
        response = self._show(event, status.HTTP_201_CREATED)
        response["Location"] = request.build_absolute_uri(reverse("events-detail", kwargs={"slug": event.slug}))
        return response

    @extend_schema(summary="One event (a join-code event: with ?code=, unless you organise it, joined it or are "
                           "staff)", parameters=[CODE_PARAM], examples=[EVENT_EXAMPLE],
                   responses={200: EventSerializer, **_errors(404)})
    def retrieve(self, request, slug=None):
        return self._show(self._event())

    @extend_schema(summary="Change an event (its organiser or staff); the format, deadline, player cap and "
                           "registration are frozen once the lists lock (409)",
                   request=EventUpdateSerializer, parameters=[CODE_PARAM],
                   responses={200: EventSerializer, **_errors(400, 403, 404, 409, 413)})
    def partial_update(self, request, slug=None):
        event = self._event()
        _signed_in(request)
        return self._show(event_services.event_update(event=event, user=request.user, data=_body(request)))

    @extend_schema(summary="Delete an event with its players and submissions (its organiser or staff)",
                   parameters=[CODE_PARAM], responses={204: None, **_errors(403, 404)})
    def destroy(self, request, slug=None):
        event = self._event()
        _signed_in(request)
        event_services.event_delete(event=event, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    # --- players ------------------------------------------------------------------------------------------

    @extend_schema(summary="Join an event (signed in; a join-code event with its code); joining again after "
                           "withdrawing restores your submissions",
                   request=JoinSerializer, examples=[JOIN_EXAMPLE],
                   responses={200: EventSerializer, **_errors(400, 403, 404, 409, 413)})
    @action(detail=True, methods=["post"])
    def join(self, request, slug=None):
        data = _body(request)
        code, display_name = _text_param(data, "code"), data.get("display_name")
        event = self._event(code)
        _signed_in(request)
        event_services.event_join(event=event, user=request.user, code=code or request.query_params.get("code") or "",
                                  display_name=display_name)
        return self._show(event)

    @extend_schema(summary="Leave an event before its lists lock (your submissions are kept)", request=None,
                   parameters=[CODE_PARAM], responses={200: EventSerializer, **_errors(403, 404, 409)})
    @action(detail=True, methods=["post"])
    def withdraw(self, request, slug=None):
        event = self._event()
        _signed_in(request)
        event_services.event_withdraw(event=event, user=request.user)
        return self._show(event)

    @extend_schema(summary="Every player, withdrawn ones too, with their list now (the organiser and staff)",
                   parameters=[CODE_PARAM], responses={200: PlayerSerializer(many=True), **_errors(403, 404)})
    @action(detail=True, methods=["get"])
    def players(self, request, slug=None):
        event = self._event()
        _signed_in(request)
        event_services.check_organiser(event, request.user)
        page = self.paginate_queryset(event_selectors.entrants_with_lists(event, withdrawn=True))
        return self.get_paginated_response(PlayerSerializer(page, many=True).data)

    @extend_schema(summary="Remove a player before the lists lock (the organiser or staff; their submissions are "
                           "kept)", parameters=[CODE_PARAM, OpenApiParameter("entrant", int,
                                                                             location=OpenApiParameter.PATH)],
                   responses={204: None, **_errors(403, 404, 409)})
    @action(detail=True, methods=["delete"], url_path=r"players/(?P<entrant>[0-9]+)")
    def player(self, request, slug=None, entrant=None):
        event = self._event()
        _signed_in(request)
        found = next((row for row in event_selectors.entrants_with_lists(event, withdrawn=True)
                      if len(entrant) <= 10 and row.pk == int(entrant)), None)
        if found is None:
            event_services.check_organiser(event, request.user)  # 403 for anyone else, whoever they name
            raise ListNotFound(f"No player {entrant[:12]} in event {event.slug!r}.")
        event_services.event_withdraw(event=event, user=request.user, entrant=found)
        return Response(status=status.HTTP_204_NO_CONTENT)

    # --- the organiser --------------------------------------------------------------------------------------

    @extend_schema(summary="Lock the lists now, before the deadline (the organiser or staff)", request=None,
                   parameters=[CODE_PARAM], responses={200: EventSerializer, **_errors(403, 404)})
    @action(detail=True, methods=["post"])
    def lock(self, request, slug=None):
        event = self._event()
        _signed_in(request)
        return self._show(event_services.event_lock(event=event, user=request.user))

    @extend_schema(summary="Show the lists to the players now (the organiser or staff; once locked)", request=None,
                   parameters=[CODE_PARAM], responses={200: EventSerializer, **_errors(403, 404, 409)})
    @action(detail=True, methods=["post"])
    def publish(self, request, slug=None):
        event = self._event()
        _signed_in(request)
        return self._show(event_services.event_publish(event=event, user=request.user))

    @extend_schema(summary="Move the pinned data to the game's newest package versions and check every submission "
                           "again (the organiser or staff; until the lists lock)", request=None,
                   parameters=[CODE_PARAM], responses={200: EventSerializer, **_errors(403, 404, 409)})
    @action(detail=True, methods=["post"])
    def repin(self, request, slug=None):
        event = self._event()
        _signed_in(request)
        return self._show(event_services.event_repin(event=event, user=request.user))

    # --- submissions and the field ------------------------------------------------------------------------

    @extend_schema(methods=["GET"], summary="The current list of every player once the lists are shown to you "
                                            "(the organiser and staff: always), else your own",
                   parameters=[CODE_PARAM, HISTORY_PARAM, LANG_PARAM],
                   responses={200: SubmissionSerializer(many=True), 400: QUERY_ERROR, **_errors(404)})
    @extend_schema(methods=["POST"], summary="Submit a list (a player, until the lists lock): one of your lists, a "
                                             "text list or a roster file; a locked snapshot checked against the "
                                             "pinned data (an illegal list is taken, flagged)",
                   request={"application/json": SubmitSerializer, "multipart/form-data": SubmitFileSerializer},
                   parameters=[CODE_PARAM, LANG_PARAM], examples=SUBMIT_EXAMPLES,
                   responses={201: SubmissionSerializer, **_errors(400, 403, 404, 409, 413)})
    @action(detail=True, methods=["get", "post"], parser_classes=[JSONBodyParser, MultiPartParser])
    def submissions(self, request, slug=None):
        event = self._event()
        if request.method == "GET":
            history = _flag(request, "history")
            page = self.paginate_queryset(event_selectors.event_submissions(event, request.user, history=history))
            return self.get_paginated_response(self._submissions(page, many=True))
        _signed_in(request)
        request_lang(request)  # a bad ?lang= is refused before anything is written
        submission = event_services.event_submit(event=event, user=request.user, **self._submitted(request))
        body = self._submissions(submission)
        return Response(body, status=status.HTTP_201_CREATED,
                        headers={"Location": self._submission_url(event, submission)})

    def _submitted(self, request) -> dict[str, Any]:
        """The one list of a submission: a saved list you may see, a text, or an uploaded file."""
        data = _body(request)
        upload = request.FILES.get("file")
        if "file" in data and upload is None:
            raise _invalid("file: expected an uploaded file (a multipart/form-data upload).", "file")
        list_id, text = _text_param(data, "list"), _text_param(data, "text")
        given = [name for name, value in (("list", list_id), ("text", text), ("file", upload)) if value is not None]
        if len(given) != 1:
            raise _invalid("Give exactly one of 'list' (the id of one of your lists), 'text' (a text list) or "
                           f"'file' (a .ros, .rosz, .txt or .json upload); got {', '.join(given) or 'none'}.",
                           given[1] if len(given) > 1 else "list")
        if list_id is not None:
            return {"game_list": selectors.list_get(slug=list_id, user=request.user)}
        if text is not None:
            return {"text": text}
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and upload.size > limit:
            raise RequestTooLarge(too_large_message(limit))
        return {"filename": upload.name or "", "content": upload.read()}

    @extend_schema(summary="One submission: its player's always, anyone else's once the lists are shown to them",
                   parameters=[CODE_PARAM, LANG_PARAM], responses={200: SubmissionSerializer, 400: QUERY_ERROR,
                                                                   **_errors(404)})
    @action(detail=True, methods=["get"], url_path=r"submissions/(?P<public_id>[A-Za-z0-9_-]+)")
    def submission(self, request, slug=None, public_id=None):
        event = self._event()
        submission = event_selectors.submission_get(public_id=public_id, user=request.user)
        if submission.entrant.event_id != event.pk:
            raise ListNotFound(f"No submission with id {public_id!r} in event {event.slug!r}.")
        return Response(self._submissions(submission))

    @extend_schema(summary="The event's field once its lists are shown to you: each distinct list, weighted by how "
                           "many players brought it (play it as {\"event\": id})",
                   parameters=[CODE_PARAM], responses={200: EventFieldSerializer, **_errors(404)})
    @action(detail=True, methods=["get"], pagination_class=None)
    def field(self, request, slug=None):
        event = self._event()
        if not event_selectors.event_lists_visible(event, request.user):
            raise ListNotFound(f"The lists of event {event.slug!r} are not shown yet: it has no field to see.")
        lists = event_selectors.event_field(event, user=request.user)
        players = sum(entry["weight"] for entry in lists)
        return Response(EventFieldSerializer({
            "event": event.slug, "system": event.system.slug, "players": players,
            "lists": [{**entry, "share": entry["weight"] / players} for entry in lists]}).data)


__all__ = ["EventViewSet"]
