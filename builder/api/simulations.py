"""Simulations REST API (docs/design.md §4, docs/simulations.md): start a run, watch it, read its result, cancel it.

Thin: serializers shape input and output, the simulation run services (builder.services.runs_*) decide. Runs are
owner-only: another user's run is a 404. Errors (400 bad input, 429 limits, 503 broker down) come from the services
and are shaped by builder.api.errors.exception_handler.
"""
from __future__ import annotations

from django.urls import reverse
from django.utils import timezone
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from builder import selectors, services
from builder.models import RunKind, RunStatus, SimulationRun
from builder.throttles import AnonThrottle, ScopedThrottle, UserThrottle
from rules_engine.core.seats import DEFAULT_SEATS, SEAT_MODES
from rules_engine.simulation import MAX_GAMES

from .serializers import ErrorSerializer, ListDocumentField, RevisionSerializer

SEED_MAX = 2**63 - 1


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description)


ERRORS = {
    400: _error("bad input; the message names the field, section or card code"),
    403: _error("not signed in"),
    404: _error("no such run or list, or one that is not yours"),
    409: _error("the run is no longer queued or running"),
    429: _error("too many games, too many runs at once, or too many requests"),
    503: _error("the message broker is down: nothing was saved, try again later"),
}


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {code: ERRORS[code] for code in codes}


EVENT_FIELD_EXAMPLE = OpenApiExample(
    "Against a tournament event's field", request_only=True,
    description="{\"event\": id}: the event's lists (once shown to you), each weighted by how many players brought "
                "it; beside other opponents or alone",
    value={"list": "Xy12ab34", "opponents": [{"event": "Ev12ab34"}, {"opponent": "goldfish", "weight": 1}],
           "games": 200, "seed": 7})


def seats_field() -> serializers.ChoiceField:
    """Who goes first (rules_engine.core.seats): both (each deal from both seats), list-first or random."""
    return serializers.ChoiceField(
        choices=SEAT_MODES, required=False, default=DEFAULT_SEATS,
        help_text="who takes the first turn: both (default: every deal played twice, the list first then second), "
                  "list-first, or random (a coin per game); no effect where the rules fix the order",
        error_messages={"invalid_choice": f"expected one of {', '.join(SEAT_MODES)}, got \"{{input}}\"."},
    )


# --- serializers --------------------------------------------------------------------------------------------


class SimulationCreateSerializer(serializers.Serializer):
    list = serializers.CharField(required=False, max_length=32, help_text="id (slug) of a saved list you can see")
    document = ListDocumentField(required=False, help_text="or an unsaved hangar.list/1 document")
    opponent = serializers.CharField(max_length=64, help_text="opponent slug, e.g. goldfish")
    policy = serializers.CharField(required=False, max_length=64, default=services.runs_input.DEFAULT_POLICY)
    opponent_policy = serializers.CharField(
        required=False, allow_blank=True, max_length=64, default=None, allow_null=True,
        help_text="who plays the other side (default: the same policy as the list)")
    seats = seats_field()
    games = serializers.IntegerField(min_value=1, help_text=f"games to play (at most {MAX_GAMES}, see limits)")
    seed = serializers.IntegerField(min_value=0, max_value=SEED_MAX, help_text="same seed, same result")

    def validate(self, attrs):
        if ("list" in attrs) == ("document" in attrs):
            raise serializers.ValidationError("Give exactly one of 'list' (a saved list id) or 'document'.")
        return attrs


class GauntletOpponentSerializer(serializers.Serializer):
    """One opponent of a gauntlet, doctor, test-every-card or matrix run: exactly one of `opponent`, `list`,
    `field` and `event` (checked by the service, which names opponents[i] in its message)."""

    opponent = serializers.CharField(required=False, max_length=64, help_text="a sample opponent's slug")
    list = serializers.CharField(required=False, max_length=32,
                                 help_text="or the id of a saved list: public (the gallery), unlisted or your own")
    field = serializers.CharField(required=False, max_length=32,
                                  help_text="or the id of a field you may see: its entries, with their weights")
    event = serializers.CharField(required=False, max_length=32,
                                  help_text="or the id of a tournament event whose lists are shown to you: its "
                                            "field, each distinct list weighted by how many players brought it (no "
                                            "weight of its own; GET /api/events/{id}/field/; 400 simulation.event "
                                            "before the lists are shown)")
    weight = serializers.FloatField(required=False, min_value=0, help_text="its share of the total (default 1)")


