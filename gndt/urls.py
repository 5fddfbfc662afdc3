from django.urls import path

from gndt import views

urlpatterns = [
    path("gndt/", views.gndt_table, name="gndt_table"),
]
