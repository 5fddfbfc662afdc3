from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from dynasties.models import Absence, Dynasty, Game, User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    list_display = ["username", "joined_at", "is_admin", "is_staff"]
    list_filter = ["is_admin", "is_staff"]
    fieldsets = [*UserAdmin.fieldsets, ("Game", {"fields": ["joined_at", "is_admin"]})]


admin.site.register(Absence)
admin.site.register(Dynasty)
admin.site.register(Game)
