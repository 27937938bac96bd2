"""Catalog REST API (DESIGN.md §2.5): thin read-only views over cards.selectors."""
from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.generics import ListAPIView, RetrieveAPIView
from rest_framework.pagination import PageNumberPagination

from cards import selectors
from cards.models import GameSystem

from .filters import CARD_FILTER_PARAMETERS, card_query_from_params
from .serializers import CardSerializer, FormatSerializer, OpponentSerializer, SystemSerializer

NOT_FOUND = OpenApiResponse(description="No such system or card.")
BAD_FILTER = OpenApiResponse(description="A query parameter is not valid; the body names it.")


class CardPagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


def system_or_404(slug: str) -> GameSystem:
    system = selectors.system_detail(slug)
    if system is None:
        raise NotFound(f"No game system '{slug}'.")
    return system


@extend_schema(tags=["catalog"], summary="List the game systems")
class SystemListView(ListAPIView):
    serializer_class = SystemSerializer
    pagination_class = None

    def get_queryset(self):
        return selectors.systems_list()


@extend_schema(tags=["catalog"], summary="One game system", responses={200: SystemSerializer, 404: NOT_FOUND})
class SystemDetailView(RetrieveAPIView):
    serializer_class = SystemSerializer

    def get_object(self):
        return system_or_404(self.kwargs["slug"])


@extend_schema(tags=["catalog"], summary="Formats of a system", responses={200: FormatSerializer(many=True), 404: NOT_FOUND})
class SystemFormatsView(ListAPIView):
    serializer_class = FormatSerializer
    pagination_class = None

    def get_queryset(self):
        return selectors.formats_for(system_or_404(self.kwargs["slug"]))


@extend_schema(
    tags=["catalog"], summary="Sample opponents of a system", responses={200: OpponentSerializer(many=True), 404: NOT_FOUND}
)
class SystemOpponentsView(ListAPIView):
    serializer_class = OpponentSerializer
    pagination_class = None

    def get_queryset(self):
        return selectors.opponents_for(system_or_404(self.kwargs["slug"]))


@extend_schema(
    tags=["catalog"],
    summary="Search cards and units",
    parameters=CARD_FILTER_PARAMETERS,
    responses={200: CardSerializer(many=True), 400: BAD_FILTER},
)
class CardListView(ListAPIView):
    serializer_class = CardSerializer
    pagination_class = CardPagination

    def get_queryset(self):
        return selectors.card_search(card_query_from_params(self.request.query_params))


@extend_schema(tags=["catalog"], summary="One card with its full data", responses={200: CardSerializer, 404: NOT_FOUND})
class CardDetailView(RetrieveAPIView):
    serializer_class = CardSerializer

    def get_object(self):
        system, code = self.kwargs["system"], self.kwargs["code"]
        # A NUL (U+0000) is in no card code, and PostgreSQL would refuse to even look it up.
        card = selectors.card_get(system, code) if "\x00" not in code else None
        if card is None:
            if selectors.system_get(system) is None:
                raise NotFound(f"No game system '{system}'.")
            raise NotFound(f"No card with code '{code}' in system '{system}'.")
        return card
