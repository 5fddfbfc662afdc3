from django.urls import path

from dynasties import views

urlpatterns = [
    path("notices/", views.notifications, name="notifications"),
    path("notices/feed-address/", views.notices_feed_renew, name="notices_feed_renew"),
]
