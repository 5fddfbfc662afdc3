from django.urls import path

from blognomic.flows.roster import views

urlpatterns = [
    path("join/", views.join, name="join"),
    path("join/sent/", views.join_sent, name="join_sent"),
    path("roster/", views.roster, name="roster"),
    path("roster/applications/<num:pk>/", views.application_decide, name="application_decide"),
    path("roster/idle/", views.idle_many, name="idle_many"),
    path("roster/<path:name>/idle/", views.idle, name="idle"),
    path("roster/<path:name>/unidle/", views.unidle, name="unidle"),
    path("roster/<path:name>/rename/", views.rename, name="rename"),
    path("roster/<path:name>/admin/", views.set_admin, name="set_admin"),
    path("leave/", views.leave, name="leave"),
    path("core-rules/", views.core_rules, name="core_rules"),
]
