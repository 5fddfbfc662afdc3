"""Django's admin for posts, comments and resolutions: for looking, and for fixing text, not for playing."""

from django.contrib import admin

from votes.models import Comment, Post, Resolution


@admin.register(Post)
class PostAdmin(admin.ModelAdmin):
    list_display = ["title", "kind", "author", "posted_at", "status", "outcome"]
    list_filter = ["kind", "status"]
    search_fields = ["title", "slug"]

    def get_readonly_fields(self, request, obj=None):
        """A post's category, author, time and state change only through the site, where the posting rules,
        the edit locks and the resolution records apply; here they are shown, not edited."""
        if obj is None:
            return ()
        return ("kind", "author", "posted_at", "status", "outcome", "admin_note", "anonymous", "trivial")


admin.site.register(Comment)
admin.site.register(Resolution)
