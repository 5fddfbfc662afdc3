from django.urls import path

from blognomic.flows.succession import views

urlpatterns = [
    path("ascension/", views.ascension, name="ascension"),
    path("dynasties/", views.dynasty_list, name="dynasty_list"),
    path("dynasties/<num:number>/", views.dynasty_detail, name="dynasty_detail"),
]