class GauntletCreateSerializer(serializers.Serializer):
    list = serializers.CharField(required=False, max_length=32, help_text="id (slug) of a saved list you can see")
    document = ListDocumentField(required=False, help_text="or an unsaved hangar.list/1 document")
    opponents = GauntletOpponentSerializer(many=True, required=False, max_length=64,
                                           help_text="the opponents: sample opponents and lists with a weight, "
                                                     "{\"field\": id} for a named field's entries and "
                                                     "{\"event\": id} for a tournament event's field; may be left "
                                                     "out when `field` is given")
    field = serializers.CharField(required=False, max_length=32,
                                  help_text="the id of a field you may see: played as {\"field\": id} after the "
                                            "opponents")
    policy = serializers.CharField(required=False, max_length=64, default=services.runs_input.DEFAULT_POLICY)
    opponent_policy = serializers.CharField(
        required=False, allow_blank=True, max_length=64, default=None, allow_null=True,
        help_text="who plays the other side, and an opponent list (default: the same policy as the list)")
    seats = seats_field()
    games = serializers.IntegerField(min_value=1, help_text="games against each opponent (the total is limited)")
    seed = serializers.IntegerField(min_value=0, max_value=SEED_MAX, help_text="same seed, same result")

    def validate(self, attrs):
        if ("list" in attrs) == ("document" in attrs):
            raise serializers.ValidationError("Give exactly one of 'list' (a saved list id) or 'document'.")
        if not attrs.get("opponents") and not attrs.get("field"):
            raise serializers.ValidationError({"opponents": "Give at least one opponent, or a field."})
        return attrs


class DoctorCreateSerializer(GauntletCreateSerializer):
    changes = serializers.IntegerField(
        required=False, min_value=1, default=services.batches.DEFAULT_CHANGES,
        help_text="how many single changes to try at most (fewer with several opponents: 64 lists × opponents)")
    games = serializers.IntegerField(
        min_value=1, help_text="the run's budget: games in all, every stage, change and opponent together; below "
        "the doctor's minimum ((changes + 1) × 100 + 2 × 300 per opponent) a 400 doctor.too_few_games, path games, "
        "with details.minimum")


class ImpactCreateSerializer(GauntletCreateSerializer):
    games = serializers.IntegerField(
        min_value=1, help_text="the run's budget: games in all, every stage, card and opponent together; below the "
        "minimum ((distinct cards + 1) × 100 + 2 × 300 per opponent) a 400 doctor.too_few_games, path games, with "
        "details.minimum")


class DoctorApplySerializer(serializers.Serializer):
    change = serializers.CharField(max_length=200, help_text="a change's key (result.changes[].key)")


class DoctorAppliedSerializer(serializers.Serializer):
    list = serializers.CharField(source="game_list.slug")
    version = serializers.IntegerField(source="game_list.version", help_text="the list's new version")
    revision = RevisionSerializer()


def status_url(run: SimulationRun, request) -> str:
    return request.build_absolute_uri(reverse("simulations-detail", kwargs={"public_id": run.public_id}))


class SimulationStartedSerializer(serializers.Serializer):
    id = serializers.CharField(source="public_id")
    status = serializers.ChoiceField(choices=RunStatus.choices)
    status_url = serializers.SerializerMethodField()
    reused = serializers.SerializerMethodField(help_text="true when an identical stored run answered")

    def get_status_url(self, run: SimulationRun) -> str:
        return status_url(run, self.context["request"])

    def get_reused(self, run: SimulationRun) -> bool:
        return bool(self.context.get("reused"))


