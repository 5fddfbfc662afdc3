from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from dynasties.models import Absence, Dynasty, Game, OutgoingMail, User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    list_display = ["username", "joined_at", "is_admin", "is_staff"]
    list_filter = ["is_admin", "is_staff"]
    fieldsets = [*UserAdmin.fieldsets, ("Game", {"fields": ["joined_at", "is_admin"]})]


admin.site.register(Absence)
admin.site.register(Dynasty)
admin.site.register(Game)


@admin.register(OutgoingMail)
class OutgoingMailAdmin(admin.ModelAdmin):
    """The outbox: what was sent, what waits for another try, and what failed and why."""

    list_display = ["created_at", "user", "kind", "subject", "status", "attempts", "last_error"]
    list_filter = ["status", "kind"]
    search_fields = ["user__username", "subject", "last_error"]
    readonly_fields = [field.name for field in OutgoingMail._meta.fields]
