"""Admin for the catalog. Read-mostly: rows come from data packages (`load_packages` / `import_package`)."""
from django.contrib import admin

from .models import Card, CardProposal, CatalogChange, DataPackage, DataSource, Format, GameSystem, Opponent, PackageDraft


class ReadOnlyAdmin(admin.ModelAdmin):
    """Package data is edited in the package file and re-imported, not here; deleting a package is allowed."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(GameSystem)
class GameSystemAdmin(ReadOnlyAdmin):
    list_display = ["slug", "name", "name_ja", "sections"]

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(DataPackage)
class DataPackageAdmin(ReadOnlyAdmin):
    list_display = ["slug", "system", "version", "title", "loaded_at", "source"]
    list_filter = ["system"]
    search_fields = ["slug", "title"]


@admin.register(Card)
class CardAdmin(ReadOnlyAdmin):
    list_display = ["code", "name", "name_en", "system", "category", "faction", "cost", "package"]
    list_filter = ["system", "category", "faction"]
    search_fields = ["code", "name", "name_en"]
    list_select_related = ["system", "package"]

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Format)
class FormatAdmin(ReadOnlyAdmin):
    list_display = ["slug", "name", "name_en", "system", "is_default", "package"]
    list_filter = ["system", "is_default"]

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Opponent)
class OpponentAdmin(ReadOnlyAdmin):
    list_display = ["slug", "name", "system", "package"]
    list_filter = ["system"]

    def has_delete_permission(self, request, obj=None):
        return False


# The card editor's rows: written by its pages (/data/), shown here to operators.
@admin.register(PackageDraft)
class PackageDraftAdmin(ReadOnlyAdmin):
    list_display = ["slug", "system", "based_on", "created_by", "updated_at"]
    list_filter = ["system"]


@admin.register(CardProposal)
class CardProposalAdmin(ReadOnlyAdmin):
    list_display = ["code", "system", "slug", "status", "proposed_by", "created_at", "decided_by", "decided_at"]
    list_filter = ["system", "status"]
    search_fields = ["code", "note"]


@admin.register(CatalogChange)
class CatalogChangeAdmin(ReadOnlyAdmin):
    list_display = ["at", "action", "system", "slug", "code", "user", "version_number"]
    list_filter = ["system", "action"]
    search_fields = ["code", "slug"]

    def has_delete_permission(self, request, obj=None):
        return False  # the history is kept


@admin.register(DataSource)
class DataSourceAdmin(ReadOnlyAdmin):
    """Registered and checked on the data import page; an operator may delete one here."""
    list_display = ["name", "kind", "url", "package_slug", "status", "checked_at", "imported_at"]
    exclude = ["pending"]
