"""Addresses of the wiki. Every page and revision is readable without logging in."""

from django.urls import path

from dynasties.inputs import register_path_converters
from ruleset import views
from ruleset.feeds import RevisionsFeed

register_path_converters()

urlpatterns = [
    path("wiki/", views.wiki_index, name="wiki_index"),
    path("wiki/new/", views.wiki_new, name="wiki_new"),
    path("wiki/<str:slug>/", views.wiki_page, name="wiki_page"),
    path("wiki/<str:slug>/history/", views.wiki_history, name="wiki_history"),
    path("wiki/<str:slug>/feed/", RevisionsFeed(), name="wiki_feed"),
    path("wiki/<str:slug>/r/<num:number>/", views.wiki_revision, name="wiki_revision"),
    path("wiki/<str:slug>/r/<num:number>/restore/", views.wiki_revert, name="wiki_revert"),
    path("wiki/<str:slug>/as-of/", views.wiki_as_of, name="wiki_as_of"),
    path("wiki/<str:slug>/diff/", views.wiki_diff_form, name="wiki_diff_form"),
    path("wiki/<str:slug>/diff/<str:old>/<str:new>/", views.wiki_diff, name="wiki_diff"),
    path("wiki/<str:slug>/edit/", views.wiki_edit, name="wiki_edit"),
    path("wiki/<str:slug>/protect/", views.wiki_protect, name="wiki_protect"),
    path("wiki/<str:slug>/rule/<str:ref>/", views.wiki_rule, name="wiki_rule"),
    path("wiki/<str:slug>/rule/<str:anchor>/history/", views.wiki_rule_history, name="wiki_rule_history"),
]
