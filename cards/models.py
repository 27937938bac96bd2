"""The catalog: game systems, data packages, cards/units, formats and sample opponents.

Rows are written only by cards.services (package import); everything is read through cards.selectors.
A card row keeps the card's full package JSON in `data`; the indexed columns are copies for search and filters.
"""
from django.db import models


class GameSystem(models.Model):
    slug = models.SlugField(max_length=32, unique=True)  # "hagmi", "mwda", "warcaster"
    name = models.CharField(max_length=100)  # English name
    name_ja = models.CharField(max_length=100, blank=True)
    sections = models.JSONField(default=list)  # list-section slugs in display order

    class Meta:
        ordering = ["slug"]

    def __str__(self):
        return self.name


class DataPackage(models.Model):
    system = models.ForeignKey(GameSystem, on_delete=models.CASCADE, related_name="packages")
    slug = models.SlugField(max_length=100)
    version = models.CharField(max_length=50)
    title = models.CharField(max_length=200)
    sha256 = models.CharField(max_length=64)  # of the canonical JSON: re-loading an unchanged file is a no-op
    source = models.CharField(max_length=500, blank=True)  # file it came from, for operators
    loaded_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["system__slug", "slug"]
        constraints = [models.UniqueConstraint(fields=["system", "slug"], name="unique_package_per_system")]

    def __str__(self):
        return f"{self.system.slug}/{self.slug} {self.version}"