class SimulationRunSerializer(serializers.ModelSerializer):
    id = serializers.CharField(source="public_id")
    list = serializers.SerializerMethodField()
    progress = serializers.SerializerMethodField(help_text="0-100")
    seats = serializers.SerializerMethodField(
        help_text="who goes first: both (each deal played going first and going second), list-first or random")
    result = serializers.SerializerMethodField(help_text="the simulator's report, once status is done")
    error = serializers.SerializerMethodField(help_text="why the run failed or was cancelled")
    status_url = serializers.SerializerMethodField()
    reused_from = serializers.SerializerMethodField(
        help_text="when an earlier run of the same question answered this one (nothing was played): its id and "
                  "the address of its page; else null")

    class Meta:
        model = SimulationRun
        fields = [
            "id", "kind", "status", "progress", "system", "list", "opponent", "policy", "seats", "games", "seed",
            "engine_version",
            "chunks_total", "chunks_done", "created_at", "started_at", "finished_at", "result", "error",
            "status_url", "reused_from",
        ]

    @extend_schema_field({"type": "object", "nullable": True, "properties": {
        "id": {"type": "string"}, "page_url": {"type": "string", "format": "uri"}}})
    def get_reused_from(self, run: SimulationRun):
        earlier = selectors.simulation_reused_from(run)
        if earlier is None:
            return None
        page = reverse("simulation_detail", kwargs={"public_id": earlier.public_id})
        return {"id": earlier.public_id, "page_url": self.context["request"].build_absolute_uri(page)}

    def get_list(self, run: SimulationRun) -> str | None:
        """The run's list, only while the requester may see it (made private or trashed by its owner: null, as a
        fork's `forked_from`; docs/security.md)."""
        if not run.game_list_id:
            return None
        request = self.context.get("request")
        visible = selectors.list_can_see(run.game_list, getattr(request, "user", None))
        return run.game_list.slug if visible else None

    @extend_schema_field(serializers.ChoiceField(choices=SEAT_MODES))
    def get_seats(self, run: SimulationRun) -> str:
        """The run's seat mode, from its frozen snapshot (a batch's: its first leg's; absent = both)."""
        frozen = run.snapshot if isinstance(run.snapshot, dict) else {}
        legs = frozen.get("legs")
        if isinstance(legs, list) and legs and isinstance(legs[0], dict):
            frozen = legs[0].get("snapshot") or {}
        seats = frozen.get("seats")
        return seats if seats in SEAT_MODES else DEFAULT_SEATS

    def get_progress(self, run: SimulationRun) -> int:
        return selectors.simulation_progress(run)

    @extend_schema_field({"type": "object", "nullable": True})
    def get_result(self, run: SimulationRun):
        return run.result if run.status == RunStatus.DONE else None

    def get_error(self, run: SimulationRun) -> str | None:
        return run.error or None

    def get_status_url(self, run: SimulationRun) -> str:
        return status_url(run, self.context["request"])


# --- views --------------------------------------------------------------------------------------------------


class SimulationStartThrottle(ScopedThrottle):
    """POST /api/simulations/ per user: REST_FRAMEWORK DEFAULT_THROTTLE_RATES["simulations"]."""

    scope_attr = "start_throttle_scope"


class SimulationViewSet(viewsets.GenericViewSet):
    """Your simulation runs: start (202), list, status/progress/result, cancel."""

    permission_classes = [IsAuthenticated]
    lookup_field = "public_id"
    lookup_url_kwarg = "public_id"
    lookup_value_regex = r"[A-Za-z0-9_-]+"
    serializer_class = SimulationRunSerializer
    queryset = SimulationRun.objects.none()  # every read goes through builder.selectors
    start_throttle_scope = "simulations"

    def get_throttles(self):
        throttles = [AnonThrottle(), UserThrottle()]
        if self.action == "create":
            throttles.insert(0, SimulationStartThrottle())
        return throttles

    @extend_schema(
        summary="Start a simulation of a saved list or a list document",
        request=SimulationCreateSerializer,
        responses={202: SimulationStartedSerializer, **_errors(400, 403, 404, 429, 503)},
    )
    def create(self, request):
        params = SimulationCreateSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        data = params.validated_data
        game_list = selectors.list_get(slug=data["list"], user=request.user) if "list" in data else None
        asked_at = timezone.now()
        run = services.simulation_start(
            user=request.user, game_list=game_list, document=data.get("document"), opponent_slug=data["opponent"],
            policy=data["policy"], opponent_policy=data.get("opponent_policy"), seats=data["seats"],
            games=data["games"], seed=data["seed"],
        )
        return started(run, request, asked_at)

    @extend_schema(summary="Your simulation runs, newest first",
                   responses={200: SimulationRunSerializer(many=True), **_errors(403)})
    def list(self, request):
        page = self.paginate_queryset(selectors.simulation_list(user=request.user))
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    @extend_schema(summary="A run's status, progress (0-100), result when done, reason when failed",
                   responses={200: SimulationRunSerializer, **_errors(403, 404)})
    def retrieve(self, request, public_id: str):
        run = selectors.simulation_get(public_id=public_id, user=request.user)
        return Response(self.get_serializer(run).data)

    @extend_schema(summary="Save a change of a finished list doctor run as a new revision of its list (its owner)",
                   request=DoctorApplySerializer,
                   responses={201: DoctorAppliedSerializer, **_errors(400, 403, 404, 409)})
    @action(detail=True, methods=["post"])
    def apply(self, request, public_id: str):
        run = selectors.simulation_get(public_id=public_id, user=request.user)
        params = DoctorApplySerializer(data=request.data)
        params.is_valid(raise_exception=True)
        game_list, revision = services.doctor_apply(user=request.user, run=run,
                                                    change_key=params.validated_data["change"])
        body = DoctorAppliedSerializer({"game_list": game_list, "revision": revision}).data
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(summary="Cancel a queued or running run", request=None,
                   responses={200: SimulationRunSerializer, **_errors(403, 404, 409)})
    @action(detail=True, methods=["post"])
    def cancel(self, request, public_id: str):
        run = selectors.simulation_get(public_id=public_id, user=request.user)
        run = services.simulation_cancel(run=run, user=request.user)
        return Response(self.get_serializer(run).data)


