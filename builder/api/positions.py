"""POST /api/positions/ — load a position (hangar.position/1, docs/positions.md), play action ids from it and
simulate games on from it. Nothing is stored: the answer is the position after the actions, its legal
actions (each with its stable id), the events the actions logged, and the summary of the simulated games."""
from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from builder.errors import ListInputError
from builder.services.positions import MAX_PLAYED_ACTIONS, MAX_WEB_POSITION_GAMES, position_analyse
from builder.throttles import AnonThrottle, ScopedThrottle, UserThrottle, work_charge

from .parsers import JSONBodyParser
from .serializers import ErrorSerializer
from .views import BodySizeLimitMixin

MAX_API_POSITION_GAMES = MAX_WEB_POSITION_GAMES  # played while the request waits; runs: POST /api/simulations/

POSITION_REQUEST = inline_serializer(
    "PositionRequest",
    {
        "position": serializers.JSONField(help_text="a hangar.position/1 document (docs/positions.md)"),
        "actions": serializers.ListField(child=serializers.CharField(), required=False, max_length=MAX_PLAYED_ACTIONS,
                                         help_text="action ids to play in order, as listed in `moves`"),
        "games": serializers.IntegerField(required=False, min_value=1, max_value=MAX_API_POSITION_GAMES,
                                          help_text="games to simulate on from the position after the actions"),
        "seed": serializers.IntegerField(required=False, min_value=0, help_text="seed of those games (default 1)"),
        "policy": serializers.CharField(required=False, help_text="who plays both sides: greedy (default), random or "
                                        "search (about 100 times greedy's engine work: the budget counts it)"),
    },
)
POSITION_RESULT = inline_serializer(
    "PositionResult",
    {
        "system": serializers.CharField(),
        "position": serializers.JSONField(help_text="the position after the actions"),
        "moves": serializers.ListField(child=serializers.DictField(), help_text="legal actions: {id, action, text}"),
        "events": serializers.ListField(child=serializers.DictField(), help_text="events the actions logged"),
        "over": serializers.BooleanField(),
        "summary": serializers.JSONField(allow_null=True, help_text="the simulated games' summary, as a run's"),
    },
)


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description)


class PositionView(BodySizeLimitMixin, APIView):
    """Analyse one game state of any system: its legal actions, actions played from it, games simulated from it."""

    permission_classes = [AllowAny]
    parser_classes = [JSONBodyParser]
    throttle_classes = [ScopedThrottle, AnonThrottle, UserThrottle]
    throttle_scope = "positions"

    @extend_schema(
        operation_id="analyse_position",
        summary="A position's legal actions; play actions from it; simulate games on from it",
        request=POSITION_REQUEST,
        responses={200: POSITION_RESULT,
                   400: _error("bad position, action or request (details.path names the field); or work over the "
                               "request's budget of engine seconds (code budget.exceeded: details.limit_seconds, "
                               "details.estimate_seconds)"),
                   413: _error("body larger than the upload limit"),
                   429: _error("too many requests, or the client's engine work allowance of the minute is spent")},
    )
    def post(self, request):
        data = request.data
        if not isinstance(data, dict):
            raise ListInputError("The body must be a JSON object with `position` (a hangar.position/1 document).")
        unknown = sorted(set(data) - {"position", "actions", "games", "seed", "policy"})
        if unknown:
            raise ListInputError(f"{unknown[0]}: unknown field (expected position, actions, games, seed, policy)")
        games = data.get("games")
        if games is not None and (isinstance(games, bool) or not isinstance(games, int)
                                  or not 1 <= games <= MAX_API_POSITION_GAMES):
            raise ListInputError(f"games: expected an integer 1 … {MAX_API_POSITION_GAMES} (more games: POST "
                                 "/api/simulations/ with a list)", details={"path": "games"})
        seed = data.get("seed", 1)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 63:
            raise ListInputError("seed: expected an integer 0 … 2⁶³−1", details={"path": "seed"})
        policy = data.get("policy", "greedy")
        if not isinstance(policy, str) or not 0 < len(policy) <= 64:
            raise ListInputError("policy: expected a policy name such as greedy or random", details={"path": "policy"})
        actions = data.get("actions", [])
        result = position_analyse(data.get("position"), actions=actions, games=games, seed=seed, policy=policy,
                                  charge=work_charge(request))
        result.pop("codes", None)
        result.pop("board", None)
        result.pop("table_events", None)
        result.pop("abilities", None)
        return Response(result)