class PackageVersion(models.Model):
    """Every content a package has had: one row per import that changed it, numbered 1, 2, ... per
    package, with the whole `hangar.package/1` document, so that any version can be listed, compared and exported.
    Kept by system and slug, not by the package row, so a version outlives a package replaced under its slug."""

    system = models.ForeignKey(GameSystem, on_delete=models.CASCADE, related_name="package_versions")
    slug = models.SlugField(max_length=100)
    number = models.PositiveIntegerField()
    version = models.CharField(max_length=50)  # the package's own version label, e.g. "2026.11"
    title = models.CharField(max_length=200)
    sha256 = models.CharField(max_length=64)
    data = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    published_by = models.ForeignKey("auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["system__slug", "slug", "-number"]
        constraints = [models.UniqueConstraint(fields=["system", "slug", "number"], name="unique_package_version")]

    def __str__(self):
        return f"{self.system.slug}/{self.slug} #{self.number} ({self.version})"


class Card(models.Model):
    system = models.ForeignKey(GameSystem, on_delete=models.CASCADE, related_name="cards")
    package = models.ForeignKey(DataPackage, on_delete=models.CASCADE, related_name="cards")
    code = models.CharField(max_length=50)
    name = models.CharField(max_length=200)  # Japanese (or original-language) name, required
    name_en = models.CharField(max_length=200, blank=True)
    category = models.CharField(max_length=40, db_index=True)  # HAGMI category, MWDA/Warcaster kind
    faction = models.CharField(max_length=80, blank=True, db_index=True)
    cost = models.IntegerField(null=True, blank=True, db_index=True)  # HAGMI cost, MWDA points, Warcaster CST
    search_text = models.TextField(blank=True)  # lower-cased names and code, for partial-name search
    data = models.JSONField()  # the card exactly as in its package

    class Meta:
        ordering = ["system__slug", "code"]
        constraints = [models.UniqueConstraint(fields=["system", "code"], name="unique_card_code_per_system")]

    def __str__(self):
        return f"{self.code} {self.name}"


class Format(models.Model):
    system = models.ForeignKey(GameSystem, on_delete=models.CASCADE, related_name="formats")
    package = models.ForeignKey(DataPackage, on_delete=models.CASCADE, related_name="formats")
    slug = models.SlugField(max_length=64)
    name = models.CharField(max_length=200)
    name_en = models.CharField(max_length=200, blank=True)
    is_default = models.BooleanField(default=False)
    data = models.JSONField()  # the format exactly as in its package, options included

    class Meta:
        ordering = ["system__slug", "-is_default", "slug"]
        constraints = [models.UniqueConstraint(fields=["system", "slug"], name="unique_format_per_system")]

    def __str__(self):
        return f"{self.system.slug}/{self.slug}"


class Opponent(models.Model):
    """A sample opponent for simulations: goldfish, co-op scenario, sample deck/army."""

    system = models.ForeignKey(GameSystem, on_delete=models.CASCADE, related_name="opponents")
    package = models.ForeignKey(DataPackage, on_delete=models.CASCADE, related_name="opponents")
    slug = models.SlugField(max_length=64)
    name = models.CharField(max_length=200)
    data = models.JSONField()

    class Meta:
        ordering = ["system__slug", "slug"]
        constraints = [models.UniqueConstraint(fields=["system", "slug"], name="unique_opponent_per_system")]

    def __str__(self):
        return f"{self.system.slug}/{self.slug}"


class PackageDraft(models.Model):
    """The next version of a package while data editors work on it: the whole `hangar.package/1`
    document, started from the package's newest version (`based_on`) and published as its next one. One draft per
    package; the catalog does not see it until it is published."""

    system = models.ForeignKey(GameSystem, on_delete=models.CASCADE, related_name="drafts")
    slug = models.SlugField(max_length=100)
    based_on = models.PositiveIntegerField(null=True, blank=True)  # the PackageVersion number it started from
    data = models.JSONField()
    created_by = models.ForeignKey("auth.User", null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["system__slug", "slug"]
        constraints = [models.UniqueConstraint(fields=["system", "slug"], name="unique_draft_per_package")]
        # The data-editor role (the "Data editors" group holds it; staff have it too): edit drafts, publish them,
        # and accept or reject the corrections users propose.
        permissions = [("edit_catalog", "Can edit package drafts, publish them and review proposed corrections")]

    def __str__(self):
        return f"draft {self.system.slug}/{self.slug}"


class CardProposal(models.Model):
    """A correction a signed-in user proposes to one card; a data editor accepts it (the card goes
    into the package's draft) or rejects it, with a reply."""

    class Status(models.TextChoices):
        OPEN = "open", "open"
        ACCEPTED = "accepted", "accepted"
        REJECTED = "rejected", "rejected"

    system = models.ForeignKey(GameSystem, on_delete=models.CASCADE, related_name="proposals")
    slug = models.SlugField(max_length=100)  # the package the card is in
    code = models.CharField(max_length=50)
    before = models.JSONField()  # the card as the proposer saw it
    data = models.JSONField()  # the card as they propose it
    note = models.TextField(blank=True)  # why: "the card's firepower is 2×2 (HGM03 print)"
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    proposed_by = models.ForeignKey("auth.User", null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey("auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)
    reply = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"proposal {self.pk} {self.system.slug}/{self.code} ({self.status})"


class CatalogChange(models.Model):
    """Every change to the catalog made in the browser, with who and when: a card added, changed
    or removed in a draft, a draft published or discarded, a correction proposed, accepted or rejected."""

    class Action(models.TextChoices):
        CARD_ADDED = "card_added", "card added"
        CARD_CHANGED = "card_changed", "card changed"
        CARD_REMOVED = "card_removed", "card removed"
        PUBLISHED = "published", "published"
        DISCARDED = "discarded", "discarded"
        PROPOSED = "proposed", "proposed"
        ACCEPTED = "accepted", "accepted"
        REJECTED = "rejected", "rejected"

    system = models.ForeignKey(GameSystem, on_delete=models.CASCADE, related_name="catalog_changes")
    slug = models.SlugField(max_length=100)
    code = models.CharField(max_length=50, blank=True)  # the card, or "" for the whole package
    action = models.CharField(max_length=20, choices=Action.choices)
    user = models.ForeignKey("auth.User", null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    version_number = models.PositiveIntegerField(null=True, blank=True)  # the version a publish made
    proposal = models.ForeignKey(CardProposal, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self):
        return f"{self.action} {self.system.slug}/{self.slug} {self.code}"


class DataSource(models.Model):
    """A published BattleScribe data source a staff member registered (docs/data-packages.md "Data sources"): a data
    index (.bsi or index.xml) or a release archive (.zip). "Check for updates" fetches it in a Celery task
    (cards.datasources) and keeps what it found: the files' revisions against those last imported, and, when the
    data would change the package, the fetched files and their preview, until a staff member imports them as the
    package's next version."""

    class Kind(models.TextChoices):
        INDEX = "index", "data index"
        ARCHIVE = "archive", "release archive"

    class Status(models.TextChoices):
        NEW = "new", "never checked"
        CHECKING = "checking", "checking"
        CURRENT = "current", "no update"
        UPDATE = "update", "update found"
        FAILED = "failed", "check failed"

    name = models.CharField(max_length=100, unique=True)
    url = models.CharField(max_length=1000)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    system = models.SlugField(max_length=32, default="warcaster")  # BattleScribe data becomes a Warcaster package
    package_slug = models.SlugField(max_length=100, blank=True)  # the package it feeds, once a check converted it
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.NEW)
    check_token = models.CharField(max_length=64, blank=True)  # the check in flight; a stale task's result is dropped
    check_requested_at = models.DateTimeField(null=True, blank=True)
    checked_at = models.DateTimeField(null=True, blank=True)
    error_code = models.CharField(max_length=20, blank=True)  # what failed (cards.datasources.ERROR_CODES)
    error = models.JSONField(default=dict, blank=True)  # its url, file, element path, id, numbers, English message
    revisions = models.JSONField(default=dict, blank=True)  # the files last imported: dataId -> name, type, revision
    found = models.JSONField(default=list, blank=True)  # the last check's files, each with its revision before
    pending = models.BinaryField(null=True, blank=True)  # the fetched files awaiting import (one zip)
    pending_sha256 = models.CharField(max_length=64, blank=True)
    preview = models.JSONField(null=True, blank=True)  # what importing `pending` would do (cards.datasources)
    created_by = models.ForeignKey("auth.User", null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    imported_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return f"data source {self.name}"
