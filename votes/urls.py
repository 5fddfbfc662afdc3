from django.urls import path

from votes import hiding_views, views

urlpatterns = [
    path("posts/<str:slug>/comment/", views.comment_create, name="comment_create"),
    path("posts/<str:slug>/tally/", views.tally_box, name="tally_box"),
    path("posts/<str:slug>/decide/", views.emperor_decide, name="emperor_decide"),
    path("preview/", views.markdown_preview, name="markdown_preview"),
    path("posts/<str:slug>/edit/", views.edit_post, name="edit_post"),
    path("admin-panel/", views.admin_panel, name="admin_panel"),
    path("admin-panel/hidden/", hiding_views.hidden_posts, name="hidden_posts"),
    path("posts/<str:slug>/hide/", hiding_views.hide, name="post_hide"),
    path("posts/<str:slug>/unhide/", hiding_views.unhide, name="post_unhide"),
    path("admin-panel/<str:slug>/resolve/", views.resolve, name="resolve"),
    path("admin-panel/<str:slug>/reopen/", views.reopen, name="reopen"),
    path("admin-panel/<str:slug>/carried-out/", views.carried_out, name="carried_out"),
]
