"""The lists: a player's deck or army list, its entries and its saved revisions.

Rows are written only by builder.services and read through builder.selectors (HackSoft style).
Entries reference cards by their code STRING, never by a foreign key: when a data package drops a card,
lists that use it keep their entries and validation reports `list.unknown_card`.
"""
from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models

SLUG_BYTES = 9  # 12 URL-safe characters


def new_list_slug() -> str:
    """The public id of a list: random and URL-safe, so list ids cannot be enumerated."""
    return secrets.token_urlsafe(SLUG_BYTES)


class Visibility(models.TextChoices):
    PRIVATE = "private", "Private"  # the owner only
    UNLISTED = "unlisted", "Unlisted"  # anyone with the link
    PUBLIC = "public", "Public"  # anyone, and shown in the public gallery


class GameList(models.Model):
    slug = models.CharField(max_length=32, unique=True, default=new_list_slug, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_lists")
    system = models.ForeignKey("cards.GameSystem", on_delete=models.PROTECT, related_name="game_lists")
    format = models.CharField(max_length=64, blank=True)  # format slug; "" when the list names none
    name = models.CharField(max_length=200, blank=True)
    notes = models.TextField(blank=True)
    visibility = models.CharField(max_length=10, choices=Visibility.choices, default=Visibility.PRIVATE)
    version = models.PositiveIntegerField(default=1)  # optimistic concurrency: bumped by every write
    # Cached construction check (DESIGN.md §2.3), computed in English against the catalog `catalog_stamp`.
    legal = models.BooleanField(default=False)
    error_count = models.PositiveIntegerField(default=0)
    warning_count = models.PositiveIntegerField(default=0)
    validation = models.JSONField(default=dict)
    catalog_stamp = models.CharField(max_length=200, blank=True)
    deleted_at = models.DateTimeField(null=True, blank=True)  # soft delete: in the owner's trash
    forked_from = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="forks")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [
            models.Index(fields=["owner", "deleted_at", "-updated_at"], name="gamelist_owner_idx"),
            models.Index(fields=["visibility", "deleted_at", "-created_at"], name="gamelist_gallery_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.name or self.slug} ({self.system_id})"

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None

    @property
    def format_or_none(self) -> str | None:
        return self.format or None


class ListEntry(models.Model):
    game_list = models.ForeignKey(GameList, on_delete=models.CASCADE, related_name="entries")
    section = models.CharField(max_length=32)  # weapons / tactics / damage / secret (秘策), army, force / rack
    card = models.CharField(max_length=64)  # card code, a plain string on purpose (see module docstring)
    qty = models.PositiveIntegerField()
    options = models.JSONField(null=True, blank=True)  # e.g. a warjack's {"cortex": ..., "weapons": [...]}
    position = models.PositiveIntegerField()  # order in the document: sections in system order, then entries

    class Meta:
        ordering = ["game_list", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game_list", "position"], name="unique_entry_position"),
        ]

    def __str__(self) -> str:
        return f"{self.qty} {self.card} [{self.section}]"


class ListRevision(models.Model):
    """The list exactly as saved by one create/update/restore/fork: never changed afterwards."""

    game_list = models.ForeignKey(GameList, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()  # 1, 2, 3 ... per list
    document = models.JSONField()  # the full hangar.list/1 document
    notes = models.TextField(blank=True)
    visibility = models.CharField(max_length=10, choices=Visibility.choices)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game_list", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game_list", "number"], name="unique_revision_number"),
        ]

    def __str__(self) -> str:
        return f"{self.game_list.slug} r{self.number}"
