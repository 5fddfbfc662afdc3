from django.urls import path

from blognomic.community.messaging import views

urlpatterns = [
    path("messages/", views.inbox, name="messages_inbox"),
    path("messages/sent/", views.sent, name="messages_sent"),
    path("messages/new/", views.compose, name="messages_compose"),
    path("messages/<num:pk>/", views.thread, name="message_thread"),
]
