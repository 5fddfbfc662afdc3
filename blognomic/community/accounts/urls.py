from django.contrib.auth import views as auth_views
from django.urls import path

from blognomic.community.accounts import views
from blognomic.community.accounts.reset import PasswordResetView

urlpatterns = [
    path("accounts/", views.account, name="account"),
    path("accounts/email/remove/", views.email_remove_view, name="email_remove"),
    path("accounts/email/confirm/<str:token>/", views.email_confirm_view, name="email_confirm"),
    path(
        "accounts/password/reset/",
        PasswordResetView.as_view(),
        name="password_reset",
    ),
    path("accounts/password/reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "accounts/password/reset/<str:uidb64>/<str:token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"
    ),
]
