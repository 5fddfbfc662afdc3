from django.urls import path

from blognomic.community.tokens import views

urlpatterns = [
    path("accounts/tokens/", views.tokens, name="tokens"),
    path("accounts/tokens/<num:pk>/revoke/", views.revoke, name="token_revoke"),
    path("admin-panel/tokens/", views.all_tokens, name="all_tokens"),
]
