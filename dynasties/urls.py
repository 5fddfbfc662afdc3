from django.urls import path

from dynasties import views
from dynasties.inputs import register_path_converters

register_path_converters()

urlpatterns = [
    path("join/", views.join, name="join"),
    path("roster/", views.roster, name="roster"),
    path("roster/applications/<num:pk>/", views.application_decide, name="application_decide"),
    path("roster/<path:name>/idle/", views.idle, name="idle"),
    path("roster/<path:name>/unidle/", views.unidle, name="unidle"),
    path("roster/<path:name>/rename/", views.rename, name="rename"),
    path("roster/<path:name>/admin/", views.set_admin, name="set_admin"),
    path("leave/", views.leave, name="leave"),
    path("ascension/", views.ascension, name="ascension"),
    path("notices/", views.notifications, name="notifications"),
    path("core-rules/", views.core_rules, name="core_rules"),
    path("dynasties/", views.dynasty_list, name="dynasty_list"),
    path("dynasties/<num:number>/", views.dynasty_detail, name="dynasty_detail"),
]
