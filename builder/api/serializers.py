"""Thin serializers: shape the input for the services and the output for clients; no business logic here."""
from __future__ import annotations

from typing import Any

from django.urls import NoReverseMatch, reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from builder import selectors
from builder.models import GameList, ListRevision, Visibility
from cards.storable_text import escaped
from cards.systems import SYSTEMS

LIST_DOCUMENT_SCHEMA = {
    "type": "object",
    "description": "A hangar.list/1 document (docs/design.md §2.2, docs/list-formats.md).",
    "required": ["schema", "system", "sections"],
    "properties": {
        "schema": {"type": "string", "enum": ["hangar.list/1"]},
        "system": {"type": "string", "enum": list(SYSTEMS)},
        "format": {"type": "string", "nullable": True, "example": "tactics-v4"},
        "name": {"type": "string"},
        "sections": {
            "type": "object",
            "additionalProperties": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["card", "qty"],
                    "properties": {
                        "card": {"type": "string", "example": "HS-001"},
                        "qty": {"type": "integer", "minimum": 1, "maximum": 999},
                        "options": {"type": "object"},
                    },
                },
            },
            "example": {"weapons": [{"card": "HS-001", "qty": 2}], "tactics": [], "damage": [], "secret": []},
        },
    },
}


class JSONValueField(serializers.JSONField):
    """DRF's JSONField, with a 400 instead of a 500 for JSON nested past Python's recursion limit (a form field
    holding "[[[[...", or a JSON body nested almost as deep as the parser allows: found by the API fuzz run)."""

    default_error_messages = {"too_deep": "Arrays or objects are nested too deeply."}

    def to_internal_value(self, data):
        try:
            return super().to_internal_value(data)
        except RecursionError:
            self.fail("too_deep")


class ChoiceField(serializers.ChoiceField):
    """DRF's ChoiceField, whose "is not a valid choice" message quotes the input with lone surrogates escaped: a
    JSON body's "\\udfff" would otherwise make the error itself impossible to send (a 500; docs/security.md)."""

    def to_internal_value(self, data):
        try:
            return super().to_internal_value(data)
        except serializers.ValidationError:
            if isinstance(data, str) and escaped(data) != data:
                self.fail("invalid_choice", input=escaped(data))
            raise


@extend_schema_field(LIST_DOCUMENT_SCHEMA)
class ListDocumentField(JSONValueField):
    """A hangar.list/1 document, passed untouched to the services (they give the precise errors)."""


# --- validation result (docs/design.md §2.3) ---------------------------------------------------------------------


class ViolationSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="e.g. hagmi.secret_count, list.unknown_card")
    severity = serializers.ChoiceField(choices=["error", "warning"])
    rule = serializers.CharField(allow_null=True, help_text="RULES.md id such as H5; null for list.* codes")
    message = serializers.CharField()
    section = serializers.CharField(allow_null=True)
    cards = serializers.ListField(child=serializers.CharField())


class ValidationResultSerializer(serializers.Serializer):
    legal = serializers.BooleanField()
    system = serializers.CharField()
    format = serializers.CharField(allow_null=True)
    violations = ViolationSerializer(many=True)
    summary = serializers.DictField(child=serializers.IntegerField(), help_text="per system, see docs/design.md §2.3")


# --- lists --------------------------------------------------------------------------------------------------


def share_path(slug: str) -> str:
    """The HTML page of a list (builder/urls.py); falls back to /lists/<slug>/ until that page exists."""
    for name in ("list_detail", "list-detail", "builder:list_detail"):
        try:
            return reverse(name, kwargs={"slug": slug})
        except NoReverseMatch:
            continue
    return f"/lists/{slug}/"


class GameListSummarySerializer(serializers.ModelSerializer):
    """A list in an index page: everything but the document and the full validation."""

    url = serializers.SerializerMethodField()
    share_url = serializers.SerializerMethodField()
    owner = serializers.CharField(source="owner.username")
    system = serializers.CharField(source="system.slug")
    format = serializers.CharField(allow_null=True, source="format_or_none")
    forked_from = serializers.SerializerMethodField()
    deleted = serializers.BooleanField(source="is_deleted")

    class Meta:
        model = GameList
        fields = [
            "slug", "url", "share_url", "owner", "system", "format", "name", "visibility", "version",
            "legal", "error_count", "warning_count", "forked_from", "created_at", "updated_at", "deleted",
        ]
        read_only_fields = fields

    def _absolute(self, path: str) -> str:
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path

    def get_url(self, game_list: GameList) -> str:
        return self._absolute(reverse("lists-detail", kwargs={"slug": game_list.slug}))

    def get_share_url(self, game_list: GameList) -> str:
        return self._absolute(share_path(game_list.slug))

    @extend_schema_field({"type": "string", "nullable": True, "description": "the origin's id, or null"})
    def get_forked_from(self, game_list: GameList) -> str | None:
        """The origin's id, unless the reader may no longer see it (now private or trashed: docs/security.md)."""
        if not game_list.forked_from_id:
            return None
        request = self.context.get("request")
        visible = selectors.list_can_see(game_list.forked_from, getattr(request, "user", None))
        return game_list.forked_from.slug if visible else None


