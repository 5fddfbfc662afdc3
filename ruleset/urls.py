from django.urls import path

from ruleset import views

urlpatterns = [
    path("wiki/<str:slug>/", views.wiki_page, name="wiki_page"),
]
