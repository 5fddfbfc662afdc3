"""The wiki in Django's admin: pages may be protected or re-kinded; revisions are read-only history."""

from django.contrib import admin

from ruleset.models import Page, ProtectionChange, Revision


@admin.register(Page)
class PageAdmin(admin.ModelAdmin):
    list_display = ["title", "slug", "kind", "protected", "created_at"]
    list_filter = ["kind", "protected"]
    search_fields = ["title"]
    readonly_fields = ["created_at", "protected"]  # protect through the wiki, which logs who and why


@admin.register(Revision)
class RevisionAdmin(admin.ModelAdmin):
    """Revisions are append-only: add them through the wiki, never edit or delete them here."""

    list_display = ["page", "number", "at", "author", "summary", "size"]
    list_filter = ["page"]
    list_select_related = ["page", "author"]
    search_fields = ["summary"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ProtectionChange)
class ProtectionChangeAdmin(admin.ModelAdmin):
    list_display = ["page", "protected", "by", "at", "reason"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
