"""Read-only representations of the catalog (data comes from packages, never from API writes)."""
from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cards.models import Card, Format, GameSystem, Opponent
from cards.systems import SECTION_LABELS
from rules_engine.systems import SYSTEMS as REGISTRY


class SectionSerializer(serializers.Serializer):
    slug = serializers.CharField()
    ja = serializers.CharField(help_text="Japanese label, e.g. 秘策")
    en = serializers.CharField()


class GameTypeSerializer(serializers.Serializer):
    """What a game declares of itself (rules_engine/system_entry.py GameType), as OpenSpiel's _GAME_TYPE."""

    players = serializers.IntegerField(help_text="Seats at the table (the list is player 0).")
    chance = serializers.ListField(child=serializers.ChoiceField(choices=["dice", "shuffles"]),
                                   help_text="What the game draws at random; empty for a deterministic game.")
    information = serializers.ChoiceField(choices=["perfect", "imperfect"])
    max_length = serializers.DictField(child=serializers.IntegerField(),
                                       help_text="The options that end a game, with their defaults (max_turns: 60).")
    capabilities = serializers.ListField(child=serializers.CharField(),
                                         help_text="positions, draw_odds, sample_hands, weapon_odds, replay_table, "
                                                   "roster_formats, list_opponents, placement_rules, card_check")
    cooperative = serializers.BooleanField(help_text="Has a mode against the game's own side (HAGMI's co-op).")
    hidden = serializers.ListField(child=serializers.CharField(), help_text="What a player does not see: hand, ...")


class SystemSerializer(serializers.ModelSerializer):
    sections = serializers.SerializerMethodField(help_text="List sections in display order, with labels.")
    card_count = serializers.IntegerField(read_only=True)
    default_format = serializers.CharField(read_only=True, allow_null=True, help_text="Slug of the default format.")
    game_type = serializers.SerializerMethodField(help_text="What the game declares of itself (null for a game the "
                                                            "site no longer runs).")

    class Meta:
        model = GameSystem
        fields = ["slug", "name", "name_ja", "sections", "card_count", "default_format", "game_type"]

    @extend_schema_field(GameTypeSerializer(allow_null=True))
    def get_game_type(self, system: GameSystem) -> dict[str, Any] | None:
        entry = REGISTRY.get(system.slug)
        return entry.game_type.as_dict() if entry is not None else None

    @extend_schema_field(SectionSerializer(many=True))
    def get_sections(self, system: GameSystem) -> list[dict[str, str]]:
        return [
            {"slug": slug, **SECTION_LABELS.get(slug, {"ja": slug, "en": slug.title()})} for slug in system.sections
        ]


class FormatSerializer(serializers.ModelSerializer):
    default = serializers.BooleanField(source="is_default")
    description = serializers.SerializerMethodField()
    description_en = serializers.SerializerMethodField()
    options = serializers.SerializerMethodField(help_text="Construction options; missing ones take their defaults.")

    class Meta:
        model = Format
        fields = ["slug", "name", "name_en", "default", "description", "description_en", "options"]

    def get_description(self, fmt: Format) -> str:
        return fmt.data.get("description", "")

    def get_description_en(self, fmt: Format) -> str:
        return fmt.data.get("description_en", "")

    @extend_schema_field({"type": "object", "additionalProperties": True})
    def get_options(self, fmt: Format) -> dict[str, Any]:
        return fmt.data.get("options", {})


class OpponentSerializer(serializers.ModelSerializer):
    name_en = serializers.SerializerMethodField()
    kind = serializers.SerializerMethodField(help_text="e.g. goldfish, co-op scenario, sample deck or army.")

    class Meta:
        model = Opponent
        fields = ["slug", "name", "name_en", "kind"]

    def get_name_en(self, opponent: Opponent) -> str:
        return opponent.data.get("name_en", "")

    def get_kind(self, opponent: Opponent) -> str:
        return opponent.data.get("kind", "")


class CardSerializer(serializers.ModelSerializer):
    system = serializers.CharField(source="system.slug")
    package = serializers.CharField(source="package.slug", help_text="Slug of the data package the card comes from.")
    data = serializers.JSONField(help_text="The card exactly as in its package (all per-system fields).")

    class Meta:
        model = Card
        fields = ["system", "code", "name", "name_en", "category", "faction", "cost", "package", "data"]


class PackageSerializer(serializers.Serializer):
    system = serializers.CharField(source="system.slug")
    slug = serializers.CharField()
    version = serializers.CharField(help_text="The package's own version label, e.g. 2026.11.")
    title = serializers.CharField()
    card_count = serializers.IntegerField()
    latest = serializers.IntegerField(allow_null=True, help_text="The number of its newest version.")
    loaded_at = serializers.DateTimeField()


class PackageVersionSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="1 for the first content the package had, then 2, 3, ...")
    version = serializers.CharField(help_text="The package's version label at that time.")
    title = serializers.CharField()
    sha256 = serializers.CharField(help_text="Of the package's canonical JSON.")
    created_at = serializers.DateTimeField()


class PackageDiffSerializer(serializers.Serializer):
    system = serializers.CharField()
    slug = serializers.CharField()
    to = serializers.IntegerField()
    added = serializers.ListField(child=serializers.CharField(), help_text="Card codes only in `to`.")
    removed = serializers.ListField(child=serializers.CharField(), help_text="Card codes only in `from`.")
    changed = serializers.DictField(child=serializers.ListField(child=serializers.CharField()),
                                    help_text="Card code -> the fields that differ.")

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = serializers.IntegerField()  # a Python keyword: added by name
        return fields
