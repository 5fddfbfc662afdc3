from django.urls import path

from blognomic.community.commitments import views

urlpatterns = [
    path("seals/", views.seal_list, name="seals"),
    path("seals/new/", views.seal_new, name="seal_new"),
    path("seals/<num:pk>/reveal/", views.seal_reveal_view, name="seal_reveal"),
]
