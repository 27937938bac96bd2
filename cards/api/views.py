"""Catalog REST API (docs/design.md §2.5): thin read-only views over cards.selectors."""
from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework.exceptions import NotFound
from rest_framework.generics import ListAPIView, RetrieveAPIView
from rest_framework.pagination import PageNumberPagination

from cards import selectors
from cards.downloads import content_disposition
from cards.models import GameSystem

from .filters import CARD_FILTER_PARAMETERS, card_query_from_params
from .serializers import (
    CardSerializer, FormatSerializer, OpponentSerializer, PackageDiffSerializer, PackageSerializer,
    PackageVersionSerializer, SystemSerializer,
)

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


# --- package versions -----------------------------------------------------------------------------

MAX_VERSION_NUMBER = 2**31 - 1


def versions_or_404(system: str, slug: str):
    versions = selectors.package_versions(system, slug)
    if not versions.exists():
        system_or_404(system)
        raise NotFound(f"No package '{slug}' in system '{system}'.")
    return versions


def version_number(value, name: str) -> int:
    text = str(value) if value is not None else ""
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= MAX_VERSION_NUMBER:
        raise ValidationError({name: f"must be a version number (1, 2, ...), not {text!r}."})
    return int(text)


def version_or_404(system: str, slug: str, number: int):
    version = selectors.package_version_get(system, slug, number)
    if version is None:
        versions_or_404(system, slug)
        raise NotFound(f"Package '{slug}' of '{system}' has no version {number}.")
    return version


@extend_schema(tags=["catalog"], summary="The loaded data packages",
               parameters=[OpenApiParameter("system", str, description="Only this system's packages.")],
               responses={200: PackageSerializer(many=True), 404: NOT_FOUND})
class PackageListView(ListAPIView):
    serializer_class = PackageSerializer
    pagination_class = None

    def get_queryset(self):
        system = self.request.query_params.get("system")
        if system is not None:
            system_or_404(system)
        return selectors.packages_list(system)


@extend_schema(tags=["catalog"], summary="Every version of a package, newest first",
               responses={200: PackageVersionSerializer(many=True), 404: NOT_FOUND})
class PackageVersionListView(ListAPIView):
    serializer_class = PackageVersionSerializer
    pagination_class = None

    def get_queryset(self):
        return versions_or_404(self.kwargs["system"], self.kwargs["slug"])


@extend_schema(tags=["catalog"], summary="One version of a package, as its hangar.package/1 document",
               responses={200: {"type": "object", "additionalProperties": True}, 400: BAD_FILTER, 404: NOT_FOUND})
class PackageVersionDetailView(APIView):
    def get(self, request, system: str, slug: str, number: int):
        version = version_or_404(system, slug, version_number(number, "number"))
        return Response(version.data, headers={
            "Content-Disposition": content_disposition(f"{system}-{slug}-{version.number}.json", disposition="inline")})


@extend_schema(tags=["catalog"], summary="What changed between two versions of a package",
               parameters=[OpenApiParameter("from", int, required=True, description="The older version number."),
                           OpenApiParameter("to", int, required=True, description="The newer version number.")],
               responses={200: PackageDiffSerializer, 400: BAD_FILTER, 404: NOT_FOUND})
class PackageDiffView(APIView):
    def get(self, request, system: str, slug: str):
        old = version_number(request.query_params.get("from"), "from")
        new = version_number(request.query_params.get("to"), "to")
        before, after = version_or_404(system, slug, old), version_or_404(system, slug, new)
        diff = selectors.cards_diff(before.data.get("cards", []), after.data.get("cards", []))
        return Response({"system": system, "slug": slug, "from": old, "to": new, **diff})
