"""Admin for the catalog. Read-mostly: rows come from data packages (`load_packages` / `import_package`)."""
from django.contrib import admin

from .models import Card, DataPackage, Format, GameSystem, Opponent


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
