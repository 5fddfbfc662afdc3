from django.urls import path

from blognomic.flows.time_travel import views

urlpatterns = [
    path("at/", views.game_at_picker, name="game_at_picker"),
    path("at/<str:at>/", views.game_at_moment, name="game_at"),
]
