"""Fields REST API (docs/api.md "Fields"): named, shareable sets of weighted opponents of one game.

Thin: serializers shape input and output, builder.services.fields writes and builder.selectors reads. Visible like
lists: a private field is a 404 for everyone but its owner; another player's field you may see is a 403 on writes.
An entry naming a list the reader may not see is left out of what they are shown (and of what they play).
"""
from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status, viewsets
from rest_framework.permissions import BasePermission
from rest_framework.response import Response

from builder import selectors, services
from builder.models import OpponentField, Visibility
from builder.services.fields import MAX_DESCRIPTION, MAX_ENTRIES, MAX_NAME
from builder.throttles import AnonThrottle, UserThrottle

from .serializers import ErrorSerializer


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description)


ERRORS = {
    400: _error("bad input; the message and details.path name the part (name, entries[2].list, ...)"),
    403: _error("not signed in, or not the field's owner"),
    404: _error("no such field, or a private field of someone else"),
}


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {code: ERRORS[code] for code in codes}


class FieldsPermission(BasePermission):
    """Creating, and the index of your own fields, need an account; anyone may read a public or unlisted field and
    the index of public ones (?scope=public)."""

    message = "Sign in (session or 'Authorization: Token <key>') to use your fields."

    def has_permission(self, request, view) -> bool:
        if request.user and request.user.is_authenticated:
            return True
        if view.action == "create":
            return False
        if view.action == "list":
            return request.query_params.get("scope") == "public"
        return True


class FieldEntryInSerializer(serializers.Serializer):
    """One entry: exactly one of `opponent` and `list` (checked by the service, which names entries[i])."""

    opponent = serializers.CharField(required=False, max_length=64, help_text="a sample opponent's slug")
    list = serializers.CharField(required=False, max_length=32,
                                 help_text="or the id of a saved list: your own, or a public or unlisted one")
    weight = serializers.FloatField(required=False, help_text="above 0 (default 1): its share is weight / total")


class FieldCreateSerializer(serializers.Serializer):
    system = serializers.CharField(max_length=32, help_text="the game: hagmi, mwda or warcaster")
    name = serializers.CharField(max_length=MAX_NAME)
    description = serializers.CharField(required=False, allow_blank=True, max_length=MAX_DESCRIPTION, default="")
    visibility = serializers.ChoiceField(choices=Visibility.choices, required=False, default=Visibility.PRIVATE)
    entries = FieldEntryInSerializer(many=True, max_length=MAX_ENTRIES,
                                     help_text=f"at most {MAX_ENTRIES} opponents, none twice")


class FieldUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(required=False, max_length=MAX_NAME)
    description = serializers.CharField(required=False, allow_blank=True, max_length=MAX_DESCRIPTION)
    visibility = serializers.ChoiceField(choices=Visibility.choices, required=False)
    entries = FieldEntryInSerializer(many=True, required=False, max_length=MAX_ENTRIES,
                                     help_text="replaces every entry")


class FieldEntryOutSerializer(serializers.Serializer):
    opponent = serializers.CharField(required=False, help_text="a sample opponent's slug")
    list = serializers.CharField(required=False, help_text="or a saved list's id")
    name = serializers.CharField(help_text="the opponent's or the list's name")
    weight = serializers.FloatField()
    share = serializers.FloatField(help_text="weight / the total of the entries shown, 0-1")


def _entries(field: OpponentField, user) -> list[dict]:
    entries = selectors.field_entries(field, user=user)
    total = sum(entry.weight for entry in entries) or 1.0
    rows = []
    for entry in entries:
        row = {"opponent": entry.opponent, "name": selectors.field_entry_name(entry)} if entry.game_list_id is None \
            else {"list": entry.game_list.slug, "name": entry.game_list.name or entry.game_list.slug}
        rows.append({**row, "weight": entry.weight, "share": entry.weight / total})
    return rows


