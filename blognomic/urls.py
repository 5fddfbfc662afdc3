"""Every URL of the site."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from blognomic import views
from blognomic.api.views import api
from blognomic.feeds import CategoryFeed, LatestPostsFeed, NoticesFeed, PostCommentsFeed
from blognomic.search import views as search_views
from blognomic.stats import views as stats_views
from dynasties.inputs import register_path_converters

register_path_converters()
handler404 = "blognomic.views.page_not_found"


urlpatterns = [
    path("", views.front_page, name="front_page"),
    path("healthz/", views.healthz, name="healthz"),
    # Browsers that ignore the <link rel="icon"> still ask for /favicon.ico.
    path("favicon.ico", views.favicon, name="favicon"),
    path("feed/", LatestPostsFeed(), name="feed"),
    path("search/", search_views.search, name="search"),
    path("<num:year>/<num:month>/", views.month_archive, name="month_archive"),
    path("category/<slug:category>/", views.category, name="category"),
    path("category/<slug:category>/feed/", CategoryFeed(), name="category_feed"),
    path("posts/<str:slug>/comments/feed/", PostCommentsFeed(), name="post_comments_feed"),
    path("notices/feed/<str:token>/", NoticesFeed(), name="notices_feed"),
    path("posts/<str:slug>/", views.post_detail, name="post_detail"),
    path("players/", views.player_list, name="player_list"),
    path("players/<path:name>/", views.player_detail, name="player_detail"),
    path("stats/", stats_views.stats_page, name="stats"),
    path("stats/<slug:name>.png", stats_views.stats_chart, name="stats_chart"),
    path("stats/<slug:table>/", stats_views.stats_table, name="stats_table"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Django's views: the new password passes AUTH_PASSWORD_VALIDATORS, and this session stays logged in
    # while every other session of the account is refused from the next request.
    path("accounts/password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    # Before votes' own URLs: the post form here is votes' form with the amendment editor added.
    path("", include("blognomic.amendments.urls")),
    path("", include("votes.urls")),
    path("", include("ruleset.urls")),
    path("", include("gndt.urls")),
    path("", include("blognomic.roster.urls")),
    path("", include("blognomic.succession.urls")),
    path("", include("dynasties.urls")),
    path("", include("blognomic.messaging.urls")),
    path("", include("blognomic.commitments.urls")),
    path("", include("blognomic.time_travel.urls")),
    path("api/", api.urls),
    path("django-admin/", admin.site.urls),
]

handler403 = "blognomic.views.permission_denied"
handler500 = "blognomic.views.server_error"
