from django.urls import path

from blognomic.flows.succession import views

urlpatterns = [
    path("admin-panel/dynasty/start/", views.dynasty_start_page, name="dynasty_start"),
    path("ascension/", views.ascension, name="ascension"),
    path("dynasties/", views.dynasty_list, name="dynasty_list"),
    path("dynasties/<num:number>/", views.dynasty_detail, name="dynasty_detail"),
]
