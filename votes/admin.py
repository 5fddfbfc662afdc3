from django.contrib import admin

from votes.models import Comment, Post, Resolution


@admin.register(Post)
class PostAdmin(admin.ModelAdmin):
    list_display = ["title", "kind", "author", "posted_at", "status", "outcome"]
    list_filter = ["kind", "status"]
    search_fields = ["title", "slug"]


admin.site.register(Comment)
admin.site.register(Resolution)