class FieldSummarySerializer(serializers.ModelSerializer):
    id = serializers.CharField(source="slug")
    system = serializers.CharField(source="system.slug")
    owner = serializers.CharField(source="owner.username")
    url = serializers.SerializerMethodField()

    class Meta:
        model = OpponentField
        fields = ["id", "system", "name", "description", "visibility", "owner", "created_at", "updated_at", "url"]

    def get_url(self, field: OpponentField) -> str:
        return self.context["request"].build_absolute_uri(reverse("fields-detail", kwargs={"slug": field.slug}))


class FieldSerializer(FieldSummarySerializer):
    entries = serializers.SerializerMethodField()
    hidden_entries = serializers.SerializerMethodField(
        help_text="how many entries name a list you may not see: left out of `entries` and of what you play")
    share_url = serializers.SerializerMethodField()

    class Meta(FieldSummarySerializer.Meta):
        fields = FieldSummarySerializer.Meta.fields + ["entries", "hidden_entries", "share_url"]

    @extend_schema_field(FieldEntryOutSerializer(many=True))
    def get_entries(self, field: OpponentField) -> list[dict]:
        return _entries(field, self.context["request"].user)

    def get_hidden_entries(self, field: OpponentField) -> int:
        return selectors.field_hidden_count(field, user=self.context["request"].user)

    def get_share_url(self, field: OpponentField) -> str:
        return self.context["request"].build_absolute_uri(reverse("field_detail", kwargs={"slug": field.slug}))


FIELD_FILTERS = [
    OpenApiParameter("scope", str, enum=["mine", "public"], description="mine (default, signed in) or public"),
    OpenApiParameter("system", str, description="only the fields of this game"),
]


class FieldViewSet(viewsets.GenericViewSet):
    """Fields: named sets of weighted opponents that a gauntlet or the list doctor plays ({"field": id})."""

    lookup_field = "slug"
    lookup_value_regex = r"[A-Za-z0-9_-]+"
    permission_classes = [FieldsPermission]
    serializer_class = FieldSerializer
    queryset = OpponentField.objects.none()  # every read goes through builder.selectors

    def get_throttles(self):
        return [AnonThrottle(), UserThrottle()]

    def _get(self) -> OpponentField:
        return selectors.field_get(slug=self.kwargs["slug"], user=self.request.user)

    def _show(self, field: OpponentField, code: int = status.HTTP_200_OK) -> Response:
        return Response(FieldSerializer(field, context=self.get_serializer_context()).data, status=code)

    @extend_schema(summary="Your fields, or everyone's public ones", parameters=FIELD_FILTERS,
                   responses={200: FieldSummarySerializer(many=True), **_errors(400, 403)})
    def list(self, request):
        fields = selectors.field_search(user=request.user, scope=request.query_params.get("scope") or "mine",
                                        system=request.query_params.get("system"))
        page = self.paginate_queryset(fields)
        return self.get_paginated_response(
            FieldSummarySerializer(page, many=True, context=self.get_serializer_context()).data)

    @extend_schema(summary="Save a new field", request=FieldCreateSerializer,
                   responses={201: FieldSerializer, **_errors(400, 403)})
    def create(self, request):
        form = FieldCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        field = services.field_create(owner=request.user, **form.validated_data)
        response = self._show(field, status.HTTP_201_CREATED)
        response["Location"] = response.data["url"]
        return response

    @extend_schema(summary="One field (private: owner only); entries naming a list you may not see are left out",
                   responses={200: FieldSerializer, **_errors(404)})
    def retrieve(self, request, slug=None):
        return self._show(self._get())

    @extend_schema(summary="Change a field (its owner only); `entries` replaces every entry",
                   request=FieldUpdateSerializer, responses={200: FieldSerializer, **_errors(400, 403, 404)})
    def partial_update(self, request, slug=None):
        form = FieldUpdateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        field = services.field_update(field=self._get(), user=request.user, **form.validated_data)
        return self._show(field)

    @extend_schema(summary="Delete a field (its owner only)", request=None,
                   responses={204: None, **_errors(403, 404)})
    def destroy(self, request, slug=None):
        services.field_delete(field=self._get(), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
