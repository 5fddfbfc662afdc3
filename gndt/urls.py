"""Addresses of the GNDT: the current dynasty's table at /gndt/, any dynasty's at /gndt/dynasty/N/."""

from django.urls import path

from dynasties.inputs import register_path_converters
from gndt import deck_views, variable_views, views

register_path_converters()

urlpatterns = [
    path("gndt/", views.gndt_table, name="gndt_table"),
    path("gndt/log/", views.gndt_log_page, name="gndt_log"),
    path("gndt/export.csv", views.gndt_export, name="gndt_export"),
    path("gndt/edit/", views.gndt_edit, name="gndt_edit"),
    path("gndt/cell/", views.gndt_cell_form, name="gndt_cell_form"),
    path("gndt/updates/<num:pk>/", views.gndt_update_detail, name="gndt_update"),
    path("gndt/updates/<num:pk>/undo/", views.gndt_undo, name="gndt_undo"),
    path("gndt/dynasty/<num:number>/", views.gndt_table, name="gndt_dynasty_table"),
    path("gndt/dynasty/<num:number>/log/", views.gndt_log_page, name="gndt_dynasty_log"),
    path("gndt/dynasty/<num:number>/export.csv", views.gndt_export, name="gndt_dynasty_export"),
    path("gndt/decks/", deck_views.private_deck_list, name="private_decks"),
    path("gndt/decks/<num:pk>/", deck_views.private_deck_detail, name="private_deck"),
    path("gndt/manage/", views.gndt_manage, name="gndt_manage"),
    path("gndt/manage/columns/new/", views.gndt_column_form, name="gndt_column_new"),
    path("gndt/manage/columns/<num:pk>/", views.gndt_column_form, name="gndt_column_edit"),
    path("gndt/manage/actions/new/", views.gndt_action_form, name="gndt_action_new"),
    path("gndt/manage/actions/<num:pk>/", views.gndt_action_form, name="gndt_action_edit"),
    path("gndt/manage/effects/new/", views.gndt_effect_form, name="gndt_effect_new"),
    path("gndt/manage/effects/<num:pk>/", views.gndt_effect_form, name="gndt_effect_edit"),
    path("gndt/manage/rows/new/", views.gndt_row_create, name="gndt_row_new"),
    path("gndt/manage/rows/add-players/", views.gndt_rows_add_players, name="gndt_rows_add_players"),
    path("gndt/manage/lists/", views.gndt_list_save, name="gndt_list_save"),
    path("gndt/manage/variables/new/", variable_views.gndt_variable_new, name="gndt_variable_new"),
    path("gndt/manage/<str:kind>/<num:pk>/remove/", views.gndt_remove, name="gndt_remove"),
]
