"""Every URL of the site."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from blognomic import views
from blognomic.feeds import LatestPostsFeed

urlpatterns = [
    path("", views.front_page, name="front_page"),
    path("healthz/", views.healthz, name="healthz"),
    path("feed/", LatestPostsFeed(), name="feed"),
    path("<int:year>/<int:month>/", views.month_archive, name="month_archive"),
    path("category/<slug:category>/", views.category, name="category"),
    path("posts/<str:slug>/", views.post_detail, name="post_detail"),
    path("players/<path:name>/", views.player_detail, name="player_detail"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Before votes' own URLs: the post form here is votes' form with the amendment editor added.
    path("", include("blognomic.amendments.urls")),
    path("", include("votes.urls")),
    path("", include("ruleset.urls")),
    path("", include("gndt.urls")),
    path("", include("blognomic.roster.urls")),
    path("", include("blognomic.succession.urls")),
    path("", include("dynasties.urls")),
    path("django-admin/", admin.site.urls),
]
