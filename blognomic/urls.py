"""Every URL of the site."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path

from blognomic.blog import live as live_views
from blognomic.blog import views
from blognomic.blog.feeds import CategoryFeed, LatestPostsFeed, NoticesFeed, PostCommentsFeed
from blognomic.community.api.views import api, not_an_endpoint
from blognomic.community.search import views as search_views
from blognomic.community.stats import views as stats_views
from blognomic.running.demo_clock_views import move_demo_clock
from blognomic.running.health import healthz
from blognomic.web.auth import LoginView, LogoutView
from blognomic.web.site_answers import django_admin_login, favicon
from dynasties.inputs import register_path_converters

register_path_converters()
handler404 = "blognomic.web.site_answers.page_not_found"


urlpatterns = [
    path("", views.front_page, name="front_page"),
    path("healthz/", healthz, name="healthz"),
    # Browsers that ignore the <link rel="icon"> still ask for /favicon.ico.
    path("favicon.ico", favicon, name="favicon"),
    path("feed/", LatestPostsFeed(), name="feed"),
    path("search/", search_views.search, name="search"),
    path("<num:year>/<num:month>/", views.month_archive, name="month_archive"),
    path("category/<slug:category>/", views.category, name="category"),
    path("category/<slug:category>/feed/", CategoryFeed(), name="category_feed"),
    path("posts/<str:slug>/comments/feed/", PostCommentsFeed(), name="post_comments_feed"),
    path("notices/feed/<str:token>/", NoticesFeed(), name="notices_feed"),
    path("posts/<str:slug>/", views.post_detail, name="post_detail"),
    # What changed on a page since it was rendered, asked every few seconds by the page (blognomic.web.live).
    path("live/", live_views.front_page_live, name="front_page_live"),
    path("posts/<str:slug>/live/", live_views.matter_live, name="matter_live"),
    path("players/", views.player_list, name="player_list"),
    path("players/<path:name>/", views.player_detail, name="player_detail"),
    path("stats/", stats_views.stats_page, name="stats"),
    path("stats/<slug:name>.png", stats_views.stats_chart, name="stats_chart"),
    path("stats/<slug:table>/", stats_views.stats_table, name="stats_table"),
    path("accounts/login/", LoginView.as_view(), name="login"),
    path("accounts/logout/", LogoutView.as_view(), name="logout"),
    # Django's views: the new password passes AUTH_PASSWORD_VALIDATORS, and this session stays logged in
    # while every other session of the account is refused from the next request.
    path("accounts/password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    # Before votes' own URLs: the post form here is votes' form with the amendment editor added.
    path("", include("blognomic.flows.amendments.urls")),
    path("", include("votes.urls")),
    path("", include("ruleset.urls")),
    path("", include("gndt.urls")),
    path("", include("blognomic.flows.roster.urls")),
    path("", include("blognomic.community.accounts.urls")),
    path("", include("blognomic.community.tokens.urls")),
    path("", include("blognomic.flows.succession.urls")),
    path("", include("dynasties.urls")),
    path("", include("blognomic.community.messaging.urls")),
    path("", include("blognomic.community.commitments.urls")),
    path("", include("blognomic.flows.time_travel.urls")),
    # The demo's clock (DEMO_CLOCK, `make run` only): everywhere else it answers 404.
    path("demo-clock/", move_demo_clock, name="demo_clock_move"),
    path("api/", api.urls),
    re_path(r"^api/(?P<rest>.*)$", not_an_endpoint, name="api_not_found"),
    # Before Django's administration: a player it would send to its own login page sees the site's 403.
    path("django-admin/login/", django_admin_login),
    path("django-admin/", admin.site.urls),
]

handler403 = "blognomic.web.site_answers.permission_denied"
handler500 = "blognomic.web.site_answers.server_error"