def started(run: SimulationRun, request, asked_at) -> Response:
    """202 with the run's id and status address (an identical stored run answers: `reused`)."""
    reused = run.reused_from_id is not None or run.created_at < asked_at
    body = SimulationStartedSerializer(run, context={"request": request, "reused": reused}).data
    return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["status_url"]})


class _BatchStartView(APIView):
    """POST only: start a gauntlet or doctor run; watch it at /api/simulations/{id}/ like any run."""

    permission_classes = [IsAuthenticated]
    start_throttle_scope = "simulations"  # counted with POST /api/simulations/
    params_class: type[serializers.Serializer] = GauntletCreateSerializer

    def get_throttles(self):
        return [SimulationStartThrottle(), AnonThrottle(), UserThrottle()]

    def params(self, request) -> tuple[dict, object]:
        params = self.params_class(data=request.data)
        params.is_valid(raise_exception=True)
        data = dict(params.validated_data)
        game_list = selectors.list_get(slug=data["list"], user=request.user) if "list" in data else None
        opponents = [{name: value for name, value in opponent.items()} for opponent in data.get("opponents") or []]
        if data.get("field"):
            opponents.append({"field": data["field"]})
        return {
            "user": request.user, "game_list": game_list, "document": data.get("document"), "opponents": opponents,
            "policy": data["policy"], "opponent_policy": data.get("opponent_policy"), "seats": data["seats"],
            "games": data["games"], "seed": data["seed"],
        }, data


class GauntletView(_BatchStartView):
    """A gauntlet: one list against several weighted opponents, the same games and seed each."""

    @extend_schema(
        summary="Start a gauntlet: a list against several weighted opponents (a row each and the weighted total)",
        request=GauntletCreateSerializer, examples=[EVENT_FIELD_EXAMPLE],
        responses={202: SimulationStartedSerializer, **_errors(400, 403, 404, 429, 503)},
    )
    def post(self, request):
        kwargs, _data = self.params(request)
        asked_at = timezone.now()
        return started(services.gauntlet_start(**kwargs), request, asked_at)


class DoctorView(_BatchStartView):
    """The list doctor: a legal list and up to `changes` single changes of it within a budget of `games` games: a
    screen on the run seed, then the leaders confirmed on fresh seeds; a verdict per change."""

    params_class = DoctorCreateSerializer

    @extend_schema(
        summary="Start a list doctor run: single changes of a legal list screened, the leaders confirmed on fresh "
                "seeds, a verdict per change",
        request=DoctorCreateSerializer,
        responses={202: SimulationStartedSerializer, **_errors(400, 403, 404, 429, 503)},
    )
    def post(self, request):
        kwargs, data = self.params(request)
        asked_at = timezone.now()
        return started(services.doctor_start(changes=data["changes"], **kwargs), request, asked_at)


class ImpactView(_BatchStartView):
    """Test every card: the list and, for every distinct card, the list with one copy of it out, within a budget of
    `games` games on the same seeds (the list doctor's screen and confirm stages); each card's effect (what the list
    wins with it minus without it) with its 95 % interval and a verdict — helps, hurts or no detectable effect —
    after Holm's correction. The result (GET /api/simulations/{id}/) is a doctor result with `variant: "impact"`;
    its baseline rows carry the correlation figures (`card_impact`), labelled apart from the effects."""

    params_class = ImpactCreateSerializer

    @extend_schema(
        summary="Start \"test every card\": one copy of each distinct card out, on the same seeds, a verdict per card",
        request=ImpactCreateSerializer,
        responses={202: SimulationStartedSerializer, **_errors(400, 403, 404, 429, 503)},
    )
    def post(self, request):
        kwargs, _data = self.params(request)
        asked_at = timezone.now()
        return started(services.impact_start(**kwargs), request, asked_at)
