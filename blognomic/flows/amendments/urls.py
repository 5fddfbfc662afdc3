from django.urls import path

from blognomic.flows.amendments import views

urlpatterns = [
    path("new/", views.new_post, name="new_post"),
    path("admin-panel/amendments/<num:pk>/revert/", views.revert, name="amendment_revert"),
]
