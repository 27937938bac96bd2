"""Matchup matrices API (docs/api.md "Matchup matrices", docs/simulations.md "Matchup matrix and what beats my
list"): start a matrix of your lists against a field, or "what beats my list"; watch it; read its cells; cancel it.

Thin: serializers shape input and output, builder.services.matrices decides. Matrices are owner-only (another user's
is a 404). Every cell is a plain run, readable at /api/simulations/{run}/.
"""
from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from builder import selectors, services
from builder.models import MatrixKind, RunStatus
from builder.services import matrices
from builder.throttles import AnonThrottle, UserThrottle

from .simulations import SEED_MAX, GauntletOpponentSerializer, SimulationStartThrottle, _errors, seats_field


class _RunParams(serializers.Serializer):
    policy = serializers.CharField(required=False, max_length=64, default=services.runs_input.DEFAULT_POLICY)
    opponent_policy = serializers.CharField(
        required=False, allow_blank=True, max_length=64, default=None, allow_null=True,
        help_text="who plays the opponents (default: the same policy as the lists)")
    seats = seats_field()
    games = serializers.IntegerField(
        min_value=1, help_text=f"games per cell (lists × opponents × games at most the site's games limit; at most "
                               f"{matrices.MAX_CELLS} cells)")
    seed = serializers.IntegerField(min_value=0, max_value=SEED_MAX, help_text="same seed, same result")


class MatrixCreateSerializer(_RunParams):
    lists = serializers.ListField(
        child=serializers.CharField(max_length=32), allow_empty=False, max_length=matrices.MAX_ROWS,
        help_text=f"the ids of your lists (the rows), one game, at most {matrices.MAX_ROWS}")
    opponents = GauntletOpponentSerializer(
        many=True, required=False,
        help_text="the field (the columns): sample opponents, public or own lists, each with a weight, "
                  "{\"field\": id} for a named field's entries and {\"event\": id} for a tournament event's "
                  "field (its lists once shown, weighted by players); may be left out when `field` is given")
    field = serializers.CharField(required=False, max_length=32,
                                  help_text="the id of a field you may see: played as {\"field\": id} after the "
                                            "opponents")

    def validate(self, attrs):
        if not attrs.get("opponents") and not attrs.get("field"):
            raise serializers.ValidationError({"opponents": "Give at least one opponent, or a field."})
        return attrs


class BeatsCreateSerializer(_RunParams):
    list = serializers.CharField(max_length=32, help_text="the id of your list; the field is every sample opponent "
                                                          "and every public list of its game unless `field` is given")
    field = serializers.CharField(required=False, max_length=32,
                                  help_text="the id of a field you may see: your list plays its entries (with their "
                                            "weights) instead")
    event = serializers.CharField(required=False, max_length=32,
                                  help_text="the id of a tournament event whose lists you may see: your list plays "
                                            "each of them, weighted by how many players brought it (with `field`, "
                                            "or instead of the default)")


class MatrixCellSerializer(serializers.Serializer):
    run = serializers.CharField(help_text="the cell's plain run: /api/simulations/{run}/")
    status = serializers.ChoiceField(choices=RunStatus.choices)
    reused = serializers.BooleanField(help_text="a stored run answered this cell: nothing was played")
    games = serializers.IntegerField()
    wins = serializers.IntegerField(required=False)
    losses = serializers.IntegerField(required=False)
    draws = serializers.IntegerField(required=False)
    win_rate = serializers.FloatField(required=False, help_text="the row's list's, once the cell is done")
    win_rate_interval = serializers.ListField(child=serializers.FloatField(), required=False,
                                              help_text="95 % Wilson interval")


class MatrixRowSerializer(serializers.Serializer):
    list = serializers.CharField()
    name = serializers.CharField(allow_blank=True)
    total = serializers.DictField(allow_null=True, help_text="the weighted win rate over the field and its 95 % "
                                                            "interval, once the row's cells are done")


class MatrixColumnSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="a sample opponent's slug, or list:<id>")
    name = serializers.CharField(allow_blank=True)
    name_en = serializers.CharField(allow_blank=True, allow_null=True)
    kind = serializers.CharField(allow_blank=True, allow_null=True)
    weight = serializers.FloatField()
    list = serializers.CharField(allow_null=True, help_text="the opponent list's id while you may see it")


