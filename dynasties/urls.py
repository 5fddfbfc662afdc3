from django.urls import path

from dynasties import views
from dynasties.inputs import register_path_converters

register_path_converters()

urlpatterns = [
    path("notices/", views.notifications, name="notifications"),
    path("notices/feed-address/", views.notices_feed_renew, name="notices_feed_renew"),
    path("notices/preferences/", views.notice_preferences, name="notice_preferences"),
    path("notices/webhooks/", views.webhooks, name="webhooks"),
    path("notices/mail/", views.mail_failures, name="mail_failures"),
    path("notices/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
