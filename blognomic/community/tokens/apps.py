from django.apps import AppConfig


class TokensConfig(AppConfig):
    """Personal access tokens: how a player's own programs act for them through the API."""

    name = "blognomic.community.tokens"
    label = "tokens"
    verbose_name = "Personal access tokens"