class MatrixSerializer(serializers.Serializer):
    id = serializers.CharField()
    kind = serializers.ChoiceField(choices=MatrixKind.choices)
    system = serializers.CharField()
    status = serializers.ChoiceField(choices=RunStatus.choices)
    progress = serializers.IntegerField(help_text="0-100, over every cell's chunks")
    games = serializers.IntegerField(help_text="games per cell")
    seed = serializers.IntegerField()
    seats = serializers.CharField()
    policy = serializers.CharField()
    opponent_policy = serializers.CharField(allow_null=True)
    cells_total = serializers.IntegerField()
    cells_reused = serializers.IntegerField(help_text="cells answered by stored runs when the matrix started")
    left_out = serializers.IntegerField(help_text="what beats my list: public lists past the size bound")
    rows = MatrixRowSerializer(many=True)
    columns = MatrixColumnSerializer(many=True)
    cells = serializers.ListField(child=MatrixCellSerializer(many=True), help_text="cells[row][column]")
    status_url = serializers.CharField()


def _body(matrix, request) -> dict:
    body = selectors.matrix_result(matrix, request.user)
    body["status_url"] = request.build_absolute_uri(reverse("matrices-detail", kwargs={"public_id": matrix.public_id}))
    return body


def _started(matrix, request) -> Response:
    body = _body(matrix, request)
    return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["status_url"]})


def _run_kwargs(data: dict) -> dict:
    return {"policy": data["policy"], "opponent_policy": data.get("opponent_policy") or None, "seats": data["seats"],
            "games": data["games"], "seed": data["seed"]}


class MatrixViewSet(viewsets.GenericViewSet):
    """Your matchup matrices: start (202), list, read (cells filled as their runs finish), cancel."""

    permission_classes = [IsAuthenticated]
    lookup_field = "public_id"
    lookup_url_kwarg = "public_id"
    lookup_value_regex = r"[A-Za-z0-9_-]+"
    serializer_class = MatrixSerializer
    start_throttle_scope = "simulations"  # counted with POST /api/simulations/

    def get_queryset(self):
        return selectors.matrix_list(user=self.request.user)

    def get_throttles(self):
        throttles = [AnonThrottle(), UserThrottle()]
        if self.action == "create":
            throttles.insert(0, SimulationStartThrottle())
        return throttles

    @extend_schema(summary="Start a matchup matrix: your lists against a field of weighted opponents, each cell a "
                           "plain run (reused when stored)",
                   request=MatrixCreateSerializer, responses={202: MatrixSerializer, **_errors(400, 403, 429, 503)},
                   examples=[OpenApiExample(
                       "Your lists against a tournament event's field", request_only=True,
                       value={"lists": ["Xy12ab34", "Ab98cd76"], "opponents": [{"event": "Ev12ab34"}],
                              "games": 200, "seed": 7})])
    def create(self, request):
        params = MatrixCreateSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        data = params.validated_data
        opponents = [dict(opponent) for opponent in data.get("opponents") or []]
        if data.get("field"):
            opponents.append({"field": data["field"]})
        matrix = matrices.matrix_start(user=request.user, lists=list(data["lists"]), opponents=opponents,
                                       **_run_kwargs(data))
        return _started(matrix, request)

    @extend_schema(summary="Your matchup matrices, newest first",
                   responses={200: MatrixSerializer(many=True), **_errors(403)})
    def list(self, request):
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response([_body(matrix, request) for matrix in page])

    @extend_schema(summary="A matrix: status, progress (0-100), and a win rate with its interval per cell",
                   responses={200: MatrixSerializer, **_errors(403, 404)})
    def retrieve(self, request, public_id: str):
        return Response(_body(selectors.matrix_get(public_id=public_id, user=request.user), request))

    @extend_schema(summary="Cancel a matrix's queued or running cells", request=None,
                   responses={200: MatrixSerializer, **_errors(403, 404)})
    @action(detail=True, methods=["post"])
    def cancel(self, request, public_id: str):
        matrix = selectors.matrix_get(public_id=public_id, user=request.user)
        return Response(_body(matrices.matrix_cancel(matrix=matrix, user=request.user), request))


class BeatsView(APIView):
    """What beats my list: your list against every sample opponent and public list of its game."""

    permission_classes = [IsAuthenticated]
    start_throttle_scope = "simulations"

    def get_throttles(self):
        return [SimulationStartThrottle(), AnonThrottle(), UserThrottle()]

    @extend_schema(summary="Start \"what beats my list\": your list against every sample opponent and public list "
                           "of its game (a one-row matrix)",
                   request=BeatsCreateSerializer, responses={202: MatrixSerializer, **_errors(400, 403, 404, 429, 503)})
    def post(self, request):
        params = BeatsCreateSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        data = params.validated_data
        game_list = selectors.list_get(slug=data["list"], user=request.user)
        matrix = matrices.beats_start(user=request.user, game_list=game_list, field=data.get("field") or None,
                                      event=data.get("event") or None,
                                      **_run_kwargs(data))
        return _started(matrix, request)
