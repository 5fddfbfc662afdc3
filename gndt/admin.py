"""The GNDT in Django's admin: for looking only.

Changes go through the GNDT's own pages (/gndt/manage/ for admins), whose services check the rules and log
every change; editing rows here would bypass both, so these views are read-only.
"""

from django.contrib import admin

from gndt.models import Action, CellChange, Column, EffectRun, RandomListVersion, Row, ScheduledEffect, Update


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Column)
class ColumnAdmin(ReadOnlyAdmin):
    list_display = [
        "name",
        "dynasty",
        "kind",
        "minimum",
        "maximum",
        "default",
        "order",
        "hidden",
        "owner_visible",
        "retired_at",
    ]
    list_filter = ["dynasty", "kind", "hidden"]


@admin.register(Row)
class RowAdmin(ReadOnlyAdmin):
    list_display = ["name", "dynasty", "user", "order", "retired_at"]
    list_filter = ["dynasty"]
    search_fields = ["name"]


@admin.register(Action)
class ActionAdmin(ReadOnlyAdmin):
    list_display = ["name", "dynasty", "frequency", "weekly_cap", "retired_at"]


@admin.register(ScheduledEffect)
class ScheduledEffectAdmin(ReadOnlyAdmin):
    list_display = ["name", "dynasty", "describe", "enabled"]


@admin.register(EffectRun)
class EffectRunAdmin(ReadOnlyAdmin):
    list_display = ["effect", "period_key", "at", "outcome", "update"]


@admin.register(RandomListVersion)
class RandomListVersionAdmin(ReadOnlyAdmin):
    list_display = ["name", "dynasty", "at", "by", "removed", "note"]


class CellChangeInline(admin.TabularInline):
    model = CellChange
    fields = ["row", "column", "old", "new"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Update)
class UpdateAdmin(ReadOnlyAdmin):
    list_display = ["pk", "dynasty", "at", "by", "source", "action", "comment"]
    list_filter = ["dynasty", "source"]
    search_fields = ["comment"]
    date_hierarchy = "at"
    list_select_related = ["dynasty", "by", "action"]
    inlines = [CellChangeInline]
