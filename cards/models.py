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
    """Every content a package has had (issue 19): one row per import that changed it, numbered 1, 2, ... per
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
    """A sample opponent for simulations (used from issue 3 on): goldfish, co-op scenario, sample deck/army."""

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
