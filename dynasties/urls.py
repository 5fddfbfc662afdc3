from django.urls import path

from dynasties import views

urlpatterns = [
    path("notices/", views.notifications, name="notifications"),
]