class GameListSerializer(GameListSummarySerializer):
    """A list with its notes, its hangar.list/1 document and its validation result."""

    document = serializers.SerializerMethodField()
    validation = serializers.SerializerMethodField()

    class Meta(GameListSummarySerializer.Meta):
        fields = GameListSummarySerializer.Meta.fields + ["notes", "document", "validation"]
        read_only_fields = fields

    @extend_schema_field(LIST_DOCUMENT_SCHEMA)
    def get_document(self, game_list: GameList) -> dict[str, Any]:
        return selectors.list_document(game_list)

    @extend_schema_field(ValidationResultSerializer)
    def get_validation(self, game_list: GameList) -> dict[str, Any]:
        return game_list.validation


class ListCreateSerializer(serializers.Serializer):
    document = ListDocumentField()
    notes = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False, default="")
    visibility = ChoiceField(choices=Visibility.choices, required=False, default=Visibility.PRIVATE)


class ListUpdateSerializer(serializers.Serializer):
    document = ListDocumentField(required=False)
    notes = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)
    visibility = ChoiceField(choices=Visibility.choices, required=False)
    version = serializers.IntegerField(
        required=False, help_text="the version you edited; or send it as an If-Match header"
    )


class ListImportSerializer(serializers.Serializer):
    """Exactly one of text, json or file."""

    text = serializers.CharField(required=False, trim_whitespace=False, help_text="the text format")
    json = JSONValueField(required=False, help_text="a hangar.list/1 document or a JSON string")
    file = serializers.FileField(required=False, help_text="a .txt, .json (hangar.list/1) or BattleScribe .ros/.rosz roster file (multipart)")
    system = ChoiceField(
        choices=list(SYSTEMS), required=False, help_text="for text without a System: line"
    )
    name = serializers.CharField(required=False, allow_blank=True)
    notes = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False, default="")
    visibility = ChoiceField(choices=Visibility.choices, required=False, default=Visibility.PRIVATE)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["system"].choices = list(SYSTEMS)  # the games registered now (a game may come after import)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        given = [key for key in ("text", "json", "file") if key in attrs]
        if len(given) != 1:
            raise serializers.ValidationError(
                "Send exactly one of 'text' (the text format), 'json' (a hangar.list/1 document) or 'file' "
                f"(a .txt or .json upload); got {', '.join(given) or 'none'}."
            )
        return attrs


# --- revisions ----------------------------------------------------------------------------------------------


class RevisionSummarySerializer(serializers.ModelSerializer):
    author = serializers.CharField(source="author.username", allow_null=True, default=None)
    name = serializers.SerializerMethodField()

    class Meta:
        model = ListRevision
        fields = ["number", "author", "created_at", "name", "visibility"]
        read_only_fields = fields

    def get_name(self, revision: ListRevision) -> str:
        return revision.document.get("name", "")


class RevisionSerializer(RevisionSummarySerializer):
    document = serializers.JSONField()

    class Meta(RevisionSummarySerializer.Meta):
        fields = RevisionSummarySerializer.Meta.fields + ["notes", "document"]
        read_only_fields = fields


class FieldChangeSerializer(serializers.Serializer):
    to = serializers.JSONField()

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = serializers.JSONField()
        return fields


class SectionDiffSerializer(serializers.Serializer):
    added = serializers.ListField(child=serializers.DictField())
    removed = serializers.ListField(child=serializers.DictField())
    changed = serializers.ListField(child=serializers.DictField())


class RevisionDiffSerializer(serializers.Serializer):
    to = serializers.IntegerField()
    fields = serializers.DictField(child=FieldChangeSerializer())
    sections = serializers.DictField(child=SectionDiffSerializer())

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = serializers.IntegerField()
        return fields


# --- auth ---------------------------------------------------------------------------------------------------


class SignupSerializer(serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField(write_only=True, trim_whitespace=False, style={"input_type": "password"})
    email = serializers.EmailField(required=False, allow_blank=True, default="")


class LoginSerializer(serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField(write_only=True, trim_whitespace=False, style={"input_type": "password"})


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()
    username = serializers.CharField()


class UserSerializer(serializers.Serializer):
    username = serializers.CharField()
    email = serializers.CharField(allow_blank=True, help_text='the e-mail address, or "" when none was given')
    date_joined = serializers.DateTimeField()


class ErrorSerializer(serializers.Serializer):
    """Every error: {"error": {"code", "message", "details", ...}}."""

    error = serializers.DictField()
