"""Admin for lists: read-mostly (writes go through builder.services so revisions and validation stay right)."""
from django.contrib import admin

from .models import GameList, ListEntry, ListRevision


class ListEntryInline(admin.TabularInline):
    model = ListEntry
    fields = ["position", "section", "card", "qty", "options"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(GameList)
class GameListAdmin(admin.ModelAdmin):
    list_display = ["slug", "name", "owner", "system", "format", "visibility", "legal", "version", "updated_at",
                    "deleted_at"]
    list_filter = ["system", "visibility", "legal", ("deleted_at", admin.EmptyFieldListFilter)]
    search_fields = ["slug", "name", "owner__username"]
    raw_id_fields = ["owner", "forked_from"]
    readonly_fields = ["slug", "system", "format", "version", "legal", "error_count", "warning_count",
                       "validation", "catalog_stamp", "forked_from", "created_at", "updated_at"]
    inlines = [ListEntryInline]


@admin.register(ListRevision)
class ListRevisionAdmin(admin.ModelAdmin):
    list_display = ["game_list", "number", "author", "visibility", "created_at"]
    search_fields = ["game_list__slug", "game_list__name"]
    raw_id_fields = ["game_list", "author"]
    readonly_fields = ["game_list", "number", "document", "notes", "visibility", "author", "created_at"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
