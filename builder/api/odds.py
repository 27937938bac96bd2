"""POST /api/odds/ — exact draw odds for a HAGMI! list: "P(at least k of these among the first n)"."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from builder import selectors
from builder.listio import parse_list_json
from builder.errors import ListInputError
from rules_engine.systems import SYSTEMS

from .parsers import JSONBodyParser
from .views import BodySizeLimitMixin, _errors

# The exact answer costs about groups x draws^2 big-number products: 60 draws and 50 groups answer within 0.1 s on
# a full 1000-entry list, while 1000 draws of a 999 000-card list would take hours. A HAGMI! deck holds 20-40 cards.
MAX_DRAWS = 60
MAX_GROUPS = 50
MAX_TURN = 10  # "by turn t": the opening hand and t draw steps (the engine's own limit, rules_engine/hagmi/odds.py)


GROUP = inline_serializer(
    "OddsGroup",
    {"cards": serializers.ListField(child=serializers.CharField()), "at_least": serializers.IntegerField(default=1)},
)
ODDS_REQUEST = inline_serializer(
    "OddsRequest",
    {
        "list": serializers.CharField(required=False, help_text="a saved list's slug (one you can see)"),
        "document": serializers.JSONField(required=False, help_text="or a hangar.list/1 document"),
        "deck": serializers.ChoiceField(choices=["weapons", "tactics"]),
        "draws": serializers.IntegerField(required=False, min_value=0, max_value=MAX_DRAWS,
                                          help_text="cards drawn; default the opening hand (2)"),
        "turn": serializers.IntegerField(required=False, min_value=0, max_value=MAX_TURN,
                                         help_text="instead of draws: the opening hand plus the draw steps (兵站) of "
                                                   "your first `turn` turns, whose number of cards is random"),
        "groups": serializers.ListField(child=GROUP.__class__(), min_length=1, max_length=MAX_GROUPS),
    },
)
ODDS_RESULT = inline_serializer(
    "OddsResult",
    {
        "deck": serializers.CharField(),
        "deck_size": serializers.IntegerField(),
        "draws": serializers.IntegerField(allow_null=True, help_text="null when asked by turn"),
        "turn": serializers.IntegerField(required=False),
        "cards_drawn": serializers.DictField(child=serializers.CharField(), required=False,
                                             help_text="by turn: cards the deck has given -> exact probability p/q"),
        "groups": serializers.ListField(child=serializers.DictField()),
        "probability": serializers.FloatField(),
        "exact": serializers.CharField(help_text="the exact probability as a fraction p/q"),
    },
)


def check_question_size(data: dict) -> None:
    draws, groups, turn = data.get("draws"), data.get("groups"), data.get("turn")
    if isinstance(draws, int) and not isinstance(draws, bool) and draws > MAX_DRAWS:
        raise ListInputError(f"draws: at most {MAX_DRAWS} cards, got {draws if draws < 10**24 else 'more'}.")
    if isinstance(turn, int) and not isinstance(turn, bool) and turn > MAX_TURN:
        raise ListInputError(f"turn: at most {MAX_TURN}, got {turn if turn < 10**24 else 'more'}.")
    if isinstance(groups, list) and len(groups) > MAX_GROUPS:
        raise ListInputError(f"groups: at most {MAX_GROUPS} groups, got {len(groups)}.")


class OddsView(BodySizeLimitMixin, APIView):
    """Exact (multivariate hypergeometric) odds of drawing groups of cards from one HAGMI! deck."""

    permission_classes = [AllowAny]
    parser_classes = [JSONBodyParser]

    @extend_schema(
        operation_id="draw_odds",
        summary="Exact odds to draw at least k of some cards among the first n of a deck (HAGMI!)",
        request=ODDS_REQUEST,
        responses={200: ODDS_RESULT, **_errors(400, 404, 413)},
    )
    def post(self, request):
        data = request.data
        if not isinstance(data, dict):
            raise ListInputError("The body must be a JSON object with deck, groups and a list or document.")
        if isinstance(data.get("list"), str):
            document = selectors.list_document(selectors.list_get(slug=data["list"], user=request.user))
        elif isinstance(data.get("document"), dict):
            document = data["document"]
        else:
            raise ListInputError("Give `list` (a list slug) or `document` (a hangar.list/1 object).")
        game = SYSTEMS.get(document.get("system")) if isinstance(document.get("system"), str) else None
        if game is None or game.odds is None:  # the registry says which games have exact draw odds: HAGMI!
            with_odds = ", ".join(f"{g.name} (system {g.slug!r})" for g in SYSTEMS.values() if g.odds is not None)
            raise ListInputError(f"Draw odds are for {with_odds} lists.")
        # A posted document must be a list (1..999 copies per entry, at most 1000 entries; ListFormatError: 400 with
        # the path): a quantity of 10**9 would make the exact answer take hours (found by the API fuzz run).
        document = parse_list_json(document)
        check_question_size(data)
        try:
            return Response(
                game.odds(document, deck=data.get("deck"), groups=data.get("groups"), draws=data.get("draws"),
                          turn=data.get("turn"))
            )
        except game.odds_error as error:
            raise ListInputError(str(error)) from None
